"""Core attributes: #gpu<dim>, #gpu<all_reduce_op>, #gpu<shuffle_mode>, #gpu<broadcast>, #gpu.address_space, mapping attributes, #gpu.loop_dim_map."""

from __future__ import annotations

OPS: list[type] = []
ATTRS: list[type] = []
