"""Kernel-side ops (ids, lane/subgroup queries, barrier, printf, dynamic shared
memory) and the gpu attributes of attributes.py built from Python."""

from __future__ import annotations

import pytest
from xdsl.dialects import test
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    BytesAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    StringAttr,
    f32,
    i32,
)
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Block, Region
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.traits import MemoryWriteEffect, Pure, get_effects
from xdsl.utils.exceptions import VerifyException

from xgpu.dialects.gpu.attributes import (
    AddressSpace,
    AddressSpaceAttr,
    BlockMappingAttr,
    Dimension,
    DimensionAttr,
    LaneMappingAttr,
    LoopDimMapAttr,
    MappingId,
    MappingMaskAttr,
    MemorySpaceMappingAttr,
    Processor,
    ThreadMappingAttr,
    WarpgroupMappingAttr,
    WarpMappingAttr,
)
from xgpu.dialects.gpu.kernel import (
    BarrierOp,
    BlockDimOp,
    BlockIdOp,
    ClusterBlockIdOp,
    ClusterDimBlocksOp,
    ClusterDimOp,
    ClusterIdOp,
    DynamicSharedMemoryOp,
    GlobalIdOp,
    GPUIndexOp,
    GridDimOp,
    LaneIdOp,
    NumSubgroupsOp,
    PrintfOp,
    SubgroupIdOp,
    SubgroupSizeOp,
    ThreadIdOp,
)
from xgpu.ir.affine_text import affine_map_text
from xgpu.ir.verifier import verify_ir

INDEX_OPS = [
    (ThreadIdOp, "gpu.thread_id"),
    (BlockIdOp, "gpu.block_id"),
    (BlockDimOp, "gpu.block_dim"),
    (GridDimOp, "gpu.grid_dim"),
    (GlobalIdOp, "gpu.global_id"),
    (ClusterIdOp, "gpu.cluster_id"),
    (ClusterDimOp, "gpu.cluster_dim"),
    (ClusterDimBlocksOp, "gpu.cluster_dim_blocks"),
    (ClusterBlockIdOp, "gpu.cluster_block_id"),
]


def _in_func(*ops, arg_types=()) -> ModuleOp:
    block = Block(arg_types=arg_types)
    block.add_ops([*ops, ReturnOp()])
    return ModuleOp([FuncOp("f", (list(arg_types), []), Region(block))])


def _workgroup_memref(shape=(DYNAMIC_INDEX,), element=IntegerType(8), space=None) -> MemRefType:
    space = AddressSpaceAttr(AddressSpace.WORKGROUP) if space is None else space
    return MemRefType(element, list(shape), memory_space=space)


# ----------------------------------------------------------------- index ops


@pytest.mark.parametrize(("cls", "name"), INDEX_OPS)
def test_index_op_builders(cls, name):
    plain = cls(Dimension.X)
    bounded = cls("y", upper_bound=128)
    from_attr = cls(DimensionAttr(Dimension.Z), upper_bound=IntegerAttr(4, IndexType()))
    assert isinstance(plain, GPUIndexOp)
    assert plain.name == name
    assert plain.dimension == DimensionAttr(Dimension.X)
    assert plain.upper_bound is None
    assert bounded.upper_bound == IntegerAttr(128, IndexType())
    assert from_attr.dimension.data == Dimension.Z
    assert plain.result.type == IndexType()
    assert plain.has_trait(Pure)
    module = _in_func(plain, bounded, from_attr)
    assert verify_ir(module) is None
    text = str(module)
    assert f"= {name}  x\n" in text
    assert f"= {name}  y upper_bound 128\n" in text
    assert f"= {name}  z upper_bound 4\n" in text


def test_index_op_generic_form_uses_properties():
    op = ThreadIdOp(Dimension.Y, upper_bound=8)
    assert set(op.properties) == {"dimension", "upper_bound"}
    assert not op.attributes


