"""The sparse (cuSPARSE-style) host ops and their enums."""

from __future__ import annotations

OPS: list[type] = []
ATTRS: list[type] = []
