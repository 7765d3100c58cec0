"""Build a GPU program with xgpu's Python builders (no MLIR text), verify it
and print it: a kernel that doubles a buffer, and a host function that copies
the buffer to the device, launches the kernel and copies it back, all chained
by async tokens.

    python examples/build_ir.py
"""

from __future__ import annotations

from xdsl.builder import ImplicitBuilder
from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    MemRefType,
    ModuleOp,
    SymbolRefAttr,
    UnitAttr,
    f32,
)
from xdsl.ir import Block, Region

from xgpu.dialects.gpu.attributes import Dimension
from xgpu.dialects.gpu.func import GPUFuncOp, ReturnOp
from xgpu.dialects.gpu.host import AllocOp, MemcpyOp, WaitOp
from xgpu.dialects.gpu.kernel import ThreadIdOp
from xgpu.dialects.gpu.launch_func import LaunchFuncOp
from xgpu.dialects.gpu.module import GPUModuleOp
from xgpu.ir.printer import print_mlir
from xgpu.ir.verifier import verify_ir


def build() -> ModuleOp:
    buf_type = MemRefType(f32, [DYNAMIC_INDEX])

    # gpu.module @kernels { gpu.func @double(%buf) kernel { ... } }
    kernel = GPUFuncOp("double", [buf_type], kernel=True)
    with ImplicitBuilder(kernel.body.block) as (buf,):
        tid = ThreadIdOp(Dimension.X)
        value = memref.LoadOp.get(buf, [tid.result])
        twice = arith.AddfOp(value.res, value.res)
        memref.StoreOp.get(twice.result, buf, [tid.result])
        ReturnOp()
    kernels = GPUModuleOp("kernels", [kernel])

    # func.func @main(%host: memref<?xf32>, %n: index)
    block = Block(arg_types=[buf_type, IndexType()])
    host, n = block.args
    with ImplicitBuilder(block):
        one = arith.ConstantOp.from_int_and_width(1, IndexType())
        t0 = WaitOp(is_async=True)
        dev = AllocOp(buf_type, dynamic_sizes=[n], deps=[t0.async_token], is_async=True)
        t1 = MemcpyOp(dev.memref, host, deps=[dev.async_token], is_async=True)
        t2 = LaunchFuncOp(
            SymbolRefAttr("kernels", ["double"]),
            grid=[one.result] * 3,
            block=[n, one.result, one.result],
            args=[dev.memref],
            deps=[t1.async_token],
            is_async=True,
        )
        t3 = MemcpyOp(host, dev.memref, deps=[t2.async_token], is_async=True)
        WaitOp([t3.async_token])
        func.ReturnOp()
    main = func.FuncOp("main", ([buf_type, IndexType()], []), Region(block))

    module = ModuleOp([kernels, main])
    module.attributes["gpu.container_module"] = UnitAttr()
    return module


if __name__ == "__main__":
    module = build()
    diag = verify_ir(module)
    assert diag is None, diag
    print(print_mlir(module))
