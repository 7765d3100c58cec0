"""The kernel-symbol checks of the launches in a `gpu.container_module`, run
as the module's attribute is verified (see `verify_container_module_kernels`)."""

from __future__ import annotations

from collections.abc import Iterator
from operator import attrgetter

from xdsl.dialects.builtin import ModuleOp, SymbolRefAttr
from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException

from xgpu.diagnostics import OpDiagnostic
from xgpu.dialects.gpu.launch_func import LaunchFuncOp
from xgpu.ir import symbols

# `value.type` without the property call (xDSL 0.75 keeps it in `_type`).
_value_type = attrgetter("_type")


def _grandchildren(module: ModuleOp) -> Iterator[Operation]:
    """The ops in the regions of the ops of `module`, in the order of the IR
    (the order in which a walk of the module meets them)."""
    for region in module.regions:
        for block in region.blocks:
            for child in block.ops:
                for inner in child.regions:
                    for inner_block in inner.blocks:
                        yield from inner_block.ops


def verify_container_module_kernels(module: ModuleOp) -> None:
    """The kernel-symbol checks of the launches in a `gpu.container_module`, which
    MLIR runs as it verifies the module's attributes, so before any op nested in
    the module (a launch of a kernel in a plain `module` reports the bad kernel
    module before the misplaced `gpu.func` in it). Launches without a symbol
    `kernel`, or too malformed to read, are left to their own verifier."""
    checked: set[int] | None = None
    if (index := symbols.active_index()) is not None:
        checked = index.setdefault(symbols.CHECKED_LAUNCHES, set())  # type: ignore[call-overload,arg-type]
    # What the check reads of a launch: its parent block (which gives the
    # enclosing modules), its kernel, its operand segment sizes and operand
    # types (which give the kernel operands' types). A launch alike to one
    # that passed passes. By identity: the IR does not change meanwhile and
    # keeps the objects named alive.
    passed: set[tuple[int, ...]] = set()
    for op in _grandchildren(module):
        if type(op) is not LaunchFuncOp and not isinstance(op, LaunchFuncOp):
            continue
        properties = op.properties
        kernel = properties.get("kernel")
        if not isinstance(kernel, SymbolRefAttr):
            continue
        key = (
            id(op.parent),
            id(kernel),
            id(properties.get("operandSegmentSizes")),
            *map(id, map(_value_type, op._operands)),  # pyright: ignore[reportPrivateUsage]
        )
        if key not in passed:
            try:
                op.verify_kernel_symbol()
            except OpDiagnostic as diag:
                diag.op = diag.op or op
                raise
            except VerifyException as exc:
                raise OpDiagnostic(str(exc), op=op) from None
            except Exception:
                continue
            passed.add(key)
        if checked is not None:
            checked.add(id(op))
