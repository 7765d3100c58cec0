"""xDSL 0.75's vector ops whose syntax matches MLIR 22 but whose verifiers
(or parsers of wrong types) do not: extract, insert, shuffle, broadcast,
bitcast, fma, reduction, transfer_read, transfer_write. xgpu's classes keep
xDSL's fields and syntax and check what MLIR 22 checks, in its words."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects import vector as xvector
from xdsl.dialects.arith import FastMathFlagsAttr
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    AnyFloat,
    ArrayAttr,
    DenseArrayBase,
    IndexType,
    IntegerType,
    MemRefType,
    TensorType,
    VectorType,
    i64,
)
from xdsl.dialects.utils import DynamicIndexList
from xdsl.dialects.vector import CombiningKindAttr
from xdsl.ir import Attribute, Operation
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    ParsePropInAttrDict,
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import NoMemoryEffect, Pure
from xdsl.utils.exceptions import VerifyException

from xgpu.dialects.vector.common import element_type, print_attr_dict, q
from xgpu.dialects.vector.ops_slices import supports_kind
from xgpu.ir.affine_text import affine_map_text
from xgpu.ir.upstream_verifiers import register

_POISON = -1
_NONE = FastMathFlagsAttr("none")


def _valid_index(value: int, size: int) -> bool:
    return value == _POISON or 0 <= value < size


def _check_dynamic(op: IRDLOperation, static: Sequence[int], dynamic: Sequence[object]) -> None:
    if sum(1 for v in static if v == DYNAMIC_INDEX) != len(dynamic):
        raise VerifyException("mismatch between dynamic and static positions")


def _compatible_extract(inferred: Attribute, actual: Attribute) -> bool:
    """MLIR's `isCompatibleReturnTypes`: a 1-element vector stands for a scalar."""
    if inferred == actual:
        return True
    for a, b in ((inferred, actual), (actual, inferred)):
        if isinstance(a, VectorType) and a.get_shape() == (1,) and a.element_type == b:
            return True
    return False


@irdl_op_definition
class ExtractOp(xvector.ExtractOp):
    name = "vector.extract"

    static_position = prop_def(DenseArrayBase.constr(i64))
    vector = operand_def(VectorType)
    dynamic_position = var_operand_def(IndexType)
    result = result_def(AnyAttr())

    assembly_format = (
        "$vector `` custom<DynamicIndexList>($dynamic_position, $static_position)"
        " attr-dict `:` type($result) `from` type($vector)"
    )
    custom_directives = (DynamicIndexList,)
    parse = Operation.parse
    print = Operation.print

    def verify_(self) -> None:
        src = self.vector.type
        assert isinstance(src, VectorType)
        res = self.result.type
        if element_type(res) != src.element_type:
            raise VerifyException("failed to verify that operand and result have same element type")
        if isinstance(res, VectorType) and res.get_num_dims() == 0:
            raise VerifyException("expected a scalar instead of a 0-d vector as the result type")
        static = [int(v) for v in self.static_position.get_values()]
        _check_dynamic(self, static, self.dynamic_position)
        shape = src.get_shape()
        if len(static) > len(shape):
            raise VerifyException("expected position attribute of rank no greater than vector rank")
        for index, value in enumerate(static):
            if value != DYNAMIC_INDEX and not _valid_index(value, shape[index]):
                raise VerifyException(
                    f"expected position attribute #{index + 1} to be a non-negative integer "
                    "smaller than the corresponding vector dimension or poison (-1)"
                )
        rest = shape[len(static) :]
        inferred: Attribute = (
            VectorType(src.element_type, rest, ArrayAttr(src.scalable_dims.data[len(static) :]))
            if rest
            else src.element_type
        )
        if not _compatible_extract(inferred, res):
            raise VerifyException(
                f"inferred type(s) {q(inferred)} are incompatible with return type(s) of "
                f"operation {q(res)}"
            )


