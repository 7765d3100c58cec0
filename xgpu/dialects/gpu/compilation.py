"""Compilation attributes: #gpu.object, #gpu.select_object,
#gpu.kernel_metadata, #gpu.kernel_table.

Syntax and verifier messages as mlir-opt 22:

    #gpu.object<#nvvm.target, "...">                       (fatbin, the default format)
    #gpu.object<#rocdl.target, properties = {O = 3 : i32}, kernels = <[...]>, bin = "...">
    #gpu.select_object                                     (first object)
    #gpu.select_object<1 : i64>  /  #gpu.select_object<#nvvm.target>
    #gpu.kernel_metadata<"name", (i32) -> (), arg_attrs = [{...}], metadata = {...}>
    #gpu.kernel_table<[#gpu.kernel_metadata<...>, ...]>    (sorted by name)   #gpu.kernel_table<>

Inside #gpu.object the kernel table prints without its `#gpu.kernel_table`
prefix (`kernels = <[...]>`); both spellings parse. The object's blob is kept
as bytes so that any byte sequence prints back as written (`"\\00\\FF..."`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.dialects.builtin import (
    ArrayAttr,
    BytesAttr,
    DictionaryAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    NoneAttr,
    StringAttr,
    i64,
)
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.mlir_lexer import MLIRTokenKind, StringLiteral
from xdsl.utils.str_enum import StrEnum

from xgpu.dialects.gpu.targets import is_target_attr, print_array, sorted_dict

__all__ = [
    "ATTRS",
    "OPS",
    "CompilationTarget",
    "KernelMetadataAttr",
    "KernelTableAttr",
    "ObjectAttr",
    "SelectObjectAttr",
]


class CompilationTarget(StrEnum):
    """The format of a #gpu.object's blob (its keyword in the syntax)."""

    OFFLOAD = "offload"
    ASSEMBLY = "assembly"
    BINARY = "bin"
    FATBIN = "fatbin"


_FORMATS = tuple(f.value for f in CompilationTarget)


def _parse_optional_blob(parser: AttrParser) -> bytes | None:
    """A string literal as raw bytes (escapes resolved, any byte allowed)."""
    token = parser._current_token  # pyright: ignore[reportPrivateUsage]
    if token.kind not in (MLIRTokenKind.STRING_LIT, MLIRTokenKind.BYTES_LIT):
        return None
    parser._consume_token()  # pyright: ignore[reportPrivateUsage]
    return StringLiteral.from_span(token.span).bytes_contents


def _parse_sorted_dict(parser: AttrParser) -> DictionaryAttr:
    start = parser.pos
    attr = parser.parse_attribute()
    if not isinstance(attr, DictionaryAttr):
        parser.raise_error("invalid kind of attribute specified", start)
    return sorted_dict(attr)


# --------------------------------------------------------------------------
# #gpu.kernel_metadata
# --------------------------------------------------------------------------


@irdl_attr_definition
class KernelMetadataAttr(ParametrizedAttribute):
    """Name, function type, and optional argument attributes and metadata of a
    compiled kernel."""

    name = "gpu.kernel_metadata"

    kernel_name: StringAttr
    function_type: TypeAttribute
    arg_attrs: ArrayAttr | NoneAttr
    metadata: DictionaryAttr | NoneAttr

    def __init__(
        self,
        kernel_name: str | StringAttr,
        function_type: TypeAttribute,
        arg_attrs: ArrayAttr | Sequence[DictionaryAttr | Mapping[str, Attribute]] | None = None,
        metadata: DictionaryAttr | Mapping[str, Attribute] | None = None,
    ):
        if isinstance(kernel_name, str):
            kernel_name = StringAttr(kernel_name)
        args: Attribute = NoneAttr()
        if arg_attrs is not None:
            args = ArrayAttr(
                [
                    sorted_dict(a if isinstance(a, DictionaryAttr) else DictionaryAttr(dict(a)))
                    if isinstance(a, DictionaryAttr | Mapping)
                    else a
                    for a in arg_attrs
                ]
            )
        meta: Attribute = NoneAttr()
        if metadata is not None:
            meta = sorted_dict(
                metadata if isinstance(metadata, DictionaryAttr) else DictionaryAttr(dict(metadata))
            )
        super().__init__(kernel_name, function_type, args, meta)

    @staticmethod
    def check(arg_attrs: Attribute) -> str | None:
        if isinstance(arg_attrs, ArrayAttr) and not all(
            isinstance(a, DictionaryAttr) for a in arg_attrs
        ):
            return "all attributes in the array must be a dictionary attribute"
        return None

    def verify(self) -> None:
        if (message := self.check(self.arg_attrs)) is not None:
            raise VerifyException(message)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        start = parser.pos
        parser.parse_punctuation("<")
        name_pos = parser.pos
        name = parser.parse_optional_str_literal()
        if name is None:
            parser.raise_error("invalid kind of attribute specified", name_pos)
        parser.parse_punctuation(",")
        function_type = parser.parse_type()
        values: dict[str, Attribute] = {}
        if parser.parse_optional_punctuation(",") is not None:
            while True:
                key_pos = parser.pos
                key = parser.parse_identifier()
                if key not in ("arg_attrs", "metadata") or key in values:
                    parser.raise_error(
                        f"duplicate or unknown struct parameter name: {key}", key_pos
                    )
                parser.parse_punctuation("=")
                if key == "metadata":
                    values[key] = _parse_sorted_dict(parser)
                else:
                    value_pos = parser.pos
                    array = parser.parse_attribute()
                    if not isinstance(array, ArrayAttr):
                        parser.raise_error("invalid kind of attribute specified", value_pos)
                    values[key] = ArrayAttr(
                        [sorted_dict(a) if isinstance(a, DictionaryAttr) else a for a in array]
                    )
                if parser.parse_optional_punctuation(",") is None:
                    break
        parser.parse_punctuation(">")
        arg_attrs = values.get("arg_attrs", NoneAttr())
        if (message := cls.check(arg_attrs)) is not None:
            parser.raise_error(message, start)
        return (
            StringAttr(name),
            function_type,
            arg_attrs,
            values.get("metadata", NoneAttr()),
        )

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_string_literal(self.kernel_name.data)
        printer.print_string(", ")
        printer.print_attribute(self.function_type)
        if isinstance(self.arg_attrs, ArrayAttr):
            printer.print_string(", arg_attrs = ")
            print_array(printer, self.arg_attrs)
        if isinstance(self.metadata, DictionaryAttr):
            printer.print_string(", metadata = ")
            printer.print_attribute(self.metadata)
        printer.print_string(">")


