"""C names for MLIR symbols and SSA values that cannot clash with OpenCL C.

- functions (kernels, device functions) and program-scope constants:
  `xg_<module>__<symbol>`, with characters outside `[A-Za-z0-9_]` replaced by
  `_` and a numeric suffix where two symbols would get the same name. PoCL
  renames a kernel called like a builtin (`step` -> `_cl_step`) and rejects
  `main`: the `xg_` prefix avoids both.
- function parameters: `a<N>` (plus the argument's name hint, e.g. `a0_x`);
  SSA values: `v<N>` (plus the hint); block labels `bb<N>`; the emitter's own
  variables and helpers start with `xg_`. No OpenCL C keyword or builtin
  starts with `xg_` or with a letter followed by a digit.
"""

from __future__ import annotations

import re

# OpenCL C 1.2 keywords, reserved words and type names (section 6.1 and 6.x).
KEYWORDS = frozenset(
    """
    auto break case char const continue default do double else enum extern float for goto if
    inline int long register restrict return short signed sizeof static struct switch typedef
    union unsigned void volatile while _Bool _Complex _Imaginary bool uchar ushort uint ulong
    half size_t ptrdiff_t intptr_t uintptr_t event_t image2d_t image3d_t image2d_array_t
    image1d_t image1d_buffer_t image1d_array_t sampler_t __global global __local local
    __constant constant __private private __kernel kernel __read_only read_only __write_only
    write_only __read_write read_write __attribute__ true false complex imaginary main
    """.split()
)

# Builtin functions that a careless name could shadow (a sample of section 6.12;
# the `xg_`/`v<N>`/`a<N>` naming makes any clash impossible anyway).
BUILTINS = frozenset(
    """
    get_global_id get_local_id get_group_id get_global_size get_local_size get_num_groups
    get_work_dim get_global_offset barrier mem_fence read_mem_fence write_mem_fence printf
    min max clamp abs step mix sign fabs fmin fmax fma mad sqrt rsqrt exp exp2 exp10 log log2
    log10 pow pown powr sin cos tan asin acos atan atan2 sinh cosh tanh erf erfc floor ceil
    round rint trunc fmod remainder copysign cbrt hypot isnan isinf isfinite isnormal select
    popcount clz mul_hi rotate upsample dot cross length normalize distance as_int as_float
    as_uint as_long as_double vload2 vstore2 vload_half vstore_half atomic_add atomic_sub
    atomic_xchg atomic_min atomic_max atomic_cmpxchg convert_int async_work_group_copy
    wait_group_events prefetch shuffle shuffle2 any all bitselect signbit
    """.split()
)

_INVALID = re.compile(r"[^A-Za-z0-9_]")


def sanitize(text: str) -> str:
    """`text` with only `[A-Za-z0-9_]` characters."""
    return _INVALID.sub("_", text)


def is_reserved(name: str) -> bool:
    """Whether `name` is an OpenCL C keyword, type or (sampled) builtin."""
    return name in KEYWORDS or name in BUILTINS


class SymbolNamer:
    """Program-scope names: unique, prefixed, never reserved."""

    def __init__(self) -> None:
        self.used: set[str] = set()

    def unique(self, base: str) -> str:
        name, n = base, 1
        while name in self.used or is_reserved(name):
            name = f"{base}_{n}"
            n += 1
        self.used.add(name)
        return name

    def symbol(self, module: str, symbol: str) -> str:
        return self.unique(f"xg_{sanitize(module)}__{sanitize(symbol)}")


class LocalNamer:
    """Function-scope names: `<prefix><N>` plus a sanitized name hint."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}

    def fresh(self, prefix: str = "v", hint: str | None = None) -> str:
        n = self.counts.get(prefix, 0)
        self.counts[prefix] = n + 1
        name = f"{prefix}{n}"
        if hint:
            clean = sanitize(hint)[:24].strip("_")
            if clean:
                name += "_" + clean
        return name
