"""`cf.assert` in kernels on both backends (OpenCL through the run's error
record, the simulator on both engines): the line each failing work-item
prints, the error at the op, and programs where others would wait for the
work-item that failed (tests/filecheck/runtime/kernel-assert.mlir has the
printed lines of the plain case)."""

from __future__ import annotations

import io

import numpy as np
import pytest
from devices import BACKENDS

import xgpu
from xgpu.runtime.api import RunError

ENGINES = ["lockstep", "workitem"]

# 2 blocks of 4: out[i] = i * 10 where the assertion `i < limit` holds.
BLOCKS = """module attributes {{gpu.container_module}} {{
  gpu.module @k {{
    gpu.func @fill(%out: memref<8xi32>, %limit: index) kernel {{
      %i = gpu.global_id x
      %ok = arith.cmpi ult, %i, %limit : index
      cf.assert %ok, "index below the limit"
      %v = arith.index_cast %i : index to i32
      %c10 = arith.constant 10 : i32
      %w = arith.muli %v, %c10 : i32
      memref.store %w, %out[%i] : memref<8xi32>
      gpu.return
    }}
  }}
  func.func @main(%host: memref<8xi32>) {{
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %limit = arith.constant {limit} : index
    %d = gpu.alloc () : memref<8xi32>
    gpu.memcpy %d, %host : memref<8xi32>, memref<8xi32>
    gpu.launch_func @k::@fill blocks in (%c2, %c1, %c1) threads in (%c4, %c1, %c1) args(%d : memref<8xi32>, %limit : index)
    gpu.memcpy %host, %d : memref<8xi32>, memref<8xi32>
    return
  }}
}}
"""


def _run(text: str, backend: str, engine: str, monkeypatch, capfd, args=()) -> str:
    monkeypatch.setenv("XGPU_SIM_ENGINE", engine)
    out = io.StringIO()
    capfd.readouterr()
    xgpu.run(text, args=list(args), backend=backend, stdout=out, name="a.mlir")
    return out.getvalue() + capfd.readouterr().out


def _error(text: str, backend: str, engine: str, monkeypatch, capfd) -> tuple[str, str]:
    """The error and what the kernel printed (OpenCL's printf writes to the
    process's stdout, the simulator to the run's)."""
    monkeypatch.setenv("XGPU_SIM_ENGINE", engine)
    out = io.StringIO()
    capfd.readouterr()
    with pytest.raises(RunError) as info:
        xgpu.run(text, args=[np.zeros(8, np.int32)], backend=backend, stdout=out, name="a.mlir")
    return str(info.value), out.getvalue() + capfd.readouterr().out


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_holding_assertions_change_nothing(backend: str, engine: str, monkeypatch, capfd):
    host = np.full(8, -1, np.int32)
    printed = _run(BLOCKS.format(limit=8), backend, engine, monkeypatch, capfd, [host])
    assert printed == ""
    np.testing.assert_array_equal(host, np.arange(8, dtype=np.int32) * 10)


def test_holding_assertions_are_race_free():
    host = np.zeros(8, np.int32)
    xgpu.run(BLOCKS.format(limit=8), args=[host], backend="sim", detect_races=True)
    np.testing.assert_array_equal(host, np.arange(8, dtype=np.int32) * 10)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_the_first_failing_work_item_of_a_later_block(
    backend: str, engine: str, monkeypatch, capfd
):
    message, printed = _error(BLOCKS.format(limit=6), backend, engine, monkeypatch, capfd)
    assert message.startswith("a.mlir:6:7: error: assertion failed: index below the limit ")
    assert "(work-item (2, 0, 0) of block (1, 0, 0) of @k::@fill)" in message
    lines = sorted(printed.splitlines())
    assert lines == [
        f"a.mlir:6: (unknown): block: [1,0,0], thread: [{t},0,0] Assertion "
        "`index below the limit` failed."
        for t in (2, 3)
    ]


# Lane 0 fails before a barrier the others wait at; on OpenCL it goes on to
# the barrier (a work-item may not leave a barrier's block), on the simulator
# it stops and the launch ends at once: neither hangs.
BARRIER = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @swap(%out: memref<8xi32>) workgroup(%tile: memref<4xi32, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c3 = arith.constant 3 : index
      %nonzero = arith.cmpi ne, %t, %c0 : index
      cf.assert %nonzero, "lane 0 is not welcome"
      %v = arith.index_cast %t : index to i32
      memref.store %v, %tile[%t] : memref<4xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %o = arith.subi %c3, %t : index
      %w = memref.load %tile[%o] : memref<4xi32, #gpu.address_space<workgroup>>
      memref.store %w, %out[%t] : memref<8xi32>
      gpu.return
    }
  }
  func.func @main(%host: memref<8xi32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %d = gpu.alloc () : memref<8xi32>
    gpu.memcpy %d, %host : memref<8xi32>, memref<8xi32>
    gpu.launch_func @k::@swap blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%d : memref<8xi32>)
    return
  }
}
"""


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("backend", BACKENDS)
def test_a_failure_before_a_barrier(backend: str, engine: str, monkeypatch, capfd):
    message, printed = _error(BARRIER, backend, engine, monkeypatch, capfd)
    assert message.startswith("a.mlir:8:7: error: assertion failed: lane 0 is not welcome ")
    assert "(work-item (0, 0, 0) of block (0, 0, 0) of @k::@swap)" in message
    assert printed == (
        "a.mlir:8: (unknown): block: [0,0,0], thread: [0,0,0] Assertion "
        "`lane 0 is not welcome` failed.\n"
    )


# The assertion in a device function the kernel calls.
CALLED = """module attributes {gpu.container_module} {
  gpu.module @k {
    func.func @positive(%x: i32) -> i32 {
      %c0 = arith.constant 0 : i32
      %ok = arith.cmpi sgt, %x, %c0 : i32
      cf.assert %ok, "not positive"
      return %x : i32
    }
    gpu.func @use(%out: memref<8xi32>) kernel {
      %t = gpu.thread_id x
      %v = arith.index_cast %t : index to i32
      %r = func.call @positive(%v) : (i32) -> i32
      memref.store %r, %out[%t] : memref<8xi32>
      gpu.return
    }
  }
  func.func @main(%host: memref<8xi32>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %d = gpu.alloc () : memref<8xi32>
    gpu.launch_func @k::@use blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%d : memref<8xi32>)
    return
  }
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_failure_in_a_called_function(backend: str, monkeypatch, capfd):
    message, printed = _error(CALLED, backend, "lockstep", monkeypatch, capfd)
    assert message.startswith("a.mlir:6:7: error: assertion failed: not positive ")
    assert "(work-item (0, 0, 0) of block (0, 0, 0) of @k::@use)" in message
    assert printed.splitlines() == [
        "a.mlir:6: (unknown): block: [0,0,0], thread: [0,0,0] Assertion `not positive` failed."
    ]
