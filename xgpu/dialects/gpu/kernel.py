"""Kernel-side ops: ids and dims, barrier, shuffle, rotate, reductions, broadcast, printf, dynamic shared memory, warp_execute_on_lane_0, yield."""

from __future__ import annotations

OPS: list[type] = []
ATTRS: list[type] = []
