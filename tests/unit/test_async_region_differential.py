"""Differential test of gpu-async-region on random programs with async.execute
against mlir-opt 22.

A seeded generator writes functions that mix gpu ops, host calls, awaits (some
in scf.if), `async.execute` ops nested up to three deep with token
dependencies, `!async.value<f32>` and `!async.value<!gpu.async.token>`
operands and results. Which users of a token get the deferred gpu tokens, and
which use of a forked gpu token gets its copy, depend on MLIR's use-list
order, so these programs check xgpu's model of it. All functions of a seed
sit in one module: one mlir-opt run gives the reference.

Skipped where mlir-opt 22 is absent, unless XGPU_REQUIRE_MLIR=1.
`python tests/unit/test_async_region_differential.py FIRST COUNT` sweeps seeds.
"""

from __future__ import annotations

import os
import random
import sys

import pytest

from xgpu.tools.mlir_diff import compare_pass_chunk
from xgpu.tools.oracle import find_mlir_opt

MLIR_OPT = find_mlir_opt()
REQUIRE = os.environ.get("XGPU_REQUIRE_MLIR") == "1"

pytestmark = pytest.mark.skipif(
    MLIR_OPT is None and not REQUIRE,
    reason="mlir-opt (22) not found: set XGPU_MLIR_OPT or install mlir-22-tools",
)

_MEMSET = "gpu.memset %m, %v : memref<?xf32>, f32"


class _Writer:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.lines: list[str] = []
        self.count = 0

    def fresh(self, prefix: str) -> str:
        self.count += 1
        return f"%{prefix}{self.count}"

    def block(self, indent: str, depth: int, tokens: list[str], values: list[str], gpu: list[str]):
        """Ops of one block; `tokens`, `values` and `gpu` (awaitable
        `!async.token`s, `!async.value<f32>`s and
        `!async.value<!gpu.async.token>`s) grow with what it defines."""
        rng = self.rng
        for _ in range(rng.randint(1, 4 if depth == 0 else 2)):
            pick = rng.random()
            if pick < 0.45 and depth < 3:
                self.execute(indent, depth, tokens, values, gpu)
            elif pick < 0.6:
                self.lines.append(indent + _MEMSET)
            elif pick < 0.68:
                self.lines.append(indent + "func.call @host() : () -> ()")
            elif pick < 0.85 and tokens:
                token = rng.choice(tokens)
                if rng.random() < 0.25:
                    self.lines += [
                        indent + "scf.if %p {",
                        indent + f"  async.await {token} : !async.token",
                        indent + "}",
                    ]
                else:
                    self.lines.append(indent + f"async.await {token} : !async.token")
            elif gpu and rng.random() < 0.5:
                awaited = self.fresh("w")
                value = rng.choice(gpu)
                self.lines.append(
                    indent + f"{awaited} = async.await {value} : !async.value<!gpu.async.token>"
                )
                self.lines.append(indent + f"gpu.wait [{awaited}]")
            else:
                self.lines.append(indent + f"{self.fresh('c')} = arith.constant 2.0 : f32")

    def execute(self, indent, depth, tokens, values, gpu) -> None:
        rng = self.rng
        deps = [t for t in tokens if rng.random() < 0.35]
        operands = [(x, "f32") for x in values if rng.random() < 0.25]
        operands += [(x, "!gpu.async.token") for x in gpu if rng.random() < 0.25]
        pick = rng.random()
        result_types = ["f32"] if pick < 0.25 else ["!gpu.async.token"] if pick < 0.4 else []
        token = self.fresh("e")
        results = [self.fresh("r") for _ in result_types]
        text = ", ".join([token, *results]) + " = async.execute"
        if deps:
            text += " [" + ", ".join(deps) + "]"
        args = [(self.fresh("x"), ty) for _, ty in operands]
        if operands:
            pairs = (f"{o} as {a} : !async.value<{t}>" for (o, t), (a, _) in zip(operands, args))
            text += " (" + ", ".join(pairs) + ")"
        if result_types:
            text += " -> " + ", ".join(f"!async.value<{t}>" for t in result_types)
        self.lines.append(indent + text + " {")
        inner = indent + "  "
        self.block(inner, depth + 1, list(tokens), list(values), list(gpu))
        for arg, ty in args:
            if ty != "f32" and rng.random() < 0.5:
                self.lines.append(
                    inner + f"{self.fresh('q')} = gpu.memset async [{arg}] %m, %v"
                    " : memref<?xf32>, f32"
                )
        yielded = []
        for ty in result_types:
            if ty == "f32":
                yielded.append(("%v", ty))
            else:
                made = self.fresh("g")
                self.lines.append(inner + f"{made} = gpu.wait async")
                yielded.append((made, ty))
        if yielded:
            self.lines.append(
                inner
                + "async.yield "
                + ", ".join(v for v, _ in yielded)
                + " : "
                + ", ".join(t for _, t in yielded)
            )
        else:
            self.lines.append(inner + "async.yield")
        self.lines.append(indent + "}")
        tokens.append(token)
        for result, ty in zip(results, result_types):
            (values if ty == "f32" else gpu).append(result)


def random_function(rng: random.Random, name: str) -> str:
    writer = _Writer(rng)
    tokens: list[str] = []
    writer.lines.append(
        f"func.func @{name}(%m : memref<?xf32>, %v : f32, %p : i1) -> !async.token {{"
    )
    writer.block("  ", 0, tokens, [], [])
    if tokens and rng.random() < 0.3:
        writer.lines.append(f"  return {tokens[0]} : !async.token")
    else:
        last = writer.fresh("t")
        writer.lines += [f"  {last} = async.execute {{", "    async.yield", "  }"]
        writer.lines.append(f"  return {last} : !async.token")
    writer.lines.append("}")
    return "\n".join(writer.lines)


def random_module(seed: int, functions: int = 40) -> str:
    rng = random.Random(seed)
    bodies = [random_function(rng, f"f{i}") for i in range(functions)]
    return "func.func private @host()\n" + "\n".join(bodies) + "\n"


@pytest.mark.parametrize("seed", [int(os.environ.get("XGPU_FUZZ_SEED", "0")), 7])
def test_random_async_execute_programs_match_mlir_opt(seed: int) -> None:
    assert MLIR_OPT is not None
    problems = compare_pass_chunk(MLIR_OPT, random_module(seed), "gpu-async-region")
    assert not problems, problems[0][:4000]


if __name__ == "__main__":  # pragma: no cover - a manual sweep
    first, count = int(sys.argv[1]), int(sys.argv[2])
    for seed in range(first, first + count):
        found = compare_pass_chunk(MLIR_OPT, random_module(seed), "gpu-async-region")
        print(f"seed {seed}: {'differs' if found else 'ok'}")
        if found:
            print(found[0][:4000])
            break
