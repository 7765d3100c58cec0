"""`cf.assert` in the simulator's kernels.

A work-item whose assertion fails prints the line MLIR's GPU tests expect
(`xgpu.ir.locations.assertion_line`: file, line and function of the op's
location, its block and thread, the message) to the run's output, where
`gpu.printf` writes, and stops; the other work-items of its block go on.
Blocks after it do not start. The launch then fails with an error at the
op that names the first failing work-item (in work-item order), as the
OpenCL backend reports its first one.
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Operation

from xgpu.ir.locations import assert_origin


class KernelAssertion(Exception):
    """A failing `cf.assert` of a work-item (raised by the kernel's code)."""

    def __init__(self, op: Operation):
        super().__init__(op)
        self.op = op


def message_of(op: Operation) -> str:
    msg = op.msg
    return msg.data if isinstance(msg, StringAttr) else str(msg)


def origin_of(op: Operation) -> tuple[str, int, str]:
    return assert_origin(op.location)


def h_assert(c: Any, op: Operation) -> None:
    """The work-item engine's `cf.assert`."""
    c.w(f"if not {c.v(op.arg)}: raise _KAssert({c.bind(op, 'op')})", op)


HELPERS = {"_KAssert": KernelAssertion}
