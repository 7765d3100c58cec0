"""`convert-parallel-loops-to-gpu`: mapped `scf.parallel` nests become `gpu.launch` ops.

What `mlir-opt --convert-parallel-loops-to-gpu` (MLIR 22, SCFToGPU) does, on
the same ops. Every `scf.parallel` with a `mapping` attribute (as
`gpu-map-parallel-loops` writes it) and no enclosing `scf.parallel`, anywhere
in the module, is replaced by a `gpu.launch` built in front of it:

* `%c1 = arith.constant 1 : index` is the size of every grid and block
  dimension no loop is mapped to;
* a dimension mapped to a hardware id (`block_x` ... `thread_z`) gets, before
  the launch, its size `affine.apply BOUND∘((d0 - s0) ceildiv s1)(ub)[lb, step]`
  and, in the body, its index `affine.apply MAP∘(d0 * s0 + s1)(id)[step, lb]`
  (MAP and BOUND are the `map` and `bound` of its `#gpu.loop_dim_map`);
* a `sequential` dimension becomes an `scf.for` in the body;
* the `scf.parallel` ops directly in the body are mapped the same way (their
  sizes are computed before the launch: bounds must be defined outside the
  launch or be constants, which are copied there); an upper bound computed
  inside the nest is replaced by a static bound derived from an `arith.constant`
  index, a constant result of `affine.min`, `arith.minsi` of those or
  `arith.muli` of two of those of the same sign, and the body is guarded by
  `scf.if %index < %ub`;
* the other ops of the bodies are copied in. Side effects (MLIR's
  `isMemoryEffectFree`; an op with regions counts as one) are checked as MLIR
  22 checks them (llvm/llvm-project#164978): a copied op that writes memory it
  does not name (`gpu.printf`, `vector.print`, `cf.assert`) makes the
  conversion fail; after a side effect, a nested `scf.parallel` in which any
  op (at any depth) reads or writes memory that LocalAliasAnalysis does not
  prove distinct from memory written so far (the memrefs of the copies'
  write effects; ops without an effect interface, like `scf.for` or
  `func.call`, record nothing), or memory it does not name, makes it fail;
  after leaving an `scf.for`/`scf.if` scope, any side effect makes it fail;
* a loop with one reduction (`scf.reduce` of a signless integer or float whose
  region uses no outer value) yields a `gpu.all_reduce` with that region
  (`scf.reduce.return` becomes `gpu.yield`); its initial value is not used, as
  in MLIR;
* the discardable attributes of the loops but `mapping` go onto the launch,
  with `SCFToGPU_visited` (set on the outermost loop).

LocalAliasAnalysis, as reproduced here: values are followed through views
and `scf.if`/`scf.for` results and iteration arguments; equal values alias;
two allocations (`memref.alloc`, `memref.alloca`, `gpu.alloc`) do not; an
allocation does not alias a value defined outside its allocation scope (the
enclosing function, or for `memref.alloca` the enclosing automatic allocation
scope) nor an entry argument of that scope; anything else may alias
(`llvm.noalias` plays no part).

A loop nest that cannot be converted is left as it is (MLIR's pattern fails
and its changes are rolled back): a mapping entry that is not a
`#gpu.loop_dim_map` (reported: "expected mapping attribute for lowering to
GPU"), a `mapping` that is not an array, more than one reduction, two
dimensions mapped to one hardware id, a bound that cannot be computed before
the launch, a side effect where it is not allowed, or a copied op that holds a
mapped `scf.parallel` (MLIR's conversion driver does not apply the pattern
again inside its own rewrite).

Where mlir-opt 22 fails after converting, xgpu reports an error instead:
a result of the outermost `scf.parallel` that is still used ("failed to
legalize unresolved materialization ...", as MLIR), and an induction variable
with no mapping entry that is used (MLIR: "null operand found").
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from io import StringIO

from xdsl.context import Context
from xdsl.dialects import affine, arith
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    ArrayAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    Signedness,
    UnitAttr,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)
from xdsl.passes import ModulePass
from xdsl.printer import Printer
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import IsTerminator
from xdsl.utils.hints import isa

from xgpu import diagnostics
from xgpu.dialects import scf
from xgpu.dialects.affine.simple import ApplyOp as XApplyOp
from xgpu.dialects.gpu.attributes import LoopDimMapAttr, Processor
from xgpu.dialects.gpu.launch import LaunchOp, TerminatorOp
from xgpu.dialects.gpu.subgroup import AllReduceOp
from xgpu.dialects.gpu.subgroup import YieldOp as GpuYieldOp
from xgpu.transforms.constants import constant_value
from xgpu.transforms.eliminate_barriers import (
    READ,
    WRITE,
    is_memory_effect_free,
    mlir_effects,
)

MAPPING_ATTR = "mapping"
VISITED_ATTR = "SCFToGPU_visited"

# --------------------------------------------------------------------------- #
# Affine expressions built as MLIR builds them (with its simplifications)     #
# --------------------------------------------------------------------------- #

_ADD, _MUL = AffineBinaryOpKind.Add, AffineBinaryOpKind.Mul
_FLOORDIV, _CEILDIV, _MOD = (
    AffineBinaryOpKind.FloorDiv,
    AffineBinaryOpKind.CeilDiv,
    AffineBinaryOpKind.Mod,
)


def _const(value: int) -> AffineExpr:
    return AffineConstantExpr(value)


def _is_const(expr: AffineExpr, value: int | None = None) -> bool:
    return isinstance(expr, AffineConstantExpr) and (value is None or expr.value == value)


def _bin(expr: AffineExpr, kind: AffineBinaryOpKind) -> AffineBinaryOpExpr | None:
    return expr if isinstance(expr, AffineBinaryOpExpr) and expr.kind == kind else None


def _symbolic_or_constant(expr: AffineExpr) -> bool:
    if isinstance(expr, AffineDimExpr):
        return False
    if isinstance(expr, AffineBinaryOpExpr):
        return _symbolic_or_constant(expr.lhs) and _symbolic_or_constant(expr.rhs)
    return True


def _largest_known_divisor(expr: AffineExpr) -> int:
    if isinstance(expr, AffineDimExpr | AffineSymExpr):
        return 1
    if isinstance(expr, AffineConstantExpr):
        return abs(expr.value)
    assert isinstance(expr, AffineBinaryOpExpr)
    if expr.kind in (_FLOORDIV, _CEILDIV):
        if isinstance(expr.rhs, AffineConstantExpr) and expr.rhs.value != 0:
            lhs = _largest_known_divisor(expr.lhs)
            if lhs % expr.rhs.value == 0:
                return abs(lhs // expr.rhs.value)
        return 1
    if expr.kind == _MUL:
        return _largest_known_divisor(expr.lhs) * _largest_known_divisor(expr.rhs)
    return math.gcd(_largest_known_divisor(expr.lhs), _largest_known_divisor(expr.rhs))


def _floor_div(a: int, b: int) -> int:
    return a // b


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def add(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    """`lhs + rhs` with MLIR's simplifications."""
    if _is_const(lhs) and _is_const(rhs):
        return _const(lhs.value + rhs.value)  # type: ignore[attr-defined]
    if _is_const(lhs) or (_symbolic_or_constant(lhs) and not _symbolic_or_constant(rhs)):
        return add(rhs, lhs)
    if _is_const(rhs, 0):
        return lhs
    lbin = lhs if isinstance(lhs, AffineBinaryOpExpr) else None
    if lbin is not None and lbin.kind == _ADD and _is_const(rhs) and _is_const(lbin.rhs):
        return add(lbin.lhs, _const(lbin.rhs.value + rhs.value))  # type: ignore[attr-defined]
    lmul = _bin(lhs, _MUL)
    if lmul is not None and _is_const(lmul.rhs):
        first, first_coeff = lmul.lhs, lmul.rhs.value  # type: ignore[attr-defined]
    else:
        first, first_coeff = lhs, 1
    rmul = _bin(rhs, _MUL)
    if rmul is not None and _is_const(rmul.rhs):
        second, second_coeff = rmul.lhs, rmul.rhs.value  # type: ignore[attr-defined]
    else:
        second, second_coeff = rhs, 1
    if first == second:
        return AffineBinaryOpExpr(_MUL, first, _const(first_coeff + second_coeff))
    if lbin is not None and lbin.kind == _ADD and _is_const(lbin.rhs):
        return add(add(lbin.lhs, rhs), lbin.rhs)
    if rmul is None:
        return AffineBinaryOpExpr(_ADD, lhs, rhs)
    # `expr - q * (expr floordiv q)` and `expr + (expr floordiv c) * -c` -> `expr mod q`.
    lrhs, rrhs = rmul.lhs, rmul.rhs
    lrhs_mul = _bin(lrhs, _MUL)
    if _is_const(rrhs, -1) and lrhs_mul is not None:
        div = _bin(lrhs_mul.lhs, _FLOORDIV)
        if div is None:
            return AffineBinaryOpExpr(_ADD, lhs, rhs)
        if div.rhs == lrhs_mul.rhs and lhs == div.lhs:
            return mod(lhs, lrhs_mul.rhs)
    div = _bin(lrhs, _FLOORDIV)
    if div is not None and lhs == div.lhs and div.rhs == mul(rrhs, _const(-1)):
        return mod(lhs, div.rhs)
    return AffineBinaryOpExpr(_ADD, lhs, rhs)


