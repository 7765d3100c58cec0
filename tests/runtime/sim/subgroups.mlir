// Subgroup and workgroup collectives, compared between the simulator and
// OpenCL (tests/unit/test_sim.py runs both with --subgroup-size 8).
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @collectives(%out: memref<8x32xi32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %c6 = arith.constant 6 : index
      %c7 = arith.constant 7 : index
      %tid = gpu.thread_id x
      %lane = gpu.lane_id
      %v = arith.index_cast %tid : index to i32
      %k3 = arith.constant 3 : i32
      %k7 = arith.constant 7 : i32
      %sq = arith.muli %v, %v : i32
      %x = arith.remui %sq, %k7 : i32
      %w8 = arith.constant 8 : i32
      %one = arith.constant 1 : i32
      %s1, %ok1 = gpu.shuffle xor %x, %one, %w8 : i32
      %s2, %ok2 = gpu.shuffle down %x, %k3, %w8 : i32
      %r1 = gpu.subgroup_reduce add %x : (i32) -> i32
      %r2 = gpu.subgroup_reduce maxsi %x cluster(size = 4) : (i32) -> i32
      %b = gpu.subgroup_broadcast %x, specific_lane %k3 : i32
      %all = gpu.all_reduce %x {
      ^bb0(%lhs: i32, %rhs: i32):
        %three = arith.constant 3 : i32
        %m = arith.muli %lhs, %three : i32
        %s = arith.addi %m, %rhs : i32
        gpu.yield %s : i32
      } : (i32) -> i32
      %sgid = gpu.subgroup_id : index
      %sgsz = gpu.subgroup_size : index
      %nsg = gpu.num_subgroups : index
      %info0 = arith.muli %sgid, %c6 : index
      %info1 = arith.addi %info0, %sgsz : index
      %info2 = arith.muli %info1, %c7 : index
      %info3 = arith.addi %info2, %nsg : index
      %info4 = arith.muli %info3, %c5 : index
      %info = arith.addi %info4, %lane : index
      %infoi = arith.index_cast %info : index to i32
      %ok2i = arith.extui %ok2 : i1 to i32
      memref.store %s1, %out[%c0, %tid] : memref<8x32xi32>
      memref.store %s2, %out[%c1, %tid] : memref<8x32xi32>
      memref.store %ok2i, %out[%c2, %tid] : memref<8x32xi32>
      memref.store %r1, %out[%c3, %tid] : memref<8x32xi32>
      memref.store %r2, %out[%c4, %tid] : memref<8x32xi32>
      memref.store %b, %out[%c5, %tid] : memref<8x32xi32>
      memref.store %all, %out[%c6, %tid] : memref<8x32xi32>
      memref.store %infoi, %out[%c7, %tid] : memref<8x32xi32>
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c30 = arith.constant 30 : index
    %h = memref.alloc() : memref<8x32xi32>
    %zero = arith.constant 0 : i32
    %d = gpu.alloc () : memref<8x32xi32>
    gpu.memset %d, %zero : memref<8x32xi32>, i32
    gpu.launch_func @k::@collectives blocks in (%c1, %c1, %c1) threads in (%c30, %c1, %c1) args(%d : memref<8x32xi32>)
    gpu.memcpy %h, %d : memref<8x32xi32>, memref<8x32xi32>
    %u = memref.cast %h : memref<8x32xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }
}
