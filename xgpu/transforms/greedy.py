"""MLIR's greedy pattern rewrite driver, on xDSL IR.

The order in which a greedy driver visits ops decides which constant survives,
where it ends up and which of two overlapping patterns fires first, so xgpu's
canonicalize follows MLIR 22's `GreedyPatternRewriteDriver` step by step
instead of xDSL's walker:

* an iteration starts with a fresh `ConstantFolder`: a pre-order walk uniques
  constants and hoists them to the entry block of their insertion region, and
  puts every other op (and every surviving constant) on the worklist, first op
  processed first;
* an op taken from the worklist is erased if trivially dead, else folded (an
  attribute result is materialized as a constant right before the op), else
  given to its patterns in order;
* erasing an op re-queues the producers of its operands that are left with at
  most one use; replacing uses re-queues the users; inserting or modifying an op
  queues it and its ancestors;
* after the worklist empties, regions are simplified (unreachable blocks, dead
  ops and block arguments), and a new iteration runs while anything changed,
  at most `max_iterations` times.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriterListener,
    RewritePattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.utils.worklist import Worklist

from xgpu.ir.speedups import gc_paused
from xgpu.transforms.constants import ConstantFolder, constant_value, materialize_constant
from xgpu.transforms.effects import is_trivially_dead
from xgpu.transforms.region_simplify import simplify_regions

Fold = Callable[[Operation], Sequence[SSAValue | Attribute] | None]


@dataclass
class GreedyConfig:
    """MLIR's GreedyRewriteConfig, the parts canonicalize uses."""

    max_iterations: int = 10
    region_simplify: bool = True
    fold: bool = True
    cse_constants: bool = True


class PatternSource:
    """Where the driver gets an op's patterns and folder (looked up once per op type)."""

    def patterns(self, op_type: type[Operation]) -> Sequence[RewritePattern]:
        return ()

    def folder(self, op_type: type[Operation]) -> Fold | None:
        return None


