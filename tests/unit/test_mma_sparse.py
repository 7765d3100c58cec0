"""!gpu.mma_matrix, the subgroup_mma_* ops and the sparse (cuSPARSE-style) ops."""

from __future__ import annotations

import re

import pytest
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    MemRefType,
    ModuleOp,
    Signedness,
    StridedLayoutAttr,
    i8,
    i32,
)
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Block, Region
from xdsl.ir.affine import AffineMap
from xdsl.utils.exceptions import ParseError, VerifyException

from xgpu.dialects.gpu.async_interface import AsyncOpInterface
from xgpu.dialects.gpu.mma import (
    MMAElementwiseOp,
    MMAMatrixType,
    SubgroupMmaComputeOp,
    SubgroupMmaConstantMatrixOp,
    SubgroupMmaElementwiseOp,
    SubgroupMmaExtractThreadLocalOp,
    SubgroupMmaInsertThreadLocalOp,
    SubgroupMmaLoadMatrixOp,
    SubgroupMmaStoreMatrixOp,
    is_last_dim_unit_stride,
)
from xgpu.dialects.gpu.sparse import (
    Create2To4SpMatOp,
    CreateCsrOp,
    CreateDnTensorOp,
    DestroySpMatOp,
    Prune2To4SpMatFlag,
    SpGEMMCreateDescrOp,
    SpGEMMWorkEstimationOrComputeKind,
    SpGEMMWorkEstimationOrComputeOp,
    SpMatGetSizeOp,
    SpMMBufferSizeOp,
    SpMMOp,
    SpMVBufferSizeOp,
    TransposeMode,
)
from xgpu.dialects.gpu.types import AsyncTokenType
from xgpu.ir.verifier import verify_ir

F16, F32 = Float16Type(), Float32Type()


def _func(arg_types, build):
    """A module holding `func.func @f(args)` whose body `build(block)` fills."""
    block = Block(arg_types=arg_types)
    build(block)
    block.add_op(ReturnOp())
    return ModuleOp([FuncOp("f", (arg_types, []), Region(block))])


def _norm(line: str) -> str:
    """SSA names do not matter here, only the op syntax."""
    return re.sub(r"%[0-9a-zA-Z_]+", "%_", line.strip())


def _lines(module: ModuleOp) -> list[str]:
    lines = (line.strip() for line in str(module).splitlines())
    return [_norm(line) for line in lines if re.match(r"(%.* = )?gpu\.", line)]


# ---------------------------------------------------------------------------
# !gpu.mma_matrix
# ---------------------------------------------------------------------------


def test_mma_matrix_type_accessors_and_print():
    t = MMAMatrixType([16, 8], F16, "AOp")
    assert t.get_shape() == (16, 8)
    assert t.get_num_dims() == 2
    assert t.get_element_type() == F16
    assert t.get_operand() == "AOp"
    assert str(t) == '!gpu.mma_matrix<16x8xf16, "AOp">'


@pytest.mark.parametrize(
    ("shape", "elt", "operand", "message"),
    [
        ([16], F16, "AOp", "MMAMatrixType must have exactly two dimensions"),
        ([16, 16], F16, "DOp", "operand expected to be one of AOp, BOp or COp"),
        ([16, 16, 16], F16, "XOp", "operand expected to be one of AOp, BOp or COp"),
        (
            [16, 16],
            i8,
            "AOp",
            "MMAMatrixType elements must be SI8, UI8, I32, F16, F32, or F64",
        ),
    ],
)
def test_mma_matrix_type_verifier(shape, elt, operand, message):
    with pytest.raises(VerifyException, match=message):
        MMAMatrixType(shape, elt, operand)


@pytest.mark.parametrize(
    "elt",
    [
        IntegerType(8, Signedness.SIGNED),
        IntegerType(8, Signedness.UNSIGNED),
        i32,
        F16,
        F32,
        Float64Type(),
    ],
)
def test_mma_matrix_type_valid_elements(elt):
    MMAMatrixType([16, 16], elt, "COp")


