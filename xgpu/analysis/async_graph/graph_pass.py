"""`gpu-async-graph`: draw the synchronization graph of each host function.

    xgpu-opt F.mlir -p 'gpu-async-graph{format=svg out="forum.svg"}'

Options: `format` is `dot` (the default), `svg` or `html`; `out` is the file
to write (quote a path with `/` or `.` in it; without `out` the graph goes to
stderr, as MLIR's `view-op-graph` writes its DOT there, so the IR on stdout
stays intact); `func` draws only the host function of that name. The pass
never changes the IR.

The functions drawn are the host functions (`func.func` outside gpu.module)
that hold a gpu op or a token; all of them when none does.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import DiagnosticException

FORMATS = ("dot", "svg", "html")


@dataclass(frozen=True)
class GpuAsyncGraphPass(ModulePass):
    """Write the happens-before graph of the host code (see the module doc)."""

    name = "gpu-async-graph"

    format: str = "dot"
    """dot, svg or html."""
    out: str = "-"
    """The file to write; '-' (the default): stderr."""
    func: str = ""
    """Only this host function (default: every one with GPU work)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.format not in FORMATS:
            raise DiagnosticException(
                f"gpu-async-graph: unknown format '{self.format}' (expected dot, svg or html)"
            )
        text = render(op, self.format, self.func or None, title=_title(self.out))
        if self.out in ("-", ""):
            sys.stderr.write(text)
            sys.stderr.flush()
            return
        try:
            with open(self.out, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as err:
            raise DiagnosticException(
                f"gpu-async-graph: cannot write '{self.out}': {err.strerror}"
            ) from None


def _title(out: str) -> str:
    return "xgpu async graph"


def functions_to_draw(module: ModuleOp, name: str | None = None) -> list[func.FuncOp]:
    from xgpu.analysis.async_graph.labels import is_token
    from xgpu.analysis.async_hazards import host_functions

    funcs = host_functions(module)
    if name is not None:
        chosen = [f for f in funcs if f.sym_name.data == name]
        if not chosen:
            names = ", ".join(f"@{f.sym_name.data}" for f in funcs) or "none"
            raise DiagnosticException(
                f"gpu-async-graph: no host function @{name} (host functions: {names})"
            )
        return chosen

    def has_gpu(f: func.FuncOp) -> bool:
        for o in f.walk():
            if o.name.startswith("gpu.") or any(is_token(v) for v in o.results):
                return True
        return any(is_token(a) for b in f.body.blocks for a in b.args)

    gpu = [f for f in funcs if has_gpu(f)]
    return gpu or funcs


def build(module: ModuleOp, name: str | None = None):
    """The annotated graph of `module`'s host functions (or of @name)."""
    from xgpu.analysis.async_graph.annotate import mark_hazards, mark_removable
    from xgpu.analysis.async_graph.build import build_graph
    from xgpu.dialects.gpu.launch_func import indexed_symbol_tables

    with indexed_symbol_tables():
        graph = build_graph(functions_to_draw(module, name))
        mark_removable(graph, module)
        mark_hazards(graph, module)
    return graph


def render(module: ModuleOp, format: str, name: str | None = None, title: str = "") -> str:
    """The graph as text in `format` (dot, svg or html)."""
    from xgpu.analysis.async_graph.dot import to_dot
    from xgpu.analysis.async_graph.render import RenderError, to_html, to_svg

    title = title or "xgpu async graph"
    graph = build(module, name)
    dot_text = to_dot(graph, title)
    if format == "dot":
        return dot_text
    try:
        svg = to_svg(dot_text)
    except RenderError as err:
        raise DiagnosticException(f"gpu-async-graph: {err}") from None
    return svg if format == "svg" else to_html(graph, svg, title)


__all__ = ["FORMATS", "GpuAsyncGraphPass", "build", "functions_to_draw", "render"]
