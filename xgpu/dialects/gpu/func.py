"""gpu.func (kernel, attributions, known sizes) and gpu.return."""

from __future__ import annotations

OPS: list[type] = []
ATTRS: list[type] = []
