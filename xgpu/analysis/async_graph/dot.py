"""The graph as Graphviz DOT text.

Every identifier in the text is one xgpu makes (`n3`, `e5`, `cluster_2`);
every label and tooltip is a quoted string with backslashes, quotes and
control characters escaped (`quote`), so no input text can change the graph's
structure or reach Graphviz as an escape sequence.

Styles (the README's legend):
- async gpu op: rounded blue box; synchronous gpu op: the same, double border;
- blocking `gpu.wait`: a black bar across the graph (the host blocks);
- host op: grey box; loop head: yellow box; `scf.if`: diamond;
- token edge: black, labelled with the token (an alias: `%356 = alias of %343`);
- program order (the spine): thick grey; issue: thin grey with a hollow arrow;
- loop back edge: blue, not constraining the layout;
- removable dependency (gpu-async-simplify would remove it): dashed;
- hazard (gpu-check-async): red, both ends marked with a dot; the two ops
  have a red border.
"""

from __future__ import annotations

import re
import textwrap

from xgpu.analysis.async_graph.model import Cluster, Edge, EdgeKind, Graph, Node, NodeKind

_ENTITY = re.compile(r"&(#[0-9]+|#x[0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);")


def quote(text: str, tooltip: bool = False) -> str:
    """`text` as a DOT quoted string that Graphviz shows as written. Graphviz
    reads escapes (`\\N`, `\\l`, `\\\\`) in a label once and in a tooltip twice,
    so a tooltip's backslashes are escaped twice."""
    out: list[str] = ['"']
    backslash = "\\\\\\\\" if tooltip else "\\\\"
    for ch in _ENTITY.sub(lambda m: "&amp;" + m.group(0)[1:], text):
        if ch == "\\":
            out.append(backslash)
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0:
            out.append(f"{backslash}x{ord(ch):02x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


_NODE_STYLE: dict[NodeKind, dict[str, str]] = {
    NodeKind.ENTRY: {"shape": "oval", "style": "filled", "fillcolor": "#e0e0e0"},
    NodeKind.GPU: {"shape": "box", "style": "rounded,filled", "fillcolor": "#cfe2ff"},
    NodeKind.SYNC_GPU: {
        "shape": "box",
        "style": "rounded,filled",
        "fillcolor": "#cfe2ff",
        "peripheries": "2",
    },
    NodeKind.WAIT: {
        "shape": "box",
        "style": "filled",
        "fillcolor": "#222222",
        "fontcolor": "white",
        "width": "5",
    },
    NodeKind.HOST: {"shape": "box", "style": "filled", "fillcolor": "#eeeeee"},
    NodeKind.LOOP: {"shape": "box", "style": "filled", "fillcolor": "#fff3bf"},
    NodeKind.BRANCH: {"shape": "diamond", "style": "filled", "fillcolor": "#fff3bf"},
    NodeKind.RETURN: {"shape": "oval", "style": "filled", "fillcolor": "#e0e0e0"},
    NodeKind.ARGUMENT: {"shape": "invhouse", "style": "filled", "fillcolor": "#cfe2ff"},
    NodeKind.JOIN: {"shape": "diamond", "style": "dotted"},
    NodeKind.NO_WORK: {"shape": "plaintext", "fontcolor": "#777777"},
}

_EDGE_STYLE: dict[EdgeKind, dict[str, str]] = {
    EdgeKind.TOKEN: {"color": "black"},
    EdgeKind.ORDER: {"color": "#666666", "penwidth": "3", "weight": "10"},
    EdgeKind.ISSUE: {"color": "#aaaaaa", "arrowhead": "onormal"},
    EdgeKind.BACK: {"color": "#1f6feb", "fontcolor": "#1f6feb", "constraint": "false"},
    EdgeKind.HAZARD: {
        "color": "red",
        "fontcolor": "red",
        "penwidth": "2",
        "dir": "both",
        "arrowhead": "dot",
        "arrowtail": "dot",
        "constraint": "false",
    },
}


def _attrs(attrs: dict[str, str]) -> str:
    return ", ".join(f"{k}={quote(v, tooltip=k == 'tooltip')}" for k, v in attrs.items())


def _wrap(line: str, width: int = 48) -> list[str]:
    return textwrap.wrap(line, width) or [""]


def node_attrs(n: Node) -> dict[str, str]:
    lines = [x for x in n.label if x]
    for note in n.notes:
        lines.extend(_wrap(f"note: {note}"))
    if n.removable:
        lines.extend(_wrap(f"removable: {n.removable}"))
    attrs = {"id": n.id, "class": f"xgpu-{n.kind.value}", "label": "\n".join(lines)}
    attrs.update(_NODE_STYLE[n.kind])
    if n.removable:
        attrs["style"] = attrs.get("style", "") + ",dashed"
        attrs["class"] += " xgpu-removable"
    if n.hazard:
        attrs.update({"color": "red", "penwidth": "2.5"})
        attrs["class"] += " xgpu-hazard"
    attrs["tooltip"] = n.text or n.label[0]
    return attrs


def edge_attrs(e: Edge, index: int) -> dict[str, str]:
    attrs = {"id": f"e{index}", "class": f"xgpu-{e.kind.value}"}
    attrs.update(_EDGE_STYLE[e.kind])
    label = e.label
    if e.removable:
        attrs.update({"style": "dashed", "color": "#888888"})
        attrs["class"] += " xgpu-removable"
        label = f"{label} (removable)" if label else "removable"
    if label:
        attrs["label"] = label
    attrs["tooltip"] = e.tooltip or label or e.kind.value
    return attrs


def to_dot(graph: Graph, title: str = "xgpu async graph") -> str:
    out = [f"digraph {quote(title)} {{"]
    out.append(
        '  graph [rankdir="TB", fontname="Helvetica", fontsize="11", newrank="true", '
        'labeljust="l"];'
    )
    out.append('  node [fontname="Helvetica", fontsize="10"];')
    out.append('  edge [fontname="Helvetica", fontsize="9"];')
    children: dict[Cluster | None, list[Cluster]] = {}
    for c in graph.clusters:
        children.setdefault(c.parent, []).append(c)
    members: dict[Cluster | None, list[Node]] = {}
    for n in graph.nodes:
        members.setdefault(n.cluster, []).append(n)

    def emit(c: Cluster | None, indent: str) -> None:
        for n in members.get(c, []):
            out.append(f"{indent}{n.id} [{_attrs(node_attrs(n))}];")
        for child in children.get(c, []):
            out.append(f"{indent}subgraph {child.id} {{")
            style = "rounded" if child.parent is None else "rounded,dashed"
            out.append(f"{indent}  graph [label={quote(child.label)}, style={quote(style)}];")
            emit(child, indent + "  ")
            out.append(f"{indent}}}")

    emit(None, "  ")
    for i, e in enumerate(graph.edges):
        out.append(f"  {e.src.id} -> {e.dst.id} [{_attrs(edge_attrs(e, i))}];")
    out.append("}")
    return "\n".join(out) + "\n"


__all__ = ["edge_attrs", "node_attrs", "quote", "to_dot"]
