"""Values, constants and integer semantics for the arith folders and patterns.

`Folded` (what a folder returns), `defining_op`, `const_attr` (MLIR's
`m_Constant`), the integer helpers that work on the bits of a type's width as
APInt does (`int_width`, `to_signed`, `int_attr`, `int_bits`, ...), the
zero/one/all-ones tests and block inlining, shared with the memref, scf and
index canonicalization modules.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
    VectorType,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from xgpu.ir.splats import splat_value
from xgpu.transforms.constants import constant_value

Folded = Sequence[SSAValue | Attribute] | None

# ---------------------------------------------------------------------------
# Values, constants and integer semantics (shared with the memref and scf
# modules)
# ---------------------------------------------------------------------------


def defining_op(value: SSAValue) -> Operation | None:
    """The op that defines `value` (None for a block argument)."""
    owner = value.owner
    return owner if isinstance(owner, Operation) else None


def const_attr(value: SSAValue) -> Attribute | None:
    """The attribute of the constant-like op defining `value` (MLIR's
    `m_Constant`), or None."""
    owner = value.owner
    if isinstance(owner, Operation):
        return constant_value(owner)
    return None


def element_type(type_: Attribute) -> Attribute:
    """MLIR's `getElementTypeOrSelf`."""
    if isinstance(type_, VectorType | TensorType):
        return type_.get_element_type()
    return type_


def int_width(type_: Attribute) -> int | None:
    """The bit width of an integer or index type (index is 64 bits, as
    `IndexType::kInternalStorageBitWidth`), else None."""
    if isinstance(type_, IntegerType):
        return type_.width.data
    if isinstance(type_, IndexType):
        return 64
    return None


def to_signed(bits: int, width: int) -> int:
    """The two's complement value of the low `width` bits of `bits`."""
    bits &= (1 << width) - 1
    return bits - (1 << width) if width and bits >> (width - 1) else bits


def int_attr(bits: int, type_: Attribute) -> IntegerAttr:
    """An IntegerAttr of `type_` holding the low bits of `bits`, as APInt."""
    width = int_width(type_)
    assert width is not None
    return IntegerAttr(to_signed(bits, width), type_)  # type: ignore[arg-type]


def int_bits(attr: Attribute | None) -> int | None:
    """The bits of a scalar IntegerAttr (MLIR's `APIntAttr`), unsigned."""
    if isinstance(attr, IntegerAttr):
        width = int_width(attr.type)
        if width is not None:
            return attr.value.data & ((1 << width) - 1)
    return None


def int_or_splat_bits(attr: Attribute | None) -> tuple[int, int] | None:
    """(bits, width) of an integer or an integer splat (MLIR's
    `m_ConstantInt`), else None."""
    if isinstance(attr, IntegerAttr):
        width = int_width(attr.type)
        if width is not None:
            return attr.value.data & ((1 << width) - 1), width
        return None
    if isinstance(attr, DenseIntOrFPElementsAttr):
        width = int_width(element_type(attr.type))
        if width is None:
            return None
        value = splat_value(attr)
        if value is not None:
            return int(value) & ((1 << width) - 1), width
    return None


def is_zero(attr: Attribute | None) -> bool:
    """MLIR's `m_Zero` on an attribute (integer or integer splat 0)."""
    found = int_or_splat_bits(attr)
    return found is not None and found[0] == 0


def is_one(attr: Attribute | None) -> bool:
    """MLIR's `m_One` on an attribute (integer or integer splat 1)."""
    found = int_or_splat_bits(attr)
    return found is not None and found[0] == 1


def is_all_ones(attr: Attribute | None) -> bool:
    found = int_or_splat_bits(attr)
    return found is not None and found[0] == (1 << found[1]) - 1


def value_is_zero(value: SSAValue) -> bool:
    return is_zero(const_attr(value))


def value_is_one(value: SSAValue) -> bool:
    return is_one(const_attr(value))


def static_shaped(type_: Attribute) -> bool:
    """A vector or tensor type of static shape (not scalable)."""
    if isinstance(type_, VectorType):
        return not any(type_.get_scalable_dims()) and all(d >= 0 for d in type_.get_shape())
    if isinstance(type_, TensorType):
        return all(d >= 0 for d in type_.get_shape())
    return False


def zero_attr(type_: Attribute) -> Attribute | None:
    """MLIR's `Builder::getZeroAttr` (None for a type with no such constant,
    as a dynamically shaped tensor)."""
    if int_width(type_) is not None:
        return int_attr(0, type_)
    if isinstance(type_, BFloat16Type | Float16Type | Float32Type | Float64Type):
        return FloatAttr(0.0, type_)
    if static_shaped(type_):
        elem = element_type(type_)
        if int_width(elem) is not None:
            return DenseIntOrFPElementsAttr.from_list(type_, [0])  # type: ignore[arg-type]
        if isinstance(elem, BFloat16Type | Float16Type | Float32Type | Float64Type):
            return DenseIntOrFPElementsAttr.from_list(type_, [0.0])  # type: ignore[arg-type]
    return None


def inline_block(
    rewriter: PatternRewriter,
    block: Block,
    dest: Block,
    before: Operation | None,
    args: Sequence[SSAValue] = (),
) -> None:
    """MLIR's `RewriterBase::inlineBlockBefore` (`mergeBlocks` when `before`
    is None): replace the block arguments by `args` (notifying their users as
    modified), move the ops of `block` into `dest` before `before` (at its end
    when None) one by one, notifying each as inserted, and erase `block`."""
    for arg, value in zip(block.args, args, strict=True):
        rewriter.replace_all_uses_with(arg, value)
    for moved in list(block.ops):
        moved.detach()
        if before is None:
            dest.add_op(moved)
        else:
            dest.insert_op_before(moved, before)
        rewriter.handle_operation_insertion(moved)
    rewriter.has_done_action = True
    region = block.parent
    if region is not None:
        region.detach_block(block)
    block.erase(safe_erase=False)


def inline_block_before(
    rewriter: PatternRewriter,
    block: Block,
    op: Operation,
    args: Sequence[SSAValue] = (),
) -> None:
    """`inline_block` before `op`."""
    inline_block(rewriter, block, op.parent_block(), op, args)  # type: ignore[arg-type]
