"""Host code: the gpu ops (see `compile_host` for the compiler).

Each handler writes a call of the run's GPU runtime (`opencl_device.GpuRuntime`
or the simulator's `sim_device.SimRuntime`, bound as `_gpu`), with the op's
token dependencies as one tuple of events (`_deps`) and whether it is async;
`gpu.launch_func` calls the launcher generated for its site (`kernels`).
"""

from __future__ import annotations

from xdsl.dialects import builtin
from xdsl.ir import Block, Operation, SSAValue

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


def _launcher(c: HostCompiler, op: Operation) -> str:
    """The name the launcher of `op` is bound to (asked of the hooks once per op)."""
    name = c.launchers.get(op)
    if name is None:
        name = c.launchers[op] = c.bind(c.hooks.launcher(op), "L")
    return name


def _launch_args(c: HostCompiler, op: Operation) -> list[str]:
    """The launcher's arguments after the dependencies: sizes, dynamic shared
    memory, kernel operands."""
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
    return [*dims, shmem, *c.vs(op.kernel_operands)]


def _h_gpu_launch_func(c: HostCompiler, op: Operation) -> None:
    _gpu(c)
    if op.async_object is not None:
        raise HostCompileError(op, "gpu.launch_func with an async object is not supported")
    if op.cluster_size_x is not None:
        raise HostCompileError(op, "thread block clusters are not supported on OpenCL")
    launcher = _launcher(c, op)
    args = ", ".join([_deps(c, op), *_launch_args(c, op)])
    c.w(f"{_token_target(c, op)} = {launcher}({args})", op)


def _defined_in(value: SSAValue, loop: Operation) -> bool:
    """Whether `value` is defined in `loop`'s region (a block argument of it
    or the result of an op nested in it)."""
    owner = value.owner
    op = owner.parent_op() if isinstance(owner, Block) else owner
    while op is not None:
        if op is loop:
            return True
        op = op.parent_op()
    return False


def repeated_launch(c: HostCompiler, loop: Operation) -> bool:
    """Write `loop` (an `scf.for`) as one call of its launcher's `repeat`
    (`launch_repeat`) when its body is only `gpu.launch_func async [%t]`
    and `scf.yield` of that launch's token, `%t` being the loop's only
    iter_arg and the launch's only dependency, every other operand of the
    launch defined outside the loop, and the launcher has a `repeat` (OpenCL;
    the simulator's launchers have none). Its iterations are then n chained
    launches with the same sizes and operands. Returns whether it did;
    otherwise nothing is written."""
    body = loop.body.block
    ops = list(body.ops)
    if len(ops) != 2 or len(body.args) != 2 or len(loop.iter_args) != 1:
        return False
    launch, term = ops
    if launch.name != "gpu.launch_func" or term.name != "scf.yield":
        return False
    if "unsignedCmp" in loop.properties or "unsignedCmp" in loop.attributes:
        return False
    token = body.args[1]
    if launch.async_token is None or list(term.operands) != [launch.async_token]:
        return False
    if list(launch.async_dependencies) != [token]:
        return False
    if launch.async_object is not None or launch.cluster_size_x is not None:
        return False
    others = [o for o in launch.operands if o is not token]
    if len(others) != len(launch.operands) - 1 or any(_defined_in(v, loop) for v in others):
        return False
    # Host code writes nothing at the top of an iteration (a traced run on
    # the simulator does; its launchers have no `repeat` anyway).
    if getattr(c.loop_top, "__func__", None) is not HostCompiler.loop_top:
        return False
    if getattr(c.hooks, "launcher", None) is None:
        return False
    _gpu(c)
    c.current_op = launch
    launcher = _launcher(c, launch)
    if getattr(c.ns[launcher], "repeat", None) is None:
        return False
    carried = c.v(token)
    c.assign([carried], c.vs(loop.iter_args), loop)
    count = c.fresh("n")
    c.w(f"{count} = len(range({c.v(loop.lb)}, {c.v(loop.ub)}, {c.v(loop.step)}))", loop)
    c.w(f"if {count} > 0:", loop)
    c.w.indent += 1
    args = ", ".join([count, carried, *_launch_args(c, launch)])
    c.w(f"{carried} = {launcher}.repeat({args})", launch)
    c.w.indent -= 1
    c.assign(c.vs(loop.results), [carried])
    return True


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