# --------------------------------------------------------------------------
# #gpu.kernel_table
# --------------------------------------------------------------------------


@irdl_attr_definition
class KernelTableAttr(ParametrizedAttribute):
    """A list of kernel metadata, kept sorted by kernel name; names are unique."""

    name = "gpu.kernel_table"

    kernels: ArrayAttr[KernelMetadataAttr]

    def __init__(self, kernels: Sequence[KernelMetadataAttr] | ArrayAttr[KernelMetadataAttr] = ()):
        super().__init__(ArrayAttr(sorted(kernels, key=lambda k: k.kernel_name.data)))

    @staticmethod
    def check(kernels: Sequence[KernelMetadataAttr]) -> str | None:
        names = [k.kernel_name.data for k in kernels]
        if len(set(names)) != len(names):
            return "expected all kernels to be uniquely named"
        return None

    def verify(self) -> None:
        if (message := self.check(self.kernels.data)) is not None:
            raise VerifyException(message)
        names = [k.kernel_name.data for k in self.kernels]
        if names != sorted(names):
            raise VerifyException("expected the kernels to be sorted by name")

    def lookup(self, name: str) -> KernelMetadataAttr | None:
        """The kernel named `name`, if any."""
        for kernel in self.kernels:
            if kernel.kernel_name.data == name:
                return kernel
        return None

    @classmethod
    def parse_body(cls, parser: AttrParser) -> KernelTableAttr:
        """`<` (`[` kernel_metadata (, kernel_metadata)* `]`)? `>`."""
        parser.parse_punctuation("<")
        kernels: list[KernelMetadataAttr] = []
        start = parser.pos
        if parser.parse_optional_punctuation("[") is not None:

            def parse_kernel() -> KernelMetadataAttr:
                pos = parser.pos
                attr = parser.parse_attribute()
                if not isinstance(attr, KernelMetadataAttr):
                    parser.raise_error("invalid kind of attribute specified", pos)
                return attr

            kernels = parser.parse_comma_separated_list(parser.Delimiter.NONE, parse_kernel)
            parser.parse_punctuation("]")
        parser.parse_punctuation(">")
        if (message := cls.check(kernels)) is not None:
            parser.raise_error(message, start)
        return KernelTableAttr(kernels)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        return cls.parse_body(parser).parameters

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        if self.kernels.data:
            printer.print_string("[")
            printer.print_list(self.kernels.data, printer.print_attribute)
            printer.print_string("]")
        printer.print_string(">")


# --------------------------------------------------------------------------
# #gpu.object
# --------------------------------------------------------------------------

_BAD_TARGET = "the target attribute must implement or promise the `gpu::TargetAttrInterface`"


