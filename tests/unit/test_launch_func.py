"""gpu.launch_func: builder, printing, operand segments, the container-module
and kernel-symbol verifier, and the async interface."""

from __future__ import annotations

from io import StringIO

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import Builtin, IndexType, ModuleOp, SymbolRefAttr, i32, i64
from xdsl.dialects.func import Func
from xdsl.dialects.scf import Scf
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from xgpu.diagnostics import OpDiagnostic
from xgpu.dialects.gpu import GPU
from xgpu.dialects.gpu.async_interface import AsyncOpInterface
from xgpu.dialects.gpu.launch_func import LaunchFuncOp, lookup_nested_symbol
from xgpu.ir.verifier import verify_ir

KERNELS = """
  gpu.module @kernels {
    gpu.func @noargs() kernel {
      gpu.return
    }
    gpu.func @twoargs(%a: f32, %b: i32) kernel {
      gpu.return
    }
    gpu.func @device(%a: f32) {
      gpu.return
    }
  }
"""


def _parse(text: str) -> ModuleOp:
    ctx = Context()
    for dialect in (Builtin, Func, Scf, GPU):
        ctx.load_dialect(dialect)
    return Parser(ctx, text).parse_module()


def _module(body: str, attrs: str = "attributes {gpu.container_module}") -> ModuleOp:
    return _parse(
        f"builtin.module {attrs} {{\n{KERNELS}\n"
        "  func.func @host(%c: index, %i: i32, %l: i64, %x: f32, %t: !gpu.async.token) {\n"
        f"{body}\n    func.return\n  }}\n}}\n"
    )


def _launches(module: ModuleOp) -> list[LaunchFuncOp]:
    return [op for op in module.walk() if isinstance(op, LaunchFuncOp)]


def _error(module: ModuleOp) -> VerifyException:
    (launch,) = _launches(module)
    with pytest.raises(VerifyException) as info:
        launch.verify_()
    return info.value


def _host_block(module: ModuleOp):
    func = next(op for op in module.walk() if op.name == "func.func")
    return func.regions[0].blocks[0]


def _generic(op: Operation) -> str:
    out = StringIO()
    Printer(stream=out, print_generic_format=True).print_op(op)
    return out.getvalue()


def test_builder_minimal_launch_verifies_and_prints():
    module = _module("")
    block = _host_block(module)
    c = block.args[0]
    launch = LaunchFuncOp(SymbolRefAttr("kernels", ["noargs"]), (c, c, c), (c, c, c))
    block.insert_op_before(launch, block.last_op)
    assert verify_ir(module) is None
    assert isinstance(launch, AsyncOpInterface) and not launch.is_async
    assert launch.kernel_module_name == "kernels" and launch.kernel_name == "noargs"
    text = str(module)
    assert (
        "    gpu.launch_func  @kernels::@noargs blocks in (%c, %c, %c) threads in (%c, %c, %c)  \n"
        in text
    )
    assert "operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>" in _generic(
        launch
    )


def test_builder_every_option():
    module = _module("")
    block = _host_block(module)
    c, i, _, x, t = block.args
    launch = LaunchFuncOp(
        SymbolRefAttr("kernels", ["twoargs"]),
        grid=(c, c, c),
        block=(c, c, c),
        args=[x, i],
        deps=[t],
        is_async=True,
        cluster=(c, c, c),
        dynamic_shared_memory_size=i,
        async_object=t,
    )
    block.insert_op_before(launch, block.last_op)
    assert verify_ir(module) is None
    assert launch.is_async and launch.dependencies == (t,)
    assert launch.cluster_sizes == (c, c, c)
    assert launch.async_object is t
    assert "array<i32: 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1>" in _generic(launch)
    assert (
        "%0 = gpu.launch_func async [%t]<%t : !gpu.async.token> @kernels::@twoargs "
        "clusters in (%c, %c, %c) blocks in (%c, %c, %c) threads in (%c, %c, %c)  "
        "dynamic_shared_memory_size %i args(%x : f32, %i : i32)\n"
    ) in str(module)


def test_builder_rejects_wrong_dimension_count():
    module = _module("")
    c = _host_block(module).args[0]
    with pytest.raises(ValueError, match="three values"):
        LaunchFuncOp(SymbolRefAttr("kernels", ["noargs"]), (c, c), (c, c, c))


def test_launch_dim_type_printed_only_when_not_index():
    module = _module(
        "    gpu.launch_func @kernels::@noargs blocks in (%i, %i, %i) threads in (%i, %i, %i) : i32\n"
        "    gpu.launch_func @kernels::@noargs clusters in (%l, %l, %l) blocks in (%l, %l, %l)"
        " threads in (%l, %l, %l) : i64\n"
        "    gpu.launch_func @kernels::@noargs blocks in (%c, %c, %c) threads in (%c, %c, %c) : index"
    )
    assert verify_ir(module) is None
    a, b, c = _launches(module)
    assert a.grid_size_x.type == i32 and b.cluster_size_z is not None
    assert b.cluster_size_z.type == i64 and c.block_size_z.type == IndexType()
    text = str(module)
    assert "threads in (%i, %i, %i) : i32 \n" in text
    assert "threads in (%l, %l, %l) : i64 \n" in text
    assert "threads in (%c, %c, %c)  \n" in text


def test_missing_container_attribute():
    module = _module(
        "    gpu.launch_func @kernels::@noargs blocks in (%c, %c, %c) threads in (%c, %c, %c)",
        attrs="",
    )
    assert str(_error(module)) == (
        "expected the closest surrounding module to have the 'gpu.container_module' attribute"
    )


