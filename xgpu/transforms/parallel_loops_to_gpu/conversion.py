"""One application of MLIR's `ParallelToGpuLaunchLowering` to a mapped
`scf.parallel` nest (`_Conversion`): the `gpu.launch` it builds, the sizes
and indices of mapped dimensions, sequential dimensions, reductions, the
side-effect checks, rollback and commit."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import affine, arith
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    ArrayAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    Signedness,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr
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
from xgpu.transforms.eliminate_barriers import WRITE, is_memory_effect_free, mlir_effects
from xgpu.transforms.parallel_loops_to_gpu.affine_exprs import LOWER_AND_STEP, TRIP_COUNT, compose
from xgpu.transforms.parallel_loops_to_gpu.alias import _touches_written_memory
from xgpu.transforms.parallel_loops_to_gpu.common import (
    _constant_index,
    _defining_op,
    _is_ancestor,
    _is_arith_constant,
    _type_text,
    _uses_values_defined_above,
    _value_region,
)

MAPPING_ATTR = "mapping"
VISITED_ATTR = "SCFToGPU_visited"

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


_SENTINEL = object()


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
