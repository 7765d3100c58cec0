"""Core attributes: #gpu<dim>, #gpu<all_reduce_op>, #gpu<shuffle_mode>,
#gpu<broadcast>, #gpu.address_space, mapping attributes, #gpu.loop_dim_map."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import AffineMapAttr, MemRefType
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import (
    Attribute,
    BlockArgument,
    Data,
    ParametrizedAttribute,
    SpacedOpaqueSyntaxAttribute,
)
from xdsl.ir.affine import AffineMap
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from xgpu.dialects.gpu.utils import parse_enum_keyword
from xgpu.ir.affine_text import affine_map_text


def _expect(parser: AttrParser, punctuation: str) -> None:
    """Parse `punctuation`, failing with MLIR's "expected 'X'" message."""
    if parser.parse_optional_punctuation(punctuation) is None:  # pyright: ignore
        parser.raise_error(f"expected '{punctuation}'")


class Dimension(StrEnum):
    X = "x"
    Y = "y"
    Z = "z"


@irdl_attr_definition
class DimensionAttr(EnumAttribute[Dimension], SpacedOpaqueSyntaxAttribute):
    """`#gpu<dim x|y|z>`."""

    name = "gpu.dim"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> Dimension:
        return parse_enum_keyword(parser, Dimension, "::mlir::gpu::Dimension")


class AllReduceOperation(StrEnum):
    ADD = "add"
    MUL = "mul"
    MINUI = "minui"
    MINSI = "minsi"
    MINNUMF = "minnumf"
    MAXUI = "maxui"
    MAXSI = "maxsi"
    MAXNUMF = "maxnumf"
    AND = "and"
    OR = "or"
    XOR = "xor"
    MINIMUMF = "minimumf"
    MAXIMUMF = "maximumf"


@irdl_attr_definition
class AllReduceOperationAttr(EnumAttribute[AllReduceOperation], SpacedOpaqueSyntaxAttribute):
    """`#gpu<all_reduce_op add|mul|...>`."""

    name = "gpu.all_reduce_op"


class ShuffleMode(StrEnum):
    XOR = "xor"
    UP = "up"
    DOWN = "down"
    IDX = "idx"


@irdl_attr_definition
class ShuffleModeAttr(EnumAttribute[ShuffleMode], SpacedOpaqueSyntaxAttribute):
    """`#gpu<shuffle_mode xor|up|down|idx>`."""

    name = "gpu.shuffle_mode"


class BroadcastType(StrEnum):
    FIRST_ACTIVE_LANE = "first_active_lane"
    SPECIFIC_LANE = "specific_lane"


@irdl_attr_definition
class BroadcastTypeAttr(EnumAttribute[BroadcastType], SpacedOpaqueSyntaxAttribute):
    """`#gpu<broadcast first_active_lane|specific_lane>`."""

    name = "gpu.broadcast"


# --------------------------------------------------------------------------- #
# Address spaces                                                              #
# --------------------------------------------------------------------------- #


class AddressSpace(StrEnum):
    """GPU memory address spaces (MLIR 22 has no `constant`)."""

    GLOBAL = "global"
    WORKGROUP = "workgroup"
    PRIVATE = "private"


class _AngleEnumSyntax:
    """Pretty syntax `#gpu.<mnemonic><case>` for an `EnumAttribute` subclass.

    Mix in before `EnumAttribute[...]`; `cpp_enum` names the enum in MLIR's
    parse error ("expected ::mlir::gpu::X to be one of: ...")."""

    cpp_enum: ClassVar[str]
    enum_type: ClassVar[type[StrEnum]]
    data: StrEnum

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_identifier_or_string_literal(self.data.value)

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> StrEnum:
        _expect(parser, "<")
        value = parse_enum_keyword(parser, cls.enum_type, cls.cpp_enum)
        _expect(parser, ">")
        return value


@irdl_attr_definition
class AddressSpaceAttr(_AngleEnumSyntax, EnumAttribute[AddressSpace]):
    """`#gpu.address_space<global|workgroup|private>`, e.g. as a memref memory space."""

    name = "gpu.address_space"
    cpp_enum = "::mlir::gpu::AddressSpace"


# --------------------------------------------------------------------------- #
# Device mapping attributes (scf.forall mappings)                             #
# --------------------------------------------------------------------------- #


