"""Host-side gpu ops (alloc, dealloc, memcpy, memset, host_register,
host_unregister, set_default_device): builders, printing, verifier messages,
memory effects and the async interface."""

from __future__ import annotations

from io import StringIO

import pytest
from xdsl.dialects.builtin import (
    AffineMapAttr,
    IndexType,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StridedLayoutAttr,
    UnrankedMemRefType,
    f32,
    i32,
)
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Attribute, Block, Operation, Region
from xdsl.ir.affine import AffineMap
from xdsl.printer import Printer
from xdsl.traits import MemoryEffectKind, get_effects
from xdsl.utils.exceptions import VerifyException

from xgpu.dialects.gpu.async_interface import AsyncOpInterface
from xgpu.dialects.gpu.host import (
    AllocOp,
    DeallocOp,
    HostRegisterOp,
    HostUnregisterOp,
    MemcpyOp,
    MemsetOp,
    SetDefaultDeviceOp,
    WaitOp,
    layout_num_symbols,
)
from xgpu.dialects.gpu.types import AsyncTokenType
from xgpu.ir.verifier import verify_ir

DYN = MemRefType(f32, [-(2**63)]).get_shape()[0]
STATIC = MemRefType(f32, [4])
DYNAMIC = MemRefType(f32, [DYN])


def _func(arg_types: list[Attribute], build) -> tuple[ModuleOp, list[Operation]]:
    """A module with one function whose body holds the ops `build(args)` returns."""
    block = Block(arg_types=arg_types)
    ops = build(block.args)
    block.add_ops([*ops, ReturnOp()])
    module = ModuleOp([FuncOp("f", (arg_types, []), Region(block))])
    return module, ops


def _verify_message(op: Operation) -> str:
    with pytest.raises(VerifyException) as info:
        op.verify_()
    return str(info.value.args[0])


def test_alloc_builder_sync_and_async():
    def build(args):
        token = WaitOp(is_async=True)
        sync = AllocOp(STATIC)
        shared = AllocOp(DYNAMIC, dynamic_sizes=[args[0]], host_shared=True)
        asynchronous = AllocOp(STATIC, deps=[token.async_token], is_async=True)
        return [token, sync, shared, asynchronous]

    module, (_, sync, shared, asynchronous) = _func([IndexType()], build)
    assert verify_ir(module) is None
    assert isinstance(sync, AsyncOpInterface)
    assert not sync.is_async and sync.token is None and sync.host_shared is None
    assert shared.host_shared is not None
    assert asynchronous.is_async and len(asynchronous.dependencies) == 1
    text = str(module)
    assert "= gpu.alloc  () : memref<4xf32>\n" in text
    assert "= gpu.alloc  host_shared (%0) : memref<?xf32>\n" in text
    # MLIR's result names; xDSL uniquifies the third `%memref` as `%memref_2`
    # where MLIR prints `%memref_1`.
    assert "%memref = gpu.alloc  () : memref<4xf32>\n" in text
    assert "%memref_2, %asyncToken = gpu.alloc async [%1] () : memref<4xf32>\n" in text


def test_alloc_generic_form_has_segments_and_host_shared_property():
    _, (op,) = _func([IndexType()], lambda a: [AllocOp(DYNAMIC, [a[0]], host_shared=True)])
    out = StringIO()
    Printer(stream=out, print_generic_format=True).print_op(op)
    assert "<{hostShared, operandSegmentSizes = array<i32: 0, 1, 0>}>" in out.getvalue()


def test_alloc_with_symbols_prints_them_in_brackets():
    layout = StridedLayoutAttr([1], None)
    ty = MemRefType(f32, [DYN], layout)
    module, (op,) = _func([IndexType(), IndexType()], lambda a: [AllocOp(ty, [a[0]], [a[1]])])
    assert verify_ir(module) is None
    assert "gpu.alloc  (%0)[%1] : memref<?xf32, strided<[1], offset: ?>>" in str(module)


