"""Labels and hover texts of the graph's nodes: the op, what it works on,
its token and its line, as the input writes them."""

from __future__ import annotations

import linecache

from xdsl.dialects import func, scf
from xdsl.dialects.builtin import UnregisteredOp
from xdsl.ir import Operation, SSAValue

from xgpu.analysis.async_graph.model import Node
from xgpu.analysis.check_async import describe
from xgpu.diagnostics import location_of, op_name
from xgpu.dialects.gpu.async_interface import AsyncOpInterface
from xgpu.dialects.gpu.host import WaitOp
from xgpu.dialects.gpu.types import AsyncTokenType


def is_token(v: SSAValue) -> bool:
    return isinstance(v.type, AsyncTokenType) or v.type.name == "async.token"


def is_gpu_op(op: Operation) -> bool:
    return op.name.startswith("gpu.") and not isinstance(op, UnregisteredOp)


def token_result(op: Operation) -> SSAValue | None:
    if isinstance(op, AsyncOpInterface):
        return op.async_token  # type: ignore[attr-defined]
    return None


def deps_of(op: Operation) -> tuple[SSAValue, ...]:
    if isinstance(op, AsyncOpInterface):
        return tuple(op.async_dependencies)  # type: ignore[attr-defined]
    return ()


def op_text(op: Operation) -> str:
    """The op as the input writes it: its source line where the location points
    into a readable file, else the op as printed (region ops: the first line)."""
    loc = location_of(op)
    if loc is not None:
        line = linecache.getline(loc.file, loc.line)
        if line.strip():
            return line.strip()
    from xgpu.ir.printer import print_mlir

    try:
        text = print_mlir(op)
    except Exception:  # an op the printer cannot print: its name is enough
        return op_name(op)
    lines = text.strip().split("\n")
    return lines[0] + (" ... }" if len(lines) > 1 else "")


def line_of(op: Operation) -> str:
    loc = location_of(op)
    return f"line {loc.line}" if loc else ""


def _symbol(op: Operation, attr: str) -> str | None:
    a = op.properties.get(attr) or op.attributes.get(attr)
    if a is None:
        return None
    from xgpu.ir.printer import attribute_text

    return attribute_text(a)


def gpu_label(op: Operation) -> list[str]:
    """Label lines of a gpu op: the op, what it works on, its token and line."""
    name = op_name(op)
    what = ""
    if name == "gpu.launch_func":
        what = _symbol(op, "kernel") or ""
    elif name in ("gpu.alloc",):
        what = describe(op.results[0]) if op.results else ""
    else:
        deps = set(deps_of(op))
        shown = [describe(v) for v in op.operands if v not in deps and not is_token(v)]
        what = ", ".join(shown[:3])
    first = f"{name} {what}".strip()
    token = token_result(op)
    second = " · ".join(x for x in (describe(token) if token is not None else "", line_of(op)) if x)
    return [first, second] if second else [first]


def host_label(op: Operation) -> list[str]:
    name = op_name(op)
    if isinstance(op, func.CallOp):
        name = f"call {_symbol(op, 'callee') or ''}".strip()
    elif isinstance(op, WaitOp):
        deps = ", ".join(describe(d) for d in op.async_dependencies)
        name = f"gpu.wait [{deps}]: the host blocks"
    else:
        operands = [describe(v) for v in op.operands[:2] if not is_token(v)]
        if operands and name.startswith(("memref.", "affine.", "vector.")):
            name = f"{name} {', '.join(operands)}"
    line = line_of(op)
    return [name, line] if line else [name]


def loop_label(op: Operation) -> list[str]:
    lines = [op_name(op)]
    if isinstance(op, scf.ForOp):
        iv = op.body.block.args[0]
        lines[0] += (
            f" {describe(iv)} = {describe(op.lb)} to {describe(op.ub)} step {describe(op.step)}"
        )
    lines.append(f"host loop · {line_of(op)}" if line_of(op) else "host loop")
    return lines


def first_name(n: Node) -> str:
    """The name of the token a node's op produces, as the input writes it."""
    if n.op is not None:
        t = token_result(n.op)
        if t is not None:
            return describe(t)
    return n.label[0]


def text_of(op: Operation | None) -> str:
    return op_text(op) if op is not None else ""
