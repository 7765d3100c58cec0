"""The verifier's shortcuts answer as the general checks they skip would:
`IsolatedFromAbove.verify` (xgpu's, which asks only about operands defined
outside their user's block) against xDSL's; `verify_dominance` (which answers
the same-block cases itself) against `value_dominates` for every operand; the
memo of op signatures in `OpDef.verify` against xDSL's verification, on
random IR, valid and not."""

from __future__ import annotations

import random

import pytest
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp, StringAttr, f32, i32, i64
from xdsl.dialects.test import TestOp as _TestOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.utils.exceptions import VerifyException

from xgpu.diagnostics import OpDiagnostic
from xgpu.ir import speedups
from xgpu.ir.dominance import DominanceInfo, value_dominates, verify_dominance


def _random_ir(rng: random.Random) -> tuple[ModuleOp, func.FuncOp]:
    """A module with an op before a function, and a function whose body
    nests `test.op`s with regions (some holding a nested function), each op
    using values picked from everything made so far (some from outside the
    function, some from later ops or from regions that do not enclose it)."""
    values: list[SSAValue] = []
    outside = _TestOp(result_types=[i32, i32])
    values.extend(outside.results)
    body = Block(arg_types=[i32, IndexType()])
    fn = func.FuncOp("f", ((i32, IndexType()), ()), Region(body))
    values.extend(body.args)
    pending: list[tuple[Operation, int]] = []

    def fill(block: Block, depth: int) -> None:
        for _ in range(rng.randint(0, 5)):
            regions: list[Region] = []
            if depth < 3 and rng.random() < 0.3:
                inner = Block(arg_types=[i32] * rng.randint(0, 2))
                values.extend(inner.args)
                fill(inner, depth + 1)
                regions.append(Region(inner))
            if depth < 3 and rng.random() < 0.1:
                nested_body = Block(arg_types=[i32])
                values.extend(nested_body.args)
                fill(nested_body, depth + 1)
                block.add_op(func.FuncOp("g", ((i32,), ()), Region(nested_body)))
            count = rng.randint(0, 3)
            op = _TestOp(
                operands=[rng.choice(values) for _ in range(count)],
                result_types=[i32] * rng.randint(0, 2),
                regions=regions,
            )
            block.add_op(op)
            values.extend(op.results)
            if rng.random() < 0.2:
                pending.append((op, count))

    fill(body, 0)
    # Uses of values made after their user (forward uses, in another region).
    for op, _ in pending:
        if op.operands and rng.random() < 0.5:
            op.operands = [*op.operands[:-1], rng.choice(values)]
    body.add_op(func.ReturnOp())
    module = ModuleOp([outside, fn])
    return module, fn


def _outcome(check) -> str:  # type: ignore[no-untyped-def]
    try:
        check()
    except (VerifyException, OpDiagnostic) as err:
        return f"{type(err).__name__}: {err}"
    return "ok"


@pytest.mark.parametrize("seed", range(300))
def test_isolated_from_above_matches_xdsl(seed: int) -> None:
    module, fn = _random_ir(random.Random(seed))
    trait = speedups.IsolatedFromAbove()
    for op in [fn, *(o for o in fn.walk() if isinstance(o, func.FuncOp))]:
        fast = _outcome(lambda op=op: speedups._isolated_verify(trait, op))
        general = _outcome(lambda op=op: speedups._xdsl_isolated_verify(trait, op))
        assert fast == general


def test_isolated_from_above_reports_a_use_from_outside() -> None:
    found = set()
    for seed in range(300):
        module, fn = _random_ir(random.Random(seed))
        found.add(
            _outcome(lambda fn=fn: speedups._isolated_verify(speedups.IsolatedFromAbove(), fn))
            == "ok"
        )
    assert found == {True, False}  # the random IR has both


def _reference_dominance(op: Operation, info: DominanceInfo) -> None:
    for i, value in enumerate(op.operands):
        if not value_dominates(info, value, op):
            raise OpDiagnostic(f"operand #{i} does not dominate this use", prefix=False)


@pytest.mark.parametrize("seed", range(300))
def test_dominance_shortcuts_match_value_dominates(seed: int) -> None:
    module, _ = _random_ir(random.Random(seed))
    fast_info, general_info = DominanceInfo(), DominanceInfo()
    ops = list(module.walk())
    random.Random(seed).shuffle(ops)  # tables built in any order
    for op in ops:
        fast = _outcome(lambda op=op: verify_dominance(op, fast_info))
        general = _outcome(lambda op=op: _reference_dominance(op, general_info))
        assert fast == general, op


