"""vector ops on values (no memory): print, shape_cast, from_elements, step,
transpose, constant_mask, create_mask, interleave, deinterleave; as MLIR 22
reads, prints and verifies them."""

from __future__ import annotations

from collections.abc import Sequence
from math import prod
from typing import ClassVar

from xdsl.dialects import vector as xvector
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseArrayBase,
    IndexType,
    IntegerType,
    StringAttr,
    VectorType,
    i1,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import MemoryWriteEffect, Pure
from xdsl.utils.exceptions import VerifyException

from xgpu.dialects.gpu.utils import MLIRResultNames
from xgpu.dialects.vector.attrs import PrintPunctuation, PrintPunctuationAttr
from xgpu.dialects.vector.common import (
    parse_i64_list,
    print_attr_dict,
    print_i64_list,
    q,
)

_NEWLINE = PrintPunctuationAttr(PrintPunctuation.NEWLINE)


def _is_printable(type_: Attribute) -> bool:
    return isinstance(type_, VectorType | IntegerType | IndexType | AnyFloat)


@irdl_op_definition
class PrintOp(xvector.PrintOp):
    """`vector.print (%v : type)? (str "..." | punctuation <p>)* attr-dict`."""

    name = "vector.print"

    source = opt_operand_def()
    punctuation = prop_def(PrintPunctuationAttr, default_value=_NEWLINE)
    stringLiteral = opt_prop_def(StringAttr)

    traits = traits_def(MemoryWriteEffect())

    def __init__(
        self,
        source: SSAValue | Operation | None = None,
        punctuation: PrintPunctuationAttr | None = None,
        string: StringAttr | str | None = None,
    ):
        if isinstance(string, str):
            string = StringAttr(string)
        IRDLOperation.__init__(
            self,
            operands=[source],
            properties={"punctuation": punctuation or _NEWLINE, "stringLiteral": string},
        )

    @classmethod
    def parse(cls, parser: Parser) -> PrintOp:
        source = None
        unresolved = parser.parse_optional_unresolved_operand()
        if unresolved is not None:
            parser.parse_punctuation(":")
            source = parser.resolve_operand(unresolved, parser.parse_type())
        string = punctuation = None
        while True:
            pos = parser.pos
            if parser.parse_optional_keyword("str") is not None:
                if string is not None:
                    parser.raise_error("`str` clause can't appear more than once", pos)
                string = StringAttr(parser.parse_str_literal())
            elif parser.parse_optional_keyword("punctuation") is not None:
                if punctuation is not None:
                    parser.raise_error("`punctuation` clause can't appear more than once", pos)
                punctuation = PrintPunctuationAttr(PrintPunctuationAttr.parse_parameter(parser))
            else:
                break
        attrs = parser.parse_optional_attr_dict()
        op = cls(source, punctuation, string)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        if self.source is not None:
            printer.print_string(" ")
            printer.print_operand(self.source)
            printer.print_string(" : ")
            printer.print_attribute(self.source.type)
        if self.stringLiteral is not None:
            printer.print_string(" str ")
            printer.print_string_literal(self.stringLiteral.data)
        if self.punctuation != _NEWLINE:
            printer.print_string(" punctuation ")
            self.punctuation.print_parameter(printer)
        print_attr_dict(printer, self)

    def verify_(self) -> None:
        if self.source is not None and not _is_printable(self.source.type):
            raise VerifyException(
                "operand #0 must be vector of any type values or integer or index or "
                f"floating-point, but got {q(self.source.type)}"
            )
        if self.stringLiteral is not None and (
            self.source is not None or self.punctuation != _NEWLINE
        ):
            raise VerifyException(
                "failed to verify that `source` or `punctuation` are not set when printing strings"
            )


