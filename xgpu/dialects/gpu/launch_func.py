"""gpu.launch_func, with the symbol checks of its kernel."""

from __future__ import annotations

OPS: list[type] = []
ATTRS: list[type] = []
