"""The simulator's two engines agree: the lockstep engine
(`xgpu.backend.sim.lockstep`) and the work-item engine
(`xgpu.backend.sim.workgroup`, forced with `XGPU_SIM_ENGINE=workitem`) give
the same output, the same diagnostics and the same exit status on every
simulator program of the lit suite and on kernels written to exercise the
lockstep engine's masks, loops and batches, with and without
`--detect-races`."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from xgpu.backend.sim import workgroup
from xgpu.tools.xgpu_run import main

ROOT = Path(__file__).resolve().parents[2]
_LAUNCH_RUN = workgroup.Launch.run


def _sim_programs() -> list[Path]:
    found = sorted((ROOT / "tests/filecheck/runtime/sim").glob("*.mlir"))
    for path in sorted((ROOT / "tests/filecheck/hostile/runtime").glob("*.mlir")):
        if "--backend sim" in path.read_text():
            found.append(path)
    found.append(ROOT / "examples/forum/program.mlir")
    return found


MIXED = """\
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @mixed(%a: memref<?xi32>, %out: memref<?xi32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c7 = arith.constant 7 : i32
      %i = gpu.global_id x
      %t = gpu.thread_id x
      %v = memref.load %a[%i] : memref<?xi32>
      %odd = arith.remui %t, %c3 : index
      %is0 = arith.cmpi eq, %odd, %c0 : index
      %w = scf.if %is0 -> (i32) {
        %s = scf.for %k = %c0 to %t step %c1 iter_args(%acc = %v) -> (i32) {
          %ki = arith.index_cast %k : index to i32
          %x = arith.muli %acc, %c7 : i32
          %y = arith.xori %x, %ki : i32
          scf.yield %y : i32
        }
        scf.yield %s : i32
      } else {
        %d = arith.divsi %v, %c7 : i32
        %r = arith.shrsi %d, %c7 : i32
        scf.yield %r : i32
      }
      %n = scf.while (%x = %w, %steps = %c0) : (i32, index) -> (index) {
        %big = arith.cmpi sgt, %x, %c7 : i32
        scf.condition(%big) %steps : index
      } do {
      ^bb0(%s: index):
        %s1 = arith.addi %s, %c1 : index
        %si = arith.index_cast %s1 : index to i32
        %sh = arith.shrui %w, %si : i32
        scf.yield %sh, %s1 : i32, index
      }
      %ni = arith.index_cast %n : index to i32
      %f = arith.sitofp %w : i32 to f32
      %g = math.sqrt %f : f32
      %h = math.exp %g : f32
      %hi = arith.fptosi %h : f32 to i32
      %sum = arith.addi %ni, %hi : i32
      memref.store %sum, %out[%i] : memref<?xi32>
      gpu.return
    }
    gpu.func @shift(%a: memref<?xi32>, %out: memref<?xi32>)
        workgroup(%tile: memref<8xi32, #gpu.address_space<workgroup>>) kernel {
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %i = gpu.global_id x
      %v = memref.load %a[%i] : memref<?xi32>
      memref.store %v, %tile[%t] : memref<8xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %t1 = arith.addi %t, %c1 : index
      %j = arith.remui %t1, %c8 : index
      %u = memref.load %tile[%j] : memref<8xi32, #gpu.address_space<workgroup>>
      %bi = arith.index_cast %b : index to i32
      %r = arith.addi %u, %bi : i32
      memref.store %r, %out[%i] : memref<?xi32>
      gpu.return
    }
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %m = arith.constant -1000003 : i32
    %h = memref.alloc(%c32) : memref<?xi32>
    scf.for %k = %c0 to %c32 step %c1 {
      %ki = arith.index_cast %k : index to i32
      %v = arith.muli %ki, %m : i32
      memref.store %v, %h[%k] : memref<?xi32>
    }
    %a = gpu.alloc (%c32) : memref<?xi32>
    %o = gpu.alloc (%c32) : memref<?xi32>
    gpu.memcpy %a, %h : memref<?xi32>, memref<?xi32>
    gpu.launch_func @k::@mixed blocks in (%c4, %c1, %c1) threads in (%c8, %c1, %c1) args(%a : memref<?xi32>, %o : memref<?xi32>)
    gpu.memcpy %h, %o : memref<?xi32>, memref<?xi32>
    %u = memref.cast %h : memref<?xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.launch_func @k::@shift blocks in (%c4, %c1, %c1) threads in (%c8, %c1, %c1) args(%a : memref<?xi32>, %o : memref<?xi32>)
    gpu.memcpy %h, %o : memref<?xi32>, memref<?xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }
}
"""


def _run(monkeypatch, engine: str, argv: list[str]) -> tuple[int, str, str, list[str]]:
    monkeypatch.setenv("XGPU_SIM_ENGINE", engine)
    engines: list[str] = []
    original = _LAUNCH_RUN

    def run(self) -> None:
        try:
            original(self)
        finally:
            engines.append(getattr(self, "engine", "workitem"))

    monkeypatch.setattr(workgroup.Launch, "run", run)
    out, err = io.StringIO(), io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(argv)
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else 1
    # Printed memrefs show their address, which differs between runs.
    text = re.sub(r"base@ = 0x[0-9a-f]+", "base@", out.getvalue())
    return code, text, err.getvalue(), engines


@pytest.mark.parametrize("races", [False, True], ids=["plain", "races"])
@pytest.mark.parametrize("path", _sim_programs(), ids=lambda p: p.name)
def test_engines_agree_on_the_sim_programs(monkeypatch, path: Path, races: bool) -> None:
    if path.name.startswith("race-") and not races:
        # Racy programs compute what each engine's order gives (see
        # `xgpu.backend.sim.lockstep`); --detect-races reports them alike.
        pytest.skip("a racy program: its values depend on the engine's order")
    argv = ["--backend", "sim", *(["--detect-races"] if races else []), str(path)]
    lockstep = _run(monkeypatch, "auto", argv)
    workitem = _run(monkeypatch, "workitem", argv)
    assert lockstep[:3] == workitem[:3]
    assert set(workitem[3]) <= {"workitem"}


@pytest.mark.parametrize("races", [False, True], ids=["plain", "races"])
def test_engines_agree_on_masks_loops_and_batches(monkeypatch, tmp_path, races: bool) -> None:
    path = tmp_path / "mixed.mlir"
    path.write_text(MIXED)
    argv = ["--backend", "sim", *(["--detect-races"] if races else []), str(path)]
    lockstep = _run(monkeypatch, "auto", argv)
    workitem = _run(monkeypatch, "workitem", argv)
    assert lockstep[:3] == workitem[:3]
    assert lockstep[0] == 0, lockstep[2]
    assert lockstep[3] == ["lockstep", "lockstep"]
