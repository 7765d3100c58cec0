"""Kernel-side ops: ids and dims (thread_id, block_id, ..., cluster ids), lane_id,
subgroup_id, num_subgroups, subgroup_size, barrier, printf, dynamic_shared_memory."""

from __future__ import annotations

OPS: list[type] = []
ATTRS: list[type] = []
