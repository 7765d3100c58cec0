"""`register_host_memory` / `xgpu-run --register-host-memory`: host memref
arguments of the entry function registered with the device for the call, as
`gpu.host_register` would. Programs that bufferization and GPU mapping
produce launch kernels on their function arguments directly; without the
option that is an error that says how to fix it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from devices import BACKENDS, needs_opencl

import xgpu
from xgpu.runtime.api import RunError, Runner, RunOptions, load

# @main(%a, %b): b[i] = 2 * a[i] + b[i] over 100 elements, launched straight
# on the arguments (no gpu.alloc, no copies), then the host adds 1 to b[0]
# after waiting: the host sees what the kernel wrote.
AXPY = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @axpy(%a: memref<100xf32>, %b: memref<100xf32>) kernel {
      %i = gpu.global_id x
      %x = memref.load %a[%i] : memref<100xf32>
      %y = memref.load %b[%i] : memref<100xf32>
      %two = arith.constant 2.0 : f32
      %m = arith.mulf %two, %x : f32
      %r = arith.addf %m, %y : f32
      memref.store %r, %b[%i] : memref<100xf32>
      gpu.return
    }
  }
  func.func @main(%a: memref<100xf32>, %b: memref<100xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c100 = arith.constant 100 : index
    %t = gpu.launch_func async @k::@axpy blocks in (%c1, %c1, %c1) threads in (%c100, %c1, %c1) args(%a : memref<100xf32>, %b : memref<100xf32>)
    gpu.wait [%t]
    %v = memref.load %b[%c0] : memref<100xf32>
    %one = arith.constant 1.0 : f32
    %w = arith.addf %v, %one : f32
    memref.store %w, %b[%c0] : memref<100xf32>
    return
  }
}
"""


def _inputs() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    a = np.arange(100, dtype=np.float32)
    b = np.full(100, 0.5, np.float32)
    want = 2 * a + b
    want[0] += 1
    return a, b, want


@pytest.mark.parametrize("backend", BACKENDS)
def test_without_the_option_the_error_says_how_to_fix_it(backend: str):
    a, b, _ = _inputs()
    with pytest.raises(RunError) as info:
        xgpu.run(AXPY, args=[a, b], backend=backend, name="axpy.mlir")
    text = str(info.value)
    assert "axpy.mlir:18:10: error: " in text
    assert "operand 0 of @k::@axpy is host memory that the device cannot use" in text
    assert "xgpu-run --register-host-memory" in text
    assert "register_host_memory=True" in text


@pytest.mark.parametrize("backend", BACKENDS)
def test_arguments_registered_for_the_call(backend: str):
    a, b, want = _inputs()
    xgpu.run(AXPY, args=[a, b], backend=backend, register_host_memory=True)
    np.testing.assert_array_equal(b, want)
    np.testing.assert_array_equal(a, np.arange(100, dtype=np.float32))


def test_race_free_on_the_simulator_with_races_detected():
    a, b, want = _inputs()
    xgpu.run(AXPY, args=[a, b], backend="sim", detect_races=True, register_host_memory=True)
    np.testing.assert_array_equal(b, want)


def test_a_host_access_before_the_wait_is_a_race():
    """Registered memory is shared with the device: reading it while the
    kernel may still run is a race (the detector sees the registration)."""
    racy = AXPY.replace("    gpu.wait [%t]\n", "").replace(
        "    return\n  }\n}", "    gpu.wait [%t]\n    return\n  }\n}"
    )
    a, b, _ = _inputs()
    with pytest.raises(RunError) as info:
        xgpu.run(racy, args=[a, b], backend="sim", detect_races=True, register_host_memory=True)
    text = str(info.value)
    assert "data race" in text
    assert "memref.load" in text or "memref.store" in text


@needs_opencl
def test_a_device_without_unified_memory_gets_the_results_back():
    """The copying path (what a discrete GPU and Oclgrind take): the device
    copies are made at the launch and merged back before the host reads."""
    a, b, want = _inputs()
    module, sources = load(AXPY, "axpy.mlir")
    runner = Runner(module, sources, RunOptions(host_copies=True, register_host_memory=True))
    runner.call("main", [a, b])
    np.testing.assert_array_equal(b, want)
    # Registered for the call only: a second call registers them again.
    a2, b2, want2 = _inputs()
    runner.call("main", [a2, b2])
    np.testing.assert_array_equal(b2, want2)


@pytest.mark.parametrize("backend", BACKENDS)
def test_repeated_calls_and_an_argument_passed_twice(backend: str):
    """One storage passed as both arguments is registered once; each call
    registers its own arguments and unregisters them at its end."""
    module, sources = load(AXPY, "axpy.mlir")
    runner = Runner(module, sources, RunOptions(backend=backend, register_host_memory=True))
    x = np.ones(100, np.float32)
    runner.call("main", [x, x])  # b = 2b + b = 3, then b[0] + 1
    want = np.full(100, 3.0, np.float32)
    want[0] = 4.0
    np.testing.assert_array_equal(x, want)
    a, b, want = _inputs()
    runner.call("main", [a, b])
    np.testing.assert_array_equal(b, want)


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_command_line_flag(tmp_path: Path, capsys: pytest.CaptureFixture[str], backend: str):
    from xgpu.tools.xgpu_run import main

    program = AXPY.replace(
        "    return\n  }\n}",
        "    %u = memref.cast %b : memref<100xf32> to memref<*xf32>\n"
        "    call @printMemrefF32(%u) : (memref<*xf32>) -> ()\n"
        "    return\n  }\n"
        "  func.func private @printMemrefF32(memref<*xf32>)\n}",
    )
    path = tmp_path / "axpy.mlir"
    path.write_text(program)
    flags = ["--backend", backend, "--arg", "range(100)", "--arg", "zeros(100)", str(path)]
    with pytest.raises(SystemExit) as info:
        main(flags)
    assert info.value.code == 1
    assert "--register-host-memory" in capsys.readouterr().err
    with pytest.raises(SystemExit) as info:
        main(["--register-host-memory", *flags])
    out = capsys.readouterr().out
    assert info.value.code == 0
    assert "[1,  2,  4,  6," in out.replace("\n", "")
