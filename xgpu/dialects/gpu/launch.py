"""gpu.launch and gpu.terminator."""

from __future__ import annotations

OPS: list[type] = []
ATTRS: list[type] = []
