"""Bounds-checked memory accesses in the generated OpenCL C.

With `compile_gpu_module(..., checked=True)` (the default; `xgpu-run
--unchecked` turns it off) every memory access of a kernel or device
function is guarded, and so are the ops that make new descriptors:

- `memref.load` / `memref.store`: each index against the descriptor's size
  (as the simulator checks it), then the element's position against the
  real extent of the memory behind the pointer (a kernel memref argument
  passes its buffer's element count as `long aN_len`; workgroup, private,
  alloca and constant memory have static extents, and an index inside their
  own static shape cannot leave them). An access that fails is not done: a
  load yields 0, a store is skipped; the work-item goes on (every barrier is
  still reached);
- `memref.subview`, `memref.reinterpret_cast`, `memref.view`, `memref.cast`:
  the simulator's checks of the new descriptor against its source (a failure is recorded;
  the accesses through the descriptor stay guarded by the extent).

A failed check calls `xg_faultN(xg_rec, xg_launch, SITE, BUFFER, v1, ..., vN)`,
which records the first failure of the run in the error record, a
`__global long*` buffer of `RECORD_LONGS` longs (kernels and device functions
take it as their last-but-one parameter, `xg_rec`; the last is `xg_launch`,
the launch id the host gives each launch): `atomic_cmpxchg` on the int at
the start claims the record, then the claimant writes

    [1] site id, [2] launch id, [3] buffer id, [4..6] get_local_id(0..2),
    [7..9] get_group_id(0..2), [10] N, [11..10+N] the values

Sites (`OpenCLProgram.sites`) map ids to the op and what failed
(`Site.kind`); buffers (`OpenCLProgram.buffers`) say which memory an access
touched (`BufferName`: a kernel argument, a workgroup attribution, ...). The
values are, per kind: "access" the indices then the sizes; "subview" the
dimension, the source size, offset, size and stride; "reinterpret" 0, the
first and last + 1 element and the extent, or 1, the dimension and its
negative size; "view" the element count, the byte shift and the source size;
"cast" 0 (size), 1 (stride) or 2 (offset), the dimension, the actual and the
expected value; "mma" (`gpu.subgroup_mma_load_matrix`/`store_matrix`) see `mma_fault`. `xgpu.runtime.fault_record` reads the record and reports the failure with the
simulator's message.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from xdsl.ir import Operation

from xgpu.analysis.calls import functions_reaching
from xgpu.backend.opencl import half
from xgpu.backend.opencl.memref import Desc, Ix, ix_add, ix_mul, ix_text
from xgpu.backend.opencl.names import c_string
from xgpu.backend.opencl.ranges import Range
from xgpu.semantics import CHelper, paren

if TYPE_CHECKING:
    from xgpu.backend.opencl.emit import FunctionEmitter

RECORD_LONGS = 128
RECORD_BYTES = RECORD_LONGS * 8
HEADER = 11
MAX_VALUES = RECORD_LONGS - HEADER
REC = "xg_rec"
LAUNCH = "xg_launch"


@dataclass(frozen=True)
class Site:
    """A guarded op: `kind` is "access", "subview", "reinterpret" or "view"."""

    op: Operation
    kind: str


@dataclass(frozen=True)
class BufferName:
    """The memory an access touches. `kind`: "arg" (operand `index` of the
    launch), "workgroup", "dsm" (dynamic shared memory), "private", "global";
    `label` names the memory as the simulator does (`%s`, `@g`, ...)."""

    kind: str
    index: int | None = None
    label: str = ""


@dataclass
class GuardTables:
    """The sites and buffer names of one program."""

    sites: list[Site] = field(default_factory=list)
    buffers: list[BufferName] = field(default_factory=list)
    _buffer_ids: dict[BufferName, int] = field(default_factory=dict)

    def site(self, op: Operation, kind: str) -> int:
        self.sites.append(Site(op, kind))
        return len(self.sites) - 1

    def buffer(self, name: BufferName) -> int:
        found = self._buffer_ids.get(name)
        if found is None:
            found = self._buffer_ids[name] = len(self.buffers)
            self.buffers.append(name)
        return found


def fault_helper(n: int) -> CHelper:
    """`xg_fault<n>`: record a failure with `n` values (see the module doc)."""
    values = "".join(f", long x{k}" for k in range(n))
    stores = " ".join(f"rec[{HEADER + k}] = x{k};" for k in range(n))
    source = (
        f"static void xg_fault{n}(__global long* rec, long launch, long site, long buf{values}) {{\n"
        "  if (atomic_cmpxchg((volatile __global int*)rec, 0, 1) == 0) {\n"
        "    rec[1] = site; rec[2] = launch; rec[3] = buf;\n"
        "    rec[4] = get_local_id(0); rec[5] = get_local_id(1); rec[6] = get_local_id(2);\n"
        "    rec[7] = get_group_id(0); rec[8] = get_group_id(1); rec[9] = get_group_id(2);\n"
        f"    rec[10] = {n};{' ' + stores if stores else ''}\n"
        "  }\n"
        "}"
    )
    return CHelper(f"xg_fault{n}", source)


def _fault(fe: FunctionEmitter, op: Operation, kind: str, buf: Ix, values: Sequence[str]) -> str:
    if len(values) > MAX_VALUES:
        fe.fail(
            op,
            f"bounds checks support memrefs of rank up to {MAX_VALUES // 2} "
            "(xgpu-run --unchecked runs it without them)",
        )
    helper = fault_helper(len(values))
    fe.module.helpers.setdefault(helper.name, helper)
    site = fe.module.guards.site(op, kind)
    args = [REC, LAUNCH, str(site), ix_text(buf), *values]
    return f"{helper.name}({', '.join(args)})"


# --------------------------------------------------------------------------- #
# Signatures


#: ops whose emission may need the error record
GUARDED_OPS = frozenset(
    [
        "memref.load",
        "memref.store",
        "memref.subview",
        "memref.reinterpret_cast",
        "memref.view",
        "memref.cast",
        "cf.assert",
        "memref.atomic_rmw",
        "memref.generic_atomic_rmw",
        "gpu.subgroup_mma_load_matrix",
        "gpu.subgroup_mma_store_matrix",
    ]
)


def needs_record(funcs: dict[str, Operation]) -> set[str]:
    """The functions (by symbol) that take the error record: those with a
    guarded op, and those that call one of them."""
    return functions_reaching(funcs, GUARDED_OPS)


def record_params() -> list[str]:
    """The trailing C parameters of every function of a checked program."""
    return [f"__global long* {REC}", f"long {LAUNCH}"]


def record_args() -> list[str]:
    return [REC, LAUNCH]


def memref_param(fe: FunctionEmitter, base: str, index: int, desc: Desc) -> list[str]:
    """The extra C parameters of memref argument `index` (named `base`) and
    what its descriptor learns from them: `long <base>_len`, the element
    count of the memory behind the pointer, and in device functions
    `long <base>_buf`, the caller's buffer id."""
    desc.extent = f"{base}_len"
    params = [f"long {base}_len"]
    if fe.is_kernel:
        desc.buf = fe.module.guards.buffer(BufferName("arg", index))
    else:
        desc.buf = f"{base}_buf"
        params.append(f"long {base}_buf")
    return params


