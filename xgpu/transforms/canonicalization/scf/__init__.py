"""MLIR 22's folders and canonicalization patterns for the scf ops.

xDSL's scf patterns differ from MLIR's on loops and conditionals GPU host and
kernel code contains: its `RehoistConstInLoops` moves constants itself (MLIR's
driver hoists them, `xgpu.transforms.constants`), its `SimplifyTrivialLoops`
computes trip counts without the width, signedness and overflow rules of MLIR
22, it keeps loop-invariant or unused `iter_args`, and its `scf.if` pattern
is the only one of MLIR's eight. Here every scf op xDSL defines gets MLIR 22's
behaviour (`register` at the end), from `SCF.cpp`:

* `scf.for`: `ForOpIterArgsFolder` (drop iter_args that are yielded
  unchanged, whose init is yielded, or unused), `SimplifyTrivialLoops` (zero-trip loops replaced by
  their inits, one-trip loops inlined, empty loops of known trip count > 1
  replaced by what they yield). The trip count is MLIR 22's
  `constantTripCount`: step 0 or negative: 0; bounds compared signed (the
  `unsignedCmp` attribute: unsigned), `ub - lb` wrapping at the bound's
  width; with non-constant bounds only `ub = addi(lb, c)` carrying
  `nsw` (`nuw` when unsigned).
* `scf.if`: the in-place fold swapping the regions of `if (xori c, 1)`,
  then MLIR's patterns in MLIR's order: CombineIfs, CombineNestedIfs,
  ConditionPropagation, ConvertTrivialIfToSelect, RemoveEmptyElseBranch,
  RemoveStaticCondition, RemoveUnusedResults,
  ReplaceIfYieldWithConditionOrValue.
* `scf.execute_region`: a single-block region is inlined (unless
  `no_inline`); `scf.index_switch` with a constant operand is replaced by the
  matching case.
* the RegionBranchOpInterface patterns MLIR 22 registers for scf.for, scf.if,
  scf.while, scf.execute_region and scf.index_switch, after their own:
  a loop-carried value or result that can only hold one value defined before
  it is that value (`MakeRegionBranchOpSuccessorInputsDead`), two that get the
  same values from every predecessor are merged
  (`RemoveDuplicateSuccessorInputUses`), and dead ones are erased with their
  tied inputs and operands (`RemoveDeadRegionBranchOpSuccessorInputs`).

Not ported (xgpu leaves such ops as they are): patterns on tensors
(`ForOpTensorCastFolder`), scf.while's own patterns (WhileConditionTruth,
WhileMoveIfDown, loop-invariant arguments, ...), scf.parallel's, and the
inlining of multi-block `scf.execute_region` regions.

One module per op (`for_`, `if_`, `execute_region`, `index_switch`), the
RegionBranchOpInterface patterns in `region_branch`, shared helpers in
`common`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xgpu.dialects import scf
from xgpu.transforms.canonicalization.scf.common import replace_op_with_region
from xgpu.transforms.canonicalization.scf.execute_region import SingleBlockExecuteInliner
from xgpu.transforms.canonicalization.scf.for_ import (
    ForOpIterArgsFolder,
    SimplifyTrivialLoops,
    static_trip_count,
)
from xgpu.transforms.canonicalization.scf.if_ import (
    CombineIfs,
    CombineNestedIfs,
    ConditionPropagation,
    ConvertTrivialIfToSelect,
    IfNotConditionSwap,
    RemoveEmptyElseBranch,
    RemoveStaticCondition,
    RemoveUnusedResults,
    ReplaceIfYieldWithConditionOrValue,
)
from xgpu.transforms.canonicalization.scf.index_switch import FoldConstantCase
from xgpu.transforms.canonicalization.scf.region_branch import region_branch_patterns

if TYPE_CHECKING:
    from xgpu.transforms.canonicalization import CanonicalizationTable


def register(table: CanonicalizationTable) -> None:
    generic = region_branch_patterns()
    table.set_folder(scf.ForOp, None)
    table.set_patterns(scf.ForOp, ForOpIterArgsFolder(), SimplifyTrivialLoops(), *generic)
    table.set_folder(scf.IfOp, None)
    table.set_patterns(
        scf.IfOp,
        IfNotConditionSwap(),
        CombineIfs(),
        CombineNestedIfs(),
        ConditionPropagation(),
        ConvertTrivialIfToSelect(),
        RemoveEmptyElseBranch(),
        RemoveStaticCondition(),
        RemoveUnusedResults(),
        ReplaceIfYieldWithConditionOrValue(),
        *generic,
    )
    table.set_patterns(scf.WhileOp, *generic)
    table.set_patterns(scf.ExecuteRegionOp, SingleBlockExecuteInliner(), *generic)
    table.set_patterns(scf.IndexSwitchOp, FoldConstantCase(), *generic)


__all__ = ["register", "replace_op_with_region", "static_trip_count"]
