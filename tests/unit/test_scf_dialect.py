"""xgpu's scf ops built in Python (as passes build them): xDSL's classes
still match them, and they print in MLIR 22's custom syntax."""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects import scf as xdsl_scf
from xdsl.dialects.builtin import ArrayAttr, IndexType, ModuleOp, i32
from xdsl.ir import Block, Region

from xgpu.dialects import scf
from xgpu.dialects.gpu.attributes import MappingId, ThreadMappingAttr
from xgpu.ir.printer import print_mlir
from xgpu.tools.xgpu_opt import make_context, parse


def _body(*arg_types) -> Region:
    return Region(Block(arg_types=list(arg_types)))


def test_registered_classes_are_xgpus_and_subclass_xdsls() -> None:
    ctx = make_context()
    for name, cls in [
        ("scf.for", scf.ForOp),
        ("scf.if", scf.IfOp),
        ("scf.while", scf.WhileOp),
        ("scf.parallel", scf.ParallelOp),
        ("scf.reduce", scf.ReduceOp),
        ("scf.execute_region", scf.ExecuteRegionOp),
        ("scf.index_switch", scf.IndexSwitchOp),
        ("scf.forall", scf.ForallOp),
        ("scf.forall.in_parallel", scf.InParallelOp),
    ]:
        assert ctx.get_optional_op(name) is cls
    assert issubclass(scf.ForOp, xdsl_scf.ForOp)
    assert issubclass(scf.ParallelOp, xdsl_scf.ParallelOp)


def test_built_ops_print_in_mlir_syntax() -> None:
    lb = arith.ConstantOp.from_int_and_width(0, IndexType())
    n = arith.ConstantOp.from_int_and_width(7, IndexType())
    x = arith.ConstantOp.from_int_and_width(1, i32)
    body = _body(i32)
    body.block.add_op(scf.YieldOp())
    loop = scf.ForOp(x, x, x, [], body, unsigned_cmp=True)
    region = Region(Block([scf.YieldOp(x)]))
    execute = scf.ExecuteRegionOp([i32], region, no_inline=True)
    forall_body = _body(IndexType(), IndexType())
    forall_body.block.add_op(scf.InParallelOp())
    mapping = ArrayAttr([ThreadMappingAttr(MappingId.Y), ThreadMappingAttr(MappingId.X)])
    forall = scf.ForallOp([0, lb], [n, 8], [1, 2], forall_body, mapping=mapping)
    text = print_mlir(ModuleOp([lb, n, x, loop, execute, forall]))
    assert "  scf.for unsigned %3 = %2 to %2 step %2  : i32 {\n  }\n" in text
    assert "  %4 = scf.execute_region -> i32 no_inline {\n    scf.yield %2 : i32\n  }\n" in text
    assert (
        "  scf.forall (%5, %6) = (0, %0) to (%1, 8) step (1, 2) {\n"
        "  } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}\n"
    ) in text
    assert not forall.is_normalized()
    assert forall.lower_bounds()[0] == 0 and forall.lower_bounds()[1] is lb.result
    # What is printed reads back to the same text.
    assert print_mlir(parse(text)) == text


def test_forall_in_form_when_normalized() -> None:
    n = arith.ConstantOp.from_int_and_width(7, IndexType())
    body = _body(IndexType())
    body.block.add_op(scf.InParallelOp())
    forall = scf.ForallOp([0], [n], [1], body)
    assert forall.is_normalized()
    text = print_mlir(ModuleOp([n, forall]))
    assert ") in (%" in text and "step" not in text
