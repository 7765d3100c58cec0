"""Results print with MLIR 22's default names (its `getAsmResultNames`): ops
create their results with these names as xDSL name hints, names written in the
source are kept."""

from __future__ import annotations

import os
import re

import pytest
from xdsl.dialects.builtin import MemRefType, f32

import xgpu
from xgpu.dialects.gpu.host import AllocOp, WaitOp
from xgpu.dialects.gpu.kernel import BlockDimOp, ClusterBlockIdOp, LaneIdOp, ThreadIdOp
from xgpu.tools import mlir_diff

MLIR_OPT = mlir_diff.find_mlir_opt()
requires_mlir = pytest.mark.skipif(
    MLIR_OPT is None and os.environ.get("XGPU_REQUIRE_MLIR") != "1",
    reason="mlir-opt (22) not found",
)

_ARGS = (
    "%arg0: !gpu.async.token, %arg1: index, %arg2: memref<?xf64>, %arg3: memref<?xindex>, "
    "%arg4: memref<?xi8>, %arg5: !gpu.sparse.spmat_handle, "
    "%arg6: !gpu.sparse.dntensor_handle, %arg7: !gpu.sparse.spgemmop_handle"
)

# Every op whose results MLIR names, written with numeric names (no name hint),
# one repeated name per function at most: xDSL and MLIR uniquify repeats
# differently (see test_repeated_names_are_uniquified_as_xdsl_does).
PROGRAM = """func.func @index_ops() {
  %0 = gpu.thread_id x
  %1 = gpu.thread_id y
  %2 = gpu.thread_id z
  %3 = gpu.block_id x
  %4 = gpu.block_id y
  %5 = gpu.block_id z
  %6 = gpu.block_dim x
  %7 = gpu.block_dim y upper_bound 8
  %8 = gpu.block_dim z
  %9 = gpu.grid_dim x
  %10 = gpu.grid_dim y
  %11 = gpu.grid_dim z
  %12 = gpu.global_id x
  %13 = gpu.global_id y
  %14 = gpu.global_id z
  %15 = gpu.cluster_id x
  %16 = gpu.cluster_id y
  %17 = gpu.cluster_id z
  %18 = gpu.cluster_dim x
  %19 = gpu.cluster_dim y
  %20 = gpu.cluster_dim z
  %21 = gpu.cluster_dim_blocks x
  %22 = gpu.cluster_dim_blocks y
  %23 = gpu.cluster_dim_blocks z
  %24 = gpu.cluster_block_id x
  %25 = gpu.cluster_block_id y
  %26 = gpu.cluster_block_id z
  %27 = gpu.lane_id
  %28 = gpu.subgroup_id : index
  %29 = gpu.num_subgroups : index
  %30 = gpu.subgroup_size : index
  return
}
func.func @host(%arg0: index) {
  %0 = gpu.wait async
  %1, %2 = gpu.alloc async [%0] (%arg0) : memref<?xf32>
  %3 = gpu.dealloc async [%2] %1 : memref<?xf32>
  gpu.wait [%3]
  return
}
func.func @host_sync() {
  %0 = gpu.alloc host_shared () : memref<4xf32>
  return
}
func.func @shuffle(%arg0: f32, %arg1: i32) {
  %0, %1 = gpu.shuffle xor %arg0, %arg1, %arg1 : f32
  return
}
func.func @rotate(%arg0: f32) {
  %0, %1 = gpu.rotate %arg0, 3, 16 : f32
  return
}
func.func @create_dn_tensor(ARGS) {
  %0, %1 = gpu.create_dn_tensor async [%arg0] %arg2, %arg1, %arg1 : index, index into memref<?xf64>
  return
}
func.func @create_dn_tensor_sync(ARGS) {
  %0 = gpu.create_dn_tensor %arg2, %arg1 : index into memref<?xf64>
  return
}
func.func @create_coo(ARGS) {
  %0, %1 = gpu.create_coo async [%arg0] %arg1, %arg1, %arg1, %arg3, %arg3, %arg2 : memref<?xindex>, memref<?xindex>, memref<?xf64>
  return
}
func.func @create_coo_aos(ARGS) {
  %0 = gpu.create_coo_aos %arg1, %arg1, %arg1, %arg3, %arg2 : memref<?xindex>, memref<?xf64>
  return
}
func.func @create_csr(ARGS) {
  %0, %1 = gpu.create_csr async [%arg0] %arg1, %arg1, %arg1, %arg3, %arg3, %arg2 : memref<?xindex>, memref<?xindex>, memref<?xf64>
  return
}
func.func @create_csc(ARGS) {
  %0, %1 = gpu.create_csc async [%arg0] %arg1, %arg1, %arg1, %arg3, %arg3, %arg2 : memref<?xindex>, memref<?xindex>, memref<?xf64>
  return
}
func.func @create_bsr(ARGS) {
  %0, %1 = gpu.create_bsr async [%arg0] %arg1, %arg1, %arg1, %arg1, %arg1, %arg3, %arg3, %arg2 : memref<?xindex>, memref<?xindex>, memref<?xf64>
  return
}
func.func @create_2to4_spmat(ARGS) {
  %0, %1 = gpu.create_2to4_spmat async [%arg0] {PRUNE_AND_CHECK} %arg1, %arg1, %arg2 : memref<?xf64>
  return
}
func.func @create_2to4_spmat_sync(ARGS) {
  %0 = gpu.create_2to4_spmat {PRUNE_ONLY} %arg1, %arg1, %arg2 : memref<?xf64>
  return
}
func.func @spmv_buffer_size(ARGS) {
  %0, %1 = gpu.spmv_buffer_size async [%arg0] %arg5, %arg6, %arg6 into f64
  return
}
func.func @spmv_buffer_size_sync(ARGS) {
  %0 = gpu.spmv_buffer_size %arg5{TRANSPOSE}, %arg6, %arg6 into f32
  return
}
func.func @spmm_buffer_size(ARGS) {
  %0, %1 = gpu.spmm_buffer_size async [%arg0] %arg5{TRANSPOSE}, %arg6{TRANSPOSE}, %arg6 : index into f32
  return
}
func.func @spmm_buffer_size_sync(ARGS) {
  %0 = gpu.spmm_buffer_size %arg5, %arg6, %arg6 : index into f16
  return
}
func.func @sddmm_buffer_size(ARGS) {
  %0, %1 = gpu.sddmm_buffer_size async [%arg0] %arg6{TRANSPOSE}, %arg6, %arg5 into f32
  return
}
func.func @spgemm_create_descr(ARGS) {
  %0, %1 = gpu.spgemm_create_descr async [%arg0]
  return
}
func.func @spgemm_create_descr_sync(ARGS) {
  %0 = gpu.spgemm_create_descr
  return
}
func.func @spgemm_work_estimation_or_compute(ARGS) {
  %0, %1 = gpu.spgemm_work_estimation_or_compute async [%arg0] {WORK_ESTIMATION} %arg5, %arg5{TRANSPOSE}, %arg5, %arg7, %arg1, %arg4 : f32 into memref<?xi8>
  return
}
func.func @spmat_get_size(ARGS) {
  %0, %1, %2, %3 = gpu.spmat_get_size async [%arg0] %arg5
  return
}
func.func @spmat_get_size_sync(ARGS) {
  %0, %1, %2 = gpu.spmat_get_size %arg5
  return
}
func.func @unnamed(ARGS) {
  %0 = gpu.wait async [%arg0]
  %1 = gpu.destroy_dn_tensor async [%0] %arg6
  %2 = gpu.destroy_sp_mat async [%1] %arg5
  %3 = gpu.spmv async [%2] %arg5, %arg6, %arg6, %arg4 : memref<?xi8> into f64
  %4 = gpu.spmm async [%3] %arg5, %arg6{TRANSPOSE}, %arg6, %arg4 : memref<?xi8> into f32
  %5 = gpu.sddmm async [%4] %arg6, %arg6{TRANSPOSE}, %arg5, %arg4 : memref<?xi8> into f32
  %6 = gpu.spgemm_copy async [%5] %arg5, %arg5{TRANSPOSE}, %arg5, %arg7 : f32
  %7 = gpu.set_csr_pointers async [%6] %arg5, %arg3, %arg3, %arg2 : memref<?xindex>, memref<?xindex>, memref<?xf64>
  %8 = gpu.spgemm_destroy_descr async [%7] %arg7
  %9 = gpu.memset async [%8] %arg3, %arg1 : memref<?xindex>, index
  %10 = gpu.memcpy async [%9] %arg2, %arg2 : memref<?xf64>, memref<?xf64>
  %11 = gpu.dealloc async [%10] %arg2 : memref<?xf64>
  return
}
""".replace("ARGS", _ARGS)

