"""Kernels that run at the same time: each of two launches on independent
tokens counts itself in with an atomic, then spins until both have. On
OpenCL the out-of-order queue lets them overlap; the simulator's work-item
engine yields at each iteration of a spin loop and the scheduler runs the
other launch meanwhile. One launch alone spins until the timeout, which
then names it."""

from __future__ import annotations

import numpy as np
import pytest
from devices import BACKENDS

import xgpu
from xgpu.runtime.api import RunError

PROGRAM = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @meet(%count: memref<1xi32>, %seen: memref<2xi32>, %me: index) kernel {
      %c0 = arith.constant 0 : index
      %zero = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %two = arith.constant 2 : i32
      %before = memref.atomic_rmw addi %one, %count[%c0] : (i32, memref<1xi32>) -> i32
      %final = scf.while (%n = %before) : (i32) -> i32 {
        %now = memref.atomic_rmw addi %zero, %count[%c0] : (i32, memref<1xi32>) -> i32
        %wait = arith.cmpi slt, %now, %two : i32
        scf.condition(%wait) %now : i32
      } do {
      ^bb0(%x: i32):
        scf.yield %x : i32
      }
      %last = memref.atomic_rmw addi %zero, %count[%c0] : (i32, memref<1xi32>) -> i32
      memref.store %last, %seen[%me] : memref<2xi32>
      gpu.return
    }
  }
  func.func @main(%count: memref<1xi32>, %seen: memref<2xi32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %dc = gpu.alloc () : memref<1xi32>
    %ds = gpu.alloc () : memref<2xi32>
    gpu.memcpy %dc, %count : memref<1xi32>, memref<1xi32>
    %a = gpu.wait async
    %b = gpu.wait async
    %ta = gpu.launch_func async [%a] @k::@meet blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%dc : memref<1xi32>, %ds : memref<2xi32>, %c0 : index)
    SECOND
    gpu.memcpy %seen, %ds : memref<2xi32>, memref<2xi32>
    return
  }
}
"""
BOTH = PROGRAM.replace(
    "    SECOND\n",
    "    %tb = gpu.launch_func async [%b] @k::@meet blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%dc : memref<1xi32>, %ds : memref<2xi32>, %c1 : index)\n"
    "    gpu.wait [%ta, %tb]\n",
)
ALONE = PROGRAM.replace("    SECOND\n", "    gpu.wait [%ta]\n")


@pytest.mark.parametrize("backend", BACKENDS)
def test_two_kernels_that_wait_for_each_other(backend: str):
    count = np.zeros(1, np.int32)
    seen = np.zeros(2, np.int32)
    xgpu.run(BOTH, args=[count, seen], backend=backend, timeout=30)
    assert seen.tolist() == [2, 2]


@pytest.mark.parametrize("schedule", [("random", 1), ("random", 2), ("program-order", None)])
def test_every_schedule_of_the_simulator(schedule):
    count = np.zeros(1, np.int32)
    seen = np.zeros(2, np.int32)
    xgpu.run(
        BOTH,
        args=[count, seen],
        backend="sim",
        schedule=schedule[0],
        seed=schedule[1],
        detect_races=True,
        timeout=30,
    )
    assert seen.tolist() == [2, 2]


def test_a_kernel_alone_spins_until_the_timeout():
    with pytest.raises(RunError) as info:
        xgpu.run(
            ALONE,
            args=[np.zeros(1, np.int32), np.zeros(2, np.int32)],
            backend="sim",
            timeout=1,
            name="alone.mlir",
        )
    text = str(info.value)
    assert text.startswith(
        "alone.mlir:30:11: error: gpu.launch_func @k::@meet did not finish within"
    )
