// RUN: xgpu-opt %s | filecheck %s --strict-whitespace
// RUN: xgpu-opt %s --print-op-generic | xgpu-opt | filecheck %s --strict-whitespace
// RUN: xgpu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC --strict-whitespace

// Kernel-side ops: ids and sizes, lane/subgroup queries, barrier, printf and
// dynamic shared memory, in every syntax variant MLIR 22 has.

func.func @index_ops() {
  %tx = gpu.thread_id x
  %ty = gpu.thread_id y upper_bound 128
  %bz = gpu.block_id z
  %bd = gpu.block_dim x upper_bound 1024 {tag}
  %gd = gpu.grid_dim y
  %gi = gpu.global_id z
  %ci = gpu.cluster_id x
  %cd = gpu.cluster_dim y upper_bound 8
  %cb = gpu.cluster_dim_blocks z
  %cbi = gpu.cluster_block_id x
  %full = gpu.thread_id #gpu<dim z>
  return
}

// CHECK-LABEL: func.func @index_ops() {
// CHECK-NEXT: %{{.*}} = gpu.thread_id  x{{$}}
// CHECK-NEXT: %{{.*}} = gpu.thread_id  y upper_bound 128{{$}}
// CHECK-NEXT: %{{.*}} = gpu.block_id  z{{$}}
// CHECK-NEXT: %{{.*}} = gpu.block_dim  x upper_bound 1024 {tag}{{$}}
// CHECK-NEXT: %{{.*}} = gpu.grid_dim  y{{$}}
// CHECK-NEXT: %{{.*}} = gpu.global_id  z{{$}}
// CHECK-NEXT: %{{.*}} = gpu.cluster_id  x{{$}}
// CHECK-NEXT: %{{.*}} = gpu.cluster_dim  y upper_bound 8{{$}}
// CHECK-NEXT: %{{.*}} = gpu.cluster_dim_blocks  z{{$}}
// CHECK-NEXT: %{{.*}} = gpu.cluster_block_id  x{{$}}
// CHECK-NEXT: %{{.*}} = gpu.thread_id  z{{$}}

// GENERIC-LABEL: sym_name = "index_ops"
// GENERIC: "gpu.thread_id"() <{dimension = #gpu<dim x>}> : () -> index
// GENERIC-NEXT: "gpu.thread_id"() <{dimension = #gpu<dim y>, upper_bound = 128 : index}> : () -> index
// GENERIC-NEXT: "gpu.block_id"() <{dimension = #gpu<dim z>}> : () -> index
// GENERIC-NEXT: "gpu.block_dim"() <{dimension = #gpu<dim x>, upper_bound = 1024 : index}> {tag} : () -> index
// GENERIC-NEXT: "gpu.grid_dim"() <{dimension = #gpu<dim y>}> : () -> index
// GENERIC-NEXT: "gpu.global_id"() <{dimension = #gpu<dim z>}> : () -> index
// GENERIC-NEXT: "gpu.cluster_id"() <{dimension = #gpu<dim x>}> : () -> index
// GENERIC-NEXT: "gpu.cluster_dim"() <{dimension = #gpu<dim y>, upper_bound = 8 : index}> : () -> index
// GENERIC-NEXT: "gpu.cluster_dim_blocks"() <{dimension = #gpu<dim z>}> : () -> index
// GENERIC-NEXT: "gpu.cluster_block_id"() <{dimension = #gpu<dim x>}> : () -> index

func.func @lane_and_subgroup() {
  %l0 = gpu.lane_id
  %l1 = gpu.lane_id upper_bound 64
  %l2 = gpu.lane_id upper_bound 32 {tag}
  %s0 = gpu.subgroup_id : index
  %s1 = gpu.subgroup_id upper_bound 16 : index
  %n0 = gpu.num_subgroups : index
  %n1 = gpu.num_subgroups upper_bound 4 {tag} : index
  %z0 = gpu.subgroup_size : index
  %z1 = gpu.subgroup_size upper_bound 64 : index
  return
}

