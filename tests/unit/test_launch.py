"""gpu.launch and gpu.terminator: builders, accessors, verifier, syntax."""

from __future__ import annotations

import pytest
from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import (
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    f32,
    i32,
    i64,
)
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.dialects.llvm import UnreachableOp
from xdsl.ir import Block, Region
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from xgpu.diagnostics import OpDiagnostic
from xgpu.dialects.gpu.async_interface import AsyncOpInterface, add_async_dependency
from xgpu.dialects.gpu.attributes import AddressSpace, AddressSpaceAttr
from xgpu.dialects.gpu.host import WaitOp
from xgpu.dialects.gpu.launch import LaunchOp, TerminatorOp
from xgpu.ir.verifier import verify_ir
from xgpu.tools.xgpu_opt import parse

WG = MemRefType(f32, [16], memory_space=AddressSpaceAttr(AddressSpace.WORKGROUP))
PRIV = MemRefType(f32, [1], memory_space=AddressSpaceAttr(AddressSpace.PRIVATE))


def _index(v: int) -> ConstantOp:
    return ConstantOp(IntegerAttr(v, IndexType()))


def _module(*ops) -> ModuleOp:
    block = Block()
    block.add_ops([*ops, ReturnOp()])
    return ModuleOp([FuncOp("f", ([], []), Region(block))])


def _segments(op: LaunchOp) -> tuple[int, ...]:
    seg = op.properties["operandSegmentSizes"]
    assert isinstance(seg, DenseArrayBase)
    return tuple(seg.get_values())


def _generic(op) -> str:
    from io import StringIO

    out = StringIO()
    Printer(stream=out, print_generic_format=True).print_op(op)
    return out.getvalue()


def test_minimal_builder_verifies_and_prints():
    c4, c8 = _index(4), _index(8)
    launch = LaunchOp((c4, c4, c4), (c8, c8, c8))
    launch.body.block.add_op(TerminatorOp())
    module = _module(c4, c8, launch)
    assert verify_ir(module) is None
    assert len(launch.body.block.args) == 12
    assert _segments(launch) == (0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0)
    assert launch.attributes["workgroup_attributions"] == IntegerAttr(0, i64)
    assert launch.async_token is None and not launch.has_cluster_size
    text = str(module)
    assert (
        "    gpu.launch blocks(%2, %3, %4) in (%5 = %0, %6 = %0, %7 = %0) "
        "threads(%8, %9, %10) in (%11 = %1, %12 = %1, %13 = %1) {\n"
    ) in text
    assert "      gpu.terminator\n" in text
    # The custom form reparses to the same IR.
    assert str(parse(text)) == text


def test_full_builder_accessors_and_generic_form():
    c2 = _index(2)
    dsm = ConstantOp(IntegerAttr(64, i32))
    token = WaitOp(is_async=True)
    launch = LaunchOp(
        (c2, c2, c2),
        (c2, c2, c2),
        cluster=(c2, c2, c2),
        deps=[token.async_token],
        is_async=True,
        dynamic_shared_memory_size=dsm,
        workgroup_attributions=[WG, WG],
        private_attributions=[PRIV],
        kernel_module="mod",
        kernel_func=SymbolRefAttr("fun"),
    )
    launch.body.block.add_op(TerminatorOp())
    module = _module(c2, dsm, token, launch)
    assert verify_ir(module) is None
    assert isinstance(launch, AsyncOpInterface) and launch.is_async
    assert launch.dependencies == (token.async_token,)
    args = launch.body.block.args
    assert len(args) == 18 + 3
    assert launch.block_ids == tuple(args[0:3])
    assert launch.thread_ids == tuple(args[3:6])
    assert launch.grid_size_args == tuple(args[6:9])
    assert launch.block_size_args == tuple(args[9:12])
    assert launch.cluster_ids == tuple(args[12:15])
    assert launch.cluster_size_args == tuple(args[15:18])
    assert launch.workgroup_attribution_args == tuple(args[18:20])
    assert launch.private_attribution_args == (args[20],)
    assert launch.grid_size_operands == (c2.result,) * 3
    assert launch.cluster_size_operands == (c2.result,) * 3
    assert launch.num_workgroup_attributions == 2
    assert _segments(launch) == (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)
    generic = _generic(launch)
    assert (
        "<{function = @fun, module = @mod, operandSegmentSizes = "
        "array<i32: 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1>}>"
    ) in generic
    assert "{workgroup_attributions = 2 : i64}" in generic
    text = str(module)
    assert " dynamic_shared_memory_size %1 module(@mod) function(@fun) workgroup(" in text
    assert str(parse(text)) == text


