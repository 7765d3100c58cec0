"""Allocation ops of MLIR 22's memref dialect: alloc, alloca, realloc, dealloc,
alloca_scope (and its return), global and get_global.

    %a = memref.alloc(%n)[%s] {alignment = 64 : i64} : memref<?xf32, #map>
    %b = memref.realloc %a(%n) : memref<?xf32> to memref<?xf32>
    memref.alloca_scope  -> (f32) { ... memref.alloca_scope.return %v : f32 }
    memref.global "private" constant @c : memref<2xf32> = dense<[1.0, 2.0]>
    %g = memref.get_global @c : memref<2xf32>
"""

from __future__ import annotations

from xdsl.dialects import memref as xmemref
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    IndexType,
    MemRefType,
    NoneAttr,
    ShapedType,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
    UnrankedMemRefType,
)
from xdsl.ir import Attribute
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    ParsePropInAttrDict,
    base,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import (
    MemoryAllocEffect,
    MemoryFreeEffect,
    SingleBlockImplicitTerminator,
    SymbolTable,
    ensure_terminator,
)
from xdsl.utils.exceptions import VerifyException

from xgpu.diagnostics import OpDiagnostic
from xgpu.dialects.memref.common import (
    MemRefOp,
    dynamic_count,
    parse_attr_dict_into,
    print_attr_dict,
    quoted,
    verify_alignment_attr,
)
from xgpu.ir.printer import attribute_text
from xgpu.ir.region_checks import RegionVerifier
from xgpu.ir.upstream_verifiers import Edge, verify_edges

_INDEX = IndexType()


def _symbol_count(type_: MemRefType) -> int:
    layout = type_.layout
    amap = getattr(layout, "data", None)
    return getattr(amap, "num_symbols", 0) if not isinstance(layout, NoneAttr) else 0


class _AllocLike(MemRefOp):
    """alloc and alloca: `(sizes) ([symbols])? attr-dict : type`."""

    def verify_(self) -> None:
        type_ = self.memref.type
        if not isinstance(type_, MemRefType):
            raise VerifyException(
                f"result #0 must be memref of any type values, but got {quoted(type_)}"
            )
        verify_alignment_attr(self.properties.get("alignment"), positive_pow2=True)
        expected = dynamic_count(type_)
        if len(self.dynamic_sizes) != expected:
            raise VerifyException(
                f"incorrect number of dynamic sizes, has {len(self.dynamic_sizes)}, "
                f"expected {expected}"
            )
        symbols = _symbol_count(type_)
        if len(self.symbol_operands) != symbols:
            raise VerifyException(
                "symbol operand count does not equal memref symbol count: expected "
                f"{symbols}, got {len(self.symbol_operands)}"
            )

    @classmethod
    def parse(cls, parser: Parser):
        sizes = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        symbols = (
            parser.parse_optional_comma_separated_list(
                parser.Delimiter.SQUARE, parser.parse_unresolved_operand
            )
            or []
        )
        start = parser.pos
        props: dict[str, Attribute] = {}
        attrs = parse_attr_dict_into(parser, cls, props)
        try:
            verify_alignment_attr(props.get("alignment"), positive_pow2=True)
        except VerifyException as exc:
            parser.raise_error(f"'{cls.name}' op {exc}", start, start + 1)
        parser.parse_punctuation(":")
        type_ = parser.parse_type()
        op = cls.build(
            operands=[
                [parser.resolve_operand(o, _INDEX) for o in sizes],
                [parser.resolve_operand(o, _INDEX) for o in symbols],
            ],
            result_types=[type_],
            properties=props,
            attributes=attrs,
        )
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_list(self.dynamic_sizes, printer.print_ssa_value)
        printer.print_string(")")
        if self.symbol_operands:
            printer.print_string("[")
            printer.print_list(self.symbol_operands, printer.print_ssa_value)
            printer.print_string("]")
        print_attr_dict(printer, self, ("operandSegmentSizes",))
        printer.print_string(" : ")
        printer.print_attribute(self.memref.type)


