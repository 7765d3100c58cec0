"""Generators of valid programs that are deep or wide (textual MLIR), for the
tests of xgpu's limits (tests/unit/test_hostile_limits.py and the lit tests
in tests/filecheck/hostile/limits-*.mlir, which run this file as a script):

    python3 limits_programs.py host DEPTH [KINDS]      @main() -> index, returns DEPTH + 1
    python3 limits_programs.py kernel DEPTH [KINDS]    @main() -> index: the same in a kernel
                                                       (work-item 3's result: DEPTH + 4)
    python3 limits_programs.py tokens N MODE           gpu.wait of N tokens (MODE: blocking,
                                                       async, op), returns 55 (sum of 1..10)

KINDS is a comma-separated list of `for`, `if`, `while`, `region` (a
two-block scf.execute_region), `switch` (scf.index_switch), used in turn
from the outermost level in; the default is all of them. Every generator is
iterative (no Python recursion, whatever the depth).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence

KINDS = ("for", "if", "while", "region", "switch")
CONSTS = [
    "%c0 = arith.constant 0 : index",
    "%c1 = arith.constant 1 : index",
    "%true = arith.constant true",
]
Inner = Callable[[str], tuple[list[str], str]]


def nested(
    depth: int, start: str, kinds: Sequence[str] = KINDS, inner: Inner | None = None
) -> tuple[list[str], str]:
    """Lines computing `start + depth + 1` through `depth` nested region ops
    (each level adds 1 to what its region yields, the innermost adds 1), and
    the name of the result. `inner(value)` gives lines placed innermost and
    the value they leave (the innermost value otherwise)."""
    opens: list[str] = []
    closes: list[tuple[int, list[str], str]] = []
    value = start
    for d in range(depth):
        kind = kinds[d % len(kinds)]
        if kind == "for":
            opens.append(
                f"%r{d} = scf.for %i{d} = %c0 to %c1 step %c1 iter_args(%a{d} = {value}) "
                "-> (index) {"
            )
            closes.append((d, ["scf.yield {} : index", "}"], f"%r{d}"))
            value = f"%a{d}"
        elif kind == "if":
            opens.append(f"%r{d} = scf.if %true -> (index) {{")
            tail = ["scf.yield {} : index", "} else {", "scf.yield %c0 : index", "}"]
            closes.append((d, tail, f"%r{d}"))
        elif kind == "while":
            opens += [
                f"%r{d}:2 = scf.while (%w{d} = {value}, %f{d} = %c0) : (index, index) -> "
                "(index, index) {",
                f"%go{d} = arith.cmpi eq, %f{d}, %c0 : index",
                f"scf.condition(%go{d}) %w{d}, %f{d} : index, index",
                "} do {",
                f"^bb0(%x{d}: index, %y{d}: index):",
            ]
            closes.append((d, ["scf.yield {}, %c1 : index, index", "}"], f"%r{d}#0"))
            value = f"%x{d}"
        elif kind == "region":
            opens += [
                f"%r{d} = scf.execute_region -> index {{",
                f"cf.br ^bb1({value} : index)",
                f"^bb1(%e{d}: index):",
            ]
            closes.append((d, ["scf.yield {} : index", "}"], f"%r{d}"))
            value = f"%e{d}"
        elif kind == "switch":
            opens += [f"%r{d} = scf.index_switch %c1 -> index", "case 1 {"]
            tail = ["scf.yield {} : index", "}", "default {", "scf.yield %c0 : index", "}"]
            closes.append((d, tail, f"%r{d}"))
        else:
            raise ValueError(kind)
    lines = list(opens)
    if inner is not None:
        more, value = inner(value)
        lines += more
    lines.append(f"%s{depth} = arith.addi {value}, %c1 : index")
    result = f"%s{depth}"
    for d, tail, out in reversed(closes):
        lines.append(tail[0].format(result))
        lines += tail[1:]
        lines.append(f"%s{d} = arith.addi {out}, %c1 : index")
        result = f"%s{d}"
    return lines, result


def host_program(depth: int, kinds: Sequence[str] = KINDS, inner: Inner | None = None) -> str:
    """`@main() -> index`: `depth + 1` computed `depth` levels deep."""
    body, result = nested(depth, "%c0", kinds, inner)
    return "\n".join(
        ["func.func @main() -> index {", *CONSTS, *body, f"return {result} : index", "}"]
    )


def kernel_program(
    depth: int,
    kinds: Sequence[str] = KINDS,
    inner: Inner | None = None,
    threads: int = 4,
    main_returns: bool = False,
) -> str:
    """A kernel storing `tid + depth + 1`, computed `depth` levels deep, at
    `out[tid]`; `@main(%host)` copies `out` to `%host` (`main_returns`:
    `@main() -> index` returns element 3)."""
    body, result = nested(depth, "%t", kinds, inner)
    lines = [
        "module attributes {gpu.container_module} {",
        "gpu.module @m {",
        "gpu.func @k(%out: memref<?xindex>) kernel {",
        *CONSTS,
        "%t = gpu.thread_id x",
        *body,
        f"memref.store {result}, %out[%t] : memref<?xindex>",
        "gpu.return",
        "}",
        "}",
    ]
    if main_returns:
        lines += [
            "func.func @main() -> index {",
            "%c3 = arith.constant 3 : index",
            f"%size = arith.constant {threads} : index",
            "%host = memref.alloc(%size) : memref<?xindex>",
        ]
    else:
        lines.append("func.func @main(%host: memref<?xindex>) {")
    lines += [
        "%c1 = arith.constant 1 : index",
        f"%cn = arith.constant {threads} : index",
        "%d = gpu.alloc (%cn) : memref<?xindex>",
        "gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%cn, %c1, %c1) "
        "args(%d : memref<?xindex>)",
        "gpu.memcpy %host, %d : memref<?xindex>, memref<?xindex>",
        "gpu.dealloc %d : memref<?xindex>",
    ]
    if main_returns:
        lines += ["%v = memref.load %host[%c3] : memref<?xindex>", "return %v : index", "}", "}"]
    else:
        lines += ["return", "}", "}"]
    return "\n".join(lines)


#: where, among the tokens of `tokens_program`, the real work is
REAL_TOKENS = (0, 1, 31, 32, 33, 1023, 1024, 2500, -2, -1)


def tokens_program(n: int, mode: str, main_returns: bool = False) -> tuple[str, int]:
    """`n` tokens waited for by one op: `gpu.wait [...]` ("blocking"),
    `gpu.wait async [...]` then a memcpy ("async"), or a memcpy with `n`
    dependencies ("op"). The tokens at `REAL_TOKENS` come from launches, each
    storing `k + 1` at `out[k]`; the others from `gpu.wait async`. Returns the
    text and the number of launches (the copy of `out` is 1, 2, ...)."""
    real = sorted({p % n for p in REAL_TOKENS})
    lines = [
        "module attributes {gpu.container_module} {",
        "gpu.module @m {",
        "gpu.func @set(%out: memref<?xindex>, %k: index) kernel {",
        "%c1 = arith.constant 1 : index",
        "%v = arith.addi %k, %c1 : index",
        "memref.store %v, %out[%k] : memref<?xindex>",
        "gpu.return",
        "}",
        "}",
    ]
    if main_returns:
        lines += [
            "func.func @main() -> index {",
            f"%size = arith.constant {len(real)} : index",
            "%host = memref.alloc(%size) : memref<?xindex>",
        ]
    else:
        lines.append("func.func @main(%host: memref<?xindex>) {")
    lines += [
        "%c0 = arith.constant 0 : index",
        "%c1 = arith.constant 1 : index",
        f"%n = arith.constant {len(real)} : index",
        "%t = gpu.wait async",
        "%d, %ta = gpu.alloc async [%t] (%n) : memref<?xindex>",
    ]
    for j, p in enumerate(real):
        lines.append(f"%k{j} = arith.constant {j} : index")
        lines.append(
            f"%t{p} = gpu.launch_func async [%ta] @m::@set blocks in (%c1, %c1, %c1) "
            f"threads in (%c1, %c1, %c1) args(%d : memref<?xindex>, %k{j} : index)"
        )
    lines += [f"%t{k} = gpu.wait async" for k in range(n) if k not in real]
    deps = ", ".join(f"%t{k}" for k in range(n))
    copy = "%host, %d : memref<?xindex>, memref<?xindex>"
    if mode == "blocking":
        lines += [f"gpu.wait [{deps}]", f"gpu.memcpy {copy}"]
    elif mode == "async":
        lines += [
            f"%all = gpu.wait async [{deps}]",
            f"%c = gpu.memcpy async [%all] {copy}",
            "gpu.wait [%c]",
        ]
    elif mode == "op":
        lines += [f"%c = gpu.memcpy async [{deps}] {copy}", "gpu.wait [%c]"]
    else:
        raise ValueError(mode)
    if main_returns:
        lines.append("%s0 = arith.constant 0 : index")
        for j in range(len(real)):
            lines.append(f"%x{j} = memref.load %host[%k{j}] : memref<?xindex>")
            lines.append(f"%s{j + 1} = arith.addi %s{j}, %x{j} : index")
        lines += [f"return %s{len(real)} : index", "}", "}"]
    else:
        lines += ["return", "}", "}"]
    return "\n".join(lines), len(real)


def _sum_of_products(values: Sequence[str], lines: list[str], weight: str = "%c") -> str:
    """Lines summing k * values[k] (weights `%c<k>` must exist); the sum's name."""
    lines.append("%s0 = arith.constant 0 : index")
    for k, v in enumerate(values):
        lines.append(f"%p{k} = arith.muli {v}, {weight}{k} : index")
        lines.append(f"%s{k + 1} = arith.addi %s{k}, %p{k} : index")
    return f"%s{len(values)}"


