"""Memory access ops of MLIR 22's memref dialect: load, store, atomic_rmw,
generic_atomic_rmw (and atomic_yield), prefetch, copy, dim and rank.

    %x = memref.load %m[%i] {nontemporal = true} : memref<4xf32>
    %r = memref.atomic_rmw addf %v, %m[%i] : (f32, memref<4xf32>) -> f32
    %g = memref.generic_atomic_rmw %m[%i] : memref<4xi32> { ... }
    memref.prefetch %m[%i], read, locality<3>, data : memref<4xf32>
"""

from __future__ import annotations

from xdsl.dialects import memref as xmemref
from xdsl.dialects.builtin import (
    AnyFloat,
    BoolAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    UnrankedMemRefType,
    i32,
    i64,
)
from xdsl.ir import Attribute
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import (
    HasParent,
    IsTerminator,
    MemoryReadEffect,
    MemoryWriteEffect,
    Pure,
    get_effects,
)
from xdsl.utils.exceptions import VerifyException

from xgpu.diagnostics import OpDiagnostic
from xgpu.dialects.memref.common import (
    MemRefOp,
    is_memref,
    parse_attr_dict_into,
    print_attr_dict,
    quoted,
    verify_alignment_attr,
)

_INDEX = IndexType()


def _verify_bool_value(value: Attribute | None, name: str) -> None:
    if value is not None and not (isinstance(value, IntegerAttr) and value.type == IntegerType(1)):
        raise VerifyException(f"attribute '{name}' failed to satisfy constraint: bool attribute")


def _verify_bool(op: IRDLOperation, name: str) -> None:
    _verify_bool_value(op.properties.get(name), name)


def _verify_access(op: IRDLOperation, what: str) -> None:
    type_ = op.memref.type
    if not isinstance(type_, MemRefType):
        raise VerifyException(
            f"operand #{1 if what == 'store' else 0} must be memref of any type values, "
            f"but got {quoted(type_)}"
        )
    for index in op.indices:
        if not isinstance(index.type, IndexType):
            raise VerifyException(f"operand must be index, but got {quoted(index.type)}")
    _verify_bool(op, "nontemporal")
    verify_alignment_attr(op.properties.get("alignment"), positive_pow2=True)


def _parse_access(parser: Parser, op_type: type[IRDLOperation]):
    """`%m[%i, ...] attr-dict : memref-type` of load and store."""
    memref = parser.parse_unresolved_operand()
    indices = parser.parse_comma_separated_list(
        parser.Delimiter.SQUARE, parser.parse_unresolved_operand
    )
    start = parser.pos
    props: dict[str, Attribute] = {}
    attrs = parse_attr_dict_into(parser, op_type, props)
    try:
        _verify_bool_value(props.get("nontemporal"), "nontemporal")
        verify_alignment_attr(props.get("alignment"), positive_pow2=True)
    except VerifyException as exc:
        parser.raise_error(f"'{op_type.name}' op {exc}", start, start + 1)
    parser.parse_punctuation(":")
    start = parser.pos
    type_ = parser.parse_type()
    if not isinstance(type_, MemRefType):
        parser.raise_error(
            f"invalid kind of type specified: expected builtin.memref, but found {quoted(type_)}",
            start,
            parser.pos,
        )
    return (
        parser.resolve_operand(memref, type_),
        [parser.resolve_operand(i, _INDEX) for i in indices],
        props,
        attrs,
        type_,
    )


def _print_access(printer: Printer, op: IRDLOperation) -> None:
    printer.print_string(" ")
    printer.print_ssa_value(op.memref)
    printer.print_string("[")
    printer.print_list(op.indices, printer.print_ssa_value)
    printer.print_string("]")
    elided = ["nontemporal"] if op.properties.get("nontemporal") == _FALSE else []
    print_attr_dict(printer, op, elided)
    printer.print_string(" : ")
    printer.print_attribute(op.memref.type)


_FALSE = BoolAttr.from_bool(False)


