"""`gpu-check-async`: report async-token synchronization bugs and useless
synchronization in host code as diagnostics.

The analysis is `xgpu.analysis.async_hazards` (see its docstring for the
semantics and the abstraction); this module words its findings:

- warnings at the op, with a note at the other op involved:
  `host reads %host while gpu.memcpy (line 12) may still write it: wait for %347 first`,
  `gpu.launch_func reads and writes %dev while gpu.launch_func (line 70) may still
  write it: no token orders them; make it depend on %343`,
  `gpu.dealloc frees %m while ...`, `... after gpu.dealloc (line 9) freed it`,
  `gpu.memcpy is never awaited: nothing waits for %t before the function returns`;
- remarks for synchronization that does nothing: `this gpu.wait async is an alias
  of %343; it synchronizes nothing`, `this gpu.wait synchronizes nothing: %t has
  already completed`, `gpu.wait without dependencies waits for nothing`.

`-p 'gpu-check-async{fail-on-hazard=true}'` (xDSL also accepts
`fail_on_hazard`) reports the warnings as errors: xgpu-opt then prints no
output and exits with status 1. The pass never changes the IR.

Values are named as the input writes them (`%343`): from their name hint, or,
for numbered values, which xDSL does not keep, from the source line the op's
location points to.
"""

from __future__ import annotations

import linecache
import re
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import FileLineColLoc, ModuleOp, NameLoc
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue
from xdsl.passes import ModulePass

from xgpu import diagnostics
from xgpu.analysis.async_hazards import (
    ALLOC,
    FREE,
    READ,
    UNREGISTER,
    WRITE,
    Finding,
    FindingKind,
    find_hazards,
    is_token,
)
from xgpu.diagnostics import op_name
from xgpu.dialects.gpu.async_interface import AsyncOpInterface
from xgpu.dialects.gpu.launch_func import indexed_symbol_tables
from xgpu.dialects.gpu.utils import MLIRResultNames


