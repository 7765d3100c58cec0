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


# --------------------------------------------------------------------------- #
# Collectives: gpu.all_reduce and gpu.subgroup_reduce on the lockstep engine

_KINDS = {
    "f": ["add", "mul", "minnumf", "maxnumf", "minimumf", "maximumf"],
    "i": ["add", "mul", "minui", "minsi", "maxui", "maxsi", "and", "or", "xor"],
}
#: (blocks, threads) of each launch: block sizes that are not powers of two
_ALL_REDUCE_LAUNCHES = [(3, 7), (2, 37), (1, 1), (4, 12)]
#: subgroup launches (--subgroup-size 8): whole subgroups
_SUBGROUP_LAUNCHES = [(3, 24), (1, 8)]
_N = 160


def _collective_program(t: str) -> str:
    """One kernel per kind (and the region form) writing every lane's result
    as its bits (bitcast to an integer), launched with each block size;
    the input has NaNs and signed zeros (floats) or extreme values (ints)."""
    fl = t.startswith("f")
    bits = int(t[1:])
    it = f"i{bits}"
    kinds = _KINDS["f" if fl else "i"]
    kernels = []

    def kernel(name: str, body: str) -> None:
        cast = f"%r = arith.bitcast %s : {t} to {it}" if fl else f"%r = arith.addi %s, %s0 : {it}"
        zero = "" if fl else f"%s0 = arith.constant 0 : {it}\n      "
        kernels.append(
            f"""    gpu.func @{name}(%a: memref<?x{t}>, %out: memref<?x{it}>) kernel {{
      %i = gpu.global_id x
      %v = memref.load %a[%i] : memref<?x{t}>
      {body}
      {zero}{cast}
      memref.store %r, %out[%i] : memref<?x{it}>
      gpu.return
    }}"""
        )

    for k in kinds:
        kernel(f"ar_{k}", f"%s = gpu.all_reduce {k} %v uniform {{}} : ({t}) -> ({t})")
        kernel(f"sg_{k}", f"%s = gpu.subgroup_reduce {k} %v : ({t}) -> {t}")
        kernel(
            f"cl_{k}",
            f"%s = gpu.subgroup_reduce {k} %v cluster(size = 2, stride = 2) : ({t}) -> {t}",
        )
    # A combiner that is not associative: the order shows in every bit.
    if fl:
        region = f"""%c3 = arith.constant 3.0 : {t}
        %d = arith.subf %x, %y : {t}
        %e = arith.mulf %d, %c3 : {t}
        %z = arith.addf %e, %x : {t}"""
    else:
        region = f"""%d = arith.subi %x, %y : {t}
        %e = arith.muli %d, %y : {t}
        %z = arith.addi %e, %x : {t}"""
    kernel(
        "ar_region",
        f"""%s = gpu.all_reduce %v {{
      ^bb0(%x: {t}, %y: {t}):
        {region}
        gpu.yield %z : {t}
      }} : ({t}) -> ({t})""",
    )
    if fl:
        values = f"""%kf = arith.sitofp %ki : i32 to {t}
      %sn = math.sin %kf : {t}
      %sc = arith.constant 1.75 : {t}
      %g0 = arith.mulf %sn, %sc : {t}
      %zero = arith.constant 0.0 : {t}
      %nz = arith.constant -0.0 : {t}
      %nan = arith.divf %zero, %zero : {t}
      %m5 = arith.remui %ki, %c5i : i32
      %m29 = arith.remui %ki, %c29i : i32
      %m31 = arith.remui %ki, %c31i : i32
      %is0 = arith.cmpi eq, %m5, %c0i : i32
      %is1 = arith.cmpi eq, %m5, %c1i : i32
      %isn = arith.cmpi eq, %m29, %c5i : i32
      %isn2 = arith.cmpi eq, %m31, %c11i : i32
      %g1 = arith.select %is0, %nz, %g0 : {t}
      %g2 = arith.select %is1, %zero, %g1 : {t}
      %g3 = arith.select %isn, %nan, %g2 : {t}
      %g = arith.select %isn2, %nan, %g3 : {t}"""
    else:
        ext = f"arith.extsi %ki : i32 to {it}" if bits > 32 else "arith.addi %ki, %c0i : i32"
        values = f"""%kk = {ext}
      %mul = arith.constant -1000003 : {it}
      %one = arith.constant 1 : {it}
      %g00 = arith.muli %kk, %mul : {it}
      %g0 = arith.ori %g00, %one : {it}
      %m5 = arith.remui %ki, %c5i : i32
      %is0 = arith.cmpi eq, %m5, %c0i : i32
      %is1 = arith.cmpi eq, %m5, %c1i : i32
      %min = arith.constant {-(1 << (bits - 1))} : {it}
      %mx = arith.constant {(1 << (bits - 1)) - 1} : {it}
      %g1 = arith.select %is0, %min, %g0 : {it}
      %g = arith.select %is1, %mx, %g1 : {it}"""
    launches = []
    names = [f"ar_{k}" for k in kinds] + ["ar_region"]
    for name in names:
        for b, n in _ALL_REDUCE_LAUNCHES:
            launches.append((name, b, n))
    for k in kinds:
        for pre in ("sg", "cl"):
            for b, n in _SUBGROUP_LAUNCHES:
                launches.append((f"{pre}_{k}", b, n))
    calls = []
    consts = sorted({x for _, b, n in launches for x in (b, n)})
    for name, b, n in launches:
        calls.append(
            f"""    gpu.launch_func @k::@{name} blocks in (%c{b}, %c1, %c1) threads in (%c{n}, %c1, %c1) args(%a : memref<?x{t}>, %o : memref<?x{it}>)
    gpu.memcpy %ho, %o : memref<?x{it}>, memref<?x{it}>
    call @printMemrefI{bits}(%u) : (memref<*x{it}>) -> ()"""
        )
    kern = "\n".join(kernels)
    cdefs = "\n".join(f"    %c{x} = arith.constant {x} : index" for x in consts if x != 1)
    call_text = "\n".join(calls)
    return f"""module attributes {{gpu.container_module}} {{
  gpu.module @k {{
{kern}
  }}
  func.func private @printMemrefI{bits}(memref<*x{it}>)
  func.func @main() {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cN = arith.constant {_N} : index
{cdefs}
    %c0i = arith.constant 0 : i32
    %c1i = arith.constant 1 : i32
    %c5i = arith.constant 5 : i32
    %c11i = arith.constant 11 : i32
    %c29i = arith.constant 29 : i32
    %c31i = arith.constant 31 : i32
    %h = memref.alloc(%cN) : memref<?x{t}>
    %ho = memref.alloc(%cN) : memref<?x{it}>
    scf.for %k = %c0 to %cN step %c1 {{
      %ki = arith.index_cast %k : index to i32
      {values}
      memref.store %g, %h[%k] : memref<?x{t}>
      %z0 = arith.constant 0 : {it}
      memref.store %z0, %ho[%k] : memref<?x{it}>
    }}
    %a = gpu.alloc (%cN) : memref<?x{t}>
    %o = gpu.alloc (%cN) : memref<?x{it}>
    gpu.memcpy %a, %h : memref<?x{t}>, memref<?x{t}>
    gpu.memcpy %o, %ho : memref<?x{it}>, memref<?x{it}>
    %u = memref.cast %ho : memref<?x{it}> to memref<*x{it}>
{call_text}
    return
  }}
}}
"""


