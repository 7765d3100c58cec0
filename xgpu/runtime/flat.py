"""Generated Python that CPython always compiles, however deep or wide the IR.

CPython refuses some valid Python: more than 20 statically nested loops in one
function ("too many statically nested blocks"), more than 100 indentation
levels, and expressions or statements nested a few thousand deep (its
compiler recurses on them: a long `a + b + c + ...` is a left-leaning tree of
additions, an `elif` chain a tree of nested `if`s). A valid MLIR program
reaches each of these: 21 nested `scf.for`, 100 nested `scf.if`, a
`gpu.wait` of 5,000 tokens, a `cf.switch` of 5,000 cases.

The host compiler (`compile_host.HostCompiler`, and the simulator's kernel
compiler, its subclass) keeps its output within bounds:

- *outlining*: an op with regions that would start more than `MAX_INDENT`
  levels deep, or inside more than `MAX_LOOPS` loops, becomes a call of a
  top-level function of its own, generated after the current one: its
  parameters are the values defined outside the op and used inside (under
  their own names, so the op's code is the code it would have inline), plus
  the compiler's `context_params`; it returns the op's results. Outlined
  code is outlined again where it nests deeper, and an outlined op that
  yields (a simulated barrier or collective) is called with `yield from`.
  The op's lines keep their op in `line_ops`, so errors are reported as
  before; the frame of the failing op is the outlined function's, whose
  locals have the same names;
- `chain`: operator chains of more than `CHAIN` terms are grouped in
  parentheses, `CHAIN` terms a group (depth log_CHAIN n);
- `switch`: `if`/`elif` chains of more than `FANOUT` branches become a tree
  of range tests, `FANOUT` branches a node.

Ordinary programs stay below every threshold and get the code they always
got.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from xdsl.ir import Operation, SSAValue

#: indentation level from which an op with regions is outlined (CPython: 100)
MAX_INDENT = 48
#: enclosing loops from which an op with regions is outlined (CPython: 20)
MAX_LOOPS = 10
#: the longest operator chain written as one flat expression
CHAIN = 32
#: the most branches of one if/elif chain
FANOUT = 64

_LOOP_HEADS = ("for ", "while ")


class Writer:
    """Lines of generated Python, the op of each line, and the loops open at
    the current indentation (to know when to outline)."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.line_ops: dict[int, Operation] = {}
        self.indent = 0
        #: indentation of each `for`/`while` header whose body may be open
        self.loops: list[int] = []

    def __call__(self, text: str, op: Operation | None = None) -> None:
        indent = self.indent
        loops = self.loops
        while loops and loops[-1] >= indent:
            loops.pop()
        if text.startswith(_LOOP_HEADS):
            loops.append(indent)
        self.lines.append("    " * indent + text)
        if op is not None:
            self.line_ops[len(self.lines)] = op

    def too_deep(self) -> bool:
        """Whether an op with regions starting here must be outlined."""
        if self.indent > MAX_INDENT:
            return True
        loops = self.loops
        while loops and loops[-1] >= self.indent:
            loops.pop()
        return len(loops) > MAX_LOOPS


def chain(terms: Sequence[str], sep: str) -> str:
    """`t0 SEP t1 SEP ...` for an associative operator, nested at most
    log_CHAIN(len(terms)) parentheses deep."""
    if len(terms) <= CHAIN:
        return sep.join(terms)
    size = CHAIN
    while size * CHAIN < len(terms):
        size *= CHAIN
    return sep.join("(" + chain(terms[i : i + size], sep) + ")" for i in range(0, len(terms), size))


def summarize(op: Operation, memo: dict[Operation, Any], summary: Callable[[Operation], Any]):
    """`memo[op]` where `summary(X)` may read `memo[Y]` for every op Y with
    regions directly in X's blocks: computed bottom-up, once per op, without
    recursion."""
    stack: list[tuple[Operation, bool]] = [(op, False)]
    while stack:
        current, children_done = stack.pop()
        if current in memo:
            continue
        if children_done:
            memo[current] = summary(current)
            continue
        stack.append((current, True))
        for region in current.regions:
            for block in region.blocks:
                for inner in block.ops:
                    if inner.regions and inner not in memo:
                        stack.append((inner, False))
    return memo[op]


