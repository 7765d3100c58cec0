"""gpu.binary: a symbol holding compiled GPU objects."""

from __future__ import annotations

OPS: list[type] = []
ATTRS: list[type] = []