# mlir-opt 22's gpu lines for PROGRAM (block arguments are named %argN, as
# MLIR prints them, since xDSL keeps the source's names).
EXPECTED = [
    "%thread_id_x = gpu.thread_id  x",
    "%thread_id_y = gpu.thread_id  y",
    "%thread_id_z = gpu.thread_id  z",
    "%block_id_x = gpu.block_id  x",
    "%block_id_y = gpu.block_id  y",
    "%block_id_z = gpu.block_id  z",
    "%block_dim_x = gpu.block_dim  x",
    "%block_dim_y = gpu.block_dim  y upper_bound 8",
    "%block_dim_z = gpu.block_dim  z",
    "%grid_dim_x = gpu.grid_dim  x",
    "%grid_dim_y = gpu.grid_dim  y",
    "%grid_dim_z = gpu.grid_dim  z",
    "%global_id_x = gpu.global_id  x",
    "%global_id_y = gpu.global_id  y",
    "%global_id_z = gpu.global_id  z",
    "%cluster_id_x = gpu.cluster_id  x",
    "%cluster_id_y = gpu.cluster_id  y",
    "%cluster_id_z = gpu.cluster_id  z",
    "%cluster_dim_x = gpu.cluster_dim  x",
    "%cluster_dim_y = gpu.cluster_dim  y",
    "%cluster_dim_z = gpu.cluster_dim  z",
    "%cluster_dim_blocks_x = gpu.cluster_dim_blocks  x",
    "%cluster_dim_blocks_y = gpu.cluster_dim_blocks  y",
    "%cluster_dim_blocks_z = gpu.cluster_dim_blocks  z",
    "%cluster_block_id_x = gpu.cluster_block_id  x",
    "%cluster_block_id_y = gpu.cluster_block_id  y",
    "%cluster_block_id_z = gpu.cluster_block_id  z",
    "%0 = gpu.lane_id",
    "%1 = gpu.subgroup_id : index",
    "%2 = gpu.num_subgroups : index",
    "%3 = gpu.subgroup_size : index",
    "%0 = gpu.wait async",
    "%memref, %asyncToken = gpu.alloc async [%0] (%arg0) : memref<?xf32>",
    "%1 = gpu.dealloc async [%asyncToken] %memref : memref<?xf32>",
    "gpu.wait [%1]",
    "%memref = gpu.alloc  host_shared () : memref<4xf32>",
    "%shuffleResult, %valid = gpu.shuffle  xor %arg0, %arg1, %arg1 : f32",
    "%rotateResult, %valid = gpu.rotate %arg0, 3, 16 : f32",
    "%dnTensor, %asyncToken = gpu.create_dn_tensor async [%arg0] %arg2, %arg1, %arg1 : index, index into memref<?xf64>",
    "%dnTensor = gpu.create_dn_tensor  %arg2, %arg1 : index into memref<?xf64>",
    "%spmat, %asyncToken = gpu.create_coo async [%arg0] %arg1, %arg1, %arg1, %arg3, %arg3, %arg2 : memref<?xindex>, memref<?xindex>, memref<?xf64>",
    "%spmat = gpu.create_coo_aos  %arg1, %arg1, %arg1, %arg3, %arg2 : memref<?xindex>, memref<?xf64>",
    "%spmat, %asyncToken = gpu.create_csr async [%arg0] %arg1, %arg1, %arg1, %arg3, %arg3, %arg2 : memref<?xindex>, memref<?xindex>, memref<?xf64>",
    "%spmat, %asyncToken = gpu.create_csc async [%arg0] %arg1, %arg1, %arg1, %arg3, %arg3, %arg2 : memref<?xindex>, memref<?xindex>, memref<?xf64>",
    "%spmat, %asyncToken = gpu.create_bsr async [%arg0] %arg1, %arg1, %arg1, %arg1, %arg1, %arg3, %arg3, %arg2 : memref<?xindex>, memref<?xindex>, memref<?xf64>",
    "%spMat, %asyncToken = gpu.create_2to4_spmat async [%arg0]{ PRUNE_AND_CHECK} %arg1, %arg1, %arg2 : memref<?xf64>",
    "%spMat = gpu.create_2to4_spmat { PRUNE_ONLY} %arg1, %arg1, %arg2 : memref<?xf64>",
    "%bufferSz, %asyncToken = gpu.spmv_buffer_size async [%arg0] %arg5, %arg6, %arg6 into f64",
    "%bufferSz = gpu.spmv_buffer_size  %arg5{ TRANSPOSE}, %arg6, %arg6 into f32",
    "%bufferSzs, %asyncToken = gpu.spmm_buffer_size async [%arg0] %arg5{ TRANSPOSE}, %arg6{ TRANSPOSE}, %arg6 : index into f32",
    "%bufferSzs = gpu.spmm_buffer_size  %arg5, %arg6, %arg6 : index into f16",
    "%bufferSz, %asyncToken = gpu.sddmm_buffer_size async [%arg0] %arg6{ TRANSPOSE}, %arg6, %arg5 into f32",
    "%desc, %asyncToken = gpu.spgemm_create_descr async [%arg0]",
    "%desc = gpu.spgemm_create_descr",
    "%bufferSzNew, %asyncToken = gpu.spgemm_work_estimation_or_compute async [%arg0]{ WORK_ESTIMATION} %arg5, %arg5{ TRANSPOSE}, %arg5, %arg7, %arg1, %arg4 : f32 into memref<?xi8>",
    "%rows, %cols, %nnz, %asyncToken = gpu.spmat_get_size async [%arg0] %arg5",
    "%rows, %cols, %nnz = gpu.spmat_get_size  %arg5",
    "%0 = gpu.wait async [%arg0]",
    "%1 = gpu.destroy_dn_tensor async [%0] %arg6",
    "%2 = gpu.destroy_sp_mat async [%1] %arg5",
    "%3 = gpu.spmv async [%2] %arg5, %arg6, %arg6, %arg4 : memref<?xi8> into f64",
    "%4 = gpu.spmm async [%3] %arg5, %arg6{ TRANSPOSE}, %arg6, %arg4 : memref<?xi8> into f32",
    "%5 = gpu.sddmm async [%4] %arg6, %arg6{ TRANSPOSE}, %arg5, %arg4 : memref<?xi8> into f32",
    "%6 = gpu.spgemm_copy async [%5] %arg5, %arg5{ TRANSPOSE}, %arg5, %arg7 : f32",
    "%7 = gpu.set_csr_pointers async [%6] %arg5, %arg3, %arg3, %arg2 : memref<?xindex>, memref<?xindex>, memref<?xf64>",
    "%8 = gpu.spgemm_destroy_descr async [%7] %arg7",
    "%9 = gpu.memset async [%8] %arg3, %arg1 : memref<?xindex>, index",
    "%10 = gpu.memcpy async [%9] %arg2, %arg2 : memref<?xf64>, memref<?xf64>",
    "%11 = gpu.dealloc async [%10] %arg2 : memref<?xf64>",
]


