"""Vector values as their elements, the way xgpu-run executes them.

`xgpu.run` and `xgpu-run` (`xgpu.runtime.api.load`) rewrite a program's
fixed-size vector values into one scalar value per element (row-major)
before compiling it, so host code and kernels on both backends run vector
code element by element ("scalarized", with MLIR's element order):

- `arith.constant dense<...> : vector<...>` becomes one constant per
  element; an arith or math op on vectors becomes the same op on each
  element (its properties and attributes kept); `vector.fma` is `math.fma`
  per element;
- `vector.broadcast` (of a scalar, or a vector of lower rank), `step`,
  `from_elements`, `shape_cast`, `insert`, `extract` (static and dynamic
  positions), `shuffle`, `interleave`, `deinterleave` move elements;
- `vector.reduction` folds the elements in order (with its accumulator);
- `vector.load` / `vector.store` (1-D) are `memref.load` / `memref.store`
  of consecutive elements along the memref's last dimension;
  `vector.transfer_read` / `transfer_write` (1-D, minor identity map, no
  mask) do the same, each element out of bounds along that dimension
  (where `in_bounds` does not say otherwise) read as the padding or not
  written;
- `vector.print` of a value becomes the runner calls MLIR's lowering makes
  (`printOpen`, the elements with `printF32`/`printF64`/`printI64`/
  `printU64`, `printComma`, `printClose`, then its punctuation), so the
  output is mlir-runner's.

Every op made takes the location of the op it replaces. A vector value the
rewrite cannot follow (a vector through `scf.for` iteration arguments, a
function argument or result, a masked transfer, ...) is an error at its op
(`ScalarizeError`) that says so.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from xdsl.context import Context
from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    ModuleOp,
    VectorType,
    i1,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.rewriter import Rewriter

from xgpu.transforms.vector_print import PrintLowering, element_count, vector_shape

_DYNAMIC = -(2**63)


class ScalarizeError(Exception):
    def __init__(self, op: Operation, message: str):
        super().__init__(message)
        self.op = op
        self.message = message


def has_vectors(module: ModuleOp) -> bool:
    return any(_touches_vectors(op) for op in module.walk())


def _touches_vectors(op: Operation) -> bool:
    if op.name == "vector.print":
        return True
    return any(isinstance(v.type, VectorType) for v in (*op.operands, *op.results))


def scalarize_vectors(ctx: Context, module: ModuleOp) -> None:
    """Rewrite the vector values of `module` in place (see the module doc)."""
    _Scalarizer(ctx, module).run()


_shape = vector_shape
_count = element_count


class _Scalarizer(PrintLowering):
    def __init__(self, ctx: Context, module: ModuleOp):
        self.ctx = ctx
        self.module = module
        #: vector value -> its elements, row-major
        self.elems: dict[SSAValue, list[SSAValue]] = {}
        self.op: Operation | None = None
        self.runner_decls: set[str] = set()

    # -- building ----------------------------------------------------------- #

    def make(
        self,
        name: str,
        operands: Sequence[SSAValue] = (),
        types: Sequence[Attribute] = (),
        properties: dict[str, Attribute] | None = None,
        attributes: dict[str, Attribute] | None = None,
        regions: Sequence[Region] = (),
        into: Block | None = None,
    ) -> Operation:
        assert self.op is not None
        new = self.ctx.get_op(name).create(
            operands=list(operands),
            result_types=list(types),
            properties=dict(properties or {}),
            attributes=dict(attributes or {}),
            regions=list(regions),
        )
        new.location = self.op.location
        if into is None:
            parent = self.op.parent_block()
            assert parent is not None
            parent.insert_op_before(new, self.op)
        else:
            into.add_op(new)
        return new

    def const(self, attr: Attribute, t: Attribute, into: Block | None = None) -> SSAValue:
        return self.make("arith.constant", (), [t], {"value": attr}, into=into).results[0]

    def index(self, v: int, into: Block | None = None) -> SSAValue:
        return self.const(IntegerAttr(v, IndexType()), IndexType(), into)

    def of(self, v: SSAValue) -> list[SSAValue]:
        got = self.elems.get(v)
        if got is None:
            owner = v.owner
            op = owner if isinstance(owner, Operation) else self.op
            assert op is not None
            raise ScalarizeError(
                op if isinstance(owner, Operation) else self.op,
                "a vector value that does not come from an op (a block or function argument) "
                "cannot be run element by element by xgpu-run",
            )
        return got

    def fail(self, message: str) -> None:
        assert self.op is not None
        raise ScalarizeError(self.op, message)

    # -- driver ------------------------------------------------------------- #

    def run(self) -> None:
        todo = [op for op in self.module.walk() if _touches_vectors(op)]
        for op in todo:
            self.op = op
            if op.regions and any(isinstance(v.type, VectorType) for v in op.results):
                self.fail(
                    f"'{op.name}' with vector results: xgpu-run runs vectors element by element "
                    "and does not carry them through regions"
                )
            if op.name in ("func.func", "gpu.func") or op.name == "func.return":
                self.fail("vectors as function arguments or results are not run by xgpu-run")
            handler = getattr(self, "_" + op.name.replace(".", "_"), None)
            if handler is None:
                if not op.name.startswith(("arith.", "math.")):
                    self.fail(f"'{op.name}' on vectors is not supported by xgpu-run")
                self._elementwise(op)
            else:
                handler(op)
        for op in reversed(todo):
            kept = op.name == "vector.print" and op.source is None  # host code prints it
            if op.parent is not None and not kept:
                Rewriter.erase_op(op, safe_erase=False)
        self._declare_runner_functions()

    def _set(self, result: SSAValue, values: list[SSAValue]) -> None:
        self.elems[result] = values

    # -- elementwise -------------------------------------------------------- #

    def _elementwise(self, op: Operation) -> None:
        shapes = {
            tuple(_shape(v.type))
            for v in (*op.operands, *op.results)
            if isinstance(v.type, VectorType)
        }
        if len(shapes) != 1:
            self.fail(f"'{op.name}' on vectors of different shapes is not supported by xgpu-run")
        (shape,) = shapes
        n = _count(shape)
        per_result: list[list[SSAValue]] = [[] for _ in op.results]
        for k in range(n):
            operands = [self.of(v)[k] if isinstance(v.type, VectorType) else v for v in op.operands]
            types = [
                r.type.element_type if isinstance(r.type, VectorType) else r.type
                for r in op.results
            ]
            new = self.make(op.name, operands, types, dict(op.properties), dict(op.attributes))
            for j, r in enumerate(new.results):
                per_result[j].append(r)
        for r, values in zip(op.results, per_result, strict=True):
            if isinstance(r.type, VectorType):
                self._set(r, values)
            else:
                self.fail(f"'{op.name}' with a scalar result from vectors is not supported")

    def _arith_constant(self, op: Operation) -> None:
        t = op.results[0].type
        attr = op.properties.get("value") or op.attributes.get("value")
        if not isinstance(t, VectorType) or not isinstance(attr, DenseIntOrFPElementsAttr):
            self.fail("a vector arith.constant needs a dense value")
        elem = t.element_type
        values = attr.get_values()
        n = _count(_shape(t))
        if len(values) == 1:
            values = list(values) * n
        made: dict[Any, SSAValue] = {}
        out = []
        for v in values:
            key = (type(v), v)
            if isinstance(v, float) and v != v:
                key = ("nan",)
            got = made.get(key)
            if got is None:
                a: Attribute = (
                    FloatAttr(v, elem) if isinstance(elem, AnyFloat) else IntegerAttr(v, elem)
                )
                got = made[key] = self.const(a, elem)
            out.append(got)
        self._set(op.results[0], out)

    def _vector_fma(self, op: Operation) -> None:
        a, b, c = self.of(op.lhs), self.of(op.rhs), self.of(op.acc)
        t = op.res.type.element_type
        self._set(
            op.res, [self.make("math.fma", (x, y, z), [t]).results[0] for x, y, z in zip(a, b, c)]
        )

    # -- moving elements ---------------------------------------------------- #

    def _vector_broadcast(self, op: Operation) -> None:
        t = op.vector.type
        shape = _shape(t)
        src = op.source
        if not isinstance(src.type, VectorType):
            self._set(op.vector, [src] * _count(shape))
            return
        s_shape = _shape(src.type)
        values = self.of(src)
        # Align trailing dimensions; a source dimension of 1 stretches.
        lead = len(shape) - len(s_shape)
        out = []
        for flat in range(_count(shape)):
            idx = _unflatten(flat, shape)[lead:]
            sidx = [0 if s == 1 else i for i, s in zip(idx, s_shape)]
            out.append(values[_flatten(sidx, s_shape)])
        self._set(op.vector, out)

    def _vector_step(self, op: Operation) -> None:
        n = _count(_shape(op.result.type))
        self._set(op.result, [self.index(k) for k in range(n)])

    def _vector_from_elements(self, op: Operation) -> None:
        self._set(op.result, list(op.elements))

    def _vector_shape_cast(self, op: Operation) -> None:
        self._set(op.result, self.of(op.source))

    def _positions(self, op: Operation) -> list[int | SSAValue]:
        dyn = list(op.dynamic_position)
        out: list[int | SSAValue] = []
        for p in op.static_position.get_values():
            out.append(dyn.pop(0) if p == _DYNAMIC else int(p))
        return out

    def _select_index(self, values: list[SSAValue], pos: SSAValue) -> SSAValue:
        """values[pos] for a dynamic `pos`: a select chain (an index outside
        the vector gives the last element: MLIR leaves it undefined)."""
        best = values[-1]
        for k in range(len(values) - 2, -1, -1):
            eq = self.make(
                "arith.cmpi", (pos, self.index(k)), [i1], {"predicate": IntegerAttr(0, i64)}
            ).results[0]
            best = self.make("arith.select", (eq, values[k], best), [values[k].type]).results[0]
        return best

    def _vector_extract(self, op: Operation) -> None:
        src_t = op.vector.type
        shape = _shape(src_t)
        values = self.of(op.vector)
        pos = self._positions(op)
        inner = _count(shape[len(pos) :])
        if all(isinstance(p, int) for p in pos):
            start = _flatten([*pos, *([0] * (len(shape) - len(pos)))], shape) if pos else 0
            picked = values[start : start + inner]
        elif len(pos) == 1 and inner == 1:
            picked = [self._select_index(values, pos[0])]  # type: ignore[arg-type]
        else:
            self.fail("vector.extract at several dynamic positions is not supported by xgpu-run")
        if isinstance(op.result.type, VectorType):
            self._set(op.result, picked)
        else:
            op.result.replace_all_uses_with(picked[0])

    def _vector_insert(self, op: Operation) -> None:
        shape = _shape(op.dest.type)
        values = list(self.of(op.dest))
        pos = self._positions(op)
        src = op.source
        new = self.of(src) if isinstance(src.type, VectorType) else [src]
        if all(isinstance(p, int) for p in pos):
            start = _flatten([*pos, *([0] * (len(shape) - len(pos)))], shape) if pos else 0
            values[start : start + len(new)] = new
        elif len(pos) == 1 and len(new) == 1 and len(shape) == 1:
            p = pos[0]
            for k in range(len(values)):
                eq = self.make(
                    "arith.cmpi", (p, self.index(k)), [i1], {"predicate": IntegerAttr(0, i64)}
                ).results[0]
                values[k] = self.make(
                    "arith.select", (eq, new[0], values[k]), [values[k].type]
                ).results[0]
        else:
            self.fail("vector.insert at several dynamic positions is not supported by xgpu-run")
        self._set(op.result, values)

    def _vector_shuffle(self, op: Operation) -> None:
        a = self._rows(op.v1)
        b = self._rows(op.v2)
        both = a + b
        out: list[SSAValue] = []
        for m in op.mask.get_values():
            m = int(m)
            if m < 0:  # poison: any value of the right type
                out.extend(both[0])
            else:
                out.extend(both[m])
        self._set(op.result, out)

    def _rows(self, v: SSAValue) -> list[list[SSAValue]]:
        """A vector's leading-dimension slices (its elements for 1-D)."""
        if not isinstance(v.type, VectorType):
            return [[v]]
        values = self.of(v)
        shape = _shape(v.type)
        size = _count(shape[1:])
        return [values[i : i + size] for i in range(0, len(values), size)]

    def _vector_interleave(self, op: Operation) -> None:
        a, b = self._lanes(op.lhs), self._lanes(op.rhs)
        out: list[SSAValue] = []
        for ra, rb in zip(a, b, strict=True):
            for x, y in zip(ra, rb, strict=True):
                out += [x, y]
        self._set(op.result, out)

    def _vector_deinterleave(self, op: Operation) -> None:
        rows = self._lanes(op.source)
        evens: list[SSAValue] = []
        odds: list[SSAValue] = []
        for r in rows:
            evens += r[0::2]
            odds += r[1::2]
        self._set(op.res1, evens)
        self._set(op.res2, odds)

    def _lanes(self, v: SSAValue) -> list[list[SSAValue]]:
        """A vector's trailing-dimension rows."""
        values = self.of(v)
        last = _shape(v.type)[-1] if _shape(v.type) else 1
        return [values[i : i + last] for i in range(0, len(values), last)]

    def _vector_reduction(self, op: Operation) -> None:
        kind = _kind(op.kind)
        t = op.dest.type
        values = self.of(op.vector)
        name = _COMBINE.get(kind)
        if name is None:
            name = (
                ("arith.addf" if kind == "add" else "arith.mulf")
                if isinstance(t, AnyFloat)
                else ("arith.addi" if kind == "add" else "arith.muli")
            )
        acc = op.acc if op.acc is not None else None
        items = ([acc] if acc is not None else []) + values
        result = items[0]
        for v in items[1:]:
            result = self.make(name, (result, v), [t]).results[0]
        op.dest.replace_all_uses_with(result)

    # -- memory ------------------------------------------------------------- #

    def _consecutive(self, base: SSAValue, indices: list[SSAValue], n: int) -> list[list[SSAValue]]:
        out = []
        for k in range(n):
            last = (
                indices[-1]
                if k == 0
                else self.make("arith.addi", (indices[-1], self.index(k)), [IndexType()]).results[0]
            )
            out.append([*indices[:-1], last])
        return out

    def _one_d(self, t: VectorType, what: str) -> int:
        shape = _shape(t)
        if len(shape) != 1:
            self.fail(f"{what} of a vector of rank {len(shape)} is not supported by xgpu-run")
        return shape[0]

    def _vector_load(self, op: Operation) -> None:
        n = self._one_d(op.result.type, "vector.load")
        t = op.result.type.element_type
        if not op.indices:
            self.fail("vector.load of a rank-0 memref is not supported by xgpu-run")
        self._set(
            op.result,
            [
                self.make("memref.load", (op.base, *idx), [t]).results[0]
                for idx in self._consecutive(op.base, list(op.indices), n)
            ],
        )

    def _vector_store(self, op: Operation) -> None:
        n = self._one_d(op.vector.type, "vector.store")
        if not op.indices:
            self.fail("vector.store to a rank-0 memref is not supported by xgpu-run")
        values = self.of(op.vector)
        for v, idx in zip(values, self._consecutive(op.base, list(op.indices), n), strict=True):
            self.make("memref.store", (v, op.base, *idx))

    def _transfer_checks(self, op: Operation, vector_t: VectorType) -> tuple[int, bool]:
        n = self._one_d(vector_t, op.name)
        if op.mask is not None:
            self.fail(f"{op.name} with a mask is not supported by xgpu-run")
        amap = op.permutation_map.data
        rank = len(op.indices)
        if (
            rank == 0
            or amap.num_dims != rank
            or len(amap.results) != 1
            or str(amap.results[0]) != f"d{rank - 1}"
        ):
            self.fail(f"{op.name} other than along the memref's last dimension is not supported")
        in_bounds = op.in_bounds
        known = isinstance(in_bounds, ArrayAttr) and all(
            isinstance(b, IntegerAttr) and b.value.data != 0 for b in in_bounds.data
        )
        return n, known

    def _bound(self, base: SSAValue, rank: int) -> SSAValue:
        d = self.index(rank - 1)
        return self.make("memref.dim", (base, d), [IndexType()]).results[0]

    def _vector_transfer_read(self, op: Operation) -> None:
        vt = op.result.type
        n, known = self._transfer_checks(op, vt)
        t = vt.element_type
        idxs = self._consecutive(op.source, list(op.indices), n)
        if known:
            self._set(
                op.result, [self.make("memref.load", (op.source, *i), [t]).results[0] for i in idxs]
            )
            return
        bound = self._bound(op.source, len(op.indices))
        out = []
        for i in idxs:
            inside = self.make(
                "arith.cmpi", (i[-1], bound), [i1], {"predicate": IntegerAttr(6, i64)}
            ).results[0]  # ult
            then, other = Block(), Block()
            loaded = self.make("memref.load", (op.source, *i), [t], into=then).results[0]
            self.make("scf.yield", (loaded,), into=then)
            self.make("scf.yield", (op.padding,), into=other)
            sel = self.make("scf.if", (inside,), [t], regions=[Region(then), Region(other)])
            out.append(sel.results[0])
        self._set(op.result, out)

    def _vector_transfer_write(self, op: Operation) -> None:
        if op.results:
            self.fail("vector.transfer_write to a tensor is not supported by xgpu-run")
        vt = op.vector.type
        n, known = self._transfer_checks(op, vt)
        values = self.of(op.vector)
        idxs = self._consecutive(op.source, list(op.indices), n)
        bound = None if known else self._bound(op.source, len(op.indices))
        for v, i in zip(values, idxs, strict=True):
            if bound is None:
                self.make("memref.store", (v, op.source, *i))
                continue
            inside = self.make(
                "arith.cmpi", (i[-1], bound), [i1], {"predicate": IntegerAttr(6, i64)}
            ).results[0]
            then = Block()
            self.make("memref.store", (v, op.source, *i), into=then)
            self.make("scf.yield", (), into=then)
            self.make("scf.if", (inside,), [], regions=[Region(then), Region()])


#: vector.reduction kinds -> the arith op (add and mul by element type)
_COMBINE = {
    "minui": "arith.minui",
    "minsi": "arith.minsi",
    "maxui": "arith.maxui",
    "maxsi": "arith.maxsi",
    "minnumf": "arith.minnumf",
    "maxnumf": "arith.maxnumf",
    "minimumf": "arith.minimumf",
    "maximumf": "arith.maximumf",
    "and": "arith.andi",
    "or": "arith.ori",
    "xor": "arith.xori",
}


def _kind(attr: Attribute) -> str:
    found = re.search(r"<(\w+)>", str(attr))
    return found.group(1) if found else str(attr)


def _flatten(idx: Sequence[int], shape: Sequence[int]) -> int:
    flat = 0
    for i, s in zip(idx, shape, strict=True):
        flat = flat * s + i
    return flat


def _unflatten(flat: int, shape: Sequence[int]) -> list[int]:
    out = []
    for s in reversed(shape):
        out.append(flat % s)
        flat //= s
    return list(reversed(out))