@irdl_op_definition
class LoadOp(MemRefOp, xmemref.LoadOp):
    """`memref.load %m[%i, ...] attr-dict : type` (`nontemporal = false` elided)."""

    name = "memref.load"
    memref = operand_def(AnyAttr())
    indices = var_operand_def(IndexType)
    res = result_def(AnyAttr())
    assembly_format = None
    nontemporal = opt_prop_def(AnyAttr(), default_value=BoolAttr.from_bool(False))
    alignment = opt_prop_def(AnyAttr())

    def verify_(self) -> None:
        _verify_access(self, "load")
        type_ = self.memref.type
        assert isinstance(type_, MemRefType)
        if self.res.type != type_.element_type:
            raise VerifyException(
                "failed to verify that result type matches element type of 'memref'"
            )
        rank = len(type_.get_shape())
        if len(self.indices) != rank:
            raise VerifyException(
                f"incorrect number of indices for load, expected {rank} but got {len(self.indices)}"
            )

    @classmethod
    def parse(cls, parser: Parser) -> LoadOp:
        memref, indices, props, attrs, type_ = _parse_access(parser, cls)
        return cls.build(
            operands=[memref, indices],
            result_types=[type_.element_type],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        _print_access(printer, self)


@irdl_op_definition
class StoreOp(MemRefOp, xmemref.StoreOp):
    """`memref.store %v, %m[%i, ...] attr-dict : type`."""

    name = "memref.store"
    value = operand_def(AnyAttr())
    memref = operand_def(AnyAttr())
    indices = var_operand_def(IndexType)
    assembly_format = None
    nontemporal = opt_prop_def(AnyAttr(), default_value=BoolAttr.from_bool(False))
    alignment = opt_prop_def(AnyAttr())

    def verify_(self) -> None:
        _verify_access(self, "store")
        type_ = self.memref.type
        assert isinstance(type_, MemRefType)
        if self.value.type != type_.element_type:
            raise VerifyException(
                "failed to verify that type of 'value' matches element type of 'memref'"
            )
        if len(self.indices) != len(type_.get_shape()):
            raise VerifyException("store index operand count not equal to memref rank")

    @classmethod
    def parse(cls, parser: Parser) -> StoreOp:
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        memref, indices, props, attrs, type_ = _parse_access(parser, cls)
        return cls.build(
            operands=[parser.resolve_operand(value, type_.element_type), memref, indices],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.value)
        printer.print_string(",")
        _print_access(printer, self)


# ---------------------------------------------------------------- atomics

ATOMIC_RMW_KINDS = (
    "addf",
    "addi",
    "andi",
    "assign",
    "maximumf",
    "maxnumf",
    "maxs",
    "maxu",
    "minimumf",
    "minnumf",
    "mins",
    "minu",
    "mulf",
    "muli",
    "ori",
    "xori",
)
"""MLIR's `arith::AtomicRMWKind`, in the order of its integer values."""

_FLOAT_KINDS = {"addf", "maximumf", "maxnumf", "minimumf", "minnumf", "mulf"}
_INT_KINDS = {"addi", "andi", "maxs", "maxu", "mins", "minu", "muli", "ori", "xori"}


def _kind_name(attr: Attribute | None) -> str | None:
    if isinstance(attr, IntegerAttr) and 0 <= attr.value.data < len(ATOMIC_RMW_KINDS):
        return ATOMIC_RMW_KINDS[attr.value.data]
    return None


@irdl_op_definition
class AtomicRMWOp(MemRefOp, xmemref.AtomicRMWOp):
    """`memref.atomic_rmw KIND %v, %m[%i, ...] attr-dict : (T, memref) -> T`; the
    kind is stored as its integer value (`kind = 0 : i64` is `addf`)."""

    name = "memref.atomic_rmw"
    value = operand_def(AnyAttr())
    memref = operand_def(AnyAttr())
    indices = var_operand_def(IndexType)
    kind = prop_def(AnyAttr())
    result = result_def(AnyAttr())

    def verify_(self) -> None:
        type_ = self.memref.type
        if not isinstance(type_, MemRefType):
            raise VerifyException(
                f"operand #1 must be memref of signless integer or floating-point values, "
                f"but got {quoted(type_)}"
            )
        if len(self.indices) != len(type_.get_shape()):
            raise VerifyException("expects the number of subscripts to be equal to memref rank")
        if self.value.type != type_.element_type or self.result.type != type_.element_type:
            raise VerifyException("failed to verify that value type matches element type of memref")
        kind = _kind_name(self.kind)
        element = type_.element_type
        if kind in _FLOAT_KINDS and not isinstance(element, AnyFloat):
            raise VerifyException(f"with kind '{kind}' expects a floating-point type")
        if kind in _INT_KINDS and not isinstance(element, IntegerType):
            raise VerifyException(f"with kind '{kind}' expects an integer type")

    @classmethod
    def parse(cls, parser: Parser) -> AtomicRMWOp:
        start = parser.pos
        kind = parser.parse_optional_identifier_or_str_literal()
        if kind not in ATOMIC_RMW_KINDS:
            cases = ", ".join(ATOMIC_RMW_KINDS)
            parser.raise_error(
                "expected string or keyword containing one of the following enum values for "
                f"attribute 'kind' [{cases}]",
                start,
                start + 1,
            )
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        memref = parser.parse_unresolved_operand()
        indices = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, parser.parse_unresolved_operand
        )
        props: dict[str, Attribute] = {"kind": IntegerAttr(ATOMIC_RMW_KINDS.index(kind), i64)}
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        parser.parse_punctuation("(")
        value_type = parser.parse_type()
        parser.parse_punctuation(",")
        memref_type = parser.parse_type()
        parser.parse_punctuation(")")
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        return cls.build(
            operands=[
                parser.resolve_operand(value, value_type),
                parser.resolve_operand(memref, memref_type),
                [parser.resolve_operand(i, _INDEX) for i in indices],
            ],
            result_types=[result_type],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        kind = _kind_name(self.kind)
        printer.print_string(f" {kind if kind is not None else self.kind} ")
        printer.print_ssa_value(self.value)
        printer.print_string(", ")
        printer.print_ssa_value(self.memref)
        printer.print_string("[")
        printer.print_list(self.indices, printer.print_ssa_value)
        printer.print_string("]")
        print_attr_dict(printer, self, ("kind",))
        printer.print_string(" : (")
        printer.print_attribute(self.value.type)
        printer.print_string(", ")
        printer.print_attribute(self.memref.type)
        printer.print_string(") -> ")
        printer.print_attribute(self.result.type)


@irdl_op_definition
class GenericAtomicRMWOp(MemRefOp):
    """`memref.generic_atomic_rmw %m[%i, ...] : memref { ^bb0(%cur: T): ... }
    attr-dict`: the region computes the new value from the current one."""

    name = "memref.generic_atomic_rmw"

    memref = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    result = result_def(AnyAttr())
    atomic_body = region_def()

    traits = lazy_traits_def(lambda: (MemoryReadEffect(), MemoryWriteEffect()))

    def verify_(self) -> None:
        block = self.atomic_body.blocks.first
        if block is None or len(block.args) != 1:
            raise VerifyException("expected single number of entry block arguments")
        if block.args[0].type != self.result.type:
            raise VerifyException("expected block argument of the same type result type")
        for op in self.atomic_body.walk():
            effects = get_effects(op)
            if effects is None or effects:
                raise OpDiagnostic(
                    "body of 'memref.generic_atomic_rmw' should contain only operations "
                    "with no side effects",
                    op=op,
                    prefix=False,
                )

    @classmethod
    def parse(cls, parser: Parser) -> GenericAtomicRMWOp:
        memref = parser.parse_unresolved_operand()
        indices = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, parser.parse_unresolved_operand
        )
        parser.parse_punctuation(":")
        start = parser.pos
        memref_type = parser.parse_type()
        if not isinstance(memref_type, MemRefType):
            parser.raise_error(
                f"invalid kind of type specified: expected builtin.memref, but found "
                f"{quoted(memref_type)}",
                start,
                parser.pos,
            )
        region = parser.parse_region()
        attrs = parser.parse_optional_attr_dict()
        return cls.build(
            operands=[
                parser.resolve_operand(memref, memref_type),
                [parser.resolve_operand(i, _INDEX) for i in indices],
            ],
            result_types=[memref_type.element_type],
            regions=[region],
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.memref)
        printer.print_string("[")
        printer.print_list(self.indices, printer.print_ssa_value)
        printer.print_string("] : ")
        printer.print_attribute(self.memref.type)
        printer.print_string(" ")
        printer.print_region(self.atomic_body)
        print_attr_dict(printer, self)


