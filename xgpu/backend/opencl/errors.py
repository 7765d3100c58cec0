"""The emitter's error: an op it cannot translate, and why."""

from __future__ import annotations

from xdsl.ir import Operation

from xgpu.diagnostics import Location, location_of, op_name


class EmitError(Exception):
    """`op` cannot be emitted as OpenCL C: `message` says why.

    `str(err)` is `FILE:LINE:COL: error: 'dialect.op' op MESSAGE` when the op
    has a location (xgpu-opt prints it as a diagnostic, without traceback)."""

    def __init__(self, op: Operation | None, message: str):
        self.op = op
        self.message = message
        super().__init__(self.formatted())

    @property
    def location(self) -> Location | None:
        return location_of(self.op)

    @property
    def op_message(self) -> str:
        """The message with MLIR's `'op.name' op ` prefix."""
        if self.op is None:
            return self.message
        return f"'{op_name(self.op)}' op {self.message}"

    def formatted(self) -> str:
        loc = self.location
        prefix = f"{loc}: " if loc is not None else ""
        return f"{prefix}error: {self.op_message}"