def test_layout_num_symbols():
    assert layout_num_symbols(STATIC) == 0
    assert layout_num_symbols(MemRefType(f32, [4], StridedLayoutAttr([1], 0))) == 0
    assert layout_num_symbols(MemRefType(f32, [4], StridedLayoutAttr([None], None))) == 2
    assert layout_num_symbols(MemRefType(f32, [4, 4], StridedLayoutAttr([None, 1], 3))) == 1
    affine = AffineMapAttr(
        AffineMap.from_callable(lambda d0, s0, s1: (d0 + s0 + s1,), dim_symbol_split=(1, 2))
    )
    assert layout_num_symbols(MemRefType(f32, [4], affine)) == 2
    assert layout_num_symbols(MemRefType(f32, [4], NoneAttr())) == 0


def test_alloc_verifier_messages():
    _, (too_many,) = _func([IndexType()], lambda a: [AllocOp(DYNAMIC, [a[0], a[0]])])
    assert _verify_message(too_many) == "incorrect number of dynamic sizes, has 2, expected 1"
    _, (missing,) = _func([], lambda a: [AllocOp(MemRefType(f32, [DYN, DYN]))])
    assert _verify_message(missing) == "incorrect number of dynamic sizes, has 0, expected 2"
    _, (symbols,) = _func([IndexType()], lambda a: [AllocOp(STATIC, (), [a[0]])])
    assert _verify_message(symbols) == "symbol operand count does not equal memref symbol count"
    strided = MemRefType(f32, [4], StridedLayoutAttr([1], None))
    _, (no_symbols,) = _func([], lambda a: [AllocOp(strided)])
    assert _verify_message(no_symbols) == "symbol operand count does not equal memref symbol count"


def test_alloc_effect_is_on_the_result():
    _, (op,) = _func([], lambda a: [AllocOp(STATIC)])
    effects = get_effects(op)
    assert effects is not None
    assert {(e.kind, e.value) for e in effects} == {(MemoryEffectKind.ALLOC, op.memref)}


def test_dealloc_memcpy_memset_builders_and_effects():
    def build(args):
        m, n, v = args
        token = WaitOp(is_async=True)
        copy = MemcpyOp(m, n, deps=[token.async_token], is_async=True)
        fill = MemsetOp(m, v, deps=[copy.async_token])
        free = DeallocOp(n, is_async=True)
        return [token, copy, fill, free]

    module, (_, copy, fill, free) = _func([STATIC, DYNAMIC, f32], build)
    assert verify_ir(module) is None
    text = str(module)
    assert "%4 = gpu.memcpy async [%3] %0, %1 : memref<4xf32>, memref<?xf32>\n" in text
    assert "gpu.memset [%4] %0, %2 : memref<4xf32>, f32\n" in text
    assert "%5 = gpu.dealloc async %1 : memref<?xf32>\n" in text
    assert {(e.kind, e.value) for e in get_effects(copy) or ()} == {
        (MemoryEffectKind.WRITE, copy.dst),
        (MemoryEffectKind.READ, copy.src),
    }
    assert {(e.kind, e.value) for e in get_effects(fill) or ()} == {
        (MemoryEffectKind.WRITE, fill.dst)
    }
    assert {(e.kind, e.value) for e in get_effects(free) or ()} == {
        (MemoryEffectKind.FREE, free.memref)
    }


def test_sync_dealloc_prints_two_spaces():
    module, _ = _func([STATIC], lambda a: [DeallocOp(a[0])])
    assert "    gpu.dealloc  %0 : memref<4xf32>\n" in str(module)


def test_memcpy_verifier_messages():
    _, (elt,) = _func([STATIC, MemRefType(i32, [4])], lambda a: [MemcpyOp(a[0], a[1])])
    assert _verify_message(elt) == "arguments have incompatible element type"
    _, (shape,) = _func([STATIC, MemRefType(f32, [5])], lambda a: [MemcpyOp(a[0], a[1])])
    assert _verify_message(shape) == "arguments have incompatible shape"
    _, (rank,) = _func([DYNAMIC, MemRefType(f32, [2, 2])], lambda a: [MemcpyOp(a[0], a[1])])
    assert _verify_message(rank) == "arguments have incompatible shape"
    # A dynamic dimension is compatible with any size; memory spaces may differ.
    other_space = MemRefType(f32, [4], memory_space=i32)
    _, (ok,) = _func([DYNAMIC, other_space], lambda a: [MemcpyOp(a[0], a[1])])
    ok.verify_()


