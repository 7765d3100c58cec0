"""gpu.module: a symbol table holding device code, with optional targets and an
offloading handler.

Custom syntax (MLIR 22):

    gpu.module @name (<#handler>)? ([#target, ...])? (attributes {...})? { body }

The handler follows the name without a space (`gpu.module @m<#gpu.select_object<1 : i64>>`).
The body is a graph region of exactly one block with no terminator.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, TypeVar

from xdsl.dialects.builtin import ArrayAttr, StringAttr, SymbolNameConstraint
from xdsl.ir import Attribute, Block, Operation, Region
from xdsl.irdl import (
    AttrConstraint,
    IntConstraint,
    IRDLOperation,
    VerificationContext,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    region_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import (
    NoTerminator,
    OpTrait,
    SymbolOpInterface,
)
from xdsl.utils.exceptions import VerifyException

from xgpu.dialects.gpu.utils import IsolatedFromAboveWithMLIRMessage, SymbolTableWithMLIRMessage

# Names of the attributes that implement MLIR's `TargetAttrInterface`, and of
# those with the `OffloadingTranslationAttrTrait`. The attribute classes live in
# targets.py / compilation.py; matching on names keeps this module independent
# of them.
GPU_TARGET_ATTR_NAMES: frozenset[str] = frozenset(
    {"nvvm.target", "rocdl.target", "spirv.target_env", "xevm.target"}
)
OFFLOADING_HANDLER_ATTR_NAMES: frozenset[str] = frozenset({"gpu.select_object"})


def is_gpu_target_attr(attr: Attribute) -> bool:
    """Whether `attr` is a GPU target attribute (MLIR's TargetAttrInterface)."""
    return attr.name in GPU_TARGET_ATTR_NAMES


def is_offloading_handler_attr(attr: Attribute) -> bool:
    """Whether `attr` has MLIR's `OffloadingTranslationAttrTrait`."""
    return attr.name in OFFLOADING_HANDLER_ATTR_NAMES


@dataclass(frozen=True)
class ODSAttrConstraint(AttrConstraint[Attribute]):
    """A predicate on an attribute that fails with MLIR's ODS constraint message."""

    attr_name: str
    description: str

    def check(self, attr: Attribute) -> bool:
        raise NotImplementedError

    def verify(self, attr: Attribute, constraint_context: VerificationContext) -> None:
        if not self.check(attr):
            raise VerifyException(
                f"attribute '{self.attr_name}' failed to satisfy constraint: {self.description}"
            )

    def mapping_type_vars(
        self, type_var_mapping: Mapping[TypeVar, AttrConstraint | IntConstraint]
    ) -> AttrConstraint[Attribute]:
        return self


@dataclass(frozen=True)
class GPUTargetArrayConstraint(ODSAttrConstraint):
    """A non-empty array of GPU target attributes."""

    attr_name: str = "targets"
    description: str = "array of GPU target attributes with at least 1 elements"

    def check(self, attr: Attribute) -> bool:
        return (
            isinstance(attr, ArrayAttr)
            and len(attr) >= 1
            and all(is_gpu_target_attr(a) for a in attr)
        )

    def get_bases(self) -> set[type[Attribute]] | None:
        return {ArrayAttr}


@dataclass(frozen=True)
class OffloadingHandlerConstraint(ODSAttrConstraint):
    """An attribute with the `OffloadingTranslationAttrTrait` (e.g. #gpu.select_object)."""

    attr_name: str = "offloadingHandler"
    description: str = "any attribute with the `OffloadingTranslationAttrTrait` trait."

    def check(self, attr: Attribute) -> bool:
        return is_offloading_handler_attr(attr)


class SingleBlockBody(OpTrait):
    """The body region holds exactly one block (MLIR's SingleBlock trait and the
    `SizedRegion<1>` constraint, with their messages)."""

    def verify(self, op: Operation) -> None:
        for i, region in enumerate(op.regions):
            n = len(region.blocks)
            if n > 1:
                raise VerifyException(f"expects region #{i} to have 0 or 1 blocks")
            if n == 0:
                raise VerifyException(
                    f"region #{i} ('bodyRegion') failed to verify constraint: region with 1 blocks"
                )


def _print_sorted_attr_dict(
    printer: Printer, attrs: Mapping[str, Attribute], with_keyword: bool
) -> None:
    """Print an attribute dictionary sorted by name, as MLIR does."""
    if not attrs:
        return
    if with_keyword:
        printer.print_string(" attributes")
    printer.print_string(" ")
    printer.print_attr_dict(dict(sorted(attrs.items())))


@irdl_op_definition
class GPUModuleOp(IRDLOperation):
    """`gpu.module`: a module of device code, optionally with compilation targets."""

    name = "gpu.module"

    sym_name = prop_def(SymbolNameConstraint())
    targets = opt_prop_def(GPUTargetArrayConstraint())
    offloading_handler = opt_prop_def(OffloadingHandlerConstraint(), prop_name="offloadingHandler")

    body = region_def()

    traits = traits_def(
        SingleBlockBody(),
        IsolatedFromAboveWithMLIRMessage(),
        NoTerminator(),
        SymbolOpInterface(),
        SymbolTableWithMLIRMessage(),
    )

    _PROP_NAMES: ClassVar[tuple[str, ...]] = ("sym_name", "targets", "offloadingHandler")

    def __init__(
        self,
        name: str | StringAttr,
        ops: Iterable[Operation] | Region = (),
        targets: Sequence[Attribute] | ArrayAttr | None = None,
        offloading_handler: Attribute | None = None,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        if isinstance(name, str):
            name = StringAttr(name)
        if targets is not None and not isinstance(targets, ArrayAttr):
            targets = ArrayAttr(targets)
        body = ops if isinstance(ops, Region) else Region(Block(ops))
        if not body.blocks:
            body.add_block(Block())
        super().__init__(
            properties={
                "sym_name": name,
                "targets": targets,
                "offloadingHandler": offloading_handler,
            },
            attributes=dict(attributes or {}),
            regions=[body],
        )

    @property
    def block(self) -> Block:
        """The single block of the body (the IR must verify)."""
        return self.body.block

    def has_target(self, target: Attribute) -> bool:
        return self.targets is not None and target in self.targets.data

    @classmethod
    def parse(cls, parser: Parser) -> GPUModuleOp:
        name = parser.parse_symbol_name()
        handler = None
        if parser.parse_optional_punctuation("<") is not None:
            handler = parser.parse_attribute()
            parser.parse_punctuation(">")
        targets = parser.parse_optional_comma_separated_list(
            parser.Delimiter.SQUARE, parser.parse_attribute
        )
        attrs = parser.parse_optional_attr_dict_with_keyword()
        extra = dict(attrs.data) if attrs is not None else {}
        region = parser.parse_region()
        if not region.blocks:
            region.add_block(Block())
        props: dict[str, Attribute] = {"sym_name": name}
        if handler is not None:
            props["offloadingHandler"] = handler
        if targets is not None:
            props["targets"] = ArrayAttr(targets)
        # Inherent attributes written in the dictionary become properties.
        for prop in cls._PROP_NAMES:
            if prop in extra:
                props[prop] = extra.pop(prop)
        return cls.create(properties=props, attributes=extra, regions=[region])

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        if self.offloading_handler is not None:
            printer.print_string("<")
            printer.print_attribute(self.offloading_handler)
            printer.print_string(">")
        if self.targets is not None:
            printer.print_string(" ")
            printer.print_attribute(self.targets)
        _print_sorted_attr_dict(printer, self.attributes, with_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False, print_empty_block=False)


OPS: list[type] = [GPUModuleOp]
ATTRS: list[type] = []
