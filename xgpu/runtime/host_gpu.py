"""Host code: the gpu ops (see `compile_host` for the compiler).

Each handler writes a call of the run's GPU runtime (`opencl_device.GpuRuntime`
or the simulator's `sim_device.SimRuntime`, bound as `_gpu`), with the op's
token dependencies as one tuple of events (`_deps`) and whether it is async;
`gpu.launch_func` calls the launcher generated for its site (`kernels`).
"""

from __future__ import annotations

from xdsl.dialects import builtin
from xdsl.ir import Operation

from xgpu.runtime import flat
from xgpu.runtime.compile_host import HostCompileError, HostCompiler, _dtype_of, _sizes_expr
from xgpu.runtime.memref import RuntimeFailure, allocation_label

# -- gpu ops ------------------------------------------------------------------ #


def _deps(c: HostCompiler, op: Operation) -> str:
    deps = c.vs(op.async_dependencies)
    if not deps:
        return "()"
    if len(deps) == 1:
        return deps[0]
    return flat.chain(deps, " + ")


def _is_async(op: Operation) -> bool:
    return op.async_token is not None


def _gpu(c: HostCompiler) -> str:
    if "_gpu" not in c.ns:
        lazy = getattr(c.hooks, "lazy_gpu", None)
        gpu = lazy(c.ns) if lazy is not None else None
        if gpu is None:
            gpu = c.hooks.gpu()
        c.ns["_gpu"] = gpu
        c.ns["_tok"] = gpu.tokens
    return "_gpu"


def _op_arg(c: HostCompiler, op: Operation) -> str:
    """`, OP` where the runtime wants the op (the simulator runs async ops
    later and reports their failures at them), else nothing."""
    if getattr(c.hooks, "pass_ops", False):
        return f", {c.bind(op, 'op')}"
    return ""


def _token_target(c: HostCompiler, op: Operation) -> str:
    return c.v(op.async_token) if op.async_token is not None else "_"


def _h_gpu_wait(c: HostCompiler, op: Operation) -> None:
    _gpu(c)
    deps = c.vs(op.async_dependencies)
    if op.async_token is not None:
        token = c.v(op.async_token)
        if not deps:
            c.w(f"{token} = ()", op)
        elif len(deps) == 1:
            c.w(f"{token} = {deps[0]}", op)
        else:
            c.w(f"{token} = _tok.join({', '.join(deps)})", op)
    elif deps:
        c.w(f"_tok.wait({flat.chain(deps, ' + ')})", op)
    else:
        c.w("_tok.wait_all()", op)


def _h_gpu_alloc(c: HostCompiler, op: Operation) -> None:
    g = _gpu(c)
    mtype = op.memref.type
    if not isinstance(mtype.layout, builtin.NoneAttr):
        raise HostCompileError(op, "gpu.alloc of a memref with a layout is not supported")
    if op.symbol_operands:
        raise HostCompileError(op, "gpu.alloc with symbol operands is not supported")
    dtype = c.bind(_dtype_of(op, mtype), "dt")
    sizes = _sizes_expr(c, mtype, op.dynamic_sizes)
    shared = op.host_shared is not None
    c.w(
        f"{c.v(op.memref)}, {_token_target(c, op)} = {g}.alloc({dtype}, {sizes}, {shared}, "
        f"{_deps(c, op)}, {_is_async(op)}{_op_arg(c, op)})",
        op,
    )
    if getattr(c.hooks, "name_storages", False) and not getattr(c.hooks, "pass_ops", False):
        # OpenCL's bounds checks name the buffer as the simulator does.
        c.w(f"{c.v(op.memref)}.storage.name = {allocation_label(op)!r}", op)


def _h_gpu_dealloc(c: HostCompiler, op: Operation) -> None:
    g = _gpu(c)
    c.w(
        f"{_token_target(c, op)} = {g}.dealloc({c.v(op.memref)}, {_deps(c, op)}, "
        f"{_is_async(op)}{_op_arg(c, op)})",
        op,
    )


def _h_gpu_memcpy(c: HostCompiler, op: Operation) -> None:
    g = _gpu(c)
    c.w(
        f"{_token_target(c, op)} = {g}.memcpy({c.v(op.dst)}, {c.v(op.src)}, {_deps(c, op)}, "
        f"{_is_async(op)}{_op_arg(c, op)})",
        op,
    )


def _h_gpu_memset(c: HostCompiler, op: Operation) -> None:
    g = _gpu(c)
    c.w(
        f"{_token_target(c, op)} = {g}.memset({c.v(op.dst)}, {c.v(op.value)}, {_deps(c, op)}, "
        f"{_is_async(op)}{_op_arg(c, op)})",
        op,
    )


def _h_gpu_host_register(c: HostCompiler, op: Operation) -> None:
    g = _gpu(c)
    method = "host_register" if op.name == "gpu.host_register" else "host_unregister"
    c.w(f"{g}.{method}({c.v(op.value)}{_op_arg(c, op)})", op)


def _h_gpu_set_default_device(c: HostCompiler, op: Operation) -> None:
    _gpu(c)
    check = c.bind(_set_default_device, "sd")
    c.w(f"{check}({c.v(op.dev_index)})", op)


def _set_default_device(index: int) -> None:
    if index != 0:
        raise RuntimeFailure(
            f"gpu.set_default_device {index}: xgpu-run uses one OpenCL device (index 0)"
        )


def _h_gpu_launch_func(c: HostCompiler, op: Operation) -> None:
    _gpu(c)
    if op.async_object is not None:
        raise HostCompileError(op, "gpu.launch_func with an async object is not supported")
    if op.cluster_size_x is not None:
        raise HostCompileError(op, "thread block clusters are not supported on OpenCL")
    launcher = c.bind(c.hooks.launcher(op), "L")
    dims = c.vs(
        [
            op.grid_size_x,
            op.grid_size_y,
            op.grid_size_z,
            op.block_size_x,
            op.block_size_y,
            op.block_size_z,
        ]
    )
    shmem = c.v(op.dynamic_shared_memory_size) if op.dynamic_shared_memory_size else "0"
    args = ", ".join([_deps(c, op), *dims, shmem, *c.vs(op.kernel_operands)])
    c.w(f"{_token_target(c, op)} = {launcher}({args})", op)


def _h_gpu_launch(c: HostCompiler, op: Operation) -> None:
    raise HostCompileError(op, "gpu.launch must be outlined first (gpu-kernel-outlining)")


HANDLERS = {
    "gpu.wait": _h_gpu_wait,
    "gpu.alloc": _h_gpu_alloc,
    "gpu.dealloc": _h_gpu_dealloc,
    "gpu.memcpy": _h_gpu_memcpy,
    "gpu.memset": _h_gpu_memset,
    "gpu.host_register": _h_gpu_host_register,
    "gpu.host_unregister": _h_gpu_host_register,
    "gpu.set_default_device": _h_gpu_set_default_device,
    "gpu.launch_func": _h_gpu_launch_func,
    "gpu.launch": _h_gpu_launch,
}
