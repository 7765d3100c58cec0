"""C names and literals that cannot clash with OpenCL C or carry IR text.

Nothing of the IR reaches the C source except through the names and literals
made here (see `xgpu.mangle`):

- functions (kernels, device functions) and program-scope constants:
  `xg<N>_<hint>` (`xg0_saxpy`), N counting the program's symbols, the hint
  the symbol's `[A-Za-z0-9_]` characters (at most 24): unique, ASCII, at most
  ~32 characters (PoCL aborts on very long kernel names), never a keyword or
  builtin (PoCL renames a kernel called like a builtin, `step` -> `_cl_step`,
  and rejects `main`). `KernelABI.cl_name` says which name a kernel got.
- function parameters: `a<N>` (plus the argument's name hint, e.g. `a0_x`);
  SSA values: `v<N>` (plus the hint); block labels `bb<N>`; the emitter's own
  variables and helpers start with `xg_`. No OpenCL C keyword or builtin
  starts with `xg_`, `xg<digit>` or with a letter followed by a digit.
- string literals: `c_string` (every byte outside printable ASCII, quotes,
  backslashes and `?` escaped: no trigraph, no line splice, no early end);
- comments: `comment_symbol` prints a symbol name as MLIR quotes it, with
  every character that could end or splice the comment escaped.
"""

from __future__ import annotations

import re

from xgpu.mangle import Namer

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
# the `xg_`/`xg<N>`/`v<N>`/`a<N>` naming makes any clash impossible anyway).
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

_BARE_SYMBOL = re.compile(r"[A-Za-z_][A-Za-z0-9_$.]*")


def is_reserved(name: str) -> bool:
    """Whether `name` is an OpenCL C keyword, type or (sampled) builtin."""
    return name in KEYWORDS or name in BUILTINS


def c_string(data: bytes) -> str:
    """A C string literal of exactly `data`: printable ASCII as is, except
    `"`, `\\` and `?` (trigraphs), every other byte as a 3-digit octal escape
    (so no following digit can extend it)."""
    out = ['"']
    for b in data:
        if 32 <= b < 127 and b not in (0x22, 0x5C, 0x3F):
            out.append(chr(b))
        elif b in (0x22, 0x5C, 0x3F):
            out.append("\\" + chr(b))
        else:
            out.append(f"\\{b:03o}")
    out.append('"')
    return "".join(out)


def comment_symbol(name: str) -> str:
    """`@name` for a C comment: bare when MLIR would print it bare, else
    quoted with every byte outside `[A-Za-z0-9_$.]` as `\\XX` (as MLIR escapes,
    but also printable punctuation): nothing that ends a comment or splices
    the next line into it."""
    if _BARE_SYMBOL.fullmatch(name):
        return "@" + name
    data = name.encode("utf-8", "surrogatepass")
    text = "".join(
        chr(b) if chr(b).isascii() and (chr(b).isalnum() or chr(b) in "_$.") else f"\\{b:02X}"
        for b in data
    )
    return f'@"{text}"'


class SymbolNamer:
    """Program-scope names `xg<N>_<hint>`: unique, short, never reserved."""

    def __init__(self) -> None:
        self.namer = Namer("xg")

    def symbol(self, symbol: str) -> str:
        return self.namer(symbol)


class LocalNamer:
    """Function-scope names: `<prefix><N>` plus a sanitized name hint."""

    def __init__(self) -> None:
        self.namers: dict[str, Namer] = {}

    def fresh(self, prefix: str = "v", text: str | None = None) -> str:
        namer = self.namers.get(prefix)
        if namer is None:
            namer = self.namers[prefix] = Namer(prefix)
        return namer(text)