@irdl_op_definition
class InsertOp(xvector.InsertOp):
    name = "vector.insert"

    _V: ClassVar = VarConstraint("V", base(VectorType))
    static_position = prop_def(DenseArrayBase.constr(i64))
    source = operand_def(AnyAttr())
    dest = operand_def(_V)
    dynamic_position = var_operand_def(IndexType)
    result = result_def(_V)

    assembly_format = (
        "$source `,` $dest custom<DynamicIndexList>($dynamic_position, $static_position)"
        " attr-dict `:` type($source) `into` type($dest)"
    )
    custom_directives = (DynamicIndexList,)
    parse = Operation.parse
    print = Operation.print

    def verify_(self) -> None:
        dst = self.dest.type
        assert isinstance(dst, VectorType)
        src = self.source.type
        if element_type(src) != element_type(self.result.type):
            raise VerifyException(
                "failed to verify that source operand and result have same element type"
            )
        if dst != self.result.type:
            raise VerifyException("failed to verify that all of {dest, result} have same type")
        if isinstance(src, VectorType) and src.get_num_dims() == 0:
            raise VerifyException("expected a scalar instead of a 0-d vector as the source operand")
        static = [int(v) for v in self.static_position.get_values()]
        _check_dynamic(self, static, self.dynamic_position)
        rank = dst.get_num_dims()
        if len(static) > rank:
            raise VerifyException(
                "expected position attribute of rank no greater than dest vector rank"
            )
        if isinstance(src, VectorType):
            if src.get_num_dims() + len(static) != rank:
                raise VerifyException(
                    "expected position attribute rank + source rank to match dest vector rank"
                )
        elif len(static) != rank:
            raise VerifyException("expected position attribute rank to match the dest vector rank")
        for index, value in enumerate(static):
            if value != DYNAMIC_INDEX and not _valid_index(value, dst.get_shape()[index]):
                raise VerifyException(
                    f"expected position attribute #{index + 1} to be a non-negative integer "
                    "smaller than the corresponding dest vector dimension"
                )


@irdl_op_definition
class ShuffleOp(xvector.ShuffleOp):
    name = "vector.shuffle"

    T: ClassVar = xvector.ShuffleOp.T
    V1_SHAPE: ClassVar = xvector.ShuffleOp.V1_SHAPE
    V2_SHAPE: ClassVar = xvector.ShuffleOp.V2_SHAPE
    MASK: ClassVar = xvector.ShuffleOp.MASK
    RES: ClassVar = xvector.ShuffleOp.RES

    v1 = operand_def(VectorType.constr(T, shape=V1_SHAPE))
    v2 = operand_def(VectorType.constr(T, shape=V2_SHAPE))
    mask = prop_def(MASK)
    result = result_def(RES)

    traits = traits_def(NoMemoryEffect())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "operands $mask attr-dict `:` type(operands)"
    parse = Operation.parse
    print = Operation.print

    def verify_(self) -> None:
        v1, v2, res = self.v1.type, self.v2.type, self.result.type
        assert isinstance(v1, VectorType) and isinstance(v2, VectorType)
        assert isinstance(res, VectorType)
        ranks = (v1.get_num_dims(), v2.get_num_dims(), res.get_num_dims())
        if ranks != (0, 0, 1) and not (ranks[0] == ranks[1] == ranks[2]):
            raise VerifyException("rank mismatch")
        for r in range(1, ranks[0]):
            if not res.get_shape()[r] == v1.get_shape()[r] == v2.get_shape()[r]:
                raise VerifyException("dimension mismatch")
        mask = [int(v) for v in self.mask.get_values()]
        if not mask:
            raise VerifyException("invalid mask length")
        if len(mask) != res.get_shape()[0]:
            raise VerifyException("mask length mismatch")
        size = (v1.get_shape()[0] if ranks[0] else 1) + (v2.get_shape()[0] if ranks[1] else 1)
        for index, value in enumerate(mask):
            if not _valid_index(value, size):
                raise VerifyException(f"mask index #{index + 1} out of range")


