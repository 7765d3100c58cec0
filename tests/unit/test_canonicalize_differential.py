"""Differential test of xgpu's canonicalize against mlir-opt 22 on random
programs.

Seeded generators write (1) straight-line integer arithmetic on i1, i8, i32,
i64 and index, (2) the same mixed with f16/f32/f64 arithmetic, comparisons and
casts, and (3) nested scf.for / scf.if / scf.index_switch / scf.execute_region
with iter_args, results, loads and stores. Operands are arguments, earlier
results and constants, edge values among them (0, 1, -1, min, max, -0.0,
infinities, NaN), so that identities, constant folding, wrap-around at the
type's width, signed/unsigned division, division by zero, trip counts and the
region patterns are exercised. Many functions are batched in one module: one
`mlir-opt --canonicalize` call gives the reference, xgpu canonicalizes
in-process, and its output is printed by mlir-opt, so that both sides are
compared in mlir-opt's syntax, function by function.

Skipped (with the reason) where mlir-opt 22 is absent, unless
XGPU_REQUIRE_MLIR=1. `XGPU_FUZZ_SEED=N` runs one seed only;
`python tests/unit/test_canonicalize_differential.py FIRST COUNT` sweeps
seeds and prints the first differences.
"""

from __future__ import annotations

import os
import random
import re
import subprocess

import pytest

from xgpu.tools.oracle import find_mlir_opt

MLIR_OPT = find_mlir_opt()
REQUIRE = os.environ.get("XGPU_REQUIRE_MLIR") == "1"

pytestmark = pytest.mark.skipif(
    MLIR_OPT is None and not REQUIRE,
    reason="mlir-opt (22) not found: set XGPU_MLIR_OPT or install mlir-22-tools",
)

INT_TYPES = ("i1", "i8", "i32", "i64", "index")
FLOAT_TYPES = ("f16", "f32", "f64")
WIDTH = {"i1": 1, "i8": 8, "i32": 32, "i64": 64, "index": 64}

INT_BINARY = (
    "addi",
    "subi",
    "muli",
    "divui",
    "divsi",
    "ceildivui",
    "ceildivsi",
    "floordivsi",
    "remui",
    "remsi",
    "andi",
    "ori",
    "xori",
    "shli",
    "shrui",
    "shrsi",
    "maxsi",
    "maxui",
    "minsi",
    "minui",
)
FLOAT_BINARY = ("addf", "subf", "mulf", "divf", "maximumf", "minimumf", "maxnumf", "minnumf")
CMPI = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
# No `false`/`true`: mlir-opt 22 crashes on `cmpf false, (sitofp x), c`
# (CmpFIntToFPConst reaches llvm_unreachable).
CMPF = (
    "oeq",
    "ogt",
    "oge",
    "olt",
    "ole",
    "one",
    "ord",
    "ueq",
    "ugt",
    "uge",
    "ult",
    "ule",
    "une",
    "uno",
)
FLOAT_EDGES = (
    "0.000000e+00",
    "-0.000000e+00",
    "1.000000e+00",
    "-1.000000e+00",
    "5.000000e-01",
    "2.000000e+00",
    "3.000000e+00",
    "1.100000e+00",
    "1.000000e+10",
    "-2.500000e+00",
    "6.550400e+04",
    "0x7F800000",
    "0xFF800000",
    "0x7FC00000",
)


def int_edges(ty: str) -> list[int]:
    w = WIDTH[ty]
    if w == 1:
        return [0, -1]
    smax, smin = (1 << (w - 1)) - 1, -(1 << (w - 1))
    return [0, 1, -1, 2, 3, 7, 8, 63, 64, -2, -8, smax, smin, smax - 1, smin + 1, w, w - 1]


