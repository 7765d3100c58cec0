"""Emitted OpenCL C run on a real OpenCL device (PoCL on CPU in CI).

One gpu.module holds every kernel: it is emitted and built once for the whole
module (PoCL builds are slow), then each test launches its kernel with
pyopencl and checks the result with numpy. Skipped, with the reason, when no
OpenCL device is available (`XGPU_OPENCL_DEVICE` picks one by substring).
Reductions are emitted in the order `$XGPU_REDUCTION` forces ("fold" when
unset; tests/unit/test_reductions.py covers both orders on every run).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import xgpu
from xgpu.backend.opencl import compile_gpu_module
from xgpu.backend.opencl.device import forced_reduction
from xgpu.semantics import gpu as gsem
from xgpu.semantics import lookup_name

ORDER = forced_reduction() or "fold"
REDUCE = gsem.REDUCTIONS[ORDER]

KERNELS = r"""
module attributes {gpu.container_module} {
  gpu.module @tests {
    "memref.global"() <{sym_name = "table", sym_visibility = "private", type = memref<4xi32>, initial_value = dense<[10, 20, 30, 40]> : tensor<4xi32>, constant}> : () -> ()

    // out[i] = a * x[i] + y[i]; iout[i] = (ix[i] * 3) >> 1 (signed), ix[i] udiv 7
    gpu.func @elementwise(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>, %out: memref<?xf32>,
                          %ix: memref<?xi32>, %iout: memref<?x2xi32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %i = gpu.global_id x
      %xi = memref.load %x[%i] : memref<?xf32>
      %yi = memref.load %y[%i] : memref<?xf32>
      %p = arith.mulf %a, %xi : f32
      %s = arith.addf %p, %yi : f32
      memref.store %s, %out[%i] : memref<?xf32>
      %v = memref.load %ix[%i] : memref<?xi32>
      %c3 = arith.constant 3 : i32
      %c1i = arith.constant 1 : i32
      %c7 = arith.constant 7 : i32
      %m = arith.muli %v, %c3 : i32
      %sh = arith.shrsi %m, %c1i : i32
      %d = arith.divui %v, %c7 : i32
      memref.store %sh, %iout[%i, %c0] : memref<?x2xi32>
      memref.store %d, %iout[%i, %c1] : memref<?x2xi32>
      gpu.return
    }

    // A strided 2-D view: out[i, j] = in[i + 1, 2 * j] * 2 through a subview
    // (the input is itself a dynamic strided view).
    gpu.func @strided(%in: memref<?x?xf32, strided<[?, ?], offset: ?>>, %out: memref<?x?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n0 = memref.dim %out, %c0 : memref<?x?xf32>
      %n1 = memref.dim %out, %c1 : memref<?x?xf32>
      %sv = memref.subview %in[1, 0] [%n0, %n1] [1, 2] : memref<?x?xf32, strided<[?, ?], offset: ?>> to memref<?x?xf32, strided<[?, ?], offset: ?>>
      %i = gpu.global_id x
      %j = gpu.global_id y
      %v = memref.load %sv[%i, %j] : memref<?x?xf32, strided<[?, ?], offset: ?>>
      %two = arith.constant 2.0 : f32
      %w = arith.mulf %v, %two : f32
      memref.store %w, %out[%i, %j] : memref<?x?xf32>
      gpu.return
    }

    // Per work item i: out[i] = (sum_{k<i} k, collatz steps of i+1, i odd ? 1 : -1, table[i % 4])
    gpu.func @loops(%out: memref<?x4xi32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %i = gpu.global_id x
      %z = arith.constant 0 : i32
      %sum = scf.for %k = %c0 to %i step %c1 iter_args(%acc = %z) -> (i32) {
        %ki = arith.index_cast %k : index to i32
        %n = arith.addi %acc, %ki : i32
        scf.yield %n : i32
      }
      memref.store %sum, %out[%i, %c0] : memref<?x4xi32>
      %one = arith.constant 1 : i32
      %i32 = arith.index_cast %i : index to i32
      %start = arith.addi %i32, %one : i32
      %r:2 = scf.while (%x = %start, %steps = %z) : (i32, i32) -> (i32, i32) {
        %cont = arith.cmpi ne, %x, %one : i32
        scf.condition(%cont) %x, %steps : i32, i32
      } do {
      ^bb0(%x2: i32, %s2: i32):
        %two = arith.constant 2 : i32
        %rem = arith.remui %x2, %two : i32
        %even = arith.cmpi eq, %rem, %z : i32
        %next = scf.if %even -> (i32) {
          %h = arith.divui %x2, %two : i32
          scf.yield %h : i32
        } else {
          %three = arith.constant 3 : i32
          %t = arith.muli %x2, %three : i32
          %t1 = arith.addi %t, %one : i32
          scf.yield %t1 : i32
        }
        %s3 = arith.addi %s2, %one : i32
        scf.yield %next, %s3 : i32, i32
      }
      memref.store %r#1, %out[%i, %c1] : memref<?x4xi32>
      %odd = arith.andi %i32, %one : i32
      %isodd = arith.cmpi eq, %odd, %one : i32
      %mone = arith.constant -1 : i32
      %sel = arith.select %isodd, %one, %mone : i32
      memref.store %sel, %out[%i, %c2] : memref<?x4xi32>
      %tab = memref.get_global @table : memref<4xi32>
      %im = arith.remui %i, %c4 : index
      %tv = memref.load %tab[%im] : memref<4xi32>
      memref.store %tv, %out[%i, %c3] : memref<?x4xi32>
      gpu.return
    }

    // cf: out[i] = i! (mod 2^64) computed with blocks and branches; swap test
    gpu.func @branches(%out: memref<?xi64>) kernel {
      %i = gpu.global_id x
      %one = arith.constant 1 : i64
      %c1 = arith.constant 1 : index
      %n = arith.index_cast %i : index to i64
      cf.br ^loop(%n, %one : i64, i64)
    ^loop(%k: i64, %acc: i64):
      %done = arith.cmpi sle, %k, %one : i64
      cf.cond_br %done, ^exit(%acc : i64), ^body
    ^body:
      %acc2 = arith.muli %acc, %k : i64
      %k2 = arith.subi %k, %one : i64
      cf.br ^loop(%k2, %acc2 : i64, i64)
    ^exit(%r: i64):
      memref.store %r, %out[%i] : memref<?xi64>
      gpu.return
    }

    // Device functions: scale(x, s) -> (x * s, x + s) and a memref argument.
    func.func @scale2(%x: f32, %s: f32) -> (f32, f32) {
      %m = arith.mulf %x, %s : f32
      %a = arith.addf %x, %s : f32
      return %m, %a : f32, f32
    }
    func.func @sum3(%buf: memref<?xf32>, %at: index) -> f32 {
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %a = memref.load %buf[%at] : memref<?xf32>
      %i1 = arith.addi %at, %c1 : index
      %b = memref.load %buf[%i1] : memref<?xf32>
      %i2 = arith.addi %at, %c2 : index
      %c = memref.load %buf[%i2] : memref<?xf32>
      %ab = arith.addf %a, %b : f32
      %abc = arith.addf %ab, %c : f32
      return %abc : f32
    }
    gpu.func @calls(%in: memref<?xf32>, %out: memref<?x3xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %i = gpu.global_id x
      %x = memref.load %in[%i] : memref<?xf32>
      %s = arith.constant 3.0 : f32
      %m, %a = func.call @scale2(%x, %s) : (f32, f32) -> (f32, f32)
      memref.store %m, %out[%i, %c0] : memref<?x3xf32>
      memref.store %a, %out[%i, %c1] : memref<?x3xf32>
      %t = func.call @sum3(%in, %i) : (memref<?xf32>, index) -> f32
      memref.store %t, %out[%i, %c2] : memref<?x3xf32>
      gpu.return
    }

    // Tiled 16x16 matmul: C = A @ B, N x N with N a multiple of 16.
    gpu.func @matmul(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>)
        workgroup(%ta: memref<16x16xf32, #gpu.address_space<workgroup>>, %tb: memref<16x16xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 16, 16, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %n = memref.dim %A, %c0 : memref<?x?xf32>
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %row = gpu.global_id y
      %col = gpu.global_id x
      %zero = arith.constant 0.0 : f32
      %acc = scf.for %t = %c0 to %n step %c16 iter_args(%sum = %zero) -> (f32) {
        %ac = arith.addi %t, %tx : index
        %av = memref.load %A[%row, %ac] : memref<?x?xf32>
        memref.store %av, %ta[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        %br = arith.addi %t, %ty : index
        %bv = memref.load %B[%br, %col] : memref<?x?xf32>
        memref.store %bv, %tb[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        gpu.barrier
        %c1 = arith.constant 1 : index
        %inner = scf.for %k = %c0 to %c16 step %c1 iter_args(%s = %sum) -> (f32) {
          %a = memref.load %ta[%ty, %k] : memref<16x16xf32, #gpu.address_space<workgroup>>
          %b = memref.load %tb[%k, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
          %p = arith.mulf %a, %b : f32
          %s2 = arith.addf %s, %p : f32
          scf.yield %s2 : f32
        }
        gpu.barrier
        scf.yield %inner : f32
      }
      memref.store %acc, %C[%row, %col] : memref<?x?xf32>
      gpu.return
    }

    // all_reduce of every kind over the workgroup; group g writes out[g, k].
    gpu.func @allreduce(%iv: memref<?xi32>, %fv: memref<?xf32>, %iout: memref<?x8xi32>, %fout: memref<?x4xf32>) kernel {
      %i = gpu.global_id x
      %g = gpu.block_id x
      %t = gpu.thread_id x
      %x = memref.load %iv[%i] : memref<?xi32>
      %f = memref.load %fv[%i] : memref<?xf32>
      %r0 = gpu.all_reduce add %x {} : (i32) -> i32
      %r1 = gpu.all_reduce mul %x {} : (i32) -> i32
      %r2 = gpu.all_reduce minsi %x {} : (i32) -> i32
      %r3 = gpu.all_reduce maxui %x {} : (i32) -> i32
      %r4 = gpu.all_reduce and %x {} : (i32) -> i32
      %r5 = gpu.all_reduce or %x {} : (i32) -> i32
      %r6 = gpu.all_reduce xor %x {} : (i32) -> i32
      %r7 = gpu.all_reduce %x {
      ^bb(%lhs: i32, %rhs: i32):
        %s = arith.subi %lhs, %rhs : i32
        gpu.yield %s : i32
      } : (i32) -> i32
      %f0 = gpu.all_reduce add %f {} : (f32) -> f32
      %f1 = gpu.all_reduce maxnumf %f {} : (f32) -> f32
      %f2 = gpu.all_reduce minimumf %f {} : (f32) -> f32
      %f3 = gpu.all_reduce mul %f {} : (f32) -> f32
      %c0 = arith.constant 0 : index
      %is0 = arith.cmpi eq, %t, %c0 : index
      scf.if %is0 {
        %k0 = arith.constant 0 : index
        %k1 = arith.constant 1 : index
        %k2 = arith.constant 2 : index
        %k3 = arith.constant 3 : index
        %k4 = arith.constant 4 : index
        %k5 = arith.constant 5 : index
        %k6 = arith.constant 6 : index
        %k7 = arith.constant 7 : index
        memref.store %r0, %iout[%g, %k0] : memref<?x8xi32>
        memref.store %r1, %iout[%g, %k1] : memref<?x8xi32>
        memref.store %r2, %iout[%g, %k2] : memref<?x8xi32>
        memref.store %r3, %iout[%g, %k3] : memref<?x8xi32>
        memref.store %r4, %iout[%g, %k4] : memref<?x8xi32>
        memref.store %r5, %iout[%g, %k5] : memref<?x8xi32>
        memref.store %r6, %iout[%g, %k6] : memref<?x8xi32>
        memref.store %r7, %iout[%g, %k7] : memref<?x8xi32>
        memref.store %f0, %fout[%g, %k0] : memref<?x4xf32>
        memref.store %f1, %fout[%g, %k1] : memref<?x4xf32>
        memref.store %f2, %fout[%g, %k2] : memref<?x4xf32>
        memref.store %f3, %fout[%g, %k3] : memref<?x4xf32>
      }
      gpu.return
    }

    // Subgroup ops (emulated: the workgroup is the subgroup); out[i, k].
    gpu.func @subgroups(%v: memref<?xf32>, %out: memref<?x12xf32>) kernel {
      %i = gpu.global_id x
      %x = memref.load %v[%i] : memref<?xf32>
      %c1 = arith.constant 1 : i32
      %c3 = arith.constant 3 : i32
      %w = arith.constant 32 : i32
      %w8 = arith.constant 8 : i32
      %r0 = gpu.subgroup_reduce add %x : (f32) -> f32
      %r1 = gpu.subgroup_reduce maxnumf %x cluster(size = 4) : (f32) -> f32
      %r2 = gpu.subgroup_reduce add %x cluster(size = 4, stride = 2) : (f32) -> f32
      %s0, %v0 = gpu.shuffle xor %x, %c1, %w : f32
      %s1, %v1 = gpu.shuffle up %x, %c3, %w : f32
      %s2, %v2 = gpu.shuffle down %x, %c3, %w8 : f32
      %s3, %v3 = gpu.shuffle idx %x, %c3, %w : f32
      %b = gpu.subgroup_broadcast %x, specific_lane %c3 : f32
      %lane = gpu.lane_id
      %size = gpu.subgroup_size : index
      %rot, %rv = gpu.rotate %x, 1, 8 : f32
      %vv = arith.extui %v1 : i1 to i32
      %vf = arith.uitofp %vv : i32 to f32
      %lf = arith.index_cast %lane : index to i32
      %lff = arith.sitofp %lf : i32 to f32
      %szi = arith.index_cast %size : index to i32
      %szf = arith.sitofp %szi : i32 to f32
      %k0 = arith.constant 0 : index
      %k1 = arith.constant 1 : index
      %k2 = arith.constant 2 : index
      %k3 = arith.constant 3 : index
      %k4 = arith.constant 4 : index
      %k5 = arith.constant 5 : index
      %k6 = arith.constant 6 : index
      %k7 = arith.constant 7 : index
      %k8 = arith.constant 8 : index
      %k9 = arith.constant 9 : index
      %k10 = arith.constant 10 : index
      %k11 = arith.constant 11 : index
      memref.store %r0, %out[%i, %k0] : memref<?x12xf32>
      memref.store %r1, %out[%i, %k1] : memref<?x12xf32>
      memref.store %r2, %out[%i, %k2] : memref<?x12xf32>
      memref.store %s0, %out[%i, %k3] : memref<?x12xf32>
      memref.store %s1, %out[%i, %k4] : memref<?x12xf32>
      memref.store %vf, %out[%i, %k5] : memref<?x12xf32>
      memref.store %s2, %out[%i, %k6] : memref<?x12xf32>
      memref.store %s3, %out[%i, %k7] : memref<?x12xf32>
      memref.store %b, %out[%i, %k8] : memref<?x12xf32>
      memref.store %lff, %out[%i, %k9] : memref<?x12xf32>
      memref.store %szf, %out[%i, %k10] : memref<?x12xf32>
      memref.store %rot, %out[%i, %k11] : memref<?x12xf32>
      gpu.return
    }

    // f64, dynamic shared memory with memref.view, private alloca, reinterpret_cast.
    gpu.func @misc(%d: memref<?xf64>, %out: memref<?x3xf64>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c8 = arith.constant 8 : index
      %i = gpu.global_id x
      %t = gpu.thread_id x
      %n = gpu.block_dim x
      %x = memref.load %d[%i] : memref<?xf64>
      %sq = math.sqrt %x : f64
      memref.store %sq, %out[%i, %c0] : memref<?x3xf64>
      %dsm = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %sh = memref.view %dsm[%c8][%n] : memref<?xi8, #gpu.address_space<workgroup>> to memref<?xf64, #gpu.address_space<workgroup>>
      memref.store %x, %sh[%t] : memref<?xf64, #gpu.address_space<workgroup>>
      gpu.barrier
      %last = arith.subi %n, %c1 : index
      %o = arith.subi %last, %t : index
      %y = memref.load %sh[%o] : memref<?xf64, #gpu.address_space<workgroup>>
      %p = memref.alloca() : memref<2xf64>
      memref.store %y, %p[%c1] : memref<2xf64>
      %y2 = memref.load %p[%c1] : memref<2xf64>
      memref.store %y2, %out[%i, %c1] : memref<?x3xf64>
      %g = gpu.grid_dim x
      %all = arith.muli %g, %n : index
      %flat = memref.reinterpret_cast %out to offset: [2], sizes: [%all], strides: [3] : memref<?x3xf64> to memref<?xf64, strided<[3], offset: 2>>
      %ci = arith.index_cast %i : index to i64
      %cf = arith.sitofp %ci : i64 to f64
      memref.store %cf, %flat[%i] : memref<?xf64, strided<[3], offset: 2>>
      gpu.return
    }
  }
}
"""


def _device():
    from xgpu.backend.opencl.device import NoDevice, select_device

    try:
        return select_device()
    except NoDevice as err:
        pytest.skip(f"no OpenCL device: {err}")


@pytest.fixture(scope="module")
def env():
    cl = pytest.importorskip("pyopencl", reason="pyopencl is not installed")
    device = _device()
    ctx = cl.Context([device])
    queue = cl.CommandQueue(ctx)
    module = xgpu.parse(KERNELS, "kernels.mlir")
    assert xgpu.verify(module) == []
    gpu_module = next(op for op in module.walk() if op.name == "gpu.module")
    prog = compile_gpu_module(gpu_module, reduction=ORDER)
    try:
        built = cl.Program(ctx, prog.source).build(prog.build_options)
    except cl.RuntimeError as err:  # pragma: no cover - shows the emitted line and op
        pytest.fail(prog.explain_build_log(str(err)))
    return Env(cl, ctx, queue, prog, built)


class Env:
    def __init__(self, cl, ctx, queue, prog, built):
        self.cl, self.ctx, self.queue, self.prog, self.built = cl, ctx, queue, prog, built

    def buffer(self, array: np.ndarray):
        mf = self.cl.mem_flags
        return self.cl.Buffer(self.ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=array)

    def memref(self, base: np.ndarray, view: np.ndarray | None = None):
        """(buffer, offset, sizes, strides) of `view`, a numpy view into `base`."""
        view = base if view is None else view
        item = base.itemsize
        offset = (view.__array_interface__["data"][0] - base.__array_interface__["data"][0]) // item
        buf = self.buffer(np.ascontiguousarray(base))
        return buf, offset, view.shape, tuple(s // item for s in view.strides)

    def run(self, name, values, grid, block, dsm=0):
        """Run a (bounds-checked) kernel: no check may fail."""
        from xgpu.backend.opencl.guards import RECORD_LONGS

        abi = self.prog.kernels[name]
        kernel = self.cl.Kernel(self.built, abi.cl_name)
        kernel.set_scalar_arg_dtypes(abi.scalar_arg_dtypes())
        record = np.zeros(RECORD_LONGS, np.int64)
        rec_buf = self.buffer(record)
        args = abi.pack_args(values, block, dsm, record=rec_buf)
        gsize = tuple(g * b for g, b in zip(grid, block))
        kernel(self.queue, gsize, tuple(block), *args)
        self.queue.finish()
        self.cl.enqueue_copy(self.queue, record, rec_buf)
        assert record[0] == 0, f"a bounds check failed: {record[:16]}"

    def read(self, mem, like: np.ndarray) -> np.ndarray:
        out = np.empty_like(like)
        self.cl.enqueue_copy(self.queue, out, mem[0])
        return out


def test_elementwise(env):
    n = 64
    rng = np.random.default_rng(1)
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    ix = rng.integers(-(2**31), 2**31, n, dtype=np.int64).astype(np.int32)
    out, iout = env.memref(np.zeros(n, np.float32)), env.memref(np.zeros((n, 2), np.int32))
    env.run(
        "elementwise",
        [np.float32(1.5), env.memref(x), env.memref(y), out, env.memref(ix), iout],
        (n // 16, 1, 1),
        (16, 1, 1),
    )
    np.testing.assert_array_equal(env.read(out, x), np.float32(1.5) * x + y)
    got = env.read(iout, np.zeros((n, 2), np.int32))
    np.testing.assert_array_equal(got[:, 0], (ix * np.int32(3)) >> 1)
    np.testing.assert_array_equal(got[:, 1], (ix.view(np.uint32) // 7).astype(np.int32))


def test_strided_dynamic_views(env):
    base = np.arange(20 * 24, dtype=np.float32).reshape(20, 24)
    view = base[2:18:2, 3:21]  # offset, non-unit strides in both dimensions
    n0, n1 = 7, 9
    out = env.memref(np.zeros((n0, n1), np.float32))
    env.run("strided", [env.memref(base, view), out], (1, 1, 1), (n0, n1, 1))
    expect = view[1 : 1 + n0, 0 : 2 * n1 : 2] * 2
    np.testing.assert_array_equal(env.read(out, np.zeros((n0, n1), np.float32)), expect)


def _collatz(n: int) -> int:
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


def test_scf_loops_while_if_select_globals(env):
    n = 32
    out = env.memref(np.zeros((n, 4), np.int32))
    env.run("loops", [out], (2, 1, 1), (16, 1, 1))
    got = env.read(out, np.zeros((n, 4), np.int32))
    for i in range(n):
        assert tuple(got[i]) == (
            i * (i - 1) // 2,
            _collatz(i + 1),
            1 if i % 2 else -1,
            [10, 20, 30, 40][i % 4],
        )


def test_cf_branches(env):
    n = 24
    out = env.memref(np.zeros(n, np.int64))
    env.run("branches", [out], (3, 1, 1), (8, 1, 1))
    fact = [1]
    for k in range(1, n):
        fact.append((fact[-1] * k) % 2**64)
    expect = np.array(fact, dtype=np.uint64).view(np.int64)
    np.testing.assert_array_equal(env.read(out, np.zeros(n, np.int64)), expect)


def test_device_function_calls(env):
    n = 16
    x = np.arange(n + 2, dtype=np.float32)
    out = env.memref(np.zeros((n, 3), np.float32))
    env.run("calls", [env.memref(x), out], (1, 1, 1), (n, 1, 1))
    got = env.read(out, np.zeros((n, 3), np.float32))
    xs = x[:n]
    np.testing.assert_array_equal(got[:, 0], xs * 3)
    np.testing.assert_array_equal(got[:, 1], xs + 3)
    np.testing.assert_array_equal(got[:, 2], x[:n] + x[1 : n + 1] + x[2 : n + 2])


def test_tiled_matmul_16x16(env):
    n = 48
    rng = np.random.default_rng(2)
    a = rng.standard_normal((n, n)).astype(np.float32)
    b = rng.standard_normal((n, n)).astype(np.float32)
    c = env.memref(np.zeros((n, n), np.float32))
    env.run("matmul", [env.memref(a), env.memref(b), c], (n // 16, n // 16, 1), (16, 16, 1))
    np.testing.assert_allclose(env.read(c, a), a @ b, rtol=1e-4, atol=1e-4)


def test_all_reduce_every_kind(env):
    groups, block = 3, 24  # not a power of two
    rng = np.random.default_rng(3)
    iv = rng.integers(-50, 50, groups * block).astype(np.int32)
    iv[5] = -7  # make maxui see a large unsigned value
    fv = rng.uniform(0.5, 1.5, groups * block).astype(np.float32)
    iout = env.memref(np.zeros((groups, 8), np.int32))
    fout = env.memref(np.zeros((groups, 4), np.float32))
    env.run(
        "allreduce",
        [env.memref(iv), env.memref(fv), iout, fout],
        (groups, 1, 1),
        (block, 1, 1),
    )
    gi = env.read(iout, np.zeros((groups, 8), np.int32))
    gf = env.read(fout, np.zeros((groups, 4), np.float32))
    for g in range(groups):
        xs = [int(v) for v in iv[g * block : (g + 1) * block]]
        fs = [float(v) for v in fv[g * block : (g + 1) * block]]

        def red(kind, vals, t):
            return REDUCE(vals, gsem.combiner(kind, t).py)

        expect_i = [red(k, xs, "i32") for k in ("add", "mul", "minsi", "maxui", "and", "or", "xor")]
        expect_i.append(REDUCE(xs, lookup_name("arith.subi", ["i32"] * 2, ["i32"]).py))
        assert list(gi[g]) == expect_i
        assert red("add", xs, "i32") == sum(xs)
        assert red("minsi", xs, "i32") == min(xs)
        expect_f = [red(k, fs, "f32") for k in ("add", "maxnumf", "minimumf", "mul")]
        # Same order as the simulator: bit-exact.
        assert [float(v) for v in gf[g]] == expect_f
        assert abs(expect_f[0] - sum(fs)) < 1e-3


def test_subgroup_ops_emulated(env):
    block = 16
    x = (np.arange(2 * block, dtype=np.float32) * 1.25) - 7
    out = env.memref(np.zeros((2 * block, 12), np.float32))
    env.run("subgroups", [env.memref(x), out], (2, 1, 1), (block, 1, 1))
    got = env.read(out, np.zeros((2 * block, 12), np.float32))
    add = gsem.combiner("add", "f32").py
    mx = gsem.combiner("maxnumf", "f32").py
    for g in range(2):
        vals = [float(v) for v in x[g * block : (g + 1) * block]]
        rows = got[g * block : (g + 1) * block]
        assert all(r == REDUCE(vals, add) for r in rows[:, 0])
        assert list(rows[:, 1]) == gsem.cluster_reduce(vals, mx, 4, 1, ORDER)
        assert list(rows[:, 2]) == gsem.cluster_reduce(vals, add, 4, 2, ORDER)
        assert list(rows[:, 3]) == [v for v, _ in gsem.shuffle(vals, 1, 32, "xor")]
        up = gsem.shuffle(vals, 3, 32, "up")
        assert list(rows[:, 4]) == [v for v, _ in up]
        assert list(rows[:, 5]) == [float(ok) for _, ok in up]
        assert list(rows[:, 6]) == [v for v, _ in gsem.shuffle(vals, 3, 8, "down")]
        assert list(rows[:, 7]) == [v for v, _ in gsem.shuffle(vals, 3, 32, "idx")]
        assert list(rows[:, 8]) == gsem.broadcast(vals, 3)
        assert list(rows[:, 9]) == list(range(block))  # lane id
        assert list(rows[:, 10]) == [block] * block  # subgroup size
        assert list(rows[:, 11]) == [v for v, _ in gsem.rotate(vals, 1, 8)]


def test_f64_dynamic_shared_memory_alloca_reinterpret(env):
    n, block = 16, 8
    d = np.linspace(1.0, 4.0, n)
    out = env.memref(np.zeros((n, 3), np.float64))
    env.run("misc", [env.memref(d), out], (n // block, 1, 1), (block, 1, 1), dsm=8 + 8 * block)
    got = env.read(out, np.zeros((n, 3), np.float64))
    np.testing.assert_array_equal(got[:, 0], np.sqrt(d))
    reversed_in_group = d.reshape(-1, block)[:, ::-1].reshape(-1)
    np.testing.assert_array_equal(got[:, 1], reversed_in_group)
    np.testing.assert_array_equal(got[:, 2], np.arange(n, dtype=np.float64))


_PRINTF_SCRIPT = textwrap.dedent(
    """
    import sys, pyopencl as cl
    sys.path.insert(0, %r)
    import xgpu
    from xgpu.backend.opencl import compile_gpu_module
    from xgpu.backend.opencl.device import select_device
    text = open(%r).read()
    module = xgpu.parse(text, "k.mlir")
    prog = compile_gpu_module(next(o for o in module.walk() if o.name == "gpu.module"))
    ctx = cl.Context([select_device()])
    q = cl.CommandQueue(ctx)
    built = cl.Program(ctx, prog.source).build(prog.build_options)
    abi = prog.kernels["hello"]
    k = cl.Kernel(built, abi.cl_name)
    k.set_scalar_arg_dtypes(abi.scalar_arg_dtypes())
    k(q, (4,), (4,), *abi.pack_args([42], (4, 1, 1)))
    q.finish()
    """
)


def test_printf(env, tmp_path):
    # PoCL writes printf output to the process's stdout file descriptor: run
    # the kernel in a child process and read its output.
    src = tmp_path / "k.mlir"
    src.write_text(
        "gpu.module @p {\n"
        "  gpu.func @hello(%n: i32) kernel {\n"
        "    %i = gpu.global_id x\n"
        "    %c0 = arith.constant 0 : index\n"
        "    %first = arith.cmpi eq, %i, %c0 : index\n"
        "    scf.if %first {\n"
        "      %x = arith.constant 2.5 : f32\n"
        '      gpu.printf "hello %d %.2f %lld\\n", %n, %x, %i : i32, f32, index\n'
        "    }\n"
        "    gpu.return\n"
        "  }\n"
        "}\n"
    )
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    script = _PRINTF_SCRIPT % (root, str(src))
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("hello 42 2.50 0") == 1


SUBGROUPS_OF_4 = r"""
gpu.module @sg4 {
  gpu.func @k(%v: memref<?xi32>, %out: memref<?x7xi32>) kernel {
    %i = gpu.global_id x
    %x = memref.load %v[%i] : memref<?xi32>
    %c1 = arith.constant 1 : i32
    %c4 = arith.constant 4 : i32
    %r = gpu.subgroup_reduce add %x : (i32) -> i32
    %s, %ok = gpu.shuffle down %x, %c1, %c4 : i32
    %l = gpu.lane_id
    %id = gpu.subgroup_id : index
    %n = gpu.num_subgroups : index
    %sz = gpu.subgroup_size : index
    %sel = scf.index_switch %l -> i32
    case 0 { %a = arith.constant 100 : i32
             scf.yield %a : i32 }
    case 3 { %b = scf.execute_region -> i32 {
               %t = arith.constant 300 : i32
               scf.yield %t : i32
             }
             scf.yield %b : i32 }
    default { %z = arith.constant -1 : i32
              scf.yield %z : i32 }
    %li = arith.index_cast %l : index to i32
    %idi = arith.index_cast %id : index to i32
    %ni = arith.index_cast %n : index to i32
    %szi = arith.index_cast %sz : index to i32
    %k0 = arith.constant 0 : index
    %k1 = arith.constant 1 : index
    %k2 = arith.constant 2 : index
    %k3 = arith.constant 3 : index
    %k4 = arith.constant 4 : index
    %k5 = arith.constant 5 : index
    %k6 = arith.constant 6 : index
    memref.store %r, %out[%i, %k0] : memref<?x7xi32>
    memref.store %s, %out[%i, %k1] : memref<?x7xi32>
    memref.store %li, %out[%i, %k2] : memref<?x7xi32>
    memref.store %idi, %out[%i, %k3] : memref<?x7xi32>
    memref.store %ni, %out[%i, %k4] : memref<?x7xi32>
    memref.store %szi, %out[%i, %k5] : memref<?x7xi32>
    memref.store %sel, %out[%i, %k6] : memref<?x7xi32>
    gpu.return
  }
}
"""


def test_emulated_subgroups_of_four(env):
    """subgroup_size=4 on a block of 10: subgroups of 4, 4 and 2 lanes."""
    module = xgpu.parse(SUBGROUPS_OF_4, "sg4.mlir")
    assert xgpu.verify(module) == []
    prog = compile_gpu_module(next(iter(module.body.block.ops)), subgroup_size=4, reduction=ORDER)
    built = env.cl.Program(env.ctx, prog.source).build(prog.build_options)
    abi = prog.kernels["k"]
    block = 10
    x = np.arange(block, dtype=np.int32) * 3 + 1
    out = env.memref(np.zeros((block, 7), np.int32))
    kern = env.cl.Kernel(built, abi.cl_name)
    kern.set_scalar_arg_dtypes(abi.scalar_arg_dtypes())
    record = env.buffer(np.zeros(128, np.int64))
    args = abi.pack_args([env.memref(x), out], (block, 1, 1), record=record)
    kern(env.queue, (block,), (block,), *args)
    got = env.read(out, np.zeros((block, 7), np.int32))
    add = gsem.combiner("add", "i32").py
    for base, size in ((0, 4), (4, 4), (8, 2)):
        vals = [int(v) for v in x[base : base + size]]
        rows = got[base : base + size]
        assert list(rows[:, 0]) == [REDUCE(vals, add)] * size
        assert list(rows[:, 1]) == [v for v, _ in gsem.shuffle(vals, 1, 4, "down")]
        assert list(rows[:, 2]) == list(range(size))
        assert list(rows[:, 3]) == [base // 4] * size
        assert list(rows[:, 4]) == [3] * size
        assert list(rows[:, 5]) == [size] * size
        assert list(rows[:, 6]) == [{0: 100, 3: 300}.get(lane, -1) for lane in range(size)]


def test_device_selection(env, monkeypatch):
    from xgpu.backend.opencl.device import NoDevice, emit_options, select_device

    device = select_device()
    first_word = device.platform.name.split()[0]
    monkeypatch.setenv("XGPU_OPENCL_DEVICE", first_word.lower())
    assert select_device().int_ptr == device.int_ptr
    with pytest.raises(NoDevice, match="no OpenCL device matches"):
        select_device("no such device anywhere")
    options = emit_options(device)
    assert options["subgroups"] in ("emulate", "khr") and isinstance(options["fp16"], bool)