def memref_call_args(desc: Desc) -> list[str]:
    """What a call passes for `memref_param` (an extent of None: unknown)."""
    extent = ix_text(desc.extent) if desc.extent is not None else "0"
    return [extent, ix_text(desc.buf)]


def static_memory(fe: FunctionEmitter, desc: Desc, kind: str, label: str, elements: int) -> Desc:
    """`desc`, the descriptor of memory with a static shape (workgroup,
    private, alloca, constant), with its extent and buffer id."""
    desc.extent = elements
    desc.buf = fe.module.guards.buffer(BufferName(kind, None, label))
    desc.exact = True
    return desc


# --------------------------------------------------------------------------- #
# Accesses


def _ulong(v: Ix) -> str:
    if isinstance(v, int) and v >= 0:
        return f"{v}UL"
    return f"(ulong){paren(ix_text(v))}"


def _below(i: Ix, n: Ix | None, known: Range = (None, None)) -> str | None:
    """`0 <= i < n` in C (None: statically true, also when `known`, the
    range of `i`, decides it)."""
    if n is None:
        return None
    if isinstance(i, int) and isinstance(n, int):
        return None if 0 <= i < n else "0"
    lo, hi = known
    if isinstance(n, int) and lo is not None and hi is not None and 0 <= lo and hi < n:
        return None
    return f"{_ulong(i)} < {_ulong(n)}"


