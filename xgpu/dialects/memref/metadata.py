"""memref ops that describe a memref rather than view it: its strided
metadata, its aligned pointer, an alignment assumption, and
`distinct_objects` (memrefs known not to alias).

    %base, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %m : memref<4x4xf32> -> ...
    %p = memref.extract_aligned_pointer_as_index %m : memref<?xf32> -> index
    %a = memref.assume_alignment %m, 16 : memref<?xf32>
    %x, %y = memref.distinct_objects %a, %b : memref<?xf32>, memref<4xf32>
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects import memref as xmemref
from xdsl.dialects.builtin import I32, IndexType, IntegerAttr, MemRefType, i32
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from xgpu.dialects.memref.common import MemRefOp, check_memref_operand, print_attr_dict


@irdl_op_definition
class ExtractStridedMetaDataOp(MemRefOp, xmemref.ExtractStridedMetaDataOp):
    name = "memref.extract_strided_metadata"
    source = operand_def(MemRefType)
    base_buffer = result_def(MemRefType)
    offset = result_def(IndexType)
    sizes = var_result_def(IndexType)
    strides = var_result_def(IndexType)


@irdl_op_definition
class ExtractAlignedPointerAsIndexOp(MemRefOp, xmemref.ExtractAlignedPointerAsIndexOp):
    """`memref.extract_aligned_pointer_as_index %m : type -> index attr-dict`."""

    name = "memref.extract_aligned_pointer_as_index"
    source = operand_def(AnyAttr())
    aligned_pointer = result_def(IndexType)
    assembly_format = "$source `:` type($source) `->` type(results) attr-dict"

    def verify_(self) -> None:
        check_memref_operand(self.source.type)


@irdl_op_definition
class AssumeAlignmentOp(MemRefOp, xmemref.AssumeAlignmentOp):
    """`memref.assume_alignment %m, N attr-dict : type`."""

    name = "memref.assume_alignment"
    T: ClassVar = VarConstraint("T", base(MemRefType))
    memref = operand_def(T)
    alignment = prop_def(IntegerAttr[I32])
    result = result_def(T)

    def verify_(self) -> None:
        value = self.alignment
        if not (isinstance(value, IntegerAttr) and value.type == i32 and value.value.data > 0):
            raise VerifyException(
                "attribute 'alignment' failed to satisfy constraint: 32-bit signless integer "
                "attribute whose value is positive"
            )


@irdl_op_definition
class DistinctObjectsOp(MemRefOp):
    """`memref.distinct_objects %a, %b attr-dict : types`: the operands, known
    not to alias."""

    name = "memref.distinct_objects"

    objects = var_operand_def(base(MemRefType))
    distinct = var_result_def(base(MemRefType))

    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> DistinctObjectsOp:
        names = parser.parse_comma_separated_list(
            parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        if len(types) != len(names):
            parser.raise_error(f"{len(names)} operands present, but expected {len(types)}")
        operands = [parser.resolve_operand(n, t) for n, t in zip(names, types)]
        return cls.build(operands=[operands], result_types=[types], attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_ssa_value)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_list(self.operand_types, printer.print_attribute)

    def verify_(self) -> None:
        if not self.operands:
            raise VerifyException("expected at least one operand")
        if list(self.operand_types) != list(self.result_types):
            raise VerifyException("operand types and result types must match")


METADATA_OPS: list[type[IRDLOperation]] = [
    DistinctObjectsOp,
    ExtractStridedMetaDataOp,
    ExtractAlignedPointerAsIndexOp,
    AssumeAlignmentOp,
]
