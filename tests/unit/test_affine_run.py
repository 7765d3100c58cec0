"""Affine ops run directly by xgpu-run and xgpu.run, in host code and in
kernels, on both backends (`xgpu.transforms.lower_affine`), with the same
results as after mlir-opt 22's `lower-affine`."""

from __future__ import annotations

import io
import re
import subprocess

import numpy as np
import pytest
from devices import BACKENDS

import xgpu
from xgpu.runtime.api import RunError
from xgpu.tools.oracle import find_mlir_opt

MLIR_OPT = find_mlir_opt()

# A kernel over 32 work-items, x = tid - 16: floordiv, ceildiv and mod by a
# constant and by a symbol (s0 = 3), affine.min/max, an affine.for with an
# iteration argument and an affine.if with an inequality and an equality.
KERNEL = """#set = affine_set<(d0)[s0] : (d0 - 3 >= 0, s0 - d0 - 1 >= 0)>
#eq = affine_set<(d0) : (d0 mod 4 == 0)>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%out: memref<8x32xi64>, %s: index) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %c6 = arith.constant 6 : index
      %c7 = arith.constant 7 : index
      %x = affine.apply affine_map<(d0) -> (d0 - 16)>(%t)
      %fd = affine.apply affine_map<(d0) -> (d0 floordiv 4)>(%x)
      %cd = affine.apply affine_map<(d0)[s0] -> (d0 ceildiv s0)>(%x)[%s]
      %md = affine.apply affine_map<(d0)[s0] -> (d0 mod s0)>(%x)[%s]
      %mn = affine.min affine_map<(d0)[s0] -> (d0 * 2, 5, s0 - d0)>(%x)[%s]
      %mx = affine.max affine_map<(d0) -> (d0 * -3, d0 + 1)>(%x)
      %sum = affine.for %i = 0 to 5 iter_args(%acc = %x) -> (index) {
        %n = affine.apply affine_map<(d0, d1) -> (d0 + d1 * 2)>(%acc, %i)
        affine.yield %n : index
      }
      %sel = affine.if #set(%t)[%c7] -> index {
        affine.yield %fd : index
      } else {
        affine.yield %cd : index
      }
      %e = affine.if #eq(%x) -> index {
        affine.yield %c1 : index
      } else {
        affine.yield %c0 : index
      }
      %r0 = arith.index_cast %fd : index to i64
      %r1 = arith.index_cast %cd : index to i64
      %r2 = arith.index_cast %md : index to i64
      %r3 = arith.index_cast %mn : index to i64
      %r4 = arith.index_cast %mx : index to i64
      %r5 = arith.index_cast %sum : index to i64
      %r6 = arith.index_cast %sel : index to i64
      %r7 = arith.index_cast %e : index to i64
      affine.store %r0, %out[0, %t] : memref<8x32xi64>
      affine.store %r1, %out[1, %t] : memref<8x32xi64>
      affine.store %r2, %out[%c1 + 1, %t] : memref<8x32xi64>
      affine.store %r3, %out[3, %t] : memref<8x32xi64>
      affine.store %r4, %out[4, %t] : memref<8x32xi64>
      affine.store %r5, %out[5, %t] : memref<8x32xi64>
      affine.store %r6, %out[6, %t] : memref<8x32xi64>
      affine.store %r7, %out[7, %t] : memref<8x32xi64>
      gpu.return
    }
  }
  func.func @main(%host: memref<8x32xi64>) {
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c32 = arith.constant 32 : index
    %d = gpu.alloc () : memref<8x32xi64>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%d : memref<8x32xi64>, %c3 : index)
    gpu.memcpy %host, %d : memref<8x32xi64>, memref<8x32xi64>
    gpu.dealloc %d : memref<8x32xi64>
    return
  }
}
"""


def _kernel_expected() -> np.ndarray:
    """The kernel's rows computed with Python's integers (floor division and
    a non-negative modulo for a positive divisor, as affine maps define)."""
    s = 3
    rows = np.zeros((8, 32), np.int64)
    for t in range(32):
        x = t - 16
        fd, cd, md = x // 4, -((-x) // s), x % s
        acc = x
        for i in range(5):
            acc = acc + i * 2
        rows[:, t] = [
            fd,
            cd,
            md,
            min(x * 2, 5, s - x),
            max(x * -3, x + 1),
            acc,
            fd if (t - 3 >= 0 and 7 - t - 1 >= 0) else cd,
            1 if x % 4 == 0 else 0,
        ]
    return rows


