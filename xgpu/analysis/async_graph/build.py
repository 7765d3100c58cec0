"""Building the graph: the walk over a host function (see model.py for what
the graph holds)."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import func, scf
from xdsl.dialects.builtin import UnregisteredOp
from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.traits import IsTerminator, get_effects

from xgpu.analysis.async_graph.labels import (
    deps_of,
    first_name,
    gpu_label,
    host_label,
    is_gpu_op,
    is_token,
    line_of,
    loop_label,
    text_of,
    token_result,
)
from xgpu.analysis.async_graph.model import (
    SPINE_KINDS,
    Cluster,
    Edge,
    EdgeKind,
    Graph,
    Node,
    NodeKind,
)
from xgpu.analysis.async_hazards import successors
from xgpu.analysis.check_async import describe
from xgpu.diagnostics import op_name
from xgpu.dialects.gpu.host import WaitOp


@dataclass(frozen=True)
class _Source:
    node: Node
    alias: bool = False
    """Reaches the consumer through an alias (`gpu.wait async` with one dependency)."""
    back: bool = False
    """Reaches the consumer along a loop's back edge."""


_LOOPS = ("scf.for", "scf.while", "scf.parallel", "scf.forall", "affine.for", "affine.parallel")


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
        self.body_ends: dict[Operation, list[Node]] = {}
        """async.execute -> the host points that end its body."""
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
        n = Node(f"n{len(self.g.nodes)}", kind, label, op, cluster, text or text_of(op))
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
                return _forward([*self._yielded(body, k), *self.resolve(op.iter_args[k])])
            if isinstance(op, scf.IfOp):
                return [
                    *(s for r in op.regions for b in r.blocks for s in self._yielded(b, v.index))
                ]
            if isinstance(op, scf.WhileOp):
                cond = op.before_region.blocks[0].last_op
                if cond is not None and len(cond.operands) > v.index + 1:
                    return _forward(self.resolve(cond.operands[v.index + 1]))
            if op.name == "async.execute" and op in self.body_ends:
                # Its token completes with the body: the body's last host points.
                return [_Source(n) for n in self.body_ends[op]]
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
                label = [f"{token} = gpu.wait async", "stands for no work", line_of(op)]
                n = self.node(NodeKind.NO_WORK, label, op, cluster)
            else:
                names = ", ".join(describe(d) for d in deps)
                label = [
                    f"{token} = gpu.wait async [{names}]",
                    "join: waits for nothing",
                    line_of(op),
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
            n = self.node(NodeKind.HOST, host_label(op), op, self.cluster_of.get(op))
        return n

    def token_edges(self, consumer: Operation, deps: list[SSAValue], dst: Node) -> None:
        for d in deps:
            name = describe(d)
            for s in self.resolve(d):
                if s.alias:
                    label = f"{name} = alias of {first_name(s.node)}"
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
            if is_token(arg):
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
            n = self.node(NodeKind.WAIT, host_label(op), op, cluster)
            self.token_edges(op, list(op.async_dependencies), n)
            return self.spine(n, frontier)
        if is_gpu_op(op):
            token = token_result(op)
            kind = NodeKind.GPU if token is not None else NodeKind.SYNC_GPU
            n = self.node(kind, gpu_label(op), op, cluster)
            self.token_edges(op, list(deps_of(op)), n)
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
                n = self.node(NodeKind.RETURN, ["return", line_of(op)], op, cluster)
                self.token_edges(op, [v for v in op.operands if is_token(v)], n)
                return self.spine(n, frontier)
            return frontier
        effects = None if isinstance(op, UnregisteredOp) else get_effects(op)
        tokens = [v for v in op.operands if is_token(v)]
        if effects is not None and not effects and not tokens and not op.regions:
            return frontier  # pure host computation: not drawn
        n = self.node(NodeKind.HOST, host_label(op), op, cluster)
        self.token_edges(op, tokens, n)
        if op.name == "async.execute":
            inner = self.cluster(f"async.execute ({line_of(op)})", cluster, op)
            ends = [n]
            for region in op.regions:
                for b in region.blocks:
                    ends = self.block(b, inner, ends)
            self.body_ends[op] = ends
            self.issue(n, frontier)
            return frontier
        return self.spine(n, frontier)

    def loop(self, op: Operation, cluster: Cluster, frontier: list[Node]) -> list[Node]:
        inner = self.cluster(f"{op_name(op)} ({line_of(op)})", cluster, op)
        head = self.node(NodeKind.LOOP, loop_label(op), op, inner)
        frontier = self.spine(head, frontier)
        ends = [head]
        for region in op.regions:
            for b in region.blocks:
                ends = self.block(b, inner, ends)
        for e in ends:
            self.edge(e, head, EdgeKind.BACK, label="next iteration")
        return [head]

    def branches(self, op: Operation, cluster: Cluster, frontier: list[Node]) -> list[Node]:
        head = self.node(NodeKind.BRANCH, [op_name(op), line_of(op)], op, cluster)
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


def _forward(sources: list[_Source]) -> list[_Source]:
    """`sources` as seen after the loop that carries them: not along a back edge."""
    return [_Source(s.node, s.alias, False) if s.back else s for s in sources]


def _unalias(v: SSAValue) -> SSAValue:
    """The token a chain of aliases (`gpu.wait async` with one dependency) names."""
    while isinstance(v, OpResult) and isinstance(v.op, WaitOp) and len(v.op.operands) == 1:
        v = v.op.operands[0]
    return v


def _empty(region: Region) -> bool:
    """A region whose only op is its terminator (an scf.if without an else)."""
    return all(len(b.ops) <= 1 for b in region.blocks)


def build_graph(functions: list[func.FuncOp]) -> Graph:
    """The graph of the given host functions (one cluster each)."""
    g = Graph()
    b = _Builder(g)
    for f in functions:
        b.function(f)
    return g


__all__ = ["build_graph"]