@irdl_op_definition
class ShapeCastOp(IRDLOperation):
    name = "vector.shape_cast"

    source = operand_def(VectorType)
    result = result_def(VectorType)
    traits = traits_def(Pure())
    assembly_format = "$source attr-dict `:` type($source) `to` type($result)"

    def __init__(self, source: SSAValue | Operation, result_type: VectorType):
        super().__init__(operands=[source], result_types=[result_type])

    def verify_(self) -> None:
        src, res = self.source.type, self.result.type
        assert isinstance(src, VectorType) and isinstance(res, VectorType)
        if src.element_type != res.element_type:
            raise VerifyException("has different source and result element types")
        n_src, n_res = prod(src.get_shape()), prod(res.get_shape())
        if n_src != n_res:
            raise VerifyException(
                f"has different number of elements at source ({n_src}) and result ({n_res})"
            )
        s_src = sum(1 for s in src.get_scalable_dims() if s)
        s_res = sum(1 for s in res.get_scalable_dims() if s)
        if s_src != s_res:
            raise VerifyException(
                f"has different number of scalable dims at source ({s_src}) and result ({s_res})"
            )


@irdl_op_definition
class FromElementsOp(IRDLOperation):
    """`vector.from_elements %a, %b : vector<2xf32>` (operand types from the result)."""

    name = "vector.from_elements"

    elements = var_operand_def()
    result = result_def(VectorType)
    traits = traits_def(Pure())

    def __init__(self, elements: Sequence[SSAValue | Operation], result_type: VectorType):
        super().__init__(operands=[elements], result_types=[result_type])

    @classmethod
    def parse(cls, parser: Parser) -> FromElementsOp:
        pos = parser.pos
        names = (
            parser.parse_optional_undelimited_comma_separated_list(
                parser.parse_optional_unresolved_operand, parser.parse_unresolved_operand
            )
            or []
        )
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        type_pos = parser.pos
        result_type = parser.parse_type()
        if not isinstance(result_type, VectorType):
            parser.raise_error(
                f"invalid kind of type specified: expected builtin.vector, but found "
                f"{q(result_type)}",
                type_pos,
            )
        count = prod(result_type.get_shape())
        if count != len(names):
            parser.raise_error(
                f"number of operands and types do not match: got {len(names)} operands and "
                f"{count} types",
                pos,
            )
        operands = [parser.resolve_operand(n, result_type.element_type) for n in names]
        op = cls(operands, result_type)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        if self.elements:
            printer.print_string(" ")
            printer.print_list(self.elements, printer.print_operand)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        res = self.result.type
        assert isinstance(res, VectorType)
        if any(res.get_scalable_dims()):
            raise VerifyException(
                f"result #0 must be fixed-length vector of any type values, but got {q(res)}"
            )
        expected = [res.element_type] * prod(res.get_shape())
        if [e.type for e in self.elements] != expected:
            raise VerifyException("failed to verify that operand types match result element type")


@irdl_op_definition
class StepOp(IRDLOperation):
    name = "vector.step"

    result = result_def(VectorType)
    traits = traits_def(Pure())
    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, result_type: VectorType):
        super().__init__(result_types=[result_type])

    def verify_(self) -> None:
        res = self.result.type
        assert isinstance(res, VectorType)
        if res.get_num_dims() != 1 or not isinstance(res.element_type, IndexType):
            raise VerifyException(
                f"result #0 must be vector of index values of ranks 1, but got {q(res)}"
            )