#: `_below` for the other emitters (`mma`)
below = _below


def _upos(d: Desc, indices: Sequence[Ix]) -> int | str:
    """The element position `offset + sum(i * stride)` as a `ulong` C
    expression (wrapping, never undefined), or an int when static."""
    const = d.offset if isinstance(d.offset, int) else 0
    terms = [] if isinstance(d.offset, int) else [f"(ulong){paren(d.offset)}"]
    for i, s in zip(indices, d.strides):
        if isinstance(i, int) and isinstance(s, int):
            const += i * s
        elif i == 0 or s == 0:
            continue
        elif isinstance(s, int) and s == 1:
            terms.append(_ulong(i))
        elif isinstance(i, int) and i == 1:
            terms.append(_ulong(s))
        else:
            terms.append(f"{_ulong(i)} * {_ulong(s)}")
    if not terms:
        return const
    if const:
        terms.append(f"{const % 2**64}UL")
    return " + ".join(terms)


def access_guard(
    fe: FunctionEmitter, op: Operation, d: Desc, indices: Sequence[Ix]
) -> tuple[str | None, str, str]:
    """(condition or None when none is needed, the element's C lvalue, the
    fault call)."""
    known = [fe.ranges.of(v) for v in op.indices]
    conds = [
        c for c in (_below(i, n, r) for i, n, r in zip(indices, d.sizes, known)) if c is not None
    ]
    if d.exact:
        access = d.element(indices)
    else:
        pos = _upos(d, indices)
        if isinstance(pos, int):
            in_extent = _below(pos, d.extent)
            access = f"{d.ptr}[{ix_text(pos)}]"
        else:
            p = fe.fresh_name("pos")
            fe.declare_local("ulong", p, pos, op)
            in_extent = f"{p} < {'0UL' if d.extent is None else _ulong(d.extent)}"
            access = f"{d.ptr}[{p}]"
        if in_extent is not None:
            conds.append(in_extent)
    if not conds:
        return None, access, ""
    values = [ix_text(i) for i in indices] + [
        ix_text(n) if n is not None else "(-1)" for n in d.sizes
    ]
    return " && ".join(conds), access, _fault(fe, op, "access", d.buf, values)


def read(fe: FunctionEmitter, d: Desc, access: str) -> str:
    """The value of the element `access` (`ptr[i]`) of `d`'s memory: f16
    memory without cl_khr_fp16 through `vload_half` (`half`)."""
    if half.emulated(fe) and half.is_half_storage(d.elem):
        return half.load(access)
    return access


def write(fe: FunctionEmitter, d: Desc, access: str, value: str) -> str:
    """The C statement storing `value` at `access` of `d`'s memory."""
    if half.emulated(fe) and half.is_half_storage(d.elem):
        return half.store(access, value) + ";"
    return f"{access} = {value};"


def mma_fault(fe: FunctionEmitter, op: Operation, d: Desc, values: Sequence[str]) -> str:
    """The fault call of an MMA load or store (`mma`): values [0, dimension,
    0] (an index outside the sizes) or [1, position, extent] (a window
    position outside the memory), then the indices and the sizes."""
    return _fault(fe, op, "mma", d.buf, values)


def load(fe: FunctionEmitter, op: Operation, d: Desc, indices: Sequence[Ix]) -> None:
    cond, access, fault = access_guard(fe, op, d, indices)
    if cond is None:
        fe.define(op.res, read(fe, d, access), op)
        return
    name = fe.define(op.res, "0", op)
    fe.line(f"if ({cond}) {name} = {read(fe, d, access)};", op)
    fe.line(f"else {fault};", op)


def store(fe: FunctionEmitter, op: Operation, d: Desc, indices: Sequence[Ix], value: str) -> None:
    cond, access, fault = access_guard(fe, op, d, indices)
    if cond is None:
        fe.line(write(fe, d, access, value), op)
        return
    fe.line(f"if ({cond}) {write(fe, d, access, value)}", op)
    fe.line(f"else {fault};", op)


# --------------------------------------------------------------------------- #
# New descriptors

_COMPARE = {
    "<": lambda a, b: a < b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
    "!=": lambda a, b: a != b,
}


