"""`async.execute` bodies as the simulator's race detector sees them: each
a task of its own, ordered after the tokens it lists and the bodies that
made its value operands; the host learns what a body did only at
`async.await` (or `async.await_all` of its group)."""

from __future__ import annotations

import numpy as np
import pytest

import xgpu
from xgpu.runtime.api import RunError

# A body launches a kernel that fills the registered %h; the host reads %h
# (READ) before or after awaiting the body.
LAUNCH = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @fill(%d: memref<4xi32>) kernel {
      %t = gpu.thread_id x
      %v = arith.index_cast %t : index to i32
      memref.store %v, %d[%t] : memref<4xi32>
      gpu.return
    }
  }
  func.func @main(%h: memref<4xi32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %u = memref.cast %h : memref<4xi32> to memref<*xi32>
    gpu.host_register %u : memref<*xi32>
    %t = async.execute {
      gpu.launch_func @k::@fill blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%h : memref<4xi32>)
      async.yield
    }
    BEFORE
    async.await %t : !async.token
    AFTER
    return
  }
}
"""
READ = "%x = memref.load %h[%c0] : memref<4xi32>"


def test_a_host_read_before_the_await_races_with_the_body():
    racy = LAUNCH.replace("BEFORE", READ).replace("AFTER", "")
    with pytest.raises(RunError) as info:
        xgpu.run(
            racy, args=[np.zeros(4, np.int32)], backend="sim", detect_races=True, name="a.mlir"
        )
    text = str(info.value)
    assert text.startswith("a.mlir:20:10: error: data race: memref.load by the host reads %h[0]")
    assert "a.mlir:6:7: note: the other access: memref.store by work-item (0, 0, 0)" in text


@pytest.mark.parametrize("seed", [None, 1, 2])
def test_after_the_await_the_host_sees_the_body(seed):
    clean = LAUNCH.replace("BEFORE", "").replace("AFTER", READ)
    h = np.full(4, -1, np.int32)
    schedule = "program-order" if seed is None else "random"
    xgpu.run(clean, args=[h], backend="sim", detect_races=True, schedule=schedule, seed=seed)
    assert h.tolist() == [0, 1, 2, 3]


# Host code in bodies: %a writes %m[0]; %b depends on %a through its value
# and reads it; %c depends on nothing and writes %m[1]; the group of %b and
# %c is awaited (or not: GROUP) before the host reads both elements.
BODIES = """func.func @main(%m: memref<2xi32>, %out: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %seven = arith.constant 7 : i32
  %ta, %va = async.execute () -> !async.value<i32> {
    memref.store %seven, %m[%c0] : memref<2xi32>
    async.yield %seven : i32
  }
  %tb, %vb = async.execute (%va as %x : !async.value<i32>) -> !async.value<i32> {
    %y = memref.load %m[%c0] : memref<2xi32>
    %z = arith.addi %y, %x : i32
    async.yield %z : i32
  }
  %tc = async.execute {
    memref.store %seven, %m[%c1] : memref<2xi32>
    async.yield
  }
  %g = async.create_group %c1 : !async.group
  %rb = async.add_to_group %tb, %g : !async.token
  %rc = async.add_to_group %tc, %g : !async.token
  GROUP
  %r = async.await %vb : !async.value<i32>
  memref.store %r, %out[%c0] : memref<1xi32>
  %p = memref.load %m[%c1] : memref<2xi32>
  return
}
"""


def test_bodies_ordered_by_values_and_groups():
    program = BODIES.replace("GROUP", "async.await_all %g")
    m, out = np.zeros(2, np.int32), np.zeros(1, np.int32)
    xgpu.run(program, args=[m, out], backend="sim", detect_races=True)
    assert m.tolist() == [7, 7] and out.tolist() == [14]


def test_a_body_the_host_never_awaits_races():
    program = BODIES.replace("GROUP", "")
    with pytest.raises(RunError) as info:
        xgpu.run(
            program,
            args=[np.zeros(2, np.int32), np.zeros(1, np.int32)],
            backend="sim",
            detect_races=True,
            name="b.mlir",
        )
    text = str(info.value)
    # %tc's store is never awaited: the host's read of %m[1] races with it.
    assert text.startswith("b.mlir:24:8: error: data race: memref.load by the host reads %m[1]")
    assert "which async.execute wrote: the host does not wait for async.execute" in text


def test_the_same_programs_run_on_opencl():
    from devices import has_opencl

    if not has_opencl():
        pytest.skip("no OpenCL device")
    m, out = np.zeros(2, np.int32), np.zeros(1, np.int32)
    xgpu.run(BODIES.replace("GROUP", ""), args=[m, out])
    assert m.tolist() == [7, 7] and out.tolist() == [14]