@dataclass(eq=False)
class GreedyDriver:
    source: PatternSource
    config: GreedyConfig = field(default_factory=GreedyConfig)
    scope: Region | None = None
    changed_anything: bool = False

    def __post_init__(self) -> None:
        self.worklist: Worklist[Operation] = Worklist()
        self._patterns: dict[type[Operation], Sequence[RewritePattern]] = {}
        self._folders: dict[type[Operation], Fold | None] = {}
        self.listener = PatternRewriterListener(
            operation_insertion_handler=[self._on_insert],
            operation_removal_handler=[self._on_remove],
            operation_modification_handler=[self._on_modify],
        )

    # --- worklist bookkeeping, as MLIR's driver does it ---------------------

    def add_to_worklist(self, op: Operation) -> None:
        """Queue `op` and its ancestors up to the scope region (innermost first)."""
        push = self.worklist.push
        scope = self.scope
        ancestors = []
        current: Operation | None = op
        while current is not None:
            ancestors.append(current)
            region = current.parent_region()
            if region is scope:
                for ancestor in ancestors:
                    push(ancestor)
                return
            if region is None:
                return
            current = region.parent
        return

    def _add_operands(self, operands: Sequence[SSAValue]) -> None:
        for operand in operands:
            first = operand.first_use
            if first is not None and first._next_use is not None:  # noqa: SLF001
                continue
            owner = operand.owner
            if isinstance(owner, Operation):
                self.add_to_worklist(owner)

    def _on_insert(self, op: Operation) -> None:
        self.add_to_worklist(op)

    def _on_modify(self, op: Operation) -> None:
        self.add_to_worklist(op)

    def _on_remove(self, op: Operation) -> None:
        if op.regions:
            for nested in op.walk(reverse=True, region_first=True):
                self._add_operands(nested.operands)
                self.worklist.remove(nested)
        else:
            self._add_operands(op.operands)
            self.worklist.remove(op)

    # --- the driver --------------------------------------------------------

    def patterns_of(self, op_type: type[Operation]) -> Sequence[RewritePattern]:
        patterns = self._patterns.get(op_type)
        if patterns is None:
            patterns = self._patterns[op_type] = tuple(self.source.patterns(op_type))
        return patterns

    def folder_of(self, op_type: type[Operation]) -> Fold | None:
        try:
            return self._folders[op_type]
        except KeyError:
            folder = self._folders[op_type] = (
                self.source.folder(op_type) if self.config.fold else None
            )
            return folder

    def simplify(self, region: Region) -> bool:
        """Rewrite `region` to a fixpoint; True if it converged."""
        with gc_paused():
            return self._simplify(region)

    def _simplify(self, region: Region) -> bool:
        self.scope = region
        for _ in range(self.config.max_iterations):
            self.worklist = Worklist()
            self._populate(region)
            changed = self._process()
            if self.config.region_simplify:
                changed |= simplify_regions(region, self.listener)
            self.changed_anything |= changed
            if not changed:
                return True
        return False

    def _populate(self, region: Region) -> None:
        folder = ConstantFolder(self) if self.config.cse_constants else None
        push = self.worklist.push
        stack: list[Operation] = []
        for block in reversed(region.blocks):
            stack.extend(reversed(block.ops))
        while stack:
            op = stack.pop()
            if folder is not None and op.results and constant_value(op) is not None:
                if not folder.insert_known_constant(op):
                    continue
            push(op)
            for nested_region in reversed(op.regions):
                for block in reversed(nested_region.blocks):
                    stack.extend(reversed(block.ops))
        # MLIR pushes in pre-order, then reverses the list so that popping from
        # the back visits ops in program order.
        worklist = self.worklist
        items = [item for item in reversed(worklist._stack) if isinstance(item, Operation)]  # noqa: SLF001
        worklist._stack = items  # type: ignore[assignment]  # noqa: SLF001
        worklist._map = {item: index for index, item in enumerate(items)}  # noqa: SLF001

    def _process(self) -> bool:
        changed = False
        worklist = self.worklist
        rewriter = PatternRewriter(InsertPoint.at_end(self.scope.block))  # type: ignore[union-attr]
        rewriter.extend_from_listener(self.listener)
        while worklist:
            op = worklist.pop()
            if is_trivially_dead(op):
                rewriter.erase(op)
                changed = True
                continue
            op_type = type(op)
            fold = self.folder_of(op_type)
            if fold is not None and constant_value(op) is None:
                folded = fold(op)
                if folded is not None:
                    if self._apply_fold(op, folded, rewriter):
                        changed = True
                        continue
            patterns = self.patterns_of(op_type)
            if patterns:
                rewriter.insertion_point = InsertPoint.before(op)
                rewriter.current_operation = op
                for pattern in patterns:
                    rewriter.has_done_action = False
                    pattern.match_and_rewrite(op, rewriter)
                    if rewriter.has_done_action:
                        changed = True
                        break
        return changed

    def _apply_fold(
        self,
        op: Operation,
        folded: Sequence[SSAValue | Attribute],
        rewriter: PatternRewriter,
    ) -> bool:
        if not op.results or all(a is b for a, b in zip(folded, op.results, strict=True)):
            # xDSL folders do not modify the op (MLIR's in-place folds are
            # patterns here): a fold to the op's own results changes nothing.
            return False
        replacements: list[SSAValue] = []
        new_ops: list[Operation] = []
        for value, result in zip(folded, op.results, strict=True):
            if isinstance(value, SSAValue):
                replacements.append(value)
                continue
            const = materialize_constant(op, value, result.type)
            if const is None:
                return False
            new_ops.append(const)
            replacements.append(const.results[0])
        rewriter.insertion_point = InsertPoint.before(op)
        for new_op in new_ops:
            rewriter.insert(new_op)
        rewriter.replace(op, [], replacements)
        return True
