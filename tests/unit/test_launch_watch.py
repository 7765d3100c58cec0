"""The launches a run of bounds-checked kernels lists (`xgpu.runtime.watch`):
consecutive launches of one site over the same memrefs share a launch id,
a chain of launches keeps one event, and a failure after hundreds of
launches (chained, or alternating buffers between blocking waits that prune
the list) is reported as the simulator reports it."""

from __future__ import annotations

import numpy as np
import pytest

import xgpu
from xgpu.runtime.api import RunError, Runner, RunOptions, load

try:
    from xgpu.runtime.opencl_device import has_device

    SKIP = None if has_device() else "no OpenCL device"
except Exception as err:  # pragma: no cover
    SKIP = f"pyopencl unavailable: {err}"

pytestmark = pytest.mark.skipif(SKIP is not None, reason=SKIP or "")

KERNEL = """
  gpu.module @k {
    gpu.func @inc(%x: memref<?xf32>, %n: index, %off: index) kernel {
      %i = gpu.global_id x
      %ok = arith.cmpi ult, %i, %n : index
      scf.if %ok {
        %j = arith.addi %i, %off : index
        %v = memref.load %x[%j] : memref<?xf32>
        %one = arith.constant 1.0 : f32
        %r = arith.addf %v, %one : f32
        memref.store %r, %x[%j] : memref<?xf32>
      }
      gpu.return
    }
  }
"""

# %count chained async launches over %dev; the one of iteration %bad reads
# 16 elements past the end.
CHAIN = (
    "module attributes {gpu.container_module} {"
    + KERNEL
    + """
  func.func @main(%host: memref<?xf32>, %count: index, %bad: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %t0 = gpu.wait async
    %dev, %t1 = gpu.alloc async [%t0] (%c16) : memref<?xf32>
    %t2 = gpu.memcpy async [%t1] %dev, %host : memref<?xf32>, memref<?xf32>
    %t3 = scf.for %i = %c0 to %count step %c1 iter_args(%t = %t2) -> (!gpu.async.token) {
      %isbad = arith.cmpi eq, %i, %bad : index
      %off = arith.select %isbad, %c16, %c0 : index
      %tn = gpu.launch_func async [%t] @k::@inc blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%dev : memref<?xf32>, %c16 : index, %off : index)
      scf.yield %tn : !gpu.async.token
    }
    %t4 = gpu.memcpy async [%t3] %host, %dev : memref<?xf32>, memref<?xf32>
    gpu.wait [%t4]
    gpu.dealloc %dev : memref<?xf32>
    return
  }
}
"""
)

# %count launches alternating between %a and %b, each followed by a blocking
# gpu.wait; the one of iteration %bad reads past the end of its buffer.
ALTERNATING = (
    "module attributes {gpu.container_module} {"
    + KERNEL
    + """
  func.func @main(%count: index, %bad: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %a = gpu.alloc (%c16) : memref<?xf32>
    %b = gpu.alloc (%c16) : memref<?xf32>
    %f0 = arith.constant 0.0 : f32
    gpu.memset %a, %f0 : memref<?xf32>, f32
    gpu.memset %b, %f0 : memref<?xf32>, f32
    scf.for %i = %c0 to %count step %c1 {
      %isbad = arith.cmpi eq, %i, %bad : index
      %off = arith.select %isbad, %c16, %c0 : index
      %r = arith.remui %i, %c2 : index
      %odd = arith.cmpi eq, %r, %c1 : index
      %m = scf.if %odd -> (memref<?xf32>) {
        scf.yield %b : memref<?xf32>
      } else {
        scf.yield %a : memref<?xf32>
      }
      %t = gpu.launch_func async @k::@inc blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%m : memref<?xf32>, %c16 : index, %off : index)
      gpu.wait [%t]
    }
    return
  }
}
"""
)


def _error(text: str, args: list, backend: str) -> RunError:
    with pytest.raises(RunError) as info:
        xgpu.run(text, args=args, name="w.mlir", backend=backend)
    return info.value


def test_a_chain_of_launches_keeps_one_id_and_one_event():
    module, sources = load(CHAIN, "w.mlir")
    runner = Runner(module, sources, RunOptions())
    host = np.zeros(16, dtype=np.float32)
    runner.call("main", [host, 1, 5])  # builds the kernel
    watch = runner.gpu_runtime().watch
    seen = []
    check = watch.check

    def listed(all_done: bool = False) -> None:
        seen.append((all_done, len(watch.launches), len(watch.inflight)))
        check(all_done)

    watch.check = listed
    host[:] = 0
    runner.call("main", [host, 500, 1000])
    # The blocking gpu.wait, then the end of the run.
    assert seen == [(False, 1, 1), (True, 1, 1)] or seen == [(False, 1, 0), (True, 1, 0)]
    assert not watch.launches and not watch.inflight
    np.testing.assert_array_equal(host, np.full(16, 500.0))


@pytest.mark.parametrize("bad", [0, 299])
def test_a_failure_in_a_chain_is_reported_as_the_simulator_reports_it(bad):
    args = [np.zeros(16, dtype=np.float32), 300, bad]
    got = _error(CHAIN, args, "opencl")
    want = _error(CHAIN, [np.zeros(16, dtype=np.float32), 2 if bad else 1, min(bad, 1)], "sim")
    assert got.format() == want.format()
    assert "%dev[" in got.diagnostic.message


@pytest.mark.parametrize("bad", [298, 299])
def test_a_failure_after_pruned_launches_names_its_buffer(bad):
    got = _error(ALTERNATING, [300, bad], "opencl")
    want = _error(ALTERNATING, [2, bad % 2], "sim")
    assert got.format() == want.format()
    assert ("%b[" if bad % 2 else "%a[") in got.diagnostic.message


# %count launches over the same operands; the one of iteration %bad asks for
# more work-items per block than any device allows.
SIZES = (
    "module attributes {gpu.container_module} {"
    + KERNEL
    + """
  func.func @main(%count: index, %bad: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %huge = arith.constant 1048576 : index
    %a = gpu.alloc (%c16) : memref<?xf32>
    %f0 = arith.constant 0.0 : f32
    gpu.memset %a, %f0 : memref<?xf32>, f32
    scf.for %i = %c0 to %count step %c1 {
      %isbad = arith.cmpi eq, %i, %bad : index
      %bs = arith.select %isbad, %huge, %c16 : index
      gpu.launch_func @k::@inc blocks in (%c1, %c1, %c1) threads in (%bs, %c1, %c1) args(%a : memref<?xf32>, %c16 : index, %c0 : index)
    }
    return
  }
}
"""
)


def test_a_launch_of_other_sizes_after_many_is_checked_again():
    first = _error(SIZES, [1, 0], "opencl")
    later = _error(SIZES, [50, 49], "opencl")
    assert later.format() == first.format()
    assert "gpu.launch_func @k::@inc" in later.diagnostic.message
