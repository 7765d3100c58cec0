"""What the other async tools say, put on the graph.

- `mark_removable`: the dependencies gpu-async-simplify would remove (run on
  a copy of the module, see `xgpu.transforms.async_simplify.removals`) and the
  blocking waits it would erase;
- `mark_hazards`: gpu-check-async's findings (`xgpu.analysis.async_hazards`):
  a hazard marks both ops and joins them with a HAZARD edge; a wait that
  synchronizes nothing gets the remark as a note.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp

from xgpu.analysis.async_graph.model import Edge, EdgeKind, Graph
from xgpu.analysis.async_hazards import Finding, FindingKind, find_hazards
from xgpu.analysis.check_async import describe, message
from xgpu.dialects.gpu.launch_func import indexed_symbol_tables
from xgpu.transforms.async_simplify import removals

_SHORT = {
    FindingKind.HOST_ACCESS: "host access",
    FindingKind.CONFLICT: "conflict",
    FindingKind.DEALLOC: "dealloc",
    FindingKind.USE_AFTER_FREE: "use after free",
    FindingKind.UNAWAITED: "never awaited",
}


def mark_removable(graph: Graph, module: ModuleOp) -> None:
    found = removals(module)
    by_dep = {(r.op, r.dep): r.message for r in found if r.dep is not None}
    for e in graph.edges:
        if e.kind in (EdgeKind.TOKEN, EdgeKind.BACK) and e.consumer is not None:
            why = by_dep.get((e.consumer, e.token))
            if why is not None:
                e.removable = why
                e.tooltip = f"gpu-async-simplify: {why}"
    for r in found:
        if r.dep is None and (n := graph.by_op.get(r.op)) is not None:
            n.removable = r.message


def mark_hazards(graph: Graph, module: ModuleOp, findings: list[Finding] | None = None) -> None:
    if findings is None:
        with indexed_symbol_tables():
            findings = find_hazards(module)
    for f in findings:
        n = graph.node_of(f.op)
        if n is None:
            continue
        if f.kind.is_remark:
            if f.kind is not FindingKind.ALIAS_WAIT:
                n.notes.append(message(f))
            continue
        n.hazard = True
        other = graph.node_of(f.other) if f.other is not None else None
        text = message(f)
        if other is None or other is n:
            n.notes.append(text)
            continue
        other.hazard = True
        what = _SHORT.get(f.kind, f.kind.value)
        label = f"{what}: {describe(f.value)}" if f.value is not None else what
        graph.edges.append(Edge(other, n, EdgeKind.HAZARD, label, text))


__all__ = ["mark_hazards", "mark_removable"]
