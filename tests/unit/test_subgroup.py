"""Subgroup ops: builders, printing, verifier messages, parse errors."""

from __future__ import annotations

import pytest
from xdsl.dialects.arith import AddfOp, ConstantOp
from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    ModuleOp,
    VectorType,
    f16,
    f32,
    i32,
)
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Attribute, Block, Operation, Region
from xdsl.traits import IsolatedFromAbove, Pure, RecursiveMemoryEffect
from xdsl.utils.exceptions import VerifyException

from xgpu.diagnostics import OpDiagnostic
from xgpu.dialects.gpu.attributes import AllReduceOperation, BroadcastType, ShuffleMode
from xgpu.dialects.gpu.subgroup import (
    AllReduceOp,
    RotateOp,
    ShuffleOp,
    SubgroupBroadcastOp,
    SubgroupReduceOp,
    WarpExecuteOnLane0Op,
    YieldOp,
)
from xgpu.ir.verifier import verify_ir

VEC4 = VectorType(f32, [4])


def _func(arg_types: list[Attribute], build) -> tuple[ModuleOp, Block]:
    """A module holding `func.func @f(args)` whose body `build(block)` fills."""
    block = Block(arg_types=arg_types)
    build(block)
    block.add_op(ReturnOp())
    return ModuleOp([FuncOp("f", (arg_types, []), Region(block))]), block


def _verify_message(op: Operation) -> str:
    with pytest.raises(VerifyException) as info:
        op.verify_()
    return str(info.value.args[0])


# --- builders ---------------------------------------------------------------


def test_shuffle_and_rotate_builders_print_like_mlir():
    def build(b: Block):
        f, n = b.args
        b.add_op(ShuffleOp(f, n, n, ShuffleMode.XOR))
        b.add_op(RotateOp(f, 3, 16))

    module, block = _func([f32, i32], build)
    assert verify_ir(module) is None
    shuffle, rotate = list(block.ops)[:2]
    assert isinstance(shuffle, ShuffleOp) and isinstance(rotate, RotateOp)
    assert shuffle.shuffle_result.type == f32 and shuffle.valid.type.width.data == 1
    assert rotate.offset.value.data == 3 and rotate.width.value.data == 16
    text = str(module)
    assert "%shuffleResult, %valid = gpu.shuffle  xor %0, %1, %1 : f32\n" in text
    # MLIR would print the repeated `%valid` as `%valid_0`.
    assert "%rotateResult, %valid_1 = gpu.rotate %0, 3, 16 : f32\n" in text
    assert Pure() in ShuffleOp.traits and Pure() in RotateOp.traits


def test_all_reduce_builders():
    def build(b: Block):
        (f,) = b.args
        b.add_op(AllReduceOp(f, AllReduceOperation.ADD, uniform=True))
        body = Block(arg_types=[f32, f32])
        s = AddfOp(body.args[0], body.args[1])
        body.add_ops([s, YieldOp([s])])
        b.add_op(AllReduceOp(f, body=Region(body)))

    module, block = _func([f32], build)
    assert verify_ir(module) is None
    with_op, with_body = list(block.ops)[:2]
    assert isinstance(with_op, AllReduceOp) and isinstance(with_body, AllReduceOp)
    assert with_op.op is not None and with_op.uniform is not None
    assert with_body.op is None and with_body.uniform is None
    text = str(module)
    assert "gpu.all_reduce  add %0 uniform {\n    } : (f32) -> f32" in text
    assert "gpu.all_reduce  %0 {\n    ^bb0(%3: f32, %4: f32):" in text
    assert AllReduceOp.has_trait(IsolatedFromAbove)


def test_subgroup_reduce_builder_and_cluster_printing():
    def build(b: Block):
        (f,) = b.args
        b.add_op(SubgroupReduceOp(f, AllReduceOperation.MUL))
        b.add_op(SubgroupReduceOp(f, AllReduceOperation.ADD, uniform=True, cluster_size=4))
        b.add_op(SubgroupReduceOp(f, AllReduceOperation.MAXNUMF, cluster_size=8, cluster_stride=2))

    module, block = _func([f32], build)
    assert verify_ir(module) is None
    plain = next(iter(block.ops))
    assert isinstance(plain, SubgroupReduceOp)
    # The default stride is stored, as MLIR does.
    assert plain.cluster_stride == IntegerAttr(1, i32)
    text = str(module)
    assert "gpu.subgroup_reduce  mul %0 : (f32) -> f32" in text
    assert "gpu.subgroup_reduce  add %0 uniform cluster(size = 4) : (f32) -> f32" in text
    assert "gpu.subgroup_reduce  maxnumf %0 cluster(size = 8, stride = 2) : (f32) -> f32" in text