def test_lane_and_subgroup_builders():
    ops = [
        LaneIdOp(),
        LaneIdOp(upper_bound=64),
        SubgroupIdOp(),
        SubgroupIdOp(upper_bound=4),
        NumSubgroupsOp(upper_bound=IntegerAttr(16, IndexType())),
        SubgroupSizeOp(),
    ]
    for op in ops:
        assert op.has_trait(Pure)
        assert op.result.type == IndexType()
    module = _in_func(*ops)
    assert verify_ir(module) is None
    lines = [line.strip().split(" = ", 1)[1] for line in str(module).splitlines() if "gpu." in line]
    assert lines == [
        "gpu.lane_id",
        "gpu.lane_id upper_bound 64",
        "gpu.subgroup_id : index",
        "gpu.subgroup_id upper_bound 4 : index",
        "gpu.num_subgroups upper_bound 16 : index",
        "gpu.subgroup_size : index",
    ]


# ------------------------------------------------------------ barrier, printf


def test_barrier_has_unknown_effects():
    barrier = BarrierOp()
    # MLIR 22 declares no memory effects for gpu.barrier: they are unknown.
    assert get_effects(barrier) is None
    assert not barrier.operands and not barrier.properties
    module = _in_func(barrier)
    assert verify_ir(module) is None
    assert "    gpu.barrier\n" in str(module)


def test_printf_builder_and_effects():
    block = Block(arg_types=[i32, f32, IndexType(), IntegerType(8)])
    op = PrintfOp("%d %f %ld %d\n", block.args)
    assert op.format == StringAttr("%d %f %ld %d\n")
    assert op.has_trait(MemoryWriteEffect)
    block.add_ops([op, PrintfOp("hi"), ReturnOp()])
    module = ModuleOp([FuncOp("f", ([i32, f32, IndexType(), IntegerType(8)], []), Region(block))])
    assert verify_ir(module) is None
    text = str(module)
    assert 'gpu.printf "%d %f %ld %d\\0A", %0, %1, %2, %3 : i32, f32, index, i8\n' in text
    assert 'gpu.printf "hi"\n' in text


@pytest.mark.parametrize("position", [0, 1])
def test_printf_rejects_non_scalar(position):
    vec = test.TestOp(result_types=[MemRefType(f32, [4])])
    scalar = test.TestOp(result_types=[i32])
    args = [scalar.results[0]]
    args.insert(position, vec.results[0])
    op = PrintfOp("x", args)
    with pytest.raises(VerifyException) as err:
        op.verify_()
    assert str(err.value) == (
        f"operand #{position} must be variadic of integer or index or floating-point, "
        "but got 'memref<4xf32>'"
    )


# ----------------------------------------------------- dynamic shared memory


def test_dynamic_shared_memory_default_type():
    op = DynamicSharedMemoryOp()
    assert op.result_memref.type == _workgroup_memref()
    assert op.has_trait(Pure)
    module = _in_func(op)
    assert verify_ir(module) is None
    assert "= gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>\n" in str(
        module
    )


def test_dynamic_shared_memory_needs_symbol_table_ancestor():
    # Textual IR always sits in a module; only detached IR can miss one.
    op = DynamicSharedMemoryOp()
    with pytest.raises(VerifyException, match="^must be inside an op with symbol table$"):
        op.verify_()


@pytest.mark.parametrize(
    ("result_type", "message"),
    [
        (
            _workgroup_memref(space=AddressSpaceAttr(AddressSpace.PRIVATE)),
            "address space must be address_space<workgroup>",
        ),
        (
            MemRefType(IntegerType(8), [DYNAMIC_INDEX], memory_space=IntegerAttr(3, 64)),
            "address space must be address_space<workgroup>",
        ),
        (
            MemRefType(IntegerType(8), [DYNAMIC_INDEX]),
            "address space must be address_space<workgroup>",
        ),
        (
            _workgroup_memref(shape=(64,)),
            "result memref type must be memref<?xi8, #gpu.address_space<workgroup>>",
        ),
        (
            _workgroup_memref(element=f32),
            "result #0 must be 1D memref of 8-bit signless integer values, "
            "but got 'memref<?xf32, #gpu.address_space<workgroup>>'",
        ),
        (
            _workgroup_memref(shape=(DYNAMIC_INDEX, 2)),
            "result #0 must be 1D memref of 8-bit signless integer values, "
            "but got 'memref<?x2xi8, #gpu.address_space<workgroup>>'",
        ),
    ],
)
def test_dynamic_shared_memory_verifier(result_type, message):
    op = DynamicSharedMemoryOp(result_type)
    _in_func(op)
    with pytest.raises(VerifyException) as err:
        op.verify_()
    assert str(err.value) == message


