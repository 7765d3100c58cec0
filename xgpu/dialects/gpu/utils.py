"""Helpers shared by the gpu dialect modules: enum-keyword parsing with MLIR's
messages, traits that report with MLIR's messages, and an op base class that
keeps properties in MLIR's order."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, TypeVar

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Operation, SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.parser import AttrParser
from xdsl.traits import HasParent, IsolatedFromAbove, SymbolTable
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from xgpu.diagnostics import OpDiagnostic

_E = TypeVar("_E", bound=StrEnum)


# --------------------------------------------------------------------------- #
# Parsing                                                                     #
# --------------------------------------------------------------------------- #


def parse_enum_keyword(parser: AttrParser, enum: type[_E], cpp_name: str) -> _E:
    """Parse one case of `enum` (a keyword or a string) as MLIR's enum parameter
    parser does, failing with its messages ("expected ::mlir::gpu::X to be one
    of: ...")."""
    span = parser._current_token.span  # pyright: ignore[reportPrivateUsage]
    value = parser.parse_optional_identifier_or_str_literal()
    if value is None:
        parser.raise_error("expected valid keyword or string", span)
    if value not in enum.__members__.values():
        cases = ", ".join(e.value for e in enum)
        parser.raise_error(f"expected {cpp_name} to be one of: {cases}", span)
    return enum(value)


# --------------------------------------------------------------------------- #
# Ops                                                                         #
# --------------------------------------------------------------------------- #


class SortedPropertiesOp(IRDLOperation):
    """Keeps properties in MLIR's (sorted) order, whatever order the parser or a
    builder set them in, so the generic form prints like MLIR's."""

    def __post_init__(self):
        super().__post_init__()
        if len(self.properties) > 1:
            self.properties = dict(sorted(self.properties.items()))


class MLIRResultNames(IRDLOperation):
    """Gives the op's results MLIR's default names (its `getAsmResultNames`:
    `%memref, %asyncToken = gpu.alloc async ...`) as xDSL name hints when the op is
    created, unless a result already has a name (a name written in the source is
    set by the parser afterwards and wins; `%0` sets none).

    `MLIR_RESULT_NAMES` has one name per result definition, in order; every result
    of a variadic definition gets its name. Ops whose names depend on the op
    override `mlir_result_names`."""

    MLIR_RESULT_NAMES: ClassVar[tuple[str, ...]] = ()

    def mlir_result_names(self) -> Sequence[str | None]:
        """One name (or None) per result."""
        names = self.MLIR_RESULT_NAMES
        if len(self.results) == len(names):
            return names
        # An absent optional or a variadic definition: ask the accessors.
        by_result: dict[SSAValue, str] = {}
        try:
            for (field, _), name in zip(self.get_irdl_definition().results, names, strict=True):
                value = getattr(self, field)
                values = value if isinstance(value, Sequence) else (value,)
                for v in values:
                    if v is not None:
                        by_result[v] = name
        except Exception:  # a malformed op (generic input): leave it unnamed
            return ()
        return [by_result.get(r) for r in self.results]

    def __post_init__(self):
        super().__post_init__()
        for result, name in zip(self.results, self.mlir_result_names()):
            if result.name_hint is None and name is not None:
                result.name_hint = name


# --------------------------------------------------------------------------- #
# Traits with MLIR's messages                                                 #
# --------------------------------------------------------------------------- #


class HasParentWithMLIRMessage(HasParent):
    """HasParent whose message has no op-name prefix (the driver adds it)."""

    def verify(self, op: Operation) -> None:
        parent = op.parent_op()
        if parent is None or isinstance(parent, self.op_types):
            return
        if len(self.op_types) == 1:
            raise VerifyException(f"expects parent op '{self.op_types[0].name}'")
        names = ", ".join(f"'{p.name}'" for p in self.op_types)
        raise VerifyException(f"expects parent op to be one of {names}")


class IsolatedFromAboveWithMLIRMessage(IsolatedFromAbove):
    """IsolatedFromAbove, reported as MLIR does: at the offending user, with a
    note at the isolated op."""

    def verify(self, op: Operation) -> None:
        for child in op.walk():
            if child is op:
                continue
            for operand in child.operands:
                owner = operand.owner
                if not op.is_ancestor(owner) or owner is op:
                    raise OpDiagnostic(
                        "using value defined outside the region",
                        op=child,
                        notes=[(op, "required by region isolation constraints")],
                    )


class SymbolTableWithMLIRMessage(SymbolTable):
    """SymbolTable reporting a duplicate symbol at the duplicate, as MLIR does.
    (The one-region, one-block rule is left to the op's own region checks.)"""

    def verify(self, op: Operation) -> None:
        if len(op.regions) != 1 or len(op.regions[0].blocks) != 1:
            return
        seen: dict[str, Operation] = {}
        for child in op.regions[0].block.ops:
            sym = child.get_attr_or_prop("sym_name")
            if not isinstance(sym, StringAttr):
                continue
            first = seen.setdefault(sym.data, child)
            if first is not child:
                raise OpDiagnostic(
                    f"redefinition of symbol named '{sym.data}'",
                    op=child,
                    prefix=False,
                    notes=[(first, "see existing symbol definition here")],
                )
