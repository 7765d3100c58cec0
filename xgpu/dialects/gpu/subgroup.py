"""Subgroup and reduction ops: shuffle, rotate, all_reduce, subgroup_reduce,
subgroup_broadcast, warp_execute_on_lane_0, yield."""

from __future__ import annotations

OPS: list[type] = []
ATTRS: list[type] = []
