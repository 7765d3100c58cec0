"""gpu.binary: a symbol holding compiled GPU objects.

    gpu.binary @name (<#handler>)? ({attr-dict})? [#gpu.object<...>, ...]

As mlir-opt 22 prints it: the default offloading handler `#gpu.select_object`
is not printed, which leaves two spaces after the name
(`gpu.binary @b  [#gpu.object<#nvvm.target, "...">]`). The custom parser
always sets the handler (to `#gpu.select_object` when none is written).
Properties: `objects`, `offloadingHandler`, `sym_name`.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, StringAttr
from xdsl.ir import Attribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import SymbolOpInterface, SymbolTable
from xdsl.utils.exceptions import VerifyException

from xgpu.dialects.gpu.compilation import ObjectAttr, SelectObjectAttr

__all__ = ["ATTRS", "OPS", "BinaryOp"]

_PROPS = ("objects", "offloadingHandler", "sym_name")


def is_offloading_handler(attr: Attribute) -> bool:
    """Whether `attr` has MLIR's `OffloadingTranslationAttrTrait`."""
    return isinstance(attr, SelectObjectAttr)


@irdl_op_definition
class BinaryOp(IRDLOperation):
    """A named array of GPU objects (e.g. the output of gpu-module-to-binary),
    with the handler that tells LLVM translation how to embed them."""

    name = "gpu.binary"

    sym_name = prop_def(StringAttr)
    # Constraints are checked in verify_ with MLIR's messages.
    offloading_handler = opt_prop_def(Attribute, prop_name="offloadingHandler")
    objects = prop_def(Attribute)

    traits = traits_def(SymbolOpInterface())

    def __init__(
        self,
        sym_name: str | StringAttr,
        objects: Sequence[ObjectAttr] | ArrayAttr[ObjectAttr],
        offloading_handler: Attribute | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        if isinstance(sym_name, str):
            sym_name = StringAttr(sym_name)
        if not isinstance(objects, ArrayAttr):
            objects = ArrayAttr(objects)
        super().__init__(
            properties={
                "objects": objects,
                "offloadingHandler": offloading_handler or SelectObjectAttr(),
                "sym_name": sym_name,
            },
            attributes=attributes,
        )

    def verify_(self) -> None:
        objects = self.objects
        if not (
            isinstance(objects, ArrayAttr)
            and objects.data
            and all(isinstance(o, ObjectAttr) for o in objects)
        ):
            raise VerifyException(
                "attribute 'objects' failed to satisfy constraint: an array of GPU "
                "object attributes with at least 1 elements"
            )
        handler = self.offloading_handler
        if handler is not None and not is_offloading_handler(handler):
            raise VerifyException(
                "attribute 'offloadingHandler' failed to satisfy constraint: any "
                "attribute with the `OffloadingTranslationAttrTrait` trait."
            )
        parent = self.parent_op()
        if parent is not None and parent.get_trait(SymbolTable) is None:
            raise VerifyException("symbol's parent must have the SymbolTable trait")

    @classmethod
    def parse(cls, parser: Parser) -> BinaryOp:
        sym_name = parser.parse_optional_symbol_name()
        if sym_name is None:
            parser.raise_error("expected valid '@'-identifier for symbol name")
        handler: Attribute = SelectObjectAttr()
        if parser.parse_optional_punctuation("<") is not None:
            handler = parser.parse_attribute()
            parser.parse_punctuation(">")
        attrs = parser.parse_optional_attr_dict()
        objects = parser.parse_attribute()
        props: dict[str, Attribute] = {
            "objects": objects,
            "offloadingHandler": handler,
            "sym_name": sym_name,
        }
        for name in _PROPS:
            if name in attrs:
                props[name] = attrs.pop(name)
        op = cls.create(properties=props, attributes=attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_string(" ")
        handler = self.offloading_handler
        if handler is not None and handler != SelectObjectAttr():
            printer.print_string("<")
            printer.print_attribute(handler)
            printer.print_string(">")
        if self.attributes:
            printer.print_string(" ")
            printer.print_attr_dict(self.attributes)
        printer.print_string(" ")
        printer.print_attribute(self.objects)


OPS: list[type] = [BinaryOp]
ATTRS: list[type] = []
