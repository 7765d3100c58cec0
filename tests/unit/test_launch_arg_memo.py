"""xgpu-run's OpenCL launchers set only the kernel arguments that changed
since the kernel's last launch (`xgpu.runtime.launcher.make_launcher`, the
memo of `DeviceContext.arg_memo`): launches that change one argument at a
time (another buffer, another scalar, -0.0 after 0.0, another size) compute
what they would with every argument set, checked and unchecked, from one
launch site and from several sites of the same kernel."""

from __future__ import annotations

import numpy as np
import pytest

try:
    from xgpu.runtime.opencl_device import has_device

    SKIP = None if has_device() else "no OpenCL device"
except Exception as err:  # pragma: no cover
    SKIP = f"pyopencl unavailable: {err}"

pytestmark = pytest.mark.skipif(SKIP is not None, reason=SKIP or "")

# @main launches @put (m[i] = v * i - k for i < n) from a loop over the
# rows of %vals (v, k, n, which buffer), then once more from another site.
PROGRAM = """
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @put(%m: memref<?xf32>, %v: f32, %k: i32, %n: index) kernel {
      %i = gpu.global_id x
      %ok = arith.cmpi ult, %i, %n : index
      scf.if %ok {
        %ii = arith.index_cast %i : index to i32
        %fi = arith.sitofp %ii : i32 to f32
        %kf = arith.sitofp %k : i32 to f32
        %p = arith.mulf %v, %fi : f32
        %r = arith.subf %p, %kf : f32
        memref.store %r, %m[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @main(%a: memref<8xf32>, %b: memref<8xf32>, %vs: memref<?xf32>, %ks: memref<?xi32>,
                  %ns: memref<?xindex>, %which: memref<?xindex>, %out: memref<?x8xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %da = gpu.alloc () : memref<8xf32>
    %db = gpu.alloc () : memref<8xf32>
    gpu.memcpy %da, %a : memref<8xf32>, memref<8xf32>
    gpu.memcpy %db, %b : memref<8xf32>, memref<8xf32>
    %rows = memref.dim %vs, %c0 : memref<?xf32>
    scf.for %r = %c0 to %rows step %c1 {
      %v = memref.load %vs[%r] : memref<?xf32>
      %k = memref.load %ks[%r] : memref<?xi32>
      %n = memref.load %ns[%r] : memref<?xindex>
      %w = memref.load %which[%r] : memref<?xindex>
      %isb = arith.cmpi eq, %w, %c1 : index
      %d = scf.if %isb -> (memref<8xf32>) {
        scf.yield %db : memref<8xf32>
      } else {
        scf.yield %da : memref<8xf32>
      }
      %dv = memref.cast %d : memref<8xf32> to memref<?xf32>
      gpu.launch_func @k::@put blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
          args(%dv : memref<?xf32>, %v : f32, %k : i32, %n : index)
      %row = memref.subview %out[%r, 0] [1, 8] [1, 1] : memref<?x8xf32> to memref<8xf32, strided<[1], offset: ?>>
      gpu.memcpy %row, %d : memref<8xf32, strided<[1], offset: ?>>, memref<8xf32>
    }
    %dav = memref.cast %da : memref<8xf32> to memref<?xf32>
    %f = arith.constant 3.0 : f32
    %k7 = arith.constant 7 : i32
    gpu.launch_func @k::@put blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%dav : memref<?xf32>, %f : f32, %k7 : i32, %c8 : index)
    gpu.memcpy %a, %da : memref<8xf32>, memref<8xf32>
    gpu.dealloc %da : memref<8xf32>
    gpu.dealloc %db : memref<8xf32>
    return
  }
}
"""

# (v, k, n, buffer): each row changes one thing, or nothing
ROWS = [
    (1.0, 0, 8, 0),
    (1.0, 0, 8, 0),  # nothing changed
    (1.0, 0, 8, 1),  # the other buffer
    (2.0, 0, 8, 1),  # the float
    (0.0, 0, 8, 1),
    (-0.0, 0, 8, 1),  # equal to 0.0, other bytes
    (-0.0, 5, 8, 1),  # the integer
    (-0.0, 5, 4, 1),  # the index
    (1.0, 0, 8, 0),  # back to the first buffer
]