class Gen:
    """Writes one random function."""

    def __init__(self, rng: random.Random, name: str, floats: bool) -> None:
        self.rng = rng
        self.name = name
        self.lines: list[str] = []
        self.pool: dict[str, list[str]] = {}
        self.results: list[tuple[str, str]] = []
        self.count = 0
        self.types = INT_TYPES + (FLOAT_TYPES if floats else ())
        self.args = [(f"%a{i}", ty) for i, ty in enumerate(self.types)]
        for name_, ty in self.args:
            self.pool.setdefault(ty, []).append(name_)

    def fresh(self) -> str:
        self.count += 1
        return f"%v{self.count}"

    def constant(self, ty: str) -> str:
        rng = self.rng
        name = self.fresh()
        if ty in FLOAT_TYPES:
            value = rng.choice(FLOAT_EDGES)
            if value.startswith("0x"):
                value = {
                    "f16": {"0x7F800000": "0x7C00", "0xFF800000": "0xFC00", "0x7FC00000": "0x7E00"},
                    "f32": {},
                    "f64": {
                        "0x7F800000": "0x7FF0000000000000",
                        "0xFF800000": "0xFFF0000000000000",
                        "0x7FC00000": "0x7FF8000000000000",
                    },
                }[ty].get(value, value)
            elif ty == "f16" and value == "1.000000e+10":
                value = "1.000000e+04"
        elif ty == "i1":
            value = rng.choice(["true", "false"])
        else:
            if rng.random() < 0.8:
                value = str(rng.choice(int_edges(ty)))
            else:
                value = str(rng.randrange(-(1 << (WIDTH[ty] - 1)), 1 << (WIDTH[ty] - 1)))
        suffix = "" if ty == "i1" else f" : {ty}"
        self.lines.append(f"  {name} = arith.constant {value}{suffix}")
        self.pool.setdefault(ty, []).append(name)
        return name

    def operand(self, ty: str) -> str:
        rng = self.rng
        if rng.random() < 0.35 or not self.pool.get(ty):
            return self.constant(ty)
        return rng.choice(self.pool[ty])

    def define(self, name: str, ty: str, text: str) -> None:
        self.lines.append(f"  {name} = {text}")
        self.pool.setdefault(ty, []).append(name)
        self.results.append((name, ty))

    def step(self) -> None:
        rng = self.rng
        kind = rng.random()
        is_float = any(t in FLOAT_TYPES for t in self.types) and rng.random() < 0.4
        if is_float:
            self.float_step(kind)
            return
        ty = rng.choice(INT_TYPES)
        name = self.fresh()
        if kind < 0.55:
            op = rng.choice(INT_BINARY)
            lhs = self.operand(ty)
            rhs = lhs if rng.random() < 0.15 else self.operand(ty)
            self.define(name, ty, f"arith.{op} {lhs}, {rhs} : {ty}")
        elif kind < 0.7:
            pred = rng.choice(CMPI)
            lhs = self.operand(ty)
            rhs = lhs if rng.random() < 0.15 else self.operand(ty)
            self.define(name, "i1", f"arith.cmpi {pred}, {lhs}, {rhs} : {ty}")
        elif kind < 0.82:
            cond = self.operand("i1")
            lhs = self.operand(ty)
            rhs = lhs if rng.random() < 0.1 else self.operand(ty)
            self.define(name, ty, f"arith.select {cond}, {lhs}, {rhs} : {ty}")
        else:
            self.int_cast(name)

    def int_cast(self, name: str) -> None:
        rng = self.rng
        src = rng.choice(INT_TYPES)
        dst = rng.choice([t for t in INT_TYPES if t != src])
        value = self.operand(src)
        if src == "index" or dst == "index":
            self.define(name, dst, f"arith.index_cast {value} : {src} to {dst}")
        elif WIDTH[dst] > WIDTH[src]:
            op = rng.choice(["extui", "extsi"])
            self.define(name, dst, f"arith.{op} {value} : {src} to {dst}")
        elif WIDTH[dst] < WIDTH[src]:
            self.define(name, dst, f"arith.trunci {value} : {src} to {dst}")

    def float_step(self, kind: float) -> None:
        rng = self.rng
        ty = rng.choice(FLOAT_TYPES)
        name = self.fresh()
        if kind < 0.5:
            op = rng.choice(FLOAT_BINARY)
            lhs = self.operand(ty)
            rhs = lhs if rng.random() < 0.1 else self.operand(ty)
            self.define(name, ty, f"arith.{op} {lhs}, {rhs} : {ty}")
        elif kind < 0.6:
            self.define(name, ty, f"arith.negf {self.operand(ty)} : {ty}")
        elif kind < 0.72:
            pred = rng.choice(CMPF)
            lhs, rhs = self.operand(ty), self.operand(ty)
            self.define(name, "i1", f"arith.cmpf {pred}, {lhs}, {rhs} : {ty}")
        elif kind < 0.86:
            ity = rng.choice(["i8", "i32", "i64"])
            if rng.random() < 0.5:
                op = rng.choice(["sitofp", "uitofp"])
                self.define(name, ty, f"arith.{op} {self.operand(ity)} : {ity} to {ty}")
            else:
                op = rng.choice(["fptosi", "fptoui"])
                self.define(name, ity, f"arith.{op} {self.operand(ty)} : {ty} to {ity}")
        else:
            other = rng.choice([t for t in FLOAT_TYPES if t != ty])
            src, dst = sorted((ty, other), key=lambda t: int(t[1:]))
            if rng.random() < 0.5:
                self.define(name, dst, f"arith.extf {self.operand(src)} : {src} to {dst}")
            else:
                self.define(name, src, f"arith.truncf {self.operand(dst)} : {dst} to {src}")

    def function(self, steps: int) -> str:
        for _ in range(steps):
            self.step()
        rng = self.rng
        live = [r for r in self.results if rng.random() < 0.7] or self.results[-1:]
        args = ", ".join(f"{n}: {t}" for n, t in self.args)
        rets = ", ".join(n for n, _ in live)
        types = ", ".join(t for _, t in live)
        body = "\n".join(self.lines)
        return (
            f"func.func @{self.name}({args}) -> ({types}) {{\n{body}\n"
            f"  return {rets} : {types}\n}}\n"
        )


