"""xgpu-run on an OpenCL device: tokens as events, device selection, traces,
errors, the Python API and the command line."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
FORUM = ROOT / "examples" / "forum_run.mlir"


def _skip_reason() -> str | None:
    try:
        from xgpu.runtime.opencl_device import has_device
    except Exception as err:  # pragma: no cover
        return f"pyopencl unavailable: {err}"
    if not has_device():
        return "no OpenCL device (install pyopencl[pocl] for a CPU device)"
    try:
        from xgpu.backend.opencl import compile_gpu_module  # noqa: F401
    except ImportError:
        return "the OpenCL emitter (xgpu.backend.opencl.compile_gpu_module) is not available"
    return None


SKIP = _skip_reason()
pytestmark = pytest.mark.skipif(SKIP is not None, reason=SKIP or "")

KERNELS = """
  gpu.module @k {
    gpu.func @fill(%m: memref<?xf32>, %v: f32) kernel {
      %i = gpu.global_id x
      memref.store %v, %m[%i] : memref<?xf32>
      gpu.return
    }
    gpu.func @add(%m: memref<?xf32>, %v: f32) kernel {
      %i = gpu.global_id x
      %x = memref.load %m[%i] : memref<?xf32>
      %r = arith.addf %x, %v : f32
      memref.store %r, %m[%i] : memref<?xf32>
      gpu.return
    }
  }
