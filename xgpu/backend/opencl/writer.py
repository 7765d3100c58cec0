"""The lines of C the OpenCL emitter writes (`emit`, `function`), with the op
each one comes from (`OpenCLProgram.line_ops`).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Operation


class Writer:
    """Lines of C with the op each one comes from."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.ops: list[Operation | None] = []
        self.depth = 0

    def line(self, text: str, op: Operation | None) -> None:
        self.lines.append("  " * self.depth + text)
        self.ops.append(op)

    def extend(self, other: Writer) -> None:
        self.lines += other.lines
        self.ops += other.ops

    def text_block(self, text: str, op: Operation | None = None) -> None:
        for ln in text.splitlines():
            self.line(ln, op)

    def mark(self) -> int:
        return len(self.lines)

    def insert(self, at: int, lines: Sequence[str], depth: int, op: Operation | None) -> None:
        self.lines[at:at] = ["  " * depth + ln for ln in lines]
        self.ops[at:at] = [op] * len(lines)