def test_add_attributions_and_async_dependency():
    c1 = _index(1)
    t0, t1 = WaitOp(is_async=True), WaitOp(is_async=True)
    launch = LaunchOp((c1, c1, c1), (c1, c1, c1), deps=[t0.async_token], is_async=True)
    launch.body.block.add_op(TerminatorOp())
    p = launch.add_private_attribution(PRIV)
    w = launch.add_workgroup_attribution(WG)
    assert launch.workgroup_attribution_args == (w,)
    assert launch.private_attribution_args == (p,)
    assert launch.body.block.args[12] is w
    add_async_dependency(launch, t1.async_token)
    assert launch.dependencies == (t1.async_token, t0.async_token)
    assert _segments(launch)[0] == 2
    assert verify_ir(_module(c1, t0, t1, launch)) is None


def test_builder_rejects_wrong_dimension_count():
    c1 = _index(1)
    with pytest.raises(ValueError, match="3 values"):
        LaunchOp((c1, c1), (c1, c1, c1))


def _verify_message(launch: LaunchOp) -> str:
    with pytest.raises(VerifyException) as info:
        launch.verify_()
    return str(info.value.args[0])


def test_verifier_region_arguments():
    c1 = _index(1)
    launch = LaunchOp((c1, c1, c1), (c1, c1, c1), body=Region(Block(arg_types=[IndexType()] * 11)))
    launch.body.block.add_op(TerminatorOp())
    assert _verify_message(launch) == "unexpected number of region arguments"
    # No block at all, a negative or too large workgroup count: the same error.
    assert _verify_message(LaunchOp((c1, c1, c1), (c1, c1, c1), body=Region())) == (
        "unexpected number of region arguments"
    )
    ok = LaunchOp((c1, c1, c1), (c1, c1, c1))
    ok.body.block.add_op(TerminatorOp())
    ok.attributes["workgroup_attributions"] = IntegerAttr(-1, i64)
    assert _verify_message(ok) == "unexpected number of region arguments"
    ok.attributes["workgroup_attributions"] = IntegerAttr(1, i64)
    assert _verify_message(ok) == "unexpected number of region arguments"
    # A non-integer count counts as 0, as in MLIR.
    ok.attributes["workgroup_attributions"] = StringAttr("x")
    ok.verify_()


def test_verifier_partial_cluster():
    c1 = _index(1)
    launch = LaunchOp.build(
        operands=[[], c1, c1, c1, c1, c1, c1, [c1], [], [], []],
        result_types=[[]],
        regions=[Region(Block(arg_types=[IndexType()] * 12))],
    )
    launch.body.block.add_op(TerminatorOp())
    assert _verify_message(launch) == "cluster size must be all present"
    # Printing an op the custom form cannot show must not fail.
    assert "gpu.launch" in str(launch)


def test_verifier_attributions():
    c1 = _index(1)
    for wg, priv, message in [
        ([f32], [], "expected memref type in attribution"),
        ([], [i32], "expected memref type in attribution"),
        ([PRIV], [], "expected memory space workgroup in attribution"),
        ([], [WG], "expected memory space private in attribution"),
    ]:
        launch = LaunchOp(
            (c1, c1, c1), (c1, c1, c1), workgroup_attributions=wg, private_attributions=priv
        )
        launch.body.block.add_op(TerminatorOp())
        assert _verify_message(launch) == message
    # Numeric memory spaces are not checked.
    numeric = LaunchOp(
        (c1, c1, c1),
        (c1, c1, c1),
        workgroup_attributions=[MemRefType(f32, [4], memory_space=IntegerAttr(5, i64))],
    )
    numeric.body.block.add_op(TerminatorOp())
    numeric.verify_()


def test_verifier_terminators():
    c1 = _index(1)
    empty = LaunchOp((c1, c1, c1), (c1, c1, c1))
    with pytest.raises(OpDiagnostic) as info:
        empty.verify_()
    assert info.value.message == "empty block: expect at least a terminator"
    assert not info.value.prefix

    launch = LaunchOp((c1, c1, c1), (c1, c1, c1))
    bad = UnreachableOp()
    launch.body.block.add_op(bad)
    with pytest.raises(OpDiagnostic) as info:
        launch.verify_()
    diag = info.value
    assert diag.message == "expected 'gpu.terminator' or a terminator with successors"
    assert diag.op is bad and not diag.prefix
    assert diag.notes == [(launch, "in 'gpu.launch' body region")]


