"""Verification that reports MLIR-style diagnostics instead of raising.

xDSL's `Operation.verify` verifies nested ops first and, on failure, prints the
whole module into the exception. MLIR verifies an op before the ops nested in
it and reports the first failure at the failing op's location. `verify_ir`
does the latter and returns a `Diagnostic` (or None when the IR is valid).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from xdsl.dialects.builtin import DenseArrayBase, UnregisteredOp, i32
from xdsl.ir import Operation
from xdsl.irdl import AttrSizedOperandSegments, IRDLOperation, OpDef, VariadicDef
from xdsl.traits import HasParent, IsolatedFromAbove, IsTerminator, NoTerminator
from xdsl.utils.exceptions import VerifyException

from xgpu.diagnostics import (
    Diagnostic,
    OpDiagnostic,
    diagnostic_from_exception,
    location_of,
    op_message,
    op_name,
)
from xgpu.dialects.gpu.dialect_attrs import verify_dialect_attributes
from xgpu.ir.dominance import DominanceInfo, verify_dominance
from xgpu.ir.printer import print_mlir
from xgpu.ir.region_checks import RegionVerifier, deferring_region_checks
from xgpu.ir.speedups import gc_paused
from xgpu.ir.symbols import indexed_symbol_tables
from xgpu.ir.upstream_verifiers import count_error, verify_op, verify_regions
from xgpu.ir.verify_memo import (
    known_valid,
    memoized_signatures,
    record_valid,
    signature,
    users_to_check,
)


def _is_unregistered(op: Operation) -> bool:
    """Unregistered ops may have any trait. `test.*` ops count as unregistered:
    MLIR's `test` dialect allows unknown ops, and xDSL's registers only a few."""
    return isinstance(op, UnregisteredOp) or op.name.startswith("test.")


def _may_lack_terminator(op: Operation | None) -> bool:
    """MLIR's `mayBeValidWithoutTerminator`."""
    return op is None or _is_unregistered(op) or op.has_trait(NoTerminator)


def generic_text(op: Operation) -> str:
    """The first line of `op` in generic form, as MLIR's diagnostics show it."""
    try:
        return print_mlir(op, generic=True).split("\n")[0]
    except Exception:
        return f'"{op_name(op)}"(...)'


def _verify_successors(op: Operation) -> None:
    block = op.parent
    region = None if block is None else block.parent
    if block is None or region is None or block.last_op is not op:
        raise VerifyException("must be the last operation in the parent block")
    for succ in op.successors:
        if succ.parent is not region:
            raise VerifyException("branches to a block of a different region")


class _Failed(Exception):
    def __init__(self, diag: Diagnostic):
        super().__init__(diag.message)
        self.diag = diag


def _checked(op: Operation, check: Callable[[], None]) -> None:
    """Run a check of `op`; turn its failure into a diagnostic at `op`."""
    try:
        check()
    except VerifyException as exc:
        raise _Failed(diagnostic_from_exception(op, exc)) from None
    except Exception as exc:  # a verifier bug must not become a traceback
        known = _known_verifier_exception(op, exc)
        message = known or f"verifier failed unexpectedly: {type(exc).__name__}: {exc}"
        raise _Failed(
            Diagnostic("error", op_message(op, message), location_of(op), op=op)
        ) from None


def _known_verifier_exception(op: Operation, exc: Exception) -> str | None:
    """MLIR's message for the xDSL 0.75 verifiers that raise a plain
    `Exception` instead of a `VerifyException` (memref.load/store with the
    wrong number of indices)."""
    text = str(exc).lower()
    if text != "expected an index for each dimension":
        return None
    memref = getattr(op, "memref", None)
    rank = len(memref.type.get_shape()) if memref is not None else None
    count = len(getattr(op, "indices", ()))
    if op.name == "memref.load" and rank is not None:
        return f"incorrect number of indices for load, expected {rank} but got {count}"
    if op.name == "memref.store":
        return "store index operand count not equal to memref rank"
    return None


_SEGMENTS = "operandSegmentSizes"