@irdl_op_definition
class AtomicYieldOp(MemRefOp):
    """`memref.atomic_yield %v attr-dict : T`, the new value."""

    name = "memref.atomic_yield"
    result = operand_def(AnyAttr())
    traits = lazy_traits_def(lambda: (IsTerminator(), HasParent(GenericAtomicRMWOp), Pure()))
    assembly_format = "$result attr-dict `:` type($result)"

    def verify_(self) -> None:
        parent = self.parent_op()
        if isinstance(parent, GenericAtomicRMWOp) and parent.result.type != self.result.type:
            raise VerifyException(
                f"types mismatch between yield op: {quoted(self.result.type)} and its parent: "
                f"{quoted(parent.result.type)}"
            )


@irdl_op_definition
class PrefetchOp(MemRefOp):
    """`memref.prefetch %m[%i, ...], read|write, locality<N>, data|instr : type`."""

    name = "memref.prefetch"

    memref = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    # In name order: MLIR reports the first missing one in this order.
    isDataCache = prop_def(BoolAttr)
    isWrite = prop_def(BoolAttr)
    localityHint = prop_def(IntegerAttr)

    def verify_(self) -> None:
        hint = self.localityHint
        if not (hint.type == i32 and 0 <= hint.value.data <= 3):
            raise VerifyException(
                "attribute 'localityHint' failed to satisfy constraint: 32-bit signless "
                "integer attribute whose minimum value is 0 whose maximum value is 3"
            )
        type_ = self.memref.type
        assert isinstance(type_, MemRefType)
        if len(self.indices) != len(type_.get_shape()):
            raise VerifyException("too few indices")

    @classmethod
    def parse(cls, parser: Parser) -> PrefetchOp:
        memref = parser.parse_unresolved_operand()
        indices = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, parser.parse_unresolved_operand
        )
        parser.parse_punctuation(",")
        start = parser.pos
        rw = parser.parse_optional_identifier()
        if rw not in ("read", "write"):
            parser.raise_error("rw specifier has to be 'read' or 'write'", start, parser.pos)
        parser.parse_punctuation(",")
        parser.parse_keyword("locality")
        parser.parse_punctuation("<")
        hint = parser.parse_integer()
        parser.parse_punctuation(">")
        parser.parse_punctuation(",")
        start = parser.pos
        cache = parser.parse_optional_identifier()
        if cache not in ("data", "instr"):
            parser.raise_error("cache type has to be 'data' or 'instr'", start, parser.pos)
        parser.parse_punctuation(":")
        memref_type = parser.parse_type()
        return cls.build(
            operands=[
                parser.resolve_operand(memref, memref_type),
                [parser.resolve_operand(i, _INDEX) for i in indices],
            ],
            properties={
                "isWrite": BoolAttr.from_bool(rw == "write"),
                "localityHint": IntegerAttr(hint, i32),
                "isDataCache": BoolAttr.from_bool(cache == "data"),
            },
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.memref)
        printer.print_string("[")
        printer.print_list(self.indices, printer.print_ssa_value)
        printer.print_string("], ")
        printer.print_string("write" if self.isWrite.value.data else "read")
        printer.print_string(f", locality<{self.localityHint.value.data}>, ")
        printer.print_string("data" if self.isDataCache.value.data else "instr")
        print_attr_dict(printer, self, ("isWrite", "localityHint", "isDataCache"))
        printer.print_string(" : ")
        printer.print_attribute(self.memref.type)