@irdl_op_definition
class AllocOp(_AllocLike, xmemref.AllocOp):
    name = "memref.alloc"
    dynamic_sizes = var_operand_def(IndexType)
    symbol_operands = var_operand_def(IndexType)
    memref = result_def(AnyAttr())
    alignment = opt_prop_def(AnyAttr())
    assembly_format = None


@irdl_op_definition
class AllocaOp(_AllocLike, xmemref.AllocaOp):
    name = "memref.alloca"
    dynamic_sizes = var_operand_def(IndexType)
    symbol_operands = var_operand_def(IndexType)
    memref = result_def(AnyAttr())
    alignment = opt_prop_def(AnyAttr())
    assembly_format = None


@irdl_op_definition
class ReallocOp(MemRefOp):
    """`memref.realloc %src (`(` %size `)`)? attr-dict : type to type`."""

    name = "memref.realloc"

    source = operand_def(base(MemRefType))
    dynamic_result_size = opt_operand_def(IndexType)
    alignment = opt_prop_def(AnyAttr())
    result = result_def(base(MemRefType))

    traits = traits_def(MemoryAllocEffect(), MemoryFreeEffect())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$source (`(` $dynamic_result_size^ `)`)? attr-dict `:` type($source) `to` type($result)"
    )

    def verify_(self) -> None:
        verify_alignment_attr(self.alignment, positive_pow2=True)
        src, dst = self.source.type, self.result.type
        assert isinstance(src, MemRefType) and isinstance(dst, MemRefType)
        for index, type_ in ((0, src), (None, dst)):
            if len(type_.get_shape()) != 1:
                what = f"operand #{index}" if index is not None else "result #0"
                raise VerifyException(
                    f"{what} must be 1D memref of any type values, but got {quoted(type_)}"
                )
        if src.element_type != dst.element_type:
            raise OpDiagnostic(
                f"different element types specified for source memref type {quoted(src)} "
                f"and result memref type {quoted(dst)}",
                prefix=False,
            )
        if src.memory_space != dst.memory_space:
            raise OpDiagnostic(
                f"different memory spaces specified for source memref type {quoted(src)} "
                f"and result memref type {quoted(dst)}",
                prefix=False,
            )
        dynamic = dst.get_shape()[0] < 0
        if dynamic and self.dynamic_result_size is None:
            raise OpDiagnostic(
                f"missing dimension operand for result type {quoted(dst)}", prefix=False
            )
        if not dynamic and self.dynamic_result_size is not None:
            raise OpDiagnostic(
                f"unnecessary dimension operand for result type {quoted(dst)}", prefix=False
            )


@irdl_op_definition
class DeallocOp(MemRefOp, xmemref.DeallocOp):
    name = "memref.dealloc"
    memref = operand_def(base(MemRefType) | base(UnrankedMemRefType))

    def verify_(self) -> None:
        return None


@irdl_op_definition
class AllocaScopeReturnOp(MemRefOp, xmemref.AllocaScopeReturnOp):
    """`memref.alloca_scope.return attr-dict ($ops : types)?`."""

    name = "memref.alloca_scope.return"
    ops = var_operand_def()

    def verify_(self) -> None:
        return None  # the parent checks the returned values (MLIR's region edges)


