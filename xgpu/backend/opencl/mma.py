"""The `gpu.subgroup_mma_*` ops in OpenCL C (what they compute:
`xgpu.semantics.mma`).

Every lane holds the whole matrix: an MMA value is a private array of
rows x cols elements (`float` for f16 and f32 matrices, `double` for f64;
an f16 matrix holds f16 values, rounded with `half.ROUND`'s `xg_half`).
Each lane of a load reads the whole window, each lane computes the whole
product, constant and elementwise result itself, so no `__local` memory is
needed: the result is the same for a subgroup of one workgroup or one of
several, emulated subgroups or cl_khr_subgroups ones. A store is shared
out: lane `l` of a subgroup of `n` lanes writes the elements whose
row-major index in the matrix is `l` modulo `n` (the simulator's lanes
write the same elements), between two barriers (`sub_group_barrier` with
cl_khr_subgroups, else `barrier`, which emulated subgroups require of the
whole workgroup, as for the other emulated subgroup ops): the lanes have
all read a C they load and overwrite before any writes, and later loads
see every lane's part.

Memory goes through the bounds checks of `guards` (kind "mma": an index
outside the memref's sizes, or a window position outside the memory), f16
memory through `vload_half`/`vstore_half` where the device lacks
cl_khr_fp16 (`half`). As in MLIR, every lane of the subgroup must reach each
op with the same operands; the simulator checks it, the device does not.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.ir import Attribute, Operation, SSAValue

from xgpu.backend.opencl import guards, half
from xgpu.backend.opencl.memref import Desc, Ix, ix_add, ix_mul, ix_text
from xgpu.dialects.gpu.mma import MMAMatrixType
from xgpu.semantics import SemanticsError, paren
from xgpu.semantics import mma as msem

if TYPE_CHECKING:
    from xgpu.backend.opencl.emit import FunctionEmitter

#: the MMA ops whose lowering asks for the lane id and the subgroup size
USES_LANES = frozenset([msem.STORE])


def _fragment(fe: FunctionEmitter, op: Operation, value: SSAValue) -> msem.Fragment:
    try:
        return msem.fragment(value.type)
    except SemanticsError as err:
        fe.fail(op, str(err))
        raise  # unreachable: fail raises


def _ctype(f: msem.Fragment) -> str:
    return "double" if f.elem.width == 64 else "float"


def _new_matrix(fe: FunctionEmitter, op: Operation, value: SSAValue) -> tuple[str, msem.Fragment]:
    f = _fragment(fe, op, value)
    if f.elem.width == 64:
        fe.module.extensions.add("cl_khr_fp64")
    name = fe.fresh_name("v", value.name_hint)
    fe.declare_local(_ctype(f), f"{name}[{f.size}]", None, op)
    fe.values[value] = name
    return name, f


def is_matrix(t: Attribute) -> bool:
    return isinstance(t, MMAMatrixType)


def declare(fe: FunctionEmitter, value: SSAValue, op: Operation, init: str | None) -> str:
    """The array of an MMA value that control flow assigns (scf.if results,
    scf.for iteration values), a copy of `init` where given."""
    name, f = _new_matrix(fe, op, value)
    if init is not None:
        copy(fe, name, init, value.type, op)
    return name


def declare_copy(fe: FunctionEmitter, name: str, source: str, t: Attribute, op: Operation) -> None:
    f = msem.fragment(t)
    fe.line(f"{_ctype(f)} {name}[{f.size}];", op)
    copy(fe, name, source, t, op)


def copy(fe: FunctionEmitter, target: str, source: str, t: Attribute, op: Operation) -> None:
    f = msem.fragment(t)
    e = fe.fresh_name("e")
    fe.line(f"for (int {e} = 0; {e} < {f.size}; {e}++) {target}[{e}] = {source}[{e}];", op)


def _base(fe: FunctionEmitter, d: Desc, indices: list[Ix]) -> str:
    pos: Ix = d.offset
    for i, s in zip(indices, d.strides):
        pos = ix_add(pos, ix_mul(i, s))
    name = fe.fresh_name("base")
    fe.declare_local("long", name, ix_text(pos), None)
    return name


def _index_checks(fe: FunctionEmitter, op: Operation, d: Desc, indices: list[Ix]) -> str | None:
    """Faults for indices outside the memref's sizes; the condition that all
    are inside (None: no check)."""
    if not fe.checked:
        return None
    conds = []
    for k, (i, n, v) in enumerate(zip(indices, d.sizes, op.indices)):
        cond = guards.below(i, n, fe.ranges.of(v))  # None: statically inside
        if cond is None:
            continue
        values = ["0", str(k), "0", *map(ix_text, indices)]
        values += [ix_text(s) if s is not None else "(-1)" for s in d.sizes]
        fault = guards.mma_fault(fe, op, d, values)
        fe.line(f"{fault};" if cond == "0" else f"if (!({cond})) {fault};", op)
        conds.append(cond)
    return " && ".join(conds) if conds else None


def _position(base: str, r: str, c: str, lead: int, transpose: bool) -> str:
    if transpose:
        return f"(ulong)({base} + (long){c} * {lead}L + {r})"
    return f"(ulong)({base} + (long){r} * {lead}L + {c})"


def _window_check(
    fe: FunctionEmitter,
    op: Operation,
    d: Desc,
    f: msem.Fragment,
    base: str,
    indices: list[Ix],
) -> str | None:
    """Check the indices, then every position of the window in row-major
    order (the first one outside the memory is the fault, as on the
    simulator); returns the name of the `int` that says all passed (None:
    unchecked)."""
    if not fe.checked:
        return None
    ok = fe.fresh_name("ok")
    fe.declare_local("int", ok, _index_checks(fe, op, d, indices) or "1", op)
    if d.extent is None:
        return ok
    lead, transpose = msem.lead_dimension(op), msem.is_transposed(op)
    p = fe.fresh_name("pos")
    extent = ix_text(d.extent)
    values = ["1", f"(long){p}", extent, *map(ix_text, indices)]
    values += [ix_text(s) if s is not None else "(-1)" for s in d.sizes]
    r, c, _ = _open_elements(fe, op, f, ok)
    fe.line(f"ulong {p} = {_position(base, r, c, lead, transpose)};", op)
    fault = guards.mma_fault(fe, op, d, values)
    fe.line(f"if (!({p} < (ulong){paren(extent)})) {{ {fault}; {ok} = 0; }}", op)
    fe.close("}", op)
    fe.close("}", op)
    return ok


def _open_elements(
    fe: FunctionEmitter, op: Operation, f: msem.Fragment, while_ok: str | None = None
) -> tuple[str, str, str]:
    """Open loops over the rows and columns of `f` (row-major; while `while_ok`
    holds); returns the row, column and element index. No `/` and `%` of one
    element index: LLVM would pair them through a `freeze`, which Oclgrind's
    --uninitialized cannot run (see `reductions`)."""
    r, c, e = fe.fresh_name("r"), fe.fresh_name("c"), fe.fresh_name("e")
    also = f"{while_ok} && " if while_ok else ""
    fe.open(f"for (int {r} = 0; {also}{r} < {f.rows}; {r}++) {{", op)
    fe.open(f"for (int {c} = 0; {also}{c} < {f.cols}; {c}++) {{", op)
    fe.line(f"int {e} = {r} * {f.cols} + {c};", op)
    return r, c, e


def _memory(fe: FunctionEmitter, op: Operation, memref: SSAValue, matrix: SSAValue) -> Desc:
    error = msem.memory_error(op.name, memref.type.element_type, matrix.type)
    if error is not None:
        fe.fail(op, error.split(" op ", 1)[1])
    return fe.desc(memref)


def emit_load(fe: FunctionEmitter, op: Operation) -> None:
    d = _memory(fe, op, op.src_memref, op.res)
    name, f = _new_matrix(fe, op, op.res)
    indices = [fe.index_operand(i) for i in op.indices]
    lead, transpose = msem.lead_dimension(op), msem.is_transposed(op)
    base = _base(fe, d, indices)
    ok = _window_check(fe, op, d, f, base, indices)
    p = fe.fresh_name("pos")
    r, c, e = _open_elements(fe, op, f)
    fe.line(f"ulong {p} = {_position(base, r, c, lead, transpose)};", op)
    value = guards.read(fe, d, f"{d.ptr}[{p}]")
    fe.line(f"{name}[{e}] = {f'{ok} ? {value} : 0' if ok else value};", op)
    fe.close("}", op)
    fe.close("}", op)


def emit_store(fe: FunctionEmitter, op: Operation) -> None:
    d = _memory(fe, op, op.dst_memref, op.src)
    if d.space == "__constant":
        fe.fail(op, "stores to a constant memref.global")
    f = _fragment(fe, op, op.src)
    src = fe.expr(op.src)
    indices = [fe.index_operand(i) for i in op.indices]
    lead, transpose = msem.lead_dimension(op), msem.is_transposed(op)
    base = _base(fe, d, indices)
    ok = _window_check(fe, op, d, f, base, indices)
    if fe.subgroups.mode == "khr":
        fe.require_extension("cl_khr_subgroups")
    lane = fe.subgroups.query("gpu.lane_id", fe.is_kernel)
    count = fe.subgroups.query("gpu.subgroup_size", fe.is_kernel)
    p = fe.fresh_name("pos")
    _barrier(fe, op)
    r, c, e = _open_elements(fe, op, f)
    fe.open(f"if ((long){e} % {paren(count)} == {lane}) {{", op)
    fe.line(f"ulong {p} = {_position(base, r, c, lead, transpose)};", op)
    write = guards.write(fe, d, f"{d.ptr}[{p}]", f"{src}[{e}]")
    fe.line(f"if ({ok}) {write}" if ok else write, op)
    fe.close("}", op)
    fe.close("}", op)
    fe.close("}", op)
    _barrier(fe, op)


def _barrier(fe: FunctionEmitter, op: Operation) -> None:
    """Before a store: every lane has read what it loaded (the store may
    overwrite it); after: every lane's part is visible to later loads."""
    if fe.subgroups.mode == "khr":
        fe.line("sub_group_barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);", op)
    else:
        fe.line("barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);", op)


