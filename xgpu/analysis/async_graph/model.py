"""The synchronization graph of a host function, one node per op.

`build_graph(func_op)` draws, for one `func.func` of host code, what orders
what: the folded (static) form of the happens-before relation of
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

The model knows nothing of styles and output formats (`dot.py` writes it);
`annotate.py` marks what gpu-async-simplify would remove and the hazards
gpu-check-async reports.
"""

from __future__ import annotations

import linecache
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import Enum

from xdsl.dialects import func, scf
from xdsl.dialects.builtin import UnregisteredOp
from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.traits import IsTerminator, get_effects

from xgpu.analysis.async_hazards import successors
from xgpu.analysis.check_async import describe
from xgpu.diagnostics import location_of, op_name
from xgpu.dialects.gpu.async_interface import AsyncOpInterface
from xgpu.dialects.gpu.host import WaitOp
from xgpu.dialects.gpu.types import AsyncTokenType


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


@dataclass(frozen=True)
class _Source:
    node: Node
    alias: bool = False
    """Reaches the consumer through an alias (`gpu.wait async` with one dependency)."""
    back: bool = False
    """Reaches the consumer along a loop's back edge."""


_LOOPS = ("scf.for", "scf.while", "scf.parallel", "scf.forall", "affine.for", "affine.parallel")


def _is_token(v: SSAValue) -> bool:
    return isinstance(v.type, AsyncTokenType) or v.type.name == "async.token"


def _is_gpu_op(op: Operation) -> bool:
    return op.name.startswith("gpu.") and not isinstance(op, UnregisteredOp)


def _token_result(op: Operation) -> SSAValue | None:
    if isinstance(op, AsyncOpInterface):
        return op.async_token  # type: ignore[attr-defined]
    return None


def _deps(op: Operation) -> tuple[SSAValue, ...]:
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


def _line(op: Operation) -> str:
    loc = location_of(op)
    return f"line {loc.line}" if loc else ""


def _symbol(op: Operation, attr: str) -> str | None:
    a = op.properties.get(attr) or op.attributes.get(attr)
    if a is None:
        return None
    from xgpu.ir.printer import attribute_text

    return attribute_text(a)


def _gpu_label(op: Operation) -> list[str]:
    """Label lines of a gpu op: the op, what it works on, its token and line."""
    name = op_name(op)
    what = ""
    if name == "gpu.launch_func":
        what = _symbol(op, "kernel") or ""
    elif name in ("gpu.alloc",):
        what = describe(op.results[0]) if op.results else ""
    else:
        deps = set(_deps(op))
        shown = [describe(v) for v in op.operands if v not in deps and not _is_token(v)]
        what = ", ".join(shown[:3])
    first = f"{name} {what}".strip()
    token = _token_result(op)
    second = " · ".join(x for x in (describe(token) if token is not None else "", _line(op)) if x)
    return [first, second] if second else [first]


def _host_label(op: Operation) -> list[str]:
    name = op_name(op)
    if isinstance(op, func.CallOp):
        name = f"call {_symbol(op, 'callee') or ''}".strip()
    elif isinstance(op, WaitOp):
        deps = ", ".join(describe(d) for d in op.async_dependencies)
        name = f"gpu.wait [{deps}]: the host blocks"
    else:
        operands = [describe(v) for v in op.operands[:2] if not _is_token(v)]
        if operands and name.startswith(("memref.", "affine.", "vector.")):
            name = f"{name} {', '.join(operands)}"
    line = _line(op)
    return [name, line] if line else [name]