def _gpu_lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if re.match(r"\s*(%|gpu\.)", line)]


def test_numeric_results_print_with_mlir_names():
    assert _gpu_lines(xgpu.print_mlir(xgpu.parse(PROGRAM))) == EXPECTED


@requires_mlir
def test_names_match_mlir_opt():
    assert MLIR_OPT is not None, "XGPU_REQUIRE_MLIR=1 but mlir-opt (22) not found"
    mlir = _gpu_lines(mlir_diff.run_mlir_opt(MLIR_OPT, PROGRAM))
    assert mlir == EXPECTED
    assert _gpu_lines(xgpu.print_mlir(xgpu.parse(PROGRAM))) == mlir


def test_source_names_are_kept():
    text = """func.func @f(%n: index, %x: f32, %o: i32) {
  %tid = gpu.thread_id x
  %buf, %tok = gpu.alloc async (%n) : memref<?xf32>
  %r, %ok = gpu.shuffle xor %x, %o, %o : f32
  %1 = gpu.block_id y
  return
}
"""
    lines = _gpu_lines(xgpu.print_mlir(xgpu.parse(text)))
    assert lines == [
        "%tid = gpu.thread_id  x",
        "%buf, %tok = gpu.alloc async (%n) : memref<?xf32>",
        "%r, %ok = gpu.shuffle  xor %x, %o, %o : f32",
        "%block_id_y = gpu.block_id  y",
    ]