def test_mma_matrix_type_parse_errors(xgpu_opt):
    res = xgpu_opt('func.func @f(%x: !gpu.mma_matrix<?x16xf16, "AOp">) {\n  return\n}\n')
    assert res.rc != 0
    assert "expected static shape" in res.err + res.out
    res = xgpu_opt('func.func @f(%x: !gpu.mma_matrix<16x16xbf16, "AOp">) {\n  return\n}\n')
    assert res.rc != 0
    assert "MMAMatrixType elements must be SI8, UI8, I32, F16, F32, or F64" in res.err + res.out


# ---------------------------------------------------------------------------
# MMA ops: builders and verifiers
# ---------------------------------------------------------------------------

A = MMAMatrixType([16, 8], F16, "AOp")
B = MMAMatrixType([8, 16], F16, "BOp")
C = MMAMatrixType([16, 16], F16, "COp")
MEM = MemRefType(F16, [32, 32])


def test_mma_builders_print_like_mlir():
    ops = {}

    def build(block: Block):
        m, i, h = block.args[0], block.args[1], block.args[2]
        a = SubgroupMmaLoadMatrixOp(m, [i, i], 32, A, transpose=True)
        b = SubgroupMmaLoadMatrixOp(m, [i, i], 32, B)
        c = SubgroupMmaConstantMatrixOp(h, C)
        d = SubgroupMmaComputeOp(a.res, b.res, c.res, a_transpose=True)
        e = SubgroupMmaElementwiseOp(MMAElementwiseOp.ADDF, [d.res, c.res], C)
        x = SubgroupMmaExtractThreadLocalOp(e.res, [i])
        y = SubgroupMmaInsertThreadLocalOp(x.res, e.res, [i])
        s = SubgroupMmaStoreMatrixOp(y.res, m, [i, i], 32)
        ops.update(d=d, x=x, y=y)
        block.add_ops([a, b, c, d, e, x, y, s])

    module = _func([MEM, IndexType(), F16], build)
    assert verify_ir(module) is None
    assert ops["d"].res.type == C
    assert ops["x"].res.type == F16
    assert ops["y"].res.type == C
    assert _lines(module) == [
        _norm(x)
        for x in [
            '%0 = gpu.subgroup_mma_load_matrix %1[%2, %2] {leadDimension = 32 : index, transpose} : memref<32x32xf16> -> !gpu.mma_matrix<16x8xf16, "AOp">',
            '%3 = gpu.subgroup_mma_load_matrix %1[%2, %2] {leadDimension = 32 : index} : memref<32x32xf16> -> !gpu.mma_matrix<8x16xf16, "BOp">',
            '%4 = gpu.subgroup_mma_constant_matrix %5 : !gpu.mma_matrix<16x16xf16, "COp">',
            '%6 = gpu.subgroup_mma_compute %0, %3, %4 {a_transpose} : !gpu.mma_matrix<16x8xf16, "AOp">, !gpu.mma_matrix<8x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf16, "COp">',
            '%7 = gpu.subgroup_mma_elementwise  addf %6, %4 : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">',
            '%8 = gpu.subgroup_mma_extract_thread_local %7[%2] : !gpu.mma_matrix<16x16xf16, "COp"> -> f16',
            '%9 = gpu.subgroup_mma_insert_thread_local %8, %7[%2] : f16, !gpu.mma_matrix<16x16xf16, "COp"> -> !gpu.mma_matrix<16x16xf16, "COp">',
            'gpu.subgroup_mma_store_matrix %9, %1[%2, %2] {leadDimension = 32 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<32x32xf16>',
        ]
    ]


def _verify_message(arg_types, make_op) -> str:
    made = []

    def build(block: Block):
        op = make_op(*block.args)
        made.append(op)
        block.add_op(op)

    module = _func(arg_types, build)
    with pytest.raises(VerifyException) as info:
        made[0].verify()
    diag = verify_ir(module)
    assert diag is not None
    return str(info.value)


STRIDED = MemRefType(F16, [32, 32], StridedLayoutAttr([64, 2]))


