"""gpu.module (targets, offloading handler) and gpu.binary."""

from __future__ import annotations

OPS: list[type] = []
ATTRS: list[type] = []
