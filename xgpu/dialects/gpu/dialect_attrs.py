"""Verification of the gpu dialect's discardable attributes on any op, as MLIR's
`GPUDialect::verifyOperationAttribute` does:

- `gpu.known_block_size`, `gpu.known_grid_size`, `gpu.known_cluster_size`
  must be dense i32 arrays of 3 elements, whatever op carries them;
- a unit `gpu.container_module` may only be attached to `builtin.module`.

On a `builtin.module` with `gpu.container_module`, MLIR also checks there the
kernel symbols of the `gpu.launch_func` ops of its functions, so before the ops
nested in the module; `gpu.launch_func`'s own verifier repeats them for a
launch verified alone.
"""

from __future__ import annotations

from xdsl.dialects.builtin import DenseArrayBase, ModuleOp, UnitAttr, i32
from xdsl.ir import Attribute, Operation

from xgpu.diagnostics import OpDiagnostic
from xgpu.ir.loaded import loaded

CONTAINER_MODULE = "gpu.container_module"
KERNEL = "gpu.kernel"
KNOWN_SIZE_ATTRS = ("gpu.known_block_size", "gpu.known_grid_size", "gpu.known_cluster_size")


def verify_dialect_attribute(op: Operation, name: str, value: Attribute) -> None:
    """Raise OpDiagnostic when the `gpu.*` discardable attribute `name` of `op`
    is invalid there."""
    if name in KNOWN_SIZE_ATTRS:
        if not (isinstance(value, DenseArrayBase) and value.elt_type == i32):
            raise OpDiagnostic(f"{name} must be a dense i32 array")
        if len(value) != 3:
            raise OpDiagnostic(f"{name} must contain exactly 3 elements")
        return
    if name == CONTAINER_MODULE and isinstance(value, UnitAttr):
        if not isinstance(op, ModuleOp):
            raise OpDiagnostic(
                f"expected '{CONTAINER_MODULE}' attribute to be attached to 'builtin.module'",
                prefix=False,
            )
        # Without the launch ops' module imported, the module holds no launch.
        if loaded("xgpu.dialects.gpu.launch_func", "LaunchFuncOp") is not None:
            from xgpu.dialects.gpu.container_kernels import verify_container_module_kernels

            verify_container_module_kernels(op)


def verify_dialect_attributes(op: Operation) -> None:
    """Check every `gpu.*` (and `spirv.*`) discardable attribute of `op`."""
    for name, value in op.attributes.items():
        if name.startswith("gpu."):
            verify_dialect_attribute(op, name, value)
        elif name.startswith("spirv."):
            from xgpu.dialects.gpu.spirv_attrs import verify_spirv_attribute

            verify_spirv_attribute(name, value)
