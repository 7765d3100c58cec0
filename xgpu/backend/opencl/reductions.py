"""gpu.all_reduce and the subgroup ops.

Two subgroup models (`compile_gpu_module(..., subgroups=...)`):

- "emulate" (the default, for devices without cl_khr_subgroups such as PoCL
  3.x): subgroups are emulated through a `__local` scratch buffer and
  `barrier(CLK_LOCAL_MEM_FENCE)`. With `subgroup_size=None` the whole
  workgroup is one subgroup (lane id = linear local id, subgroup size = the
  workgroup size, subgroup id 0, one subgroup); with `subgroup_size=S`, lanes
  are grouped S by S in linear local-id order (the last subgroup may be
  partial). Every emulated op contains barriers, so it must be reached by all
  work items of the workgroup (uniform control flow), as MLIR requires for
  `gpu.all_reduce`.
- "khr": lane id, subgroup size/id/count come from cl_khr_subgroups
  builtins; `gpu.shuffle` uses `sub_group_shuffle*` (cl_khr_subgroup_shuffle,
  cl_khr_subgroup_shuffle_relative), unclustered `gpu.subgroup_reduce`
  add/min/max on 32/64-bit types uses `sub_group_reduce_*`, and
  `gpu.subgroup_broadcast` `sub_group_broadcast` (`sub_group_broadcast_first`,
  cl_khr_subgroup_ballot, for first_active_lane); the other ops are emulated
  as above, on the device's subgroups.

Reductions (`gpu.all_reduce` over the workgroup, `gpu.subgroup_reduce` over a
subgroup or a cluster, emulated or not served by a builtin) go through the
scratch buffer in one of two orders (`compile_gpu_module(..., reduction=...)`;
`device.emit_options` picks "fold" on CPU devices, "tree" on the others; MLIR
does not define the order):

- "fold": the first lane of the group folds the values left to right in lane
  order (`xgpu.semantics.gpu.fold_reduce`; a cluster: every lane folds its
  cluster): n - 1 combining steps on one lane, three barriers (see below
  for the last), none in a loop. It suits CPU devices: PoCL runs a
  workgroup as loops over its work items, split at each barrier, so a
  barrier costs a pass over the workgroup while one lane's fold is a plain
  loop.
- "tree": every lane writes its value, then halving steps: while m > 1
  values remain, h = ceil(m / 2) and the lanes k < m - h combine member k
  (left operand) with member k + h into member k
  (`xgpu.semantics.gpu.tree_reduce`; ceil(log2 n) steps, any group size: 1,
  3, 1000). The active lanes are contiguous (whole warps drop out), the
  reads of a step never overlap its writes, and each step opens with a
  barrier; one more barrier, then every lane reads member 0 (and a last
  barrier, see below). The steps are a do-while loop counted down
  from a size that is the same on every work item of the workgroup (the
  workgroup size, `min(S, work items)` for emulated subgroups of S lanes,
  `get_max_sub_group_size()`, or the cluster size), so every barrier is
  reached by all work items, none inside an `if`; a partial group (the last
  subgroup, a cluster cut by it) only masks work. The region form inlines
  the region as the combining step.

  The loop's shape matters to PoCL (where the tree runs when forced): it
  builds kernels of many loops that open with their barrier in linear time
  (12 reductions: 3 s), kernels of loops that end with their barrier in time
  exponential in their number (7: 11 s, 8: 21 s), and it miscompiles a
  loop that leaves right after its barrier.

Integer ops and min/max give the same result in both orders; float add and
mul round differently (for n = 4 the tree computes (v0 + v2) + (v1 + v3)), and
so does a region that is not associative and commutative. The simulator
reproduces the order it is given (`xgpu-run --reduction`, default "fold"), so
its results are the device's bit for bit. The scratch buffer is one `__local`
kernel argument of (work items x largest element size) bytes, shared by every
reduction and subgroup op of the kernel; both orders use one slot per lane.
Each op that uses it ends with a barrier so that the next one cannot
overwrite its result before every lane has read it, except the kernel's last
one when nothing runs it again (it is in no loop and no region of several
blocks).

The lanes' data movement follows `xgpu.semantics.gpu` exactly (`shuffle`,
`rotate`, `broadcast`, `cluster_reduce`, `fold_reduce`, `tree_reduce`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from xdsl.ir import Operation

from xgpu.backend.opencl.memref import ix_add, ix_mul, ix_text
from xgpu.semantics import scalar
from xgpu.semantics.gpu import combiner

if TYPE_CHECKING:
    from xgpu.backend.opencl.emit import FunctionEmitter

LOCAL_BARRIER = "barrier(CLK_LOCAL_MEM_FENCE);"
SCRATCH = "xg_scratch"
LID = "xg_lid"
NWI = "xg_nwi"

LINEAR_LID = (
    "(long)(get_local_id(0) + get_local_size(0) * "
    "(get_local_id(1) + get_local_size(1) * get_local_id(2)))"
)
WORK_ITEMS = "(long)(get_local_size(0) * get_local_size(1) * get_local_size(2))"

SUBGROUP_QUERIES = ("gpu.lane_id", "gpu.subgroup_id", "gpu.num_subgroups", "gpu.subgroup_size")
SCRATCH_OPS = (
    "gpu.all_reduce",
    "gpu.subgroup_reduce",
    "gpu.shuffle",
    "gpu.rotate",
    "gpu.subgroup_broadcast",
)

_KHR_REDUCE = {"add": "add", "minsi": "min", "maxsi": "max", "minui": "min", "maxui": "max"}


@dataclass(frozen=True)
class Subgroups:
    """C expressions of the subgroup model inside a kernel (see the docstring)."""

    mode: str  # "emulate" | "khr"
    size: int | None  # emulated subgroup size (None: the workgroup)

    @property
    def simple(self) -> bool:
        return self.mode == "emulate" and self.size is None

    # lane, first scratch slot of the subgroup, lanes in it
    @property
    def lane(self) -> str:
        return LID if self.simple else "xg_lane"

    @property
    def base(self) -> str | int:
        return 0 if self.simple else "xg_sgbase"

    @property
    def count(self) -> str:
        return NWI if self.simple else "xg_sgn"

    @property
    def bound(self) -> str:
        """The largest `count`, the same on every work item of the workgroup."""
        if self.simple:
            return NWI
        if self.mode == "khr":
            return "(long)get_max_sub_group_size()"
        return f"min({self.size}L, {NWI})"

    def prologue(self) -> list[str]:
        """Declarations at the top of a kernel that uses lanes."""
        lines = [f"long {LID} = {LINEAR_LID};", f"long {NWI} = {WORK_ITEMS};"]
        if self.simple:
            return lines
        if self.mode == "khr":
            lines += [
                "long xg_lane = (long)get_sub_group_local_id();",
                "long xg_sgbase = (long)get_sub_group_id() * (long)get_max_sub_group_size();",
                "long xg_sgn = (long)get_sub_group_size();",
            ]
        else:
            # No `%` beside a `/` of the same operands: LLVM pairs them
            # through a `freeze`, which Oclgrind's --uninitialized cannot run.
            s = self.size
            lines += [
                f"long xg_sgid = {LID} / {s}L;",
                f"long xg_sgbase = xg_sgid * {s}L;",
                f"long xg_lane = {LID} - xg_sgbase;",
                f"long xg_sgn = min({s}L, {NWI} - xg_sgbase);",
            ]
        return lines

    def query(self, name: str, in_kernel: bool) -> str:
        """The C expression of a subgroup query op."""
        if self.mode == "khr":
            return {
                "gpu.lane_id": "(long)get_sub_group_local_id()",
                "gpu.subgroup_id": "(long)get_sub_group_id()",
                "gpu.num_subgroups": "(long)get_num_sub_groups()",
                "gpu.subgroup_size": "(long)get_sub_group_size()",
            }[name]
        lid = LID if in_kernel else LINEAR_LID
        nwi = NWI if in_kernel else WORK_ITEMS
        if self.size is None:
            return {
                "gpu.lane_id": lid,
                "gpu.subgroup_id": "0L",
                "gpu.num_subgroups": "1L",
                "gpu.subgroup_size": nwi,
            }[name]
        s = self.size
        if in_kernel:
            return {
                "gpu.lane_id": "xg_lane",
                "gpu.subgroup_id": "xg_sgid",
                "gpu.num_subgroups": f"(({NWI} + {s - 1}L) / {s}L)",
                "gpu.subgroup_size": "xg_sgn",
            }[name]
        return {
            "gpu.lane_id": f"({lid} % {s}L)",
            "gpu.subgroup_id": f"({lid} / {s}L)",
            "gpu.num_subgroups": f"(({nwi} + {s - 1}L) / {s}L)",
            "gpu.subgroup_size": f"min({s}L, {nwi} - {lid} / {s}L * {s}L)",
        }[name]

    # -------------------------------------------------- what an op needs
    def scratch_bytes(self, op: Operation) -> int:
        """Bytes per work item of scratch that `op` needs (0: none)."""
        if op.name not in SCRATCH_OPS:
            return 0
        t = scalar(op.operands[0].type)
        if self.mode == "khr":
            if op.name == "gpu.shuffle" or op.name == "gpu.subgroup_broadcast":
                return 0
            if op.name == "gpu.subgroup_reduce" and _khr_reduce(op) is not None:
                return 0
        return t.nbytes


def _khr_reduce(op: Operation) -> str | None:
    """The sub_group_reduce_* builtin for `op`, where one fits."""
    t = scalar(op.value.type)
    kind = op.op.data.value
    if op.cluster_size is not None or t.width not in (32, 64) or kind not in _KHR_REDUCE:
        return None
    if t.is_float and kind != "add":
        return None
    return f"sub_group_reduce_{_KHR_REDUCE[kind]}"


# --------------------------------------------------------------------------- #
# Emission                                                                    #
# --------------------------------------------------------------------------- #


# Ops whose regions run once at most: a scratch op inside them is not repeated.
_ONCE = frozenset({"scf.if", "scf.index_switch", "scf.execute_region"})


def _release(fe: FunctionEmitter, op: Operation) -> None:
    """The barrier after every lane's last read of the scratch, before another
    scratch op may write it; none after the kernel's last scratch op when
    nothing can run it again (it is in no loop and no region of several
    blocks)."""
    if fe.scratch_ops and fe.scratch_ops[-1] is op:
        inner: Operation = op
        while (parent := inner.parent_op()) is not None and parent is not fe.func:
            region = inner.parent_region()
            if parent.name not in _ONCE or region is None or len(region.blocks) > 1:
                break
            inner = parent
        else:
            region = inner.parent_region()
            if region is not None and len(region.blocks) == 1:
                return
    fe.line(LOCAL_BARRIER, op)


def _scratch_ptr(t) -> str:
    return f"__local {t.c}* xg_s = (__local {t.c}*){SCRATCH};"


def _fold(fe: FunctionEmitter, op: Operation, t, lane, count, base, combine) -> str:
    """Emit a reduction of `op`'s first operand over `count` lanes: every lane
    writes its value to scratch, the first lane folds them left to right into
    `xg_s[base]`, every lane reads the result. Returns the result's C name.
    `combine(acc, rhs)` emits `acc = acc op rhs`."""
    value = fe.expr(op.operands[0])
    result = fe.declare(op.results[0], op)
    first = ix_text(base)
    fe.open("{", op)
    fe.line(_scratch_ptr(t), op)
    fe.line(f"xg_s[{LID}] = {value};", op)
    fe.line(LOCAL_BARRIER, op)
    fe.open(f"if ({lane} == 0) {{", op)
    fe.line(f"{t.c} xg_acc = xg_s[{first}];", op)
    fe.open(f"for (long xg_j = 1; xg_j < {count}; ++xg_j) {{", op)
    combine("xg_acc", f"xg_s[{ix_text(ix_add(base, 'xg_j'))}]")
    fe.close("}", op)
    fe.line(f"xg_s[{first}] = xg_acc;", op)
    fe.close("}", op)
    fe.line(LOCAL_BARRIER, op)
    fe.line(f"{result} = xg_s[{first}];", op)
    _release(fe, op)
    fe.close("}", op)
    return result


@dataclass(frozen=True)
class _Group:
    """Where the members of this lane's reduction group live in scratch (C
    `long` expressions): this lane's slot and member index, member 0's slot,
    the distance between members, the group's member count and a bound of it
    that is the same on every work item of the workgroup."""

    slot: str | int
    k: str
    first: str | int
    stride: int
    members: str
    bound: str


def _tree(fe: FunctionEmitter, op: Operation, t, group: _Group, combine, setup=()) -> str:
    """Emit the "tree" reduction of `op`'s first operand over `group` (see
    the module docstring); `setup` lines come before the first barrier.
    Returns the result's C name."""
    value = fe.expr(op.operands[0])
    result = fe.declare(op.results[0], op)
    g = group

    def member(k: str) -> str:
        return f"xg_s[{ix_text(ix_add(g.first, ix_mul(k, g.stride)))}]"

    fe.open("{", op)
    fe.line(_scratch_ptr(t), op)
    fe.line(f"xg_s[{ix_text(g.slot)}] = {value};", op)
    for ln in setup:
        fe.line(ln, op)
    # A do-while loop whose body opens with the barrier (the shape PoCL
    # builds in linear time, see the module docstring); one step at least.
    one = g.members == g.bound  # one group: the loop counts its members
    fe.line(f"long xg_m = {g.members};", op)
    if not one:
        fe.line(f"long xg_u = {g.bound};", op)
    fe.open("do {", op)
    fe.line(LOCAL_BARRIER, op)
    fe.line("long xg_h = (xg_m + 1) >> 1;", op)
    fe.open(f"if ({g.k} < xg_m - xg_h) {{", op)
    combine(member(g.k), member(f"{g.k} + xg_h"))
    fe.close("}", op)
    fe.line("xg_m = xg_h;", op)
    if not one:
        fe.line("xg_u = (xg_u + 1) >> 1;", op)
    fe.close(f"}} while ({'xg_m' if one else 'xg_u'} > 1);", op)
    fe.line(LOCAL_BARRIER, op)
    fe.line(f"{result} = xg_s[{ix_text(g.first)}];", op)
    _release(fe, op)
    fe.close("}", op)
    return result


