"""Registered and host_shared memory on a device without unified host memory
(`xgpu.runtime.coherence`), tested on PoCL with the copying path forced
(`RunOptions(host_copies=True)`, as `XGPU_HOST_COPIES=1` does): what the host
writes reaches the device before device work starts, what the device writes
reaches the host once the host may see it, with no copy beyond what changed.
tests/unit/test_oclgrind.py runs the same programs on a device that really has
no unified memory."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import numpy as np
import pytest
from devices import needs_opencl

from xgpu.runtime.api import RunError, Runner, RunOptions, load

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = [
    p
    for p in sorted((ROOT / "tests" / "runtime" / "zoo").glob("*.mlir"))
    + sorted((ROOT / "tests" / "runtime" / "sim").glob("*.mlir"))
    if "host_register" in p.read_text() or "host_shared" in p.read_text()
]


pytestmark = needs_opencl


class Result:
    def __init__(self, value, runner: Runner, out: str):
        self.value = value
        self.runner = runner
        self.out = out

    @property
    def coherence(self):
        return self.runner._gpu.coherence

    @property
    def copies(self) -> list[int]:
        return list(self.coherence.copies)


def _run(text: str, args=(), host_copies: bool | None = True, trace: str | None = None) -> Result:
    module, sources = load(text, "coherence.mlir")
    out = io.StringIO()
    runner = Runner(module, sources, RunOptions(host_copies=host_copies, stdout=out, trace=trace))
    value = runner.call("main", list(args))
    return Result(value, runner, out.getvalue())


def _clean(out: str) -> str:
    return re.sub(r"base@ = 0x[0-9a-f]+", "base@ = 0x?", out)


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_programs_give_the_same_output_with_device_copies(path: Path):
    text = path.read_text()
    assert _clean(_run(text, host_copies=True).out) == _clean(_run(text, host_copies=None).out)


def test_unified_device_uses_host_memory_in_place():
    r = _run(_KERNEL_WRITES, [np.zeros(8, np.float32)], host_copies=None)
    if not r.runner._gpu.dctx.host_unified:
        pytest.skip("the default OpenCL device has no unified host memory")
    assert r.coherence is None


# A kernel adds 1 to every element of a registered numpy argument; the host
# never waits: the end of the run makes the device's writes visible.
_KERNEL_WRITES = """
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @inc(%m: memref<8xf32>) kernel {
      %i = gpu.global_id x
      %x = memref.load %m[%i] : memref<8xf32>
      %one = arith.constant 1.0 : f32
      %y = arith.addf %x, %one : f32
      memref.store %y, %m[%i] : memref<8xf32>
      gpu.return
    }
  }
  func.func @main(%h: memref<8xf32>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %u = memref.cast %h : memref<8xf32> to memref<*xf32>
    gpu.host_register %u : memref<*xf32>
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @k::@inc blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%h : memref<8xf32>)
    return
  }
}
"""


def test_numpy_argument_sees_the_kernel_writes_after_the_run():
    x = np.arange(8, dtype=np.float32)
    r = _run(_KERNEL_WRITES, [x])
    assert x.tolist() == [float(i + 1) for i in range(8)]
    assert r.copies == [0, 1]


_READ_ONLY = """
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @twice(%dst: memref<8xf32>, %src: memref<8xf32>) kernel {
      %i = gpu.global_id x
      %x = memref.load %src[%i] : memref<8xf32>
      %y = arith.addf %x, %x : f32
      memref.store %y, %dst[%i] : memref<8xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main(%a: memref<8xf32>, %b: memref<8xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : index
    %ua = memref.cast %a : memref<8xf32> to memref<*xf32>
    %ub = memref.cast %b : memref<8xf32> to memref<*xf32>
    gpu.host_register %ua : memref<*xf32>
    gpu.host_register %ub : memref<*xf32>
    // @twice only reads %a: the host reads it again without any copy.
    scf.for %i = %c0 to %c3 step %c1 {
      gpu.launch_func @k::@twice blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%b : memref<8xf32>, %a : memref<8xf32>)
    }
    call @printMemrefF32(%ua) : (memref<*xf32>) -> ()
    // It writes %b: one copy back, before the first host read only.
    call @printMemrefF32(%ub) : (memref<*xf32>) -> ()
    %x = memref.load %b[%c1] : memref<8xf32>
    return
  }
}
"""


def test_read_only_arguments_are_not_copied_back():
    a = np.arange(8, dtype=np.float32)
    b = np.zeros(8, np.float32)
    r = _run(_READ_ONLY, [a, b])
    assert b.tolist() == [2.0 * i for i in range(8)]
    assert "[0,  1,  2,  3,  4,  5,  6,  7]" in r.out
    assert "[0,  2,  4,  6,  8,  10,  12,  14]" in r.out
    assert r.copies == [0, 1]


_HOST_WRITES = """
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @inc(%m: memref<8xf32>) kernel {
      %i = gpu.global_id x
      %x = memref.load %m[%i] : memref<8xf32>
      %one = arith.constant 1.0 : f32
      %y = arith.addf %x, %one : f32
      memref.store %y, %m[%i] : memref<8xf32>
      gpu.return
    }
  }
  func.func @main(%h: memref<8xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : index
    %ten = arith.constant 10.0 : f32
    %u = memref.cast %h : memref<8xf32> to memref<*xf32>
    gpu.host_register %u : memref<*xf32>
    scf.for %r = %c0 to %c3 step %c1 {
      // h[2] += 10 on the host, then h[:] += 1 on the device
      %x = memref.load %h[%c2] : memref<8xf32>
      %y = arith.addf %x, %ten : f32
      memref.store %y, %h[%c2] : memref<8xf32>
      gpu.launch_func @k::@inc blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%h : memref<8xf32>)
    }
    return
  }
}
"""


def test_host_writes_between_launches_copy_only_what_changed(tmp_path: Path):
    h = np.zeros(8, np.float32)
    trace = tmp_path / "trace.json"
    r = _run(_HOST_WRITES, [h], trace=str(trace))
    assert h.tolist() == [3.0, 3.0, 33.0, 3.0, 3.0, 3.0, 3.0, 3.0]
    # Each round: the host reads h[2] (the previous kernel's result comes
    # back), writes it (one element goes to the device).
    assert r.copies == [3, 3]
    events = json.loads(trace.read_text())["traceEvents"]
    uploads = [e for e in events if e.get("name") == "coherence H2D"]
    assert [e["args"]["bytes"] for e in uploads] == [4, 4, 4]


_DISJOINT = """
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @low_half(%m: memref<8xi32>) kernel {
      %i = gpu.global_id x
      %c4 = arith.constant 4 : index
      %lo = arith.cmpi ult, %i, %c4 : index
      scf.if %lo {
        %v = arith.index_cast %i : index to i32
        %k = arith.constant 100 : i32
        %w = arith.addi %v, %k : i32
        memref.store %w, %m[%i] : memref<8xi32>
      }
      gpu.return
    }
  }
  func.func @main(%h: memref<8xi32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %u = memref.cast %h : memref<8xi32> to memref<*xi32>
    gpu.host_register %u : memref<*xi32>
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @k::@low_half blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%h : memref<8xi32>)
    // While the kernel runs, the host writes the elements it does not touch.
    scf.for %i = %c4 to %c8 step %c1 {
      %v = arith.index_cast %i : index to i32
      %n = arith.subi %v, %v : i32
      %k = arith.constant -7 : i32
      %w = arith.addi %n, %k : i32
      memref.store %w, %h[%i] : memref<8xi32>
    }
    gpu.wait [%t1]
    return
  }
}
"""


def test_disjoint_host_and_device_writes_to_one_buffer_are_both_kept():
    h = np.zeros(8, np.int32)
    _run(_DISJOINT, [h])
    assert h.tolist() == [100, 101, 102, 103, -7, -7, -7, -7]


_SIGNED_ZERO = """
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @copy(%dst: memref<2xf32>, %src: memref<2xf32>) kernel {
      %i = gpu.global_id x
      %x = memref.load %src[%i] : memref<2xf32>
      memref.store %x, %dst[%i] : memref<2xf32>
      gpu.return
    }
  }
  func.func @main(%h: memref<2xf32>, %out: memref<2xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %uh = memref.cast %h : memref<2xf32> to memref<*xf32>
    %uo = memref.cast %out : memref<2xf32> to memref<*xf32>
    gpu.host_register %uh : memref<*xf32>
    gpu.host_register %uo : memref<*xf32>
    // -0.0 over 0.0 and a NaN over a NaN of another payload: equal or
    // unordered as floats, different bits.
    %nz = arith.constant -0.0 : f32
    memref.store %nz, %h[%c0] : memref<2xf32>
    %nan = arith.constant 0x7FC00001 : f32
    memref.store %nan, %h[%c1] : memref<2xf32>
    gpu.launch_func @k::@copy blocks in (%c1, %c1, %c1) threads in (%c2, %c1, %c1) args(%out : memref<2xf32>, %h : memref<2xf32>)
    return
  }
}
"""


def test_changes_are_found_bit_for_bit():
    h = np.array([0.0, np.float32(np.nan)], np.float32)
    out = np.zeros(2, np.float32)
    _run(_SIGNED_ZERO, [h, out])
    assert out.view(np.uint32).tolist() == [0x80000000, 0x7FC00001]


_SHARED_AND_VIEWS = """
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @inc(%m: memref<4xi32, strided<[2], offset: 1>>) kernel {
      %i = gpu.global_id x
      %x = memref.load %m[%i] : memref<4xi32, strided<[2], offset: 1>>
      %one = arith.constant 1 : i32
      %y = arith.addi %x, %one : i32
      memref.store %y, %m[%i] : memref<4xi32, strided<[2], offset: 1>>
      gpu.return
    }
  }
  func.func @main(%plain: memref<8xi32>, %odd_out: memref<4xi32>) -> memref<8xi32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %nine = arith.constant 9 : i32
    %zero = arith.constant 0 : i32
    %t0 = gpu.wait async
    %s, %t1 = gpu.alloc async [%t0] host_shared () : memref<8xi32>
    %t2 = gpu.memset async [%t1] %s, %nine : memref<8xi32>, i32
    %odd = memref.subview %s[1] [4] [2] : memref<8xi32> to memref<4xi32, strided<[2], offset: 1>>
    %t3 = gpu.launch_func async [%t2] @k::@inc blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%odd : memref<4xi32, strided<[2], offset: 1>>)
    gpu.wait [%t3]
    // a strided copy out of shared memory (done by the host), and a copy of
    // the host's later write into plain host memory (done by the device)
    memref.store %zero, %s[%c0] : memref<8xi32>
    gpu.memcpy %odd_out, %odd : memref<4xi32>, memref<4xi32, strided<[2], offset: 1>>
    gpu.memcpy %plain, %s : memref<8xi32>, memref<8xi32>
    // returned to Python after one more kernel, never waited for
    %t4 = gpu.launch_func async @k::@inc blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%odd : memref<4xi32, strided<[2], offset: 1>>)
    return %s : memref<8xi32>
  }
}
"""


def test_host_shared_memory_views_copies_and_results():
    plain = np.full(8, -1, np.int32)
    odd = np.zeros(4, np.int32)
    r = _run(_SHARED_AND_VIEWS, [plain, odd])
    assert odd.tolist() == [10, 10, 10, 10]
    assert plain.tolist() == [0, 10, 9, 10, 9, 10, 9, 10]
    assert r.value.tolist() == [0, 11, 9, 11, 9, 11, 9, 11]


_UNREGISTER = """
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @inc(%m: memref<4xi32>) kernel {
      %i = gpu.global_id x
      %x = memref.load %m[%i] : memref<4xi32>
      %one = arith.constant 1 : i32
      %y = arith.addi %x, %one : i32
      memref.store %y, %m[%i] : memref<4xi32>
      gpu.return
    }
  }
  func.func @main(%h: memref<4xi32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %u = memref.cast %h : memref<4xi32> to memref<*xi32>
    gpu.host_register %u : memref<*xi32>
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @k::@inc blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%h : memref<4xi32>)
    gpu.wait [%t1]
    gpu.host_unregister %u : memref<*xi32>
    %five = arith.constant 5 : i32
    memref.store %five, %h[%c0] : memref<4xi32>
    gpu.host_register %u : memref<*xi32>
    gpu.launch_func @k::@inc blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%h : memref<4xi32>)
    gpu.host_unregister %u : memref<*xi32>
    gpu.launch_func @k::@inc blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%h : memref<4xi32>)
    return
  }
}
"""


def test_unregistered_memory_is_host_memory_again():
    h = np.array([1, 2, 3, 4], np.int32)
    with pytest.raises(RunError) as info:
        _run(_UNREGISTER, [h])
    assert "host memory that the device cannot use" in info.value.diagnostic.message
    last_launch = [i for i, line in enumerate(_UNREGISTER.splitlines()) if "launch_func" in line]
    assert info.value.diagnostic.location.line == last_launch[-1] + 1
    # Both launches before the second host_unregister reached the host.
    assert h.tolist() == [6, 4, 5, 6]


def test_host_writes_while_device_work_is_pending_survive_the_merge():
    """The device writes h[0:2] and h[6:8] once a gate opens; meanwhile the
    host writes h[4]. The merge reads back the span that covers both writes:
    the twin keeps the host's element."""
    import pyopencl as cl

    from xgpu.runtime.memref import from_numpy
    from xgpu.runtime.opencl_device import GpuRuntime, QueueConfig, select_device

    gpu = GpuRuntime(select_device(), QueueConfig(host_copies=True))
    array = np.zeros(8, np.int32)
    h = from_numpy(array)
    gpu.host_register(h)
    gate = cl.UserEvent(gpu.context)
    t1 = gpu.memset(h.view(0, (2,), (1,)), 5, (gate,), True)
    t2 = gpu.memset(h.view(6, (2,), (1,)), 6, (gate,), True)
    gpu.coherence.host_access(h, True)
    array[4] = -1
    gate.set_status(cl.command_execution_status.COMPLETE)
    gpu.tokens.wait(t1 + t2)
    gpu.coherence.host_access(h, False)
    assert array.tolist() == [5, 5, 0, 0, -1, 0, 6, 6]
    assert gpu.coherence.copies == [0, 1]
    gpu.finish()