@irdl_op_definition
class AllocaScopeOp(MemRefOp, RegionVerifier, xmemref.AllocaScopeOp):
    """`memref.alloca_scope  (-> (types))? region attr-dict`; the terminator is
    printed only when it returns values (as mlir-opt 22 prints it: the
    attributes of an elided terminator are not printed)."""

    name = "memref.alloca_scope"
    res = var_result_def()
    scope = region_def()

    def verify_(self) -> None:
        self.run_region_checks()

    def verify_regions_(self) -> None:
        """MLIR's RegionBranchOpInterface check: the returned values match the
        results."""
        block = self.scope.blocks.first
        last = block.last_op if block is not None else None
        if isinstance(last, xmemref.AllocaScopeReturnOp):
            verify_edges(self, [Edge(last, None, last.ops, self.res)])

    @classmethod
    def parse(cls, parser: Parser) -> AllocaScopeOp:
        result_types: list[Attribute] = []
        if parser.parse_optional_punctuation("->") is not None:
            types = parser.parse_optional_comma_separated_list(
                parser.Delimiter.PAREN, parser.parse_type
            )
            result_types = [parser.parse_type()] if types is None else list(types)
        region = parser.parse_region()
        attrs = parser.parse_optional_attr_dict()
        op = cls(result_types=(result_types,), regions=(region,), attributes=attrs)
        # xgpu's terminator class (the trait, inherited from xDSL's op, names xDSL's).
        ensure_terminator(op, SingleBlockImplicitTerminator(AllocaScopeReturnOp))
        return op

    def print(self, printer: Printer) -> None:
        # MLIR writes a space, then the optional `-> (...)` and the region each
        # after a space: two spaces before either.
        printer.print_string(" ")
        if self.res:
            printer.print_string(" -> (")
            printer.print_list(self.res.types, printer.print_attribute)
            printer.print_string(")")
        printer.print_string(" ")
        printer.print_region(
            self.scope,
            print_entry_block_args=False,
            print_block_terminators=bool(self.res),
        )
        print_attr_dict(printer, self)


# ---------------------------------------------------------------- globals

_ELEMENTS = (DenseIntOrFPElementsAttr, DenseResourceAttr)
_VISIBILITIES = ("public", "private", "nested")