def test_dominance_of_a_detached_block() -> None:
    block = Block(arg_types=[i32])
    user = _TestOp(operands=[block.args[0]])
    block.add_op(user)
    assert _outcome(lambda: verify_dominance(user, DominanceInfo())) == _outcome(
        lambda: _reference_dominance(user, DominanceInfo())
    )


def _signature_ops(rng: random.Random) -> list[Operation]:
    """arith ops whose signatures repeat, some of them invalid, sharing
    attribute objects or not (equal attributes made apart)."""
    ints = [_TestOp(result_types=[t]).results[0] for t in (i32, i64, i32, f32, IndexType())]
    ops: list[Operation] = []
    for _ in range(40):
        a, b = rng.choice(ints), rng.choice(ints)
        kind = rng.randrange(4)
        if kind == 0:
            ops.append(arith.AddiOp(a, b))
        elif kind == 1:
            op = arith.AddiOp(a, a)
            op.results[0]._type = rng.choice([i32, i64, f32])  # noqa: SLF001
            ops.append(op)
        elif kind == 2:
            width = rng.choice([32, 64])
            ops.append(
                arith.ConstantOp(IntegerAttr(rng.randrange(3), width), rng.choice([i32, i64]))
            )
        else:
            op = arith.AddiOp(a, b)
            op.attributes[rng.choice(["x", "y"])] = StringAttr(rng.choice(["p", "q"]))
            ops.append(op)
    return ops


@pytest.mark.parametrize("seed", range(100))
def test_signature_memo_matches_xdsl(seed: int) -> None:
    rng = random.Random(seed)
    ops = _signature_ops(rng)
    for op in ops + rng.sample(ops, len(ops)):
        op_def = type(op).get_irdl_definition()
        fast = _outcome(lambda op=op, d=op_def: speedups._verify(d, op))
        general = _outcome(lambda op=op, d=op_def: speedups._xdsl_verify(d, op))
        assert fast == general


def _structure_ops(rng: random.Random) -> list[Operation]:
    """gpu ops with operand segment sizes (shared, made apart, malformed,
    missing, given as an attribute) and properties present or not."""
    from xdsl.dialects.builtin import DenseArrayBase, UnitAttr

    from xgpu.dialects.gpu.host import AllocOp, DeallocOp, MemcpyOp, WaitOp
    from xgpu.dialects.gpu.launch_func import LaunchFuncOp

    values = [_TestOp(result_types=[i32]).results[0] for _ in range(4)]
    shared = {n: DenseArrayBase.from_list(i32, [n, 0, 0]) for n in range(3)}
    ops: list[Operation] = []
    for _ in range(30):
        cls = rng.choice([AllocOp, DeallocOp, MemcpyOp, WaitOp, LaunchFuncOp])
        count = rng.randrange(4)
        properties: dict = {}
        attributes: dict = {}
        kind = rng.randrange(6)
        if kind == 0:
            properties["operandSegmentSizes"] = shared[min(count, 2)]
        elif kind == 1:
            properties["operandSegmentSizes"] = DenseArrayBase.from_list(i32, [count, 0, 0])
        elif kind == 2:
            sizes = [rng.randrange(-1, 3) for _ in range(rng.choice([2, 3, 13]))]
            properties["operandSegmentSizes"] = DenseArrayBase.from_list(
                rng.choice([i32, i64]), sizes
            )
        elif kind == 3:
            attributes["operandSegmentSizes"] = shared[min(count, 2)]
        if rng.random() < 0.3:
            properties[rng.choice(["hostShared", "kernel"])] = UnitAttr()
        if rng.random() < 0.2:
            attributes["x"] = UnitAttr()
        ops.append(
            cls.create(
                operands=values[:count],
                result_types=[i32] * rng.randrange(3),
                properties=properties,
                attributes=attributes,
            )
        )
    return ops


@pytest.mark.parametrize("seed", range(100))
def test_ods_structure_memo_matches_the_checks(seed: int) -> None:
    from xgpu.ir import verifier

    rng = random.Random(seed)
    ops = _structure_ops(rng)
    for op in ops + rng.sample(ops, len(ops)):
        fast = _outcome(lambda op=op: verifier._verify_ods_structure(op))
        general = _outcome(lambda op=op: verifier._check_ods_structure(op))
        assert fast == general