def test_subgroup_broadcast_builder_and_speculatability():
    def build(b: Block):
        f, lane = b.args
        b.add_op(SubgroupBroadcastOp(f, BroadcastType.FIRST_ACTIVE_LANE))
        b.add_op(SubgroupBroadcastOp(f, BroadcastType.SPECIFIC_LANE, lane))

    module, block = _func([f32, i32], build)
    assert verify_ir(module) is None
    first, specific = list(block.ops)[:2]
    assert isinstance(first, SubgroupBroadcastOp) and isinstance(specific, SubgroupBroadcastOp)
    assert not first.is_speculatable() and specific.is_speculatable()
    text = str(module)
    assert "gpu.subgroup_broadcast %0,  first_active_lane : f32" in text
    assert "gpu.subgroup_broadcast %0,  specific_lane %1 : f32" in text


def test_warp_execute_builder_adds_and_hides_empty_yield():
    def build(b: Block):
        lane, v = b.args
        b.add_op(WarpExecuteOnLane0Op(lane, 32, args=[v], block_arg_types=[VectorType(f32, [128])]))
        body = Block()
        big = ConstantOp(DenseIntOrFPElementsAttr.from_list(VectorType(f32, [64]), [1.0] * 64))
        body.add_ops([big, YieldOp([big])])
        b.add_op(
            WarpExecuteOnLane0Op(lane, 32, result_types=[VectorType(f32, [2])], region=Region(body))
        )

    module, block = _func([IndexType(), VEC4], build)
    assert verify_ir(module) is None
    no_results = next(iter(block.ops))
    assert isinstance(no_results, WarpExecuteOnLane0Op)
    assert isinstance(no_results.warp_region.block.last_op, YieldOp)
    assert WarpExecuteOnLane0Op.has_trait(RecursiveMemoryEffect)
    text = str(module)
    assert (
        "gpu.warp_execute_on_lane_0(%0)[32] args(%1 : vector<4xf32>) {\n"
        "    ^bb0(%2: vector<128xf32>):\n    }" in text
    )
    assert "gpu.yield %4 : vector<64xf32>\n    }" in text
    assert "%3 = gpu.warp_execute_on_lane_0(%0)[32] -> (vector<2xf32>) {" in text


# --- verifier messages (exact MLIR 22 text) ---------------------------------


def _shuffle_of(t: Attribute) -> ShuffleOp:
    _, block = _func(
        [t, i32], lambda b: b.add_op(ShuffleOp(b.args[0], b.args[1], b.args[1], ShuffleMode.UP))
    )
    op = next(iter(block.ops))
    assert isinstance(op, ShuffleOp)
    return op


@pytest.mark.parametrize(
    "t",
    [
        IndexType(),
        VectorType(f32, [2, 2]),
        VectorType(f32, [4], ArrayAttr([BoolAttr.from_bool(True)])),
    ],
)
def test_shuffle_value_type(t: Attribute):
    assert _verify_message(_shuffle_of(t)) == (
        "operand #0 must be Integer or Float or fixed-length vector of Integer or Float "
        f"values of ranks 1, but got '{t}'"
    )


def test_rotate_messages():
    _, block = _func([f32], lambda b: b.add_op(RotateOp(b.args[0], 0, 16)))
    op = next(iter(block.ops))
    assert isinstance(op, RotateOp)
    op.properties["offset"] = IntegerAttr(16, i32)
    assert _verify_message(op) == "offset must be in the range [0, 16)"
    op.properties["offset"] = IntegerAttr(-2, i32)
    assert "whose minimum value is 0" in _verify_message(op)
    op.properties["offset"] = IntegerAttr(0, i32)
    op.properties["width"] = IntegerAttr(24, i32)
    assert _verify_message(op) == (
        "attribute 'width' failed to satisfy constraint: 32-bit signless integer "
        "attribute whose value is a power of two > 0"
    )