def call_program(n: int) -> tuple[str, int]:
    """`@f` takes `n` values and returns them reversed; `@main` returns
    sum(k * result_k)."""
    types = ", ".join(["index"] * n)
    lines = [
        f"func.func @f({', '.join(f'%a{k}: index' for k in range(n))}) -> ({types}) {{",
        f"return {', '.join(f'%a{k}' for k in reversed(range(n)))} : {types}",
        "}",
        "func.func @main() -> index {",
        *(f"%c{k} = arith.constant {k} : index" for k in range(n)),
        f"%r:{n} = func.call @f({', '.join(f'%c{k}' for k in range(n))}) : ({types}) -> ({types})",
    ]
    total = _sum_of_products([f"%r#{k}" for k in range(n)], lines)
    lines += [f"return {total} : index", "}"]
    return "\n".join(lines), sum(k * (n - 1 - k) for k in range(n))


def branch_program(n: int) -> tuple[str, int]:
    """`cf.br` passing `n` block arguments (reversed constants)."""
    lines = [
        "func.func @main() -> index {",
        *(f"%c{k} = arith.constant {k} : index" for k in range(n)),
        f"cf.br ^bb1({', '.join(f'%c{n - 1 - k}' for k in range(n))} : {', '.join(['index'] * n)})",
        f"^bb1({', '.join(f'%b{k}: index' for k in range(n))}):",
    ]
    total = _sum_of_products([f"%b{k}" for k in range(n)], lines)
    lines += [f"return {total} : index", "}"]
    return "\n".join(lines), sum(k * (n - 1 - k) for k in range(n))