@pytest.mark.parametrize("order", ["fold", "tree"])
@pytest.mark.parametrize("t", ["f32", "i32", "f64", "i64"])
def test_engines_agree_on_collectives(monkeypatch, tmp_path, t: str, order: str) -> None:
    """Every kind of gpu.all_reduce (and its region form) and of
    gpu.subgroup_reduce (whole and clustered) runs on the lockstep engine and
    gives the work-item engine's bits, in both reduction orders."""
    path = tmp_path / f"collectives-{t}.mlir"
    path.write_text(_collective_program(t))
    argv = ["--backend", "sim", "--reduction", order, "--subgroup-size", "8", str(path)]
    lockstep = _run(monkeypatch, "auto", argv)
    workitem = _run(monkeypatch, "workitem", argv)
    assert lockstep[0] == 0, lockstep[2]
    assert lockstep[:3] == workitem[:3]
    assert set(lockstep[3]) == {"lockstep"}


DIVERGENT = """\
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @div(%a: memref<?xf32>) kernel {
      %c3 = arith.constant 3 : index
      %t = gpu.thread_id x
      %few = arith.cmpi ult, %t, %c3 : index
      scf.if %few {
        %v = memref.load %a[%t] : memref<?xf32>
        %s = gpu.all_reduce add %v uniform {} : (f32) -> (f32)
        memref.store %s, %a[%t] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c5 = arith.constant 5 : index
    %f = arith.constant 1.5 : f32
    %a = gpu.alloc (%c5) : memref<?xf32>
    gpu.memset %a, %f : memref<?xf32>, f32
    gpu.launch_func @k::@div blocks in (%c1, %c1, %c1) threads in (%c5, %c1, %c1) args(%a : memref<?xf32>)
    return
  }
}
"""