def emit_compute(fe: FunctionEmitter, op: Operation) -> None:
    a, b, acc = (_fragment(fe, op, v) for v in (op.op_a, op.op_b, op.op_c))
    try:
        msem.check_compute(a, b, acc)
    except SemanticsError as err:
        fe.fail(op, str(err))
    ma, mb, mc = fe.expr(op.op_a), fe.expr(op.op_b), fe.expr(op.op_c)
    name, _ = _new_matrix(fe, op, op.res)
    t = _ctype(acc)
    i, j, k = fe.fresh_name("i"), fe.fresh_name("j"), fe.fresh_name("k")
    n, kk = acc.cols, a.cols

    def product(at: str) -> str:
        # In the accumulator's type (an f32 product is exact in a double C).
        cast = "(double)" if t == "double" else ""
        return f"{cast}{ma}[{i} * {kk} + {paren(at)}] * {cast}{mb}[{paren(at)} * {n} + {j}]"

    fe.open(f"for (int {i} = 0; {i} < {acc.rows}; {i}++) {{", op)
    fe.open(f"for (int {j} = 0; {j} < {n}; {j}++) {{", op)
    fe.line(f"{t} xg_d = {mc}[{i} * {n} + {j}];", op)
    if acc.elem.width == 16:
        # Pairs of k, rounded to f16 once per pair (`xgpu.semantics.mma`).
        fe.open(f"for (int {k} = 0; {k} + 1 < {kk}; {k} += 2) {{", op)
        fe.line(f"float xg_p0 = {product(k)};", op)
        fe.line(f"float xg_p1 = {product(f'{k} + 1')};", op)
        fe.line("float xg_s = xg_p0 + xg_p1;", op)
        fe.line(f"xg_d = {half.rounded(fe, 'xg_d + xg_s')};", op)
        fe.close("}", op)
        if kk % 2:
            fe.line(f"float xg_p0 = {product(str(kk - 1))};", op)
            fe.line(f"xg_d = {half.rounded(fe, 'xg_d + xg_p0')};", op)
    else:
        # One statement per rounding: no contraction into a fused multiply-add.
        fe.open(f"for (int {k} = 0; {k} < {kk}; {k}++) {{", op)
        fe.line(f"{t} xg_p = {product(k)};", op)
        fe.line("xg_d = xg_d + xg_p;", op)
        fe.close("}", op)
    fe.line(f"{name}[{i} * {n} + {j}] = xg_d;", op)
    fe.close("}", op)
    fe.close("}", op)


