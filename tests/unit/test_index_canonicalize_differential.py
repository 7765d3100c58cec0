"""Differential test of canonicalize on random index-dialect programs against
mlir-opt 22.

Seeded functions chain index binary ops, cmp, casts and constants, the
constants drawn from values where 32-bit and 64-bit index arithmetic part
(2**31, 2**32, -2**31 - 1, 2**63 - 1, ...) and from shift amounts around 32,
so that the width-independence rules of the folders, the identities, the
reassociation of constants and the cmp range folds are exercised. All
functions of a seed sit in one module: one mlir-opt run gives the reference.

Skipped where mlir-opt 22 is absent, unless XGPU_REQUIRE_MLIR=1.
`python tests/unit/test_index_canonicalize_differential.py FIRST COUNT` sweeps seeds.
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

_BINARY = (
    "add sub mul divs divu ceildivs ceildivu floordivs rems remu "
    "maxs maxu mins minu shl shrs shru and or xor"
).split()
_PREDICATES = "eq ne slt sle sgt sge ult ule ugt uge".split()
_VALUES = [
    0, 1, -1, 2, 3, -3, 7, 31, 32, 33, 63, 64,
    2**31 - 1, 2**31, 2**32, 2**32 + 5, -(2**31), -(2**31) - 1,
    2**63 - 1, -(2**63), 123456789, -987654321,
]  # fmt: skip


def random_function(rng: random.Random, name: str) -> str:
    lines = [f"func.func @{name}(%a: index, %b: index, %i: i32) -> (index, i1) {{"]
    values = ["%a", "%b"]
    flags: list[str] = []
    for n in range(rng.randint(3, 10)):
        result = f"%v{n}"
        pick = rng.random()
        made = [v for v in values if v not in ("%a", "%b")] or values
        if pick < 0.3:
            lines.append(f"  {result} = index.constant {rng.choice(_VALUES)}")
            values.append(result)
        elif pick < 0.75:
            lhs = rng.choice(values if rng.random() < 0.5 else made)
            rhs = rng.choice(made if rng.random() < 0.7 else values)
            lines.append(f"  {result} = index.{rng.choice(_BINARY)} {lhs}, {rhs}")
            values.append(result)
        elif pick < 0.88:
            lhs, rhs = rng.choice(values), rng.choice(values)
            lines.append(f"  {result} = index.cmp {rng.choice(_PREDICATES)}({lhs}, {rhs})")
            flags.append(result)
        else:
            cast = rng.choice(("casts", "castu"))
            if rng.random() < 0.5:
                lines.append(f"  {result} = index.{cast} %i : i32 to index")
                values.append(result)
            else:
                target = rng.choice(("i1", "i8", "i32", "i48", "i64"))
                lines.append(f"  {result} = index.{cast} {rng.choice(values)} : index to {target}")
                if target == "i1":
                    flags.append(result)
    if not flags:
        lines.append("  %f = index.bool.constant false")
        flags.append("%f")
    lines.append(f"  return {values[-1]}, {flags[-1]} : index, i1")
    lines.append("}")
    return "\n".join(lines)


def random_module(seed: int, functions: int = 40) -> str:
    rng = random.Random(seed)
    return "\n".join(random_function(rng, f"f{i}") for i in range(functions)) + "\n"


@pytest.mark.parametrize("seed", [int(os.environ.get("XGPU_FUZZ_SEED", "0")), 11])
def test_random_index_programs_canonicalize_like_mlir_opt(seed: int) -> None:
    assert MLIR_OPT is not None
    problems = compare_pass_chunk(MLIR_OPT, random_module(seed), "canonicalize")
    assert not problems, problems[0][:4000]


if __name__ == "__main__":  # pragma: no cover - a manual sweep
    first, count = int(sys.argv[1]), int(sys.argv[2])
    for seed in range(first, first + count):
        found = compare_pass_chunk(MLIR_OPT, random_module(seed), "canonicalize")
        print(f"seed {seed}: {'differs' if found else 'ok'}")
        if found:
            print(found[0][:4000])
            break
