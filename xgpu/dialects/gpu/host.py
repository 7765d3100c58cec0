"""Host-side gpu ops: wait, alloc, dealloc, memcpy, memset, host_register,
host_unregister and set_default_device."""

from __future__ import annotations

import re
from abc import ABC
from collections.abc import Sequence
from typing import ClassVar, cast

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    IndexType,
    MemRefType,
    NoneAttr,
    ShapedType,
    StridedLayoutAttr,
    UnitAttr,
    UnrankedMemRefType,
    i32,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    opt_result_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.irdl.declarative_assembly_format import (
    CustomDirective,
    ParsingState,
    PrintingState,
    TypeDirective,
    irdl_custom_directive,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import (
    EffectInstance,
    HasCanonicalizationPatternsTrait,
    MemoryEffect,
    MemoryEffectKind,
    MemoryWriteEffect,
)
from xdsl.utils.exceptions import VerifyException

from xgpu.dialects.gpu.async_interface import (
    AsyncDependencies,
    AsyncOpInterface,
    async_token_types,
    parse_defined_async_dependencies,
)
from xgpu.dialects.gpu.types import AsyncTokenType
from xgpu.dialects.gpu.utils import MLIRResultNames
from xgpu.ir.fast_print import LINE_TEXTS, value_names
from xgpu.ir.line_forms import VALUE, defined_values, line_form, optional_attr_dict
from xgpu.ir.verify_memo import SIGNATURE_VERIFIED

_ASYNC_DEPS = "custom<AsyncDependencies>(type($async_token), $async_dependencies)"


# ---------------------------------------------------------------------------
# Custom directives: a type that must be of one builtin kind
# ---------------------------------------------------------------------------


def _parse_type_of_kind(
    parser: Parser, state: ParsingState, kind: type[Attribute], kind_name: str
) -> Attribute:
    """Parse a type and reject it, as MLIR's `parseType<T>` does, when it is not
    of the expected builtin kind."""
    start = parser.pos
    ty = parser.parse_type()
    if not isinstance(ty, kind):
        parser.raise_error(
            f"custom op '{state.op_type.name}' invalid kind of type specified: "
            f"expected {kind_name}, but found '{ty}'",
            start,
            parser.pos,
        )
    return ty


def _print_type(printer: Printer, state: PrintingState, ty: TypeDirective, op: IRDLOperation):
    state.print_whitespace(printer)
    printer.print_list(ty.get(op), printer.print_attribute)


@irdl_custom_directive
class RankedMemRefType(CustomDirective):
    """`custom<RankedMemRefType>(type($x))`: `type($x)` restricted to a ranked memref
    at parse time (MLIR parses `AnyMemRef` operands with `parseType<MemRefType>`)."""

    ty: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> bool:
        self.ty.set(state, [_parse_type_of_kind(parser, state, MemRefType, "builtin.memref")])
        return True

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        _print_type(printer, state, self.ty, op)


@irdl_custom_directive
class UnrankedMemRefKindType(CustomDirective):
    """`custom<UnrankedMemRefKindType>(type($x))`: `type($x)` restricted to an
    unranked memref at parse time."""

    ty: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> bool:
        self.ty.set(
            state,
            [_parse_type_of_kind(parser, state, UnrankedMemRefType, "builtin.unranked_memref")],
        )
        return True

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        _print_type(printer, state, self.ty, op)


# ---------------------------------------------------------------------------
# Memory effects on specific values (MLIR attaches them to operands/results)
# ---------------------------------------------------------------------------


class _AllocResultEffect(MemoryEffect):
    @classmethod
    def get_effects(cls, op: Operation):
        return {EffectInstance(MemoryEffectKind.ALLOC, cast(AllocOp, op).memref)}


class _DeallocOperandEffect(MemoryEffect):
    @classmethod
    def get_effects(cls, op: Operation):
        return {EffectInstance(MemoryEffectKind.FREE, cast(DeallocOp, op).memref)}


class _MemcpyEffect(MemoryEffect):
    @classmethod
    def get_effects(cls, op: Operation):
        op = cast(MemcpyOp, op)
        return {
            EffectInstance(MemoryEffectKind.WRITE, op.dst),
            EffectInstance(MemoryEffectKind.READ, op.src),
        }


class _MemsetEffect(MemoryEffect):
    @classmethod
    def get_effects(cls, op: Operation):
        return {EffectInstance(MemoryEffectKind.WRITE, cast(MemsetOp, op).dst)}


# ---------------------------------------------------------------------------
# Canonicalization patterns (MLIR 22's, in xgpu.transforms.canonicalization)
# ---------------------------------------------------------------------------


class _WaitCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls):
        from xgpu.transforms.canonicalization.gpu_wait import wait_patterns

        return wait_patterns()