def emit_constant(fe: FunctionEmitter, op: Operation) -> None:
    value = fe.expr(op.value)
    name, f = _new_matrix(fe, op, op.res)
    e = fe.fresh_name("e")
    fe.line(f"for (int {e} = 0; {e} < {f.size}; {e}++) {name}[{e}] = {value};", op)


def emit_elementwise(fe: FunctionEmitter, op: Operation) -> None:
    args = [_fragment(fe, op, a) for a in op.args]
    names = [fe.expr(a) for a in op.args]
    res = _fragment(fe, op, op.res)
    op_type = op.op_type.data.value
    # f16 elements are floats here: look the op up at f32 and round (`half`).
    as_f32 = [msem.scalar_of_dtype(_f32(a.dtype)) for a in args]
    try:
        sem = msem.elementwise_semantics(op_type, as_f32, msem.scalar_of_dtype(_f32(res.dtype)))
    except SemanticsError as err:
        if op_type != "extf":
            fe.fail(op, str(err))
        sem = None
    name, f = _new_matrix(fe, op, op.res)
    e = fe.fresh_name("e")
    elems = [f"{n}[{e}]" for n in names]
    if sem is None:  # extf f16 -> f32: the float itself
        text = elems[0] if res.elem.width == 32 else f"(double){elems[0]}"
    else:
        fe.use_semantics(sem, op)
        text = sem.c(*elems)
        if res.elem.width == 16:
            text = half.rounded(fe, text)
    fe.line(f"for (int {e} = 0; {e} < {f.size}; {e}++) {name}[{e}] = {text};", op)


def _f32(dtype):
    import numpy as np

    return np.dtype(np.float32) if dtype == np.float16 else dtype


HANDLERS = {
    msem.LOAD: emit_load,
    msem.STORE: emit_store,
    msem.COMPUTE: emit_compute,
    msem.CONSTANT: emit_constant,
    msem.ELEMENTWISE_OP: emit_elementwise,
}
