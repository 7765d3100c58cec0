"""MLIR 22's verifiers of the scf ops (see `xgpu.ir.upstream_verifiers`).

xDSL 0.75 accepts an `scf.if`, `scf.while` or `scf.execute_region` whose
yields do not match its results, and words its scf checks its own way; these
are MLIR's checks, in MLIR's order: the op's own verifier, then (after the
nested ops) LoopLikeOpInterface and RegionBranchOpInterface along every
control flow edge.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import scf
from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import Operation, SSAValue
from xdsl.utils.exceptions import VerifyException

from xgpu.diagnostics import OpDiagnostic, op_name
from xgpu.ir.upstream_verifiers import (
    Edge,
    is_i1,
    is_signless_or_index,
    quoted,
    region_args,
    register,
    terminators,
    verify_counts,
    verify_edges,
    verify_no_region_arguments,
    verify_operand_type,
    verify_single_block,
    verify_sized_regions,
)

_UNSIGNED_64 = 2**64


def _yields(op: Operation, index: int) -> list[Operation]:
    return terminators(op.regions[index], (scf.YieldOp,))


def _to_parent(op: Operation, kinds: tuple[type[Operation], ...] = (scf.YieldOp,)) -> list[Edge]:
    """Edges from every terminator of `kinds` in `op`'s regions back to `op`."""
    edges = []
    for region in op.regions:
        for term in terminators(region, kinds):
            edges.append(Edge(term, None, term.operands, op.results))
    return edges


