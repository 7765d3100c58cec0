"""Start-up: what xgpu imports only when a program needs it, and that loading
lazily finds exactly what loading everything finds."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest
from xdsl.ir import TypeAttribute

from xgpu.dialects import PART_LOADED
from xgpu.dialects.gpu import GPU, catalog
from xgpu.ir import upstream_verifiers
from xgpu.ir.context import XGpuContext
from xgpu.tools.xgpu_opt import make_context, register_xgpu_dialects

HOST_ONLY = """
module attributes {gpu.container_module} {
  func.func @main() {
    %t = gpu.wait async
    %t2 = gpu.wait async [%t]
    gpu.wait [%t2]
    return
  }
}
"""


def test_catalog_lists_what_each_module_defines():
    for module, names in catalog.MODULES.items():
        m = importlib.import_module(f"xgpu.dialects.gpu.{module}")
        defined = [c.name for c in [*m.OPS, *m.ATTRS]]
        assert [f"gpu.{n}" for n in names] == defined, module
    every = {op.name for op in GPU.operations} | {a.name for a in GPU.attributes}
    assert set(catalog.WHERE) == every


def test_lazy_context_finds_what_the_whole_dialect_has():
    for name, module in catalog.WHERE.items():
        m = importlib.import_module(f"xgpu.dialects.gpu.{module}")
        cls = next(c for c in [*m.OPS, *m.ATTRS] if c.name == name)
        ctx = make_context()
        assert isinstance(ctx, XGpuContext)
        if cls in m.OPS:
            assert ctx.get_optional_op(name) is cls
        elif issubclass(cls, TypeAttribute):
            assert ctx.get_optional_type(name) is cls
        else:
            assert ctx.get_optional_attr(name) is cls
        # Only that module was loaded into this context.
        assert ctx._gpu_modules == {module}, name
        assert "gpu" not in ctx._loaded_dialects


def test_unknown_gpu_name_loads_the_rest_of_the_dialect():
    ctx = make_context()
    assert ctx.get_optional_op("gpu.wait") is not None
    assert ctx.get_optional_op("gpu.no_such_op") is None
    assert ctx._loaded_dialects["gpu"] is GPU
    assert {op.name for op in ctx.loaded_ops} >= {op.name for op in GPU.operations}
    # A clone keeps what is loaded and loads the rest the same way.
    clone = ctx.clone()
    assert isinstance(clone, XGpuContext)
    assert clone.get_optional_op("gpu.spmv") is ctx.get_optional_op("gpu.spmv")


def test_op_without_prefix_found_through_the_dialect_stack():
    ctx = make_context()
    assert ctx.get_optional_op("barrier", dialect_stack=["gpu"]).name == "gpu.barrier"


def test_a_plain_context_with_xgpu_dialects_still_loads_everything():
    from xdsl.context import Context

    ctx = Context()
    register_xgpu_dialects(ctx)
    assert ctx.get_optional_op("gpu.wait") is not None
    assert ctx._loaded_dialects["gpu"] is GPU


def test_verifier_check_modules_cover_their_registrations():
    """Each op a verifier module registers belongs to a dialect for which
    `CHECK_MODULES` imports that module."""
    for module in sorted(set(upstream_verifiers.CHECK_MODULES.values())):
        before = dict(upstream_verifiers.CHECKS)
        importlib.reload(importlib.import_module(f"xgpu.ir.{module}"))
        registered = [
            name
            for name, checks in upstream_verifiers.CHECKS.items()
            if checks is not before.get(name)
        ]
        assert registered, module
        for name in registered:
            assert upstream_verifiers.CHECK_MODULES.get(name.partition(".")[0]) == module, name


def test_what_a_host_only_run_and_a_parse_do_not_import(tmp_path):
    f = tmp_path / "host.mlir"
    f.write_text(HOST_ONLY)
    script = f"""
import sys
from xgpu.tools import xgpu_opt, xgpu_run
for main in (xgpu_opt.main, xgpu_run.main):
    try:
        main([{str(f)!r}])
    except SystemExit as e:
        assert not e.code, e.code
loaded = [m for m in sys.modules if m.startswith("xgpu.dialects.gpu.")]
print(" ".join(sorted(loaded)))
print("pyopencl" in sys.modules, "xgpu.ir.mlir_style" in sys.modules, "xgpu.ir.scf_verifiers" in sys.modules)
"""
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    modules = set(out[-2].split())
    assert "xgpu.dialects.gpu.host" in modules
    for unused in ("sparse", "mma", "subgroup", "binary", "compilation", "targets"):
        assert f"xgpu.dialects.gpu.{unused}" not in modules
    # No device work: OpenCL is never started; no scf, no --mlir-style printer.
    assert out[-1] == "False False False"


KERNEL_ONLY = """
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%m: memref<?xf32>) kernel {
      gpu.return
    }
  }
  func.func @main() {
    return
  }
}
"""


def _modules_after(script: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    return set(out[-1].split())


def _modules_after_opt(path) -> set[str]:
    """The modules a fresh process has imported once `xgpu-opt path` is done."""
    return _modules_after(f"""
import sys
from xgpu.tools import xgpu_opt
try:
    xgpu_opt.main([{str(path)!r}])
except SystemExit as e:
    assert not e.code, e.code