@irdl_op_definition
class TransposeOp(IRDLOperation):
    """`vector.transpose %v, [1, 0] : vector<2x4xf32> to vector<4x2xf32>`."""

    name = "vector.transpose"

    vector = operand_def(VectorType)
    permutation = prop_def(DenseArrayBase.constr(i64))
    result = result_def(VectorType)
    traits = traits_def(Pure())

    def __init__(
        self, vector: SSAValue | Operation, permutation: Sequence[int], result_type: VectorType
    ):
        super().__init__(
            operands=[vector],
            result_types=[result_type],
            properties={"permutation": DenseArrayBase.from_list(i64, permutation)},
        )

    @classmethod
    def parse(cls, parser: Parser) -> TransposeOp:
        source = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        permutation = parse_i64_list(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        src_type = parser.parse_type()
        parser.parse_keyword("to")
        res_type = parser.parse_type()
        op = cls.create(
            operands=[parser.resolve_operand(source, src_type)],
            result_types=[res_type],
            properties={"permutation": permutation},
            attributes=attrs,
        )
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.vector)
        printer.print_string(", ")
        print_i64_list(printer, self.permutation.get_values())
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.vector.type)
        printer.print_string(" to ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        src, res = self.vector.type, self.result.type
        assert isinstance(src, VectorType) and isinstance(res, VectorType)
        if src.element_type != res.element_type:
            raise VerifyException("failed to verify that operand and result have same element type")
        rank = res.get_num_dims()
        if src.get_num_dims() != rank:
            raise VerifyException(f"vector result rank mismatch: {rank}")
        perm = [int(v) for v in self.permutation.get_values()]
        if len(perm) != rank:
            raise VerifyException(f"transposition length mismatch: {len(perm)}")
        seen = [False] * rank
        for index, value in enumerate(perm):
            if value < 0 or value >= rank:
                raise VerifyException(f"transposition index out of range: {value}")
            if seen[value]:
                raise VerifyException(f"duplicate position index: {value}")
            seen[value] = True
            if res.get_shape()[index] != src.get_shape()[value]:
                raise VerifyException(f"dimension size mismatch at: {value}")


def _is_i1_vector(type_: Attribute) -> bool:
    return isinstance(type_, VectorType) and type_.element_type == i1


@irdl_op_definition
class ConstantMaskOp(IRDLOperation):
    """`vector.constant_mask [3, 2] : vector<4x3xi1>`."""

    name = "vector.constant_mask"

    mask_dim_sizes = prop_def(DenseArrayBase.constr(i64))
    result = result_def(VectorType)
    traits = traits_def(Pure())

    def __init__(self, sizes: Sequence[int], result_type: VectorType):
        super().__init__(
            result_types=[result_type],
            properties={"mask_dim_sizes": DenseArrayBase.from_list(i64, sizes)},
        )

    @classmethod
    def parse(cls, parser: Parser) -> ConstantMaskOp:
        sizes = parse_i64_list(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        res_type = parser.parse_type()
        return cls.create(
            result_types=[res_type], properties={"mask_dim_sizes": sizes}, attributes=attrs
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        print_i64_list(printer, self.mask_dim_sizes.get_values())
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        res = self.result.type
        if not _is_i1_vector(res):
            raise VerifyException(
                f"result #0 must be vector of 1-bit signless integer values, but got {q(res)}"
            )
        assert isinstance(res, VectorType)
        sizes = [int(v) for v in self.mask_dim_sizes.get_values()]
        if res.get_num_dims() == 0:
            if len(sizes) != 1:
                raise VerifyException("array attr must have length 1 for 0-D vectors")
            if sizes[0] not in (0, 1):
                raise VerifyException("mask dim size must be either 0 or 1 for 0-D vectors")
            return
        if len(sizes) != res.get_num_dims():
            raise VerifyException("must specify array attr of size equal vector result rank")
        for size, dim, scalable in zip(sizes, res.get_shape(), res.get_scalable_dims()):
            if size < 0 or size > dim:
                raise VerifyException(
                    "array attr of size out of bounds of vector result dimension size"
                )
            if scalable and size not in (0, dim):
                raise VerifyException("only supports 'none set' or 'all set' scalable dimensions")
        if 0 in sizes and any(sizes):
            raise VerifyException(
                "expected all mask dim sizes to be zeros, as a result of conjunction with zero "
                "mask dim"
            )


@irdl_op_definition
class CreateMaskOp(xvector.CreateMaskOp):
    name = "vector.create_mask"

    mask_dim_sizes = var_operand_def(IndexType)
    mask_vector = result_def(VectorType)

    assembly_format = "$mask_dim_sizes attr-dict `:` type(results)"
    parse = Operation.parse
    print = Operation.print

    def verify_(self) -> None:
        res = self.mask_vector.type
        if not _is_i1_vector(res):
            raise VerifyException(
                f"result #0 must be vector of 1-bit signless integer values, but got {q(res)}"
            )
        assert isinstance(res, VectorType)
        if res.get_num_dims() == 0:
            if len(self.mask_dim_sizes) != 1:
                raise VerifyException("must specify exactly one operand for 0-D create_mask")
        elif len(self.mask_dim_sizes) != res.get_num_dims():
            raise VerifyException("must specify an operand for each result vector dimension")


def _double_last(type_: VectorType) -> VectorType:
    shape = list(type_.get_shape()) or [1]
    shape[-1] *= 2
    return VectorType(type_.element_type, shape, type_.scalable_dims if type_.shape else None)


@irdl_op_definition
class InterleaveOp(IRDLOperation):
    name = "vector.interleave"

    lhs = operand_def(VectorType)
    rhs = operand_def(VectorType)
    result = result_def(VectorType)
    traits = traits_def(Pure())

    def __init__(
        self, lhs: SSAValue | Operation, rhs: SSAValue | Operation, result_type: VectorType
    ):
        super().__init__(operands=[lhs, rhs], result_types=[result_type])

    @classmethod
    def parse(cls, parser: Parser) -> InterleaveOp:
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        src = parser.parse_type()
        parser.parse_punctuation("->")
        res = parser.parse_type()
        return cls.create(
            operands=[parser.resolve_operand(lhs, src), parser.resolve_operand(rhs, src)],
            result_types=[res],
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.lhs)
        printer.print_string(", ")
        printer.print_operand(self.rhs)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.lhs.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        src = self.lhs.type
        assert isinstance(src, VectorType)
        if self.rhs.type != src:
            raise VerifyException("failed to verify that all of {lhs, rhs} have same type")
        if self.result.type != _double_last(src):
            raise VerifyException(
                "failed to verify that type of 'result' is double the width of the inputs"
            )


@irdl_op_definition
class DeinterleaveOp(MLIRResultNames, IRDLOperation):
    name = "vector.deinterleave"
    MLIR_RESULT_NAMES: ClassVar[tuple[str, ...]] = ("res1", "res2")

    source = operand_def(VectorType)
    res1 = result_def(VectorType)
    res2 = result_def(VectorType)
    traits = traits_def(Pure())

    def __init__(self, source: SSAValue | Operation, result_type: VectorType):
        super().__init__(operands=[source], result_types=[result_type, result_type])

    @classmethod
    def parse(cls, parser: Parser) -> DeinterleaveOp:
        source = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        src = parser.parse_type()
        parser.parse_punctuation("->")
        res = parser.parse_type()
        return cls.create(
            operands=[parser.resolve_operand(source, src)],
            result_types=[res, res],
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.res1.type)

    def verify_(self) -> None:
        src = self.source.type
        assert isinstance(src, VectorType)
        if src.get_num_dims() == 0:
            raise VerifyException(f"operand #0 must be vector of any type values, but got {q(src)}")
        if src.get_shape()[-1] % 2:
            raise VerifyException(
                "failed to verify that the trailing dimension of the source vector has an even "
                "number of elements"
            )
        shape = list(src.get_shape())
        shape[-1] //= 2
        if self.res1.type != VectorType(src.element_type, shape, src.scalable_dims):
            raise VerifyException(
                "failed to verify that the trailing dimension of the results is half the width "
                "of source trailing dimension"
            )
        if self.res2.type != self.res1.type:
            raise VerifyException("failed to verify that all of {res1, res2} have same type")


OPS: list[type[Operation]] = [
    PrintOp,
    ShapeCastOp,
    FromElementsOp,
    StepOp,
    TransposeOp,
    ConstantMaskOp,
    CreateMaskOp,
    InterleaveOp,
    DeinterleaveOp,
]