@pytest.mark.parametrize(
    ("arg_types", "make_op", "message"),
    [
        (
            [STRIDED, IndexType()],
            lambda m, i: SubgroupMmaLoadMatrixOp(m, [i, i], 32, A),
            "expected source memref most minor dim must have unit stride",
        ),
        (
            [STRIDED, IndexType(), C],
            lambda m, i, c: SubgroupMmaStoreMatrixOp(c, m, [i, i], 32),
            "expected destination memref most minor dim must have unit stride",
        ),
        (
            [MEM, IndexType(), A],
            lambda m, i, a: SubgroupMmaStoreMatrixOp(a, m, [i, i], 32),
            "expected the operand matrix being stored to have 'COp' operand type",
        ),
        (
            [B, A, C],
            lambda b, a, c: SubgroupMmaComputeOp(b, a, c),
            "operands must be in the order AOp, BOp, COp",
        ),
        (
            [A, A.__class__([16, 16], F16, "BOp"), C],
            lambda a, b, c: SubgroupMmaComputeOp(a, b, c),
            "operand shapes do not satisfy matmul constraints",
        ),
        (
            [MMAMatrixType([16, 16], i32, "AOp"), MMAMatrixType([16, 16], i32, "BOp"), C],
            lambda a, b, c: SubgroupMmaComputeOp(a, b, c),
            "operand #0 must be gpu.mma_matrix of 8-bit signed integer or 8-bit unsigned "
            "integer or 16-bit float or 32-bit float or 64-bit float values",
        ),
        (
            [F32],
            lambda v: SubgroupMmaConstantMatrixOp(v, C),
            "failed to verify that value type matches element type of mma_matrix",
        ),
        (
            [Float64Type()],
            lambda v: SubgroupMmaConstantMatrixOp(v, MMAMatrixType([16, 16], Float64Type(), "COp")),
            "operand #0 must be 8-bit signed integer or 8-bit unsigned integer or 32-bit "
            "signless integer or 16-bit float or 32-bit float, but got 'f64'",
        ),
        (
            [F32, C, IndexType()],
            lambda v, c, i: SubgroupMmaInsertThreadLocalOp(v, c, [i]),
            "failed to verify that value type matches element type of mma_matrix",
        ),
    ],
)
def test_mma_verifier_messages(arg_types, make_op, message):
    assert message in _verify_message(arg_types, make_op)


def test_mma_verifier_messages_have_mlir_prefix_rules(xgpu_opt):
    # MLIR reports the stride/operand rules with emitError (no "'op' op" prefix).
    text = (
        "func.func @f(%m: memref<32x32xf16, strided<[64, 2]>>, %i: index) {\n"
        "  %0 = gpu.subgroup_mma_load_matrix %m[%i, %i] {leadDimension = 32 : index}"
        ' : memref<32x32xf16, strided<[64, 2]>> -> !gpu.mma_matrix<16x16xf16, "AOp">\n'
        "  return\n}\n"
    )
    res = xgpu_opt(text)
    assert res.rc != 0
    out = res.err + res.out
    assert "error: expected source memref most minor dim must have unit stride" in out
    assert "op expected source memref" not in out


def test_elementwise_parse_error(xgpu_opt):
    text = (
        'func.func @f(%c: !gpu.mma_matrix<16x16xf16, "COp">) {\n'
        '  %0 = gpu.subgroup_mma_elementwise foo %c : (!gpu.mma_matrix<16x16xf16, "COp">)'
        ' -> !gpu.mma_matrix<16x16xf16, "COp">\n  return\n}\n'
    )
    res = xgpu_opt(text)
    assert res.rc != 0
    assert (
        "expected ::mlir::gpu::MMAElementwiseOp to be one of: addf, mulf, subf, maxf, minf, "
        "divf, addi, muli, subi, divs, divu, negatef, negates, extf" in res.err + res.out
    )


def test_mma_effects():
    from xdsl.traits import MemoryReadEffect, MemoryWriteEffect, Pure

    assert SubgroupMmaLoadMatrixOp.has_trait(MemoryReadEffect)
    assert SubgroupMmaStoreMatrixOp.has_trait(MemoryWriteEffect)
    for op in (
        SubgroupMmaComputeOp,
        SubgroupMmaConstantMatrixOp,
        SubgroupMmaElementwiseOp,
        SubgroupMmaExtractThreadLocalOp,
        SubgroupMmaInsertThreadLocalOp,
    ):
        assert op.has_trait(Pure)