// CHECK-LABEL: func.func @lane_and_subgroup() {
// CHECK-NEXT: %{{.*}} = gpu.lane_id{{$}}
// CHECK-NEXT: %{{.*}} = gpu.lane_id upper_bound 64{{$}}
// CHECK-NEXT: %{{.*}} = gpu.lane_id upper_bound 32 {tag}{{$}}
// CHECK-NEXT: %{{.*}} = gpu.subgroup_id : index{{$}}
// CHECK-NEXT: %{{.*}} = gpu.subgroup_id upper_bound 16 : index{{$}}
// CHECK-NEXT: %{{.*}} = gpu.num_subgroups : index{{$}}
// CHECK-NEXT: %{{.*}} = gpu.num_subgroups upper_bound 4 {tag} : index{{$}}
// CHECK-NEXT: %{{.*}} = gpu.subgroup_size : index{{$}}
// CHECK-NEXT: %{{.*}} = gpu.subgroup_size upper_bound 64 : index{{$}}

// GENERIC-LABEL: sym_name = "lane_and_subgroup"
// GENERIC: "gpu.lane_id"() : () -> index
// GENERIC-NEXT: "gpu.lane_id"() <{upper_bound = 64 : index}> : () -> index
// GENERIC-NEXT: "gpu.lane_id"() <{upper_bound = 32 : index}> {tag} : () -> index
// GENERIC-NEXT: "gpu.subgroup_id"() : () -> index
// GENERIC-NEXT: "gpu.subgroup_id"() <{upper_bound = 16 : index}> : () -> index
// GENERIC-NEXT: "gpu.num_subgroups"() : () -> index
// GENERIC-NEXT: "gpu.num_subgroups"() <{upper_bound = 4 : index}> {tag} : () -> index
// GENERIC-NEXT: "gpu.subgroup_size"() : () -> index
// GENERIC-NEXT: "gpu.subgroup_size"() <{upper_bound = 64 : index}> : () -> index

func.func @barrier_and_printf(%i: i32, %u: ui8, %f: f16, %x: index) {
  gpu.barrier
  gpu.barrier {tag}
  gpu.printf "plain\n"
  gpu.printf "tagged" {tag}
  gpu.printf "%d %u %f %ld", %i, %u, %f, %x : i32, ui8, f16, index
  gpu.printf "t=%d" {tag}, %i : i32
  return
}

// CHECK-LABEL: func.func @barrier_and_printf(
// CHECK-NEXT: gpu.barrier{{$}}
// CHECK-NEXT: gpu.barrier {tag}{{$}}
// CHECK-NEXT: gpu.printf "plain\0A"{{$}}
// CHECK-NEXT: gpu.printf "tagged" {tag}{{$}}
// CHECK-NEXT: gpu.printf "%d %u %f %ld", %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : i32, ui8, f16, index{{$}}
// CHECK-NEXT: gpu.printf "t=%d" {tag}, %{{.*}} : i32{{$}}

// GENERIC-LABEL: sym_name = "barrier_and_printf"
// GENERIC: "gpu.barrier"() : () -> ()
// GENERIC-NEXT: "gpu.barrier"() {tag} : () -> ()
// GENERIC-NEXT: "gpu.printf"() <{format = "plain\0A"}> : () -> ()
// GENERIC-NEXT: "gpu.printf"() <{format = "tagged"}> {tag} : () -> ()
// GENERIC-NEXT: "gpu.printf"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{format = "%d %u %f %ld"}> : (i32, ui8, f16, index) -> ()
// GENERIC-NEXT: "gpu.printf"(%{{.*}}) <{format = "t=%d"}> {tag} : (i32) -> ()

gpu.module @shared {
  gpu.func @kernel() kernel {
    %0 = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %1 = gpu.dynamic_shared_memory {tag} : memref<?xi8, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// CHECK-LABEL: gpu.module @shared
// CHECK: %{{.*}} = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>{{$}}
// CHECK-NEXT: %{{.*}} = gpu.dynamic_shared_memory {tag} : memref<?xi8, strided<[1], offset: ?>, #gpu.address_space<workgroup>>{{$}}

// GENERIC-LABEL: "gpu.module"
// GENERIC: "gpu.dynamic_shared_memory"() : () -> memref<?xi8, #gpu.address_space<workgroup>>
// GENERIC-NEXT: "gpu.dynamic_shared_memory"() {tag} : () -> memref<?xi8, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
