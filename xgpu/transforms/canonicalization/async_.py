"""MLIR 22's canonicalization of the async dialect: a group that is only
awaited (`async.await_all`), nothing ever added to it, is erased with its
awaits (`CreateGroupOp::canonicalize`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from xgpu.dialects.async_ import AwaitAllOp, CreateGroupOp

if TYPE_CHECKING:
    from xgpu.transforms.canonicalization import CanonicalizationTable


class EraseOnlyAwaitedGroup(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        assert isinstance(op, CreateGroupOp)
        users = [use.operation for use in op.result.uses]
        if not all(isinstance(user, AwaitAllOp) for user in users):
            return
        for user in dict.fromkeys(users):
            rewriter.erase_op(user)
        rewriter.erase_op(op)


def register(table: CanonicalizationTable) -> None:
    table.set_patterns(CreateGroupOp, EraseOnlyAwaitedGroup())
