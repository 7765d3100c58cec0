"""!gpu.mma_matrix and the subgroup_mma_* ops."""

from __future__ import annotations

OPS: list[type] = []
ATTRS: list[type] = []