class MappingId(StrEnum):
    """The ids a mapping attribute may name: 3-D ids and linear dimensions 0-9."""

    X = "x"
    Y = "y"
    Z = "z"
    LINEAR_DIM_0 = "linear_dim_0"
    LINEAR_DIM_1 = "linear_dim_1"
    LINEAR_DIM_2 = "linear_dim_2"
    LINEAR_DIM_3 = "linear_dim_3"
    LINEAR_DIM_4 = "linear_dim_4"
    LINEAR_DIM_5 = "linear_dim_5"
    LINEAR_DIM_6 = "linear_dim_6"
    LINEAR_DIM_7 = "linear_dim_7"
    LINEAR_DIM_8 = "linear_dim_8"
    LINEAR_DIM_9 = "linear_dim_9"

    @property
    def is_linear(self) -> bool:
        return self.value.startswith("linear_dim_")

    @property
    def relative_index(self) -> int:
        """0-2 for x/y/z, N for linear_dim_N."""
        if self.is_linear:
            return int(self.value.removeprefix("linear_dim_"))
        return ("x", "y", "z").index(self.value)


_MAPPING_ID = "::mlir::gpu::MappingId"


@irdl_attr_definition
class BlockMappingAttr(_AngleEnumSyntax, EnumAttribute[MappingId]):
    """`#gpu.block<x|y|z|linear_dim_N>`."""

    name = "gpu.block"
    cpp_enum = _MAPPING_ID


@irdl_attr_definition
class ThreadMappingAttr(_AngleEnumSyntax, EnumAttribute[MappingId]):
    """`#gpu.thread<x|y|z|linear_dim_N>`."""

    name = "gpu.thread"
    cpp_enum = _MAPPING_ID


@irdl_attr_definition
class WarpMappingAttr(_AngleEnumSyntax, EnumAttribute[MappingId]):
    """`#gpu.warp<x|y|z|linear_dim_N>`."""

    name = "gpu.warp"
    cpp_enum = _MAPPING_ID


@irdl_attr_definition
class WarpgroupMappingAttr(_AngleEnumSyntax, EnumAttribute[MappingId]):
    """`#gpu.warpgroup<x|y|z|linear_dim_N>`."""

    name = "gpu.warpgroup"
    cpp_enum = _MAPPING_ID


@irdl_attr_definition
class LaneMappingAttr(_AngleEnumSyntax, EnumAttribute[MappingId]):
    """`#gpu.lane<x|y|z|linear_dim_N>`."""

    name = "gpu.lane"
    cpp_enum = _MAPPING_ID


@irdl_attr_definition
class MemorySpaceMappingAttr(_AngleEnumSyntax, EnumAttribute[AddressSpace]):
    """`#gpu.memory_space<global|workgroup|private>`."""

    name = "gpu.memory_space"
    cpp_enum = "::mlir::gpu::AddressSpace"


_U64 = 1 << 64


@irdl_attr_definition
class MappingMaskAttr(Data[int]):
    """`#gpu.mask<N>`: a 64-bit mask of the active physical ids.

    Parsing wraps small negative numbers (and `true`) to their unsigned value,
    as MLIR's uint64_t parameter parser does."""

    name = "gpu.mask"

    def __init__(self, mask: int):
        super().__init__(mask % _U64 if -(1 << 63) < mask < 0 else mask)

    def verify(self) -> None:
        from xdsl.utils.exceptions import VerifyException

        if not 0 <= self.data < _U64:
            raise VerifyException(f"#gpu.mask value {self.data} does not fit in 64 bits")

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data}>")

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> int:
        _expect(parser, "<")
        span = parser._current_token.span  # pyright: ignore[reportPrivateUsage]
        value = parser.parse_optional_integer()
        if value is None:
            parser.raise_error("expected integer value", span)
        end = parser._current_token.span.start  # pyright: ignore[reportPrivateUsage]
        text = parser.lexer.input.content[span.start : end].strip()
        if text == "true":
            value = -1
        # MLIR sizes the APInt of a negative literal by its digit count:
        # up to 16 decimal digits wrap to 64 bits, longer ones are refused.
        digits = text.lstrip("-").strip()
        too_long = value < 0 and not digits.startswith("0x") and len(digits) > 16
        if value >= _U64 or value <= -(1 << 63) or too_long:
            parser.raise_error("integer value too large", span)
        _expect(parser, ">")
        return value % _U64

    def get_mask(self) -> int:
        return self.data