"""


def program(body: str, signature: str = "()", results: str = "") -> str:
    arrow = f" -> {results}" if results else ""
    return (
        "module attributes {gpu.container_module} {\n"
        + KERNELS
        + f"  func.func @main{signature}{arrow} {{\n"
        + body
        + "\n  }\n}\n"
    )


def gpu_runtime(**kwargs):
    from xgpu.runtime.opencl_device import GpuRuntime, QueueConfig, select_device

    return GpuRuntime(select_device(), QueueConfig(**kwargs))


# -- tokens ------------------------------------------------------------------


def test_async_op_waits_for_its_dependency_events_only():
    import pyopencl as cl

    from xgpu.runtime.memref import from_numpy

    gpu = gpu_runtime()
    dev, token = gpu.alloc(np.dtype(np.float32), (4,), False, (), True)
    assert token == ()  # gpu.alloc enqueues nothing
    gate = cl.UserEvent(gpu.context)
    host = from_numpy(np.arange(4, dtype=np.float32))
    (copy,) = gpu.memcpy(dev, host, (gate,), True)
    # A fill with no dependency on the copy is not ordered after it: it runs now.
    other, _ = gpu.alloc(np.dtype(np.float32), (4,), False, (), True)
    (fill,) = gpu.memset(other, 5.0, (), True)
    fill.wait()
    assert copy.command_execution_status != cl.command_execution_status.COMPLETE
    gate.set_status(cl.command_execution_status.COMPLETE)
    back = from_numpy(np.zeros(4, dtype=np.float32))
    # A synchronous op returns when its work is complete.
    assert gpu.memcpy(back, dev, (copy,), False) == ()
    np.testing.assert_array_equal(back.host, [0, 1, 2, 3])


def test_join_is_a_union_of_event_lists():
    import pyopencl as cl

    gpu = gpu_runtime()
    a, b = cl.UserEvent(gpu.context), cl.UserEvent(gpu.context)
    assert gpu.tokens.join((a,), (b, a), ()) == (a, b)
    for e in (a, b):
        e.set_status(cl.command_execution_status.COMPLETE)


def test_generated_host_code_maps_tokens_to_event_tuples():
    from xgpu.runtime.api import Runner, RunOptions, load

    text = program(
        """
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %one = arith.constant 1.0 : f32
    %t0 = gpu.wait async
    %m, %t1 = gpu.alloc async [%t0] (%c4) : memref<?xf32>
    %a = gpu.launch_func async [%t1] @k::@fill blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%m : memref<?xf32>, %one : f32)
    %b = gpu.launch_func async [%t1] @k::@add blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%m : memref<?xf32>, %one : f32)
    %j = gpu.wait async [%a, %b]
    gpu.wait [%j]
    return"""
    )
    module, sources = load(text)
    runner = Runner(module, sources, RunOptions())
    source = runner.program.source
    assert "= ()" in source  # gpu.wait async without dependencies
    assert "_tok.join(" in source  # gpu.wait async [%a, %b]: a union, nothing enqueued
    assert "_tok.wait(" in source  # gpu.wait [%j]
    runner.call("main", [])


def test_loop_carried_join_stays_short():
    from xgpu.runtime.tokens import COLLAPSE_AT

    text = program(
        """
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c100 = arith.constant 100 : index
    %one = arith.constant 1.0 : f32
    %zero = arith.constant 0.0 : f32
    %m = gpu.alloc (%c4) : memref<?xf32>
    gpu.memset %m, %zero : memref<?xf32>, f32
    %n = gpu.alloc (%c4) : memref<?xf32>
    gpu.memset %n, %zero : memref<?xf32>, f32
    %t0 = gpu.wait async
    %t = scf.for %i = %c0 to %c100 step %c1 iter_args(%t = %t0) -> (!gpu.async.token) {
      %a = gpu.launch_func async [%t] @k::@add blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%m : memref<?xf32>, %one : f32)
      %x = gpu.launch_func async @k::@add blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%n : memref<?xf32>, %one : f32)
      %j = gpu.wait async [%a, %t, %x]
      scf.yield %j : !gpu.async.token
    }
    gpu.wait [%t]
    %h = memref.alloc(%c4) : memref<?xf32>
    gpu.memcpy %h, %m : memref<?xf32>, memref<?xf32>
    return %t, %h : !gpu.async.token, memref<?xf32>""",
        results="(!gpu.async.token, memref<?xf32>)",
    )
    import xgpu

    token, h = xgpu.run(text)
    # 300 events were joined; complete ones are dropped, many pending ones
    # collapse into a marker.
    assert len(token) <= COLLAPSE_AT + 3
    np.testing.assert_array_equal(h, [100] * 4)


# -- the Python API -------------------------------------------------------------


def test_run_with_numpy_arguments_in_place():
    import xgpu

    text = FORUM.read_text()
    host = np.arange(100, dtype=np.float32)
    total = xgpu.run(text, entry="forum", args=[host, 100])
    assert total == 10
    x = np.arange(100, dtype=np.float32)
    np.testing.assert_array_equal(host, -((2 * x + 1) ** 2))


def test_device_memref_results_are_copied_back():
    import xgpu

    text = program(
        """
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %m = gpu.alloc (%c3) : memref<?xf32>
    gpu.launch_func @k::@fill blocks in (%c1, %c1, %c1) threads in (%c3, %c1, %c1) args(%m : memref<?xf32>, %v : f32)
    %s = memref.subview %m[1] [2] [1] : memref<?xf32> to memref<2xf32, strided<[1], offset: 1>>
    return %m, %s : memref<?xf32>, memref<2xf32, strided<[1], offset: 1>>""",
        signature="(%v: f32)",
        results="(memref<?xf32>, memref<2xf32, strided<[1], offset: 1>>)",
    )
    whole, part = xgpu.run(text, args=[2.5])
    np.testing.assert_array_equal(whole, [2.5, 2.5, 2.5])
    np.testing.assert_array_equal(part, [2.5, 2.5])


def test_programs_are_built_once_per_device_and_source():
    import xgpu
    from xgpu.runtime.opencl_device import DeviceContext, select_device

    text = (ROOT / "tests" / "runtime" / "zoo" / "two_modules.mlir").read_text()
    import io

    xgpu.run(text, stdout=io.StringIO())
    cache = DeviceContext.get(select_device()).programs
    before = len(cache)
    out = io.StringIO()
    xgpu.run(text, stdout=out)
    assert len(cache) == before
    assert out.getvalue().endswith("[3,  3.5,  4,  4.5,  5]\n")


def test_in_order_queue_mode(monkeypatch):
    import io

    import xgpu

    monkeypatch.setenv("XGPU_OOO", "0")
    out = io.StringIO()
    xgpu.run(FORUM.read_text(), stdout=out)
    assert "[-1,  -9,  -25," in out.getvalue()


def test_copies_and_fills_of_strided_views_and_host_memory():
    import xgpu

    text = program(
        """
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %zero = arith.constant 0.0 : f32
    %seven = arith.constant 7.0 : f32
    %d = gpu.alloc () : memref<3x4xf32>
    gpu.memset %d, %zero : memref<3x4xf32>, f32
    // a strided device view (column 1): filled by the host after its dependencies
    %col = memref.subview %d[0, 1] [3, 1] [1, 1] : memref<3x4xf32> to memref<3xf32, strided<[4], offset: 1>>
    %t0 = gpu.wait async
    %t1 = gpu.memset async [%t0] %col, %seven : memref<3xf32, strided<[4], offset: 1>>, f32
    // host to host: done by the host once the dependencies are complete
    %h = memref.alloc() : memref<3x4xf32>
    %h2 = memref.alloc() : memref<3x4xf32>
    %t2 = gpu.memcpy async [%t1] %h, %d : memref<3x4xf32>, memref<3x4xf32>
    %t3 = gpu.memcpy async [%t2] %h2, %h : memref<3x4xf32>, memref<3x4xf32>
    gpu.wait [%t3]
    return %h2 : memref<3x4xf32>""",
        results="memref<3x4xf32>",
    )
    expected = np.zeros((3, 4), dtype=np.float32)
    expected[:, 1] = 7
    np.testing.assert_array_equal(xgpu.run(text), expected)


def test_set_default_device():
    body = """
    %i = arith.constant {} : i32
    gpu.set_default_device %i
    return"""
    import xgpu

    xgpu.run(program(body.format(0)))
    assert "uses one OpenCL device (index 0)" in _run_error(program(body.format(1)))


# -- errors ----------------------------------------------------------------------


def _run_error(text: str, *args) -> str:
    import xgpu
    from xgpu.runtime.api import RunError

    with pytest.raises(RunError) as info:
        xgpu.run(text, args=list(args), name="bad.mlir")
    return info.value.format()


def test_host_access_to_device_memory_is_reported_at_the_op():
    text = program(
        """
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %m = gpu.alloc (%c4) : memref<?xf32>
    %x = memref.load %m[%c0] : memref<?xf32>
    return"""
    )
    message = _run_error(text)
    line = text.splitlines().index("    %x = memref.load %m[%c0] : memref<?xf32>") + 1
    assert message.startswith(f"bad.mlir:{line}:10: error: host access to device memory")


def test_unregistered_host_memory_in_a_kernel_is_reported():
    text = program(
        """
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %one = arith.constant 1.0 : f32
    %m = memref.alloc(%c4) : memref<?xf32>
    gpu.launch_func @k::@fill blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%m : memref<?xf32>, %one : f32)
    return"""
    )
    message = _run_error(text)
    assert "error: operand 0 of @k::@fill is host memory that the device cannot use" in message
    assert "gpu.launch_func @k::@fill" in message


def test_double_dealloc_is_reported():
    text = program(
        """
    %c4 = arith.constant 4 : index
    %m = gpu.alloc (%c4) : memref<?xf32>
    gpu.dealloc %m : memref<?xf32>
    gpu.dealloc %m : memref<?xf32>
    return"""
    )
    assert "gpu.dealloc of memory already deallocated" in _run_error(text)


def test_kernel_the_emitter_cannot_translate_is_reported_at_the_op():
    text = """module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k() kernel {
      "test.opaque"() : () -> ()
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
"""
    message = _run_error(text)
    assert message.startswith("bad.mlir:4:7: error: 'test.opaque' op ")
    assert "(compiling gpu.module @m to OpenCL C)" in message


def test_build_failure_shows_the_generated_line_and_the_op(monkeypatch):
    import dataclasses

    import xgpu.backend.opencl as backend

    real = backend.compile_gpu_module

    def broken(module_op, **options):
        prog = real(module_op, **options)
        lines = prog.source.splitlines()
        # Break the line that the arith.addf of @add generated.
        for n, op in enumerate(prog.line_ops):
            if op is not None and op.name == "arith.addf":
                lines[n] = lines[n].rstrip(";") + " + undeclared_xyz;"
                break
        else:  # pragma: no cover
            raise AssertionError("no arith.addf line")
        return dataclasses.replace(prog, source="\n".join(lines) + "\n")

    monkeypatch.setattr(backend, "compile_gpu_module", broken)
    text = program(
        """
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %one = arith.constant 1.0 : f32
    %m = gpu.alloc (%c4) : memref<?xf32>
    gpu.launch_func @k::@add blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%m : memref<?xf32>, %one : f32)
    return"""
    )
    message = _run_error(text)
    first = message.splitlines()[0]
    line = text.splitlines().index("      %r = arith.addf %x, %v : f32") + 1
    assert first.startswith(f"bad.mlir:{line}:12: error: OpenCL build of gpu.module @k failed:")
    assert "undeclared_xyz" in first
    assert "note: generated OpenCL C, line" in message
    assert "+ undeclared_xyz;" in message


# -- device selection -------------------------------------------------------


def test_device_selection(monkeypatch):
    from xgpu.runtime.opencl_device import (
        DeviceError,
        available_devices,
        describe,
        select_device,
    )

    monkeypatch.delenv("XGPU_DEVICE", raising=False)
    monkeypatch.delenv("XGPU_OPENCL_DEVICE", raising=False)
    devices = available_devices()
    p, d, first = devices[0]
    assert select_device(f"{p}:{d}").int_ptr == first.int_ptr
    assert select_device(first.name[:6].upper()).int_ptr == first.int_ptr
    default = select_device()
    kinds = [dev.type for _, _, dev in devices]
    import pyopencl as cl

    if any(k & cl.device_type.GPU for k in kinds):
        assert default.type & cl.device_type.GPU
    with pytest.raises(DeviceError, match="no OpenCL device matches 'no-such-device'"):
        select_device("no-such-device")
    monkeypatch.setenv("XGPU_DEVICE", "no-such-device")
    with pytest.raises(DeviceError):
        select_device()
    assert "(" in describe(first)


# -- the command line and traces --------------------------------------------


def xgpu_run(capfd, *argv: str) -> tuple[int, str, str]:
    from xgpu.tools.xgpu_run import main

    capfd.readouterr()
    with pytest.raises(SystemExit) as info:
        main(list(argv))
    out, err = capfd.readouterr()
    return info.value.code, out, err


def test_cli_runs_main_and_reports_the_device(capfd):
    rc, out, err = xgpu_run(capfd, str(FORUM), "--verbose")
    assert rc == 0
    assert "[-1,  -9,  -25,  -49,  -81,  -121,  -169,  -225,  -289,  -361]" in out
    assert err.startswith("xgpu-run: device: ")


def test_cli_errors(capfd, tmp_path):
    rc, out, err = xgpu_run(capfd, str(FORUM), "--entry", "forum")
    assert rc == 1 and "@forum takes 2 argument(s), 0 given with --arg" in err
    rc, out, err = xgpu_run(capfd, str(FORUM), "--device", "no-such-device")
    assert rc == 1 and "no OpenCL device matches 'no-such-device'" in err
    rc, out, err = xgpu_run(capfd, str(tmp_path / "missing.mlir"))
    assert rc == 1 and "could not open input file" in err
    bad = tmp_path / "bad.mlir"
    bad.write_text("func.func @main() {\n  %x = arith.constant 1 : i32\n  return %x : i32\n}\n")
    rc, out, err = xgpu_run(capfd, str(bad))
    assert rc == 1 and err.startswith(f"{bad}:3:3: error:")


def test_cli_bad_input_and_unwritable_trace_without_traceback(capfd, tmp_path):
    # A first character the lexer rejects is a diagnostic, not a traceback.
    binary = tmp_path / "bin.mlir"
    binary.write_bytes(b"\x7fELF\x02\x01\n")
    rc, out, err = xgpu_run(capfd, str(binary))
    assert rc == 1 and err.startswith(f"{binary}:1:1: error: ") and "Traceback" not in err
    # The trace is written after the run: a path that cannot be written is an error.
    trace = tmp_path / "no-such-dir" / "t.json"
    rc, out, err = xgpu_run(capfd, str(FORUM), "--trace", str(trace))
    assert rc == 1 and "Traceback" not in err
    assert f"xgpu-run: error: could not write the trace to {trace}" in err


def test_cli_prints_a_scalar_result(capfd, tmp_path):
    f = tmp_path / "r.mlir"
    f.write_text(
        "func.func @main() -> i32 {\n  %x = arith.constant 42 : i32\n  return %x : i32\n}\n"
    )
    assert xgpu_run(capfd, str(f))[:2] == (0, "42\n")


def test_trace_names_commands_and_device(capfd, tmp_path):
    from xgpu.runtime.opencl_device import describe, select_device

    trace = tmp_path / "trace.json"
    rc, out, err = xgpu_run(capfd, str(FORUM), "--trace", str(trace))
    assert rc == 0, err
    doc = json.loads(trace.read_text())
    assert doc["otherData"]["device"] == describe(select_device())
    slices = [e for e in doc["traceEvents"] if e["ph"] == "X"]
    names = [e["name"] for e in slices if e["tid"] != 0]
    assert names == [
        "memcpy H2D",
        "@module_1::@scale",
        "@module_1::@shift",
        "@module_2::@square",
        "@module_2::@negate",
        "memcpy D2H",
    ]
    waits = [e for e in slices if e["cat"] == "host wait"]
    assert waits and waits[0]["name"].startswith("gpu.wait (line ") and waits[0]["tid"] == 0
    kernels = [e for e in slices if e["cat"] == "kernel"]
    # The chain is ordered: each kernel starts after the previous one ended.
    for a, b in zip(kernels, kernels[1:]):
        assert b["ts"] >= a["ts"] + a["dur"] - 1e-3
    threads = {
        e["tid"]: e["args"]["name"] for e in doc["traceEvents"] if e["ph"] == "M" and "tid" in e
    }
    assert threads[0] == "host" and threads[1] == "device lane 0"
