"""What gpu-check-async reports: `FindingKind` and `Finding` (see the
package's docstring for what each kind means)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from xdsl.ir import Operation, SSAValue

from xgpu.analysis.buffer_effects import is_token
from xgpu.dialects.gpu.async_interface import AsyncOpInterface

# ---------------------------------------------------------------------------
# Findings
# ---------------------------------------------------------------------------


class FindingKind(Enum):
    HOST_ACCESS = "host-access"
    CONFLICT = "conflict"
    DEALLOC = "dealloc"
    USE_AFTER_FREE = "use-after-free"
    UNAWAITED = "unawaited"
    ALIAS_WAIT = "alias-wait"
    USELESS_WAIT = "useless-wait"
    EMPTY_WAIT = "empty-wait"

    @property
    def is_remark(self) -> bool:
        return self in (FindingKind.ALIAS_WAIT, FindingKind.USELESS_WAIT, FindingKind.EMPTY_WAIT)


@dataclass
class Finding:
    """One hazard (or useless synchronization), reported at `op`."""

    kind: FindingKind
    op: Operation
    other: Operation | None = None
    """The other op involved: the in-flight op, the dealloc, the `return`, the
    op that completed the work of a useless wait."""
    value: SSAValue | None = None
    """The buffer as `op` names it (HOST_ACCESS, CONFLICT, DEALLOC,
    USE_AFTER_FREE); the aliased token (ALIAS_WAIT)."""
    mode: int = 0
    """How `op` accesses `value` (READ, WRITE, FREE, ...)."""
    other_mode: int = 0
    """How `other` accesses it."""
    same_op: bool = False
    """`other` is an earlier run of `op` itself (a previous loop iteration)."""
    completed: tuple[SSAValue, ...] = ()
    """USELESS_WAIT: the dependencies whose work has already completed."""
    no_work: tuple[SSAValue, ...] = ()
    """USELESS_WAIT: the dependencies among `completed` that stand for no work."""
    partial: bool = False
    """USELESS_WAIT: other dependencies of the wait still do something."""
    earlier_runs: bool = False
    """UNAWAITED: only earlier runs of `op` (in a loop) are not awaited."""

    @property
    def severity(self) -> str:
        return "remark" if self.kind.is_remark else "warning"

    @property
    def other_token(self) -> SSAValue | None:
        """The token to wait for (or depend on) to order `other` before `op`."""
        other = self.other
        if other is None:
            return None
        if isinstance(other, AsyncOpInterface):
            return other.async_token  # type: ignore[attr-defined]
        return next((r for r in other.results if is_token(r)), None)
