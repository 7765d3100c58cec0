"""Which module of the gpu dialect defines which op, attribute and type.

The gpu package imports a module only when a Context first asks for one of its
names (`xgpu.ir.context.XGpuContext`): defining the ~80 op classes of the whole
dialect takes about half a second, and a program uses a few modules. The table
must list exactly what the modules define; `tests/unit/test_lazy_loading.py`
checks it against them.
"""

from __future__ import annotations

#: module -> the names (less `gpu.`) of its ops, attributes and types, in the
#: order the dialect object lists the modules
MODULES: dict[str, tuple[str, ...]] = {
    "types": (
        "async.token",
        "sparse.dntensor_handle",
        "sparse.spmat_handle",
        "sparse.spgemmop_handle",
    ),
    "attributes": (
        "dim",
        "all_reduce_op",
        "shuffle_mode",
        "broadcast",
        "address_space",
        "block",
        "thread",
        "warp",
        "warpgroup",
        "lane",
        "memory_space",
        "mask",
        "loop_dim_map",
    ),
    "compilation": (
        "kernel_metadata",
        "kernel_table",
        "object",
        "select_object",
    ),
    "host": (
        "wait",
        "alloc",
        "dealloc",
        "memcpy",
        "memset",
        "host_register",
        "host_unregister",
        "set_default_device",
    ),
    "launch": (
        "launch",
        "terminator",
    ),
    "launch_func": ("launch_func",),
    "kernel": (
        "thread_id",
        "block_id",
        "block_dim",
        "grid_dim",
        "global_id",
        "cluster_id",
        "cluster_dim",
        "cluster_dim_blocks",
        "cluster_block_id",
        "lane_id",
        "subgroup_id",
        "num_subgroups",
        "subgroup_size",
        "barrier",
        "printf",
        "dynamic_shared_memory",
    ),
    "subgroup": (
        "shuffle",
        "rotate",
        "all_reduce",
        "subgroup_reduce",
        "subgroup_broadcast",
        "warp_execute_on_lane_0",
        "yield",
    ),
    "module": ("module",),
    "func": (
        "func",
        "return",
    ),
    "binary": ("binary",),
    "mma": (
        "subgroup_mma_load_matrix",
        "subgroup_mma_store_matrix",
        "subgroup_mma_compute",
        "subgroup_mma_constant_matrix",
        "subgroup_mma_elementwise",
        "subgroup_mma_extract_thread_local",
        "subgroup_mma_insert_thread_local",
        "mma_matrix",
        "mma_element_wise",
    ),
    "sparse": (
        "create_dn_tensor",
        "destroy_dn_tensor",
        "create_coo",
        "create_coo_aos",
        "create_csr",
        "create_csc",
        "create_bsr",
        "create_2to4_spmat",
        "destroy_sp_mat",
        "spmv_buffer_size",
        "spmv",
        "spmm_buffer_size",
        "spmm",
        "sddmm_buffer_size",
        "sddmm",
        "spgemm_create_descr",
        "spgemm_destroy_descr",
        "spgemm_work_estimation_or_compute",
        "spgemm_copy",
        "spmat_get_size",
        "set_csr_pointers",
        "mat_transpose_mode",
        "prune_2to4_spmat_flag",
        "spgemm_work_estimation_or_compute_kind",
    ),
}

#: full name (`gpu.wait`) -> module
WHERE: dict[str, str] = {f"gpu.{n}": m for m, names in MODULES.items() for n in names}
