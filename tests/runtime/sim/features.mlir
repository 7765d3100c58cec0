// Kernel features the simulator must run as OpenCL does: a device function
// that contains a barrier, private attributions, memref.alloca, dynamic
// shared memory viewed as f32 through memref.view, scf.while, and printf
// conversions (tests/unit/test_sim.py compares both backends).
module attributes {gpu.container_module} {
  gpu.module @k {
    // Reverses the block's values through workgroup memory: needs the barrier.
    func.func @reverse(%s: memref<?xf32, #gpu.address_space<workgroup>>, %v: f32, %tid: index, %n: index) -> f32 {
      %c1 = arith.constant 1 : index
      memref.store %v, %s[%tid] : memref<?xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %last = arith.subi %n, %c1 : index
      %j = arith.subi %last, %tid : index
      %r = memref.load %s[%j] : memref<?xf32, #gpu.address_space<workgroup>>
      return %r : f32
    }
    gpu.func @features(%out: memref<4x8xf32>, %flag: i32) private(%p: memref<2xf32, #gpu.address_space<private>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c8 = arith.constant 8 : index
      %tid = gpu.thread_id x
      %n = gpu.block_dim x
      %ti = arith.index_cast %tid : index to i32
      %tf = arith.sitofp %ti : i32 to f32
      %dsm = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %shared = memref.view %dsm[%c0][%n] : memref<?xi8, #gpu.address_space<workgroup>> to memref<?xf32, #gpu.address_space<workgroup>>
      %rev = func.call @reverse(%shared, %tf, %tid, %n) : (memref<?xf32, #gpu.address_space<workgroup>>, f32, index, index) -> f32
      memref.store %rev, %out[%c0, %tid] : memref<4x8xf32>
      // private memory and alloca
      %half = arith.constant 0.5 : f32
      %h = arith.mulf %tf, %half : f32
      memref.store %h, %p[%c0] : memref<2xf32, #gpu.address_space<private>>
      memref.store %tf, %p[%c1] : memref<2xf32, #gpu.address_space<private>>
      %a = memref.alloca() : memref<1xf32, #gpu.address_space<private>>
      %p0 = memref.load %p[%c0] : memref<2xf32, #gpu.address_space<private>>
      %p1 = memref.load %p[%c1] : memref<2xf32, #gpu.address_space<private>>
      %sum = arith.addf %p0, %p1 : f32
      memref.store %sum, %a[%c0] : memref<1xf32, #gpu.address_space<private>>
      %back = memref.load %a[%c0] : memref<1xf32, #gpu.address_space<private>>
      memref.store %back, %out[%c1, %tid] : memref<4x8xf32>
      // scf.while: the number of halvings of tid + 1 to reach 0
      %steps = scf.while (%x = %tid, %k = %c0) : (index, index) -> index {
        %more = arith.cmpi ne, %x, %c0 : index
        scf.condition(%more) %k : index
      } do {
      ^bb0(%k2: index):
        %x2 = arith.shrui %tid, %k2 : index
        %x3 = arith.shrui %x2, %c1 : index
        %k3 = arith.addi %k2, %c1 : index
        scf.yield %x3, %k3 : index, index
      }
      %si = arith.index_cast %steps : index to i32
      %sf = arith.sitofp %si : i32 to f32
      memref.store %sf, %out[%c2, %tid] : memref<4x8xf32>
      %third = arith.constant 3.0 : f32
      %q = arith.divf %tf, %third : f32
      memref.store %q, %out[%c3, %tid] : memref<4x8xf32>
      %first = arith.cmpi eq, %tid, %c3 : index
      scf.if %first {
        %neg = arith.constant -5 : i32
        %d = arith.constant 2.5e-3 : f64
        %big = arith.constant 1234567 : i64
        gpu.printf "flag=%d neg=%x u=%u tf=%8.3f q=%e d=%g big=%ld c=%c %%\n", %flag, %neg, %neg, %tf, %q, %d, %big, %flag : i32, i32, i32, f32, f32, f64, i64, i32
      }
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %c32i = arith.constant 32 : i32
    %flag = arith.constant 65 : i32
    %h = memref.alloc() : memref<4x8xf32>
    %d = gpu.alloc () : memref<4x8xf32>
    gpu.launch_func @k::@features blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) dynamic_shared_memory_size %c32i args(%d : memref<4x8xf32>, %flag : i32)
    gpu.memcpy %h, %d : memref<4x8xf32>, memref<4x8xf32>
    %u = memref.cast %h : memref<4x8xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
}