class _Builder:
    def __init__(self, graph: Graph) -> None:
        self.g = graph
        self.cluster_of: dict[Operation, Cluster | None] = {}
        self.sources: dict[SSAValue, list[_Source]] = {}
        self.resolving: set[SSAValue] = set()
        self.lazy: dict[Operation, Node] = {}
        self.after: dict[Node, set[Node]] = {}
        """Host node -> the async ops known to start after it."""
        self.unique: dict[tuple[Node, Node, EdgeKind], Edge] = {}
        self.token_in: dict[Node, list[Edge]] = {}
        """Node -> its incoming TOKEN edges."""

    # ----------------------------------------------------------- helpers
    def node(
        self,
        kind: NodeKind,
        label: list[str],
        op: Operation | None,
        cluster: Cluster | None,
        text: str = "",
    ) -> Node:
        n = Node(f"n{len(self.g.nodes)}", kind, label, op, cluster, text or _text(op))
        self.g.nodes.append(n)
        if op is not None:
            self.g.by_op.setdefault(op, n)
        return n

    def cluster(self, label: str, parent: Cluster | None, op: Operation | None) -> Cluster:
        c = Cluster(f"cluster_{len(self.g.clusters)}", label, parent, op)
        self.g.clusters.append(c)
        return c

    def edge(self, src: Node, dst: Node, kind: EdgeKind, **kw: object) -> Edge:
        """A new edge (one of each kind between two nodes, but for TOKEN edges)."""
        key = (src, dst, kind)
        e = self.unique.get(key) if kind is not EdgeKind.TOKEN else None
        if e is None:
            e = Edge(src, dst, kind, **kw)  # type: ignore[arg-type]
            self.g.edges.append(e)
            if kind is EdgeKind.TOKEN:
                self.token_in.setdefault(dst, []).append(e)
            else:
                self.unique[key] = e
        return e

    # ------------------------------------------------ what tokens stand for
    def resolve(self, v: SSAValue) -> list[_Source]:
        """The nodes the token `v` stands for."""
        known = self.sources.get(v)
        if known is not None:
            return known
        root = _unalias(v)
        if root is not v:  # a chain of aliases, followed without recursion
            out = [_Source(s.node, True, s.back) for s in self.resolve(root)]
            self.sources[v] = out
            return out
        if v in self.resolving:  # a loop-carried token reaching itself
            return []
        self.resolving.add(v)
        try:
            out = self._resolve(v)
        finally:
            self.resolving.discard(v)
        out = list(dict.fromkeys(out))
        self.sources[v] = out
        return out

    def _resolve(self, v: SSAValue) -> list[_Source]:
        if isinstance(v, OpResult):
            op = v.op
            if isinstance(op, WaitOp):
                return self._wait_async(op)
            if isinstance(op, scf.ForOp):
                k = v.index
                body = op.body.block
                return [*self._yielded(body, k), *self.resolve(op.iter_args[k])]
            if isinstance(op, scf.IfOp):
                return [
                    *(s for r in op.regions for b in r.blocks for s in self._yielded(b, v.index))
                ]
            if isinstance(op, scf.WhileOp):
                cond = op.before_region.blocks[0].last_op
                if cond is not None and len(cond.operands) > v.index + 1:
                    return self.resolve(cond.operands[v.index + 1])
            n = self.g.by_op.get(op)
            return [_Source(n if n is not None else self.opaque(op))]
        if isinstance(v, BlockArgument):
            parent = v.block.parent_op()
            if isinstance(parent, func.FuncOp) and v.block is parent.body.blocks[0]:
                return [_Source(self.argument(v))]
            if isinstance(parent, scf.ForOp) and v.index >= 1:
                k = v.index - 1
                back = [_Source(s.node, s.alias, True) for s in self._yielded(v.block, k)]
                return [*self.resolve(parent.iter_args[k]), *back]
            if isinstance(parent, scf.WhileOp):
                if v.block is parent.before_region.blocks[0]:
                    after = parent.after_region.blocks[0]
                    back = [_Source(s.node, s.alias, True) for s in self._yielded(after, v.index)]
                    return [*self.resolve(parent.arguments[v.index]), *back]
                cond = parent.before_region.blocks[0].last_op
                if cond is not None and len(cond.operands) > v.index + 1:
                    return self.resolve(cond.operands[v.index + 1])
            if isinstance(parent, func.FuncOp):  # a block other than the entry
                return self._block_argument(v)
            if parent is not None:
                return [_Source(self.opaque(parent))]
        return []

    def _block_argument(self, v: BlockArgument) -> list[_Source]:
        """What the branches to `v`'s block pass for it (a branch from a block
        that comes later passes it along a back edge)."""
        region = v.block.parent
        assert region is not None
        blocks = list(region.blocks)
        here = blocks.index(v.block)
        out: list[_Source] = []
        for i, b in enumerate(blocks):
            term = b.last_op
            for succ, operands in successors(term) if term is not None else ():
                if succ is not v.block:
                    continue
                if operands is None or len(operands) <= v.index:
                    n = self.g.by_op.get(term) if term is not None else None
                    return [_Source(n)] if n is not None else []
                back = i >= here
                out.extend(
                    _Source(s.node, s.alias, s.back or back)
                    for s in self.resolve(operands[v.index])
                )
        return out

    def _yielded(self, block: Block, k: int) -> list[_Source]:
        term = block.last_op
        if term is None or len(term.operands) <= k:
            return []
        return self.resolve(term.operands[k])

    def _wait_async(self, op: WaitOp) -> list[_Source]:
        deps = list(op.async_dependencies)
        if len(deps) == 1:
            return [_Source(s.node, True, s.back) for s in self.resolve(deps[0])]
        n = self.lazy.get(op)
        if n is None:
            cluster = self.cluster_of.get(op)
            token = describe(op.async_token) if op.async_token is not None else ""
            if not deps:
                label = [f"{token} = gpu.wait async", "stands for no work", _line(op)]
                n = self.node(NodeKind.NO_WORK, label, op, cluster)
            else:
                names = ", ".join(describe(d) for d in deps)
                label = [
                    f"{token} = gpu.wait async [{names}]",
                    "join: waits for nothing",
                    _line(op),
                ]
                n = self.node(NodeKind.JOIN, label, op, cluster)
                self.lazy[op] = n
                self.token_edges(op, deps, n)
            self.lazy[op] = n
        return [_Source(n)]

    def argument(self, arg: BlockArgument) -> Node:
        fn = arg.block.parent_op()
        cluster = self.cluster_of.get(fn) if fn is not None else None
        n = self.g.arguments.get(arg)
        if n is None:
            name = describe(arg) if arg.name_hint else f"argument #{arg.index}"
            label = [f"{name}: token argument", "work issued before the call"]
            text = f"{name}: {arg.type}" if arg.name_hint else label[0]
            n = self.g.arguments[arg] = self.node(
                NodeKind.ARGUMENT, label, None, cluster, text=text
            )
        return n

    def opaque(self, op: Operation) -> Node:
        """A node for an op that makes a token this model does not follow."""
        n = self.g.by_op.get(op)
        if n is None:
            n = self.node(NodeKind.HOST, _host_label(op), op, self.cluster_of.get(op))
        return n

    def token_edges(self, consumer: Operation, deps: list[SSAValue], dst: Node) -> None:
        for d in deps:
            name = describe(d)
            for s in self.resolve(d):
                if s.alias:
                    label = f"{name} = alias of {_first_name(s.node)}"
                    tip = f"{name} is an alias (a gpu.wait async with one dependency): it waits for nothing"
                else:
                    who = "the host" if dst.kind in SPINE_KINDS else dst.label[0]
                    label, tip = name, f"{who} waits for {name}"
                kind = EdgeKind.BACK if s.back else EdgeKind.TOKEN
                if s.back:
                    label = f"{label} (next iteration)"
                if kind is EdgeKind.TOKEN:
                    self.edge(
                        s.node, dst, kind, label=label, tooltip=tip, token=d, consumer=consumer
                    )
                else:
                    self.g.edges.append(
                        Edge(s.node, dst, kind, label, tip, token=d, consumer=consumer)
                    )

    # --------------------------------------------------------------- walk
    def function(self, f: func.FuncOp) -> None:
        cluster = self.cluster(f"func @{f.sym_name.data}", None, f)
        self.cluster_of[f] = cluster
        self.g.functions.append((f, cluster))
        entry = self.node(NodeKind.ENTRY, [f"@{f.sym_name.data}", "entry"], f, cluster)
        self.g.by_op.pop(f, None)
        if not f.body.blocks:
            return
        for arg in f.body.blocks[0].args:
            if _is_token(arg):
                self.argument(arg)
        blocks = list(f.body.blocks)
        if len(blocks) == 1:
            self.block(blocks[0], cluster, [entry])
            return
        # Unstructured control flow: a cluster and a head node per block, and
        # edges from the end of each block to the heads of its successors
        # (BACK edges to a block that comes earlier).
        heads: dict[Block, Node] = {}
        inner: dict[Block, Cluster] = {}
        for i, b in enumerate(blocks):
            inner[b] = self.cluster(f"block ^bb{i}", cluster, f)
            if i:
                heads[b] = self.node(NodeKind.BRANCH, [f"^bb{i}"], None, inner[b])
        ends: dict[Block, list[Node]] = {}
        for i, b in enumerate(blocks):
            ends[b] = self.block(b, inner[b], [entry] if i == 0 else [heads[b]])
        for i, b in enumerate(blocks):
            term = b.last_op
            for succ, _ in successors(term) if term is not None else ():
                j = blocks.index(succ)
                kind = EdgeKind.BACK if j <= i else EdgeKind.ORDER
                label = f"back to ^bb{j}" if kind is EdgeKind.BACK else ""
                for e in ends[b]:
                    self.edge(e, heads[succ], kind, label=label, tooltip=f"branch to ^bb{j}")

    def block(self, block: Block, cluster: Cluster, frontier: list[Node]) -> list[Node]:
        """Walk `block`; return the host nodes that end it (the new frontier)."""
        for op in block.ops:
            self.cluster_of[op] = cluster
            frontier = self.op(op, cluster, frontier)
        return frontier

    def spine(self, n: Node, frontier: list[Node]) -> list[Node]:
        for f in frontier:
            self.edge(f, n, EdgeKind.ORDER, tooltip="host program order")
        return [n]

    def issue(self, n: Node, frontier: list[Node]) -> None:
        """ISSUE edges from the host points before `n`, less those implied:
        when an op `n` waits for was issued after the same point, `n` starts
        after that point anyway."""
        sources: set[Node] = set()
        todo = [n]
        while todo:  # through joins: they stand for their dependencies
            d = todo.pop()
            for e in self.token_in.get(d, ()):
                if e.src not in sources:
                    sources.add(e.src)
                    if e.src.kind is NodeKind.JOIN:
                        todo.append(e.src)
        for f in frontier:
            after = self.after.setdefault(f, set())
            implied = not after.isdisjoint(sources)
            after.add(n)
            if implied:
                continue
            tip = f"the host issues {n.label[0]} after this point: it starts after it"
            self.edge(f, n, EdgeKind.ISSUE, tooltip=tip)

    def op(self, op: Operation, cluster: Cluster, frontier: list[Node]) -> list[Node]:
        if isinstance(op, WaitOp):
            if op.async_token is not None:
                return frontier  # an alias, a join or no work: drawn where used
            n = self.node(NodeKind.WAIT, _host_label(op), op, cluster)
            self.token_edges(op, list(op.async_dependencies), n)
            return self.spine(n, frontier)
        if _is_gpu_op(op):
            token = _token_result(op)
            kind = NodeKind.GPU if token is not None else NodeKind.SYNC_GPU
            n = self.node(kind, _gpu_label(op), op, cluster)
            self.token_edges(op, list(_deps(op)), n)
            if kind is NodeKind.SYNC_GPU:
                return self.spine(n, frontier)
            self.issue(n, frontier)
            return frontier
        if op.regions and op.name in _LOOPS:
            return self.loop(op, cluster, frontier)
        if op.regions and not isinstance(op, UnregisteredOp) and op.name != "async.execute":
            effects = get_effects(op)
            if op.name.startswith("scf.") or effects is not None:
                return self.branches(op, cluster, frontier)
        if not isinstance(op, UnregisteredOp) and op.has_trait(IsTerminator):
            if isinstance(op, func.ReturnOp):
                n = self.node(NodeKind.RETURN, ["return", _line(op)], op, cluster)
                self.token_edges(op, [v for v in op.operands if _is_token(v)], n)
                return self.spine(n, frontier)
            return frontier
        effects = None if isinstance(op, UnregisteredOp) else get_effects(op)
        tokens = [v for v in op.operands if _is_token(v)]
        if effects is not None and not effects and not tokens and not op.regions:
            return frontier  # pure host computation: not drawn
        n = self.node(NodeKind.HOST, _host_label(op), op, cluster)
        self.token_edges(op, tokens, n)
        if op.name == "async.execute":
            inner = self.cluster(f"async.execute ({_line(op)})", cluster, op)
            for region in op.regions:
                for b in region.blocks:
                    self.block(b, inner, [n])
            self.issue(n, frontier)
            return frontier
        return self.spine(n, frontier)

    def loop(self, op: Operation, cluster: Cluster, frontier: list[Node]) -> list[Node]:
        inner = self.cluster(f"{op_name(op)} ({_line(op)})", cluster, op)
        head = self.node(NodeKind.LOOP, _loop_label(op), op, inner)
        frontier = self.spine(head, frontier)
        ends = [head]
        for region in op.regions:
            for b in region.blocks:
                ends = self.block(b, inner, ends)
        for e in ends:
            self.edge(e, head, EdgeKind.BACK, label="next iteration")
        return [head]

    def branches(self, op: Operation, cluster: Cluster, frontier: list[Node]) -> list[Node]:
        head = self.node(NodeKind.BRANCH, [op_name(op), _line(op)], op, cluster)
        frontier = self.spine(head, frontier)
        ends: list[Node] = []
        names = ("then", "else") if isinstance(op, scf.IfOp) else ()
        for i, region in enumerate(op.regions):
            if not region.blocks or _empty(region):
                ends.append(head)
                continue
            label = names[i] if i < len(names) else f"region {i}"
            inner = self.cluster(f"{op_name(op)} {label}", cluster, op)
            for b in region.blocks:
                ends.extend(self.block(b, inner, [head]))
        return list(dict.fromkeys(ends)) or [head]