@irdl_op_definition
class BroadcastOp(xvector.BroadcastOp):
    name = "vector.broadcast"

    source = operand_def()
    vector = result_def(VectorType)

    traits = traits_def(Pure())
    assembly_format = "$source attr-dict `:` type($source) `to` type($vector)"
    parse = Operation.parse
    print = Operation.print

    def verify_(self) -> None:
        src, dst = self.source.type, self.vector.type
        assert isinstance(dst, VectorType)
        if element_type(src) != dst.element_type:
            raise VerifyException(
                "failed to verify that source operand and result have same element type"
            )
        if not isinstance(src, VectorType):
            return  # a scalar of the element type
        if src.get_num_dims() > dst.get_num_dims():
            raise VerifyException("source rank higher than destination rank")
        lead = dst.get_num_dims() - src.get_num_dims()
        for index, (size, scalable) in enumerate(zip(src.get_shape(), src.get_scalable_dims())):
            dst_size = dst.get_shape()[lead + index]
            dst_scalable = dst.get_scalable_dims()[lead + index]
            mismatch = (size != 1 and size != dst_size) or (
                size == dst_size and bool(scalable) != bool(dst_scalable)
            )
            if size == 1 and scalable and not (dst_size == 1 and dst_scalable):
                mismatch = True
            if mismatch:
                a = f"[{size}]" if scalable else str(size)
                b = f"[{dst_size}]" if dst_scalable else str(dst_size)
                raise VerifyException(f"dimension mismatch ({a} vs. {b})")


def _bits(type_: Attribute) -> int:
    if isinstance(type_, IndexType):
        return 64
    if isinstance(type_, IntegerType):
        return type_.width.data
    assert isinstance(type_, AnyFloat)
    return type_.bitwidth


@irdl_op_definition
class BitcastOp(xvector.BitcastOp):
    name = "vector.bitcast"

    source = operand_def(VectorType)
    result = result_def(VectorType)

    traits = traits_def(Pure())
    assembly_format = "$source attr-dict `:` type($source) `to` type($result)"
    parse = Operation.parse
    print = Operation.print

    def verify_(self) -> None:
        src, res = self.source.type, self.result.type
        assert isinstance(src, VectorType) and isinstance(res, VectorType)
        if src.get_num_dims() != res.get_num_dims():
            raise VerifyException("failed to verify that all of {source, result} have same rank")
        for i in range(src.get_num_dims() - 1):
            if src.get_shape()[i] != res.get_shape()[i]:
                raise VerifyException(f"dimension size mismatch at: {i}")
        a, b = _bits(src.element_type), _bits(res.element_type)
        if src.get_num_dims() == 0:
            if a != b:
                raise VerifyException(
                    "source/result bitwidth of the 0-D vector element types must be equal"
                )
        elif a * src.get_shape()[-1] != b * res.get_shape()[-1]:
            raise VerifyException("source/result bitwidth of the minor 1-D vectors must be equal")


@irdl_op_definition
class FMAOp(xvector.FMAOp):
    name = "vector.fma"

    T: ClassVar = VarConstraint("T", AnyAttr())
    lhs = operand_def(T)
    rhs = operand_def(T)
    acc = operand_def(T)
    res = result_def(T)

    traits = traits_def(Pure())
    assembly_format = "$lhs `,` $rhs `,` $acc attr-dict `:` type($lhs)"
    parse = Operation.parse
    print = Operation.print

    def verify_(self) -> None:
        for index, value in enumerate(self.operands):
            t = value.type
            if not (isinstance(t, VectorType) and isinstance(t.element_type, AnyFloat)):
                raise VerifyException(
                    f"operand #{index} must be vector of floating-point values, but got {q(t)}"
                )