def _verify_ods_structure(op: Operation) -> None:
    """What MLIR's ODS-generated code checks of a gpu or memref op before its own verifier,
    in MLIR's order and words (xDSL checks the same in other words, or in another
    order): the number of regions, results and operands; the operand segment
    sizes, a missing or malformed `operandSegmentSizes` counting as all zeros (as
    MLIR reads one given in the attribute dictionary; the parser gives an op
    without operands and without sizes its zeros); then the required attributes
    and properties."""
    if not isinstance(op, IRDLOperation) or not op.name.startswith(
        ("gpu.", "async.", "index.", "memref.")
    ):
        return
    # The checks depend only on these, which repeat from op to op of a host
    # program: a structure found valid once is valid again. Looked up first by
    # the identity of the objects (the table keeps them alive), which costs
    # less than hashing the attributes.
    properties, attributes = op.properties, op.attributes
    ids = (
        type(op),
        len(op.regions),
        len(op.results),
        len(op.operands),
        id(properties.get(_SEGMENTS)),
        id(attributes.get(_SEGMENTS)),
        *map(id, properties),
        -1,
        *map(id, attributes),
    )
    if ids in _VALID_ODS_IDS:
        return
    try:
        key = (
            type(op),
            len(op.regions),
            len(op.results),
            len(op.operands),
            op.properties.get(_SEGMENTS),
            op.attributes.get(_SEGMENTS),
            tuple(op.properties),
            tuple(op.attributes),
        )
        if key in _VALID_ODS_STRUCTURES:
            return
    except TypeError:  # an unhashable attribute
        key = None
    _check_ods_structure(op)
    if key is not None:
        if len(_VALID_ODS_STRUCTURES) >= 4096:
            _VALID_ODS_STRUCTURES.clear()
            _VALID_ODS_IDS.clear()
        _VALID_ODS_STRUCTURES.add(key)
        _VALID_ODS_IDS[ids] = key


_VALID_ODS_STRUCTURES: set[tuple[object, ...]] = set()
# the same, by identity: ids -> the key whose objects they name
_VALID_ODS_IDS: dict[tuple[object, ...], tuple[object, ...]] = {}


def _check_ods_structure(op: IRDLOperation) -> None:
    shape = _ods_shape(type(op))
    for what, required, variadic, found in (
        ("region", *shape.regions, len(op.regions)),
        ("result", *shape.results, len(op.results)),
        ("operand", *shape.operands, len(op.operands)),
    ):
        if (message := count_error(what, required, variadic, found)) is not None:
            raise VerifyException(message)
    op_def = shape.op_def

    if shape.segmented:
        container = op.properties if _SEGMENTS in op.properties else op.attributes
        attr = container.get(_SEGMENTS)
        sizes = [0] * len(op_def.operands)
        well_formed = (
            isinstance(attr, DenseArrayBase)
            and attr.elt_type == i32
            and len(attr) == len(op_def.operands)
        )
        if well_formed:
            assert isinstance(attr, DenseArrayBase)
            sizes = [int(v) for v in attr.get_values()]
            if any(v < 0 for v in sizes):
                raise VerifyException(f"'{_SEGMENTS}' attribute cannot have negative elements")
        if sum(sizes) != len(op.operands):
            raise VerifyException(
                f"operand count ({len(op.operands)}) does not match with the total size "
                f"({sum(sizes)}) specified in attribute '{_SEGMENTS}'"
            )

    for name in shape.required_properties:
        if name not in op.properties:
            raise VerifyException(f"requires attribute '{name}'")
    for name in shape.required_attributes:
        if name not in op.attributes:
            raise VerifyException(f"requires attribute '{name}'")


@dataclass(frozen=True)
class _OdsShape:
    """What `_verify_ods_structure` needs of an op definition, computed once."""

    op_def: OpDef
    regions: tuple[int, bool]
    results: tuple[int, bool]
    operands: tuple[int, bool]
    segmented: bool
    required_properties: tuple[str, ...]
    required_attributes: tuple[str, ...]


_ODS_SHAPES: dict[type[Operation], _OdsShape] = {}


def _ods_shape(op_type: type[IRDLOperation]) -> _OdsShape:
    shape = _ODS_SHAPES.get(op_type)
    if shape is None:
        op_def = op_type.get_irdl_definition()

        def count(defs) -> tuple[int, bool]:  # type: ignore[no-untyped-def]
            required = sum(1 for _, d in defs if not isinstance(d, VariadicDef))
            return required, any(isinstance(d, VariadicDef) for _, d in defs)

        shape = _ODS_SHAPES[op_type] = _OdsShape(
            op_def,
            count(op_def.regions),
            count(op_def.results),
            count(op_def.operands),
            any(isinstance(o, AttrSizedOperandSegments) for o in op_def.options),
            tuple(n for n, p in op_def.properties.items() if not isinstance(p, VariadicDef)),
            tuple(n for n, a in op_def.attributes.items() if not isinstance(a, VariadicDef)),
        )
    return shape


def _in_allowed_parent(op: Operation) -> bool:
    """Whether `op`'s HasParent traits hold (MLIR checks them before a
    terminator's position: a terminator outside its parent op is reported
    as such)."""
    parent = op.parent_op()
    for trait in op.get_traits_of_type(HasParent):
        if parent is None or not isinstance(parent, trait.op_types):
            if len(trait.op_types) == 1:
                raise VerifyException(f"expects parent op '{trait.op_types[0].name}'")
            return False  # the op's own checks say which parents it accepts
    return True