def _combine_with(fe: FunctionEmitter, op: Operation, kind: str, t):
    sem = combiner(kind, t)
    fe.use_semantics(sem, op)

    def combine(lhs: str, rhs: str) -> None:
        fe.line(f"{lhs} = {sem.c(lhs, rhs)};", op)

    return combine


def emit_all_reduce(fe: FunctionEmitter, op: Operation) -> None:
    t = fe.scalar_of(op.value, op)
    fe.require_scratch(op)
    if op.op is not None:
        combine = _combine_with(fe, op, op.op.data.value, t)
    else:
        block = op.body.blocks.first
        if block is None or len(op.body.blocks) != 1:
            fe.fail(op, "the region of gpu.all_reduce must have exactly one block")

        def combine(lhs: str, rhs: str) -> None:
            a, b = block.args
            fe.line(f"{t.c} xg_lhs = {lhs}, xg_rhs = {rhs};", op)
            fe.bind(a, "xg_lhs")
            fe.bind(b, "xg_rhs")

            def on_yield(term: Operation) -> None:
                if term.name != "gpu.yield" or len(term.operands) != 1:
                    fe.fail(term, "expected gpu.yield of one value")
                fe.line(f"{lhs} = {fe.expr(term.operands[0])};", term)

            fe.emit_block_ops(block, on_yield)

    if fe.module.options.reduction == "tree":
        _tree(fe, op, t, _Group(LID, LID, 0, 1, NWI, NWI), combine)
    else:
        _fold(fe, op, t, LID, NWI, 0, combine)


