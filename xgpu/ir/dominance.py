"""SSA dominance, checked as MLIR's verifier checks it.

A value must dominate each of its uses: a use in the defining block comes after
the definition, a use in another block of the same region sits in a block that
the defining block dominates, and a use nested in an op's region counts as a
use at that op. Graph regions (those of ops without terminators, such as
`builtin.module` and `gpu.module`) are not checked. xDSL's verifier has no
such check; MLIR reports `operand #N does not dominate this use`.
"""

from __future__ import annotations

from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.traits import NoTerminator

from xgpu.diagnostics import OpDiagnostic


class DominanceInfo:
    """Lazily computed op positions and block dominators, per region."""

    def __init__(self) -> None:
        # Per block: op id -> position (by identity: an op's hash is a Python
        # call; the IR, which keeps the ops alive, does not change meanwhile).
        self._positions: dict[Block, dict[int, int]] = {}
        # Blocks of graph regions, where no position table is built.
        self.graph_blocks: set[Block] = set()
        self._dominators: dict[Region, dict[Block, set[Block]]] = {}

    def position(self, op: Operation) -> int:
        block = op.parent
        assert block is not None
        table = self._positions.get(block)
        if table is None:
            table = {id(o): i for i, o in enumerate(block.ops)}
            self._positions[block] = table
        return table[id(op)]

    def dominators(self, block: Block) -> set[Block]:
        region = block.parent
        assert region is not None
        doms = self._dominators.get(region)
        if doms is None:
            doms = _compute_dominators(region)
            self._dominators[region] = doms
        return doms.get(block, set())

    def block_dominates(self, a: Block, b: Block) -> bool:
        return a is b or a in self.dominators(b)


def _compute_dominators(region: Region) -> dict[Block, set[Block]]:
    """Iterative dominator sets over the blocks reachable from the entry block."""
    blocks = list(region.blocks)
    if not blocks:
        return {}
    entry = blocks[0]
    preds: dict[Block, list[Block]] = {b: [] for b in blocks}
    for b in blocks:
        term = b.last_op
        if term is not None:
            for succ in term.successors:
                if succ in preds:
                    preds[succ].append(b)
    # As in MLIR, a block that cannot be reached is dominated by every block
    # (its uses are not checked) and is no predecessor that counts.
    reachable, todo = {entry}, [entry]
    while todo:
        term = todo.pop().last_op
        for succ in term.successors if term is not None else ():
            if succ in preds and succ not in reachable:
                reachable.add(succ)
                todo.append(succ)
    everything = set(blocks)
    doms: dict[Block, set[Block]] = {b: set(everything) for b in blocks}
    doms[entry] = {entry}
    changed = True
    while changed:
        changed = False
        for b in blocks[1:]:
            if b not in reachable:
                continue
            ps = [doms[p] for p in preds[b] if p in reachable]
            new = set.intersection(*ps) | {b} if ps else {b}
            if new != doms[b]:
                doms[b] = new
                changed = True
    return doms


def _is_graph_region(region: Region) -> bool:
    parent = region.parent
    return parent is not None and parent.has_trait(NoTerminator)


def value_dominates(info: DominanceInfo, value: SSAValue, user: Operation) -> bool:
    # The common case first: a result used later in its own block.
    if isinstance(value, OpResult) and (block := value.op.parent) is user.parent and block:
        table = info._positions.get(block)  # noqa: SLF001
        if table is not None:
            def_op = value.op
            return def_op is not user and table[id(def_op)] < table[id(user)]
        if block not in info.graph_blocks and (region := block.parent) is not None:
            if _is_graph_region(region):
                info.graph_blocks.add(block)
            else:
                info.position(user)  # builds the block's table
                return value_dominates(info, value, user)
    if isinstance(value, OpResult):
        def_op = value.op
        block = def_op.parent
    elif isinstance(value, BlockArgument):
        def_op = None
        block = value.block
    else:  # a forward reference the parser never resolved
        return False
    if block is None or block.parent is None:
        return False
    region = block.parent
    # Find the ancestor of `user` directly in `region`.
    cur: Operation | None = user
    while cur is not None and (cur.parent is None or cur.parent.parent is not region):
        cur = cur.parent_op()
    if cur is None:
        return False
    if _is_graph_region(region):
        return True
    use_block = cur.parent
    assert use_block is not None
    if use_block is block:
        if def_op is None:
            return True
        if cur is def_op:
            # Outside graph regions, neither an op nor an op nested in it may use
            # the op's results.
            return False
        return info.position(def_op) < info.position(cur)
    return info.block_dominates(block, use_block)


def _region_is_ancestor(ancestor: Region, region: Region | None) -> bool:
    while region is not None:
        if region is ancestor:
            return True
        parent = region.parent
        region = None if parent is None or parent.parent is None else parent.parent.parent
    return False


def _where(def_op: Operation, user: Operation) -> str:
    """MLIR's description of where the value is defined relative to its use."""
    def_block, use_block = def_op.parent, user.parent
    if def_block is use_block:
        return "op in the same block"
    def_region = def_block.parent if def_block else None
    use_region = use_block.parent if use_block else None
    if def_region is use_region:
        return "op in the same region"
    if def_region is not None and _region_is_ancestor(def_region, use_region):
        return "op in a parent region"
    if use_region is not None and _region_is_ancestor(use_region, def_region):
        return "op in a child region"
    return "op in a non-ancestor region"


def verify_dominance(op: Operation, info: DominanceInfo) -> None:
    """Raise OpDiagnostic if an operand of `op` does not dominate `op`."""
    block = op.parent
    table = info._positions.get(block) if block is not None else None  # noqa: SLF001
    for i, value in enumerate(op.operands):
        # The common cases, answered as `value_dominates` answers them: an
        # argument of the user's own block, a result of an earlier op of it.
        cls = value.__class__
        if cls is BlockArgument:
            if value.block is block and block.parent is not None:  # type: ignore[attr-defined]
                continue
        elif cls is OpResult and table is not None:
            def_op = value.op  # type: ignore[attr-defined]
            if def_op.parent is block and def_op is not op and table[id(def_op)] < table[id(op)]:
                continue
        if not value_dominates(info, value, op):
            notes: list[tuple[Operation | None, str]] = []
            if isinstance(value, OpResult):
                notes.append((value.op, f"operand defined here ({_where(value.op, op)})"))
            raise OpDiagnostic(
                f"operand #{i} does not dominate this use", prefix=False, notes=notes
            )
