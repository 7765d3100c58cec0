"""MLIR's custom syntax for the memref ops runner programs use and xDSL 0.75
only reads in generic form:

    %u = memref.cast %m : memref<4xf32> to memref<*xf32>
    memref.copy %a, %b : memref<?xf32> to memref<?xf32>
    memref.global "private" constant @c : memref<2xf32> = dense<[1.0, 2.0]> {alignment = 64}

`runner_context()` is xgpu-opt's context with parsers for these forms (the
ops built are xDSL's own `memref.cast`, `memref.copy`, `memref.global`; the
generic forms still parse). Only xgpu-run and `xgpu.run` use it.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import (
    IntegerAttr,
    MemRefType,
    StringAttr,
    TensorType,
    UnitAttr,
    i64,
)
from xdsl.dialects.memref import CastOp, CopyOp, GlobalOp
from xdsl.parser import Parser


class _CastSyntax(CastOp):
    @classmethod
    def parse(cls, parser: Parser) -> CastOp:
        source = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_keyword("to")
        result = parser.parse_type()
        operand = parser.resolve_operand(source, source_type)
        op = CastOp.build(operands=[operand], result_types=[result])
        op.attributes.update(attrs)
        return op


class _CopySyntax(CopyOp):
    @classmethod
    def parse(cls, parser: Parser) -> CopyOp:
        source = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        target = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        parser.parse_keyword("to")
        target_type = parser.parse_type()
        op = CopyOp(
            parser.resolve_operand(source, source_type),
            parser.resolve_operand(target, target_type),
        )
        op.attributes.update(attrs)
        return op


class _GlobalSyntax(GlobalOp):
    @classmethod
    def parse(cls, parser: Parser) -> GlobalOp:
        props: dict = {}
        visibility = parser.parse_optional_str_literal()
        if visibility is not None:
            props["sym_visibility"] = StringAttr(visibility)
        if parser.parse_optional_keyword("constant") is not None:
            props["constant"] = UnitAttr()
        props["sym_name"] = StringAttr(parser.parse_symbol_name().data)
        parser.parse_punctuation(":")
        memref_type = parser.parse_type()
        if not isinstance(memref_type, MemRefType):
            parser.raise_error("memref.global expects a memref type")
        props["type"] = memref_type
        if parser.parse_optional_punctuation("=") is not None:
            if parser.parse_optional_keyword("uninitialized") is not None:
                props["initial_value"] = UnitAttr()
            elif parser.parse_optional_keyword("dense") is not None:
                tensor = TensorType(memref_type.element_type, memref_type.get_shape())
                props["initial_value"] = parser.parse_dense_int_or_fp_elements_attr(tensor)
            else:
                props["initial_value"] = parser.parse_attribute()
        attrs = parser.parse_optional_attr_dict()
        alignment = attrs.pop("alignment", None)
        if isinstance(alignment, IntegerAttr):
            props["alignment"] = IntegerAttr(alignment.value.data, i64)
        op = GlobalOp.create(properties=props, attributes=attrs)
        return op


def runner_context() -> Context:
    from xgpu.tools.xgpu_opt import make_context

    ctx = make_context()
    for name, syntax in (
        ("memref.cast", _CastSyntax),
        ("memref.copy", _CopySyntax),
        ("memref.global", _GlobalSyntax),
    ):
        ctx.get_optional_op(name)  # loads the memref dialect
        # xDSL has no public way to replace a registered op's parser.
        ctx._loaded_ops[name] = syntax  # noqa: SLF001
    return ctx