def emit_subgroup_reduce(fe: FunctionEmitter, op: Operation) -> None:
    t = fe.scalar_of(op.value, op)
    kind = op.op.data.value
    sg = fe.subgroups
    if sg.mode == "khr" and (builtin := _khr_reduce(op)) is not None:
        fe.require_extension("cl_khr_subgroups")
        v = fe.expr(op.value)
        if kind in ("minui", "maxui"):
            fe.define(op.result, f"({t.c}){builtin}(({t.cu}){v})", op)
        else:
            fe.define(op.result, f"{builtin}({v})", op)
        return
    fe.require_scratch(op)
    combine = _combine_with(fe, op, kind, t)
    tree = fe.module.options.reduction == "tree"
    slot = ix_add(sg.base, sg.lane)
    if op.cluster_size is None:
        if tree:
            _tree(fe, op, t, _Group(slot, sg.lane, sg.base, 1, sg.count, sg.bound), combine)
        else:
            _fold(fe, op, t, sg.lane, sg.count, sg.base, combine)
        return
    size = op.cluster_size.value.data
    stride = op.cluster_stride.value.data if op.cluster_stride is not None else 1
    span = size * stride
    if tree:
        # Member k of the cluster is lane xg_cb + k * stride (those < count).
        if stride == 1:
            k, members = f"{sg.lane} % {span}L", f"min({size}L, {sg.count} - xg_cb)"
        else:
            k = f"{sg.lane} % {span}L / {stride}L"
            members = f"min({size}L, ({sg.count} - xg_cb + {stride - 1}L) / {stride}L)"
        setup = [
            f"long xg_k = {k};",
            f"long xg_cb = {sg.lane} - {ix_text(ix_mul('xg_k', stride))};",
        ]
        group = _Group(slot, "xg_k", ix_add(sg.base, "xg_cb"), stride, members, f"{size}L")
        _tree(fe, op, t, group, combine, setup)
        return
    value = fe.expr(op.value)
    result = fe.declare(op.result, op)
    sem = combiner(kind, t)
    fe.open("{", op)
    fe.line(_scratch_ptr(t), op)
    fe.line(f"xg_s[{LID}] = {value};", op)
    fe.line(LOCAL_BARRIER, op)
    # (lane - lane % span, not lane / span * span: see Subgroups.prologue)
    within = "" if stride == 1 else f" + {sg.lane} % {stride}L"
    fe.line(f"long xg_cb = {sg.lane} - {sg.lane} % {span}L{within};", op)
    first = ix_text(ix_add(sg.base, "xg_cb"))
    fe.line(f"{t.c} xg_acc = xg_s[{first}];", op)
    fe.open(f"for (long xg_j = 1; xg_j < {size}L; ++xg_j) {{", op)
    fe.line(f"long xg_l = xg_cb + xg_j * {stride}L;", op)
    elem = f"xg_s[{ix_text(ix_add(sg.base, 'xg_l'))}]"
    fe.line(f"if (xg_l < {sg.count}) xg_acc = {sem.c('xg_acc', elem)};", op)
    fe.close("}", op)
    fe.line(f"{result} = xg_acc;", op)
    _release(fe, op)
    fe.close("}", op)


