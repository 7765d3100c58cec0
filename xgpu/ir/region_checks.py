"""Checks of an op's regions that MLIR runs after the ops nested in them.

MLIR verifies an op (`verify`), then the ops in its regions, then the op's
`verifyRegions`: a body ending with `func.return` inside a `gpu.launch` is
reported at the `func.return` (wrong parent), not as a wrong terminator of the
launch. Ops with such checks derive from `RegionVerifier`, put them in
`verify_regions_` and call `self.run_region_checks()` at the end of `verify_`:
the checks then run at once under xDSL's own `Operation.verify`, and after the
nested ops under `xgpu.ir.verifier.verify_ir`, which defers them.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_deferred: ContextVar[bool] = ContextVar("xgpu_region_checks_deferred", default=False)


class RegionVerifier:
    """Mixin for ops with checks of their regions' contents (MLIR's `verifyRegions`)."""

    def verify_regions_(self) -> None:
        """Raise VerifyException if the contents of the regions are invalid."""

    def run_region_checks(self) -> None:
        """Run `verify_regions_` now, unless the caller defers it."""
        if not _deferred.get():
            self.verify_regions_()


def region_checks_deferred() -> bool:
    """Whether the caller runs the region checks itself (inside `deferring_region_checks`)."""
    return _deferred.get()


@contextmanager
def deferring_region_checks() -> Iterator[None]:
    """Within the block, `run_region_checks` does nothing: the caller runs
    `verify_regions_` itself after the nested ops."""
    token = _deferred.set(True)
    try:
        yield
    finally:
        _deferred.reset(token)