_MANY_LAUNCHES = """
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @inc(%m: memref<4xi32>) kernel {
      %i = gpu.global_id x
      %x = memref.load %m[%i] : memref<4xi32>
      %one = arith.constant 1 : i32
      %y = arith.addi %x, %one : i32
      memref.store %y, %m[%i] : memref<4xi32>
      gpu.return
    }
  }
  func.func @main(%h: memref<4xi32>) -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %n = arith.constant 100 : index
    %u = memref.cast %h : memref<4xi32> to memref<*xi32>
    gpu.host_register %u : memref<*xi32>
    %t0 = gpu.wait async
    %t = scf.for %i = %c0 to %n step %c1 iter_args(%dep = %t0) -> (!gpu.async.token) {
      %next = gpu.launch_func async [%dep] @k::@inc blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%h : memref<4xi32>)
      scf.yield %next : !gpu.async.token
    }
    gpu.wait [%t]
    %x = memref.load %h[%c1] : memref<4xi32>
    return %x : i32
  }
}
"""


def test_many_pending_writes_fold_without_copies():
    h = np.zeros(4, np.int32)
    r = _run(_MANY_LAUNCHES, [h])
    assert r.value == 100
    assert h.tolist() == [100] * 4
    assert r.copies == [0, 1]
    assert all(not m.pending for m in r.coherence.mirrors.values())


def test_a_wait_for_all_device_work_makes_its_writes_visible():
    text = _KERNEL_WRITES.replace(
        "func.func @main(%h: memref<8xf32>) {", "func.func @main(%h: memref<8xf32>) -> f32 {"
    ).replace(
        "    return\n  }\n}",
        "    gpu.wait\n    %c7 = arith.constant 7 : index\n"
        "    %x = memref.load %h[%c7] : memref<8xf32>\n    return %x : f32\n  }\n}",
    )
    assert "gpu.wait\n" in text and "return %x" in text
    r = _run(text, [np.arange(8, dtype=np.float32)])
    assert r.value == 8.0
    assert r.copies == [0, 1]