print(" ".join(sorted(sys.modules)))
""")


def test_what_a_kernel_without_launches_does_not_import(tmp_path):
    """xgpu-opt on a gpu.module and a function: no launch ops (the container
    module's check has no launch to check), no async interface or gpu types,
    no attribution rules, no -verify-diagnostics machinery."""
    f = tmp_path / "kernel.mlir"
    f.write_text(KERNEL_ONLY)
    modules = _modules_after_opt(f)
    assert "xgpu.dialects.gpu.func" in modules
    for unused in (
        "xgpu.dialects.gpu.launch_func",
        "xgpu.dialects.gpu.async_interface",
        "xgpu.dialects.gpu.types",
        "xgpu.dialects.gpu.attributes",
        "xgpu.tools.verify_diagnostics",
    ):
        assert unused not in modules, unused


def _first_error(tmp_path, text: str) -> str:
    """The first line xgpu-opt writes for `text`, in a fresh process (where
    nothing was imported before)."""
    f = tmp_path / "input.mlir"
    f.write_text(text)
    run = subprocess.run(
        [sys.executable, "-m", "xgpu.tools.xgpu_opt", str(f)], capture_output=True, text=True
    )
    assert run.returncode == 1
    return run.stderr.splitlines()[0].partition(" error: ")[2]


def test_what_is_not_imported_is_found_when_used(tmp_path):
    # The container module's check of its launches, once launches exist.
    bad_launch = """
module attributes {gpu.container_module} {
  func.func @main() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @nowhere::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
"""
    message = "'gpu.launch_func' op kernel container 'nowhere' is undefined"
    assert _first_error(tmp_path, bad_launch) == message
    # The attribution rules, once a function has attributions.
    bad_attribution = """
gpu.module @k {
  gpu.func @f() workgroup(%w: memref<4xf32, #gpu.address_space<private>>) kernel {
    gpu.return
  }
}
"""
    message = "'gpu.func' op expected memory space workgroup in attribution"
    assert _first_error(tmp_path, bad_attribution) == message
    # An async op's token must be named.
    unnamed = "func.func @f() {\n  gpu.wait async\n  return\n}\n"
    assert _first_error(tmp_path, unnamed) == (
        "custom op 'gpu.wait' needs to be named when marked 'async'"
    )


ONE_KERNEL = """
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @inc(%src: memref<64xf32>, %dst: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %src[%i] : memref<64xf32>
      memref.store %v, %dst[%i] : memref<64xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %a = gpu.alloc () : memref<64xf32>
    %b = gpu.alloc () : memref<64xf32>
    gpu.memcpy %b, %a : memref<64xf32>, memref<64xf32>
    gpu.launch_func @k::@inc blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%a : memref<64xf32>, %b : memref<64xf32>)
    return
  }
}
"""


def test_buffer_effects_without_the_hazard_analysis(tmp_path):
    """The runtime asks which kernel arguments are written without importing
    the async-hazard analysis (nor scf, nor gpu.launch); the gpu ops the
    program has are still matched."""
    script = f"""
import sys
from xgpu.analysis.buffer_effects import READ, WRITE, KernelEffects
from xgpu.tools.xgpu_opt import parse
module = parse({ONE_KERNEL!r})
ops = {{op.name: op for op in module.walk()}}
effects = KernelEffects()
print(effects.kernel_modes(ops["gpu.func"]) == (READ, WRITE))
print([m for _, m in effects.gpu_accesses(ops["gpu.memcpy"])] == [WRITE, READ])
print([m for _, m in effects.gpu_accesses(ops["gpu.launch_func"])] == [READ, WRITE])
print(" ".join(sorted(sys.modules)))
"""
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert out[:3] == ["True", "True", "True"]
    modules = set(out[3].split())
    for unused in ("xgpu.analysis.async_hazards", "xdsl.dialects.scf", "xgpu.dialects.gpu.launch"):
        assert unused not in modules, unused


@pytest.mark.parametrize("name", sorted(PART_LOADED))
def test_parts_list_what_each_module_defines(name):
    package = importlib.import_module(f"xgpu.dialects.{name}")
    for module, (_, names) in package.PARTS.items():
        assert tuple(op.name for op in package.part_ops(module)) == names, module
    # Every name the package exports is found where it says.
    for export in package.__all__:
        assert getattr(package, export) is not None, export


@pytest.mark.parametrize("name", sorted(PART_LOADED))
def test_op_by_op_finds_what_the_whole_dialect_has(name):
    package = importlib.import_module(f"xgpu.dialects.{name}")
    whole = {op.name: op for op in package.dialect().operations}
    for op_name, cls in whole.items():
        ctx = make_context()
        assert ctx.get_optional_op(op_name) is cls, op_name
        assert name not in ctx._loaded_dialects
        # The rest of the dialect loads on top of what is loaded.
        ctx.load_registered_dialect(name)
        loaded = {op.name: op for op in ctx.loaded_ops if op.name.startswith(f"{name}.")}
        assert loaded == whole
    ctx = make_context()
    assert ctx.get_optional_op(f"{name}.no_such_op") is None
    assert name in ctx._loaded_dialects


def test_a_kernel_that_loads_and_stores_imports_one_memref_part_and_no_arith_part(tmp_path):
    f = tmp_path / "kernel.mlir"
    f.write_text(ONE_KERNEL)
    modules = _modules_after_opt(f)
    assert "xgpu.dialects.memref.access" in modules
    for unused in ("alloc", "dma", "metadata", "reshapes", "views"):
        assert f"xgpu.dialects.memref.{unused}" not in modules, unused
    # arith.constant is xDSL's: none of xgpu's arith modules.
    for unused in ("ops", "casts", "types"):
        assert f"xgpu.dialects.arith.{unused}" not in modules, unused
