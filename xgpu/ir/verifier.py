"""Verification that reports MLIR-style diagnostics instead of raising.

xDSL's `Operation.verify` verifies nested ops first and, on failure, prints the
whole module into the exception. MLIR verifies an op before the ops nested in
it and reports the first failure at the failing op's location. `verify_ir`
does the latter and returns a `Diagnostic` (or None when the IR is valid).
"""

from __future__ import annotations

from io import StringIO

from xdsl.dialects.builtin import UnregisteredOp
from xdsl.ir import Operation
from xdsl.traits import IsTerminator, NoTerminator
from xdsl.utils.exceptions import VerifyException

from xgpu.diagnostics import (
    Diagnostic,
    OpDiagnostic,
    diagnostic_from_exception,
    location_of,
    op_message,
)
from xgpu.dialects.gpu.dialect_attrs import verify_dialect_attributes
from xgpu.ir.printer import MLIRPrinter


def _is_unregistered(op: Operation) -> bool:
    """Unregistered ops may have any trait. xDSL's `test` dialect counts as
    unregistered: mlir-opt does not register it."""
    return isinstance(op, UnregisteredOp) or op.name.startswith("test.")


def _may_lack_terminator(op: Operation | None) -> bool:
    """MLIR's `mayBeValidWithoutTerminator`."""
    return op is None or _is_unregistered(op) or op.has_trait(NoTerminator)


def _generic(op: Operation) -> str:
    out = StringIO()
    try:
        MLIRPrinter(stream=out, print_generic_format=True).print_op(op)
    except Exception:
        return f'"{op.name}"(...)'
    return out.getvalue().split("\n")[0]


def _verify_successors(op: Operation) -> None:
    block = op.parent
    region = None if block is None else block.parent
    if block is None or region is None or block.last_op is not op:
        raise VerifyException("must be the last operation in the parent block")
    for succ in op.successors:
        if succ.parent is not region:
            raise VerifyException("branches to a block of a different region")


def _verify_blocks(op: Operation) -> None:
    """MLIR's block checks for the regions of `op`: a block must end with a
    terminator unless `op` may hold blocks without one."""
    if _may_lack_terminator(op):
        return
    for region in op.regions:
        for block in region.blocks:
            last = block.last_op
            if last is None:
                raise OpDiagnostic("empty block: expect at least a terminator", prefix=False)
            if not (last.has_trait(IsTerminator) or _is_unregistered(last)):
                raise OpDiagnostic(
                    f"block with no terminator, has {_generic(last)}", op=last, prefix=False
                )


def verify_op(op: Operation) -> Diagnostic | None:
    """Verify `op` alone, in MLIR's order: its gpu dialect attributes, its
    invariants and verifier, then the blocks of its regions (not the ops in them)."""
    try:
        if op.attributes:
            verify_dialect_attributes(op)
        if op.successors:
            _verify_successors(op)
        op.verify_()
        if op.regions:
            _verify_blocks(op)
    except VerifyException as exc:
        return diagnostic_from_exception(op, exc)
    except Exception as exc:  # a verifier bug must not become a traceback
        return Diagnostic(
            "error",
            op_message(op, f"verifier failed unexpectedly: {type(exc).__name__}: {exc}"),
            location_of(op),
        )
    return None


def verify_ir(root: Operation) -> Diagnostic | None:
    """Verify `root` and every op nested in it, in MLIR's order (an op before its
    nested ops); return the first failure as a Diagnostic."""
    for op in root.walk():
        if (diag := verify_op(op)) is not None:
            return diag
    return None
