"""MLIR 22's dlti attributes on xDSL's: the entry lists of `#dlti.dl_spec`,
`#dlti.map`, `#dlti.target_device_spec` and `#dlti.target_system_spec` also
take entries written as `#dlti.dl_entry<key, value>` (the form before MLIR 20,
which `gpu-kernel-outlining{data-layout-str=...}` is often given), mixed with
`key = value` ones, and print them as `key = value` (as mlir-opt does). A key
is a string or a type; a repeated or empty key is reported as mlir-opt does,
at the attribute's name.

xDSL's attribute classes are final: xgpu's share their base
(`xdsl.dialects.dlti.DLTIEntryMap`, with its look-up by key) and their names,
not their classes (match them by `attr.name`, or by xgpu's classes)."""

from __future__ import annotations

from abc import ABC

from xdsl.dialects import dlti as xdlti
from xdsl.dialects.builtin import ArrayAttr, StringAttr
from xdsl.ir import Attribute, Dialect, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser

from xgpu.dialects import xdsl_dialect
from xgpu.dialects.derive import derived_dialect
from xgpu.ir.printer import attribute_text


def _key_text(key: Attribute) -> str:
    return attribute_text(key)


def parse_entries(
    parser: AttrParser, attr_name: str
) -> tuple[ArrayAttr[xdlti.DataLayoutEntryAttr]]:
    """`< (#dlti.dl_entry<key, value> | key = value),* >`."""
    # mlir-opt reports a bad entry list at the attribute's name (after `#dlti.`).
    name_pos = max(parser.pos - len(attr_name.removeprefix("dlti.")), 0)

    def parse_entry() -> xdlti.DataLayoutEntryAttr:
        start = parser.pos
        key = parser.parse_attribute()
        if isinstance(key, xdlti.DataLayoutEntryAttr):
            return key
        if not isinstance(key, StringAttr | TypeAttribute):
            parser.raise_error("invalid kind of attribute specified", start, parser.pos)
        if isinstance(key, StringAttr) and not key.data:
            parser.raise_error("empty string as DLTI key is not allowed", name_pos, name_pos + 1)
        parser.parse_punctuation("=")
        value = parser.parse_attribute()
        return xdlti.DataLayoutEntryAttr(key, value)

    entries = parser.parse_comma_separated_list(parser.Delimiter.ANGLE, parse_entry)
    seen: set[Attribute] = set()
    for entry in entries:
        key = entry.key
        if isinstance(key, StringAttr) and not key.data:
            parser.raise_error("empty string as DLTI key is not allowed", name_pos, name_pos + 1)
        if key in seen:
            parser.raise_error(f"repeated DLTI key: {_key_text(key)}", name_pos, name_pos + 1)
        seen.add(key)
    return (ArrayAttr(entries),)


class _EntryList(xdlti.DLTIEntryMap, ABC):
    """An entry list with MLIR 22's syntax."""

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[ArrayAttr[xdlti.DataLayoutEntryAttr]]:
        return parse_entries(parser, cls.name)


@irdl_attr_definition(init=False)
class DataLayoutSpecAttr(_EntryList):
    name = "dlti.dl_spec"


@irdl_attr_definition(init=False)
class MapAttr(_EntryList):
    name = "dlti.map"


@irdl_attr_definition(init=False)
class TargetDeviceSpecAttr(_EntryList):
    name = "dlti.target_device_spec"


@irdl_attr_definition(init=False)
class TargetSystemSpecAttr(_EntryList):
    name = "dlti.target_system_spec"


def dialect() -> Dialect:
    return derived_dialect(
        xdsl_dialect("dlti"),
        "dlti",
        attrs=[DataLayoutSpecAttr, MapAttr, TargetDeviceSpecAttr, TargetSystemSpecAttr],
    )