def mul(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    """`lhs * rhs` with MLIR's simplifications (one side must be symbolic)."""
    if _is_const(lhs) and _is_const(rhs):
        return _const(lhs.value * rhs.value)  # type: ignore[attr-defined]
    if not _symbolic_or_constant(lhs) and not _symbolic_or_constant(rhs):
        raise ValueError("non-affine product of two dimension expressions")
    if not _symbolic_or_constant(rhs) or _is_const(lhs):
        return mul(rhs, lhs)
    if _is_const(rhs, 1):
        return lhs
    if _is_const(rhs, 0):
        return rhs
    lbin = _bin(lhs, _MUL)
    if lbin is not None and _is_const(rhs) and _is_const(lbin.rhs):
        return mul(lbin.lhs, _const(lbin.rhs.value * rhs.value))  # type: ignore[attr-defined]
    if lbin is not None and _is_const(lbin.rhs):
        return mul(mul(lbin.lhs, rhs), lbin.rhs)
    return AffineBinaryOpExpr(_MUL, lhs, rhs)


def floor_div(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    if not _is_const(rhs) or rhs.value < 1:  # type: ignore[attr-defined]
        return AffineBinaryOpExpr(_FLOORDIV, lhs, rhs)
    divisor = rhs.value  # type: ignore[attr-defined]
    if _is_const(lhs):
        return _const(_floor_div(lhs.value, divisor))  # type: ignore[attr-defined]
    if divisor == 1:
        return lhs
    lmul = _bin(lhs, _MUL)
    if lmul is not None and _is_const(lmul.rhs) and lmul.rhs.value % divisor == 0:  # type: ignore[attr-defined]
        return mul(lmul.lhs, _const(lmul.rhs.value // divisor))  # type: ignore[attr-defined]
    ladd = _bin(lhs, _ADD)
    if ladd is not None and (
        _largest_known_divisor(ladd.lhs) % divisor == 0
        or _largest_known_divisor(ladd.rhs) % divisor == 0
    ):
        return add(floor_div(ladd.lhs, rhs), floor_div(ladd.rhs, rhs))
    return AffineBinaryOpExpr(_FLOORDIV, lhs, rhs)


def ceil_div(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    if not _is_const(rhs) or rhs.value < 1:  # type: ignore[attr-defined]
        return AffineBinaryOpExpr(_CEILDIV, lhs, rhs)
    divisor = rhs.value  # type: ignore[attr-defined]
    if _is_const(lhs):
        return _const(_ceil_div(lhs.value, divisor))  # type: ignore[attr-defined]
    if divisor == 1:
        return lhs
    lmul = _bin(lhs, _MUL)
    if lmul is not None and _is_const(lmul.rhs) and lmul.rhs.value % divisor == 0:  # type: ignore[attr-defined]
        return mul(lmul.lhs, _const(lmul.rhs.value // divisor))  # type: ignore[attr-defined]
    return AffineBinaryOpExpr(_CEILDIV, lhs, rhs)


def mod(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr:
    if not _is_const(rhs) or rhs.value < 1:  # type: ignore[attr-defined]
        return AffineBinaryOpExpr(_MOD, lhs, rhs)
    divisor = rhs.value  # type: ignore[attr-defined]
    if _is_const(lhs):
        return _const(lhs.value % divisor)  # type: ignore[attr-defined]
    if _largest_known_divisor(lhs) % divisor == 0:
        return _const(0)
    ladd = _bin(lhs, _ADD)
    if ladd is not None:
        if _largest_known_divisor(ladd.lhs) % divisor == 0:
            return mod(ladd.rhs, rhs)
        if _largest_known_divisor(ladd.rhs) % divisor == 0:
            return mod(ladd.lhs, rhs)
    lmod = _bin(lhs, _MOD)
    if lmod is not None and _is_const(lmod.rhs):
        inner = lmod.rhs.value  # type: ignore[attr-defined]
        if inner >= 1 and inner % divisor == 0:
            return mod(lmod.lhs, rhs)
    return AffineBinaryOpExpr(_MOD, lhs, rhs)


_BUILDERS = {_ADD: add, _MUL: mul, _FLOORDIV: floor_div, _CEILDIV: ceil_div, _MOD: mod}


def replace_dims_and_symbols(
    expr: AffineExpr, dims: Sequence[AffineExpr], symbols: Sequence[AffineExpr]
) -> AffineExpr:
    """MLIR's `AffineExpr::replaceDimsAndSymbols` (rebuilt subexpressions are simplified)."""
    if isinstance(expr, AffineDimExpr):
        return dims[expr.position] if expr.position < len(dims) else expr
    if isinstance(expr, AffineSymExpr):
        return symbols[expr.position] if expr.position < len(symbols) else expr
    if isinstance(expr, AffineConstantExpr):
        return expr
    assert isinstance(expr, AffineBinaryOpExpr)
    lhs = replace_dims_and_symbols(expr.lhs, dims, symbols)
    rhs = replace_dims_and_symbols(expr.rhs, dims, symbols)
    if lhs == expr.lhs and rhs == expr.rhs:
        return expr
    return _BUILDERS[expr.kind](lhs, rhs)


def compose(outer: AffineMap, inner: AffineMap) -> AffineMap:
    """MLIR's `outer.compose(inner)`: `outer`'s symbols come first."""
    num_dims = inner.num_dims
    num_symbols = outer.num_symbols + inner.num_symbols
    new_dims = [AffineDimExpr(i) for i in range(num_dims)]
    new_symbols = [AffineSymExpr(i) for i in range(outer.num_symbols, num_symbols)]
    inner_results = [replace_dims_and_symbols(e, new_dims, new_symbols) for e in inner.results]
    results = tuple(replace_dims_and_symbols(e, inner_results, ()) for e in outer.results)
    return AffineMap(num_dims, num_symbols, results)


_D0, _S0, _S1 = AffineDimExpr(0), AffineSymExpr(0), AffineSymExpr(1)
# id * step + lb, and (ub - lb) ceildiv step.
LOWER_AND_STEP = AffineMap(1, 2, (add(mul(_D0, _S0), _S1),))
TRIP_COUNT = AffineMap(1, 2, (ceil_div(add(_D0, mul(_S0, _const(-1))), _S1),))

# --------------------------------------------------------------------------- #
# The conversion                                                              #
# --------------------------------------------------------------------------- #

_LAUNCH_ARGUMENT = {
    Processor.BLOCK_X: 0,
    Processor.BLOCK_Y: 1,
    Processor.BLOCK_Z: 2,
    Processor.THREAD_X: 3,
    Processor.THREAD_Y: 4,
    Processor.THREAD_Z: 5,
}


class _Failed(Exception):
    """The pattern does not apply; everything it built is rolled back."""


def _defining_op(value: SSAValue) -> Operation | None:
    return value.owner if isinstance(value, OpResult) else None


def _is_arith_constant(value: SSAValue) -> bool:
    return isinstance(_defining_op(value), arith.ConstantOp)


def _constant_index(value: SSAValue | None) -> int | None:
    """The value of an `arith.constant` of index type defining `value`."""
    if value is None:
        return None
    op = _defining_op(value)
    if (
        isinstance(op, arith.ConstantOp)
        and isinstance(op.result.type, IndexType)
        and isinstance(op.value, IntegerAttr)
    ):
        return op.value.value.data
    return None


def _value_region(value: SSAValue) -> Region | None:
    if isinstance(value, BlockArgument):
        return value.block.parent
    assert isinstance(value, OpResult)
    return value.owner.parent_region()


def _is_ancestor(region: Region, other: Region | None) -> bool:
    """MLIR's `region.isAncestor(other)` (a region is its own ancestor)."""
    while other is not None:
        if other is region:
            return True
        parent = other.parent
        other = parent.parent_region() if parent is not None else None
    return False


def _uses_values_defined_above(region: Region) -> bool:
    for op in region.walk():
        for operand in op.operands:
            owner_region = _value_region(operand)
            if owner_region is None or not _is_ancestor(region, owner_region):
                return True
    return False


def _type_text(attr: Attribute) -> str:
    stream = StringIO()
    Printer(stream=stream).print_attribute(attr)
    return stream.getvalue()


_SENTINEL = object()

# --------------------------------------------------------------------------- #
# MLIR's LocalAliasAnalysis (what the nested-loop check uses)                 #
# --------------------------------------------------------------------------- #

_VIEW_LIKE = frozenset(
    {
        "memref.cast",
        "memref.subview",
        "memref.view",
        "memref.reinterpret_cast",
        "memref.expand_shape",
        "memref.collapse_shape",
        "memref.transpose",
        "memref.memory_space_cast",
        "memref.assume_alignment",
    }
)
_AUTOMATIC_ALLOCATION_SCOPES = frozenset(
    {
        "func.func",
        "gpu.func",
        "llvm.func",
        "gpu.launch",
        "scf.parallel",
        "scf.forall",
        "affine.for",
        "affine.parallel",
        "memref.alloca_scope",
    }
)
_FUNCTIONS = frozenset({"func.func", "gpu.func", "llvm.func"})
_MAX_DEPTH = 10


def _underlying_values(
    value: SSAValue, depth: int, visited: set[SSAValue], out: list[SSAValue]
) -> None:
    """The values `value` may be (through views, scf.if/scf.for results and
    loop-carried arguments), as LocalAliasAnalysis collects them."""
    if value in visited:
        return
    visited.add(value)
    if depth >= _MAX_DEPTH:
        out.append(value)
        return
    op = _defining_op(value)
    sources: list[SSAValue] | None = None
    if op is not None:
        index = value.index  # type: ignore[attr-defined]
        if op.name in _VIEW_LIKE and op.operands:
            sources = [op.operands[0]]
        elif isinstance(op, scf.IfOp):
            sources = [
                term.operands[index]
                for region in op.regions
                for block in region.blocks
                if (term := block.last_op) is not None and index < len(term.operands)
            ]
        elif isinstance(op, scf.ForOp):
            sources = [op.iter_args[index]]
            if (term := op.body.block.last_op) is not None:
                sources.append(term.operands[index])
    elif isinstance(value, BlockArgument):
        owner = value.block.parent_op()
        if isinstance(owner, scf.ForOp) and value.index > 0:
            carried = value.index - 1
            sources = [owner.iter_args[carried]]
            if (term := owner.body.block.last_op) is not None:
                sources.append(term.operands[carried])
    if sources is None:
        out.append(value)
        return
    for source in sources:
        _underlying_values(source, depth + 1, visited, out)


def _allocation_scope(value: SSAValue) -> tuple[bool, Operation | None]:
    """Whether `value` is allocated by its defining op, and the op bounding the
    allocation (MLIR's getAllocEffectFor)."""
    op = _defining_op(value)
    if op is None:
        return False, None
    effects = mlir_effects(op)
    if not effects or not any(e.kind == "allocate" and e.value is value for e in effects):
        return False, None
    automatic = op.name == "memref.alloca"
    scope = op.parent_op()
    while scope is not None:
        if scope.name in (_AUTOMATIC_ALLOCATION_SCOPES if automatic else _FUNCTIONS):
            break
        scope = scope.parent_op()
    return True, scope


def _is_proper_ancestor(op: Operation, other: Operation) -> bool:
    current = other.parent_op()
    while current is not None:
        if current is op:
            return True
        current = current.parent_op()
    return False


def _no_alias_impl(lhs: SSAValue, rhs: SSAValue) -> bool:
    if lhs is rhs:
        return False
    lhs_const = constant_like(lhs)
    rhs_const = constant_like(rhs)
    if lhs_const or rhs_const:
        if lhs_const and rhs_const:
            return False
        return _allocation_scope(rhs if lhs_const else lhs)[0]
    lhs_alloc, lhs_scope = _allocation_scope(lhs)
    rhs_alloc, rhs_scope = _allocation_scope(rhs)
    if lhs_alloc == rhs_alloc:
        return lhs_alloc
    if rhs_alloc:
        lhs, rhs, lhs_scope = rhs, lhs, rhs_scope
    if lhs_scope is not None:
        region = _value_region(rhs)
        rhs_parent = region.parent if region is not None else None
        if rhs_parent is not None:
            if _is_proper_ancestor(rhs_parent, lhs_scope):
                return True
            if (
                rhs_parent is lhs_scope
                and isinstance(rhs, BlockArgument)
                and rhs.block is rhs.block.parent.first_block  # type: ignore[union-attr]
            ):
                return True
    return False


def no_alias(lhs: SSAValue, rhs: SSAValue) -> bool:
    """Whether MLIR's LocalAliasAnalysis answers NoAlias for two memrefs."""
    if lhs is rhs:
        return False
    lhs_values: list[SSAValue] = []
    rhs_values: list[SSAValue] = []
    _underlying_values(lhs, 0, set(), lhs_values)
    _underlying_values(rhs, 0, set(), rhs_values)
    if not lhs_values or not rhs_values:
        return False
    return all(_no_alias_impl(a, b) for a in lhs_values for b in rhs_values)


def constant_like(value: SSAValue) -> bool:
    op = _defining_op(value)
    return op is not None and constant_value(op) is not None


def _touches_written_memory(loop: scf.ParallelOp, written: Sequence[SSAValue]) -> bool:
    """Whether an op of `loop` (at any depth) reads or writes memory that may
    alias one of `written`, or memory it does not name."""
    for op in loop.walk():
        if is_memory_effect_free(op):
            continue
        for effect in mlir_effects(op) or ():
            if effect.kind not in (READ, WRITE):
                continue
            if effect.value is None:
                return True
            if any(not no_alias(effect.value, w) for w in written):
                return True
    return False


@dataclass(eq=False)
class _Conversion:
    """One application of MLIR's `ParallelToGpuLaunchLowering` to `root`."""

    root: scf.ParallelOp

    def __post_init__(self) -> None:
        self.before_launch: list[Operation] = []
        self.cloning: dict[SSAValue, SSAValue] = {}
        self.bounds: dict[Processor, SSAValue] = {}
        self.worklist: list[object] = []
        self.unmapped_used: list[tuple[scf.ParallelOp, int]] = []
        one = arith.ConstantOp(IntegerAttr(1, IndexType()))
        Rewriter.insert_op(one, _before(self.root))
        self.before_launch.append(one)
        self.launch = LaunchOp([one] * 3, [one] * 3)
        Rewriter.insert_op(self.launch, _before(self.root))
        body = self.launch.body.block
        terminator = TerminatorOp()
        body.add_op(terminator)
        self.anchor: Operation = terminator

    # --- building ----------------------------------------------------------

    def insert(self, op: Operation) -> Operation:
        """Insert at the current insertion point (before the anchor)."""
        Rewriter.insert_op(op, _before(self.anchor))
        return op

    def insert_before_launch(self, op: Operation) -> Operation:
        Rewriter.insert_op(op, _before(self.launch))
        self.before_launch.append(op)
        return op

    def lookup(self, value: SSAValue) -> SSAValue:
        return self.cloning.get(value, value)

    def launch_independent(self, value: SSAValue) -> bool:
        region = _value_region(value)
        return region is not None and _is_ancestor(region, self.launch.parent_region())

    def ensure_launch_independent(self, value: SSAValue, before_launch: bool) -> SSAValue | None:
        if self.launch_independent(value):
            return value
        op = _defining_op(value)
        if isinstance(op, arith.ConstantOp):
            copy = arith.ConstantOp(op.value, op.result.type)
            if before_launch:
                self.insert_before_launch(copy)
            else:
                self.insert(copy)
            return copy.result
        return None

    def derive_static_upper_bound(self, value: SSAValue) -> SSAValue | None:
        op = _defining_op(value)
        if _constant_index(value) is not None:
            return value
        if isinstance(op, affine.MinOp):
            for result in op.map.data.results:
                if isinstance(result, AffineConstantExpr):
                    const = arith.ConstantOp(IntegerAttr(result.value, IndexType()))
                    return self.insert_before_launch(const).results[0]
        if isinstance(op, arith.MinSIOp):
            for operand in (op.lhs, op.rhs):
                if (bound := self.derive_static_upper_bound(operand)) is not None:
                    return bound
        if isinstance(op, arith.MuliOp):
            lhs = _constant_index(self.derive_static_upper_bound(op.lhs))
            if lhs is not None:
                rhs = _constant_index(self.derive_static_upper_bound(op.rhs))
                if rhs is not None:
                    if (lhs < 0) != (rhs < 0):
                        return None
                    const = arith.ConstantOp(IntegerAttr(lhs * rhs, IndexType()))
                    return self.insert_before_launch(const).results[0]
        return None

    # --- MLIR's processParallelLoop -----------------------------------------

    def process_parallel_loop(self, loop: scf.ParallelOp) -> None:
        mapping = loop.attributes.get(MAPPING_ATTR)
        if not isinstance(mapping, ArrayAttr) or len(loop.res) > 1:
            raise _Failed
        ivs = loop.body.block.args
        configs = zip(mapping.data, ivs, loop.lowerBound, loop.upperBound, loop.step)
        for annotation, iv, lower, upper, step in configs:
            if not isinstance(annotation, LoopDimMapAttr):
                diagnostics.emit(
                    loop,
                    "error",
                    "'scf.parallel' op expected mapping attribute for lowering to GPU",
                )
                raise _Failed
            processor = annotation.processor.data
            if processor != Processor.SEQUENTIAL:
                new_index = self._map_to_processor(loop, annotation, processor, lower, upper, step)
            else:
                loop_op = scf.ForOp(
                    self.lookup(lower),
                    self.lookup(upper),
                    self.lookup(step),
                    [],
                    Region(Block([scf.YieldOp()], arg_types=[IndexType()])),
                )
                self.insert(loop_op)
                new_index = loop_op.body.block.args[0]
                self.anchor = loop_op.body.block.first_op  # type: ignore[assignment]
                self.worklist.append(_SENTINEL)
            self.cloning[iv] = new_index
        for index in range(len(mapping.data), len(ivs)):
            if ivs[index].uses:
                self.unmapped_used.append((loop, index))
        for name, attr in loop.attributes.items():
            if name != MAPPING_ATTR:
                self.launch.attributes[name] = attr
        body = loop.body.block
        terminator = body.last_op
        if isinstance(terminator, scf.ReduceOp) and len(terminator.operands) == 1:
            self.worklist.append(terminator)
        ops = list(body.ops)
        if terminator is not None and terminator.has_trait(IsTerminator):
            ops = ops[:-1]
        self.worklist.extend(reversed(ops))

    def _map_to_processor(
        self,
        loop: scf.ParallelOp,
        annotation: LoopDimMapAttr,
        processor: Processor,
        lower: SSAValue,
        upper: SSAValue,
        step: SSAValue,
    ) -> SSAValue:
        operand = self.launch.body.block.args[_LAUNCH_ARGUMENT[processor]]
        index_map = compose(annotation.map.data, LOWER_AND_STEP)
        step_value = self.ensure_launch_independent(step, False)
        lower_value = self.ensure_launch_independent(lower, False)
        if step_value is None or lower_value is None:
            # MLIR builds the affine.apply with a null operand here, then gives up
            # below (the bound needs the same values).
            raise _Failed
        new_index = self.insert(
            XApplyOp([operand, step_value, lower_value], AffineMapAttr(index_map))
        ).results[0]
        if not self.launch_independent(lower) and not _is_arith_constant(lower):
            raise _Failed
        if not self.launch_independent(step) and not _is_arith_constant(step):
            raise _Failed
        precise = self.launch_independent(upper) or _is_arith_constant(upper)
        bound_value: SSAValue | None = upper
        if not precise:
            bound_value = self.derive_static_upper_bound(upper)
            if bound_value is None:
                raise _Failed
        trip_map = compose(annotation.bound.data, TRIP_COUNT)
        operands = [
            self.ensure_launch_independent(self.lookup(bound_value), True),
            self.ensure_launch_independent(self.lookup(lower), True),
            self.ensure_launch_independent(self.lookup(step), True),
        ]
        if any(o is None for o in operands):
            raise _Failed
        launch_bound = self.insert_before_launch(
            XApplyOp(operands, AffineMapAttr(trip_map))  # type: ignore[arg-type]
        ).results[0]
        if processor in self.bounds:
            raise _Failed
        self.bounds[processor] = launch_bound
        if not precise:
            cond = self.insert(arith.CmpiOp(new_index, self.lookup(upper), "slt"))
            if_op = scf.IfOp(cond, [], Region(Block([scf.YieldOp()])))
            self.insert(if_op)
            self.anchor = if_op.true_region.block.first_op  # type: ignore[assignment]
            self.worklist.append(_SENTINEL)
        return new_index

    # --- MLIR's matchAndRewrite ---------------------------------------------

    def run(self) -> None:
        self.process_parallel_loop(self.root)
        seen_side_effects = False
        left_nesting_scope = False
        written: list[SSAValue] = []
        while self.worklist:
            item = self.worklist.pop()
            if isinstance(item, scf.ParallelOp):
                # Side effects before a nested loop are allowed when nothing the
                # loop reads or writes may alias memory written before it (MLIR
                # compares the copies' memrefs with the nested loop's own).
                if seen_side_effects and _touches_written_memory(item, written):
                    raise _Failed
                self.process_parallel_loop(item)
            elif item is _SENTINEL:
                parent = self.anchor.parent_op()
                assert parent is not None and parent.next_op is not None
                self.anchor = parent.next_op
                left_nesting_scope = True
                seen_side_effects = False
            elif isinstance(item, scf.ReduceOp):
                self._convert_reduction(item)
            else:
                assert isinstance(item, Operation)
                clone = item.clone(value_mapper=dict(self.cloning))
                self.insert(clone)
                for old, new in zip(item.results, clone.results, strict=True):
                    self.cloning[old] = new
                if not is_memory_effect_free(clone):
                    for effect in mlir_effects(clone) or ():
                        if effect.kind == WRITE:
                            if effect.value is None:  # a write to unknown memory
                                raise _Failed
                            written.append(effect.value)
                    seen_side_effects = True
                if clone.regions:
                    seen_side_effects = True
                if seen_side_effects and left_nesting_scope:
                    raise _Failed
        # MLIR's conversion driver legalizes the copied ops: a mapped
        # scf.parallel among them would need the pattern again, inside its own
        # application, which the driver does not allow.
        for nested in self.launch.walk():
            if (
                isinstance(nested, scf.ParallelOp)
                and MAPPING_ATTR in nested.attributes
                and VISITED_ATTR not in nested.attributes
            ):
                raise _Failed

    def _convert_reduction(self, reduce: scf.ReduceOp) -> None:
        parent = reduce.parent_op()
        if not isinstance(parent, scf.ParallelOp) or len(reduce.operands) != 1:
            raise _Failed
        operand = reduce.operands[0]
        new_value = self.cloning.get(operand)
        if new_value is None or not _is_signless_int_or_float(operand.type):
            raise _Failed
        region = reduce.reductions[0]
        if _uses_values_defined_above(region):
            raise _Failed
        body = region.clone()
        block = body.block
        ret = block.last_op
        assert ret is not None
        yield_op = GpuYieldOp([ret.operands[0]])
        Rewriter.replace_op(ret, yield_op, [])
        all_reduce = AllReduceOp(new_value, body=body)
        self.insert(all_reduce)
        self.cloning[parent.results[0]] = all_reduce.results[0]

    def rollback(self) -> None:
        for op in [self.launch, *reversed(self.before_launch)]:
            op.detach()
            op.erase(safe_erase=False)

    def commit(self) -> None:
        operands = list(self.launch.operands)
        for processor, bound in self.bounds.items():
            operands[_LAUNCH_ARGUMENT[processor]] = bound
        self.launch.operands = operands
        root = self.root
        for result in root.results:
            if result.uses:
                user = next(iter(result.uses)).operation
                diagnostics.emit(
                    root,
                    "error",
                    "failed to legalize unresolved materialization from () to "
                    f"({_type_text(result.type)!r}) that remained live after conversion",
                    notes=[(user, "see existing live user here")],
                )
                raise _Failed
        for loop, index in self.unmapped_used:
            diagnostics.emit(
                loop,
                "error",
                f"'scf.parallel' op induction variable #{index} has no entry in `mapping` "
                "but is used (mlir-opt 22 fails here with 'null operand found')",
            )
            raise _Failed
        root.detach()
        root.erase(safe_erase=False)


def _before(op: Operation) -> InsertPoint:
    return InsertPoint.before(op)


def _is_signless_int_or_float(type_: Attribute) -> bool:
    if isinstance(type_, IntegerType):
        return type_.signedness.data == Signedness.SIGNLESS
    return isa(type_, AnyFloat)


def _has_parallel_ancestor(op: Operation) -> bool:
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, scf.ParallelOp):
            return True
        parent = parent.parent_op()
    return False


def convert_parallel_loops(module: ModuleOp) -> None:
    """Convert every mapped `scf.parallel` nest of `module` (in pre-order)."""
    for op in list(module.walk()):
        if not isinstance(op, scf.ParallelOp) or op.parent is None:
            continue
        if MAPPING_ATTR not in op.attributes or VISITED_ATTR in op.attributes:
            continue
        if _has_parallel_ancestor(op):
            continue
        conversion = _Conversion(op)
        op.attributes[VISITED_ATTR] = UnitAttr()
        try:
            conversion.run()
            conversion.commit()
        except _Failed:
            conversion.rollback()
    for op in module.walk():
        if isinstance(op, scf.ParallelOp):
            op.attributes.pop(VISITED_ATTR, None)


@dataclass(frozen=True)
class ConvertParallelLoopsToGpuPass(ModulePass):
    """Convert mapped `scf.parallel` ops to `gpu.launch` ops, as MLIR 22 does."""

    name = "convert-parallel-loops-to-gpu"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        convert_parallel_loops(op)
