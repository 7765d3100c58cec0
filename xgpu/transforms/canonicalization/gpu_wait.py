"""MLIR 22's canonicalization patterns for `gpu.wait`.

`gpu.wait` registers two patterns, tried in this order (the order decides the
result: `%1 = gpu.wait async [%0]` with `%0 = gpu.wait async` becomes
`%1 = gpu.wait async`, not a use of `%0`):

* `EraseRedundantGpuWaitOpPairs`: a dependency produced by a `gpu.wait` that
  has no operands of its own (`%t = gpu.wait async`) synchronizes nothing, so
  it is dropped from the operands of this wait (only of waits: other async ops
  keep such tokens);
* `SimplifyGpuWaitOp`: erase a wait with neither dependencies nor token; forward
  the single dependency of an async wait to the users of its token; erase an
  async wait whose token is unused.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern

from xgpu.dialects.gpu.host import WaitOp


# gpu.wait's only operands are its dependencies and its only result is its
# token: read as such (the IRDL accessors compute the operand groups again on
# each access, thousands of times per host program).
def _dependencies(op: WaitOp) -> Sequence[SSAValue]:
    return op.operands


def _token(op: WaitOp) -> SSAValue | None:
    results = op.results
    if len(results) > 1:  # (IR that does not verify: the accessor's answer)
        return op.async_token
    return results[0] if results else None


def _is_dependency_free_wait_token(value: SSAValue) -> bool:
    """Whether `value` is produced by a `gpu.wait` without operands."""
    owner = value.owner
    return isinstance(owner, WaitOp) and not owner.operands


class EraseRedundantGpuWaitOpPairs(RewritePattern):
    """Drop, from a wait's dependencies, tokens of waits that depend on nothing."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: WaitOp, rewriter: PatternRewriter) -> None:
        dependencies = _dependencies(op)
        if not any(_is_dependency_free_wait_token(dep) for dep in dependencies):
            return
        op.operands = [v for v in op.operands if not _is_dependency_free_wait_token(v)]
        rewriter.notify_op_modified(op)


class SimplifyGpuWaitOp(RewritePattern):
    """Erase no-op waits and forward single-dependency async waits."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: WaitOp, rewriter: PatternRewriter) -> None:
        dependencies = _dependencies(op)
        token = _token(op)
        # `gpu.wait` with no dependency and no token: nothing to wait for.
        if not dependencies and token is None:
            rewriter.erase(op)
            return
        # `%t1 = gpu.wait async [%t0]`: %t1 is an alias of %t0.
        if len(dependencies) == 1 and token is not None:
            rewriter.replace(op, [], [dependencies[0]])
            return
        # `%t = gpu.wait async [...]` with %t unused.
        if token is not None and token.first_use is None:
            rewriter.erase(op)


def wait_patterns() -> tuple[RewritePattern, ...]:
    return (EraseRedundantGpuWaitOpPairs(), SimplifyGpuWaitOp())