@pytest.mark.parametrize("checked", [True, False])
def test_changed_arguments_are_set(checked: bool):
    import xgpu

    a = np.full(8, 100.0, np.float32)
    b = np.full(8, 200.0, np.float32)
    vs = np.array([r[0] for r in ROWS], np.float32)
    ks = np.array([r[1] for r in ROWS], np.int32)
    ns = np.array([r[2] for r in ROWS], np.int64)
    which = np.array([r[3] for r in ROWS], np.int64)
    out = np.zeros((len(ROWS), 8), np.float32)
    xgpu.run(PROGRAM, args=[a, b, vs, ks, ns, which, out], checked=checked)
    bufs = [np.full(8, 100.0, np.float32), np.full(8, 200.0, np.float32)]
    i = np.arange(8)
    for r, (v, k, n, w) in enumerate(ROWS):
        bufs[w][:n] = np.float32(v) * i[:n] - np.float32(k)
        np.testing.assert_array_equal(out[r], bufs[w], err_msg=f"row {r}: {ROWS[r]}")
    # -0.0 * 0 - 0.0 is -0.0: the float argument was set again after 0.0
    assert np.signbit(out[5][0]) and not np.signbit(out[4][0])
    np.testing.assert_array_equal(a, np.float32(3.0) * i - 7)


def test_launcher_skips_unchanged_arguments():
    """The generated launcher sets the arguments under the memo's test, and
    the checked kernel's launch id at every launch."""
    from xgpu.runtime.api import Runner, RunOptions, load

    module, sources = load(PROGRAM, "memo.mlir")
    runner = Runner(module, sources, RunOptions(checked=True))
    op = next(o for o in module.walk() if o.name == "gpu.launch_func")
    source = runner.kernel_cache().launcher(op).source
    assert "is not _c[0]" in source
    guarded, always = source.split("_c[0], ")[0], source.split("_c[0], ")[1]
    assert "_setm(" in guarded and "lid" in always.split("_enq")[0]


# Two sites of @put take turns in a loop, each with scalars of its own that
# change at every iteration: a site's scalar-only path must not take the
# other site's arguments for its own.
TWO_SITES = (
    """
module attributes {gpu.container_module} {
"""
    + PROGRAM[PROGRAM.index("  gpu.module @k {") : PROGRAM.index("  func.func @main(")]
    + """  func.func @main(%out: memref<?x8xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : index
    %d = gpu.alloc () : memref<8xf32>
    %dv = memref.cast %d : memref<8xf32> to memref<?xf32>
    scf.for %r = %c0 to %c3 step %c1 {
      %ri = arith.index_cast %r : index to i32
      %rf = arith.sitofp %ri : i32 to f32
      %two = arith.constant 2.0 : f32
      %v = arith.addf %rf, %two : f32
      %n = arith.addi %r, %c3 : index
      gpu.launch_func @k::@put blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
          args(%dv : memref<?xf32>, %v : f32, %ri : i32, %c8 : index)
      %row = arith.addi %r, %r : index
      %s0 = memref.subview %out[%row, 0] [1, 8] [1, 1] : memref<?x8xf32> to memref<8xf32, strided<[1], offset: ?>>
      gpu.memcpy %s0, %d : memref<8xf32, strided<[1], offset: ?>>, memref<8xf32>
      %k10 = arith.constant 10 : i32
      %k = arith.addi %ri, %k10 : i32
      gpu.launch_func @k::@put blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
          args(%dv : memref<?xf32>, %rf : f32, %k : i32, %n : index)
      %row1 = arith.addi %row, %c1 : index
      %s1 = memref.subview %out[%row1, 0] [1, 8] [1, 1] : memref<?x8xf32> to memref<8xf32, strided<[1], offset: ?>>
      gpu.memcpy %s1, %d : memref<8xf32, strided<[1], offset: ?>>, memref<8xf32>
    }
    gpu.dealloc %d : memref<8xf32>
    return
  }
}
"""
)


@pytest.mark.parametrize("checked", [True, False])
def test_two_sites_with_changing_scalars(checked: bool):
    import xgpu

    out = np.zeros((6, 8), np.float32)
    xgpu.run(TWO_SITES, args=[out], checked=checked)
    i = np.arange(8, dtype=np.float32)
    m = np.zeros(8, np.float32)
    for r in range(3):
        m[:] = np.float32(r + 2.0) * i - r
        np.testing.assert_array_equal(out[2 * r], m, err_msg=f"first site, iteration {r}")
        n = r + 3
        m[:n] = np.float32(r) * i[:n] - (r + 10)
        np.testing.assert_array_equal(out[2 * r + 1], m, err_msg=f"second site, iteration {r}")
