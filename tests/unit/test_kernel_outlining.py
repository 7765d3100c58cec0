"""gpu-kernel-outlining and gpu-launch-sink-index-computations: the Python API,
the pass option, and the cases where mlir-opt 22 crashes (a diagnostic here).
The output itself is compared with mlir-opt 22 by the with-mlir lit tests."""

from __future__ import annotations

from xdsl.passes import PassPipeline

from xgpu.dialects.gpu.func import GPUFuncOp
from xgpu.dialects.gpu.launch import LaunchOp
from xgpu.dialects.gpu.launch_func import LaunchFuncOp
from xgpu.dialects.gpu.module import GPUModuleOp
from xgpu.ir.printer import print_mlir
from xgpu.ir.verifier import verify_ir
from xgpu.tools.xgpu_opt import make_context, parse, pass_registry
from xgpu.transforms.kernel_outlining import GpuKernelOutliningPass, outline_kernel_func
from xgpu.transforms.sink_index_computations import (
    GpuLaunchSinkIndexComputationsPass,
    sink_operations_into_launch,
    used_values_defined_above,
)

LAUNCH = """\
func.func @f(%a: memref<?xf32>, %n: index, %lb: index, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d = memref.dim %a, %c0 : memref<?xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    scf.for %i = %lb to %d step %c1 {
      memref.store %v, %a[%i] : memref<?xf32>
    }
    gpu.terminator
  }
  return
}
"""


def _launch(module) -> LaunchOp:
    return next(op for op in module.walk() if isinstance(op, LaunchOp))


def _names(values) -> list[str | None]:
    return [v.name_hint for v in values]


def test_used_values_are_in_post_order_first_use_order():
    module = parse(LAUNCH, ctx=make_context())
    launch = _launch(module)
    assert _names(used_values_defined_above(launch.body)) == ["v", "a", "lb", "d", "c1"]


def test_sink_clones_operands_first_and_keeps_originals():
    module = parse(LAUNCH, ctx=make_context())
    launch = _launch(module)
    clones = sink_operations_into_launch(launch)
    assert [op.name for op in clones] == ["arith.constant", "memref.dim", "arith.constant"]
    entry = launch.body.blocks.first
    assert entry is not None and entry.first_op is clones[0]
    # The originals stay, unused by the body now; the sunk memref.dim uses %a first.
    assert _names(used_values_defined_above(launch.body)) == ["a", "v", "lb"]
    assert verify_ir(module) is None


def test_outline_kernel_func_leaves_the_launch_alone():
    module = parse(LAUNCH, ctx=make_context())
    launch = _launch(module)
    before = print_mlir(module)
    func, operands = outline_kernel_func(launch, "k")
    assert isinstance(func, GPUFuncOp) and func.parent is None
    assert func.is_kernel and func.sym_name.data == "k"
    assert _names(operands) == ["v", "a", "lb", "d", "c1"]
    assert func.known_block_size is not None and list(func.known_block_size.get_values()) == [
        1,
        1,
        1,
    ]
    assert func.known_grid_size is None
    assert print_mlir(module) == before


def test_pass_outlines_into_a_gpu_module():
    ctx = make_context()
    module = parse(LAUNCH, ctx=ctx)
    GpuKernelOutliningPass().apply(ctx, module)
    assert verify_ir(module) is None
    assert "gpu.container_module" in module.attributes
    gpu_modules = [op for op in module.ops if isinstance(op, GPUModuleOp)]
    assert [m.sym_name.data for m in gpu_modules] == ["f_kernel"]
    launch_func = next(op for op in module.walk() if isinstance(op, LaunchFuncOp))
    assert launch_func.kernel_module_name == "f_kernel"
    assert launch_func.kernel_name == "f_kernel"
    assert _names(launch_func.kernel_operands) == ["v", "a", "lb", "d", "c1"]
    assert not any(isinstance(op, LaunchOp) for op in module.walk())


