"""Affine ops as arith, scf and memref ops, the way xgpu-run executes them.

`xgpu.run` and `xgpu-run` (`xgpu.runtime.api.load`) rewrite a program's
affine ops with `lower_affine` before compiling it, so host code and kernels
on both backends run them without a `lower-affine` pass first. The rewrite
keeps MLIR's semantics (mlir/lib/Conversion/AffineToStandard): a map result
is expanded into index arithmetic, with `mod` non-negative and `floordiv` /
`ceildiv` rounding down / up for a positive divisor, as MLIR's expansion
does; `affine.for` is an `scf.for` from the largest lower bound to the
smallest upper bound; `affine.if` an `scf.if` on the conjunction of its set's
constraints (`e >= 0`, `e == 0`); `affine.parallel` nested `scf.for` loops
(its reductions folded in iteration order from the kind's identity, one of
the orders MLIR allows); `affine.load` / `affine.store` the `memref` ops at
the map's results; `affine.apply`, `affine.min`, `affine.max` their values.
Every op made takes the location of the affine op it replaces, so a fault
(an out-of-bounds `affine.load`, say) names the affine op's line.

`affine.delinearize_index` / `linearize_index` are the index arithmetic of
their basis (floor division and non-negative remainder, innermost first;
an outer basis element, where given, is not used), `affine.vector_load` /
`vector_store` the `vector` ops at the map's results (which
`xgpu.transforms.scalarize_vectors` then runs element by element).

This is not an xgpu-opt pass: mlir-opt's `lower-affine` prints its
expansion in a form of its own (constants per use, its op order), which
xgpu does not promise to match.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xdsl.context import Context
from xdsl.dialects.builtin import (
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    i1,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineConstraintKind,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)
from xdsl.rewriter import Rewriter

from xgpu.dialects.affine.loops import ATOMIC_RMW_KINDS

#: the affine ops `lower_affine` rewrites
LOWERED = frozenset(
    {
        "affine.apply",
        "affine.min",
        "affine.max",
        "affine.load",
        "affine.store",
        "affine.for",
        "affine.if",
        "affine.parallel",
        "affine.delinearize_index",
        "affine.linearize_index",
        "affine.vector_load",
        "affine.vector_store",
    }
)

#: a dynamic entry of a static basis
_DYNAMIC = -(2**63)

# arith.cmpi predicates
_EQ, _SLT, _SLE, _SGT, _SGE = 0, 2, 3, 4, 5


def has_affine(module: ModuleOp) -> bool:
    return any(op.name in LOWERED for op in module.walk())


def lower_affine(ctx: Context, module: ModuleOp) -> None:
    """Rewrite the affine ops of `module` in place (see the module docstring)."""
    # Innermost first: a loop's body is lowered before the loop is.
    ops = [op for op in module.walk() if op.name in LOWERED]
    for op in reversed(ops):
        _Lowering(ctx, op).run()


class _Lowering:
    """The rewrite of one affine op: new ops built before it, then it goes."""

    def __init__(self, ctx: Context, op: Operation):
        self.ctx = ctx
        self.op = op
        self.made: list[Operation] = []

    # -- building ----------------------------------------------------------- #

    def make(
        self,
        name: str,
        operands: Sequence[SSAValue] = (),
        types: Sequence[Attribute] = (),
        properties: dict[str, Attribute] | None = None,
        regions: Sequence[Region] = (),
    ) -> Operation:
        cls = self.ctx.get_op(name)
        new = cls.create(
            operands=list(operands),
            result_types=list(types),
            properties=dict(properties or {}),
            regions=list(regions),
        )
        new.location = self.op.location
        self.made.append(new)
        return new

    def index(self, value: int) -> SSAValue:
        c = self.make(
            "arith.constant", (), [IndexType()], {"value": IntegerAttr(value, IndexType())}
        )
        return c.results[0]

    def binary(self, name: str, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.make(name, (a, b), [a.type]).results[0]

    def cmpi(self, pred: int, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.make("arith.cmpi", (a, b), [i1], {"predicate": IntegerAttr(pred, i64)}).results[
            0
        ]

    def select(self, c: SSAValue, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.make("arith.select", (c, a, b), [a.type]).results[0]

    def expr(self, e: AffineExpr, dims: Sequence[SSAValue], syms: Sequence[SSAValue]) -> SSAValue:
        if isinstance(e, AffineConstantExpr):
            return self.index(e.value)
        if isinstance(e, AffineDimExpr):
            return dims[e.position]
        if isinstance(e, AffineSymExpr):
            return syms[e.position]
        assert isinstance(e, AffineBinaryOpExpr)
        a = self.expr(e.lhs, dims, syms)
        b = self.expr(e.rhs, dims, syms)
        kind = e.kind
        if kind == AffineBinaryOpKind.Add:
            return self.binary("arith.addi", a, b)
        if kind == AffineBinaryOpKind.Mul:
            return self.binary("arith.muli", a, b)
        if kind == AffineBinaryOpKind.Mod:
            return self.mod(a, b)
        if kind == AffineBinaryOpKind.FloorDiv:
            return self.floordiv(a, b)
        # CeilDiv: a <= 0 ? -((-a) / b) : ((a - 1) / b) + 1
        nonpos = self.cmpi(_SLE, a, self.index(0))
        zero, one = self.index(0), self.index(1)
        dividend = self.select(
            nonpos, self.binary("arith.subi", zero, a), self.binary("arith.subi", a, one)
        )
        q = self.binary("arith.divsi", dividend, b)
        return self.select(
            nonpos, self.binary("arith.subi", zero, q), self.binary("arith.addi", q, one)
        )

    def mod(self, a: SSAValue, b: SSAValue) -> SSAValue:
        """a mod b, non-negative for b > 0: r = a rem b; r < 0 ? r + b : r."""
        r = self.binary("arith.remsi", a, b)
        return self.select(self.cmpi(_SLT, r, self.index(0)), self.binary("arith.addi", r, b), r)

    def floordiv(self, a: SSAValue, b: SSAValue) -> SSAValue:
        """a floordiv b for b > 0: a < 0 ? -1 - ((-1 - a) / b) : a / b."""
        neg = self.cmpi(_SLT, a, self.index(0))
        m1 = self.index(-1)
        q = self.binary("arith.divsi", self.select(neg, self.binary("arith.subi", m1, a), a), b)
        return self.select(neg, self.binary("arith.subi", m1, q), q)

    def results(self, amap: AffineMap, operands: Sequence[SSAValue]) -> list[SSAValue]:
        dims, syms = operands[: amap.num_dims], operands[amap.num_dims :]
        return [self.expr(e, dims, syms) for e in amap.results]

    def fold(self, pred: int, values: list[SSAValue]) -> SSAValue:
        """The smallest (`_SLT`) or largest (`_SGT`) of `values`."""
        best = values[0]
        for v in values[1:]:
            best = self.select(self.cmpi(pred, v, best), v, best)
        return best

    # -- the ops ------------------------------------------------------------ #

    def run(self) -> None:
        op = self.op
        handler = getattr(self, "_" + op.name.split(".", 1)[1])
        replacement = handler(op)
        parent = op.parent_block()
        assert parent is not None
        for new in self.made:
            if new.parent is None:
                parent.insert_op_before(new, op)
        if replacement is not None:
            for old, new_value in zip(op.results, replacement, strict=True):
                old.replace_all_uses_with(new_value)
        Rewriter.erase_op(op)

    def _basis(self, op: Any) -> list[SSAValue]:
        """The op's basis: static entries as constants, dynamic ones in order."""
        dynamic = list(op.dynamic_basis)
        out = []
        for b in op.static_basis.get_values():
            out.append(dynamic.pop(0) if int(b) == _DYNAMIC else self.index(int(b)))
        return out

    def _delinearize_index(self, op: Any) -> list[SSAValue]:
        # From the innermost: each result is the rest modulo its basis
        # element, the rest divided by it goes on; the outermost result is
        # what is left (an outer basis element, where given, is not used).
        basis = self._basis(op)
        n = len(op.multi_index)
        inner = basis[len(basis) - (n - 1) :] if n > 1 else []
        rest = op.linear_index
        out: list[SSAValue] = []
        for b in reversed(inner):
            out.append(self.mod(rest, b))
            rest = self.floordiv(rest, b)
        out.append(rest)
        return list(reversed(out))

    def _linearize_index(self, op: Any) -> list[SSAValue]:
        # sum of each index times the product of the basis elements after it
        # (an outer basis element, where given, is not used).
        basis = self._basis(op)
        idx = list(op.multi_index)
        inner = basis[len(basis) - (len(idx) - 1) :] if len(idx) > 1 else []
        total = idx[0] if idx else self.index(0)
        for i, b in zip(idx[1:], inner, strict=True):
            total = self.binary("arith.addi", self.binary("arith.muli", total, b), i)
        return [total]

    def _vector_load(self, op: Any) -> list[SSAValue]:
        idx = self.results(op.map.data, list(op.indices))
        return list(self.make("vector.load", (op.memref, *idx), [op.result.type]).results)

    def _vector_store(self, op: Any) -> list[SSAValue]:
        idx = self.results(op.map.data, list(op.indices))
        self.make("vector.store", (op.value, op.memref, *idx))
        return []

    def _apply(self, op: Any) -> list[SSAValue]:
        return self.results(op.map.data, list(op.mapOperands))

    def _min(self, op: Any) -> list[SSAValue]:
        return [self.fold(_SLT, self.results(op.map.data, list(op.arguments)))]

    def _max(self, op: Any) -> list[SSAValue]:
        return [self.fold(_SGT, self.results(op.map.data, list(op.arguments)))]

    def _load(self, op: Any) -> list[SSAValue]:
        idx = self.results(op.map.data, list(op.indices))
        return list(self.make("memref.load", (op.memref, *idx), [op.result.type]).results)

    def _store(self, op: Any) -> list[SSAValue]:
        idx = self.results(op.map.data, list(op.indices))
        self.make("memref.store", (op.value, op.memref, *idx))
        return []

    def _for(self, op: Any) -> list[SSAValue]:
        lb_map, ub_map = op.lowerBoundMap.data, op.upperBoundMap.data
        lb = self.fold(_SGT, self.results(lb_map, list(op.lowerBoundOperands)))
        ub = self.fold(_SLT, self.results(ub_map, list(op.upperBoundOperands)))
        step = self.index(op.step.value.data)
        body = op.body
        op.detach_region(body)
        _retarget_yields(self, body, "scf.yield")
        loop = self.make(
            "scf.for", (lb, ub, step, *op.inits), [r.type for r in op.results], regions=[body]
        )
        return list(loop.results)

    def _if(self, op: Any) -> list[SSAValue]:
        aset = op.condition.data
        args = list(op.args)
        dims, syms = args[: aset.num_dims], args[aset.num_dims :]
        cond: SSAValue | None = None
        for c in aset.constraints:
            lhs = self.expr(c.lhs, dims, syms)
            rhs = self.expr(c.rhs, dims, syms)
            pred = {
                AffineConstraintKind.ge: _SGE,
                AffineConstraintKind.le: _SLE,
                AffineConstraintKind.eq: _EQ,
            }[c.kind]
            holds = self.cmpi(pred, lhs, rhs)
            cond = holds if cond is None else self.binary("arith.andi", cond, holds)
        if cond is None:
            cond = self.make("arith.constant", (), [i1], {"value": IntegerAttr(1, i1)}).results[0]
        regions = []
        for region in (op.then_region, op.else_region):
            op.detach_region(region)
            _retarget_yields(self, region, "scf.yield")
            regions.append(region)
        new = self.make("scf.if", (cond,), [r.type for r in op.results], regions=regions)
        return list(new.results)

    def _parallel(self, op: Any) -> list[SSAValue]:
        operands = list(op.map_operands)
        lowers = self.results(op.lowerBoundsMap.data, operands)
        uppers = self.results(op.upperBoundsMap.data, operands)
        lower_groups = [int(v) for v in op.lowerBoundsGroups.get_values()]
        upper_groups = [int(v) for v in op.upperBoundsGroups.get_values()]
        lbs = [self.fold(_SGT, g) for g in _split(lowers, lower_groups)]
        ubs = [self.fold(_SLT, g) for g in _split(uppers, upper_groups)]
        steps = [self.index(s.value.data) for s in op.steps]
        kinds = [ATOMIC_RMW_KINDS[int(k.value.data)] for k in op.reductions]
        types = [r.type for r in op.results]
        inits = [self.identity(kind, t) for kind, t in zip(kinds, types, strict=True)]
        body = op.body
        op.detach_region(body)
        block = body.block
        ivs = list(block.args)
        # Nested loops, outermost first; the innermost gets the body's ops.
        outer: Operation | None = None
        parent_block: Block | None = None
        accs: list[SSAValue] = inits
        loops: list[Operation] = []
        for k, (lb, ub, step) in enumerate(zip(lbs, ubs, steps, strict=True)):
            inner = Block(arg_types=[IndexType(), *types])
            loop = self.ctx.get_op("scf.for").create(
                operands=[lb, ub, step, *accs],
                result_types=list(types),
                regions=[Region(inner)],
            )
            loop.location = op.location
            if parent_block is None:
                outer = loop
                self.made.append(loop)
            else:
                parent_block.add_op(loop)
            loops.append(loop)
            ivs[k].replace_all_uses_with(inner.args[0])
            parent_block = inner
            accs = list(inner.args[1:])
        if outer is None:  # no dimensions: the body runs once
            parent_block = None
        yield_op = block.last_op
        assert yield_op is not None
        values = list(yield_op.operands)
        target = parent_block
        if target is None:
            # A zero-dimensional affine.parallel: its body runs once, here.
            for inner_op in list(block.ops)[:-1]:
                inner_op.detach()
                self.made.append(inner_op)
            return [
                self.combine(kind, acc, v, into=None)
                for kind, acc, v in zip(kinds, inits, values, strict=True)
            ]
        for inner_op in list(block.ops)[:-1]:
            inner_op.detach()
            target.add_op(inner_op)
        folded = [
            self.combine(kind, acc, v, into=target)
            for kind, acc, v in zip(kinds, accs, values, strict=True)
        ]
        self._yield(target, folded, op)
        for loop, parent in zip(reversed(loops[:-1]), reversed(loops[1:]), strict=True):
            block_of = loop.regions[0].block
            self._yield(block_of, list(parent.results), op)
        assert outer is not None
        return list(outer.results)

    def _yield(self, block: Block, values: list[SSAValue], op: Operation) -> None:
        y = self.ctx.get_op("scf.yield").create(operands=values)
        y.location = op.location
        block.add_op(y)

    def identity(self, kind: str, t: Attribute) -> SSAValue:
        """The identity of reduction `kind` over `t` (its init value)."""
        if isinstance(t, IntegerType | IndexType):
            width = t.width.data if isinstance(t, IntegerType) else 64
            value = {
                "addi": 0,
                "ori": 0,
                "xori": 0,
                "maxu": 0,
                "muli": 1,
                "andi": -1,
                "minu": -1,
                "maxs": -(1 << (width - 1)),
                "mins": (1 << (width - 1)) - 1,
            }[kind]
            if isinstance(t, IntegerType) and width == 1:
                value = -value if value < 0 else value
            attr: Attribute = IntegerAttr(value, t)
        else:
            inf = float("inf")
            value_f = {
                "addf": 0.0,
                "mulf": 1.0,
                "maximumf": -inf,
                "maxnumf": float("nan"),
                "minimumf": inf,
                "minnumf": float("nan"),
            }[kind]
            attr = FloatAttr(value_f, t)
        return self.make("arith.constant", (), [t], {"value": attr}).results[0]

    def combine(self, kind: str, acc: SSAValue, value: SSAValue, into: Block | None) -> SSAValue:
        name = {
            "maxs": "arith.maxsi",
            "mins": "arith.minsi",
            "maxu": "arith.maxui",
            "minu": "arith.minui",
        }.get(kind, "arith." + kind)
        new = self.ctx.get_op(name).create(operands=[acc, value], result_types=[acc.type])
        new.location = self.op.location
        if into is None:
            self.made.append(new)
        else:
            into.add_op(new)
        return new.results[0]


def _split(values: list[SSAValue], sizes: list[int]) -> list[list[SSAValue]]:
    out, at = [], 0
    for n in sizes:
        out.append(values[at : at + n])
        at += n
    return out


def _retarget_yields(low: _Lowering, region: Region, name: str) -> None:
    """Replace the `affine.yield` terminators of `region`'s blocks (not of
    nested ops) by `name` ops with the same operands; a block without a
    terminator gets an empty one."""
    for block in region.blocks:
        last = block.last_op
        operands: list[SSAValue] = []
        if last is not None and last.name == "affine.yield":
            operands = list(last.operands)
            Rewriter.erase_op(last)
        elif last is not None and last.name == name:
            continue
        y = low.ctx.get_op(name).create(operands=operands)
        y.location = last.location if last is not None else low.op.location
        block.add_op(y)