@irdl_op_definition
class GlobalOp(MemRefOp, xmemref.GlobalOp):
    """`memref.global ("visibility")? (constant)? @name : type (= init)? attr-dict`,
    where init is `uninitialized` or an elements literal of the type's shape."""

    name = "memref.global"

    sym_name = prop_def(SymbolNameConstraint())
    constant = opt_prop_def(UnitAttr)
    sym_visibility = opt_prop_def(StringAttr)
    type = prop_def(AnyAttr())
    initial_value = opt_prop_def(AnyAttr())
    alignment = opt_prop_def(AnyAttr())

    def verify_(self) -> None:
        vis = self.sym_visibility
        if vis is not None and vis.data not in _VISIBILITIES:
            raise VerifyException(
                'visibility expected to be one of ["public", "private", "nested"], but got '
                f'"{vis.data}"'
            )
        type_ = self.type
        if not isinstance(type_, MemRefType):
            raise VerifyException(
                "attribute 'type' failed to satisfy constraint: memref type attribute"
            )
        if any(d < 0 for d in type_.get_shape()):
            raise VerifyException(f"type should be static shaped memref, but got {quoted(type_)}")
        init = self.initial_value
        if init is not None and not isinstance(init, UnitAttr):
            if not isinstance(init, _ELEMENTS):
                raise VerifyException(
                    "initial value should be a unit or elements attribute, but got "
                    + attribute_text(init)
                )
            init_type = init.get_type()
            assert isinstance(init_type, ShapedType)
            if init_type.get_element_type() != type_.element_type:
                raise VerifyException(
                    f"initial value element expected to be of type {quoted(type_.element_type)}, "
                    f"but was of type {quoted(init_type.get_element_type())}"
                )
            if tuple(init_type.get_shape()) != tuple(type_.get_shape()):
                expected = ", ".join(str(d) for d in type_.get_shape())
                found = ", ".join(str(d) for d in init_type.get_shape())
                raise VerifyException(
                    f"initial value shape expected to be {expected} but was {found}"
                )
        verify_alignment_attr(self.alignment, positive_pow2=True)

    @classmethod
    def parse(cls, parser: Parser) -> GlobalOp:
        props: dict[str, Attribute] = {}
        visibility = parser.parse_optional_str_literal()
        if visibility is not None:
            props["sym_visibility"] = StringAttr(visibility)
        if parser.parse_optional_keyword("constant") is not None:
            props["constant"] = UnitAttr()
        props["sym_name"] = parser.parse_symbol_name()
        parser.parse_punctuation(":")
        start = parser.pos
        type_ = parser.parse_type()
        if not isinstance(type_, MemRefType) or any(d < 0 for d in type_.get_shape()):
            parser.raise_error(
                f"type should be static shaped memref, but got {quoted(type_)}", start, start + 1
            )
        props["type"] = type_
        if parser.parse_optional_punctuation("=") is not None:
            if parser.parse_optional_keyword("uninitialized") is not None:
                props["initial_value"] = UnitAttr()
            else:
                start = parser.pos
                tensor = TensorType(type_.element_type, type_.get_shape())
                init = _parse_initial_value(parser, tensor)
                if not isinstance(init, _ELEMENTS):
                    parser.raise_error(
                        "initial value should be a unit or elements attribute", start, start + 1
                    )
                props["initial_value"] = init
        start = parser.pos
        attrs = parse_attr_dict_into(parser, cls, props)
        try:
            verify_alignment_attr(props.get("alignment"), positive_pow2=True)
        except VerifyException as exc:
            parser.raise_error(f"'{cls.name}' op {exc}", start, start + 1)
        return cls.create(properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        if self.sym_visibility is not None:
            printer.print_string(" ")
            printer.print_string_literal(self.sym_visibility.data)
        if self.constant is not None:
            printer.print_string(" constant")
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_string(" : ")
        printer.print_attribute(self.type)
        init = self.initial_value
        if init is not None:
            printer.print_string(" = ")
            if isinstance(init, UnitAttr):
                printer.print_string("uninitialized")
            else:
                _print_without_type(printer, init)
        print_attr_dict(
            printer, self, ("sym_name", "sym_visibility", "constant", "type", "initial_value")
        )


def _parse_initial_value(parser: Parser, tensor: TensorType) -> Attribute:
    """An elements literal whose type (when not written) is `tensor`."""
    if parser.parse_optional_keyword("dense") is not None:
        return parser.parse_dense_int_or_fp_elements_attr(tensor)
    return parser.parse_attribute()


def _print_without_type(printer: Printer, attr: Attribute) -> None:
    """An elements attribute without its trailing `: type`."""
    from io import StringIO

    stream, printer.stream = printer.stream, StringIO()
    try:
        printer.print_attribute(attr)
        text = printer.stream.getvalue()
    finally:
        printer.stream = stream
    type_text = StringIO()
    saved, printer.stream = printer.stream, type_text
    try:
        printer.print_string(" : ")
        printer.print_attribute(attr.get_type())  # type: ignore[attr-defined]
    finally:
        printer.stream = saved
    suffix = type_text.getvalue()
    printer.print_string(text[: -len(suffix)] if text.endswith(suffix) else text)


@irdl_op_definition
class GetGlobalOp(MemRefOp, xmemref.GetGlobalOp):
    """`memref.get_global @name : type attr-dict`."""

    name = "memref.get_global"
    memref = result_def(AnyAttr())
    name_ = prop_def(SymbolRefAttr, prop_name="name")

    def verify_(self) -> None:
        type_ = self.memref.type
        if not isinstance(type_, MemRefType) or any(d < 0 for d in type_.get_shape()):
            raise VerifyException(
                f"result #0 must be statically shaped memref of any type values, but got "
                f"{quoted(type_)}"
            )
        target = SymbolTable.lookup_symbol(self, self.name_)
        symbol = self.name_.string_value()
        if not isinstance(target, xmemref.GlobalOp):
            raise VerifyException(f"'{symbol}' does not reference a valid global memref")
        if target.type != type_:
            raise VerifyException(
                f"result type {quoted(type_)} does not match type {quoted(target.type)} of the "
                f"global memref @{symbol}"
            )


ALLOC_OPS: list[type[IRDLOperation]] = [
    AllocOp,
    AllocaOp,
    ReallocOp,
    DeallocOp,
    AllocaScopeOp,
    AllocaScopeReturnOp,
    GlobalOp,
    GetGlobalOp,
]
