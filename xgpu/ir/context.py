"""xgpu's Context: the gpu dialect loaded module by module (and memref op by
op, `_part_op`).

xDSL loads a registered dialect whole the first time a name of it is looked
up. For the gpu dialect that means defining every op class (about half a
second of start-up, more than xDSL's own import); a program uses a few of its
modules. `XGpuContext` looks names of the gpu dialect up in
`xgpu.dialects.gpu.catalog` first and loads only the module that defines
them (its ops, attributes and types). Anything else (an unknown `gpu.` name,
a listing of loaded dialects) loads the rest of the dialect, so what a
context can find is what xDSL's would.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.ir import Attribute, Operation, TypeAttribute

from xgpu.dialects.gpu.catalog import MODULES, WHERE


@dataclass
class XGpuContext(Context):
    #: the modules of the gpu dialect loaded so far
    _gpu_modules: set[str] = field(default_factory=set[str])

    def clone(self) -> XGpuContext:
        new = XGpuContext(
            self.allow_unregistered,
            self._loaded_dialects.copy(),
            self._loaded_ops.copy(),
            self._loaded_attrs.copy(),
            self._loaded_types.copy(),
            self._registered_dialects.copy(),
        )
        new._gpu_modules = set(self._gpu_modules)
        return new

    # -- the gpu dialect, module by module --------------------------------- #

    def _gpu_name(self, name: str) -> bool:
        """Load the module that defines `name` if it is a gpu name; whether it was."""
        module = WHERE.get(name)
        if module is None or "gpu" not in self._registered_dialects:
            return False
        if module not in self._gpu_modules and "gpu" not in self._loaded_dialects:
            self._load_gpu_module(module)
        return True

    def _load_gpu_module(self, module: str) -> None:
        from xgpu.dialects.gpu import op_module

        self._gpu_modules.add(module)
        m = op_module(module)
        for op in m.OPS:
            if op.name not in self._loaded_ops:
                self.load_op(op)
        for attr in m.ATTRS:
            table = self._loaded_types if issubclass(attr, TypeAttribute) else self._loaded_attrs
            if attr.name not in table:
                self.load_attr_or_type(attr)

    # -- derived dialects, op by op (memref) -------------------------------- #

    def _part_op(self, name: str) -> None:
        """Load what a dialect loaded op by op needs for the op `name` (the
        ops of the module of xgpu's that defines it, or xDSL's op)."""
        dialect = name.partition(".")[0]
        ops_for = getattr(self._registered_dialects.get(dialect), "xgpu_ops_for", None)
        if ops_for is None or dialect in self._loaded_dialects:
            return
        for op in ops_for(name):
            if op.name not in self._loaded_ops:
                self.load_op(op)

    def load_registered_dialect(self, name: str) -> None:
        factory = self._registered_dialects.get(name)
        if getattr(factory, "xgpu_ops_for", None) is not None:
            # What is loaded already stays; the rest of the dialect is added.
            dialect = factory()  # type: ignore[misc]
            self._loaded_dialects[dialect.name] = dialect
            for op in dialect.operations:
                if op.name not in self._loaded_ops:
                    self.load_op(op)
            for attr in dialect.attributes:
                self.load_attr_or_type(attr)
            return
        if name != "gpu" or not self._is_xgpu_gpu():
            super().load_registered_dialect(name)
            return
        from xgpu.dialects.gpu import GPU

        for module in MODULES:
            if module not in self._gpu_modules:
                self._load_gpu_module(module)
        self._loaded_dialects["gpu"] = GPU

    def _is_xgpu_gpu(self) -> bool:
        """Whether the registered `gpu` dialect is xgpu's (a caller may register another)."""
        factory = self._registered_dialects.get("gpu")
        return getattr(factory, "xgpu_gpu", False)

    # -- lookups ------------------------------------------------------------ #

    def get_optional_op(
        self, name: str, *, dialect_stack: Sequence[str] = ()
    ) -> type[Operation] | None:
        op = self._loaded_ops.get(name)
        if op is not None:
            return op
        self._part_op(name)
        if self._is_xgpu_gpu():
            if not self._gpu_name(name):
                for dialect in reversed(dialect_stack):
                    if self._gpu_name(f"{dialect}.{name}"):
                        break
        return super().get_optional_op(name, dialect_stack=dialect_stack)

    def get_optional_type(self, name: str) -> type[TypeAttribute] | None:
        if name not in self._loaded_types and self._is_xgpu_gpu():
            self._gpu_name(name)
        return super().get_optional_type(name)

    def get_optional_attr(self, name: str) -> type[Attribute] | None:
        if name not in self._loaded_attrs and self._is_xgpu_gpu():
            self._gpu_name(name)
        return super().get_optional_attr(name)