def _exchange(fe: FunctionEmitter, op: Operation, src: str, valid: str) -> None:
    """Write the value to scratch, read lane `src` of the subgroup when `valid`."""
    t = fe.scalar_of(op.operands[0], op)
    fe.require_scratch(op)
    sg = fe.subgroups
    value = fe.expr(op.operands[0])
    result = fe.declare(op.results[0], op)
    valid_name = fe.declare(op.results[1], op) if len(op.results) > 1 else None
    fe.open("{", op)
    fe.line(_scratch_ptr(t), op)
    fe.line(f"xg_s[{LID}] = {value};", op)
    fe.line(LOCAL_BARRIER, op)
    fe.line(f"long xg_src = {src};", op)
    fe.line(f"uchar xg_ok = (uchar)({valid});", op)
    fe.line(f"{result} = xg_ok ? xg_s[{ix_text(ix_add(sg.base, 'xg_src'))}] : {value};", op)
    if valid_name is not None:
        fe.line(f"{valid_name} = xg_ok;", op)
    _release(fe, op)
    fe.close("}", op)


_SRC = {
    "xor": "{lane} ^ {off}",
    "up": "{lane} - {off}",
    "down": "{lane} + {off}",
    "idx": "{off}",
}
_KHR_SHUFFLE = {
    "xor": ("sub_group_shuffle_xor", "cl_khr_subgroup_shuffle"),
    "idx": ("sub_group_shuffle", "cl_khr_subgroup_shuffle"),
    "up": ("sub_group_shuffle_up", "cl_khr_subgroup_shuffle_relative"),
    "down": ("sub_group_shuffle_down", "cl_khr_subgroup_shuffle_relative"),
}