@pytest.mark.parametrize(
    ("layout", "unit"),
    [
        (None, True),
        (StridedLayoutAttr([64, 1]), True),
        (StridedLayoutAttr([1, 32]), False),
        (StridedLayoutAttr([None, None]), False),
        (AffineMapAttr(AffineMap.from_callable(lambda d0, d1: (d0 * 64 + d1,))), True),
        (AffineMapAttr(AffineMap.from_callable(lambda d0, d1: (d1 * 32 + d0,))), False),
        (AffineMapAttr(AffineMap.from_callable(lambda d0, d1: (d1, d0))), False),
        (AffineMapAttr(AffineMap.identity(2)), True),
    ],
)
def test_last_dim_unit_stride(layout, unit):
    t = MemRefType(F16, [32, 32], layout) if layout is not None else MemRefType(F16, [32, 32])
    assert is_last_dim_unit_stride(t) is unit


def test_rank0_memref_is_unit_stride():
    assert is_last_dim_unit_stride(MemRefType(F16, []))


# ---------------------------------------------------------------------------
# Sparse ops
# ---------------------------------------------------------------------------


def test_sparse_builders_print_like_mlir():
    made = {}

    def build(block: Block):
        n, vals, buf, t = block.args
        dn = CreateDnTensorOp(vals, [n, n], deps=[t], is_async=True)
        csr = CreateCsrOp(n, n, n, buf, buf, vals, deps=[dn.async_token], is_async=True)
        s24 = Create2To4SpMatOp(n, n, vals, Prune2To4SpMatFlag.PRUNE_ONLY)
        bs = SpMVBufferSizeOp(csr.spmat, dn.dn_tensor, dn.dn_tensor, F32, TransposeMode.TRANSPOSE)
        bss = SpMMBufferSizeOp(
            csr.spmat,
            dn.dn_tensor,
            dn.dn_tensor,
            F32,
            num_buffers=2,
            mode_b=TransposeMode.CONJUGATE_TRANSPOSE,
            deps=[csr.async_token],
            is_async=True,
        )
        spmm = SpMMOp(csr.spmat, dn.dn_tensor, dn.dn_tensor, [buf, buf], F32)
        desc = SpGEMMCreateDescrOp()
        we = SpGEMMWorkEstimationOrComputeOp(
            SpGEMMWorkEstimationOrComputeKind.COMPUTE,
            csr.spmat,
            csr.spmat,
            csr.spmat,
            desc.desc,
            n,
            buf,
            F32,
            mode_a=TransposeMode.TRANSPOSE,
        )
        size = SpMatGetSizeOp(csr.spmat, deps=[bss.async_token], is_async=True)
        destroy = DestroySpMatOp(csr.spmat)
        made.update(dn=dn, bss=bss, spmm=spmm, size=size)
        block.add_ops([dn, csr, s24, bs, bss, spmm, desc, we, size, destroy])

    i8mem = MemRefType(i8, [DYNAMIC_INDEX])
    f64mem = MemRefType(Float64Type(), [DYNAMIC_INDEX])
    module = _func([IndexType(), f64mem, i8mem, AsyncTokenType()], build)
    assert verify_ir(module) is None
    lines = _lines(module)
    assert lines == [
        _norm(x)
        for x in [
            "%0, %1 = gpu.create_dn_tensor async [%2] %3, %4, %4 : index, index into memref<?xf64>",
            "%5, %6 = gpu.create_csr async [%1] %4, %4, %4, %7, %7, %3 : memref<?xi8>, memref<?xi8>, memref<?xf64>",
            "%8 = gpu.create_2to4_spmat { PRUNE_ONLY} %4, %4, %3 : memref<?xf64>",
            "%9 = gpu.spmv_buffer_size  %5{ TRANSPOSE}, %0, %0 into f32",
            "%10, %11, %12 = gpu.spmm_buffer_size async [%6] %5, %0{ CONJUGATE_TRANSPOSE}, %0 : index, index into f32",
            "gpu.spmm  %5, %0, %0, %7, %7 : memref<?xi8>, memref<?xi8> into f32",
            "%13 = gpu.spgemm_create_descr",
            "%14 = gpu.spgemm_work_estimation_or_compute { COMPUTE} %5{ TRANSPOSE}, %5, %5, %13, %4, %7 : f32 into memref<?xi8>",
            "%15, %16, %17, %18 = gpu.spmat_get_size async [%12] %5",
            "gpu.destroy_sp_mat  %5",
        ]
    ]
    # Segment sizes as MLIR lays them out.
    assert made["dn"].properties["operandSegmentSizes"].get_values() == (1, 1, 2)
    assert made["bss"].properties["resultSegmentSizes"].get_values() == (2, 1)
    assert made["spmm"].properties["operandSegmentSizes"].get_values() == (0, 1, 1, 1, 2)
    # Default transpose modes are stored, as MLIR stores them.
    assert made["spmm"].properties["modeA"].data == TransposeMode.NON_TRANSPOSE
    # Properties are kept sorted like MLIR's.
    assert list(made["spmm"].properties) == sorted(made["spmm"].properties)


