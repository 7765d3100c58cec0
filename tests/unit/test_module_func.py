"""gpu.module, gpu.func and gpu.return: builders, accessors, printing and the
verifier messages of MLIR 22."""

from __future__ import annotations

from io import StringIO

import pytest
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    FunctionType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
    UnitAttr,
    f32,
    i32,
    i64,
)
from xdsl.dialects.func import FuncOp
from xdsl.dialects.func import ReturnOp as FuncReturnOp
from xdsl.ir import Attribute, Block, Operation, Region
from xdsl.traits import CallableOpInterface, SymbolTable
from xdsl.utils.exceptions import VerifyException

from xgpu.diagnostics import OpDiagnostic
from xgpu.dialects.gpu.func import GPUFuncOp, ReturnOp
from xgpu.dialects.gpu.module import GPUModuleOp
from xgpu.ir.printer import MLIRPrinter
from xgpu.ir.verifier import verify_ir
from xgpu.tools.xgpu_opt import parse

DYNAMIC_INDEX = -(2**63)

WG = MemRefType(f32, [32], memory_space=IntegerAttr(3, i64))
PRIV = MemRefType(f32, [4], memory_space=IntegerAttr(5, i64))
DYNAMIC = MemRefType(f32, [DYNAMIC_INDEX])


def _print(op: Operation) -> str:
    out = StringIO()
    MLIRPrinter(stream=out).print_op(op)
    return out.getvalue()


def _message(op: Operation) -> str:
    with pytest.raises(VerifyException) as info:
        op.verify_()
    return str(info.value.args[0])


def _kernel_module(func: GPUFuncOp) -> ModuleOp:
    return ModuleOp([GPUModuleOp("kernels", [func])])


# ------------------------------------------------------------------ builders


def test_module_builder_has_one_block():
    module = GPUModuleOp("empty")
    assert len(module.body.blocks) == 1
    assert module.sym_name == StringAttr("empty")
    assert module.targets is None and module.offloading_handler is None
    assert _print(module) == "gpu.module @empty {\n}"
    assert verify_ir(ModuleOp([module])) is None


def test_module_builder_properties_and_attributes():
    module = GPUModuleOp("m", attributes={"zz": UnitAttr(), "aa": i32})
    assert _print(module) == "gpu.module @m attributes {aa = i32, zz} {\n}"
    assert set(module.properties) == {"sym_name"}


def test_func_builder_kernel_with_attributions():
    func = GPUFuncOp(
        "k",
        [f32, DYNAMIC],
        kernel=True,
        workgroup_attributions=[WG],
        private_attributions=[PRIV],
        known_block_size=[32, 1, 1],
        arg_attrs=[{"my.a": UnitAttr()}, {}],
    )
    func.body.block.add_op(ReturnOp())
    module = _kernel_module(func)
    assert verify_ir(module) is None

    assert func.is_kernel
    assert func.num_workgroup_attributions == 1
    assert [a.type for a in func.arguments] == [f32, DYNAMIC]
    assert [a.type for a in func.workgroup_attribution_args] == [WG]
    assert [a.type for a in func.private_attribution_args] == [PRIV]
    assert func.known_block_size == DenseArrayBase.from_list(i32, [32, 1, 1])
    assert func.attributes["workgroup_attributions"] == IntegerAttr(1, i64)
    assert func.attributes["gpu.kernel"] == UnitAttr()
    assert func.attributes["sym_name"] == StringAttr("k")

    assert _print(func) == (
        "gpu.func @k(%0: f32 {my.a}, %1: memref<?xf32>) "
        "workgroup(%2 : memref<32xf32, 3>) private(%3 : memref<4xf32, 5>) "
        "kernel attributes {known_block_size = array<i32: 32, 1, 1>} {\n"
        "  gpu.return\n"
        "}"
    )


def test_func_builder_results_and_return():
    func = GPUFuncOp("f", [f32], [f32], res_attrs=[{"my.r": i32}])
    func.body.block.add_op(ReturnOp(func.arguments[0]))
    assert verify_ir(_kernel_module(func)) is None
    assert not func.is_kernel
    assert _print(func) == (
        "gpu.func @f(%0: f32) -> (f32 {my.r = i32}) {\n  gpu.return %0 : f32\n}"
    )


def test_add_attributions_keep_the_order():
    func = GPUFuncOp("k", [f32], private_attributions=[PRIV])
    wg = func.add_workgroup_attribution(WG)
    priv2 = func.add_private_attribution(PRIV)
    assert func.workgroup_attribution_args == (wg,)
    assert func.private_attribution_args[-1] is priv2
    assert [a.type for a in func.body.block.args] == [f32, WG, PRIV, PRIV]
    func.is_kernel = True
    assert func.is_kernel
    func.is_kernel = False
    assert "gpu.kernel" not in func.attributes