def _constant_value(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


# ---------------------------------------------------------------- scf.yield

_YIELD_PARENTS = ("scf.execute_region", "scf.for", "scf.if", "scf.index_switch", "scf.while")


def _yield_before(op: Operation) -> None:
    parent = op.parent_op()
    if parent is None or op_name(parent) not in _YIELD_PARENTS:
        raise VerifyException(f"expects parent op to be one of '{', '.join(_YIELD_PARENTS)}'")


register("scf.yield", before=_yield_before)


# ------------------------------------------------------------------- scf.if


def _if_before(op: Operation) -> None:
    verify_counts(op, 2, 1, False)
    verify_single_block(op)
    verify_operand_type(op, 0, is_i1, "1-bit signless integer")
    verify_sized_regions(op, ("thenRegion", None))


def _if_custom(op: Operation) -> None:
    verify_no_region_arguments(op)
    if op.results and not op.regions[1].blocks:
        raise VerifyException("must have an else block if defining values")


def _if_regions(op: Operation) -> None:
    else_empty = not op.regions[1].blocks
    edges = [Edge(None, 0, (), region_args(op, 0))]
    if else_empty:
        edges.append(Edge(None, None, (), op.results))
    else:
        edges.append(Edge(None, 1, (), region_args(op, 1)))
    verify_edges(op, [*edges, *_to_parent(op)])


register("scf.if", before=_if_before, custom=_if_custom, regions=_if_regions)


# ------------------------------------------------------------------ scf.for


def _for_before(op: Operation) -> None:
    verify_counts(op, 1, 3, True)
    verify_single_block(op)
    for index in range(3):
        verify_operand_type(op, index, is_signless_or_index, "signless integer or index")
    verify_sized_regions(op, ("region",))
    if len({value.type for value in op.operands[:3]}) != 1:
        raise VerifyException(
            "failed to verify that all of {lowerBound, upperBound, step} have same type"
        )


def _for_custom(op: Operation) -> None:
    assert isinstance(op, scf.ForOp)
    if len(op.iter_args) != len(op.results):
        raise VerifyException("mismatch in number of loop-carried values and defined values")


def _for_regions(op: Operation) -> None:
    assert isinstance(op, scf.ForOp)
    body = op.body.blocks.first
    assert body is not None
    if body.args and body.args[0].type != op.lb.type:
        raise VerifyException("expected induction variable to be same type as bounds and step")
    yields = [y.operands for y in _yields(op, 0)]
    _verify_loop_like(op, op.iter_args, body.args[1:], len(body.args) - 1, yields, op.results)
    inputs = body.args[1:]
    edges = [Edge(None, 0, op.iter_args, inputs), Edge(None, None, op.iter_args, op.results)]
    for term in _yields(op, 0):
        edges += [Edge(term, 0, term.operands, inputs), Edge(term, None, term.operands, op.results)]
    verify_edges(op, edges)


def _verify_loop_like(
    op: Operation,
    inits: Sequence[SSAValue],
    iter_args: Sequence[SSAValue],
    iter_count: int,
    yields: list[Sequence[SSAValue]],
    results: Sequence[SSAValue],
) -> None:
    """MLIR's LoopLikeOpInterface check (`iter_count` may be -1, which MLIR
    prints as an unsigned 64-bit number)."""
    yielded = yields[0] if len(yields) == 1 else ()
    if len(inits) != iter_count:
        raise VerifyException(
            f"different number of inits and region iter_args: {len(inits)} != "
            f"{iter_count % _UNSIGNED_64}"
        )
    if yielded and len(yielded) != iter_count:
        raise VerifyException(
            f"different number of region iter_args and yielded values: {iter_count} != "
            f"{len(yielded)}"
        )
    if len(results) != iter_count:
        raise VerifyException(
            f"different number of loop results and region iter_args: {len(results)} != {iter_count}"
        )
    for i, (init, arg) in enumerate(zip(inits, iter_args)):
        if init.type != arg.type:
            raise VerifyException(
                f"{i}-th init and {i}-th region iter_arg have different type: "
                f"{quoted(init.type)} != {quoted(arg.type)}"
            )
        if yielded and arg.type != yielded[i].type:
            raise VerifyException(
                f"{i}-th region iter_arg and {i}-th yielded value have different type: "
                f"{quoted(arg.type)} != {quoted(yielded[i].type)}"
            )
    for arg, result in zip(iter_args, results):
        if arg.type != result.type:
            # MLIR 22 numbers every such mismatch 0.
            raise VerifyException(
                "0-th region iter_arg and 0-th loop result have different type: "
                f"{quoted(arg.type)} != {quoted(result.type)}"
            )


register(
    "scf.for", before=_for_before, replace_custom=True, custom=_for_custom, regions=_for_regions
)


# ---------------------------------------------------------------- scf.while


def _while_before(op: Operation) -> None:
    verify_counts(op, 2, 0, True)
    verify_single_block(op)
    verify_sized_regions(op, ("before", "after"))


def _while_custom(op: Operation) -> None:
    for index, (name, kind) in enumerate((("before", scf.ConditionOp), ("after", scf.YieldOp))):
        block = op.regions[index].blocks.first
        last = block.last_op if block is not None else None
        if not isinstance(last, kind):
            notes = [(last, "terminator here")] if last is not None else []
            raise OpDiagnostic(
                f"expects the '{name}' region to terminate with '{kind.name}'", notes=notes
            )


def _while_regions(op: Operation) -> None:
    before, after = region_args(op, 0), region_args(op, 1)
    edges = [Edge(None, 0, op.operands, before)]
    for cond in terminators(op.regions[0], (scf.ConditionOp,)):
        args = cond.operands[1:]
        edges += [Edge(cond, None, args, op.results), Edge(cond, 1, args, after)]
    for term in _yields(op, 1):
        edges.append(Edge(term, 0, term.operands, before))
    verify_edges(op, edges)


register(
    "scf.while",
    before=_while_before,
    replace_custom=True,
    custom=_while_custom,
    regions=_while_regions,
)


# ------------------------------------------------------- scf.execute_region


def _execute_before(op: Operation) -> None:
    verify_counts(op, 1, 0, False)


def _execute_custom(op: Operation) -> None:
    region = op.regions[0]
    if not region.blocks:
        raise VerifyException("region needs to have at least one block")
    entry = region.blocks.first
    if entry is not None and entry.args:
        raise VerifyException("region cannot have any arguments")


def _execute_regions(op: Operation) -> None:
    verify_edges(op, [Edge(None, 0, (), region_args(op, 0)), *_to_parent(op)])


register(
    "scf.execute_region",
    before=_execute_before,
    replace_custom=True,
    custom=_execute_custom,
    regions=_execute_regions,
)


# --------------------------------------------------------- scf.index_switch


def _switch_before(op: Operation) -> None:
    if len(op.operands) != 1:
        raise VerifyException(
            "requires a single operand"
            if not op.operands
            else f"expected 1 operands, but found {len(op.operands)}"
        )
    verify_single_block(op)
    verify_sized_regions(op, ["defaultRegion"] + ["caseRegions"] * (len(op.regions) - 1))


def _switch_custom(op: Operation) -> None:
    assert isinstance(op, scf.IndexSwitchOp)
    cases = list(op.cases.iter_values())
    if len(cases) != len(op.case_regions):
        raise VerifyException(
            f"has {len(op.case_regions)} case regions but {len(cases)} case values"
        )
    seen: set[int] = set()
    for value in cases:
        if value in seen:
            raise VerifyException(f"has duplicate case value: {value}")
        seen.add(value)
    named = [("default region", op.default_region)]
    named += [(f"case region #{i}", r) for i, r in enumerate(op.case_regions)]
    for name, region in named:
        last = region.block.last_op
        if not isinstance(last, scf.YieldOp):
            found = op_name(last) if last is not None else "nothing"
            raise VerifyException(f"expected region to end with scf.yield, but got {found}")
        if len(last.operands) != len(op.results):
            raise OpDiagnostic(
                f"expected each region to return {len(op.results)} values, but {name} "
                f"returns {len(last.operands)}",
                notes=[(last, "see yield operation here")],
            )
        for index, (result, value) in enumerate(zip(op.results, last.operands)):
            if result.type != value.type:
                raise OpDiagnostic(
                    f"expected result #{index} of each region to be {quoted(result.type)}",
                    notes=[(last, f"{name} returns {quoted(value.type)} here")],
                )


def _switch_regions(op: Operation) -> None:
    edges = [Edge(None, i, (), region_args(op, i)) for i in range(len(op.regions))]
    verify_edges(op, [*edges, *_to_parent(op)])


register(
    "scf.index_switch",
    before=_switch_before,
    replace_custom=True,
    custom=_switch_custom,
    regions=_switch_regions,
)


# ----------------------------------------------------- scf.parallel/reduce


def _parallel_before(op: Operation) -> None:
    verify_single_block(op)
    verify_sized_regions(op, ("region",))


def _parallel_custom(op: Operation) -> None:
    assert isinstance(op, scf.ParallelOp)
    if not op.step:
        raise VerifyException(
            "needs at least one tuple element for lowerBound, upperBound and step"
        )
    for step in op.step:
        if (value := _constant_value(step)) is not None and value <= 0:
            raise VerifyException("constant step operand must be positive")
    body = op.body.block
    if len(body.args) != len(op.step):
        raise VerifyException(
            f"expects the same number of induction variables: {len(body.args)} as bound and "
            f"step values: {len(op.step)}"
        )
    if any(not isinstance(arg.type, IndexType) for arg in body.args):
        raise VerifyException("expects arguments for the induction variable to be of index type")
    reduce = body.last_op
    if not isinstance(reduce, scf.ReduceOp):
        notes = [(reduce, "terminator here")] if reduce is not None else []
        raise OpDiagnostic("expects body to terminate with 'scf.reduce'", notes=notes)
    results, reductions, inits = len(op.results), len(reduce.reductions), len(op.initVals)
    if results != reductions:
        raise VerifyException(
            f"expects number of results: {results} to be the same as number of reductions: "
            f"{reductions}"
        )
    if results != inits:
        raise VerifyException(
            f"expects number of results: {results} to be the same as number of initial "
            f"values: {inits}"
        )
    for i, (result, operand) in enumerate(zip(op.results, reduce.operands)):
        if result.type != operand.type:
            raise OpDiagnostic(
                f"expects type of {i}-th reduction operand: {quoted(operand.type)} to be the "
                f"same as the {i}-th result type: {quoted(result.type)}",
                op=reduce,
            )


register("scf.parallel", before=_parallel_before, replace_custom=True, custom=_parallel_custom)


def _reduce_regions(op: Operation) -> None:
    assert isinstance(op, scf.ReduceOp)
    if len(op.reductions) != len(op.operands):
        raise VerifyException(
            f"expects number of reduction regions: {len(op.reductions)} to be the same as "
            f"number of reduction operands: {len(op.operands)}"
        )
    for i, (region, operand) in enumerate(zip(op.reductions, op.operands)):
        block = region.block
        if block.last_op is None:
            raise VerifyException(f"{i}-th reduction has an empty body")
        if len(block.args) != 2 or any(arg.type != operand.type for arg in block.args):
            raise VerifyException(
                f"expected two block arguments with type {quoted(operand.type)} in the "
                f"{i}-th reduction region"
            )
        if not isinstance(block.last_op, scf.ReduceReturnOp):
            raise VerifyException(
                "reduction bodies must be terminated with an 'scf.reduce.return' op"
            )


def _reduce_before(op: Operation) -> None:
    verify_sized_regions(op, ["reductions"] * len(op.regions))


register(
    "scf.reduce",
    before=_reduce_before,
    replace_custom=True,
    regions=_reduce_regions,
    implicit_terminator=False,
)


def _reduce_return_custom(op: Operation) -> None:
    block = op.parent_block()
    if block is None or not block.args or not op.operands:
        return
    expected = block.args[0].type
    if op.operands[0].type != expected:
        raise VerifyException(
            f"must have type {quoted(expected)} (the type of the reduction inputs)"
        )


register("scf.reduce.return", replace_custom=True, custom=_reduce_return_custom)


# ------------------------------------------------------ scf.forall/in_parallel

_FORALL_GROUPS = ("lower bound", "upper bound", "step")
# MLIR's DeviceMappingAttrInterface implementations (the gpu dialect's).
_DEVICE_MAPPINGS = (
    "gpu.block",
    "gpu.thread",
    "gpu.warp",
    "gpu.warpgroup",
    "gpu.lane",
    "gpu.memory_space",
    "gpu.mask",  # a masking attribute (not counted in the rank)
)


def _forall_before(op: Operation) -> None:
    from xdsl.dialects.builtin import ArrayAttr, TensorType

    for name in ("staticLowerBound", "staticStep", "staticUpperBound"):
        if name not in op.properties:
            raise VerifyException(f"requires attribute '{name}'")
    mapping = op.properties.get("mapping")
    if mapping is not None and not (
        isinstance(mapping, ArrayAttr)
        and all(getattr(m, "name", None) in _DEVICE_MAPPINGS for m in mapping.data)
    ):
        raise VerifyException(
            "attribute 'mapping' failed to satisfy constraint: Device Mapping array attribute"
        )
    sizes = op.properties.get("operandSegmentSizes")
    counts = list(sizes.iter_values()) if sizes is not None else [0, 0, 0, len(op.operands)]
    index = 0
    for group, count in enumerate(counts):
        for operand in op.operands[index : index + count]:
            if group < 3 and not isinstance(operand.type, IndexType):
                raise VerifyException(
                    f"operand #{index} must be variadic of index, but got {quoted(operand.type)}"
                )
            if group == 3 and not isinstance(operand.type, TensorType):
                raise VerifyException(
                    f"operand #{index} must be variadic of ranked tensor of any type values, "
                    f"but got {quoted(operand.type)}"
                )
            index += 1
    verify_single_block(op)
    verify_sized_regions(op, ("region",))


def _forall_custom(op: Operation) -> None:
    from xgpu.dialects.scf.forall import ForallOp

    assert isinstance(op, ForallOp)
    rank = op.rank()
    outputs = op.outputs
    if len(op.results) != len(outputs):
        raise VerifyException(
            f"produces {len(op.results)} results, but has only {len(outputs)} outputs"
        )
    args = op.body.block.args
    if len(args) != rank + len(outputs):
        raise VerifyException(f"region expects {rank} arguments")
    for i in range(rank):
        if not isinstance(args[i].type, IndexType):
            raise VerifyException(f"expects {i}-th block argument to be an index")
    for i, output in enumerate(outputs):
        if args[rank + i].type != output.type:
            raise VerifyException(
                f"type mismatch between {i}-th output and corresponding block argument"
            )
    if op.mapping is not None and op.mapping.data:
        masks = [m for m in op.mapping.data if getattr(m, "name", None) == "gpu.mask"]
        if len(op.mapping.data) - len(masks) != rank:
            raise VerifyException("mapping attribute size must match op rank")
        if len(masks) > 1:
            raise VerifyException('"mapping" supports at most one device masking attribute')
    groups = (
        (op.static_lower_bound, op.dynamic_lower_bound),
        (op.static_upper_bound, op.dynamic_upper_bound),
        (op.static_step, op.dynamic_step),
    )
    for name, (static, dynamic) in zip(_FORALL_GROUPS, groups):
        values = list(static.iter_values())
        # Reported at the op without the "'scf.forall' op" prefix.
        if len(values) != rank:
            raise OpDiagnostic(f"expected {rank} {name} values, got {len(values)}", prefix=False)
        expected = values.count(ForallOp.DYNAMIC)
        if len(dynamic) != expected:
            raise OpDiagnostic(f"expected {expected} dynamic {name} values", prefix=False)


register("scf.forall", before=_forall_before, replace_custom=True, custom=_forall_custom)


def _in_parallel_custom(op: Operation) -> None:
    parent = op.parent_op()
    if parent is None or op_name(parent) != "scf.forall":
        raise VerifyException("expected forall op parent")
    block = op.regions[0].blocks.first
    if block is None:
        return
    outs = set(parent.regions[0].block.args[len(parent.properties["staticLowerBound"]) :])
    for nested in block.ops:
        if op_name(nested) != "tensor.parallel_insert_slice":
            raise VerifyException("expected only ParallelCombiningOpInterface ops")
        if len(nested.operands) < 2 or nested.operands[1] not in outs:
            raise OpDiagnostic("may only insert into an output block argument", op=nested)


register("scf.forall.in_parallel", custom=_in_parallel_custom)
