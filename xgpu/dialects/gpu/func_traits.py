"""The traits and the property constraints of gpu.func (`xgpu.dialects.gpu.func`).

`AutomaticAllocationScope`, and the ODS constraints of its properties with
MLIR's descriptions: `KnownSizeConstraint` (`known_*_size`),
`FunctionTypeConstraint` (`function_type`) and `DictArrayConstraint`
(`arg_attrs` and the like).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, DictionaryAttr, FunctionType, i32
from xdsl.ir import Attribute
from xdsl.traits import OpTrait

from xgpu.dialects.gpu.module import ODSAttrConstraint


def _is_dense_i32_array(attr: Attribute) -> bool:
    return isinstance(attr, DenseArrayBase) and attr.elt_type == i32


# --------------------------------------------------------------------------- #
# Traits                                                                      #
# --------------------------------------------------------------------------- #


class AutomaticAllocationScope(OpTrait):
    """Marker: allocations in the op's regions are freed when control leaves it."""


@dataclass(frozen=True)
class KnownSizeConstraint(ODSAttrConstraint):
    """`known_*_size`: a dense i32 array of 3 elements."""

    description: str = "i32 dense array attribute with 3 elements (if present)"

    def check(self, attr: Attribute) -> bool:
        return _is_dense_i32_array(attr) and len(attr) == 3  # pyright: ignore

    def get_bases(self) -> set[type[Attribute]] | None:
        return {DenseArrayBase}


@dataclass(frozen=True)
class FunctionTypeConstraint(ODSAttrConstraint):
    """`function_type`: a FunctionType."""

    attr_name: str = "function_type"
    description: str = "type attribute of function type"

    def check(self, attr: Attribute) -> bool:
        return isinstance(attr, FunctionType)

    def get_bases(self) -> set[type[Attribute]] | None:
        return {FunctionType}


@dataclass(frozen=True)
class DictArrayConstraint(ODSAttrConstraint):
    """An array of dictionaries (`arg_attrs` and the like)."""

    description: str = "Array of dictionary attributes"

    def check(self, attr: Attribute) -> bool:
        return isinstance(attr, ArrayAttr) and all(isinstance(d, DictionaryAttr) for d in attr.data)

    def get_bases(self) -> set[type[Attribute]] | None:
        return {ArrayAttr}