@irdl_op_definition
class ReductionOp(xvector.ReductionOp):
    """`vector.reduction <kind>, %v (, %acc)? (fastmath<...>)? : vector<4xf32> into f32`."""

    name = "vector.reduction"

    vector = operand_def(VectorType)
    acc = opt_operand_def(AnyAttr())
    dest = result_def(AnyAttr())
    kind = prop_def(CombiningKindAttr)
    fastmath = prop_def(FastMathFlagsAttr, default_value=_NONE)

    traits = traits_def(Pure())
    assembly_format = None

    @classmethod
    def parse(cls, parser: Parser) -> ReductionOp:
        kind = CombiningKindAttr(CombiningKindAttr.parse_parameter(parser))
        parser.parse_punctuation(",")
        vector = parser.parse_unresolved_operand()
        acc = None
        if parser.parse_optional_punctuation(","):
            acc = parser.parse_unresolved_operand()
        fastmath = _NONE
        if parser.parse_optional_keyword("fastmath") is not None:
            fastmath = FastMathFlagsAttr(FastMathFlagsAttr.parse_parameter(parser))
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        src_t = parser.parse_type()
        parser.parse_keyword("into")
        dest_t = parser.parse_type()
        operands = [parser.resolve_operand(vector, src_t)]
        if acc is not None:
            operands.append(parser.resolve_operand(acc, dest_t))
        return cls.create(
            operands=operands,
            result_types=[dest_t],
            properties={"kind": kind, "fastmath": fastmath},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        self.kind.print_parameter(printer)
        printer.print_string(", ")
        printer.print_list(self.operands, printer.print_operand)
        if self.fastmath != _NONE:
            printer.print_string(" fastmath")
            self.fastmath.print_parameter(printer)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.vector.type)
        printer.print_string(" into ")
        printer.print_attribute(self.dest.type)

    def verify_(self) -> None:
        src = self.vector.type
        assert isinstance(src, VectorType)
        if self.dest.type != src.element_type:
            raise VerifyException(
                "failed to verify that source operand and result have same element type"
            )
        if self.acc is not None and self.acc.type != self.dest.type:
            raise VerifyException("failed to verify that dest and acc have the same type")
        if src.get_num_dims() > 1:
            raise VerifyException(f"unsupported reduction rank: {src.get_num_dims()}")
        if not supports_kind(self.kind, self.dest.type):
            raise VerifyException(
                f"unsupported reduction type '{q(self.dest.type)}' for kind "
                f"'{self.kind.data.value}'"
            )


def _transfer_checks(op: IRDLOperation, xdsl_verify) -> None:  # type: ignore[no-untyped-def]
    """xDSL's transfer checks in MLIR 22's words (without xDSL's quoted op name)."""
    shaped = op.operands[1 if op.name == "vector.transfer_write" else 0].type
    assert isinstance(shaped, MemRefType | TensorType)
    indices = getattr(op, "indices")
    if len(indices) != shaped.get_num_dims():
        raise VerifyException(f"requires {shaped.get_num_dims()} indices")
    perm = getattr(op, "permutation_map")
    in_bounds = getattr(op, "in_bounds")
    assert isinstance(perm, AffineMapAttr) and isinstance(in_bounds, ArrayAttr)
    try:
        xdsl_verify(op)
    except VerifyException as exc:
        text = str(exc)
        prefix = f'"{op.name}" '
        if text.startswith(prefix):
            text = text[len(prefix) :]
        if text.startswith("expects the in_bounds attr"):
            text = (
                "expects the in_bounds attr of same rank as permutation_map results: "
                f"affine_map<{affine_map_text(perm.data)}> vs inBounds of size: "
                f"{len(in_bounds)}"
            )
        raise VerifyException(text.rstrip(".")) from None


# transfer_read/transfer_write stay xDSL's classes (their parsers build them);
# xgpu's verifier runs MLIR 22's checks in place of xDSL's custom verifier.
register(
    "vector.transfer_read",
    replace_custom=True,
    custom=lambda op: _transfer_checks(op, xvector.TransferReadOp.verify_),
)
register(
    "vector.transfer_write",
    replace_custom=True,
    custom=lambda op: _transfer_checks(op, xvector.TransferWriteOp.verify_),
)


OPS: list[type[Operation]] = [
    ExtractOp,
    InsertOp,
    ShuffleOp,
    BroadcastOp,
    BitcastOp,
    FMAOp,
    ReductionOp,
]