def test_terminator_needs_launch_parent():
    block = Block()
    block.add_op(TerminatorOp())
    module = ModuleOp([FuncOp("f", ([], []), Region(block))])
    diag = verify_ir(module)
    assert diag is not None and "expects parent op 'gpu.launch'" in diag.message


LAUNCH = (
    "blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) "
    "threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n)"
)


def _wrap(op_text: str) -> str:
    return (
        "func.func @f(%n: index, %t: !gpu.async.token) {\n"
        f"  {op_text} {{\n    gpu.terminator\n  }}\n  return\n}}\n"
    )


@pytest.mark.parametrize(
    ("op_text", "message"),
    [
        # mlir-opt 22 crashes here (llvm#176530); xgpu reports MLIR's message
        # for naming an op without results.
        (f"%r = gpu.launch {LAUNCH}", "cannot name an operation with no results"),
        (
            f"gpu.launch async {LAUNCH}",
            "custom op 'gpu.launch' needs to be named when marked 'async'",
        ),
        (
            "gpu.launch blocks(%bx, %by) in (%gx = %n, %gy = %n, %gz = %n) "
            "threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n)",
            "custom op 'gpu.launch' expected 3 identifiers, got 2",
        ),
        (f"gpu.launch {LAUNCH} module(@a::@b)", "invalid kind of attribute specified"),
        (f'gpu.launch {LAUNCH} function("f")', "invalid kind of attribute specified"),
        (
            "gpu.launch threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n)",
            "expected 'blocks'",
        ),
        ("gpu.launch blocks(%bx, %by, %bz) (%gx = %n, %gy = %n, %gz = %n)", "expected 'in'"),
        (f"gpu.launch {LAUNCH} dynamic_shared_memory_size %n", "expects different type"),
        (f"gpu.launch {LAUNCH} workgroup(%bx : memref<1xf32>)", "redefinition of SSA value"),
    ],
)
def test_parse_errors_are_diagnostics(xgpu_opt, op_text: str, message: str):
    result = xgpu_opt(_wrap(op_text))
    assert result.rc == 1
    assert message in result.err
    assert "Traceback" not in result.err


def test_sync_launch_keeps_dependencies(xgpu_opt):
    # MLIR 22 rejects `[%t]` without `async` and drops the dependencies of a
    # synchronous launch when printing; xgpu keeps them.
    result = xgpu_opt(_wrap(f"gpu.launch [%t] {LAUNCH}"))
    assert result.rc == 0
    assert f"    gpu.launch [%t] {LAUNCH} {{\n" in result.out


def test_generic_input_round_trips(xgpu_opt):
    text = (
        "func.func @f(%n: index) {\n"
        '  "gpu.launch"(%n, %n, %n, %n, %n, %n) <{operandSegmentSizes = '
        "array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0>}> ({\n"
        "  ^bb0(%a0: index, %a1: index, %a2: index, %a3: index, %a4: index, %a5: index, "
        "%a6: index, %a7: index, %a8: index, %a9: index, %a10: index, %a11: index, "
        "%p: memref<2xf32, #gpu.address_space<private>>):\n"
        '    "gpu.terminator"() : () -> ()\n'
        "  }) : (index, index, index, index, index, index) -> ()\n"
        "  return\n}\n"
    )
    result = xgpu_opt(text)
    assert result.rc == 0, result.err
    assert (
        "gpu.launch blocks(%a0, %a1, %a2) in (%a6 = %n, %a7 = %n, %a8 = %n) "
        "threads(%a3, %a4, %a5) in (%a9 = %n, %a10 = %n, %a11 = %n) "
        "private(%p : memref<2xf32, #gpu.address_space<private>>) {"
    ) in result.out


def test_unverified_op_prints_generically_and_reads_back(xgpu_opt):
    # Eleven entry arguments: not expressible in the custom form. With
    # --disable-verify it prints as `gpu.launch(...) ...` and reads back.
    args = ", ".join(f"%a{i}: index" for i in range(11))
    text = (
        "func.func @f(%n: index) {\n"
        '  "gpu.launch"(%n, %n, %n, %n, %n, %n) <{operandSegmentSizes = '
        "array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0>}> ({\n"
        f"  ^bb0({args}):\n"
        '    "gpu.terminator"() : () -> ()\n'
        "  }) : (index, index, index, index, index, index) -> ()\n"
        "  return\n}\n"
    )
    first = xgpu_opt(text, "--disable-verify")
    assert first.rc == 0, first.err
    assert "    gpu.launch(%n, %n, %n, %n, %n, %n) <{operandSegmentSizes" in first.out
    second = xgpu_opt(first.out, "--disable-verify")
    assert second.rc == 0 and second.out == first.out