def emit_shuffle(fe: FunctionEmitter, op: Operation) -> None:
    sg = fe.subgroups
    mode = op.mode.data.value
    off = f"(long){fe.expr(op.offset)}"
    width = f"(long){fe.expr(op.width)}"
    src = _SRC[mode].format(lane=sg.lane, off=off)
    valid = f"xg_src >= 0 && xg_src < {width} && xg_src < {sg.count}"
    if sg.mode != "khr":
        _exchange(fe, op, src, valid)
        return
    t = fe.scalar_of(op.value, op)
    builtin, ext = _KHR_SHUFFLE[mode]
    fe.require_extension("cl_khr_subgroups")
    fe.require_extension(ext)
    v = fe.expr(op.value)
    shuffled = fe.define_local(t.c, f"{builtin}({v}, (uint){off})", op)
    ok = fe.define_local("long", src, op)
    valid_expr = f"(uchar)({ok} >= 0 && {ok} < {width} && {ok} < {sg.count})"
    valid_name = fe.define(op.valid, valid_expr, op)
    fe.define(op.shuffle_result, f"{valid_name} ? {shuffled} : {v}", op)


def emit_rotate(fe: FunctionEmitter, op: Operation) -> None:
    sg = fe.subgroups
    offset = op.offset.value.data
    width = op.width.value.data
    src = f"({sg.lane} + {offset}L) % {width}L"
    valid = f"{sg.lane} < {width}L && xg_src < {sg.count}"
    _exchange(fe, op, src, valid)


def emit_broadcast(fe: FunctionEmitter, op: Operation) -> None:
    sg = fe.subgroups
    specific = op.broadcast_type.data.value == "specific_lane"
    if sg.mode == "khr":
        fe.require_extension("cl_khr_subgroups")
        v = fe.expr(op.src)
        if specific:
            fe.define(op.result, f"sub_group_broadcast({v}, (uint){fe.expr(op.lane)})", op)
        else:
            fe.require_extension("cl_khr_subgroup_ballot")
            fe.define(op.result, f"sub_group_broadcast_first({v})", op)
        return
    lane = f"(long){fe.expr(op.lane)}" if specific and op.lane is not None else "0"
    _exchange(fe, op, lane, f"xg_src >= 0 && xg_src < {sg.count}")