# ------------------------------------------------------------ copy, dim, rank


def _shape(type_: Attribute) -> tuple[int, ...] | None:
    return tuple(type_.get_shape()) if isinstance(type_, MemRefType) else None


def _element(type_: Attribute) -> Attribute | None:
    if isinstance(type_, MemRefType | UnrankedMemRefType):
        return type_.element_type
    return None


@irdl_op_definition
class CopyOp(MemRefOp, xmemref.CopyOp):
    """`memref.copy %src, %dst attr-dict : type to type` (ranked or unranked)."""

    name = "memref.copy"
    source = operand_def(AnyAttr())
    destination = operand_def(AnyAttr())
    assembly_format = "$source `,` $destination attr-dict `:` type($source) `to` type($destination)"

    def verify_(self) -> None:
        for index, value in enumerate((self.source, self.destination)):
            if not is_memref(value.type):
                raise VerifyException(
                    f"operand #{index} must be ranked or unranked memref of any type values, "
                    f"but got {quoted(value.type)}"
                )
        if _element(self.source.type) != _element(self.destination.type):
            raise VerifyException("requires the same element type for all operands")
        src, dst = _shape(self.source.type), _shape(self.destination.type)
        if src is not None and dst is not None:
            compatible = len(src) == len(dst) and all(
                a == b or a < 0 or b < 0 for a, b in zip(src, dst)
            )
            if not compatible:
                raise VerifyException("requires the same shape for all operands")


@irdl_op_definition
class DimOp(MemRefOp, xmemref.DimOp):
    """`memref.dim attr-dict %m, %i : type`."""

    name = "memref.dim"
    source = operand_def(AnyAttr())
    index = operand_def(IndexType)
    result = result_def(IndexType)
    assembly_format = "attr-dict $source `,` $index `:` type($source)"

    def verify_(self) -> None:
        if not is_memref(self.source.type):
            raise VerifyException(
                "operand #0 must be unranked.memref of any type values or non-0-ranked.memref "
                f"of any type values, but got {quoted(self.source.type)}"
            )


@irdl_op_definition
class RankOp(MemRefOp, xmemref.RankOp):
    """`memref.rank %m attr-dict : type` (ranked or unranked)."""

    name = "memref.rank"
    source = operand_def(AnyAttr())
    rank = result_def(IndexType)
    assembly_format = "$source attr-dict `:` type($source)"

    def verify_(self) -> None:
        if not is_memref(self.source.type):
            raise VerifyException(
                "operand #0 must be ranked or unranked memref of any type values, but got "
                f"{quoted(self.source.type)}"
            )


ACCESS_OPS: list[type[IRDLOperation]] = [
    LoadOp,
    StoreOp,
    AtomicRMWOp,
    GenericAtomicRMWOp,
    AtomicYieldOp,
    PrefetchOp,
    CopyOp,
    DimOp,
    RankOp,
]