class ControlGen:
    """Writes one random function of nested scf.for / scf.if /
    scf.index_switch / scf.execute_region with iter_args, results, loads and
    stores (to keep effects), over i1, i32 and index values."""

    OPS = {"i32": ("addi", "subi", "muli", "xori", "andi"), "index": ("addi", "subi", "muli")}

    def __init__(self, rng: random.Random, name: str) -> None:
        self.rng = rng
        self.name = name
        self.count = 0
        self.lines: list[str] = []

    def fresh(self) -> str:
        self.count += 1
        return f"%v{self.count}"

    def pick(self, scope: list[tuple[str, str]], ty: str, ind: str) -> str:
        rng = self.rng
        found = [v for v, t in scope if t == ty]
        if found and rng.random() > 0.3:
            return rng.choice(found)
        name = self.fresh()
        if ty == "i1":
            self.lines.append(f"{ind}{name} = arith.constant {rng.choice(['true', 'false'])}")
        else:
            value = rng.choice([0, 1, 2, 3, 4, 8, 10, -1] if ty == "index" else [0, 1, -1, 5, 7])
            self.lines.append(f"{ind}{name} = arith.constant {value} : {ty}")
        scope.append((name, ty))
        return name

    def region(self, scope: list[tuple[str, str]], types: list[str], depth: int, ind: str) -> None:
        """A block body ending with `scf.yield` of `types`."""
        inner = self.block(scope, depth + 1, ind, self.rng.randint(0, 3))
        values = [self.pick(inner, t, ind) for t in types]
        suffix = f" {', '.join(values)} : {', '.join(types)}" if types else ""
        self.lines.append(f"{ind}scf.yield{suffix}")

    def results(self, scope: list[tuple[str, str]], name: str, types: list[str]) -> None:
        scope.extend((f"{name}#{i}", t) for i, t in enumerate(types))

    def block(
        self, scope: list[tuple[str, str]], depth: int, ind: str, steps: int
    ) -> list[tuple[str, str]]:
        rng = self.rng
        scope = list(scope)
        for _ in range(steps):
            kind = rng.random()
            if kind < 0.35:
                ty = rng.choice(["i32", "index", "i1"])
                op = rng.choice(self.OPS.get(ty, ("xori", "andi", "ori")))
                lhs, rhs = self.pick(scope, ty, ind), self.pick(scope, ty, ind)
                name = self.fresh()
                self.lines.append(f"{ind}{name} = arith.{op} {lhs}, {rhs} : {ty}")
                scope.append((name, ty))
            elif kind < 0.45:
                lhs, rhs = self.pick(scope, "i32", ind), self.pick(scope, "i32", ind)
                name = self.fresh()
                pred = rng.choice(CMPI)
                self.lines.append(f"{ind}{name} = arith.cmpi {pred}, {lhs}, {rhs} : i32")
                scope.append((name, "i1"))
            elif kind < 0.6:
                value, index = self.pick(scope, "i32", ind), self.pick(scope, "index", ind)
                self.lines.append(f"{ind}memref.store {value}, %m[{index}] : memref<?xi32>")
            elif kind < 0.65:
                index = self.pick(scope, "index", ind)
                name = self.fresh()
                self.lines.append(f"{ind}{name} = memref.load %m[{index}] : memref<?xi32>")
                scope.append((name, "i32"))
            elif depth >= 3:
                continue
            elif kind < 0.8:
                cond = self.pick(scope, "i1", ind)
                types = [
                    rng.choice(["i32", "i1", "index"]) for _ in range(rng.choice([0, 0, 1, 2]))
                ]
                name = self.fresh()
                head = f"{name}:{len(types)} = " if types else ""
                arrow = f" -> ({', '.join(types)})" if types else ""
                self.lines.append(f"{ind}{head}scf.if {cond}{arrow} {{")
                self.region(scope, types, depth, ind + "  ")
                if types or rng.random() < 0.5:
                    self.lines.append(f"{ind}}} else {{")
                    self.region(scope, types, depth, ind + "  ")
                self.lines.append(f"{ind}}}")
                self.results(scope, name, types)
            elif kind < 0.86:
                selector = self.pick(scope, "index", ind)
                types = [rng.choice(["i32", "index"]) for _ in range(rng.choice([0, 1, 2]))]
                name = self.fresh()
                head = f"{name}:{len(types)} = " if types else ""
                arrow = f" -> {', '.join(types)}" if types else ""
                self.lines.append(f"{ind}{head}scf.index_switch {selector}{arrow}")
                for case in rng.choice([["case 0", "case 2"], ["case 1"]]) + ["default"]:
                    self.lines.append(f"{ind}{case} {{")
                    self.region(scope, types, depth, ind + "  ")
                    self.lines.append(f"{ind}}}")
                self.results(scope, name, types)
            elif kind < 0.9:
                types = [rng.choice(["i32", "index"]) for _ in range(rng.choice([0, 1, 2]))]
                name = self.fresh()
                head = f"{name}:{len(types)} = " if types else ""
                arrow = f" -> ({', '.join(types)})" if types else ""
                self.lines.append(f"{ind}{head}scf.execute_region{arrow} {{")
                self.region(scope, types, depth, ind + "  ")
                self.lines.append(f"{ind}}}")
                self.results(scope, name, types)
            else:
                lb, ub = self.pick(scope, "index", ind), self.pick(scope, "index", ind)
                step = self.pick(scope, "index", ind)
                types = [rng.choice(["i32", "index"]) for _ in range(rng.choice([0, 1, 2]))]
                inits = [self.pick(scope, t, ind) for t in types]
                iv, args, name = self.fresh(), [self.fresh() for _ in types], self.fresh()
                if types:
                    pairs = ", ".join(f"{a} = {i}" for a, i in zip(args, inits, strict=True))
                    self.lines.append(
                        f"{ind}{name}:{len(types)} = scf.for {iv} = {lb} to {ub} step {step} "
                        f"iter_args({pairs}) -> ({', '.join(types)}) {{"
                    )
                else:
                    self.lines.append(f"{ind}scf.for {iv} = {lb} to {ub} step {step} {{")
                body = [*scope, (iv, "index"), *zip(args, types, strict=True)]
                self.region(body, types, depth, ind + "  ")
                self.lines.append(f"{ind}}}")
                self.results(scope, name, types)
        return scope

    def function(self) -> str:
        scope = [("%a", "i32"), ("%b", "i32"), ("%c", "i1"), ("%n", "index")]
        scope = self.block(scope, 0, "  ", self.rng.randint(3, 8))
        rets = [v for v, t in scope if t == "i32" and self.rng.random() < 0.5][:3]
        types = ", ".join("i32" for _ in rets)
        body = "\n".join(self.lines)
        ret = f"  return {', '.join(rets)} : {types}" if rets else "  return"
        return (
            f"func.func @{self.name}(%a: i32, %b: i32, %c: i1, %n: index, %m: memref<?xi32>)"
            f" -> ({types}) {{\n{body}\n{ret}\n}}\n"
        )