def iter_args_program(n: int, trips: int = 3) -> tuple[str, int]:
    """`scf.for` with `n` iter_args, rotated and incremented each iteration."""
    types = ", ".join(["index"] * n)
    lines = [
        "func.func @main() -> index {",
        "%z = arith.constant 0 : index",
        "%one = arith.constant 1 : index",
        f"%trips = arith.constant {trips} : index",
        *(f"%c{k} = arith.constant {k} : index" for k in range(n)),
        f"%r:{n} = scf.for %i = %z to %trips step %one iter_args("
        f"{', '.join(f'%a{k} = %c{k}' for k in range(n))}) -> ({types}) {{",
        *(f"%n{k} = arith.addi %a{(k + 1) % n}, %one : index" for k in range(n)),
        f"scf.yield {', '.join(f'%n{k}' for k in range(n))} : {types}",
        "}",
    ]
    total = _sum_of_products([f"%r#{k}" for k in range(n)], lines)
    lines += [f"return {total} : index", "}"]
    values = list(range(n))
    for _ in range(trips):
        values = [values[(k + 1) % n] + 1 for k in range(n)]
    return "\n".join(lines), sum(k * v for k, v in enumerate(values))


def switch_program(n: int, kind: str) -> str:
    """`@main(%x) -> index`: 3x + 1 for 0 <= x < n, else -1, through an
    scf.index_switch ("scf") or a cf.switch ("cf") of `n` cases; or ("blocks")
    a chain of `n` blocks each adding 1 to %x."""
    lines = ["func.func @main(%x: index) -> index {"]
    if kind == "scf":
        lines.append("%r = scf.index_switch %x -> index")
        for k in range(n):
            lines += [
                f"case {k} {{",
                f"%v{k} = arith.constant {3 * k + 1} : index",
                f"scf.yield %v{k} : index",
                "}",
            ]
        lines += [
            "default {",
            "%d = arith.constant -1 : index",
            "scf.yield %d : index",
            "}",
            "return %r : index",
        ]
    elif kind == "cf":
        lines.append("%xi = arith.index_cast %x : index to i32")
        cases = ",\n".join(f"{k}: ^bb{k + 1}" for k in range(n))
        lines.append(f"cf.switch %xi : i32, [ default: ^bb{n + 1},\n{cases} ]")
        for k in range(n):
            lines += [
                f"^bb{k + 1}:",
                f"%v{k} = arith.constant {3 * k + 1} : index",
                f"return %v{k} : index",
            ]
        lines += [f"^bb{n + 1}:", "%d = arith.constant -1 : index", "return %d : index"]
    elif kind == "blocks":
        lines += ["%c1 = arith.constant 1 : index", "cf.br ^bb1(%x : index)"]
        for k in range(1, n + 1):
            lines += [
                f"^bb{k}(%s{k}: index):",
                f"%t{k} = arith.addi %s{k}, %c1 : index",
                f"cf.br ^bb{k + 1}(%t{k} : index)",
            ]
        lines += [f"^bb{n + 1}(%e: index):", "return %e : index"]
    else:
        raise ValueError(kind)
    lines.append("}")
    return "\n".join(lines)