# ----------------------------------------------------------- text behaviour


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("%0 = gpu.thread_id w", "expected ::mlir::gpu::Dimension to be one of: x, y, z"),
        (
            "%0 = gpu.lane_id upper_bound 9223372036854775808",
            "integer constant out of range for attribute",
        ),
        (
            "%0 = gpu.lane_id upper_bound 2.0",
            "floating point value not valid for specified type",
        ),
        (
            "%0 = gpu.num_subgroups : i64",
            "invalid kind of type specified: expected builtin.index, but found 'i64'",
        ),
        (
            "%0 = gpu.dynamic_shared_memory : tensor<?xi8>",
            "invalid kind of type specified: expected builtin.memref, but found 'tensor<?xi8>'",
        ),
        (
            "gpu.barrier memfence [#gpu.address_space<workgroup>]",
            "custom op 'memfence' is unknown",
        ),
        ("gpu.printf 42", "integer literal not valid for specified type"),
        ("gpu.printf 0.5", "floating point value not valid for specified type"),
    ],
)
def test_kernel_parse_errors(xgpu_opt, source, message):
    result = xgpu_opt(f"func.func @f() {{\n  {source}\n  return\n}}\n")
    assert result.rc != 0
    assert message in result.err
    assert "Traceback" not in result.err


def test_printf_format_with_escapes_and_non_ascii(xgpu_opt):
    # xDSL reads such literals as bytes; they must still print as MLIR does.
    result = xgpu_opt('func.func @f() {\n  gpu.printf "a\\tb \u00e9 \\FF"\n  return\n}\n')
    assert result.rc == 0, result.err
    assert 'gpu.printf "a\\09b \\C3\\A9 \\FF"\n' in result.out
    op = PrintfOp(BytesAttr(b"x\xff"))
    assert op.format_text == "x\udcff"
    assert PrintfOp("%d").format_text == "%d"


def test_dimension_accepts_full_attribute(xgpu_opt):
    result = xgpu_opt("func.func @f() {\n  %0 = gpu.block_dim #gpu<dim z>\n  return\n}\n")
    assert result.rc == 0
    assert "= gpu.block_dim  z\n" in result.out


def test_upper_bound_accepts_hex_and_negative(xgpu_opt):
    result = xgpu_opt(
        "func.func @f() {\n  %0 = gpu.thread_id x upper_bound 0x20\n"
        "  %1 = gpu.lane_id upper_bound -1\n  return\n}\n"
    )
    assert result.rc == 0
    assert "gpu.thread_id  x upper_bound 32\n" in result.out
    assert "gpu.lane_id upper_bound -1\n" in result.out


# ---------------------------------------------------------------- attributes


def test_mapping_attribute_text():
    cases = [
        (AddressSpaceAttr(AddressSpace.GLOBAL), "#gpu.address_space<global>"),
        (BlockMappingAttr(MappingId.LINEAR_DIM_3), "#gpu.block<linear_dim_3>"),
        (ThreadMappingAttr(MappingId.X), "#gpu.thread<x>"),
        (WarpMappingAttr(MappingId.Y), "#gpu.warp<y>"),
        (WarpgroupMappingAttr(MappingId.Z), "#gpu.warpgroup<z>"),
        (LaneMappingAttr(MappingId.LINEAR_DIM_9), "#gpu.lane<linear_dim_9>"),
        (MemorySpaceMappingAttr(AddressSpace.PRIVATE), "#gpu.memory_space<private>"),
        (MappingMaskAttr(0xFF), "#gpu.mask<255>"),
        (MappingMaskAttr(-1), "#gpu.mask<18446744073709551615>"),
    ]
    for attr, text in cases:
        assert str(attr) == text