def test_sink_then_outline_pipeline():
    ctx = make_context()
    module = parse(LAUNCH, ctx=ctx)
    GpuLaunchSinkIndexComputationsPass().apply(ctx, module)
    GpuKernelOutliningPass().apply(ctx, module)
    assert verify_ir(module) is None
    launch_func = next(op for op in module.walk() if isinstance(op, LaunchFuncOp))
    assert _names(launch_func.kernel_operands) == ["a", "v", "lb"]


def test_data_layout_option_is_spelled_with_hyphens():
    spec = 'gpu-kernel-outlining{data-layout-str="#dlti.dl_spec<index = 32 : i32>"}'
    pipeline = PassPipeline.parse_spec(pass_registry(), spec)
    (outlining,) = pipeline.passes
    assert isinstance(outlining, GpuKernelOutliningPass)
    assert outlining.data_layout_str == "#dlti.dl_spec<index = 32 : i32>"
    ctx = make_context()
    module = parse(LAUNCH, ctx=ctx)
    pipeline.apply(ctx, module)
    (gpu_module,) = [op for op in module.ops if isinstance(op, GPUModuleOp)]
    assert str(gpu_module.attributes["dlti.dl_spec"]) == "#dlti.dl_spec<index = 32 : i32>"


def test_bad_data_layout_is_an_error(xgpu_opt, tmp_path):
    res = xgpu_opt(LAUNCH, "-p", 'gpu-kernel-outlining{data-layout-str="1 : i32"}')
    assert res.rc == 1
    assert "is not a data layout specification" in res.err
    res = xgpu_opt(LAUNCH, "-p", 'gpu-kernel-outlining{data-layout-str="#dlti.dl_spec<"}')
    assert res.rc == 1
    assert "does not parse" in res.err
    assert "Traceback" not in res.err


UNDEFINED_SYMBOL = """\
func.func @f(%n: index) {
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    "test.use"() {sym = @nothing} : () -> ()
    gpu.terminator
  }
  return
}
"""


def test_undefined_symbol_is_a_diagnostic_where_mlir_crashes(xgpu_opt):
    res = xgpu_opt(UNDEFINED_SYMBOL, "-p", "gpu-kernel-outlining", "--allow-unregistered-dialect")
    assert res.rc == 1
    assert res.out == ""
    lines = res.err.splitlines()
    assert lines[0] == (
        "input.mlir:2:3: error: cannot outline: the kernel uses symbol '@nothing', "
        "which is not defined at the top level of the module"
    )
    # The source line, the caret and mlir-opt's note on an op's error; no
    # verifier error follows.
    assert len(lines) == 4
    assert lines[3].startswith('input.mlir:2:3: note: see current operation: "gpu.launch"')


NESTED_WITH_MODULE = """\
func.func @f(%n: index, %v: f32) {
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    gpu.launch blocks(%bx2, %by2, %bz2) in (%gx2 = %bx, %gy2 = %n, %gz2 = %n)
               threads(%tx2, %ty2, %tz2) in (%sx2 = %n, %sy2 = %n, %sz2 = %n) module(@inner) function(@k) {
      "test.use"(%v) : (f32) -> ()
      gpu.terminator
    }
    gpu.terminator
  }
  return
}
"""


def test_nested_launch_naming_its_own_kernel_is_a_diagnostic(xgpu_opt):
    # The outer kernel uses `@inner::@k`; MLIR 22 looks `k` up at the top level
    # and crashes. Here the outer launch is reported, the inner one outlined.
    res = xgpu_opt(NESTED_WITH_MODULE, "-p", "gpu-kernel-outlining", "--allow-unregistered-dialect")
    assert res.rc == 1
    assert res.err.splitlines()[0] == (
        "input.mlir:2:3: error: cannot outline: the kernel uses symbol '@k', "
        "which is not defined at the top level of the module"
    )
    assert "'gpu.launch_func' op" not in res.err


def test_passes_are_registered():
    registry = pass_registry()
    assert registry["gpu-kernel-outlining"]() is GpuKernelOutliningPass
    assert registry["gpu-launch-sink-index-computations"]() is GpuLaunchSinkIndexComputationsPass