def launch_args_program(n: int) -> tuple[str, list[int]]:
    """A launch passing `n` index arguments to a kernel that stores
    `sum(k * arg_k) + tid` at `out[tid]` (2 work-items)."""
    lines = [
        "module attributes {gpu.container_module} {",
        "gpu.module @m {",
        f"gpu.func @k(%out: memref<?xindex>, {', '.join(f'%a{k}: index' for k in range(n))}) "
        "kernel {",
        "%t = gpu.thread_id x",
        *(f"%c{k} = arith.constant {k} : index" for k in range(n)),
    ]
    total = _sum_of_products([f"%a{k}" for k in range(n)], lines)
    lines += [
        f"%r = arith.addi {total}, %t : index",
        "memref.store %r, %out[%t] : memref<?xindex>",
        "gpu.return",
        "}",
        "}",
        "func.func @main(%host: memref<?xindex>) {",
        "%one = arith.constant 1 : index",
        "%two = arith.constant 2 : index",
        "%d = gpu.alloc (%two) : memref<?xindex>",
        *(f"%v{k} = arith.constant {n - k} : index" for k in range(n)),
        "gpu.launch_func @m::@k blocks in (%one, %one, %one) threads in (%two, %one, %one) "
        f"args(%d : memref<?xindex>, {', '.join(f'%v{k} : index' for k in range(n))})",
        "gpu.memcpy %host, %d : memref<?xindex>, memref<?xindex>",
        "return",
        "}",
        "}",
    ]
    s = sum(k * (n - k) for k in range(n))
    return "\n".join(lines), [s, s + 1]


def main(argv: Sequence[str]) -> None:
    what, count = argv[0], int(argv[1])
    if what == "tokens":
        print(tokens_program(count, argv[2], main_returns=True)[0])
        return
    kinds = tuple(argv[2].split(",")) if len(argv) > 2 else KINDS
    if what == "host":
        print(host_program(count, kinds))
    elif what == "kernel":
        print(kernel_program(count, kinds, main_returns=True))
    else:
        raise SystemExit(f"unknown program {what!r}")


if __name__ == "__main__":
    main(sys.argv[1:])