def test_all_reduce_messages():
    def check(op: AllReduceOp, message: str):
        with pytest.raises(OpDiagnostic) as info:
            op.verify_()
        assert info.value.message == message and not info.value.prefix

    _, block = _func([f32, i32], lambda b: None)
    f, n = block.args
    check(AllReduceOp(f), "expected either an op attribute or a non-empty body")
    check(
        AllReduceOp(f, AllReduceOperation.AND),
        "`and` reduction operation is not compatible with type 'f32'",
    )
    check(
        AllReduceOp(n, AllReduceOperation.MINIMUMF),
        "`minimumf` reduction operation is not compatible with type 'i32'",
    )
    one_arg = Block(arg_types=[f32])
    one_arg.add_op(YieldOp([one_arg.args[0]]))
    check(AllReduceOp(f, body=Region(one_arg)), "expected two region arguments")
    wrong = Block(arg_types=[f32, f16])
    wrong.add_op(YieldOp([wrong.args[0]]))
    check(AllReduceOp(f, body=Region(wrong)), "incorrect region argument type")
    two = Block(arg_types=[f32, f32])
    two.add_op(YieldOp(two.args))
    check(AllReduceOp(f, body=Region(two)), "expected one gpu.yield operand")
    bad_type = Block(arg_types=[f32, f32])
    c = ConstantOp(IntegerAttr(1, i32))
    bad_type.add_ops([c, YieldOp([c])])
    check(AllReduceOp(f, body=Region(bad_type)), "incorrect gpu.yield type")
    # A block without any op: no crash, MLIR's structural diagnostic.
    check(
        AllReduceOp(f, body=Region(Block(arg_types=[f32, f32]))),
        "empty block: expect at least a terminator",
    )


def test_subgroup_reduce_messages():
    _, block = _func([f32, VEC4], lambda b: None)
    f, v = block.args
    assert _verify_message(SubgroupReduceOp(f, AllReduceOperation.ADD, cluster_size=3)) == (
        "cluster size 3 is not a power of two"
    )
    assert (
        _verify_message(
            SubgroupReduceOp(f, AllReduceOperation.ADD, cluster_size=4, cluster_stride=6)
        )
        == "cluster stride 6 is not a power of two"
    )
    assert _verify_message(SubgroupReduceOp(f, AllReduceOperation.ADD, cluster_stride=2)) == (
        "cluster stride can only be specified if cluster size is specified"
    )
    assert _verify_message(SubgroupReduceOp(v, AllReduceOperation.OR)) == (
        "`or` reduction operation is not compatible with type 'vector<4xf32>'"
    )


def test_subgroup_broadcast_messages():
    _, block = _func([f32, i32], lambda b: None)
    f, lane = block.args
    assert _verify_message(SubgroupBroadcastOp(f, BroadcastType.SPECIFIC_LANE)) == (
        "lane must be specified for `specific_lane` broadcast"
    )
    assert _verify_message(SubgroupBroadcastOp(f, BroadcastType.FIRST_ACTIVE_LANE, lane)) == (
        "lane can only be specified for `specific_lane` broadcast"
    )


@pytest.mark.parametrize(
    ("arg", "block_arg", "message"),
    [
        (
            VEC4,
            VectorType(f32, [64]),
            "incompatible distribution dimensions from "
            "'vector<64xf32>' to 'vector<4xf32>' with warp size = 32",
        ),
        (VEC4, f32, "expected vector type for distributed operands."),
        (
            VEC4,
            VectorType(i32, [128]),
            "expected distributed vectors to have same rank and element type.",
        ),
        (
            VectorType(f32, [4, 4]),
            VectorType(f32, [128, 6]),
            "expected expanded vector dimension #1 "
            "(6) to be a multipler of the distributed vector dimension (4)",
        ),
    ],
)
def test_warp_distribution_messages(arg: Attribute, block_arg: Attribute, message: str):
    _, block = _func([IndexType(), arg], lambda b: None)
    lane, v = block.args
    op = WarpExecuteOnLane0Op(lane, 32, args=[v], block_arg_types=[block_arg])
    assert _verify_message(op) == message


def test_warp_empty_block_message():
    # MLIR checks the terminator trait before the generic empty-block rule.
    _, block = _func([IndexType()], lambda b: None)
    op = WarpExecuteOnLane0Op(block.args[0], 32)
    op.warp_region.block.erase_op(op.warp_region.block.last_op)
    with pytest.raises(VerifyException, match="^expects a non-empty block$"):
        op.verify_()


def test_warp_count_messages():
    _, block = _func([IndexType(), VEC4], lambda b: None)
    lane, v = block.args
    op = WarpExecuteOnLane0Op(lane, 32, args=[v], block_arg_types=[])
    assert _verify_message(op) == "expected same number op arguments and block arguments."
    op = WarpExecuteOnLane0Op(lane, 32, result_types=[f32])
    assert _verify_message(op) == "expected same number of yield operands and return values."


# --- through the driver: round trips, parse errors, no tracebacks -----------