def test_mapping_id_helpers():
    assert MappingId.Y.relative_index == 1 and not MappingId.Y.is_linear
    assert MappingId.LINEAR_DIM_7.relative_index == 7 and MappingId.LINEAR_DIM_7.is_linear


def test_loop_dim_map_builder():
    d0 = AffineExpr.dimension(0)
    attr = LoopDimMapAttr(
        Processor.THREAD_X,
        AffineMap(1, 0, (d0 * 2 + 1,)),
        AffineMapAttr(AffineMap(1, 0, (d0.ceil_div(8),))),
    )
    assert attr.processor.data == Processor.THREAD_X
    assert str(attr) == (
        "#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0 * 2 + 1), "
        "bound = (d0) -> (d0 ceildiv 8)>"
    )


def test_affine_map_text_matches_mlir():
    d0, d1 = AffineExpr.dimension(0), AffineExpr.dimension(1)
    s0 = AffineExpr.symbol(0)
    # Expected strings are what mlir-opt 22 prints for the same maps.
    cases = [
        (
            AffineMap(2, 1, (d0 - d1 * 3, -d0, d1 - 1, d0 + s0)),
            "(d0, d1)[s0] -> (d0 - d1 * 3, -d0, d1 - 1, d0 + s0)",
        ),
        (AffineMap(1, 0, (d0 % 4, d0 // 2)), "(d0) -> (d0 mod 4, d0 floordiv 2)"),
        (AffineMap(1, 0, ((d0 // 2) * 4,)), "(d0) -> ((d0 floordiv 2) * 4)"),
        (AffineMap(0, 0, ()), "() -> ()"),
        (AffineMap(0, 0, (AffineExpr.constant(5),)), "() -> (5)"),
    ]
    for amap, text in cases:
        assert affine_map_text(amap) == text


@pytest.mark.parametrize(
    ("attr", "message"),
    [
        (
            "#gpu.address_space<constant>",
            "expected ::mlir::gpu::AddressSpace to be one of: global, workgroup, private",
        ),
        ("#gpu.address_space<3>", "expected valid keyword or string"),
        (
            "#gpu.warp<linear_dim_10>",
            "expected ::mlir::gpu::MappingId to be one of: x, y, z, linear_dim_0, "
            "linear_dim_1, linear_dim_2, linear_dim_3, linear_dim_4, linear_dim_5, "
            "linear_dim_6, linear_dim_7, linear_dim_8, linear_dim_9",
        ),
        ("#gpu.mask<x>", "expected integer value"),
        ("#gpu.mask<18446744073709551616>", "integer value too large"),
        ("#gpu.mask<-18014398509481983>", "integer value too large"),
        (
            "#gpu.loop_dim_map<processor = warp_x, map = (d0) -> (d0), bound = (d0) -> (d0)>",
            "expected ::mlir::gpu::Processor to be one of: block_x, block_y, block_z, "
            "thread_x, thread_y, thread_z, sequential",
        ),
        (
            "#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0), >",
            "expected '>'",
        ),
    ],
)
def test_attribute_parse_errors(xgpu_opt, attr, message):
    result = xgpu_opt(f"func.func @f() attributes {{a = {attr}}} {{\n  return\n}}\n")
    assert result.rc != 0
    assert message in result.err
    assert "Traceback" not in result.err


def test_workgroup_memref_round_trips(xgpu_opt):
    text = (
        "func.func @f(%m: memref<?xi8, #gpu.address_space<workgroup>>) "
        "attributes {k = #gpu.mask<-2>, l = #gpu.loop_dim_map<bound = (d0) -> (d0), "
        "map = (d0) -> (d0 - 1), processor = sequential>} {\n  return\n}\n"
    )
    result = xgpu_opt(text)
    assert result.rc == 0, result.err
    assert "memref<?xi8, #gpu.address_space<workgroup>>" in result.out
    assert "k = #gpu.mask<18446744073709551614>" in result.out
    assert (
        "l = #gpu.loop_dim_map<processor = sequential, map = (d0) -> (d0 - 1), "
        "bound = (d0) -> (d0)>" in result.out
    )