def test_memset_element_types_must_match():
    _, (bad,) = _func([STATIC, i32], lambda a: [MemsetOp(a[0], a[1])])
    assert (
        _verify_message(bad) == "failed to verify that all of {dst, value} have same element type"
    )


def test_host_register_and_unregister():
    unranked = UnrankedMemRefType(f32, NoneAttr())
    module, (reg, unreg) = _func(
        [unranked], lambda a: [HostRegisterOp(a[0]), HostUnregisterOp(a[0])]
    )
    assert verify_ir(module) is None
    text = str(module)
    assert "gpu.host_register %0 : memref<*xf32>\n" in text
    assert "gpu.host_unregister %0 : memref<*xf32>\n" in text


def test_set_default_device():
    module, (op,) = _func([i32], lambda a: [SetDefaultDeviceOp(a[0])])
    assert verify_ir(module) is None
    assert "gpu.set_default_device %0\n" in str(module)
    assert {e.kind for e in get_effects(op) or ()} == {MemoryEffectKind.WRITE}


@pytest.mark.parametrize(
    ("source", "message"),
    [
        (
            "%m = gpu.alloc () : tensor<4xf32>",
            "custom op 'gpu.alloc' invalid kind of type specified: expected builtin.memref, "
            "but found 'tensor<4xf32>'",
        ),
        (
            "gpu.dealloc %u : memref<*xf32>",
            "custom op 'gpu.dealloc' invalid kind of type specified: expected builtin.memref, "
            "but found 'memref<*xf32>'",
        ),
        (
            "gpu.host_register %m : memref<4xf32>",
            "custom op 'gpu.host_register' invalid kind of type specified: expected "
            "builtin.unranked_memref, but found 'memref<4xf32>'",
        ),
        (
            "gpu.host_unregister %m : memref<4xf32>",
            "custom op 'gpu.host_unregister' invalid kind of type specified: expected "
            "builtin.unranked_memref, but found 'memref<4xf32>'",
        ),
    ],
)
def test_type_kind_parse_errors(xgpu_opt, source: str, message: str):
    text = f"func.func @f(%m: memref<4xf32>, %u: memref<*xf32>) {{\n  {source}\n  return\n}}\n"
    result = xgpu_opt(text)
    assert result.rc != 0
    assert message in result.out + result.err
    assert "Traceback" not in result.out + result.err


def test_generic_ops_from_mlir_parse(xgpu_opt):
    text = """
func.func @f(%n: index, %t: !gpu.async.token, %m: memref<4xf32>, %v: f32) {
  %0:2 = "gpu.alloc"(%t, %n) <{hostShared, operandSegmentSizes = array<i32: 1, 1, 0>}> : (!gpu.async.token, index) -> (memref<?xf32>, !gpu.async.token)
  %1 = "gpu.dealloc"(%0#1, %0#0) : (!gpu.async.token, memref<?xf32>) -> !gpu.async.token
  "gpu.memcpy"(%m, %m) : (memref<4xf32>, memref<4xf32>) -> ()
  "gpu.memset"(%m, %v) : (memref<4xf32>, f32) -> ()
  return
}
"""
    result = xgpu_opt(text)
    assert result.rc == 0, result.err
    assert "gpu.alloc async [%t] host_shared (%n) : memref<?xf32>" in result.out
    assert "gpu.dealloc async [" in result.out
    assert "gpu.memcpy  %m, %m : memref<4xf32>, memref<4xf32>" in result.out
    assert "gpu.memset  %m, %v : memref<4xf32>, f32" in result.out


def test_async_token_type_of_results():
    _, (op,) = _func([], lambda a: [AllocOp(STATIC, is_async=True)])
    assert op.async_token is not None and op.async_token.type == AsyncTokenType()
    assert op.results[0] is op.memref


def test_alloc_add_async_dependency_updates_segments():
    _, (token, op) = _func(
        [IndexType()], lambda a: [WaitOp(is_async=True), AllocOp(DYNAMIC, [a[0]])]
    )
    op.add_async_dependency(token.async_token)
    assert op.dependencies == (token.async_token,)
    assert len(op.dynamic_sizes) == 1 and op.dynamic_sizes[0].type == IndexType()
    op.verify()
