"""The async-op interface shared by every asynchronous gpu op."""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Block, Region

from xgpu.dialects.gpu.async_interface import AsyncOpInterface, add_async_dependency
from xgpu.dialects.gpu.host import WaitOp
from xgpu.dialects.gpu.types import AsyncTokenType
from xgpu.ir.verifier import verify_ir


def _in_func(*ops) -> ModuleOp:
    block = Block(arg_types=[AsyncTokenType()])
    block.add_ops([*ops, ReturnOp()])
    func = FuncOp("f", ([AsyncTokenType()], []), Region(block))
    return ModuleOp([func])


def test_wait_builders_sync_and_async():
    t0 = WaitOp(is_async=True)
    t1 = WaitOp([t0.async_token], is_async=True)
    sync = WaitOp([t1.async_token])
    assert isinstance(t1, AsyncOpInterface)
    assert t0.token is not None and t0.is_async and t0.dependencies == ()
    assert t1.dependencies == (t0.async_token,)
    assert sync.token is None and not sync.is_async
    module = _in_func(t0, t1, sync)
    assert verify_ir(module) is None
    text = str(module)
    assert "%1 = gpu.wait async\n" in text
    assert "%2 = gpu.wait async [%1]" in text
    assert "gpu.wait [%2]" in text


def test_add_async_dependency_prepends_and_ignores_duplicates():
    t0 = WaitOp(is_async=True)
    t1 = WaitOp(is_async=True)
    join = WaitOp([t0.async_token], is_async=True)
    join.add_async_dependency(t1.async_token)
    assert join.dependencies == (t1.async_token, t0.async_token)
    add_async_dependency(join, t0.async_token)
    assert join.dependencies == (t1.async_token, t0.async_token)


def test_add_async_dependency_updates_operand_segments():
    from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, MemRefType, f32

    from xgpu.dialects.gpu.host import AllocOp

    block = Block(arg_types=[AsyncTokenType(), AsyncTokenType(), IndexType()])
    t_a, t_b, n = block.args
    alloc = AllocOp(MemRefType(f32, [DYNAMIC_INDEX]), dynamic_sizes=[n], deps=[t_a], is_async=True)
    block.add_op(alloc)
    alloc.add_async_dependency(t_b)
    assert alloc.dependencies == (t_b, t_a)
    assert tuple(alloc.properties["operandSegmentSizes"].get_values()) == (2, 1, 0)
    assert tuple(alloc.dynamic_sizes) == (n,)


def test_every_async_op_shares_the_interface():
    from xgpu.dialects.gpu import GPU

    async_ops = [op for op in GPU.operations if issubclass(op, AsyncOpInterface)]
    names = {op.name for op in async_ops}
    assert {
        "gpu.wait",
        "gpu.alloc",
        "gpu.memcpy",
        "gpu.launch",
        "gpu.launch_func",
        "gpu.spmv",
        "gpu.create_csr",
    } <= names
    for op in GPU.operations:
        definition = op.get_irdl_definition()
        results = [name for name, _ in definition.results]
        operands = [name for name, _ in definition.operands]
        if "async_token" in results:
            assert issubclass(op, AsyncOpInterface), op.name
            assert operands[0] == "async_dependencies", op.name
