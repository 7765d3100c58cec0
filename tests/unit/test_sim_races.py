"""The race detector against an exact oracle, on random straight-line host
programs over two `host_shared` buffers: async and synchronous launches (a
kernel that increments every element, one that copies a buffer into the
other), `gpu.memset`, `gpu.memcpy`, joins (`gpu.wait async [...]`), blocking
waits, and host loads and stores of element 0.

The oracle computes happens-before from the program's structure (token
dependencies, transitively; host program order before an op is issued; what
the host waited for, or ran synchronously, before an access) and lists the
pairs of conflicting accesses (same buffer, one writes) ordered neither way.
For every schedule (program order, random seeds), the detector must report a
race exactly when the oracle has one, and only pairs the oracle lists. The
detector runs with `detect_races="all"`: the oracle does not look at values,
so work-items that store the same value to one element race in it too.
Each program is parsed and verified once; the schedules run it from that one
module (a run leaves the module as it found it).
`XGPU_PROPERTY_EXAMPLES` sets the number of programs per property (default
500).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xgpu.diagnostics import location_of
from xgpu.runtime.api import RunError, Runner, RunOptions, load

EXAMPLES = int(os.environ.get("XGPU_PROPERTY_EXAMPLES", "500"))

HEADER = """\
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @inc(%b: memref<4xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %b[%i] : memref<4xf32>
      %one = arith.constant 1.0 : f32
      %r = arith.addf %v, %one : f32
      memref.store %r, %b[%i] : memref<4xf32>
      gpu.return
    }
    gpu.func @copy(%src: memref<4xf32>, %dst: memref<4xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %src[%i] : memref<4xf32>
      memref.store %v, %dst[%i] : memref<4xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %f = arith.constant 2.0 : f32
    %b0 = gpu.alloc host_shared () : memref<4xf32>
    %b1 = gpu.alloc host_shared () : memref<4xf32>
"""
FOOTER = """\
    gpu.wait
    return
  }
}
"""
FIRST_LINE = HEADER.count("\n") + 1  # the line of the first generated statement


@dataclass
class Access:
    """One statement that touches memory (a GPU op or a host access)."""

    line: int
    host: bool
    reads: set[int]
    writes: set[int]
    deps: set[int] = field(default_factory=set)  # GPU ops it waits for (closure)
    observed: set[int] = field(default_factory=set)  # host: GPU ops seen complete
    index: int = 0  # program position


@dataclass
class Program:
    text: str
    accesses: list[Access]


@st.composite
def programs(draw) -> Program:
    lines: list[str] = []
    accesses: list[Access] = []
    tokens: dict[str, set[int]] = {}  # token name -> GPU ops behind it (closure)
    observed: set[int] = set()

    def line_no() -> int:
        return FIRST_LINE + len(lines)

    for step in range(draw(st.integers(2, 8))):
        kind = draw(
            st.sampled_from(["inc", "copy", "memset", "memcpy", "join", "wait", "load", "store"])
        )
        names = sorted(tokens)
        deps = draw(st.lists(st.sampled_from(names), max_size=2, unique=True)) if names else []
        is_async = draw(st.booleans()) or kind == "join"
        closure = set(observed)
        for d in deps:
            closure |= tokens[d]
        dep_text = f"[{', '.join('%' + d for d in deps)}] " if deps else ""
        a, b = draw(st.integers(0, 1)), draw(st.integers(0, 1))
        tok = f"t{step}"
        head = f"%{tok} = " if is_async else ""
        asy = "async " if is_async else ""
        if kind in ("load", "store"):
            acc = Access(
                line_no(),
                True,
                {a} if kind == "load" else set(),
                {a} if kind == "store" else set(),
                observed=set(observed),
            )
            acc.index = len(accesses)
            accesses.append(acc)
            if kind == "load":
                lines.append(f"    %v{step} = memref.load %b{a}[%c0] : memref<4xf32>")
            else:
                lines.append(f"    memref.store %f, %b{a}[%c0] : memref<4xf32>")
            continue
        if kind == "join":
            if not deps:
                continue
            lines.append(f"    %{tok} = gpu.wait async {dep_text.strip()}")
            tokens[tok] = closure
            continue
        if kind == "wait":
            if not deps:
                continue
            lines.append(f"    gpu.wait {dep_text.strip()}")
            observed |= closure
            continue
        if kind == "copy" and a == b:
            b = 1 - a
        if kind == "memcpy" and a == b:
            b = 1 - a
        reads, writes = {
            "inc": ({a}, {a}),
            "copy": ({a}, {b}),
            "memset": (set(), {a}),
            "memcpy": ({b}, {a}),
        }[kind]
        text = {
            "inc": f"gpu.launch_func {asy}{dep_text}@k::@inc blocks in (%c1, %c1, %c1) "
            f"threads in (%c4, %c1, %c1) args(%b{a} : memref<4xf32>)",
            "copy": f"gpu.launch_func {asy}{dep_text}@k::@copy blocks in (%c1, %c1, %c1) "
            f"threads in (%c4, %c1, %c1) args(%b{a} : memref<4xf32>, %b{b} : memref<4xf32>)",
            "memset": f"gpu.memset {asy}{dep_text}%b{a}, %f : memref<4xf32>, f32",
            "memcpy": f"gpu.memcpy {asy}{dep_text}%b{a}, %b{b} : memref<4xf32>, memref<4xf32>",
        }[kind]
        acc = Access(line_no(), False, reads, writes)
        acc.index = len(accesses)
        acc.deps = closure
        lines.append(f"    {head}{text}")
        accesses.append(acc)
        me = closure | {acc.index}
        if is_async:
            tokens[tok] = me
        else:
            observed |= me
    return Program(HEADER + "\n".join(lines) + "\n" + FOOTER, accesses)


def oracle_pairs(program: Program) -> set[frozenset[int]]:
    """Lines of the unordered pairs of conflicting accesses."""
    accs = program.accesses

    def before(x: Access, y: Access) -> bool:  # x happens before y (x earlier in program)
        if x.host and y.host:
            return True
        if x.host:  # host access, then a GPU op issued later
            return True
        if y.host:
            return x.index in y.observed
        return x.index in y.deps

    pairs = set()
    for i, x in enumerate(accs):
        for y in accs[i + 1 :]:
            conflict = (x.writes & (y.reads | y.writes)) or (y.writes & x.reads)
            if conflict and not before(x, y):
                pairs.add(frozenset((x.line, y.line)))
    return pairs


def detected_pairs(text: str, schedule: str, seed: int | None, loaded=None) -> set[frozenset[int]]:
    module, sources = loaded if loaded is not None else load(text, "<random>")
    runner = Runner(
        module,
        sources,
        RunOptions(backend="sim", schedule=schedule, seed=seed, detect_races="all"),
    )
    try:
        runner.call("main", [])
    except RunError as err:
        assert all(d.message.startswith("data race:") for d in err.diagnostics), err.format()
    races = runner.gpu_runtime().races.races

    def line(op, task) -> int:
        # A kernel's access stands for its launch.
        return location_of(task.op if task is not None else op).line

    return {frozenset((line(r.op, r.task), line(r.other_op, r.other_task))) for r in races}


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(programs())
def test_detector_matches_the_oracle(program: Program) -> None:
    expected = oracle_pairs(program)
    loaded = load(program.text, "<random>")
    for schedule, seed in (("program-order", None), ("random", 1), ("random", 7)):
        found = detected_pairs(program.text, schedule, seed, loaded)
        assert found <= expected, (schedule, seed, found - expected, program.text)
        assert bool(found) == bool(expected), (schedule, seed, expected, program.text)


def test_the_oracle_sees_a_plain_race() -> None:
    # Guard against a vacuous property: a known racy and a known clean program.
    racy = Program(
        HEADER
        + "    %t0 = gpu.memset async %b0, %f : memref<4xf32>, f32\n"
        + "    %hv = memref.load %b0[%c0] : memref<4xf32>\n"
        + FOOTER,
        [
            Access(FIRST_LINE, False, set(), {0}, index=0),
            Access(FIRST_LINE + 1, True, {0}, set(), index=1),
        ],
    )
    assert oracle_pairs(racy) == {frozenset((FIRST_LINE, FIRST_LINE + 1))}
    assert detected_pairs(racy.text, "program-order", None) == oracle_pairs(racy)
    clean = racy.text.replace("    %hv = ", "    gpu.wait [%t0]\n    %hv = ")
    assert detected_pairs(clean, "random", 3) == set()


# --------------------------------------------------------------------------- #
# Races between work-items: random kernels over workgroup and global memory.

KERNEL_HEAD = """\
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @k(%g: memref<4xf32>) workgroup(%s : memref<4xf32, #gpu.address_space<workgroup>>) kernel {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %f = arith.constant 1.0 : f32
      memref.store %f, %s[%tid] : memref<4xf32, #gpu.address_space<workgroup>>
      gpu.barrier
"""
KERNEL_TAIL = """\
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %g = gpu.alloc host_shared () : memref<4xf32>
    gpu.launch_func @k::@k blocks in (%c2, %c1, %c1) threads in (%c4, %c1, %c1) args(%g : memref<4xf32>)
    return
  }
}
"""
KERNEL_FIRST_LINE = KERNEL_HEAD.count("\n") + 1
WG = "memref<4xf32, #gpu.address_space<workgroup>>"


@st.composite
def kernels(draw) -> tuple[str, set[frozenset[int]]]:
    """A kernel of phases separated by barriers, each access at element
    (tid * a + b) mod 4 of workgroup or global memory, run by 2 blocks of 4
    work-items; and the lines of the racing pairs of accesses."""
    lines: list[str] = []
    stmts = []  # (line, phase, space, write, a, b)
    phase = 0
    for k in range(draw(st.integers(1, 7))):
        if k and draw(st.integers(0, 3)) == 0:
            lines.append("      gpu.barrier")
            phase += 1
        space = draw(st.sampled_from(["s", "g"]))
        write = draw(st.booleans())
        a, b = draw(st.integers(0, 3)), draw(st.integers(0, 3))
        lines.append(f"      %i{k} = arith.muli %tid, %c{a} : index")
        lines.append(f"      %j{k} = arith.addi %i{k}, %c{b} : index")
        lines.append(f"      %p{k} = arith.remui %j{k}, %c4 : index")
        mtype = WG if space == "s" else "memref<4xf32>"
        line = KERNEL_FIRST_LINE + len(lines)
        if write:
            lines.append(f"      memref.store %f, %{space}[%p{k}] : {mtype}")
        else:
            lines.append(f"      %v{k} = memref.load %{space}[%p{k}] : {mtype}")
        stmts.append((line, phase, space, write, a, b))
    accesses = [
        (blk, tid, line, phase, space, write, (tid * a + b) % 4)
        for blk in range(2)
        for tid in range(4)
        for (line, phase, space, write, a, b) in stmts
    ]
    pairs = set()
    for i, x in enumerate(accesses):
        for y in accesses[i + 1 :]:
            if (x[0], x[1]) == (y[0], y[1]) or x[4] != y[4] or x[6] != y[6]:
                continue
            if not (x[5] or y[5]):
                continue
            if x[4] == "s" and x[0] != y[0]:
                continue  # each block has its own workgroup memory
            if x[0] == y[0] and x[3] != y[3]:
                continue  # a barrier orders them
            pairs.add(frozenset((x[2], y[2])))
    return KERNEL_HEAD + "\n".join(lines) + "\n" + KERNEL_TAIL, pairs


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(kernels())
def test_work_item_races_match_the_oracle(case: tuple[str, set[frozenset[int]]]) -> None:
    text, expected = case
    module, sources = load(text, "<kernel>")
    runner = Runner(module, sources, RunOptions(backend="sim", detect_races="all"))
    try:
        runner.call("main", [])
    except RunError as err:
        assert all(d.message.startswith("data race:") for d in err.diagnostics), err.format()
    found = {
        frozenset((location_of(r.op).line, location_of(r.other_op).line))
        for r in runner.gpu_runtime().races.races
    }
    assert found <= expected, (found - expected, text)
    assert bool(found) == bool(expected), (expected, text)