def test_sparse_ops_are_async():
    desc = SpGEMMCreateDescrOp(is_async=True)
    assert isinstance(desc, AsyncOpInterface)
    assert desc.is_async and desc.token is desc.async_token
    assert desc.dependencies == ()
    t = SpGEMMCreateDescrOp(is_async=True)
    size = SpMatGetSizeOp(desc.desc)
    assert not size.is_async and size.token is None
    size.add_async_dependency(t.async_token)
    assert size.dependencies == (t.async_token,)


def test_async_dependency_updates_segments():
    def build(block: Block):
        vals, n, t0, t1 = block.args
        dn = CreateDnTensorOp(vals, [n], deps=[t0], is_async=True)
        dn.add_async_dependency(t1)
        assert dn.dependencies == (t1, t0)
        assert dn.properties["operandSegmentSizes"].get_values() == (2, 1, 1)
        block.add_op(dn)

    module = _func(
        [MemRefType(F32, [DYNAMIC_INDEX]), IndexType(), AsyncTokenType(), AsyncTokenType()], build
    )
    assert verify_ir(module) is None


def test_generic_default_modes_are_filled(xgpu_opt):
    text = (
        "func.func @f(%s: !gpu.sparse.spmat_handle, %d: !gpu.sparse.dntensor_handle, %n: index,"
        " %m: memref<?xf64>) {\n"
        '  %0 = "gpu.spmv_buffer_size"(%s, %d, %d) <{computeType = f32}> : '
        "(!gpu.sparse.spmat_handle, !gpu.sparse.dntensor_handle, !gpu.sparse.dntensor_handle)"
        " -> index\n"
        '  %1 = "gpu.create_2to4_spmat"(%n, %n, %m) : (index, index, memref<?xf64>)'
        " -> !gpu.sparse.spmat_handle\n"
        "  return\n}\n"
    )
    res = xgpu_opt(text, "--print-op-generic")
    assert res.rc == 0, res.err
    assert "<{computeType = f32, modeA = #gpu<mat_transpose_mode NON_TRANSPOSE>}>" in res.out
    assert "<{pruneFlag = #gpu<prune_2to4_spmat_flag PRUNE_AND_CHECK>}>" in res.out
    res = xgpu_opt(text)
    assert "gpu.spmv_buffer_size  %s, %d, %d into f32" in res.out
    assert "gpu.create_2to4_spmat { PRUNE_AND_CHECK} %n, %n, %m : memref<?xf64>" in res.out


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            "%0 = gpu.spmv_buffer_size %s{FOO}, %d, %d into f32",
            "expected ::mlir::gpu::TransposeMode to be one of: NON_TRANSPOSE, TRANSPOSE, "
            "CONJUGATE_TRANSPOSE",
        ),
        (
            "%0 = gpu.create_2to4_spmat {} %n, %n, %m : memref<?xf64>",
            "expected valid keyword or string",
        ),
        (
            "%0 = gpu.create_2to4_spmat {ALL} %n, %n, %m : memref<?xf64>",
            "expected ::mlir::gpu::Prune2To4SpMatFlag to be one of: NONE, PRUNE_ONLY, "
            "PRUNE_AND_CHECK",
        ),
    ],
)
def test_sparse_enum_parse_errors(xgpu_opt, line, message):
    text = (
        "func.func @f(%s: !gpu.sparse.spmat_handle, %d: !gpu.sparse.dntensor_handle, %n: index,"
        f" %m: memref<?xf64>) {{\n  {line}\n  return\n}}\n"
    )
    res = xgpu_opt(text)
    assert res.rc != 0
    assert message in res.err + res.out
    assert "Traceback" not in res.err + res.out


