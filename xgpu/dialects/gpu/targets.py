"""Target attributes a gpu.module carries: #nvvm.target, #rocdl.target, #spirv.target, #xevm.target."""

from __future__ import annotations

OPS: list[type] = []
ATTRS: list[type] = []