@pytest.mark.parametrize("backend", BACKENDS)
def test_affine_ops_in_a_kernel(backend: str):
    out = np.zeros((8, 32), np.int64)
    xgpu.run(KERNEL, args=[out], backend=backend)
    np.testing.assert_array_equal(out, _kernel_expected())


def test_affine_kernel_race_free_on_the_simulator():
    out = np.zeros((8, 32), np.int64)
    xgpu.run(KERNEL, args=[out], backend="sim", detect_races=True)
    np.testing.assert_array_equal(out, _kernel_expected())


# Host code: affine.parallel over 2-D with two reductions (addf, maxs), an
# affine.for nest with a step and a max/min bound, affine.load/store.
HOST = """module {
  func.func @main(%a: memref<6x5xf32>, %b: memref<6xi32>, %out: memref<2xf32>, %best: memref<1xi32>) {
    %c2 = arith.constant 2 : index
    %sum, %top = affine.parallel (%i, %j) = (0, 0) to (6, 5) reduce ("addf", "maxs") -> (f32, i32) {
      %v = affine.load %a[%i, %j] : memref<6x5xf32>
      %w = affine.load %b[%i] : memref<6xi32>
      affine.yield %v, %w : f32, i32
    }
    affine.store %sum, %out[0] : memref<2xf32>
    affine.store %top, %best[0] : memref<1xi32>
    %zero = arith.constant 0.0 : f32
    affine.store %zero, %out[1] : memref<2xf32>
    affine.for %i = max affine_map<()[s0] -> (1, s0 - 1)>()[%c2] to min affine_map<(d0) -> (6, d0 * 3)>(%c2) step 2 {
      affine.for %j = 0 to 5 {
        %v = affine.load %a[%i, %j] : memref<6x5xf32>
        %acc = affine.load %out[1] : memref<2xf32>
        %n = arith.addf %acc, %v : f32
        affine.store %n, %out[1] : memref<2xf32>
      }
    }
    return
  }
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_affine_ops_in_host_code(backend: str):
    a = np.arange(30, dtype=np.float32).reshape(6, 5) / 4
    b = np.array([3, -7, 12, 0, 5, 11], np.int32)
    out = np.zeros(2, np.float32)
    best = np.zeros(1, np.int32)
    xgpu.run(HOST, args=[a, b, out, best], backend=backend)
    assert out[0] == pytest.approx(float(a.sum()))
    assert best[0] == b.max()
    # rows max(1, 2 - 1) = 1 up to min(6, 6) = 6 by 2: rows 1, 3, 5
    assert out[1] == pytest.approx(float(a[[1, 3, 5]].sum()))


OUT_OF_BOUNDS = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%a: memref<8xf32>) kernel {
      %t = gpu.thread_id x
      %v = affine.load %a[%t * 2] : memref<8xf32>
      affine.store %v, %a[%t] : memref<8xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %zero = arith.constant 0.0 : f32
    %d = gpu.alloc () : memref<8xf32>
    gpu.memset %d, %zero : memref<8xf32>, f32
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%d : memref<8xf32>)
    return
  }
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_fault_names_the_affine_op(backend: str):
    with pytest.raises(RunError) as info:
        xgpu.run(OUT_OF_BOUNDS, backend=backend, name="oob.mlir")
    text = str(info.value)
    assert text.startswith("oob.mlir:5:12: error: ")
    assert "out-of-bounds access to %d[8] (sizes [8]) by work-item (4, 0, 0)" in text
    assert "affine.load %a[%t * 2]" in text


@pytest.mark.skipif(
    MLIR_OPT is None, reason="mlir-opt 22 not found (install mlir-22-tools or set XGPU_MLIR_OPT)"
)
@pytest.mark.parametrize("backend", BACKENDS)
def test_the_same_output_as_after_mlir_lower_affine(backend: str):
    """The kernel program, and mlir-opt 22's `--lower-affine` of it: the same
    printed memref on the same backend."""
    printing = KERNEL.replace(
        "    gpu.dealloc %d : memref<8x32xi64>\n",
        "    gpu.dealloc %d : memref<8x32xi64>\n"
        "    %u = memref.cast %host : memref<8x32xi64> to memref<*xi64>\n"
        "    call @printMemrefI64(%u) : (memref<*xi64>) -> ()\n",
    ).replace(
        "    return\n  }\n}",
        "    return\n  }\n  func.func private @printMemrefI64(memref<*xi64>)\n}",
    )
    lowered = subprocess.run(
        [MLIR_OPT, "--lower-affine"], input=printing, capture_output=True, text=True, check=True
    ).stdout
    assert "affine." not in lowered
    outputs = []
    for text in (printing, lowered):
        out = io.StringIO()
        xgpu.run(text, args=[np.zeros((8, 32), np.int64)], backend=backend, stdout=out)
        outputs.append(re.sub(r"base@ = 0x[0-9a-f]+", "", out.getvalue()))
    assert outputs[0] == outputs[1]
    data = outputs[0].split("data =", 1)[1]
    printed = [int(v) for v in re.findall(r"-?\d+", data)]
    assert printed == _kernel_expected().ravel().tolist()


# delinearize/linearize_index (static and dynamic bases, an outer basis
# element given and not) in a kernel; affine.vector_load/store on the host.
INDEX_OPS = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%out: memref<3x24xindex>, %n: index) kernel {
      %t = gpu.thread_id x
      %q:3 = affine.delinearize_index %t into (2, 3, 4) : index, index, index
      %r:2 = affine.delinearize_index %t into (%n) : index, index
      %l = affine.linearize_index [%q#0, %q#1, %q#2] by (2, 3, 4) : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %s = arith.addi %q#0, %r#1 : index
      %u = arith.muli %q#1, %r#0 : index
      %w = arith.addi %u, %q#2 : index
      memref.store %l, %out[%c0, %t] : memref<3x24xindex>
      memref.store %s, %out[%c1, %t] : memref<3x24xindex>
      memref.store %w, %out[%c2, %t] : memref<3x24xindex>
      gpu.return
    }
  }
  func.func @main(%out: memref<3x24xindex>, %v: memref<8xf32>) {
    %c1 = arith.constant 1 : index
    %c5 = arith.constant 5 : index
    %c24 = arith.constant 24 : index
    %d = gpu.alloc () : memref<3x24xindex>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c24, %c1, %c1) args(%d : memref<3x24xindex>, %c5 : index)
    gpu.memcpy %out, %d : memref<3x24xindex>, memref<3x24xindex>
    %i = arith.constant 1 : index
    %x = affine.vector_load %v[%i * 2] : memref<8xf32>, vector<3xf32>
    %y = arith.addf %x, %x : vector<3xf32>
    affine.vector_store %y, %v[%i + 4] : memref<8xf32>, vector<3xf32>
    return
  }
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_index_ops_and_vector_accesses(backend: str):
    out = np.zeros((3, 24), np.int64)
    v = np.arange(8, dtype=np.float32)
    xgpu.run(INDEX_OPS, args=[out, v], backend=backend)
    t = np.arange(24)
    np.testing.assert_array_equal(out[0], t)  # linearize(delinearize(t)) == t
    np.testing.assert_array_equal(out[1], t // 12 + t % 5)
    np.testing.assert_array_equal(out[2], (t // 4) % 3 * (t // 5) + t % 4)
    want = np.arange(8, dtype=np.float32)
    want[5:8] = 2 * want[2:5]
    np.testing.assert_array_equal(v, want)


@pytest.mark.skipif(
    MLIR_OPT is None, reason="mlir-opt 22 not found (install mlir-22-tools or set XGPU_MLIR_OPT)"
)
def test_index_ops_as_mlir_expands_them():
    """mlir-opt 22's --affine-expand-index-ops --lower-affine of the program
    computes the same values."""
    lowered = subprocess.run(
        [MLIR_OPT, "--affine-expand-index-ops", "--lower-affine"],
        input=INDEX_OPS,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "affine." not in lowered
    results = []
    for text in (INDEX_OPS, lowered):
        out = np.zeros((3, 24), np.int64)
        v = np.arange(8, dtype=np.float32)
        xgpu.run(text, args=[out, v], backend="sim")
        results.append((out, v))
    np.testing.assert_array_equal(results[0][0], results[1][0])
    np.testing.assert_array_equal(results[0][1], results[1][1])