def free_values(
    op: Operation, memo: dict[Operation, list[SSAValue]] | None = None
) -> list[SSAValue]:
    """The values used inside `op` (its operands included) and defined
    outside it, in order of first use. `memo` keeps the answer for the ops
    with regions inside `op`, so that outlining them costs no new walk."""
    memo = {} if memo is None else memo

    def summary(current: Operation) -> list[SSAValue]:
        defined: set[SSAValue] = set()
        used: dict[SSAValue, None] = dict.fromkeys(current.operands)
        for region in current.regions:
            for block in region.blocks:
                defined.update(block.args)
                for inner in block.ops:
                    defined.update(inner.results)
                    used.update(dict.fromkeys(memo[inner] if inner.regions else inner.operands))
        return [v for v in used if v not in defined]

    return summarize(op, memo, summary)


# --------------------------------------------------------------------------- #
# Outlining


def outline(c: Any, op: Operation) -> None:
    """Emit a call of a new top-level function that runs `op` (queued in
    `c.outlined`, generated by `emit_outlined`)."""
    params = list(c.context_params)
    for value in free_values(op, c.free_memo):
        params += c.value_names(value)
    name = c.fresh("o")
    results = c.vs(op.results)
    call = f"{name}({', '.join(params)})"
    if c.yields(op):
        call = f"(yield from {call})"
    c.call_into(results, call, op)
    c.outlined.append((op, name, params, results))


def emit_outlined(c: Any) -> None:
    """Generate the functions `outline` queued (and those they queue)."""
    while c.outlined:
        op, name, params, results = c.outlined.pop(0)
        c.current_op = op
        c.w(f"def {name}({', '.join(params)}):", op)
        c.w.indent += 1
        wrote = len(c.w.lines)
        c.dispatch(op)
        if len(results) == 1:
            c.w(f"return {results[0]}", op)
        elif results:
            c.w(f"return ({', '.join(results)})", op)
        elif len(c.w.lines) == wrote:
            c.w("pass", op)
        c.w.indent -= 1
        c.w("")


# --------------------------------------------------------------------------- #
# Branching


def switch(
    c: Any,
    key: str,
    values: Sequence[int],
    case: Callable[[int], None],
    op: Operation,
    default: Callable[[], None] | None = None,
) -> None:
    """`if KEY == values[0]: case(0) elif KEY == values[1]: case(1) ...
    else: default()`, with no chain longer than `FANOUT`."""
    n = len(values)
    if n <= FANOUT:
        for i, value in enumerate(values):
            c.w(f"{'if' if i == 0 else 'elif'} {key} == {value}:", op)
            c.w.indent += 1
            case(i)
            c.w.indent -= 1
        if default is not None:
            if n:
                c.w("else:")
                c.w.indent += 1
            default()
            if n:
                c.w.indent -= 1
        return
    if default is not None or list(values) != list(range(n)):
        # Positions 0..n-1 of the cases, n for the default.
        table = c.bind({v: i for i, v in enumerate(values)}, "sw")
        position = c.fresh("k")
        c.w(f"{position} = {table}.get({key}, {n})", op)
        key = position
    total = n + 1 if default is not None else n

    def branch(i: int) -> None:
        if i < n:
            case(i)
        else:
            assert default is not None
            default()

    _tree(c, key, 0, total, branch, op)


def _tree(c: Any, key: str, lo: int, hi: int, branch: Callable[[int], None], op) -> None:
    """Branches `lo <= KEY < hi` (KEY is known to be in that range)."""
    if hi - lo <= FANOUT:
        for i in range(lo, hi):
            if i == lo:
                c.w(f"if {key} == {i}:", op)
            elif i < hi - 1:
                c.w(f"elif {key} == {i}:", op)
            else:
                c.w("else:", op)
            c.w.indent += 1
            branch(i)
            c.w.indent -= 1
        return
    size = FANOUT
    while size * FANOUT < hi - lo:
        size *= FANOUT
    for start in range(lo, hi, size):
        stop = min(start + size, hi)
        # (`elif` rather than `else` at the end: an `else` holding an `if` is
        # one longer chain to Python's compiler.)
        c.w(f"{'if' if start == lo else 'elif'} {key} < {stop}:", op)
        c.w.indent += 1
        _tree(c, key, start, stop, branch, op)
        c.w.indent -= 1
