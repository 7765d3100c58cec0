"""What `xgpu.runtime.api.load` does to a verified module before it runs:
affine ops lowered (`xgpu.transforms.lower_affine`), vector values made into
their elements (`xgpu.transforms.scalarize_vectors`), `gpu.launch` outlined
and the kernels it makes named by their launch (`kernel_name`). A module
the caller passed in (`shared`) is cloned first when anything changes."""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import ModuleOp, VectorType

from xgpu import diagnostics
from xgpu.diagnostics import SourceFiles, location_of


def prepare(module: ModuleOp, shared: bool, ctx: Any, sources: SourceFiles) -> ModuleOp:
    """The module to run (see the module docstring)."""
    from xgpu.runtime.api import _error

    names: set[str] = set()
    vectors = False
    for op in module.walk():
        names.add(op.name)
        if not vectors and (
            op.name == "vector.print" or any(isinstance(r.type, VectorType) for r in op.results)
        ):
            vectors = True
    affine = None
    if any(n.startswith("affine.") for n in names):
        from xgpu.transforms import lower_affine as affine
    lowered = affine is not None and not names.isdisjoint(affine.LOWERED)
    if "gpu.launch" in names or lowered or vectors:
        if shared:
            module = module.clone()
    if lowered:
        assert affine is not None
        affine.lower_affine(ctx, module)
    if vectors:
        from xgpu.transforms.scalarize_vectors import ScalarizeError, scalarize_vectors

        try:
            scalarize_vectors(ctx, module)
        except ScalarizeError as err:
            raise _error(err.op, err.message, sources) from None
    if "gpu.launch" in names:
        _outline(module, ctx, sources)
    return module


def _outline(module: ModuleOp, ctx: Any, sources: SourceFiles) -> None:
    try:
        from xgpu.transforms.kernel_outlining import GpuKernelOutliningPass
    except ImportError:  # pragma: no cover - the pass ships with xgpu
        op = next(o for o in module.walk() if o.name == "gpu.launch")
        from xgpu.runtime.api import _error

        raise _error(op, "gpu.launch needs the gpu-kernel-outlining pass", sources) from None
    before = {id(op) for op in module.body.block.ops}
    with diagnostics.collecting() as engine:
        GpuKernelOutliningPass().apply(ctx, module)
    errors = [d for d in engine.diagnostics if d.severity == "error"]
    if errors:
        from xgpu.runtime.api import RunError

        raise RunError(errors[0], sources)
    _name_outlined(module, before)


def _name_outlined(module: ModuleOp, before: set[int]) -> None:
    """Mark each kernel the outlining made with the `gpu.launch` it came from
    (its launch_func has the launch's location), which messages show in
    place of the made-up `@main_kernel::@main_kernel` (`kernel_name`)."""
    from xdsl.dialects.builtin import StringAttr

    from xgpu.runtime.memref import OUTLINED_FROM

    made = {
        op.sym_name.data: op
        for op in module.body.block.ops
        if op.name == "gpu.module" and id(op) not in before
    }
    if not made:
        return
    for op in module.walk():
        if op.name != "gpu.launch_func":
            continue
        ref = op.kernel
        gm = made.get(ref.root_reference.data)
        if gm is None or not ref.nested_references.data:
            continue
        name = ref.nested_references.data[-1].data
        func = next(
            (
                f
                for f in gm.body.block.ops
                if getattr(f, "sym_name", None) is not None and f.sym_name.data == name
            ),
            None,
        )
        where = location_of(op)
        if func is not None:
            text = "gpu.launch" if where is None else f"gpu.launch at {where}"
            func.attributes[OUTLINED_FROM] = StringAttr(text)