@pytest.mark.parametrize("races", [False, True], ids=["plain", "races"])
def test_engines_agree_on_a_divergent_all_reduce(monkeypatch, tmp_path, races: bool) -> None:
    """An all_reduce that not every lane reaches: the lockstep run replays on
    the work-item engine, which reports the divergence."""
    path = tmp_path / "divergent.mlir"
    path.write_text(DIVERGENT)
    argv = ["--backend", "sim", *(["--detect-races"] if races else []), str(path)]
    lockstep = _run(monkeypatch, "auto", argv)
    workitem = _run(monkeypatch, "workitem", argv)
    assert lockstep[0] != 0
    assert "not reached by every work-item" in lockstep[2]
    assert lockstep[:3] == workitem[:3]
    assert lockstep[3] == ["workitem"]


@pytest.mark.parametrize("t", ["f32", "i64"])
def test_engines_agree_on_collectives_with_races(monkeypatch, tmp_path, t: str) -> None:
    path = tmp_path / f"collectives-{t}.mlir"
    path.write_text(_collective_program(t))
    argv = ["--backend", "sim", "--detect-races", "--subgroup-size", "8", str(path)]
    lockstep = _run(monkeypatch, "auto", argv)
    workitem = _run(monkeypatch, "workitem", argv)
    assert lockstep[0] == 0, lockstep[2]
    assert lockstep[:3] == workitem[:3]
    assert set(lockstep[3]) == {"lockstep"}


# Block 0 stores x[0], block 300 loads it: 512 blocks of 256 work-items run as
# batches of `MAX_LANES` lanes, and the two blocks fall in different batches.
CROSS_BATCH_RACE = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%x: memref<4xi32>) kernel {
      %b = gpu.block_id x
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c300 = arith.constant 300 : index
      %one = arith.constant 1 : i32
      %is0 = arith.cmpi eq, %b, %c0 : index
      %ist = arith.cmpi eq, %t, %c0 : index
      %w = arith.andi %is0, %ist : i1
      scf.if %w {
        memref.store %one, %x[%c0] : memref<4xi32>
      }
      %is300 = arith.cmpi eq, %b, %c300 : index
      %r = arith.andi %is300, %ist : i1
      scf.if %r {
        %v = memref.load %x[%c0] : memref<4xi32>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %c512 = arith.constant 512 : index
    %d = gpu.alloc () : memref<4xi32>
    gpu.launch_func @k::@f blocks in (%c512, %c1, %c1) threads in (%c256, %c1, %c1) args(%d : memref<4xi32>)
    return
  }
}
"""


def test_a_race_between_batches_of_blocks_is_found(monkeypatch: pytest.MonkeyPatch):
    import xgpu
    from xgpu.backend.sim import lockstep
    from xgpu.runtime.api import RunError

    assert 256 * 300 >= lockstep.MAX_LANES  # blocks 0 and 300: two batches
    reports = []
    for engine in ("lockstep", "workitem"):
        monkeypatch.setenv("XGPU_SIM_ENGINE", engine)
        with pytest.raises(RunError) as info:
            xgpu.run(CROSS_BATCH_RACE, backend="sim", detect_races=True, name="x.mlir")
        reports.append(str(info.value))
    assert "data race" in reports[0] and "block (300, 0, 0)" in reports[0]
    assert reports[0] == reports[1]


# Two launches on independent token chains: @fill writes y[i] over 2^17
# work-items (two batches), then every work-item of @peek reads y[N - 1]
# unordered with that write.
TWO_BATCH_FILL = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @fill(%y: memref<131072xf32>) kernel {
      %i = gpu.global_id x
      %one = arith.constant 1.0 : f32
      memref.store %one, %y[%i] : memref<131072xf32>
      gpu.return
    }
    gpu.func @peek(%y: memref<131072xf32>) kernel {
      %last = arith.constant 131071 : index
      %v = memref.load %y[%last] : memref<131072xf32>
      gpu.return
    }
  }
  func.func @main(%host: memref<131072xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c256 = arith.constant 256 : index
    %c512 = arith.constant 512 : index
    %d = gpu.alloc () : memref<131072xf32>
    %t0 = gpu.launch_func async @k::@fill blocks in (%c512, %c1, %c1) threads in (%c256, %c1, %c1) args(%d : memref<131072xf32>)
    %t1 = gpu.launch_func async @k::@peek blocks in (%c2, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<131072xf32>)
    gpu.wait [%t0, %t1]
    gpu.memcpy %host, %d : memref<131072xf32>, memref<131072xf32>
    return
  }
}
"""