@dataclass(frozen=True)
class GpuCheckAsyncPass(ModulePass):
    """Report async-token hazards and useless synchronization (see the module doc)."""

    name = "gpu-check-async"

    fail_on_hazard: bool = False
    """Report hazards as errors (the driver then fails) instead of warnings."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        linecache.checkcache()
        with indexed_symbol_tables():
            findings = find_hazards(op)
        for f in findings:
            severity = f.severity
            if severity == "warning" and self.fail_on_hazard:
                severity = "error"
            diagnostics.emit(f.op, severity, message(f), notes(f))


# ---------------------------------------------------------------------------
# Wording
# ---------------------------------------------------------------------------

_HOST_LOADS = ("memref.load", "affine.load", "vector.load", "vector.transfer_read")
_HOST_STORES = ("memref.store", "affine.store", "vector.store", "vector.transfer_write")


def _verb(mode: int) -> str:
    """What `op` does to the buffer."""
    if mode & FREE:
        return "frees"
    if mode & UNREGISTER:
        return "unregisters"
    if mode & ALLOC:
        return "allocates"
    if mode & READ and mode & WRITE:
        return "reads and writes"
    if mode & WRITE:
        return "writes"
    return "reads"


def _other_does(mode: int) -> str:
    """What the other op may still be doing to the buffer."""
    if mode & FREE:
        return "may be freeing it"
    if mode & ALLOC:
        return "may still be allocating it"
    if mode & WRITE:
        return "may still write it"
    return "may still read it"


def _line(op: Operation | None) -> str:
    loc = diagnostics.location_of(op)
    return f" (line {loc.line})" if loc else ""


def _subject(op: Operation, mode: int, value: str) -> str:
    """`host reads %x`, `gpu.memcpy writes %x`, `the function returns %x`, ..."""
    name = op_name(op)
    if name == "func.return":
        return f"the function returns {value}"
    if name.startswith("gpu."):
        sync = (
            " (synchronous)"
            if isinstance(op, AsyncOpInterface) and _token_of(op) is None and name != "gpu.dealloc"
            else ""
        )
        return f"{name}{sync} {_verb(mode)} {value}"
    if name in _HOST_LOADS or name in _HOST_STORES:
        return f"host {_verb(mode)} {value}"
    if name == "func.call":
        callee = op.properties.get("callee") or op.attributes.get("callee")
        what = f"the call to {callee}" if callee is not None else "func.call"
        return (
            f"{what} may read and write {value}"
            if mode & READ and mode & WRITE
            else (f"{what} {_verb(mode)} {value}")
        )
    return f"host op {name} {_verb(mode)} {value}"


def _token_of(op: Operation) -> SSAValue | None:
    tok = getattr(op, "async_token", None)
    return tok if isinstance(tok, SSAValue) else None


def message(f: Finding) -> str:
    """The diagnostic text of a finding."""
    k = f.kind
    if k is FindingKind.ALIAS_WAIT:
        assert f.value is not None
        return f"this gpu.wait async is an alias of {describe(f.value)}; it synchronizes nothing"
    if k is FindingKind.EMPTY_WAIT:
        return "gpu.wait without dependencies waits for nothing"
    if k is FindingKind.USELESS_WAIT:
        return _useless_wait(f)
    if k is FindingKind.UNAWAITED:
        tok = _token_of(f.op) or next((r for r in f.op.results if is_token(r)), None)
        what = describe(tok) if tok is not None else "its token"
        if f.earlier_runs:
            return (
                f"the earlier runs of this {op_name(f.op)} (previous loop iterations) are never "
                f"awaited: nothing waits for their tokens ({what}) before the function "
                f"returns{_line(f.other)}"
            )
        return (
            f"{op_name(f.op)} is never awaited: nothing waits for {what} before the function "
            f"returns{_line(f.other)}"
        )
    assert f.value is not None and f.other is not None
    value = describe(f.value)
    subject = _subject(f.op, f.mode, value)
    other = op_name(f.other)
    token = f.other_token
    wait_for = describe(token) if token is not None else "its token"
    if k is FindingKind.USE_AFTER_FREE:
        if f.same_op:
            return f"{subject} after an earlier run of it freed it (a previous loop iteration)"
        return f"{subject} after {other}{_line(f.other)} freed it"
    if f.same_op:
        return (
            f"{subject} while an earlier run of it (a previous loop iteration) "
            f"{_other_does(f.other_mode)}: no token orders them"
        )
    head = f"{subject} while {other}{_line(f.other)} {_other_does(f.other_mode)}"
    if _token_of(f.op) is not None:
        return f"{head}: no token orders them; make it depend on {wait_for}"
    if op_name(f.op) == "func.return":
        return f"{head}: wait for {wait_for} first, or return a token that depends on it"
    return f"{head}: wait for {wait_for} first"


def _useless_wait(f: Finding) -> str:
    names = [describe(v) for v in f.completed]
    no_work = {id(v) for v in f.no_work}
    if all(id(v) in no_work for v in f.completed):
        what = (
            f"{_join(names)} stands for no GPU work"
            if len(names) == 1
            else f"{_join(names)} stand for no GPU work"
        )
    else:
        has = "has" if len(names) == 1 else "have"
        what = f"{_join(names)} {has} already completed"
    if f.partial:
        return f"waiting for {_join(names)} does nothing: {what}"
    return f"this gpu.wait synchronizes nothing: {what}"


def _join(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def notes(f: Finding) -> list[tuple[Operation | None, str]]:
    """The notes of a finding: where the other op is."""
    if f.other is None or f.same_op:
        return []
    other = op_name(f.other)
    if f.kind is FindingKind.UNAWAITED:
        return [(f.other, "the function returns here")]
    if f.kind is FindingKind.USELESS_WAIT:
        return [(f.other, f"the work was completed by this {other}")]
    return [(f.other, f"the {other} is here")]


# ---------------------------------------------------------------------------
# Names of values as written
# ---------------------------------------------------------------------------

_RESULT = re.compile(r"%([A-Za-z0-9_$.\-]+)(?::(\d+))?")


def describe(v: SSAValue) -> str:
    """The value as the input names it (`%343`, `%host`, `%0#1`), or a description."""
    written = written_name(v)
    if written is not None:
        return written
    if v.name_hint and not _default_name(v):
        return f"%{v.name_hint}"
    if isinstance(v, OpResult):
        loc = diagnostics.location_of(v.op)
        where = f" at line {loc.line}" if loc else ""
        what = "the token" if is_token(v) else f"result #{v.index}"
        return f"{what} of the {op_name(v.op)}{where}"
    if isinstance(v, BlockArgument):
        return f"block argument #{v.index}"
    return "a value"


def _default_name(v: SSAValue) -> bool:
    """Whether the name hint of `v` is MLIR's default name for the result (set
    when the op was built; the input may have numbered it instead)."""
    if not isinstance(v, OpResult) or not isinstance(v.op, MLIRResultNames):
        return False
    names = list(v.op.mlir_result_names())
    return v.index < len(names) and names[v.index] == v.name_hint


def written_name(v: SSAValue) -> str | None:
    """The name the source gives to the result `v`: read from the line the op's
    own location points to (None when it cannot be told)."""
    if not isinstance(v, OpResult):
        return None
    op = v.op
    loc = op.location
    if isinstance(loc, NameLoc):
        loc = loc.child_loc
    if not isinstance(loc, FileLineColLoc):
        return None
    text = linecache.getline(loc.filename.data, loc.line.data)
    col = loc.column.data - 1
    if not text or col <= 0:
        return None
    rest = text[col:]
    name = op_name(op)
    if not (rest.startswith(name) or rest.startswith(f'"{name}"')):
        return None
    lhs = text[:col].rstrip()
    if not lhs.endswith("="):
        return None
    names: list[tuple[str, int]] = [
        (m.group(1), int(m.group(2) or 1)) for m in _RESULT.finditer(lhs[:-1])
    ]
    if sum(n for _, n in names) != len(op.results):
        return None
    i = v.index
    for base, n in names:
        if i < n:
            return f"%{base}" if n == 1 else f"%{base}#{i}"
        i -= n
    return None


__all__ = ["GpuCheckAsyncPass", "describe", "message", "notes"]