def test_callable_and_symbol_interfaces():
    func = GPUFuncOp("f", [f32], [i32], workgroup_attributions=[WG])
    iface = GPUFuncOp.get_trait(CallableOpInterface)
    assert iface is not None
    assert iface.get_argument_types(func) == (f32,)
    assert iface.get_result_types(func) == (i32,)
    assert iface.get_callable_region(func) is func.body
    module = GPUModuleOp("m", [func])
    ModuleOp([module])
    assert SymbolTable.lookup_symbol(module, "f") is func


# ------------------------------------------------------------------ parsing


def test_parse_print_round_trip():
    text = (
        "gpu.module @m <#gpu.select_object<1>> [#nvvm.target] attributes {x} {\n"
        "  gpu.func @k(%a: f32) workgroup(%w : memref<4xf32, 3> {my.w}) kernel "
        "attributes {known_grid_size = array<i32: 1, 2, 3>} {\n"
        "    gpu.return\n"
        "  }\n"
        "}\n"
    )
    module = parse(text)
    assert verify_ir(module) is None
    gmod = module.body.block.first_op
    assert isinstance(gmod, GPUModuleOp)
    assert gmod.targets is not None and len(gmod.targets) == 1
    func = gmod.body.block.first_op
    assert isinstance(func, GPUFuncOp)
    assert func.is_kernel and func.num_workgroup_attributions == 1
    assert func.workgroup_attrib_attrs == ArrayAttr([DictionaryAttr({"my.w": UnitAttr()})])
    assert func.arg_attrs is None
    assert _print(gmod) == (
        "gpu.module @m<#gpu.select_object<1 : i64>> [#nvvm.target] attributes {x} {\n"
        "  gpu.func @k(%a: f32) workgroup(%w : memref<4xf32, 3> {my.w}) kernel "
        "attributes {known_grid_size = array<i32: 1, 2, 3>} {\n"
        "    gpu.return\n"
        "  }\n"
        "}"
    )


def test_wrongly_typed_known_size_in_dict_is_dropped_as_in_mlir():
    module = parse(
        "gpu.module @m {\n  gpu.func @k() attributes "
        "{known_grid_size = array<i64: 1, 2, 3>, other = 1 : i32} {\n    gpu.return\n  }\n}\n"
    )
    func = next(op for op in module.walk() if isinstance(op, GPUFuncOp))
    assert func.known_grid_size is None
    assert func.attributes["other"] == IntegerAttr(1, i32)


def test_unnamed_arguments_are_rejected():
    from xdsl.utils.exceptions import ParseError

    with pytest.raises(ParseError, match="gpu.func requires named arguments"):
        parse("gpu.module @m {\n  gpu.func @k(f32) {\n    gpu.return\n  }\n}\n")


def test_empty_body_has_no_block():
    module = parse("gpu.module @m {\n  gpu.func @k() {\n  }\n}\n")
    func = next(op for op in module.walk() if isinstance(op, GPUFuncOp))
    assert not func.body.blocks
    assert _message(func) == "expected body with at least one block"


# ------------------------------------------------------------------ verifier


def _func_in_module(func: GPUFuncOp) -> GPUFuncOp:
    _kernel_module(func)
    return func


def test_kernel_must_return_void():
    func = _func_in_module(GPUFuncOp("k", [], [f32], kernel=True))
    assert _message(func) == "expected void return type for kernel function"


def test_parent_must_be_gpu_module():
    func = GPUFuncOp("k", [])
    func.body.block.add_op(ReturnOp())
    outer = FuncOp("f", ([], []), Region(Block([func, FuncReturnOp()])))
    ModuleOp([outer])
    assert _message(func) == "expects parent op 'gpu.module'"


def test_too_few_block_arguments():
    func = _func_in_module(GPUFuncOp("k", [f32], body=Region(Block([ReturnOp()]))))
    assert _message(func) == "expected at least 1 arguments to body region"


def test_block_argument_type():
    body = Region(Block([ReturnOp()], arg_types=[i32]))
    func = _func_in_module(GPUFuncOp("k", [f32], body=body))
    assert _message(func) == "expected body region argument #0 to be of type 'f32', got 'i32'"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"workgroup_attributions": [f32]}, "expected memref type in attribution"),
        ({"private_attributions": [f32]}, "expected memref type in attribution"),
    ],
)
def test_attribution_types(kwargs: dict[str, list[Attribute]], message: str):
    func = _func_in_module(GPUFuncOp("k", [], **kwargs))  # pyright: ignore
    func.body.block.add_op(ReturnOp())
    assert _message(func) == message


