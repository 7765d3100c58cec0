// RUN: %mlir-diff %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-allow-unregistered-dialect -split-input-file' %s

func.func @ids() -> (index, index, index, index, index, index, index, index, index) {
  %0 = gpu.thread_id x
  %1 = gpu.block_id y upper_bound 64
  %2 = gpu.block_dim z {tag}
  %3 = gpu.grid_dim x upper_bound 1024 {tag}
  %4 = gpu.global_id y
  %5 = gpu.cluster_id z
  %6 = gpu.cluster_dim x
  %7 = gpu.cluster_dim_blocks y upper_bound 16
  %8 = gpu.cluster_block_id z
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : index, index, index, index, index, index, index, index, index
}

// -----

func.func @lanes_and_subgroups() -> (index, index, index, index, index, index, index) {
  %0 = gpu.lane_id
  %1 = gpu.lane_id upper_bound 32 {tag}
  %2 = gpu.subgroup_id : index
  %3 = gpu.subgroup_id upper_bound 8 : index
  %4 = gpu.num_subgroups {tag} : index
  %5 = gpu.subgroup_size upper_bound 64 : index
  %6 = gpu.subgroup_size : index
  return %0, %1, %2, %3, %4, %5, %6 : index, index, index, index, index, index, index
}

// -----

func.func @barrier_printf(%i: i64, %u: ui16, %s: si8, %h: bf16, %d: f64, %x: index) {
  gpu.barrier
  gpu.barrier {tag}
  gpu.printf "no args\n"
  gpu.printf "tab\there \"q\" é"
  gpu.printf "attr only" {tag}
  gpu.printf "%ld %u %d %f %f %ld\n", %i, %u, %s, %h, %d, %x : i64, ui16, si8, bf16, f64, index
  gpu.printf "%ld" {tag}, %i : i64
  return
}

// -----

gpu.module @kernels {
  gpu.func @uses_shared(%n: index) kernel {
    %tid = gpu.thread_id x
    %smem = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %view = gpu.dynamic_shared_memory {tag} : memref<?xi8, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
    gpu.barrier
    gpu.printf "tid=%ld n=%ld", %tid, %n : index, index
    gpu.return
  }
}