def _verify_own(op: Operation) -> None:
    """The checks of `op` itself: its gpu dialect attributes, its successors, its
    position if it is a terminator, its invariants and custom verifier."""
    if op.attributes:
        verify_dialect_attributes(op)
    if op.successors:
        _verify_successors(op)
    _verify_ods_structure(op)
    if (
        not _is_unregistered(op)
        and op.has_trait(IsTerminator)
        and op.parent is not None
        and op.parent.last_op is not op
        and _in_allowed_parent(op)
    ):
        raise VerifyException("must be the last operation in the parent block")
    verify_op(op)


def _is_isolated(op: Operation) -> bool:
    """An op with regions isolated from above (not an unregistered op, which
    xDSL reports as having every trait)."""
    return bool(op.regions) and not _is_unregistered(op) and op.has_trait(IsolatedFromAbove)


class _Stop(Exception):
    """An isolated op below failed (its diagnostics are collected): stop
    verifying the ops that enclose it, as MLIR does."""


def _verify_tree(op: Operation, collect: list[Diagnostic] | None = None) -> None:
    """MLIR's order: the op, then each block of its regions (empty-block check on
    entry, its ops, the terminator check on exit), then the op's region checks.

    With `collect` (MLIR's verifier, which reports every failure), the ops
    isolated from above in the op's blocks are verified after its other nested
    ops, each on its own: the first failure inside each is appended to
    `collect`, and the op's region checks are skipped when one failed."""
    _checked(op, lambda: _verify_own(op))
    if not op.regions:
        return
    may_lack = _may_lack_terminator(op)
    isolated: list[Operation] = []
    for region in op.regions:
        for block in region.blocks:
            last = block.last_op
            if last is None:
                if not may_lack:
                    _checked(op, _raise_empty_block)
                continue
            for child in block.ops:
                if collect is not None and _is_isolated(child):
                    isolated.append(child)
                    continue
                key = signature(child)
                if known_valid(key):
                    continue  # an op alike in this block passed
                _verify_tree(child, collect)
                record_valid(key, child)
            if not may_lack and not (last.has_trait(IsTerminator) or _is_unregistered(last)):
                raise _Failed(
                    Diagnostic(
                        "error",
                        f"block with no terminator, has {generic_text(last)}",
                        location_of(last),
                        op=last,
                    )
                )
    if isolated:
        assert collect is not None
        failed = False
        for child in isolated:
            try:
                _verify_isolated(child, collect)
            except _Failed as failure:
                collect.append(failure.diag)
                failed = True
            except _Stop:
                failed = True
        if failed:
            raise _Stop
    if isinstance(op, RegionVerifier):
        _checked(op, op.verify_regions_)
    _checked(op, lambda: verify_regions(op))


def _raise_empty_block() -> None:
    raise OpDiagnostic("empty block: expect at least a terminator", prefix=False)


def verify_ir(root: Operation) -> Diagnostic | None:
    """Verify `root` and every op nested in it, in MLIR's order, then the
    dominance of every use; return the first failure as a Diagnostic."""
    try:
        with _verifying():
            _verify_tree(root)
            info = DominanceInfo()
            for op in users_to_check(root):
                _checked(op, lambda op=op: verify_dominance(op, info))
    except _Failed as failed:
        return failed.diag
    return None


@contextmanager
def _verifying() -> Iterator[None]:
    """What holds while the IR is verified (and does not change)."""
    with gc_paused(), deferring_region_checks(), indexed_symbol_tables(), memoized_signatures():
        yield


def _verify_isolated(op: Operation, collect: list[Diagnostic]) -> None:
    """MLIR's verification of an op isolated from above: its ops (the isolated
    ones each on its own), then the dominance of the uses in its regions."""
    _verify_tree(op, collect)
    info = DominanceInfo()
    # The ops nested in `op`, not looking inside the ops isolated from above.
    for child in users_to_check(op, with_root=False, skip=_is_isolated):
        _checked(child, lambda child=child: verify_dominance(child, info))


def verify_all(root: Operation) -> list[Diagnostic]:
    """Every error mlir-opt's verifier reports for `root`: in each op isolated
    from above (function, module) that encloses no failing isolated op, the
    first failure, in the order of the IR (a use that its definition does not
    dominate counts, after the other checks of the op). Empty when valid."""
    found: list[Diagnostic] = []
    try:
        with _verifying():
            _verify_isolated(root, found)
    except _Failed as failed:
        found.append(failed.diag)
    except _Stop:
        pass
    return found