def _unalias(v: SSAValue) -> SSAValue:
    """The token a chain of aliases (`gpu.wait async` with one dependency) names."""
    while isinstance(v, OpResult) and isinstance(v.op, WaitOp) and len(v.op.operands) == 1:
        v = v.op.operands[0]
    return v


def _empty(region: Region) -> bool:
    """A region whose only op is its terminator (an scf.if without an else)."""
    return all(len(b.ops) <= 1 for b in region.blocks)


def _loop_label(op: Operation) -> list[str]:
    lines = [op_name(op)]
    if isinstance(op, scf.ForOp):
        iv = op.body.block.args[0]
        lines[0] += (
            f" {describe(iv)} = {describe(op.lb)} to {describe(op.ub)} step {describe(op.step)}"
        )
    lines.append(f"host loop · {_line(op)}" if _line(op) else "host loop")
    return lines


def _first_name(n: Node) -> str:
    """The name of the token a node's op produces, as the input writes it."""
    if n.op is not None:
        t = _token_result(n.op)
        if t is not None:
            return describe(t)
    return n.label[0]


def _text(op: Operation | None) -> str:
    return op_text(op) if op is not None else ""


def build_graph(functions: list[func.FuncOp]) -> Graph:
    """The graph of the given host functions (one cluster each)."""
    g = Graph()
    b = _Builder(g)
    for f in functions:
        b.function(f)
    return g


__all__ = [
    "Cluster",
    "Edge",
    "EdgeKind",
    "Graph",
    "Node",
    "NodeKind",
    "SPINE_KINDS",
    "build_graph",
    "op_text",
]