def test_elementwise_batches_record_each_lane_for_later_races(monkeypatch: pytest.MonkeyPatch):
    """The lanes of an elementwise kernel run as several batches; the accesses
    recorded for them name each lane's own block, so a later unordered read
    of the last element names the last block's work-item."""
    import numpy as np

    import xgpu
    from xgpu.backend.sim import lockstep
    from xgpu.runtime.api import RunError

    assert 512 * 256 > lockstep.MAX_LANES
    clean = TWO_BATCH_FILL.replace("gpu.wait [%t0, %t1]", "gpu.wait [%t0]").replace(
        "%t1 = gpu.launch_func async @k::@peek", "%t1 = gpu.launch_func async [%t0] @k::@peek"
    )
    reports = []
    for engine in ("lockstep", "workitem"):
        monkeypatch.setenv("XGPU_SIM_ENGINE", engine)
        host = np.zeros(131072, np.float32)
        xgpu.run(clean, args=[host], backend="sim", detect_races=True, name="c.mlir")
        assert (host == 1.0).all()
        with pytest.raises(RunError) as info:
            xgpu.run(TWO_BATCH_FILL, args=[host], backend="sim", detect_races=True, name="f.mlir")
        reports.append(str(info.value))
    assert "block (511, 0, 0)" in reports[0] and "work-item (255, 0, 0)" in reports[0]
    assert reports[0] == reports[1]


def test_keyed_launch_records_each_lane_for_later_races(monkeypatch: pytest.MonkeyPatch):
    """The same with @fill writing y[N - 1 - i]: positions that decrease
    along the lanes take the keyed plan (not the elementwise one), whose
    accesses are kept as the launch's own arrays; the later read of y[0]
    names the work-item that wrote it, as the work-item engine does."""
    import numpy as np

    import xgpu
    from xgpu.runtime.api import RunError

    reversed_fill = TWO_BATCH_FILL.replace(
        "      %one = arith.constant 1.0 : f32\n",
        "      %one = arith.constant 1.0 : f32\n"
        "      %top = arith.constant 131071 : index\n"
        "      %j = arith.subi %top, %i : index\n",
    ).replace("memref.store %one, %y[%i]", "memref.store %one, %y[%j]")
    racy = reversed_fill.replace("%last = arith.constant 131071", "%last = arith.constant 0")
    reports = []
    for engine in ("lockstep", "workitem"):
        monkeypatch.setenv("XGPU_SIM_ENGINE", engine)
        host = np.zeros(131072, np.float32)
        with pytest.raises(RunError) as info:
            xgpu.run(racy, args=[host], backend="sim", detect_races=True, name="f.mlir")
        reports.append(str(info.value))
    assert "block (511, 0, 0)" in reports[0] and "work-item (255, 0, 0)" in reports[0]
    assert reports[0] == reports[1]


def test_runs_and_scattered_positions_record_each_lane_for_later_races(
    monkeypatch: pytest.MonkeyPatch,
):
    """@fill's lanes write consecutive positions (kept as a span, not an
    array), then @scatter's write every other one (an array): later
    unordered reads name the work-item that wrote each element, on both
    engines: @fill's last one at an odd position, @scatter's at an even."""
    import numpy as np

    import xgpu
    from xgpu.runtime.api import RunError

    program = (
        TWO_BATCH_FILL.replace(
            "    gpu.func @peek(",
            """    gpu.func @scatter(%y: memref<131072xf32>) kernel {
      %i = gpu.global_id x
      %c2 = arith.constant 2 : index
      %j = arith.muli %i, %c2 : index
      %two = arith.constant 2.0 : f32
      memref.store %two, %y[%j] : memref<131072xf32>
      gpu.return
    }
    gpu.func @peek(""",
        )
        .replace(
            "%t1 = gpu.launch_func async @k::@peek",
            "%ts = gpu.launch_func async [%t0] @k::@scatter blocks in (%c256, %c1, %c1) "
            "threads in (%c256, %c1, %c1) args(%d : memref<131072xf32>)\n"
            "    %t1 = gpu.launch_func async @k::@peek",
        )
        .replace("gpu.wait [%t0, %t1]", "gpu.wait [%ts, %t1]")
    )
    cases = (
        ("131071", "work-item (255, 0, 0) of block (511, 0, 0) of gpu.launch_func @k::@fill"),
        ("14", "work-item (7, 0, 0) of block (0, 0, 0) of gpu.launch_func @k::@scatter"),
    )
    for peek, writer in cases:
        racy = program.replace("%last = arith.constant 131071", f"%last = arith.constant {peek}")
        reports = []
        for engine in ("lockstep", "workitem"):
            monkeypatch.setenv("XGPU_SIM_ENGINE", engine)
            host = np.zeros(131072, np.float32)
            with pytest.raises(RunError) as info:
                xgpu.run(racy, args=[host], backend="sim", detect_races=True, name="s.mlir")
            reports.append(str(info.value))
        assert f"memref.store by {writer} wrote" in reports[0], reports[0]
        assert reports[0] == reports[1]