@pytest.mark.parametrize(
    ("kernel", "args", "message"),
    [
        ("@nothing::@k", "", "kernel container 'nothing' is undefined"),
        ("@host::@k", "", "kernel module 'host' is undefined"),
        ("@kernels::@nothing", "", "kernel function '@kernels::@nothing' is undefined"),
        ("@kernels::@noargs::@x", "", "kernel function '@kernels::@noargs::@x' is undefined"),
        (
            "@kernels::@device",
            "args(%x : f32)",
            "kernel function is missing the 'gpu.kernel' attribute",
        ),
        ("@kernels::@twoargs", "args(%x : f32)", "got 1 kernel operands but expected 2"),
        (
            "@kernels::@twoargs",
            "args(%x : f32, %x : f32)",
            "type of function argument 1 does not match",
        ),
        ("@kernels::@noargs", "args(%x : f32)", "got 1 kernel operands but expected 0"),
    ],
)
def test_kernel_symbol_messages(kernel: str, args: str, message: str):
    module = _module(
        f"    gpu.launch_func {kernel} blocks in (%c, %c, %c) threads in (%c, %c, %c) {args}"
    )
    assert str(_error(module)) == message


def test_kernel_that_is_not_a_function_gets_a_note():
    module = _module("    gpu.launch_func @kernels blocks in (%c, %c, %c) threads in (%c, %c, %c)")
    error = _error(module)
    assert isinstance(error, OpDiagnostic)
    assert error.message == "referenced kernel '@kernels' is not a function"
    ((note_op, note),) = error.notes
    assert note_op is not None and note_op.name == "gpu.module"
    assert note == "see the kernel definition here"


def test_launch_nested_in_a_region_is_not_checked_against_the_kernel():
    module = _module(
        "    scf.execute_region {\n"
        "      gpu.launch_func @nothing::@k blocks in (%c, %c, %c) threads in (%c, %c, %c)\n"
        "      scf.yield\n    }"
    )
    assert verify_ir(module) is None


def test_dimension_type_and_cluster_messages():
    grid = _parse(
        "builtin.module attributes {gpu.container_module} {\n"
        + KERNELS
        + """
  func.func @h(%c: index, %i: i32) {
    "gpu.launch_func"(%c, %c, %c, %c, %c, %i) <{kernel = @kernels::@noargs, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>}> : (index, index, index, index, index, i32) -> ()
    "gpu.launch_func"(%c, %c, %c, %c, %c, %c, %c, %c, %i) <{kernel = @kernels::@noargs, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0>}> : (index, index, index, index, index, index, index, index, i32) -> ()
    "gpu.launch_func"(%c, %c, %c, %c, %c, %c, %c, %c) <{kernel = @kernels::@noargs, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0>}> : (index, index, index, index, index, index, index, index) -> ()
    func.return
  }
}
"""
    )
    messages = []
    for launch in _launches(grid):
        with pytest.raises(VerifyException) as info:
            launch.verify_()
        messages.append(str(info.value))
    assert messages == [
        "failed to verify that all of {gridSizeX, gridSizeY, gridSizeZ, blockSizeX, "
        "blockSizeY, blockSizeZ} have same type",
        "expects types of the cluster dimensions must be the same",
        "cluster size must be all present",
    ]


def test_lookup_nested_symbol():
    module = _module("")
    func = lookup_nested_symbol(module, SymbolRefAttr("kernels", ["twoargs"]))
    assert func is not None and func.name == "gpu.func"
    assert lookup_nested_symbol(module, SymbolRefAttr("kernels", ["none"])) is None
    assert lookup_nested_symbol(module, SymbolRefAttr("host", ["x"])) is None


def test_parse_errors_have_mlir_wording(xgpu_opt):
    cases = {
        "gpu.launch_func @k::@f threads in (%c, %c, %c)": "custom op 'gpu.launch_func' expected 'blocks'",
        "gpu.launch_func @k::@f blocks (%c, %c, %c) threads in (%c, %c, %c)": "custom op 'gpu.launch_func' expected 'in'",
        "gpu.launch_func @k::@f blocks in (%c, %c) threads in (%c, %c, %c)": "expected ','",
        'gpu.launch_func "k" blocks in (%c, %c, %c) threads in (%c, %c, %c)': "custom op 'gpu.launch_func' invalid kind of attribute specified",
        "gpu.launch_func @k::@f blocks in (%c, %c, %c) threads in (%c, %c, %c) args(%c)": "expected ':'",
    }
    for source, message in cases.items():
        result = xgpu_opt(f"func.func @f(%c: index) {{\n  {source}\n  return\n}}\n")
        assert result.rc != 0
        assert message in result.out + result.err, source
        assert "Traceback" not in result.out + result.err


def test_add_async_dependency_updates_segments():
    module = _module("")
    block = _host_block(module)
    c, t = block.args[0], block.args[4]
    launch = LaunchFuncOp(SymbolRefAttr("kernels", ["noargs"]), (c, c, c), (c, c, c))
    block.insert_op_before(launch, block.last_op)
    launch.add_async_dependency(t)
    assert launch.dependencies == (t,) and launch.grid_size_x is c
    assert "array<i32: 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>" in _generic(launch)
    assert verify_ir(module) is None
    assert "gpu.launch_func [%t] @kernels::@noargs" in str(module)
