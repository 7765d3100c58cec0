"""Compilation attributes: #gpu.object, #gpu.select_object, #gpu.kernel_metadata, #gpu.kernel_table."""

from __future__ import annotations

OPS: list[type] = []
ATTRS: list[type] = []
