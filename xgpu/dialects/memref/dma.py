"""The DMA ops of MLIR 22's memref dialect. MLIR's `memref.dma_start` has one
variadic operand list (xDSL's has operand segments, so MLIR's generic form
does not read there):

    memref.dma_start %src[%i, %j], %dst[%k], %n, %tag[%t] (, %stride, %per_stride)?
        : memref<4x4xf32>, memref<16xf32, 1>, memref<1xi32>
    memref.dma_wait %tag[%t], %n attr-dict : memref<1xi32>
"""

from __future__ import annotations

from xdsl.dialects import memref as xmemref
from xdsl.dialects.builtin import IndexType, MemRefType
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect
from xdsl.utils.exceptions import VerifyException

from xgpu.dialects.memref.common import MemRefOp, print_attr_dict

_INDEX = IndexType()


def _rank(value: SSAValue) -> int:
    type_ = value.type
    return len(type_.get_shape()) if isinstance(type_, MemRefType) else 0


@irdl_op_definition
class DmaStartOp(MemRefOp):
    """Operands: source, its indices, destination, its indices, the number of
    elements, tag, its indices, and optionally a stride and the number of
    elements per stride (the ranks of the memrefs say where each list ends)."""

    name = "memref.dma_start"
    args = var_operand_def(AnyAttr())
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def _layout(self) -> tuple[int, int, int]:
        """The positions of the destination, the number of elements and the tag."""
        ops = self.operands
        dst = 1 + _rank(ops[0])
        num = dst + 1 + (_rank(ops[dst]) if dst < len(ops) else 0)
        return dst, num, num + 1

    def verify_(self) -> None:
        ops = self.operands
        count = len(ops)
        if count < 4:
            raise VerifyException("expected at least 4 operands")

        def indices_ok(start: int, stop: int) -> bool:
            return all(isinstance(v.type, IndexType) for v in ops[start:stop])

        if not isinstance(ops[0].type, MemRefType):
            raise VerifyException("expected source to be of memref type")
        src_rank = _rank(ops[0])
        if count < src_rank + 4:
            raise VerifyException(f"expected at least {src_rank + 4} operands")
        if not indices_ok(1, 1 + src_rank):
            raise VerifyException("expected source indices to be of index type")
        dst, num, tag = self._layout()
        if not isinstance(ops[dst].type, MemRefType):
            raise VerifyException("expected destination to be of memref type")
        expected = src_rank + _rank(ops[dst]) + 4
        if count < expected:
            raise VerifyException(f"expected at least {expected} operands")
        if not indices_ok(dst + 1, num):
            raise VerifyException("expected destination indices to be of index type")
        if not isinstance(ops[num].type, IndexType):
            raise VerifyException("expected num elements to be of index type")
        if not isinstance(ops[tag].type, MemRefType):
            raise VerifyException("expected tag to be of memref type")
        expected += _rank(ops[tag])
        if count < expected:
            raise VerifyException(f"expected at least {expected} operands")
        if not indices_ok(tag + 1, expected):
            raise VerifyException("expected tag indices to be of index type")
        if count not in (expected, expected + 2):
            raise VerifyException("incorrect number of operands")
        if count == expected + 2 and not indices_ok(expected, count):
            raise VerifyException("expected stride and num elements per stride to be of type index")

    @classmethod
    def parse(cls, parser: Parser) -> DmaStartOp:
        start = parser.pos

        def memref_with_indices():
            value = parser.parse_unresolved_operand()
            indices = parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE, parser.parse_unresolved_operand
            )
            return value, indices

        src, src_indices = memref_with_indices()
        parser.parse_punctuation(",")
        dst, dst_indices = memref_with_indices()
        parser.parse_punctuation(",")
        num = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        tag, tag_indices = memref_with_indices()
        strides = []
        if parser.parse_optional_punctuation(",") is not None:
            strides = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, parser.parse_unresolved_operand
            )
            if len(strides) != 2:
                parser.raise_error("expected two stride related operands", start, start + 1)
        parser.parse_punctuation(":")
        types: list[Attribute] = parser.parse_comma_separated_list(
            parser.Delimiter.NONE, parser.parse_type
        )
        if len(types) != 3:
            parser.raise_error("fewer/more types expected", start, start + 1)

        def index(values) -> list[SSAValue]:  # type: ignore[no-untyped-def]
            return [parser.resolve_operand(v, _INDEX) for v in values]

        operands = [
            parser.resolve_operand(src, types[0]),
            *index(src_indices),
            parser.resolve_operand(dst, types[1]),
            *index(dst_indices),
            parser.resolve_operand(num, _INDEX),
            parser.resolve_operand(tag, types[2]),
            *index(tag_indices),
            *index(strides),
        ]
        return cls.build(operands=[operands])

    def print(self, printer: Printer) -> None:
        ops = self.operands
        dst, num, tag = self._layout()
        tag_end = tag + 1 + _rank(ops[tag])

        def memref_with_indices(start: int, stop: int) -> None:
            printer.print_ssa_value(ops[start])
            printer.print_string("[")
            printer.print_list(ops[start + 1 : stop], printer.print_ssa_value)
            printer.print_string("]")

        printer.print_string(" ")
        memref_with_indices(0, dst)
        printer.print_string(", ")
        memref_with_indices(dst, num)
        printer.print_string(", ")
        printer.print_ssa_value(ops[num])
        printer.print_string(", ")
        memref_with_indices(tag, tag_end)
        for value in ops[tag_end:]:
            printer.print_string(", ")
            printer.print_ssa_value(value)
        print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_list((ops[0].type, ops[dst].type, ops[tag].type), printer.print_attribute)


@irdl_op_definition
class DmaWaitOp(MemRefOp, xmemref.DmaWaitOp):
    """`memref.dma_wait %tag[%t], %n attr-dict : type`."""

    name = "memref.dma_wait"
    tag = operand_def(MemRefType)
    tag_indices = var_operand_def(IndexType)
    num_elements = operand_def(IndexType)

    def verify_(self) -> None:
        rank = _rank(self.tag)
        if len(self.tag_indices) != rank:
            raise VerifyException(
                "expected tagIndices to have the same number of elements as the tagMemRef "
                f"rank, expected {rank}, but got {len(self.tag_indices)}"
            )


DMA_OPS: list[type[IRDLOperation]] = [DmaStartOp, DmaWaitOp]