def make_control_module(seed: int, functions: int) -> tuple[str, list[str]]:
    rng = random.Random(seed)
    funcs = [ControlGen(rng, f"c{seed}_{i}").function() for i in range(functions)]
    return "\n".join(funcs), funcs


def make_module(seed: int, functions: int, steps: int, floats: bool) -> tuple[str, list[str]]:
    rng = random.Random(seed)
    funcs = [Gen(rng, f"f{seed}_{i}", floats).function(steps) for i in range(functions)]
    return "\n".join(funcs), funcs


def run_mlir_opt(text: str, *flags: str) -> str:
    assert MLIR_OPT is not None, "XGPU_REQUIRE_MLIR=1 but mlir-opt (22) not found"
    proc = subprocess.run(
        [MLIR_OPT, *flags, "-"], input=text, capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def xgpu_canonicalize(text: str) -> str:
    from xgpu.tools.mlir_diff import xgpu_run_pipeline

    return xgpu_run_pipeline(text, "canonicalize")


_FUNC = re.compile(r"^  func\.func @(\w+)", re.M)


def split_functions(text: str) -> dict[str, str]:
    starts = [(m.start(), m.group(1)) for m in _FUNC.finditer(text)]
    out = {}
    for i, (start, name) in enumerate(starts):
        end = starts[i + 1][0] if i + 1 < len(starts) else len(text)
        out[name] = text[start:end]
    return out


def compare(
    seed: int, functions: int, steps: int, floats: bool, control: bool = False
) -> list[str]:
    if control:
        text, sources = make_control_module(seed, functions)
    else:
        text, sources = make_module(seed, functions, steps, floats)
    expected = split_functions(run_mlir_opt(text, "--canonicalize"))
    actual = split_functions(run_mlir_opt(xgpu_canonicalize(text)))
    problems = []
    for source in sources:
        name = source.split("@", 1)[1].split("(", 1)[0]
        if expected.get(name) != actual.get(name):
            problems.append(
                f"--- input\n{source}--- mlir-opt --canonicalize\n{expected.get(name)}"
                f"--- xgpu-opt -p canonicalize\n{actual.get(name)}"
            )
    return problems


SEEDS = (
    [int(os.environ["XGPU_FUZZ_SEED"])] if "XGPU_FUZZ_SEED" in os.environ else list(range(1, 21))
)


@pytest.mark.parametrize("seed", SEEDS)
def test_random_integer_programs(seed: int) -> None:
    problems = compare(seed, functions=40, steps=14, floats=False)
    assert not problems, f"{len(problems)} function(s) differ; first:\n{problems[0]}"


@pytest.mark.parametrize("seed", SEEDS)
def test_random_mixed_programs(seed: int) -> None:
    problems = compare(1000 + seed, functions=30, steps=14, floats=True)
    assert not problems, f"{len(problems)} function(s) differ; first:\n{problems[0]}"


@pytest.mark.parametrize("seed", SEEDS)
def test_random_control_flow(seed: int) -> None:
    problems = compare(2000 + seed, functions=20, steps=0, floats=False, control=True)
    assert not problems, f"{len(problems)} function(s) differ; first:\n{problems[0]}"


if (
    __name__ == "__main__"
):  # a quick local sweep: python tests/unit/test_canonicalize_differential.py
    import sys

    first = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    total = 0
    for seed in range(first, first + count):
        for found in (
            compare(seed, 30, 14, False),
            compare(1000 + seed, 30, 14, True),
            compare(2000 + seed, 20, 0, False, control=True),
        ):
            total += len(found)
            for problem in found[:2]:
                print(problem)
    print(f"{total} difference(s)")
