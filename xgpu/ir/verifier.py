"""Verification that reports MLIR-style diagnostics instead of raising.

xDSL's `Operation.verify` verifies nested ops first and, on failure, prints the
whole module into the exception. MLIR verifies an op before the ops nested in
it and reports the first failure at the failing op's location. `verify_ir`
does the latter and returns a `Diagnostic` (or None when the IR is valid).
"""

from __future__ import annotations

from xdsl.ir import Operation
from xdsl.traits import IsTerminator, NoTerminator
from xdsl.utils.exceptions import VerifyException

from xgpu.diagnostics import Diagnostic, diagnostic_from_exception, location_of, op_message
from xgpu.dialects.gpu.dialect_attrs import verify_dialect_attributes


def _verify_structure(op: Operation) -> None:
    """The structural checks of `Operation.verify`, without verifying nested ops."""
    block = op.parent
    region = None if block is None else block.parent
    if op.successors:
        if block is None or region is None or block.last_op is not op:
            raise VerifyException("must be the last operation in the parent block")
        for succ in op.successors:
            if succ.parent is not region:
                raise VerifyException("branches to a block of a different region")
    if block is None or region is None or block.last_op is not op:
        return
    if op.has_trait(IsTerminator):
        return
    parent_op = region.parent
    if len(region.blocks) == 1:
        if parent_op is not None and not parent_op.has_trait(NoTerminator):
            raise VerifyException(
                "terminates a block of a single-block region but is not a terminator"
            )
    elif len(region.blocks) > 1:
        raise VerifyException("terminates a block of a multi-block region but is not a terminator")


def verify_op(op: Operation) -> Diagnostic | None:
    """Verify `op` alone (not the ops nested in it)."""
    try:
        _verify_structure(op)
        if op.attributes:
            verify_dialect_attributes(op)
        op.verify_()
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
