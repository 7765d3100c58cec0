"""What a module imported on demand defines, without importing it.

Until a module is imported no object is an instance of its classes, so a test
like `isinstance(op, AsyncOpInterface)` can answer False without importing
`xgpu.dialects.gpu.async_interface` (and what it imports) for a program that
never uses it; and a check of the ops of such a module (the container
module's check of its `gpu.launch_func`s) has nothing to check.
"""

from __future__ import annotations

import sys
from typing import Any


def loaded(module: str, name: str) -> Any | None:
    """`module.name` if `module` is imported (or being imported), else None."""
    found = sys.modules.get(module)
    return None if found is None else getattr(found, name, None)


def is_instance(obj: object, module: str, name: str) -> bool:
    """`isinstance(obj, module.name)`, False while `module` is not imported."""
    cls = loaded(module, name)
    return cls is not None and isinstance(obj, cls)