def _cmp(a: Ix, rel: str, b: Ix) -> str:
    """`a rel b` in C; "1" or "0" when both are static (clang warns about
    constant operands of `||`)."""
    if isinstance(a, int) and isinstance(b, int):
        return "1" if _COMPARE[rel](a, b) else "0"
    return f"{paren(ix_text(a))} {rel} {paren(ix_text(b))}"


def _join(parts: Sequence[str], op: str, unit: str, zero: str) -> str:
    """`parts` joined by `op` ("||" or "&&") with the static ones folded."""
    parts = list(dict.fromkeys(p for p in parts if p != unit))
    if zero in parts:
        return zero
    if not parts:
        return unit
    other = "&&" if op == "||" else "||"
    return f" {op} ".join(f"({p})" if other in p and len(parts) > 1 else p for p in parts)


def _or(parts: Sequence[str]) -> str:
    return _join(parts, "||", "0", "1")


def _and(parts: Sequence[str]) -> str:
    return _join(parts, "&&", "1", "0")


def assertion(fe: FunctionEmitter, op: Operation, cond: str, line: bytes, stop: bool) -> None:
    """`cf.assert`: a work-item whose condition is false prints `line` (a
    printf format whose six `%lu` take its block and thread ids), records
    the failure (site kind "assert", no values) and, where `stop`, returns."""
    site = _fault(fe, op, "assert", "-1", [])
    ids = ", ".join(f"(ulong)get_group_id({d})" for d in range(3))
    ids += ", " + ", ".join(f"(ulong)get_local_id({d})" for d in range(3))
    fe.open(f"if (!({cond})) {{", op)
    fe.line(f"printf({c_string(line)}, {ids});", op)
    fe.line(f"{site};", op)
    if stop:
        fe.line("return;", op)
    fe.close("}", op)


def _emit_checks(fe: FunctionEmitter, op: Operation, checks: list[tuple[str, str]]) -> None:
    """`if (fail1) fault1; else if (fail2) fault2; ...`: the first failure
    counts; a statically false check is left out, a statically true one ends
    the chain."""
    written = 0
    for cond, fault in checks:
        if cond == "0":
            continue
        prefix = "else " if written else ""
        if cond == "1":
            fe.line(f"{prefix}{fault};", op)
            return
        fe.line(f"{prefix}if ({cond}) {fault};", op)
        written += 1


def subview(
    fe: FunctionEmitter,
    op: Operation,
    src: Desc,
    offsets: Sequence[Ix],
    sizes: Sequence[Ix],
    steps: Sequence[Ix],
) -> None:
    """Per source dimension, as the simulator: a negative size or offset, or
    a last element `o + (size - 1) * stride` outside the source size."""
    checks = []
    for d, (o, sz, st, n) in enumerate(zip(offsets, sizes, steps, src.sizes)):
        if n is None:
            continue
        last = ix_add(o, ix_mul(ix_add(sz, -1), st))
        parts = [_cmp(sz, "<", 0), _cmp(o, "<", 0)]
        outside = [_cmp(last, ">=", n), _cmp(last, "<", 0)]
        if isinstance(sz, int):
            parts += outside if sz > 0 else []
        else:
            parts.append(_and([_cmp(sz, ">", 0), _or(outside)]))
        cond = _or(parts)
        values = [str(d), ix_text(n), ix_text(o), ix_text(sz), ix_text(st)]
        if cond != "0":
            checks.append((cond, _fault(fe, op, "subview", src.buf, values)))
    _emit_checks(fe, op, checks)


def cast(
    fe: FunctionEmitter,
    op: Operation,
    src: Desc,
    shape: Sequence[int | None],
    strides: Sequence[int | None],
    offset: int | None,
    identity: bool,
) -> None:
    """`memref.cast` to static sizes, strides or offset: the descriptor must
    have them (values: 0 size / 1 stride / 2 offset, the dimension, the
    actual and the expected value), as the host and the simulator check."""
    checks = []
    expected_strides: list[Ix | None] = list(strides)
    if identity:
        running: Ix = 1
        for d in reversed(range(len(shape))):
            expected_strides[d] = running
            size = shape[d] if shape[d] is not None else src.sizes[d]
            running = ix_mul(running, size) if size is not None else 0
    for d, (want, actual) in enumerate(zip(shape, src.sizes)):
        if want is not None and actual is not None:
            cond = _cmp(actual, "!=", want)
            if cond != "0":
                values = ["0", str(d), ix_text(actual), str(want)]
                checks.append((cond, _fault(fe, op, "cast", src.buf, values)))
    for d, (want, actual, size) in enumerate(zip(expected_strides, src.strides, src.sizes)):
        if want is None or size is None:
            continue
        cond = _and([_cmp(size, ">", 1), _cmp(actual, "!=", want)])
        if cond != "0":
            values = ["1", str(d), ix_text(actual), ix_text(want)]
            checks.append((cond, _fault(fe, op, "cast", src.buf, values)))
    if offset is not None:
        cond = _cmp(src.offset, "!=", offset)
        if cond != "0":
            values = ["2", "-1", ix_text(src.offset), str(offset)]
            checks.append((cond, _fault(fe, op, "cast", src.buf, values)))
    _emit_checks(fe, op, checks)