# --------------------------------------------------------------------------- #
# Parallel-loop mapping (#gpu.loop_dim_map)                                   #
# --------------------------------------------------------------------------- #


class Processor(StrEnum):
    """The hardware id an `scf.parallel` dimension is mapped to."""

    BLOCK_X = "block_x"
    BLOCK_Y = "block_y"
    BLOCK_Z = "block_z"
    THREAD_X = "thread_x"
    THREAD_Y = "thread_y"
    THREAD_Z = "thread_z"
    SEQUENTIAL = "sequential"


@irdl_attr_definition
class ProcessorAttr(EnumAttribute[Processor], SpacedOpaqueSyntaxAttribute):
    """The `processor` parameter of `#gpu.loop_dim_map`.

    Not registered in the dialect: MLIR 22 has no stand-alone `#gpu<processor ..>`."""

    name = "gpu.processor"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> Processor:
        return parse_enum_keyword(parser, Processor, "::mlir::gpu::Processor")


@irdl_attr_definition
class LoopDimMapAttr(ParametrizedAttribute):
    """`#gpu.loop_dim_map<processor = P, map = AFFINE, bound = AFFINE>`.

    The parameters may be written in any order; they print in this order."""

    name = "gpu.loop_dim_map"

    processor: ProcessorAttr
    map: AffineMapAttr
    bound: AffineMapAttr

    def __init__(
        self,
        processor: Processor | ProcessorAttr,
        map: AffineMap | AffineMapAttr,
        bound: AffineMap | AffineMapAttr,
    ):
        if not isinstance(processor, ProcessorAttr):
            processor = ProcessorAttr(processor)
        if isinstance(map, AffineMap):
            map = AffineMapAttr(map)
        if isinstance(bound, AffineMap):
            bound = AffineMapAttr(bound)
        super().__init__(processor, map, bound)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(
            f"<processor = {self.processor.data.value}, "
            f"map = {affine_map_text(self.map.data)}, "
            f"bound = {affine_map_text(self.bound.data)}>"
        )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        names = ("processor", "map", "bound")
        values: dict[str, Attribute] = {}
        _expect(parser, "<")
        for i in range(len(names)):
            if i:
                _expect(parser, ",")
            span = parser._current_token.span  # pyright: ignore[reportPrivateUsage]
            key = parser.parse_optional_identifier()
            if key is None:
                parser.raise_error("expected valid keyword", span)
            if key not in names or key in values:
                parser.raise_error(f"duplicate or unknown struct parameter name: {key}", span)
            _expect(parser, "=")
            if key == "processor":
                values[key] = ProcessorAttr(ProcessorAttr.parse_parameter(parser))
                continue
            start = parser._current_token.span  # pyright: ignore[reportPrivateUsage]
            try:
                values[key] = AffineMapAttr(parser.parse_affine_map())
            except NotImplementedError as exc:  # xDSL's semi-affine limits
                parser.raise_error(f"invalid affine map: {exc}", start)
        _expect(parser, ">")
        return [values[n] for n in names]


def verify_attributions(args: Sequence[BlockArgument], space: AddressSpace) -> None:
    """The rule MLIR applies to the workgroup and private attributions of
    gpu.func and gpu.launch: each is a memref, and a `#gpu.address_space` memory
    space must be `space` (numeric or other memory spaces are not checked)."""
    for arg in args:
        if not isinstance(arg.type, MemRefType):
            raise VerifyException("expected memref type in attribution")
        memory_space = arg.type.memory_space
        if isinstance(memory_space, AddressSpaceAttr) and memory_space.data != space:
            raise VerifyException(f"expected memory space {space.value} in attribution")


OPS: list[type] = []
ATTRS: list[type] = [
    DimensionAttr,
    AllReduceOperationAttr,
    ShuffleModeAttr,
    BroadcastTypeAttr,
    AddressSpaceAttr,
    BlockMappingAttr,
    ThreadMappingAttr,
    WarpMappingAttr,
    WarpgroupMappingAttr,
    LaneMappingAttr,
    MemorySpaceMappingAttr,
    MappingMaskAttr,
    LoopDimMapAttr,
]