def test_parse_errors_use_mlir_text(xgpu_opt):
    bad_mode = "func.func @f(%v: f32, %n: i32) {\n  %a, %b = gpu.shuffle left %v, %n, %n : f32\n  return\n}\n"
    res = xgpu_opt(bad_mode, "--parsing-diagnostics")
    assert "expected ::mlir::gpu::ShuffleMode to be one of: xor, up, down, idx" in res.out + res.err
    bad_kind = (
        "func.func @f(%v: f32) {\n  %a = gpu.all_reduce sum %v {} : (f32) -> f32\n  return\n}\n"
    )
    res = xgpu_opt(bad_kind, "--parsing-diagnostics")
    assert "invalid op kind" in res.out + res.err
    any_lane = (
        "func.func @f(%v: f32) {\n  %a = gpu.subgroup_broadcast %v, any_lane : f32\n  return\n}\n"
    )
    res = xgpu_opt(any_lane, "--parsing-diagnostics")
    assert (
        "expected ::mlir::gpu::BroadcastType to be one of: first_active_lane, specific_lane"
        in res.out + res.err
    )


def test_generic_subgroup_reduce_gets_default_stride(xgpu_opt):
    text = (
        "func.func @f(%v: f32) {\n"
        '  %r = "gpu.subgroup_reduce"(%v) <{op = #gpu<all_reduce_op add>}> : (f32) -> f32\n'
        "  return\n}\n"
    )
    res = xgpu_opt(text, "--print-op-generic")
    assert res.rc == 0
    assert "<{cluster_stride = 1 : i32, op = #gpu<all_reduce_op add>}>" in res.out


def test_warp_parse_adds_yield_after_unregistered_op(xgpu_opt):
    text = (
        "func.func @f(%l: index) {\n"
        "  gpu.warp_execute_on_lane_0(%l)[32] {\n"
        '    "foo.bar"() : () -> ()\n'
        "  }\n  return\n}\n"
    )
    res = xgpu_opt(text, "--allow-unregistered-dialect", "--print-op-generic")
    assert res.rc == 0, res.err
    assert '"foo.bar"() : () -> ()\n      "gpu.yield"() : () -> ()' in res.out


@pytest.mark.parametrize(
    "body",
    [
        '%r = "gpu.all_reduce"(%f) ({\n  ^bb0(%a: f32, %b: f32):\n  }) : (f32) -> f32',
        '%r = "gpu.all_reduce"(%f) ({\n  }) : (f32) -> f32',
        '"gpu.warp_execute_on_lane_0"(%l) <{warp_size = 32 : i64}> ({\n  }) : (index) -> ()',
        '"gpu.warp_execute_on_lane_0"(%l) <{warp_size = 32 : i64}> ({\n  ^bb0:\n  }) : (index) -> ()',
        '"gpu.warp_execute_on_lane_0"(%l) ({\n  "gpu.yield"() : () -> ()\n  }) : (index) -> ()',
        '"gpu.warp_execute_on_lane_0"(%l) <{warp_size = 32 : i32}> ({\n  "gpu.yield"() : () -> ()\n  }) : (index) -> ()',
        '%r = "gpu.rotate"(%f) <{offset = 1 : i64, width = 4 : i32}> : (f32) -> (f32, i1)',
        '%r = "gpu.rotate"(%f) : (f32) -> (f32, i1)',
        '%r = "gpu.subgroup_reduce"(%f) : (f32) -> f32',
        '%r = "gpu.subgroup_reduce"(%f) <{op = #gpu<all_reduce_op add>, cluster_size = 4 : i64}> : (f32) -> f32',
        '%r = "gpu.shuffle"(%f, %f, %f) <{mode = #gpu<shuffle_mode xor>}> : (f32, f32, f32) -> (f32, i1)',
        '%r = "gpu.subgroup_broadcast"(%f) : (f32) -> f32',
        "%r = gpu.subgroup_reduce add %f cluster(size = ) : (f32) -> f32",
        "%r = gpu.subgroup_reduce add %f cluster(size = 99999999999) : (f32) -> f32",
        "gpu.warp_execute_on_lane_0(%l)[99999999999999999999] {\n  }",
        "gpu.warp_execute_on_lane_0(%l)[32] args(%f, %f : f32) {\n  }",
        "gpu.warp_execute_on_lane_0(%l)[32] {\n  ^bb0:\n    cf.br ^bb1\n  ^bb1:\n    gpu.yield\n  }",
    ],
)
def test_malformed_input_gives_a_diagnostic_not_a_traceback(xgpu_opt, body: str):
    text = f"func.func @f(%f: f32, %l: index) {{\n  {body}\n  return\n}}\n"
    res = xgpu_opt(text, "--verify-diagnostics", "--parsing-diagnostics")
    out = res.out + res.err
    assert "Traceback" not in out and "internal error" not in out
    assert "verifier failed unexpectedly" not in out
    assert "error" in out