def test_parse_errors_are_diagnostics(xgpu_opt):
    # Malformed inputs give a diagnostic, never a traceback.
    for text in (
        "func.func @f(%x: !gpu.mma_matrix<16x16xf16, AOp>) {\n  return\n}\n",
        'func.func @f(%x: !gpu.mma_matrix<16x16xf16 "AOp">) {\n  return\n}\n',
        "func.func @f(%v: f16) {\n  %0 = gpu.subgroup_mma_constant_matrix %v : f16\n  return\n}\n",
    ):
        res = xgpu_opt(text)
        assert res.rc != 0
        assert "Traceback" not in res.err + res.out
    with pytest.raises(ParseError):
        from xdsl.context import Context
        from xdsl.dialects.builtin import Builtin
        from xdsl.parser import Parser

        from xgpu.dialects.gpu import GPU

        ctx = Context()
        ctx.load_dialect(Builtin)
        ctx.load_dialect(GPU)
        Parser(ctx, '!gpu.mma_matrix<16x16xf16, "ZOp">').parse_type()


def test_remaining_sparse_builders_verify():
    from xgpu.dialects.gpu.sparse import (
        CreateBsrOp,
        CreateCooAoSOp,
        CreateCooOp,
        CreateCscOp,
        DestroyDnTensorOp,
        SDDMMBufferSizeOp,
        SDDMMOp,
        SetCsrPointersOp,
        SpGEMMCopyOp,
        SpGEMMDestroyDescrOp,
        SpMVOp,
    )

    def build(block: Block):
        n, vals, buf = block.args
        dn = CreateDnTensorOp(vals, [n, n])
        coo = CreateCooOp(n, n, n, buf, buf, vals, is_async=True)
        aos = CreateCooAoSOp(n, n, n, buf, vals, deps=[coo.async_token])
        csc = CreateCscOp(n, n, n, buf, buf, vals)
        bsr = CreateBsrOp(n, n, n, n, n, buf, buf, vals, is_async=True)
        sp = bsr.spmat
        spmv = SpMVOp(sp, dn.dn_tensor, dn.dn_tensor, buf, F32, deps=[bsr.async_token])
        sz = SDDMMBufferSizeOp(dn.dn_tensor, dn.dn_tensor, sp, F32, TransposeMode.TRANSPOSE)
        sddmm = SDDMMOp(dn.dn_tensor, dn.dn_tensor, sp, buf, F32, is_async=True)
        desc = SpGEMMCreateDescrOp()
        copy = SpGEMMCopyOp(
            sp, aos.spmat, csc.spmat, desc.desc, F32, mode_b=TransposeMode.TRANSPOSE
        )
        ptrs = SetCsrPointersOp(sp, buf, buf, vals, deps=[sddmm.async_token], is_async=True)
        destroy = SpGEMMDestroyDescrOp(desc.desc, deps=[ptrs.async_token])
        free = DestroyDnTensorOp(dn.dn_tensor)
        block.add_ops([dn, coo, aos, csc, bsr, spmv, sz, sddmm, desc, copy, ptrs, destroy, free])

    module = _func(
        [IndexType(), MemRefType(Float64Type(), [DYNAMIC_INDEX]), MemRefType(i8, [DYNAMIC_INDEX])],
        build,
    )
    assert verify_ir(module) is None
    lines = _lines(module)
    assert _norm("%0 = gpu.sddmm_buffer_size  %1{ TRANSPOSE}, %1, %2 into f32") in lines
    assert _norm("gpu.spgemm_copy  %1, %2{ TRANSPOSE}, %3, %4 : f32") in lines
    assert (
        _norm(
            "%0 = gpu.set_csr_pointers async [%1] %2, %3, %3, %4 : memref<?xi8>, memref<?xi8>, memref<?xf64>"
        )
        in lines
    )