class _MemcpyCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls):
        from xgpu.transforms.canonicalization.gpu_memory import memcpy_patterns

        return memcpy_patterns()


class _MemsetCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls):
        from xgpu.transforms.canonicalization.gpu_memory import memset_patterns

        return memset_patterns()


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------


def layout_num_symbols(memref_type: MemRefType) -> int:
    """The number of symbols of the affine map a memref layout stands for
    (one per dynamic offset or stride of a strided layout)."""
    layout = memref_type.layout
    if isinstance(layout, NoneAttr):
        return 0
    if isinstance(layout, AffineMapAttr):
        return layout.data.num_symbols
    if isinstance(layout, StridedLayoutAttr):
        values = (layout.offset, *layout.strides.data)
        return sum(isinstance(v, NoneAttr) for v in values)
    return 0


def _element_type_or_self(ty: Attribute) -> Attribute:
    if isinstance(ty, ShapedType):
        return cast(ShapedType, ty).get_element_type()  # pyright: ignore
    return ty


def _compatible_shapes(a: Sequence[int], b: Sequence[int]) -> bool:
    return len(a) == len(b) and all(
        x == y or x == DYNAMIC_INDEX or y == DYNAMIC_INDEX for x, y in zip(a, b)
    )


# ---------------------------------------------------------------------------
# Ops
# ---------------------------------------------------------------------------


@irdl_op_definition
class WaitOp(AsyncOpInterface, IRDLOperation):
    """`gpu.wait`: block the host on tokens, or (`async`) join them into one token."""

    name = "gpu.wait"

    async_dependencies = var_operand_def(AsyncTokenType)
    async_token = opt_result_def(AsyncTokenType)

    traits = traits_def(_WaitCanonicalization())

    custom_directives = (AsyncDependencies,)
    assembly_format = "custom<AsyncDependencies>(type($async_token), $async_dependencies) attr-dict"

    def __init__(self, dependencies: Sequence[SSAValue] = (), is_async: bool = False):
        super().__init__(
            operands=[dependencies],
            result_types=[async_token_types(is_async)],
        )


