"""Hypothesis strategies for random async host programs (textual MLIR).

`async_programs()` draws a module with a small `gpu.module` kernel and a host
function `@main(%h: memref<4xf32>, %u: memref<*xf32>, %ta: !gpu.async.token)` whose body mixes:
chains of async ops, forks (a token used by several ops), joins through
multi-token `gpu.wait async`, single-token `gpu.wait async` aliases, empty
`gpu.wait async` (new streams), synchronous ops (no token, with or without
dependencies), blocking `gpu.wait [...]` (empty ones too), duplicate and
implied dependencies, `scf.for` loops with constant bounds (0 to 3 iterations;
tokens from outside used inside, results used after, loop-carried tokens
through `iter_args`), `scf.if` with constant conditions (with or without a
token result), host observation points (`"test.observe"(%buf)`, an
unregistered op), and `gpu.alloc`, `gpu.dealloc`, `gpu.memcpy`, `gpu.memset`,
`gpu.launch_func`, `gpu.host_register`.

Every GPU op and observation carries `{tag = N}` (unique N), so that tests can
compare happens-before relations by tag and iteration.

With `observe_buffers=True`, every buffer is read by a `"test.observe"` at the
end of the scope that allocated it (the function's own buffer `%h` at the end
of the function): every memcpy / memset destination is then read, so that a
canonicalizer cannot erase GPU work as useless.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TypeVar

from hypothesis import strategies as st

T = TypeVar("T")

MEMREF = "memref<4xf32>"
TOKEN = "!gpu.async.token"

PROLOGUE = f"""\
module attributes {{gpu.container_module}} {{
  gpu.module @kernels {{
    gpu.func @k(%b: {MEMREF}) kernel {{
      gpu.return
    }}
  }}
  func.func @main(%h: {MEMREF}, %u: memref<*xf32>, %ta: {TOKEN}) {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %true = arith.constant true
    %false = arith.constant false
    %f = arith.constant 1.0 : f32
"""

EPILOGUE = """\
    return
  }
}
"""

STATEMENTS = (
    "join",
    "join",
    "alloc",
    "memcpy",
    "memcpy",
    "memset",
    "launch",
    "launch",
    "launch",
    "dealloc",
    "wait",
    "wait",
    "observe",
    "host_register",
    "for",
    "if",
)


# The choices are drawn as indices, from strategies made once per size: a
# strategy over a fresh list (`st.sampled_from(tokens)`) is built and
# validated again at every draw, most of the generator's time. Indices shrink
# to the first element, as `sampled_from` does.
@cache
def _index(n: int) -> st.SearchStrategy[int]:
    return st.integers(0, n - 1)


@cache
def _indices(n: int, min_size: int, max_size: int) -> st.SearchStrategy[list[int]]:
    return st.lists(_index(n), min_size=min_size, max_size=max_size)


def _pick(draw: st.DrawFn, seq: Sequence[T]) -> T:
    return seq[draw(_index(len(seq)))]


def _picks(draw: st.DrawFn, seq: Sequence[T], min_size: int = 0, max_size: int = 3) -> list[T]:
    return [seq[i] for i in draw(_indices(len(seq), min_size, max_size))]


@dataclass
class _Scope:
    tokens: list[str] = field(default_factory=list)
    buffers: list[str] = field(default_factory=list)
    own_buffers: list[str] = field(default_factory=list)


@dataclass
class _Gen:
    draw: st.DrawFn
    observe_buffers: bool
    max_depth: int
    lines: list[str] = field(default_factory=list)
    scopes: list[_Scope] = field(default_factory=list)
    next_id: int = 0
    next_tag: int = 0

    # ------------------------------------------------------------ names
    def fresh(self, prefix: str) -> str:
        self.next_id += 1
        return f"%{prefix}{self.next_id}"

    def tag(self) -> str:
        self.next_tag += 1
        return f"{{tag = {self.next_tag}}}"

    @property
    def scope(self) -> _Scope:
        return self.scopes[-1]

    def tokens(self) -> list[str]:
        return [t for s in self.scopes for t in s.tokens]

    def buffers(self) -> list[str]:
        return [b for s in self.scopes for b in s.buffers]

    def emit(self, text: str) -> None:
        self.lines.append("    " + "  " * (len(self.scopes) - 1) + text)

    # ------------------------------------------------------------ parts
    def deps(self, allow_empty: bool = True) -> list[str]:
        toks = self.tokens()
        if not toks:
            return []
        how = _pick(self.draw, ("last", "last", "random", "random", "none"))
        if how == "none" and allow_empty:
            return []
        if how == "last":
            extra = _picks(self.draw, toks, max_size=1)
            return [toks[-1], *extra] if self.draw(st.booleans()) else [*extra, toks[-1]]
        return _picks(self.draw, toks, min_size=1)

    @staticmethod
    def deplist(deps: list[str]) -> str:
        return f" [{', '.join(deps)}]" if deps else ""

    def buffer(self) -> str:
        return _pick(self.draw, self.buffers())

    def is_async(self) -> bool:
        return self.draw(st.integers(0, 3)) > 0

    def add_token(self, name: str) -> None:
        self.scope.tokens.append(name)

    def add_buffer(self, name: str) -> None:
        self.scope.buffers.append(name)
        self.scope.own_buffers.append(name)

    # ------------------------------------------------------- statements
    def statement(self, depth: int) -> None:
        kind = _pick(self.draw, STATEMENTS)
        if kind in ("for", "if") and depth >= self.max_depth:
            kind = "launch"
        getattr(self, f"st_{kind}")(depth)

    def async_op(self, body: str, results: str = "") -> None:
        """An op of the async interface; `body` follows the dependency list."""
        deps = self.deps()
        if self.is_async():
            tok = self.fresh("t")
            lhs = f"{results}, {tok}" if results else tok
            self.emit(f"{lhs} = {body.replace('@ASYNC', ' async' + self.deplist(deps))}")
            self.add_token(tok)
        else:
            lhs = f"{results} = " if results else ""
            self.emit(f"{lhs}{body.replace('@ASYNC', self.deplist(deps))}")

    def st_join(self, depth: int) -> None:
        tok = self.fresh("t")
        toks = self.tokens()
        deps = _picks(self.draw, toks) if toks else []
        self.emit(f"{tok} = gpu.wait async{self.deplist(deps)}")
        self.add_token(tok)

    def st_alloc(self, depth: int) -> None:
        m = self.fresh("m")
        self.async_op(f"gpu.alloc@ASYNC () {self.tag()} : {MEMREF}", results=m)
        self.add_buffer(m)

    def st_memcpy(self, depth: int) -> None:
        dst, src = self.buffer(), self.buffer()
        self.async_op(f"gpu.memcpy@ASYNC {dst}, {src} : {MEMREF}, {MEMREF} {self.tag()}")

    def st_memset(self, depth: int) -> None:
        self.async_op(f"gpu.memset@ASYNC {self.buffer()}, %f : {MEMREF}, f32 {self.tag()}")

    def st_launch(self, depth: int) -> None:
        self.async_op(
            "gpu.launch_func@ASYNC @kernels::@k blocks in (%c1, %c1, %c1) "
            f"threads in (%c1, %c1, %c1) args({self.buffer()} : {MEMREF}) {self.tag()}"
        )

    def st_dealloc(self, depth: int) -> None:
        own = [b for b in self.buffers() if b != "%h"]
        if not own:
            return self.st_launch(depth)
        b = _pick(self.draw, own)
        self.async_op(f"gpu.dealloc@ASYNC {b} {self.tag()} : {MEMREF}")

    def st_wait(self, depth: int) -> None:
        toks = self.tokens()
        deps = _picks(self.draw, toks) if toks else []
        self.emit(f"gpu.wait{self.deplist(deps)}")

    def st_observe(self, depth: int) -> None:
        self.observe(self.buffer())

    def observe(self, buf: str) -> None:
        self.emit(f'"test.observe"({buf}) {self.tag()} : ({MEMREF}) -> ()')

    def st_host_register(self, depth: int) -> None:
        self.emit(f"gpu.host_register %u {self.tag()} : memref<*xf32>")

    def body(self, depth: int, yield_token: bool) -> None:
        """Statements of a nested block; its scope is already pushed."""
        n = self.draw(st.integers(1, 4))
        for _ in range(n):
            self.statement(depth + 1)
        self.close_scope()
        if yield_token:
            tok = _pick(self.draw, self.tokens())
            self.emit(f"scf.yield {tok} : {TOKEN}")
        else:
            # Explicit: a block may end with an unregistered op, which could
            # be a terminator as far as the parser knows.
            self.emit("scf.yield")

    def close_scope(self) -> None:
        if self.observe_buffers:
            for b in self.scope.own_buffers:
                self.observe(b)

    def st_for(self, depth: int) -> None:
        ub = _pick(self.draw, ("%c0", "%c1", "%c2", "%c2", "%c3"))
        i = self.fresh("i")
        toks = self.tokens()
        carried = bool(toks) and self.draw(st.booleans())
        if carried:
            init = _pick(self.draw, toks)
            acc, res = self.fresh("acc"), self.fresh("r")
            self.emit(
                f"{res} = scf.for {i} = %c0 to {ub} step %c1 iter_args({acc} = {init}) -> ({TOKEN}) {{"
            )
            self.scopes.append(_Scope(tokens=[acc]))
        else:
            self.emit(f"scf.for {i} = %c0 to {ub} step %c1 {{")
            self.scopes.append(_Scope())
        self.body(depth, yield_token=carried)
        self.scopes.pop()
        self.emit("}")
        if carried:
            self.add_token(res)

    def st_if(self, depth: int) -> None:
        cond = _pick(self.draw, ("%true", "%false"))
        with_result = bool(self.tokens()) and self.draw(st.booleans())
        if with_result:
            res = self.fresh("r")
            self.emit(f"{res} = scf.if {cond} -> ({TOKEN}) {{")
        else:
            self.emit(f"scf.if {cond} {{")
        self.scopes.append(_Scope())
        self.body(depth, yield_token=with_result)
        self.scopes.pop()
        if with_result or self.draw(st.booleans()):
            self.emit("} else {")
            self.scopes.append(_Scope())
            self.body(depth, yield_token=with_result)
            self.scopes.pop()
        self.emit("}")
        if with_result:
            self.add_token(res)


@st.composite
def async_programs(
    draw: st.DrawFn,
    max_statements: int = 10,
    max_depth: int = 2,
    observe_buffers: bool = False,
) -> str:
    """A random async host program (see the module docstring)."""
    gen = _Gen(draw, observe_buffers, max_depth)
    gen.scopes.append(_Scope(tokens=["%ta"], buffers=["%h"]))
    n = draw(st.integers(1, max_statements))
    for _ in range(n):
        gen.statement(0)
    if observe_buffers:
        gen.scope.own_buffers.insert(0, "%h")
    gen.close_scope()
    return PROLOGUE + "\n".join(gen.lines) + "\n" + EPILOGUE


__all__ = ["async_programs"]
