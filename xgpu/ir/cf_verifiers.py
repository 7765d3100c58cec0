"""MLIR 22's verifiers of cf ops that xDSL 0.75 lacks or words otherwise (see
`xgpu.ir.upstream_verifiers`): branch operands against the target blocks'
arguments, `cf.cond_br`'s condition type."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import cf
from xdsl.ir import Operation, SSAValue

from xgpu.diagnostics import OpDiagnostic
from xgpu.ir.upstream_verifiers import is_i1, register, verify_operand_type


def _successor_operands(op: Operation) -> list[Sequence[SSAValue]]:
    if isinstance(op, cf.BranchOp):
        return [op.arguments]
    if isinstance(op, cf.ConditionalBranchOp):
        return [op.then_arguments, op.else_arguments]
    assert isinstance(op, cf.SwitchOp)
    groups: list[Sequence[SSAValue]] = [op.default_operands]
    start = 0
    for size in op.case_operand_segments.get_values():
        groups.append(op.case_operands[start : start + size])
        start += size
    return groups


def _branch_custom(op: Operation) -> None:
    """MLIR's BranchOpInterface check of the values passed to each successor."""
    if isinstance(op, cf.SwitchOp):
        sizes = op.case_operand_segments.get_values()
        if len(sizes) != len(op.case_blocks) or sum(sizes) != len(op.case_operands):
            return  # xDSL's own checks report a malformed switch
    for index, (block, operands) in enumerate(zip(op.successors, _successor_operands(op))):
        if len(operands) != len(block.args):
            raise OpDiagnostic(
                f"branch has {len(operands)} operands for successor #{index}, but target block "
                f"has {len(block.args)}",
                prefix=False,
            )
        for arg_index, (value, arg) in enumerate(zip(operands, block.args)):
            if value.type != arg.type:
                raise OpDiagnostic(
                    f"type mismatch for bb argument #{arg_index} of successor #{index}",
                    prefix=False,
                )


def _cond_br_before(op: Operation) -> None:
    verify_operand_type(op, 0, is_i1, "1-bit signless integer")


register("cf.br", custom=_branch_custom)
register("cf.cond_br", before=_cond_br_before, custom=_branch_custom)
register("cf.switch", custom=_branch_custom)