def test_attribution_address_spaces():
    module = parse(
        "gpu.module @m {\n  gpu.func @k() workgroup(%w : memref<4xf32, "
        "#gpu.address_space<private>>) {\n    gpu.return\n  }\n}\n"
    )
    func = next(op for op in module.walk() if isinstance(op, GPUFuncOp))
    assert _message(func) == "expected memory space workgroup in attribution"
    module = parse(
        "gpu.module @m {\n  gpu.func @k() private(%p : memref<4xf32, "
        "#gpu.address_space<workgroup>>) {\n    gpu.return\n  }\n}\n"
    )
    func = next(op for op in module.walk() if isinstance(op, GPUFuncOp))
    assert _message(func) == "expected memory space private in attribution"


@pytest.mark.parametrize("prop", ["known_block_size", "known_grid_size", "known_cluster_size"])
def test_known_sizes_need_three_i32(prop: str):
    func = _func_in_module(GPUFuncOp("k", [], **{prop: [1, 2]}))  # pyright: ignore
    func.body.block.add_op(ReturnOp())
    assert _message(func) == (
        f"attribute '{prop}' failed to satisfy constraint: "
        "i32 dense array attribute with 3 elements (if present)"
    )


def test_arg_and_result_attribute_arrays():
    func = _func_in_module(GPUFuncOp("k", [f32], arg_attrs=[{}, {}]))
    func.body.block.add_op(ReturnOp())
    assert _message(func) == (
        "expects argument attribute array to have the same number of elements as the "
        "number of function arguments, got 2, but expected 1"
    )
    func = _func_in_module(GPUFuncOp("k", [f32], arg_attrs=[{"plain": UnitAttr()}]))
    func.body.block.add_op(ReturnOp())
    assert _message(func) == "arguments may only have dialect attributes"
    func = _func_in_module(GPUFuncOp("k", [], [f32], res_attrs=[{"plain": UnitAttr()}]))
    assert _message(func) == "results may only have dialect attributes"


def test_return_count_has_a_note():
    func = GPUFuncOp("f", [], [f32])
    ret = ReturnOp()
    func.body.block.add_op(ret)
    _kernel_module(func)
    with pytest.raises(OpDiagnostic) as info:
        ret.verify_()
    assert info.value.message == "expected 1 result operands"
    assert info.value.notes == [(func, "return type declared here")]


def test_return_type():
    func = GPUFuncOp("f", [i32], [f32])
    ret = ReturnOp(func.arguments[0])
    func.body.block.add_op(ret)
    _kernel_module(func)
    assert _message(ret) == "unexpected type `'i32'' for operand #0"


def test_return_parent():
    ret = ReturnOp()
    FuncOp("f", ([], []), Region(Block([ret])))
    assert _message(ret) == "expects parent op 'gpu.func'"


def test_module_targets_constraint():
    module = GPUModuleOp("m", targets=[])
    assert _message(module) == (
        "attribute 'targets' failed to satisfy constraint: "
        "array of GPU target attributes with at least 1 elements"
    )
    module = GPUModuleOp("m", targets=[IntegerAttr(1, i32)])
    assert "array of GPU target attributes" in _message(module)


def test_module_handler_constraint():
    module = GPUModuleOp("m", offloading_handler=IntegerAttr(1, i32))
    assert _message(module) == (
        "attribute 'offloadingHandler' failed to satisfy constraint: "
        "any attribute with the `OffloadingTranslationAttrTrait` trait."
    )


def test_module_block_count():
    module = GPUModuleOp("m", Region([Block(), Block()]))
    assert _message(module) == "expects region #0 to have 0 or 1 blocks"
    module = GPUModuleOp("m")
    module.body.detach_block(module.body.block)
    assert _message(module) == (
        "region #0 ('bodyRegion') failed to verify constraint: region with 1 blocks"
    )


def test_module_duplicate_symbol():
    first, second = GPUFuncOp("k", []), GPUFuncOp("k", [])
    for f in (first, second):
        f.body.block.add_op(ReturnOp())
    module = GPUModuleOp("m", [first, second])
    with pytest.raises(OpDiagnostic) as info:
        module.verify_()
    assert info.value.message == "redefinition of symbol named 'k'"
    assert info.value.op is second
    assert info.value.notes == [(first, "see existing symbol definition here")]


def test_function_type_constraint_message():
    func = _func_in_module(GPUFuncOp("k", FunctionType.from_lists([], [])))
    func.body.block.add_op(ReturnOp())
    func.properties["function_type"] = i32
    assert _message(func) == (
        "attribute 'function_type' failed to satisfy constraint: type attribute of function type"
    )