@irdl_op_definition
class AllocOp(MLIRResultNames, AsyncOpInterface, IRDLOperation):
    """`gpu.alloc`: allocate a memref on the device (or, `host_shared`, in memory
    that the host can access too)."""

    name = "gpu.alloc"
    MLIR_RESULT_NAMES: ClassVar[tuple[str, ...]] = ("memref", "asyncToken")

    async_dependencies = var_operand_def(AsyncTokenType)
    dynamic_sizes = var_operand_def(IndexType)
    symbol_operands = var_operand_def(IndexType)
    host_shared = opt_prop_def(UnitAttr, prop_name="hostShared")

    memref = result_def(MemRefType)
    async_token = opt_result_def(AsyncTokenType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(_AllocResultEffect())

    custom_directives = (AsyncDependencies, RankedMemRefType)
    assembly_format = (
        f"{_ASYNC_DEPS} (`host_shared` $hostShared^)? ` ` `(` $dynamic_sizes `)`"
        " (`` `[` $symbol_operands^ `]`)? attr-dict `:` custom<RankedMemRefType>(type($memref))"
    )

    def __init__(
        self,
        memref_type: MemRefType,
        dynamic_sizes: Sequence[SSAValue] = (),
        symbol_operands: Sequence[SSAValue] = (),
        deps: Sequence[SSAValue] = (),
        is_async: bool = False,
        host_shared: bool = False,
    ):
        super().__init__(
            operands=[deps, dynamic_sizes, symbol_operands],
            result_types=[memref_type, async_token_types(is_async)],
            properties={"hostShared": UnitAttr()} if host_shared else {},
        )

    def verify_(self) -> None:
        memref_type = cast(MemRefType, self.memref.type)
        expected = sum(d == DYNAMIC_INDEX for d in memref_type.get_shape())
        if len(self.dynamic_sizes) != expected:
            raise VerifyException(
                f"incorrect number of dynamic sizes, has {len(self.dynamic_sizes)}, "
                f"expected {expected}"
            )
        if len(self.symbol_operands) != layout_num_symbols(memref_type):
            raise VerifyException("symbol operand count does not equal memref symbol count")


@irdl_op_definition
class DeallocOp(AsyncOpInterface, IRDLOperation):
    """`gpu.dealloc`: free a memref allocated with `gpu.alloc`."""

    name = "gpu.dealloc"

    async_dependencies = var_operand_def(AsyncTokenType)
    memref = operand_def(MemRefType)
    async_token = opt_result_def(AsyncTokenType)

    traits = traits_def(_DeallocOperandEffect())

    custom_directives = (AsyncDependencies, RankedMemRefType)
    assembly_format = f"{_ASYNC_DEPS} $memref attr-dict `:` custom<RankedMemRefType>(type($memref))"

    def __init__(self, memref: SSAValue, deps: Sequence[SSAValue] = (), is_async: bool = False):
        super().__init__(operands=[deps, memref], result_types=[async_token_types(is_async)])


@irdl_op_definition
class MemcpyOp(AsyncOpInterface, IRDLOperation):
    """`gpu.memcpy`: copy `src` into `dst` (host or device memrefs)."""

    name = "gpu.memcpy"

    async_dependencies = var_operand_def(AsyncTokenType)
    dst = operand_def(MemRefType)
    src = operand_def(MemRefType)
    async_token = opt_result_def(AsyncTokenType)

    traits = traits_def(_MemcpyEffect(), _MemcpyCanonicalization())

    custom_directives = (AsyncDependencies, RankedMemRefType)
    assembly_format = (
        f"{_ASYNC_DEPS} $dst `,` $src `:` custom<RankedMemRefType>(type($dst)) `,`"
        " custom<RankedMemRefType>(type($src)) attr-dict"
    )

    def __init__(
        self,
        dst: SSAValue,
        src: SSAValue,
        deps: Sequence[SSAValue] = (),
        is_async: bool = False,
    ):
        super().__init__(operands=[deps, dst, src], result_types=[async_token_types(is_async)])

    def verify_(self) -> None:
        dst_type = cast(MemRefType, self.dst.type)
        src_type = cast(MemRefType, self.src.type)
        if dst_type.get_element_type() != src_type.get_element_type():
            raise VerifyException("arguments have incompatible element type")
        if not _compatible_shapes(dst_type.get_shape(), src_type.get_shape()):
            raise VerifyException("arguments have incompatible shape")


@irdl_op_definition
class MemsetOp(AsyncOpInterface, IRDLOperation):
    """`gpu.memset`: set every element of `dst` to `value`."""

    name = "gpu.memset"

    async_dependencies = var_operand_def(AsyncTokenType)
    dst = operand_def(MemRefType)
    value = operand_def()
    async_token = opt_result_def(AsyncTokenType)

    traits = traits_def(_MemsetEffect(), _MemsetCanonicalization())

    custom_directives = (AsyncDependencies, RankedMemRefType)
    assembly_format = (
        f"{_ASYNC_DEPS} $dst `,` $value `:` custom<RankedMemRefType>(type($dst)) `,`"
        " type($value) attr-dict"
    )

    def __init__(
        self,
        dst: SSAValue,
        value: SSAValue,
        deps: Sequence[SSAValue] = (),
        is_async: bool = False,
    ):
        super().__init__(operands=[deps, dst, value], result_types=[async_token_types(is_async)])

    def verify_(self) -> None:
        if _element_type_or_self(self.dst.type) != _element_type_or_self(self.value.type):
            raise VerifyException(
                "failed to verify that all of {dst, value} have same element type"
            )


class _HostRegistrationOp(IRDLOperation, ABC):
    """Base of host_register and host_unregister: `gpu.<op> %m : memref<*xT>`."""

    value = operand_def(UnrankedMemRefType)

    custom_directives = (UnrankedMemRefKindType,)
    assembly_format = "$value attr-dict `:` custom<UnrankedMemRefKindType>(type($value))"

    def __init__(self, value: SSAValue):
        super().__init__(operands=[value])


@irdl_op_definition
class HostRegisterOp(_HostRegistrationOp):
    """`gpu.host_register`: make host memory accessible to the device."""

    name = "gpu.host_register"


@irdl_op_definition
class HostUnregisterOp(_HostRegistrationOp):
    """`gpu.host_unregister`: undo a `gpu.host_register`."""

    name = "gpu.host_unregister"


@irdl_op_definition
class SetDefaultDeviceOp(IRDLOperation):
    """`gpu.set_default_device`: select the device later gpu ops run on."""

    name = "gpu.set_default_device"

    dev_index = operand_def(i32)

    traits = traits_def(MemoryWriteEffect())

    assembly_format = "attr-dict $dev_index"

    def __init__(self, dev_index: SSAValue):
        super().__init__(operands=[dev_index])


# ---------------------------------------------------------------------------
# A fast path for parsing gpu.wait
# ---------------------------------------------------------------------------

# A host program has a `gpu.wait async [%t]` after nearly every launch; xDSL's
# declarative-format parser takes longer for it than for a whole launch line.
# `async` and `[%a, %b, ...]` are read at once when every value named is
# already defined as a token (`parse_defined_async_dependencies`); the
# attribute dictionary is then parsed, and the op built, as the declarative
# path does. Anything else is left to the declarative path, which parses or
# reports it.
_format_parse_wait = WaitOp.parse
_wait_fast_path = parse_defined_async_dependencies


def _parse_wait(cls: type[WaitOp], parser: Parser) -> WaitOp:
    fast = _wait_fast_path(parser) if cls is WaitOp else None
    if fast is None:
        return _format_parse_wait.__func__(cls, parser)  # type: ignore[attr-defined]
    is_async, deps = fast
    # What the format's `attr-dict` and the op's construction then do.
    attributes = parser.parse_optional_attr_dict()
    # (The op has no properties, regions or successors, and one operand and
    # one result definition: `build` would pass these to `create`.)
    return cls.create(
        operands=deps, result_types=async_token_types(is_async), attributes=attributes
    )


WaitOp.parse = classmethod(_parse_wait)  # type: ignore[method-assign,assignment]

_WAIT_TOKEN = AsyncTokenType()
# The whole rest of the line `%t = gpu.wait async [%a, ...]` (see
# `xgpu.ir.line_forms`), when it ends there and the next line does not go on
# with a dependency list: what `_parse_wait` reads and builds, in one match.
_WAIT_LINE = re.compile(
    rf"[ \t]+async(?:[ \t]*\[[ \t]*({VALUE}(?:[ \t]*,[ \t]*{VALUE})*)[ \t]*\])?"
    r"[ \t]*\r?\n[ \t\r\n]*(?=[%}{A-Za-z\"^])"
)


@line_form(WaitOp.name)
def _wait_line(parser: Parser, op_type: type[Operation], start: int):  # type: ignore[no-untyped-def]
    match = _WAIT_LINE.match(parser.lexer.input.content, start) if op_type is WaitOp else None
    if match is None:
        return None
    deps = defined_values(parser, match.group(1), _WAIT_TOKEN)
    if deps is None:
        return None
    end = match.end()

    def build() -> WaitOp:
        parser._resume_from(end)  # pyright: ignore[reportPrivateUsage]
        attributes = optional_attr_dict(parser)
        return WaitOp.create(
            operands=deps, result_types=async_token_types(True), attributes=attributes
        )

    return build


_format_print_wait = WaitOp.print


def _wait_text(self: Operation, printer: Printer) -> str | None:
    """The declarative format's text for a wait without attributes whose
    tokens the printer has named, as one string (None for another wait)."""
    deps = None if self.attributes else value_names(printer, self.operands)
    if deps is None or type(self) is not WaitOp:
        return None
    is_async = bool(self.results)
    if deps:
        joined = ", ".join(deps)
        return f" async [{joined}]" if is_async else f" [{joined}]"
    return " async" if is_async else " "


def _print_wait(self: WaitOp, printer: Printer) -> None:
    text = _wait_text(self, printer)
    if text is None:
        _format_print_wait(self, printer)
    else:
        printer.print_string(text)


WaitOp.print = _print_wait  # type: ignore[method-assign]
LINE_TEXTS[WaitOp] = _wait_text


# Their verifiers (and their traits, which verify nothing) read only the
# operand and result types, properties and attributes of the op.
SIGNATURE_VERIFIED.update((WaitOp, AllocOp, DeallocOp, MemcpyOp))

OPS: list[type] = [
    WaitOp,
    AllocOp,
    DeallocOp,
    MemcpyOp,
    MemsetOp,
    HostRegisterOp,
    HostUnregisterOp,
    SetDefaultDeviceOp,
]
ATTRS: list[type] = []