def reinterpret(fe: FunctionEmitter, op: Operation, src: Desc, new: Desc) -> None:
    """A negative size, or elements outside the source's memory (the
    simulator's `memref.reinterpret_cast outside its buffer`)."""
    checks = []
    for d, sz in enumerate(new.sizes):
        cond = _cmp(sz, "<", 0) if sz is not None else "0"
        if cond != "0":
            values = ["1", str(d), ix_text(sz)]  # type: ignore[arg-type]
            checks.append((cond, _fault(fe, op, "reinterpret", src.buf, values)))
    extent = src.extent
    if extent is not None:
        low, high = 0, 1  # the static parts of the first and last + 1 positions
        lo: Ix = new.offset
        hi: Ix = new.offset
        nonempty = []
        for sz, st in zip(new.sizes, new.strides):
            if sz is None:
                continue
            reach = ix_mul(ix_add(sz, -1), st)
            if isinstance(reach, int):
                low, high = (low + reach, high) if reach < 0 else (low, high + reach)
            else:
                lo = ix_add(lo, f"min(0L, {reach})")
                hi = ix_add(hi, f"max(0L, {reach})")
            nonempty.append(_cmp(sz, ">", 0))
        lo = fe.materialize(ix_add(lo, low), "lo")
        hi = fe.materialize(ix_add(hi, high), "hi")
        outside = _or([_cmp(lo, "<", 0), _cmp(hi, ">", extent)])
        cond = _and([*nonempty, outside])
        if cond != "0":
            values = ["0", ix_text(lo), ix_text(hi), ix_text(extent)]  # type: ignore[arg-type]
            checks.append((cond, _fault(fe, op, "reinterpret", src.buf, values)))
    _emit_checks(fe, op, checks)


def view(
    fe: FunctionEmitter,
    op: Operation,
    src: Desc,
    shift: Ix,
    itemsize: int,
    sizes: Sequence[Ix | None],
) -> Ix:
    """The simulator's `memref.view` check (negative sizes and the source's
    real extent too); returns the view's extent in elements (0 when the check
    fails, so that no access through the view is done)."""
    count: Ix = 1
    parts = []
    for s in sizes:
        if s is not None:
            count = ix_mul(count, s)
            parts.append(_cmp(s, "<", 0))
    count = fe.materialize(count, "n")
    start = ix_add(src.offset, shift)
    stop = ix_add(start, ix_mul(count, itemsize))
    size0 = src.sizes[0] if src.sizes else None
    parts.append(_cmp(shift, "<", 0))
    if size0 is not None:
        parts.append(_cmp(stop, ">", ix_add(src.offset, size0)))
    if src.extent is not None:
        parts.append(_cmp(stop, ">", src.extent))
    if itemsize > 1:
        misaligned = start % itemsize if isinstance(start, int) else f"{paren(start)} % {itemsize}"
        parts.append(_cmp(misaligned, "!=", 0))
    cond = _or(parts)
    if cond == "0":
        return count
    values = [ix_text(count), ix_text(shift), ix_text(size0) if size0 is not None else "(-1)"]
    fault = _fault(fe, op, "view", src.buf, values)
    if cond == "1":
        fe.line(f"{fault};", op)
        return 0
    ok = fe.fresh_name("ok")
    fe.declare_local("int", ok, f"!({cond})", op)
    fe.line(f"if (!{ok}) {fault};", op)
    return fe.materialize(f"{ok} ? {paren(ix_text(count))} : 0L", "len")