def test_builders_name_results():
    assert ThreadIdOp("z").result.name_hint == "thread_id_z"
    assert BlockDimOp("x").result.name_hint == "block_dim_x"
    assert ClusterBlockIdOp("y").result.name_hint == "cluster_block_id_y"
    assert LaneIdOp().result.name_hint is None
    assert WaitOp(is_async=True).async_token.name_hint is None
    sync = AllocOp(MemRefType(f32, [4]))
    assert [r.name_hint for r in sync.results] == ["memref"]
    token = WaitOp(is_async=True).async_token
    assert token is not None
    asynchronous = AllocOp(MemRefType(f32, [4]), deps=[token], is_async=True)
    assert [r.name_hint for r in asynchronous.results] == ["memref", "asyncToken"]
    # A clone keeps the names; a hint set by hand wins.
    op = ThreadIdOp("x")
    op.result.name_hint = "tx"
    assert op.clone().result.name_hint == "tx"


def test_repeated_names_are_uniquified_as_mlir_does():
    # One counter for all names of a function, from 0, restarting in each function.
    text = """func.func @f() {
  %0 = gpu.thread_id x
  %1 = gpu.thread_id x
  %2 = gpu.block_id x
  %3 = gpu.block_id x
  return
}
func.func @g() {
  %0 = gpu.thread_id x
  %1 = gpu.thread_id x
  return
}
"""
    assert [line.split(" =")[0] for line in _gpu_lines(xgpu.print_mlir(xgpu.parse(text)))] == [
        "%thread_id_x",
        "%thread_id_x_0",
        "%block_id_x",
        "%block_id_x_1",
        "%thread_id_x",
        "%thread_id_x_0",
    ]


def test_unnamed_results_of_one_op_print_as_one_group():
    text = """func.func private @two() -> (f32, i32)
func.func @f(%l: index) -> f32 {
  %0:2 = func.call @two() : () -> (f32, i32)
  return %0#0 : f32
}
"""
    out = xgpu.print_mlir(xgpu.parse(text))
    assert "%0:2 = func.call @two() : () -> (f32, i32)" in out
    assert "func.return %0#0 : f32" in out
