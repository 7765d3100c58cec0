"""Hostile programs on xgpu-run: errors at the op, never a crash, a hang or
memory the program does not own.

- bounds-checked kernels (the default on OpenCL): an out-of-bounds access is
  not done (a load yields 0, a store is skipped, barriers are still reached),
  only the first failure is reported, at the next blocking point;
  `--unchecked` / `checked=False` runs the plain kernels;
- launch sizes and allocation sizes against the limits, on both backends;
- `--timeout` / `timeout=`: a kernel that loops forever ends the run with an
  error at its launch (each such run in a subprocess bounded by a timeout:
  OpenCL cannot stop the kernel, the device stays busy);
- bad views on the host (casts, reshapes, subviews, overlapping copies).

The OpenCL cases are skipped, with the reason, without an OpenCL device.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import xgpu
from xgpu.runtime.api import RunError

ROOT = Path(__file__).resolve().parents[2]


def _skip_reason() -> str | None:
    try:
        from xgpu.runtime.opencl_device import has_device
    except Exception as err:  # pragma: no cover
        return f"pyopencl unavailable: {err}"
    if not has_device():
        return "no OpenCL device (install pyopencl[pocl] for a CPU device)"
    return None


SKIP = _skip_reason()
opencl = pytest.mark.skipif(SKIP is not None, reason=SKIP or "")
BACKENDS = [pytest.param("opencl", marks=opencl), "sim"]


def module(kernels: str, body: str, signature: str = "()") -> str:
    return (
        "module attributes {gpu.container_module} {\n  gpu.module @k {\n"
        + textwrap.indent(textwrap.dedent(kernels).strip(), "    ")
        + f"\n  }}\n  func.func @main{signature} {{\n"
        + textwrap.indent(textwrap.dedent(body).strip(), "    ")
        + "\n    return\n  }\n}\n"
    )


def run_error(text: str, *, args=(), **options) -> RunError:
    with pytest.raises(RunError) as info:
        xgpu.run(text, args=list(args), name="h.mlir", **options)
    return info.value


# --------------------------------------------------------------------------- #
# Bounds-checked kernels

# A kernel storing 7 to view[i] and copying view[i] to out[i], i in [0, 8), on
# a view of the first 4 elements of an 8-element host buffer: elements 4..7
# are inside the buffer, outside the view.
THROUGH_A_VIEW = module(
    """
    gpu.func @f(%v: memref<4xf32, strided<[1]>>, %out: memref<8xf32>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %v[%i] : memref<4xf32, strided<[1]>>
      memref.store %x, %out[%i] : memref<8xf32>
      gpu.barrier
      %seven = arith.constant 7.0 : f32
      memref.store %seven, %v[%i] : memref<4xf32, strided<[1]>>
      gpu.return
    }
    """,
    """
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %ua = memref.cast %a : memref<8xf32> to memref<*xf32>
    gpu.host_register %ua : memref<*xf32>
    %uo = memref.cast %o : memref<8xf32> to memref<*xf32>
    gpu.host_register %uo : memref<*xf32>
    %v = memref.subview %a[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%v : memref<4xf32, strided<[1]>>, %o : memref<8xf32>)
    """,
    "(%a: memref<8xf32>, %o: memref<8xf32>)",
)


@opencl
def test_out_of_bounds_accesses_are_not_done():
    a = np.full(8, 5.0, dtype=np.float32)
    out = np.full(8, -1.0, dtype=np.float32)
    err = run_error(THROUGH_A_VIEW, args=[a, out])
    # The first failure only (the loads of work-items 4..7 fail, then their stores).
    assert len(err.diagnostics) == 1
    assert "out-of-bounds access to %a[" in err.diagnostic.message
    assert "(sizes [4]) by work-item (" in err.diagnostic.message
    np.testing.assert_array_equal(a, [7, 7, 7, 7, 5, 5, 5, 5])  # stores skipped
    np.testing.assert_array_equal(out, [5, 5, 5, 5, 0, 0, 0, 0])  # loads gave 0


@opencl
def test_unchecked_runs_the_plain_kernels():
    """In bounds: the same results with and without the checks, and the
    unchecked program has no guard at all."""
    from xgpu.runtime.api import Runner, RunOptions, load

    text = THROUGH_A_VIEW.replace("threads in (%c8,", "threads in (%c4,").replace(
        "%c8 = arith.constant 8 : index", "%c4 = arith.constant 4 : index"
    )
    results = []
    for checked in (True, False):
        a = np.arange(8, dtype=np.float32)
        out = np.zeros(8, dtype=np.float32)
        mod, sources = load(text, "ok.mlir")
        runner = Runner(mod, sources, RunOptions(checked=checked))
        runner.call("main", [a, out])
        sources_c = [ocl.source for ocl, _ in runner.kernel_cache().modules.values()]
        assert sources_c and all(("xg_fault" in s) == checked for s in sources_c)
        assert all(("_len" in s) == checked for s in sources_c)
        results.append((a.copy(), out.copy()))
    for got in results:
        np.testing.assert_array_equal(got[0], [7, 7, 7, 7, 4, 5, 6, 7])
        np.testing.assert_array_equal(got[1], [0, 1, 2, 3, 0, 0, 0, 0])


@opencl
def test_the_record_is_read_back_on_devices_without_unified_memory(monkeypatch):
    """The error record by a blocking copy (what a discrete GPU needs)."""
    from xgpu.runtime import fault_record

    made = []
    real = fault_record.FaultRecord.__init__

    def not_unified(self, context, queue, unified):
        made.append(unified)
        real(self, context, queue, False)

    monkeypatch.setattr(fault_record.FaultRecord, "__init__", not_unified)
    text = (ROOT / "tests/filecheck/hostile/runtime/oob-global-store.mlir").read_text()
    err = run_error(text)
    assert made
    assert err.diagnostic.message == (
        "out-of-bounds access to %d[4] (sizes [4]) by work-item (4, 0, 0) of block (0, 0, 0) "
        "of @k::@f"
    )


ASYNC_OOB = module(
    """
    gpu.func @f(%m: memref<4xi32>) kernel {
      %i = gpu.thread_id x
      %c = arith.constant 3 : i32
      memref.store %c, %m[%i] : memref<4xi32>
      gpu.return
    }
    """,
    """
    %c1 = arith.constant 1 : index
    %c6 = arith.constant 6 : index
    %d = gpu.alloc () : memref<4xi32>
    %t = gpu.launch_func async @k::@f blocks in (%c1, %c1, %c1) threads in (%c6, %c1, %c1) args(%d : memref<4xi32>)
    WAIT
    """,
)


@opencl
@pytest.mark.parametrize("wait", ["gpu.wait [%t]", ""])
def test_async_failures_are_reported_at_a_blocking_point_or_the_end(wait):
    err = run_error(ASYNC_OOB.replace("WAIT", wait))
    assert err.diagnostic.message.startswith("out-of-bounds access to %d[")
    assert err.diagnostic.location.line == 6  # the memref.store of the kernel


# --------------------------------------------------------------------------- #
# Launch and allocation sizes

EMPTY_KERNEL = "gpu.func @f() kernel {\n  gpu.return\n}"


def launch(grid: str, block: str, extra: str = "", kernel: str = EMPTY_KERNEL) -> str:
    return module(
        kernel,
        f"""
        %c1 = arith.constant 1 : index
        %c0 = arith.constant 0 : index
        %c65 = arith.constant 65 : index
        %c5000 = arith.constant 5000 : index
        gpu.launch_func @k::@f blocks in ({grid}) threads in ({block}) {extra}
        """,
    )


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "grid, block, message",
    [
        ("%c1, %c0, %c1", "%c1, %c1, %c1", "grid size y is 0: grid and block sizes must be"),
        ("%c1, %c1, %c1", "%c1, %c1, %c0", "block size z is 0: grid and block sizes must be"),
        ("%c1, %c1, %c1", "%c5000, %c1, %c1", "block size x = 5000 exceeds the device's limit"),
    ],
)
def test_launch_sizes(backend, grid, block, message):
    err = run_error(launch(grid, block), backend=backend)
    assert err.diagnostic.message.startswith("gpu.launch_func @k::@f: " + message)
    assert err.diagnostic.op.name == "gpu.launch_func"


def test_the_simulator_has_cudas_block_limits():
    err = run_error(launch("%c1, %c1, %c1", "%c1, %c1, %c65"), backend="sim")
    assert "block size z = 65 exceeds the device's limit of 64" in err.diagnostic.message


@pytest.mark.parametrize("backend", BACKENDS)
def test_known_grid_size_must_be_the_launch(backend):
    kernel = (
        "gpu.func @f() kernel attributes {known_grid_size = array<i32: 2, 1, 1>} {\n  gpu.return\n}"
    )
    err = run_error(launch("%c1, %c1, %c1", "%c1, %c1, %c1", kernel=kernel), backend=backend)
    assert (
        "grid size (1, 1, 1) differs from the kernel's known_grid_size = array<i32: 2, 1, 1>"
        in (err.diagnostic.message)
    )


@opencl
def test_kernel_arguments_beyond_the_parameter_size():
    n = 40
    args = ", ".join(f"%a{i}: memref<?x?x?xf32>" for i in range(n))
    operands = ", ".join("%d : memref<?x?x?xf32>" for _ in range(n))
    text = module(
        f"gpu.func @f({args}) kernel {{\n  gpu.return\n}}",
        f"""
        %c1 = arith.constant 1 : index
        %d = gpu.alloc (%c1, %c1, %c1) : memref<?x?x?xf32>
        gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args({operands})
        """,
    )
    err = run_error(text)
    assert "more than the device's" in err.diagnostic.message
    assert "(CL_DEVICE_MAX_PARAMETER_SIZE)" in err.diagnostic.message
    assert err.diagnostic.op.name == "gpu.func"


HOST_CASES = {
    "cast": (
        """
        %c4 = arith.constant 4 : index
        %m = memref.alloc(%c4) : memref<?xf32>
        %s = memref.cast %m : memref<?xf32> to memref<10xf32>
        """,
        "memref.cast of a memref of size 4 in dimension 0 to size 10",
    ),
    "expand_shape": (
        """
        %c4 = arith.constant 4 : index
        %c100 = arith.constant 100 : index
        %m = memref.alloc(%c4) : memref<?xf32>
        %e = memref.expand_shape %m [[0, 1]] output_shape [%c100, %c100] : memref<?xf32> into memref<?x?xf32>
        """,
        "expand_shape/collapse_shape of 4 elements to 10000 (sizes [100, 100])",
    ),
    "negative stride subview": (
        """
        %m = memref.alloc() : memref<4xf32>
        %s = memref.subview %m[1] [4] [-1] : memref<4xf32> to memref<4xf32, strided<[-1], offset: 1>>
        """,
        "memref.subview out of bounds: dimension 0 of size 4, offset 1, size 4, stride -1",
    ),
    "reinterpret_cast": (
        """
        %m = memref.alloc() : memref<4xf32>
        %r = memref.reinterpret_cast %m to offset: [2], sizes: [100000000], strides: [1] : memref<4xf32> to memref<100000000xf32, strided<[1], offset: 2>>
        """,
        "memref.reinterpret_cast outside its buffer: elements [2, 100000002) of 4",
    ),
    "overlapping gpu.memcpy": (
        """
        %m = gpu.alloc () : memref<16xf32>
        %a = memref.subview %m[0] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1]>>
        %b = memref.subview %m[4] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1], offset: 4>>
        gpu.memcpy %b, %a : memref<8xf32, strided<[1], offset: 4>>, memref<8xf32, strided<[1]>>
        """,
        "gpu.memcpy between overlapping views of the same memory (undefined behavior)",
    ),
    "interleaved strided gpu.memcpy": (
        """
        %m = gpu.alloc () : memref<16xf32>
        %z = arith.constant 0.0 : f32
        gpu.memset %m, %z : memref<16xf32>, f32
        %a = memref.subview %m[0] [8] [2] : memref<16xf32> to memref<8xf32, strided<[2]>>
        %b = memref.subview %m[1] [8] [2] : memref<16xf32> to memref<8xf32, strided<[2], offset: 1>>
        gpu.memcpy %b, %a : memref<8xf32, strided<[2], offset: 1>>, memref<8xf32, strided<[2]>>
        %c = memref.subview %m[2] [7] [2] : memref<16xf32> to memref<7xf32, strided<[2], offset: 2>>
        %d = memref.subview %m[0] [7] [2] : memref<16xf32> to memref<7xf32, strided<[2]>>
        gpu.memcpy %c, %d : memref<7xf32, strided<[2], offset: 2>>, memref<7xf32, strided<[2]>>
        """,
        "gpu.memcpy between overlapping views of the same memory (undefined behavior)",
    ),
    "memref.alloc beyond the host": (
        """
        %n = arith.constant 4611686018427387904 : index
        %m = memref.alloc(%n) : memref<?xf32>
        """,
        "memref.alloc of 18446744073709551616 bytes: out of host memory",
    ),
}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", list(HOST_CASES))
def test_bad_views_and_copies_on_the_host(backend, case):
    body, message = HOST_CASES[case]
    err = run_error(module(EMPTY_KERNEL, body), backend=backend)
    assert err.diagnostic.message == message


@opencl
def test_gpu_alloc_beyond_the_device_limit():
    body = """
    %n = arith.constant 1099511627776 : index
    %m = gpu.alloc (%n) : memref<?xf32>
    """
    err = run_error(module(EMPTY_KERNEL, body))
    assert err.diagnostic.message.startswith("gpu.alloc of 4398046511104 bytes exceeds")
    assert err.diagnostic.message.endswith("per allocation (CL_DEVICE_MAX_MEM_ALLOC_SIZE)")


# --------------------------------------------------------------------------- #
# Runaway kernels

SPIN = module(
    """
    gpu.func @spin(%m: memref<4xi32>) kernel {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1 : i32
      %zero = arith.constant 0 : i32
      %r = scf.while (%x = %one) : (i32) -> i32 {
        %c = arith.cmpi ne, %x, %zero : i32
        scf.condition(%c) %x : i32
      } do {
      ^bb0(%y: i32):
        %z = arith.ori %y, %one : i32
        scf.yield %z : i32
      }
      memref.store %r, %m[%c0] : memref<4xi32>
      gpu.return
    }
    """,
    """
    %c1 = arith.constant 1 : index
    %d = gpu.alloc () : memref<4xi32>
    %t = gpu.launch_func async @k::@spin blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<4xi32>)
    gpu.wait [%t]
    """,
)
LAUNCH_LINE = next(i for i, ln in enumerate(SPIN.splitlines(), 1) if "gpu.launch_func" in ln)
#: seconds: any limit ends a kernel that loops forever; each run spins (and
#: burns a core) that long
TIMEOUT = 0.25
TIMEOUT_MESSAGE = (
    f"error: gpu.launch_func @k::@spin did not finish within the timeout of {TIMEOUT:g} s "
    "(the kernel may loop forever; --timeout SECONDS sets the limit, 0 turns it off)"
)


def _subprocess(argv: list[str], **kw) -> subprocess.CompletedProcess:
    # Bounded: a hang fails the test instead of stalling the suite.
    return subprocess.run(argv, capture_output=True, text=True, timeout=120, cwd=ROOT, **kw)


@pytest.mark.parametrize("backend", BACKENDS)
def test_timeout_ends_an_infinite_kernel_loop(backend, tmp_path):
    path = tmp_path / "spin.mlir"
    path.write_text(SPIN)
    argv = [sys.executable, "-m", "xgpu.tools.xgpu_run", str(path), "--timeout", str(TIMEOUT)]
    proc = _subprocess([*argv, "--backend", backend])
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.startswith(f"{path}:{LAUNCH_LINE}:10: {TIMEOUT_MESSAGE}\n"), proc.stderr
    assert "Traceback" not in proc.stderr


@opencl
def test_library_timeout_leaves_the_device_unusable():
    script = textwrap.dedent(
        f"""
        import numpy as np, xgpu
        from xgpu.runtime.api import RunError
        text = {SPIN!r}
        try:
            xgpu.run(text, timeout={TIMEOUT}, name="spin.mlir")
        except RunError as err:
            print("fatal" if err.fatal else "not fatal")
            print(err.diagnostic.message)
        try:
            xgpu.run(text, timeout={TIMEOUT})
        except RunError as err:
            print(err.diagnostic.message)
        """
    )
    proc = _subprocess([sys.executable, "-c", script])
    assert proc.returncode == 0, proc.stderr
    fatal, first, second = proc.stdout.splitlines()
    assert fatal == "fatal"
    assert "error: " + first == TIMEOUT_MESSAGE
    assert "cannot run anything more in this process" in second
    assert f"gpu.launch_func @k::@spin timed out after {TIMEOUT:g} s" in second


# Ten chained launches of @step over one buffer, after a launch of @first on
# another: the sixth (%i = 5) loops forever. The chain is one entry of the
# watch, which a timeout must still name.
CHAIN = module(
    """
    gpu.func @first(%m: memref<4xi32>) kernel {
      gpu.return
    }
    gpu.func @step(%m: memref<4xi32>, %i: index) kernel {
      %c5 = arith.constant 5 : index
      %one = arith.constant 1 : i32
      %zero = arith.constant 0 : i32
      %bad = arith.cmpi eq, %i, %c5 : index
      scf.if %bad {
        %r = scf.while (%x = %one) : (i32) -> i32 {
          %c = arith.cmpi ne, %x, %zero : i32
          scf.condition(%c) %x : i32
        } do {
        ^bb0(%y: i32):
          %z = arith.ori %y, %one : i32
          scf.yield %z : i32
        }
      }
      gpu.return
    }
    """,
    """
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c10 = arith.constant 10 : index
    %a = gpu.alloc () : memref<4xi32>
    %d = gpu.alloc () : memref<4xi32>
    %t0 = gpu.launch_func async @k::@first blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xi32>)
    %t = scf.for %i = %c0 to %c10 step %c1 iter_args(%dep = %t0) -> (!gpu.async.token) {
      %n = gpu.launch_func async [%dep] @k::@step blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<4xi32>, %i : index)
      scf.yield %n : !gpu.async.token
    }
    gpu.wait [%t]
    """,
)


@pytest.mark.parametrize("backend", BACKENDS)
def test_timeout_names_the_launch_of_a_chain_that_loops(backend, tmp_path):
    """On OpenCL the chain's launches are one entry (its first and last
    events): the timeout names the chain, which has started, not the launch
    of @first before it."""
    path = tmp_path / "chain.mlir"
    path.write_text(CHAIN)
    line = next(i for i, ln in enumerate(CHAIN.splitlines(), 1) if "@k::@step blocks" in ln)
    argv = [sys.executable, "-m", "xgpu.tools.xgpu_run", str(path), "--timeout", str(TIMEOUT)]
    proc = _subprocess([*argv, "--backend", backend])
    assert proc.returncode == 1, proc.stderr
    message = TIMEOUT_MESSAGE.replace("@k::@spin", "@k::@step")
    assert proc.stderr.startswith(f"{path}:{line}:12: {message}\n"), proc.stderr


def test_simulator_timeout_in_the_library():
    err = run_error(SPIN, backend="sim", timeout=TIMEOUT)
    assert "error: " + err.diagnostic.message == TIMEOUT_MESSAGE
    assert not err.fatal  # nothing is left running
    assert err.diagnostic.location.line == LAUNCH_LINE


def test_timeout_flag_is_checked(capfd):
    from xgpu.tools.xgpu_run import main

    with pytest.raises(SystemExit) as info:
        main([str(ROOT / "examples" / "forum_run.mlir"), "--timeout", "-1"])
    assert info.value.code == 2
    assert "--timeout must be a number of seconds" in capfd.readouterr().err
    with pytest.raises(SystemExit) as info:
        main([str(ROOT / "examples" / "forum_run.mlir"), "--unchecked", "--backend", "sim"])
    assert info.value.code == 2
    assert "--unchecked needs --backend opencl" in capfd.readouterr().err


def test_simulator_timeout_of_a_spinning_work_item_in_any_thread():
    """The timer interrupts a work-item that loops forever outside the main
    thread, and where the program has a SIGALRM handler of its own."""
    import signal
    import threading

    found: list = []

    def target() -> None:
        try:
            xgpu.run(SPIN, backend="sim", timeout=TIMEOUT)
        except RunError as err:
            found.append(err.diagnostic.message)

    old = signal.signal(signal.SIGALRM, lambda *_: None)
    try:
        thread = threading.Thread(target=target, daemon=True)
        thread.start()
        thread.join(120)
    finally:
        signal.signal(signal.SIGALRM, old)
    assert not thread.is_alive()
    assert found and "error: " + found[0] == TIMEOUT_MESSAGE


def test_simulator_timeout_between_work_items_outside_the_main_thread():
    """The clock read between work-items ends a launch of 2^31 - 1 short
    blocks."""
    import threading

    text = launch("%c, %c1, %c1", "%c1, %c1, %c1").replace(
        "%c1 = arith.constant 1 : index",
        "%c1 = arith.constant 1 : index\n    %c = arith.constant 2147483647 : index",
    )
    found: list = []

    def target() -> None:
        try:
            xgpu.run(text, backend="sim", timeout=TIMEOUT)
        except RunError as err:
            found.append(err.diagnostic.message)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(120)
    assert not thread.is_alive()
    assert found and found[0].startswith("gpu.launch_func @k::@f did not finish within the timeout")