@irdl_attr_definition
class ObjectAttr(ParametrizedAttribute):
    """A compiled GPU object: target, format, blob, optional properties and
    kernel table."""

    name = "gpu.object"

    target: Attribute
    format: StringAttr
    object: BytesAttr
    properties: DictionaryAttr | NoneAttr
    kernels: KernelTableAttr | NoneAttr

    def __init__(
        self,
        target: Attribute,
        object: bytes | str,
        format: CompilationTarget | str = CompilationTarget.FATBIN,
        properties: DictionaryAttr | Mapping[str, Attribute] | None = None,
        kernels: KernelTableAttr | Sequence[KernelMetadataAttr] | None = None,
    ):
        if isinstance(object, str):
            object = object.encode()
        props: Attribute = NoneAttr()
        if properties is not None:
            props = sorted_dict(
                properties
                if isinstance(properties, DictionaryAttr)
                else DictionaryAttr(dict(properties))
            )
        table: Attribute = NoneAttr()
        if kernels is not None:
            table = kernels if isinstance(kernels, KernelTableAttr) else KernelTableAttr(kernels)
        super().__init__(target, StringAttr(str(format)), BytesAttr(object), props, table)

    @property
    def compilation_target(self) -> CompilationTarget:
        return CompilationTarget(self.format.data)

    def verify(self) -> None:
        if not is_target_attr(self.target):
            raise VerifyException(_BAD_TARGET)
        if self.format.data not in _FORMATS:
            raise VerifyException("expected keyword for GPU object format")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        start = parser.pos
        parser.parse_punctuation("<")
        target = parser.parse_attribute()
        parser.parse_punctuation(",")
        properties: Attribute = NoneAttr()
        kernels: Attribute = NoneAttr()
        if parser.parse_optional_keyword("properties") is not None:
            parser.parse_punctuation("=")
            properties = _parse_sorted_dict(parser)
            parser.parse_punctuation(",")
        if parser.parse_optional_keyword("kernels") is not None:
            parser.parse_punctuation("=")
            if parser._current_token.text == "<":  # pyright: ignore[reportPrivateUsage]
                kernels = KernelTableAttr.parse_body(parser)
            else:
                pos = parser.pos
                kernels = parser.parse_attribute()
                if not isinstance(kernels, KernelTableAttr):
                    parser.raise_error("invalid kind of attribute specified", pos)
            parser.parse_punctuation(",")
        fmt = CompilationTarget.FATBIN.value
        blob = _parse_optional_blob(parser)
        if blob is None:
            pos = parser.pos
            keyword = parser.parse_optional_identifier()
            if keyword not in _FORMATS:
                parser.raise_error("expected keyword for GPU object format", pos)
            fmt = keyword
            parser.parse_punctuation("=")
            blob = _parse_optional_blob(parser)
            if blob is None:
                parser.raise_error("expected string")
        parser.parse_punctuation(">")
        if not is_target_attr(target):
            parser.raise_error(_BAD_TARGET, start)
        return (target, StringAttr(fmt), BytesAttr(blob), properties, kernels)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_attribute(self.target)
        printer.print_string(", ")
        if isinstance(self.properties, DictionaryAttr):
            printer.print_string("properties = ")
            printer.print_attribute(self.properties)
            printer.print_string(", ")
        if isinstance(self.kernels, KernelTableAttr):
            printer.print_string("kernels = ")
            self.kernels.print_parameters(printer)
            printer.print_string(", ")
        if self.format.data != CompilationTarget.FATBIN:
            printer.print_string(f"{self.format.data} = ")
        printer.print_bytes_literal(self.object.data)
        printer.print_string(">")


# --------------------------------------------------------------------------
# #gpu.select_object
# --------------------------------------------------------------------------


def _is_negative(attr: IntegerAttr) -> bool:
    value = attr.value.data
    if value < 0:
        return True
    typ = attr.type
    if isinstance(typ, IntegerType) and not isinstance(typ, IndexType):
        width = typ.width.data
        return value >= 1 << (width - 1)
    return False


@irdl_attr_definition
class SelectObjectAttr(ParametrizedAttribute):
    """The offloading handler of gpu.binary that embeds one object: the first
    (no parameter), the one at an index, or the one for a target."""

    name = "gpu.select_object"

    target: Attribute  # NoneAttr() when absent

    def __init__(self, target: Attribute | int | None = None):
        if target is None:
            target = NoneAttr()
        elif isinstance(target, int):
            target = IntegerAttr(target, i64)
        super().__init__(target)

    @staticmethod
    def check(target: Attribute) -> str | None:
        if isinstance(target, NoneAttr):
            return None
        if isinstance(target, IntegerAttr):
            if _is_negative(target):  # pyright: ignore[reportUnknownArgumentType]
                return "the object index must be positive"
            return None
        if not is_target_attr(target):
            return "the target attribute must be a GPU Target attribute"
        return None

    def verify(self) -> None:
        if (message := self.check(self.target)) is not None:
            raise VerifyException(message)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        if parser.parse_optional_punctuation("<") is None:
            return (NoneAttr(),)
        pos = parser.pos
        target = parser.parse_attribute()
        if isinstance(target, NoneAttr):
            parser.raise_error("the target attribute must be a GPU Target attribute", pos)
        parser.parse_punctuation(">")
        if (message := cls.check(target)) is not None:
            parser.raise_error(message, pos)
        return (target,)

    def print_parameters(self, printer: Printer) -> None:
        if isinstance(self.target, NoneAttr):
            return
        printer.print_string("<")
        printer.print_attribute(self.target)
        printer.print_string(">")


OPS: list[type] = []
ATTRS: list[type] = [KernelMetadataAttr, KernelTableAttr, ObjectAttr, SelectObjectAttr]
