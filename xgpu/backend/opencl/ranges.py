"""Integer ranges of index values a kernel computes, for the bounds checks.

`value_range(value, func)` gives `(lo, hi)` (None where unbounded) for an
integer SSA value of a kernel or device function: constants, the id ops
(`gpu.thread_id` in [0, block size - 1], with the kernel's
`known_block_size` / `known_grid_size` when it has them: xgpu-run checks
every launch against them), `scf.for` induction variables with a positive
constant step, and `arith` add / sub / mul / rem / div / index_cast / min /
max of bounded operands. A check `0 <= i < n` that the range of `i` decides
is left out of the generated C (`guards`). Ranges are kept far from the
limits of the value's width, where arithmetic could wrap.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType, UnitAttr
from xdsl.ir import Block, Operation, SSAValue

Range = tuple[int | None, int | None]
UNBOUNDED: Range = (None, None)
_DIMS = {"x": 0, "y": 1, "z": 2}
_LIMIT = 2**40  # far from any wrap-around of i64/index (and i32 uses its own)


def _width(value: SSAValue) -> int | None:
    t = value.type
    if isinstance(t, IndexType):
        return 64
    if isinstance(t, IntegerType):
        return t.width.data
    return None


def _known(func: Operation | None, attr: str, d: int) -> int | None:
    if (
        func is None
        or func.name != "gpu.func"
        or not isinstance(func.attributes.get("gpu.kernel"), UnitAttr)
    ):
        return None
    sizes = getattr(func, attr, None)
    if sizes is None:
        return None
    values = list(sizes.get_values())
    return int(values[d]) if d < len(values) else None


def _clamp(r: Range, width: int | None) -> Range:
    lo, hi = r
    limit = _LIMIT if width is None or width >= 48 else 2 ** (width - 2)
    if lo is not None and abs(lo) > limit or hi is not None and abs(hi) > limit:
        return UNBOUNDED
    return r


class Ranges:
    """The ranges of the values of one function (memoized)."""

    def __init__(self, func: Operation | None):
        self.func = func
        self.memo: dict[SSAValue, Range] = {}

    def of(self, value: SSAValue) -> Range:
        found = self.memo.get(value)
        if found is None:
            self.memo[value] = UNBOUNDED  # cycles (loop-carried values) stay unbounded
            found = self.memo[value] = _clamp(self._compute(value), _width(value))
        return found

    def _compute(self, value: SSAValue) -> Range:
        owner = value.owner
        if isinstance(owner, Block):
            return self._block_arg(owner, value)
        op: Operation = owner
        name = op.name
        if name == "arith.constant":
            attr = op.properties.get("value") or op.attributes.get("value")
            if isinstance(attr, IntegerAttr):
                v = int(attr.value.data)
                return (v, v)
            return UNBOUNDED
        if name in ("gpu.thread_id", "gpu.block_id", "gpu.global_id", "gpu.block_dim"):
            return self._id(op)
        if name == "gpu.grid_dim":
            known = _known(self.func, "known_grid_size", _DIMS[op.dimension.data.value])
            return (known, known) if known is not None else (1, None)
        if name in ("arith.index_cast", "arith.index_castui", "arith.extsi", "arith.extui"):
            lo, hi = self.of(op.operands[0])
            if name in ("arith.index_castui", "arith.extui") and (lo is None or lo < 0):
                return UNBOUNDED
            return (lo, hi)
        if len(op.operands) != 2:
            return UNBOUNDED
        a, b = self.of(op.operands[0]), self.of(op.operands[1])
        return _binary(name, a, b)

    def _id(self, op: Operation) -> Range:
        d = _DIMS[op.dimension.data.value]
        block = _known(self.func, "known_block_size", d)
        grid = _known(self.func, "known_grid_size", d)
        if op.name == "gpu.thread_id":
            return (0, block - 1 if block is not None else None)
        if op.name == "gpu.block_id":
            return (0, grid - 1 if grid is not None else None)
        if op.name == "gpu.block_dim":
            return (block, block) if block is not None else (1, None)
        top = block * grid - 1 if block is not None and grid is not None else None
        return (0, top)

    def _block_arg(self, block: Block, value: SSAValue) -> Range:
        parent = block.parent_op()
        if parent is None or parent.name != "scf.for" or value is not block.args[0]:
            return UNBOUNDED
        if "unsignedCmp" in parent.properties or "unsignedCmp" in parent.attributes:
            return UNBOUNDED
        step_lo, _ = self.of(parent.step)
        if step_lo is None or step_lo < 1:
            return UNBOUNDED
        lo, _ = self.of(parent.lb)
        _, ub_hi = self.of(parent.ub)
        return (lo, ub_hi - 1 if ub_hi is not None else None)


def _add(x: int | None, y: int | None) -> int | None:
    return None if x is None or y is None else x + y


def _binary(name: str, a: Range, b: Range) -> Range:
    (alo, ahi), (blo, bhi) = a, b
    if name == "arith.addi":
        return (_add(alo, blo), _add(ahi, bhi))
    if name == "arith.subi":
        return (
            None if alo is None or bhi is None else alo - bhi,
            None if ahi is None or blo is None else ahi - blo,
        )
    if name == "arith.muli":
        if alo is None or blo is None or alo < 0 or blo < 0:
            return UNBOUNDED
        return (alo * blo, None if ahi is None or bhi is None else ahi * bhi)
    if name in ("arith.remui", "arith.remsi"):
        if alo is None or alo < 0 or blo is None or blo < 1 or bhi is None:
            return UNBOUNDED
        return (0, bhi - 1 if ahi is None else min(ahi, bhi - 1))
    if name in ("arith.divui", "arith.divsi"):
        if alo is None or alo < 0 or blo is None or blo < 1:
            return UNBOUNDED
        return (alo // (bhi or alo + 1), None if ahi is None else ahi // blo)
    if name in ("arith.minsi", "arith.minui"):
        if name == "arith.minui" and (alo is None or alo < 0 or blo is None or blo < 0):
            return UNBOUNDED
        return (None if alo is None or blo is None else min(alo, blo), _min(ahi, bhi))
    if name in ("arith.maxsi", "arith.maxui"):
        if name == "arith.maxui" and (alo is None or alo < 0 or blo is None or blo < 0):
            return UNBOUNDED
        return (_max(alo, blo), None if ahi is None or bhi is None else max(ahi, bhi))
    return UNBOUNDED


def _min(x: int | None, y: int | None) -> int | None:
    if x is None:
        return y
    if y is None:
        return x
    return min(x, y)


def _max(x: int | None, y: int | None) -> int | None:
    if x is None:
        return y
    if y is None:
        return x
    return max(x, y)
