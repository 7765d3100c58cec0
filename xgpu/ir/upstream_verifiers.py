"""MLIR 22's verifiers for the non-gpu ops that xDSL 0.75 verifies differently
or not at all (scf, func, cf, arith): what MLIR rejects, in MLIR's words and
order.

`verify_ir` calls `verify_op(op)` in place of `op.verify_()` and, after the
ops nested in `op`, `verify_regions(op)`. For an op with registered `Checks`:
- `before`: MLIR's structural checks that come first (region and operand
  counts, single-block regions, region sizes), where xDSL words them otherwise;
- then xDSL's own verification: its constraints and traits only when
  `replace_custom` (MLIR's custom verifier below supersedes xDSL's), or all of it;
- `custom`: MLIR's custom verifier and the interface checks it runs with it;
- `regions`: MLIR's `verifyRegions` and region interfaces (RegionBranchOpInterface,
  LoopLikeOpInterface), after the nested ops.

xDSL's SingleBlockImplicitTerminator trait checks the terminator with its
other checks; MLIR checks it after the nested ops (a misplaced `func.return`
is reported at the `func.return`). Under `verify_ir`, for the ops with
`Checks`, the trait only makes MLIR's single-block checks, and
`verify_regions` checks the terminator with MLIR's message.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import IndexType, IntegerType, Signedness, UnregisteredOp
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.traits import IsTerminator, SingleBlockImplicitTerminator
from xdsl.utils.exceptions import VerifyException

from xgpu.diagnostics import OpDiagnostic, op_name
from xgpu.ir.printer import attribute_text
from xgpu.ir.region_checks import region_checks_deferred


@dataclass(frozen=True)
class Checks:
    before: Callable[[Operation], None] | None = None
    replace_custom: bool = False
    custom: Callable[[Operation], None] | None = None
    regions: Callable[[Operation], None] | None = None
    implicit_terminator: bool = True
    """False where MLIR has no SingleBlockImplicitTerminator (xDSL's trait is then skipped)."""


CHECKS: dict[str, Checks] = {}


def register(name: str, **checks: Callable[[Operation], None] | bool | None) -> None:
    """Run MLIR's `checks` (see `Checks`) for the ops named `name`."""
    CHECKS[name] = Checks(**checks)  # type: ignore[arg-type]


#: the modules that register the checks of a dialect's ops, imported the first
#: time an op of that dialect is verified (the other dialects' modules register
#: theirs when the dialect loads)
CHECK_MODULES: dict[str, str] = {
    "func": "core_verifiers",
    "cf": "cf_verifiers",
    "arith": "core_verifiers",
    "memref": "core_verifiers",
    "scf": "scf_verifiers",
}

_loaded: set[str] = set()


def _checks(op: Operation) -> Checks | None:
    if isinstance(op, UnregisteredOp) or not isinstance(op, IRDLOperation):
        return None
    name = op.name
    dialect = name.partition(".")[0]
    if dialect not in _loaded:
        _loaded.add(dialect)
        if (module := CHECK_MODULES.get(dialect)) is not None:
            importlib.import_module(f"xgpu.ir.{module}")
    return CHECKS.get(name)


def verify_op(op: Operation) -> None:
    """MLIR's checks of `op` itself (before the ops nested in it)."""
    checks = _checks(op)
    if checks is None:
        op.verify_()
        return
    if checks.before is not None:
        checks.before(op)
    if checks.replace_custom:
        assert isinstance(op, IRDLOperation)
        op.get_irdl_definition().verify(op)
    else:
        op.verify_()
    if checks.custom is not None:
        checks.custom(op)


def verify_regions(op: Operation) -> None:
    """MLIR's checks of `op` that run after the ops nested in it."""
    if isinstance(op, UnregisteredOp):
        return
    checks = _checks(op)
    if checks is None:
        return
    for trait in op.get_traits_of_type(SingleBlockImplicitTerminator):
        if type(trait) is SingleBlockImplicitTerminator and checks.implicit_terminator:
            _verify_implicit_terminator(op, trait.op_type)
    if checks.regions is not None:
        checks.regions(op)


# ----------------------------------------------------------- trait checks


def verify_single_block(op: Operation) -> None:
    """MLIR's SingleBlock trait: a region holds 0 or 1 block, which is not
    empty (unless the op has no terminator)."""
    for index, region in enumerate(op.regions):
        if len(region.blocks) > 1:
            raise VerifyException(f"expects region #{index} to have 0 or 1 blocks")
        if region.blocks and region.block.last_op is None:
            raise VerifyException("expects a non-empty block")


def _verify_implicit_terminator(op: Operation, terminator: type[Operation]) -> None:
    for region in op.regions:
        if not region.blocks or region.blocks.first is None:
            continue
        last = region.blocks.first.last_op
        if last is None or isinstance(last, terminator):
            continue
        name = terminator.name
        raise OpDiagnostic(
            f"expects regions to end with '{name}', found '{op_name(last)}'",
            notes=[(op, f"in custom textual format, the absence of terminator implies '{name}'")],
        )


_xdsl_implicit_terminator_verify = SingleBlockImplicitTerminator.verify


def _implicit_terminator_verify(self: SingleBlockImplicitTerminator, op: Operation) -> None:
    # Deferred only for the ops whose verifiers here do not rely on it (other
    # xDSL ops may assume the terminator checked before their own verifier).
    checks = _checks(op) if region_checks_deferred() else None
    if type(self) is not SingleBlockImplicitTerminator or checks is None:
        _xdsl_implicit_terminator_verify(self, op)
        return
    if checks.implicit_terminator:
        verify_single_block(op)


SingleBlockImplicitTerminator.verify = _implicit_terminator_verify  # type: ignore[method-assign]


def count_error(what: str, required: int, variadic: bool, found: int) -> str | None:
    """The words of MLIR's region/result/operand count traits (`ZeroRegions`,
    `OneResult`, `NOperands<3>`, `AtLeastNOperands<6>`, ...), or None if `found`
    satisfies them."""
    if variadic:
        if found >= required:
            return None
        message = f"expected {required} or more {what}s"
    else:
        if found == required:
            return None
        if required == 0:
            return f"requires zero {what}s"
        if required == 1:
            return {
                "region": "requires one region",
                "result": "requires one result",
                "operand": "requires a single operand",
            }[what]
        message = f"expected {required} {what}s"
    # Only the operand traits say what they found.
    return f"{message}, but found {found}" if what == "operand" else message


def verify_counts(op: Operation, regions: int, operands: int, variadic: bool) -> None:
    """MLIR's region and operand count traits, in their order and words."""
    for message in (
        count_error("region", regions, False, len(op.regions)),
        count_error("operand", operands, variadic, len(op.operands)),
    ):
        if message is not None:
            raise VerifyException(message)


def verify_operand_type(
    op: Operation, index: int, accepts: Callable[[Attribute], bool], description: str
) -> None:
    """An ODS operand type constraint, in MLIR's words."""
    if index < len(op.operands) and not accepts(op.operands[index].type):
        raise VerifyException(
            f"operand #{index} must be {description}, but got {quoted(op.operands[index].type)}"
        )


def is_i1(type_: Attribute) -> bool:
    return type_ == IntegerType(1)


def is_signless_or_index(type_: Attribute) -> bool:
    return isinstance(type_, IndexType) or (
        isinstance(type_, IntegerType) and type_.signedness.data == Signedness.SIGNLESS
    )


def verify_sized_regions(op: Operation, names: Sequence[str | None]) -> None:
    """ODS `SizedRegion<1>`: `names[i]` is the ODS name of region i, or None
    for a region of any size."""
    for index, (region, name) in enumerate(zip(op.regions, names)):
        if name is not None and len(region.blocks) != 1:
            raise VerifyException(
                f"region #{index} ('{name}') failed to verify constraint: region with 1 blocks"
            )


def verify_no_region_arguments(op: Operation) -> None:
    """MLIR's NoRegionArguments trait."""
    for index, region in enumerate(op.regions):
        if region.blocks and region.block.args:
            which = "region" if len(op.regions) == 1 else f"region #{index}"
            raise VerifyException(f"{which} should have no arguments")


# ------------------------------------------------------ control flow edges


@dataclass
class Edge:
    """A control flow edge of a region branch op: from the op itself
    (`source` None) or a terminator, to a region (its index) or back to the op
    (`target` None), passing `operands` to `inputs`."""

    source: Operation | None
    target: int | None
    operands: Sequence[SSAValue]
    inputs: Sequence[SSAValue]


def verify_edges(op: Operation, edges: Sequence[Edge]) -> None:
    """MLIR's RegionBranchOpInterface check: the values passed along each
    edge match the successor's inputs in number and type."""
    for edge in edges:
        source = "parent" if edge.source is None else f"Operation {op_name(edge.source)}"
        target = "parent" if edge.target is None else f"Region #{edge.target}"
        prefix = f"along control flow edge from {source} to {target}"
        notes = [(edge.source if edge.source is not None else op, "region branch point")]
        if len(edge.operands) != len(edge.inputs):
            raise OpDiagnostic(
                f"{prefix}: region branch point has {len(edge.operands)} operands, "
                f"but region successor needs {len(edge.inputs)} inputs",
                notes=notes,
            )
        for index, (value, input_) in enumerate(zip(edge.operands, edge.inputs)):
            if value.type != input_.type:
                raise OpDiagnostic(
                    f"{prefix}: successor operand type #{index} {quoted(value.type)} "
                    f"should match successor input type #{index} {quoted(input_.type)}",
                    notes=notes,
                )


def terminators(region: Region, kinds: tuple[type[Operation], ...]) -> list[Operation]:
    """The terminators of `kinds` that end blocks of `region`, in block order."""
    found: list[Operation] = []
    for block in region.blocks:
        last = block.last_op
        if last is not None and isinstance(last, kinds):
            found.append(last)
    return found


def region_args(op: Operation, index: int, drop: int = 0) -> Sequence[SSAValue]:
    region = op.regions[index]
    if not region.blocks or region.blocks.first is None:
        return ()
    return region.blocks.first.args[drop:]


def quoted(attr: Attribute) -> str:
    """A type or attribute as MLIR streams it into a diagnostic: `'i32'`."""
    return f"'{attribute_text(attr)}'"


def is_terminator(op: Operation | None) -> bool:
    return op is not None and op.has_trait(IsTerminator, value_if_unregistered=False)
