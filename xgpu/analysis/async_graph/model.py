"""The synchronization graph of a host function, one node per op.

`build.build_graph(functions)` draws, for each `func.func` of host code, what
orders what: the folded (static) form of the happens-before relation of
`xgpu.analysis.happens_before`, which unrolls loops; here each op is drawn
once and a loop has a back edge. What is in it:

- a node per async gpu op (`gpu.launch_func`, `gpu.memcpy`, `gpu.alloc`, ...
  with a token): work on the device, issued by the host and not waited for;
- the host's program order as a spine: an entry node, the host ops that
  matter (a blocking `gpu.wait`, drawn as a barrier; a synchronous gpu op; an
  op with memory effects or unknown ones: `memref.load`, `func.call`, ...; a
  loop or `scf.if` head; the `return`), each joined to the next by an
  ORDER edge;
- ISSUE edges: an async gpu op hangs from the host node issued last before it
  (the host issues it after that point, so it starts after it);
- TOKEN edges: from the op a dependency token stands for to the op that
  waits for it. `gpu.wait async [%t]` with one dependency is an alias (a new
  name for %t, not a node that waits): the edge goes from %t's op and is
  labelled with both names; with several dependencies it is a join node,
  and without any a node that stands for no work;
- loops (scf.for, scf.while, scf.parallel, ...) and `scf.if` branches are
  clusters; a BACK edge goes from the end of a loop body to its head, and a
  token carried by a loop comes back along a back edge.

`labels.py` words the nodes. The model knows nothing of styles and output
formats (`dot.py` writes it);
`annotate.py` marks what gpu-async-simplify would remove and the hazards
gpu-check-async reports.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import Enum

from xdsl.dialects import func
from xdsl.ir import BlockArgument, Operation, SSAValue


class NodeKind(Enum):
    ENTRY = "entry"
    """The start of the host function."""
    GPU = "gpu"
    """An async gpu op: device work the host does not wait for."""
    SYNC_GPU = "sync-gpu"
    """A gpu op without a token: the host waits for it (on the spine)."""
    WAIT = "wait"
    """A blocking `gpu.wait`: the host waits (a barrier)."""
    HOST = "host"
    """A host op with memory effects (or unknown ones)."""
    LOOP = "loop"
    """The head of a host loop."""
    BRANCH = "branch"
    """The head of an `scf.if` (or another host region op)."""
    RETURN = "return"
    """The function's `return`."""
    ARGUMENT = "argument"
    """A token argument: work issued before the function started."""
    JOIN = "join"
    """`gpu.wait async` with several dependencies: a name for their union."""
    NO_WORK = "no-work"
    """`gpu.wait async` without dependencies: a token that stands for no work."""


SPINE_KINDS = frozenset(
    {
        NodeKind.ENTRY,
        NodeKind.SYNC_GPU,
        NodeKind.WAIT,
        NodeKind.HOST,
        NodeKind.LOOP,
        NodeKind.BRANCH,
        NodeKind.RETURN,
    }
)


class EdgeKind(Enum):
    TOKEN = "token"
    ORDER = "order"
    """Host program order (the spine)."""
    ISSUE = "issue"
    """The host issues the async op after this point."""
    BACK = "back"
    """The next iteration of a loop."""
    HAZARD = "hazard"
    """A hazard gpu-check-async reports (added by annotate.py)."""


@dataclass(eq=False)
class Cluster:
    id: str
    label: str
    parent: Cluster | None
    op: Operation | None = None


@dataclass(eq=False)
class Node:
    id: str
    kind: NodeKind
    label: list[str]
    """Lines of the label."""
    op: Operation | None
    cluster: Cluster | None
    text: str = ""
    """The op's text (the source line, or the op as printed): hover text."""
    notes: list[str] = field(default_factory=list)
    """Remarks shown with the node (a wait that synchronizes nothing, ...)."""
    hazard: bool = False
    removable: str | None = None
    """Why gpu-async-simplify would erase it (None if it would not)."""


@dataclass(eq=False)
class Edge:
    src: Node
    dst: Node
    kind: EdgeKind
    label: str = ""
    tooltip: str = ""
    token: SSAValue | None = None
    """The dependency the consumer names (TOKEN and token BACK edges)."""
    consumer: Operation | None = None
    removable: str | None = None
    """Why gpu-async-simplify would remove this dependency (None if it would not)."""


@dataclass
class Graph:
    """The graphs of the host functions of one module."""

    functions: list[tuple[func.FuncOp, Cluster]] = field(default_factory=list)
    clusters: list[Cluster] = field(default_factory=list)
    nodes: list[Node] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    by_op: dict[Operation, Node] = field(default_factory=dict)
    arguments: dict[BlockArgument, Node] = field(default_factory=dict)
    """The nodes of token arguments."""

    def node_of(self, op: Operation) -> Node | None:
        """The node of `op`, or of the nearest enclosing op that has one."""
        o: Operation | None = op
        while o is not None:
            n = self.by_op.get(o)
            if n is not None:
                return n
            o = o.parent_op()
        return None

    def edges_of(self, kind: EdgeKind) -> Iterator[Edge]:
        return (e for e in self.edges if e.kind is kind)


__all__ = ["SPINE_KINDS", "Cluster", "Edge", "EdgeKind", "Graph", "Node", "NodeKind"]
