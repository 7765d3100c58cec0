"""Target attributes a gpu.module carries: #nvvm.target, #rocdl.target,
#xevm.target and #spirv.target_env (with its #spirv.vce and
#spirv.resource_limits parts).

These attributes live in other dialects' namespaces (nvvm, rocdl, xevm, spirv),
which xDSL 0.75 does not have (or has without these attributes).
`target_dialect_factories(existing)` gives dialect factories that add them to
whatever dialect of that name is already known, for the driver to register.

Textual forms follow mlir-opt 22: `struct`-like parameter lists where the
parameters that hold their default value are not printed (so the all-default
target prints as a bare `#nvvm.target`), parsed in any order, printed in
declaration order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IntAttr,
    IntegerAttr,
    NoneAttr,
    StringAttr,
    i32,
    i64,
)
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

__all__ = [
    "ATTRS",
    "OPS",
    "TARGET_DIALECT_ATTRS",
    "NVVMTargetAttr",
    "ROCDLTargetAttr",
    "SPIRVResourceLimitsAttr",
    "SPIRVTargetEnvAttr",
    "SPIRVVerCapExtAttr",
    "XeVMTargetAttr",
    "is_target_attr",
    "target_dialect_factories",
]


def sorted_dict(attr: DictionaryAttr) -> DictionaryAttr:
    """MLIR keeps dictionary entries sorted by name; xDSL keeps insertion order."""
    return DictionaryAttr(dict(sorted(attr.data.items())))


# --------------------------------------------------------------------------
# struct(params) parameter lists
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class _Field:
    """One `key = value` parameter of a struct-like attribute."""

    attr: str  # Python field name
    key: str  # the name written in the IR
    kind: str  # "int", "str", "bool", "dict", "array", "opt_int"
    default: Attribute  # NoneAttr() for optional parameters


def _parse_value(parser: AttrParser, field: _Field, owner: str) -> Attribute:
    start = parser.pos
    match field.kind:
        case "int" | "opt_int":
            return IntAttr(parser.parse_integer(allow_boolean=False))
        case "bool":
            if (b := parser.parse_optional_boolean()) is not None:
                return IntAttr(int(b))
            value = parser.parse_integer(allow_boolean=False)
            if value not in (0, 1):
                parser.raise_error("integer value too large", start)
            return IntAttr(value)
        case "str":
            return StringAttr(parser.parse_str_literal())
        case "dict":
            attr = parser.parse_attribute()
            if not isinstance(attr, DictionaryAttr):
                parser.raise_error("invalid kind of attribute specified", start)
            return sorted_dict(attr)
        case _:
            attr = parser.parse_attribute()
            if not isinstance(attr, ArrayAttr):
                parser.raise_error("invalid kind of attribute specified", start)
            return attr


def _parse_struct(parser: AttrParser, fields: Sequence[_Field], owner: str) -> dict[str, Attribute]:
    """`(< (key = value),* >)?`, keys in any order, each at most once."""
    values: dict[str, Attribute] = {}
    if parser.parse_optional_punctuation("<") is None:
        return values
    if parser.parse_optional_punctuation(">") is not None:
        return values
    by_key = {f.key: f for f in fields}
    while True:
        start = parser.pos
        key = parser.parse_identifier()
        field = by_key.get(key)
        if field is None or field.attr in values:
            parser.raise_error(f"duplicate or unknown struct parameter name: {key}", start)
        parser.parse_punctuation("=")
        values[field.attr] = _parse_value(parser, field, owner)
        if parser.parse_optional_punctuation(",") is None:
            break
    parser.parse_punctuation(">")
    return values


def _print_value(printer: Printer, field: _Field, value: Attribute) -> None:
    if isinstance(value, IntAttr):
        if field.kind == "bool":
            printer.print_string("true" if value.data else "false")
        else:
            printer.print_string(str(value.data))
    elif isinstance(value, StringAttr):
        printer.print_string_literal(value.data)
    elif isinstance(value, ArrayAttr):
        print_array(printer, value)
    else:
        printer.print_attribute(value)


def print_array(printer: Printer, array: ArrayAttr) -> None:
    """An array attribute as MLIR prints it: `i64` integers inside an array
    carry no type (xDSL's printer writes `1 : i64`)."""
    printer.print_string("[")
    for i, elem in enumerate(array):
        if i:
            printer.print_string(", ")
        if isinstance(elem, IntegerAttr) and elem.type == i64:
            printer.print_string(str(elem.value.data))
        else:
            printer.print_attribute(elem)
    printer.print_string("]")


def _print_struct(
    printer: Printer, fields: Sequence[_Field], values: Sequence[Attribute], always: bool
) -> None:
    shown = [(f, v) for f, v in zip(fields, values) if v != f.default]
    if not shown and not always:
        return
    printer.print_string("<")
    for i, (field, value) in enumerate(shown):
        if i:
            printer.print_string(", ")
        printer.print_string(f"{field.key} = ")
        _print_value(printer, field, value)
    printer.print_string(">")


class _StructAttr(ParametrizedAttribute):
    """Base of the attributes whose syntax is MLIR's `<` struct(params) `>`
    with defaulted parameters."""

    FIELDS: ClassVar[tuple[_Field, ...]]
    # Whether the all-default form still prints `<>` (only if the whole
    # parameter list is not optional in MLIR's format).
    ALWAYS_ANGLES: ClassVar[bool] = False

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        start = parser.pos
        values = _parse_struct(parser, cls.FIELDS, cls.name)
        params = [values.get(f.attr, f.default) for f in cls.FIELDS]
        if (message := cls.check(params)) is not None:
            parser.raise_error(message, start)
        return params

    def print_parameters(self, printer: Printer) -> None:
        _print_struct(printer, self.FIELDS, self.parameters, self.ALWAYS_ANGLES)

    @classmethod
    def check(cls, params: Sequence[Attribute]) -> str | None:
        """MLIR's verifier message for these parameters, or None."""
        return None

    def verify(self) -> None:
        if (message := self.check(self.parameters)) is not None:
            raise VerifyException(message)


def _opt(value: Attribute | None) -> Attribute:
    return NoneAttr() if value is None else value


def _opt_dict(value: DictionaryAttr | Mapping[str, Attribute] | None) -> Attribute:
    if value is None:
        return NoneAttr()
    if not isinstance(value, DictionaryAttr):
        value = DictionaryAttr(dict(value))
    return sorted_dict(value)


def _opt_str_array(value: ArrayAttr | Sequence[str] | None) -> Attribute:
    if value is None:
        return NoneAttr()
    if isinstance(value, ArrayAttr):
        return value
    return ArrayAttr([StringAttr(s) for s in value])


# --------------------------------------------------------------------------
# #nvvm.target
# --------------------------------------------------------------------------


@irdl_attr_definition
class NVVMTargetAttr(_StructAttr):
    """`#nvvm.target<O = 2, triple = "nvptx64-nvidia-cuda", chip = "sm_50",
    features = "", flags = {...}, link = [...], verifyTarget = true>`."""

    name = "nvvm.target"

    opt_level: IntAttr
    triple: StringAttr
    chip: StringAttr
    features: StringAttr
    flags: DictionaryAttr | NoneAttr
    link: ArrayAttr | NoneAttr
    verify_target: IntAttr

    FIELDS = (
        _Field("opt_level", "O", "int", IntAttr(2)),
        _Field("triple", "triple", "str", StringAttr("nvptx64-nvidia-cuda")),
        _Field("chip", "chip", "str", StringAttr("sm_50")),
        _Field("features", "features", "str", StringAttr("")),
        _Field("flags", "flags", "dict", NoneAttr()),
        _Field("link", "link", "array", NoneAttr()),
        _Field("verify_target", "verifyTarget", "bool", IntAttr(1)),
    )

    def __init__(
        self,
        opt_level: int = 2,
        triple: str = "nvptx64-nvidia-cuda",
        chip: str = "sm_50",
        features: str = "",
        flags: DictionaryAttr | Mapping[str, Attribute] | None = None,
        link: ArrayAttr | Sequence[str] | None = None,
        verify_target: bool = True,
    ):
        super().__init__(
            IntAttr(opt_level),
            StringAttr(triple),
            StringAttr(chip),
            StringAttr(features),
            _opt_dict(flags),
            _opt_str_array(link),
            IntAttr(int(verify_target)),
        )

    @classmethod
    def check(cls, params: Sequence[Attribute]) -> str | None:
        opt_level, triple, chip, _, _, link, _ = params
        assert isinstance(opt_level, IntAttr)
        if not 0 <= opt_level.data <= 3:
            return "The optimization level must be a number between 0 and 3."
        if isinstance(triple, StringAttr) and not triple.data:
            return "The target triple cannot be empty."
        if isinstance(chip, StringAttr) and not chip.data:
            return "The target chip cannot be empty."
        if isinstance(link, ArrayAttr) and not all(isinstance(a, StringAttr) for a in link):
            return "All the elements in the `link` array must be strings."
        return None


# --------------------------------------------------------------------------
# #rocdl.target
# --------------------------------------------------------------------------


@irdl_attr_definition
class ROCDLTargetAttr(_StructAttr):
    """`#rocdl.target<O = 2, triple = "amdgcn-amd-amdhsa", chip = "gfx900",
    features = "", abi = "600", flags = {...}, link = [...]>`.
    mlir-opt 22 runs no verifier on it."""

    name = "rocdl.target"

    opt_level: IntAttr
    triple: StringAttr
    chip: StringAttr
    features: StringAttr
    abi: StringAttr
    flags: DictionaryAttr | NoneAttr
    link: ArrayAttr | NoneAttr

    FIELDS = (
        _Field("opt_level", "O", "int", IntAttr(2)),
        _Field("triple", "triple", "str", StringAttr("amdgcn-amd-amdhsa")),
        _Field("chip", "chip", "str", StringAttr("gfx900")),
        _Field("features", "features", "str", StringAttr("")),
        _Field("abi", "abi", "str", StringAttr("600")),
        _Field("flags", "flags", "dict", NoneAttr()),
        _Field("link", "link", "array", NoneAttr()),
    )

    def __init__(
        self,
        opt_level: int = 2,
        triple: str = "amdgcn-amd-amdhsa",
        chip: str = "gfx900",
        features: str = "",
        abi: str = "600",
        flags: DictionaryAttr | Mapping[str, Attribute] | None = None,
        link: ArrayAttr | Sequence[str] | None = None,
    ):
        super().__init__(
            IntAttr(opt_level),
            StringAttr(triple),
            StringAttr(chip),
            StringAttr(features),
            StringAttr(abi),
            _opt_dict(flags),
            _opt_str_array(link),
        )


# --------------------------------------------------------------------------
# #xevm.target
# --------------------------------------------------------------------------


@irdl_attr_definition
class XeVMTargetAttr(_StructAttr):
    """`#xevm.target<O = 2, triple = "spirv64-unknown-unknown", chip = "bmg",
    flags = {...}, linkFiles = [...]>`. mlir-opt 22 runs no verifier on it."""

    name = "xevm.target"

    opt_level: IntAttr
    triple: StringAttr
    chip: StringAttr
    flags: DictionaryAttr | NoneAttr
    link_files: ArrayAttr | NoneAttr

    FIELDS = (
        _Field("opt_level", "O", "int", IntAttr(2)),
        _Field("triple", "triple", "str", StringAttr("spirv64-unknown-unknown")),
        _Field("chip", "chip", "str", StringAttr("bmg")),
        _Field("flags", "flags", "dict", NoneAttr()),
        _Field("link_files", "linkFiles", "array", NoneAttr()),
    )

    def __init__(
        self,
        opt_level: int = 2,
        triple: str = "spirv64-unknown-unknown",
        chip: str = "bmg",
        flags: DictionaryAttr | Mapping[str, Attribute] | None = None,
        link_files: ArrayAttr | Sequence[str] | None = None,
    ):
        super().__init__(
            IntAttr(opt_level),
            StringAttr(triple),
            StringAttr(chip),
            _opt_dict(flags),
            _opt_str_array(link_files),
        )


# --------------------------------------------------------------------------
# #spirv.vce, #spirv.resource_limits, #spirv.target_env
# --------------------------------------------------------------------------

SPIRV_VERSIONS = ("v1.0", "v1.1", "v1.2", "v1.3", "v1.4", "v1.5", "v1.6")
SPIRV_CLIENT_APIS = ("Metal", "OpenCL", "Vulkan", "WebGPU", "Unknown")
SPIRV_VENDORS = (
    "AMD",
    "Apple",
    "ARM",
    "Broadcom",
    "Imagination",
    "Intel",
    "NVIDIA",
    "Qualcomm",
    "SwiftShader",
    "Unknown",
)
SPIRV_DEVICE_TYPES = ("CPU", "DiscreteGPU", "IntegratedGPU", "Other", "Unknown")


@irdl_attr_definition
class SPIRVVerCapExtAttr(ParametrizedAttribute):
    """`#spirv.vce<v1.3, [Kernel, Addresses], [SPV_KHR_...]>`: SPIR-V version,
    capabilities and extensions. Capability and extension names are kept as
    written (any identifier; mlir-opt checks them against its enums)."""

    name = "spirv.vce"

    version: StringAttr
    capabilities: ArrayAttr[StringAttr]
    extensions: ArrayAttr[StringAttr]

    def __init__(
        self,
        version: str = "v1.0",
        capabilities: Sequence[str] = (),
        extensions: Sequence[str] = (),
    ):
        super().__init__(
            StringAttr(version),
            ArrayAttr([StringAttr(c) for c in capabilities]),
            ArrayAttr([StringAttr(e) for e in extensions]),
        )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        start = parser.pos
        version = parser.parse_identifier()
        if version not in SPIRV_VERSIONS:
            parser.raise_error(f"unknown version: {version}", start)
        parser.parse_punctuation(",")
        caps = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_identifier)
        parser.parse_punctuation(",")
        exts = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_identifier)
        parser.parse_punctuation(">")
        return (
            StringAttr(version),
            ArrayAttr([StringAttr(c) for c in caps]),
            ArrayAttr([StringAttr(e) for e in exts]),
        )

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.version.data}, [")
        printer.print_string(", ".join(c.data for c in self.capabilities))
        printer.print_string("], [")
        printer.print_string(", ".join(e.data for e in self.extensions))
        printer.print_string("]>")

    def verify(self) -> None:
        if self.version.data not in SPIRV_VERSIONS:
            raise VerifyException(f"unknown version: {self.version.data}")


_DEFAULT_WORKGROUP_SIZE = ArrayAttr(
    [IntegerAttr(128, i32), IntegerAttr(128, i32), IntegerAttr(64, i32)]
)


@irdl_attr_definition
class SPIRVResourceLimitsAttr(_StructAttr):
    """`#spirv.resource_limits<max_compute_shared_memory_size = 16384, ...>`."""

    name = "spirv.resource_limits"
    ALWAYS_ANGLES = True

    max_compute_shared_memory_size: IntAttr
    max_compute_workgroup_invocations: IntAttr
    max_compute_workgroup_size: ArrayAttr
    subgroup_size: IntAttr
    min_subgroup_size: IntAttr | NoneAttr
    max_subgroup_size: IntAttr | NoneAttr
    cooperative_matrix_properties_khr: ArrayAttr | NoneAttr
    cooperative_matrix_properties_nv: ArrayAttr | NoneAttr

    FIELDS = (
        _Field(
            "max_compute_shared_memory_size",
            "max_compute_shared_memory_size",
            "int",
            IntAttr(16384),
        ),
        _Field(
            "max_compute_workgroup_invocations",
            "max_compute_workgroup_invocations",
            "int",
            IntAttr(128),
        ),
        _Field(
            "max_compute_workgroup_size",
            "max_compute_workgroup_size",
            "array",
            _DEFAULT_WORKGROUP_SIZE,
        ),
        _Field("subgroup_size", "subgroup_size", "int", IntAttr(32)),
        _Field("min_subgroup_size", "min_subgroup_size", "opt_int", NoneAttr()),
        _Field("max_subgroup_size", "max_subgroup_size", "opt_int", NoneAttr()),
        _Field(
            "cooperative_matrix_properties_khr",
            "cooperative_matrix_properties_khr",
            "array",
            NoneAttr(),
        ),
        _Field(
            "cooperative_matrix_properties_nv",
            "cooperative_matrix_properties_nv",
            "array",
            NoneAttr(),
        ),
    )

    def __init__(
        self,
        max_compute_shared_memory_size: int = 16384,
        max_compute_workgroup_invocations: int = 128,
        max_compute_workgroup_size: ArrayAttr | Sequence[int] | None = None,
        subgroup_size: int = 32,
        min_subgroup_size: int | None = None,
        max_subgroup_size: int | None = None,
        cooperative_matrix_properties_khr: ArrayAttr | None = None,
        cooperative_matrix_properties_nv: ArrayAttr | None = None,
    ):
        if max_compute_workgroup_size is None:
            wg: ArrayAttr = _DEFAULT_WORKGROUP_SIZE
        elif isinstance(max_compute_workgroup_size, ArrayAttr):
            wg = max_compute_workgroup_size
        else:
            wg = ArrayAttr([IntegerAttr(v, i32) for v in max_compute_workgroup_size])
        super().__init__(
            IntAttr(max_compute_shared_memory_size),
            IntAttr(max_compute_workgroup_invocations),
            wg,
            IntAttr(subgroup_size),
            _opt(None if min_subgroup_size is None else IntAttr(min_subgroup_size)),
            _opt(None if max_subgroup_size is None else IntAttr(max_subgroup_size)),
            _opt(cooperative_matrix_properties_khr),
            _opt(cooperative_matrix_properties_nv),
        )


@irdl_attr_definition
class SPIRVTargetEnvAttr(ParametrizedAttribute):
    """`#spirv.target_env<#spirv.vce<...>, (api=API,)? (Vendor(:DeviceType(:id)?)?,)?
    #spirv.resource_limits<...>>`: the SPIR-V target of a gpu.module (what
    `--spirv-attach-target` attaches). `Unknown` API/vendor/device type are not
    printed, and a device id only after a known device type."""

    name = "spirv.target_env"

    triple: SPIRVVerCapExtAttr
    client_api: StringAttr
    vendor: StringAttr
    device_type: StringAttr
    device_id: IntAttr | NoneAttr
    limits: SPIRVResourceLimitsAttr

    def __init__(
        self,
        triple: SPIRVVerCapExtAttr | None = None,
        limits: SPIRVResourceLimitsAttr | None = None,
        client_api: str = "Unknown",
        vendor: str = "Unknown",
        device_type: str = "Unknown",
        device_id: int | None = None,
    ):
        super().__init__(
            triple or SPIRVVerCapExtAttr(),
            StringAttr(client_api),
            StringAttr(vendor),
            StringAttr(device_type),
            _opt(None if device_id is None else IntAttr(device_id)),
            limits or SPIRVResourceLimitsAttr(),
        )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        start = parser.pos
        triple = parser.parse_attribute()
        if not isinstance(triple, SPIRVVerCapExtAttr):
            parser.raise_error("expected #spirv.vce attribute", start)
        parser.parse_punctuation(",")
        api, vendor, device_type = "Unknown", "Unknown", "Unknown"
        device_id: Attribute = NoneAttr()
        if parser.parse_optional_keyword("api") is not None:
            parser.parse_punctuation("=")
            start = parser.pos
            api = parser.parse_identifier()
            if api not in SPIRV_CLIENT_APIS:
                parser.raise_error(f"unknown client API: {api}", start)
            parser.parse_punctuation(",")
        start = parser.pos
        if (ident := parser.parse_optional_identifier()) is not None:
            vendor = ident
            if vendor not in SPIRV_VENDORS:
                parser.raise_error(f"unknown vendor: {vendor}", start)
            if parser.parse_optional_punctuation(":") is not None:
                start = parser.pos
                device_type = parser.parse_identifier()
                if device_type not in SPIRV_DEVICE_TYPES:
                    parser.raise_error(f"unknown device type: {device_type}", start)
                if parser.parse_optional_punctuation(":") is not None:
                    device_id = IntAttr(parser.parse_integer(allow_boolean=False))
            parser.parse_punctuation(",")
        start = parser.pos
        limits = parser.parse_attribute()
        if not isinstance(limits, SPIRVResourceLimitsAttr):
            parser.raise_error("expected #spirv.resource_limits attribute", start)
        parser.parse_punctuation(">")
        return (
            triple,
            StringAttr(api),
            StringAttr(vendor),
            StringAttr(device_type),
            device_id,
            limits,
        )

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_attribute(self.triple)
        if self.client_api.data != "Unknown":
            printer.print_string(f", api={self.client_api.data}")
        if self.vendor.data != "Unknown":
            printer.print_string(f", {self.vendor.data}")
            if self.device_type.data != "Unknown":
                printer.print_string(f":{self.device_type.data}")
                if isinstance(self.device_id, IntAttr):
                    printer.print_string(f":{self.device_id.data}")
        printer.print_string(", ")
        printer.print_attribute(self.limits)
        printer.print_string(">")

    def verify(self) -> None:
        for value, allowed, what in (
            (self.client_api.data, SPIRV_CLIENT_APIS, "client API"),
            (self.vendor.data, SPIRV_VENDORS, "vendor"),
            (self.device_type.data, SPIRV_DEVICE_TYPES, "device type"),
        ):
            if value not in allowed:
                raise VerifyException(f"unknown {what}: {value}")


# --------------------------------------------------------------------------
# Registration
# --------------------------------------------------------------------------

TARGET_ATTRS: tuple[type[Attribute], ...] = (
    NVVMTargetAttr,
    ROCDLTargetAttr,
    XeVMTargetAttr,
    SPIRVTargetEnvAttr,
)
"""The attributes that implement MLIR's `gpu::TargetAttrInterface`."""

TARGET_DIALECT_ATTRS: dict[str, list[type[Attribute]]] = {
    "nvvm": [NVVMTargetAttr],
    "rocdl": [ROCDLTargetAttr],
    "xevm": [XeVMTargetAttr],
    "spirv": [SPIRVTargetEnvAttr, SPIRVVerCapExtAttr, SPIRVResourceLimitsAttr],
}
"""The attributes of this module, by the dialect namespace they belong to."""


def is_target_attr(attr: Attribute) -> bool:
    """Whether `attr` is a GPU target attribute (MLIR's `TargetAttrInterface`):
    what gpu.module's `targets` and #gpu.object's target must be."""
    return isinstance(attr, TARGET_ATTRS)


def _merged_factory(
    name: str, extra: Sequence[type[Attribute]], base: Callable[[], Dialect] | None
) -> Callable[[], Dialect]:
    def factory() -> Dialect:
        if base is None:
            return Dialect(name, [], list(extra))
        dialect = base()
        known = {a.name for a in dialect.attributes}
        attrs = [*dialect.attributes, *(a for a in extra if a.name not in known)]
        interfaces = list(dialect._interfaces)  # pyright: ignore[reportPrivateUsage]
        return Dialect(name, list(dialect.operations), attrs, interfaces)

    return factory


def target_dialect_factories(
    existing: Mapping[str, Callable[[], Dialect]] | None = None,
) -> dict[str, Callable[[], Dialect]]:
    """Dialect factories for `nvvm`, `rocdl`, `xevm` and `spirv` that hold the
    GPU target attributes, merged with the dialect of the same name in
    `existing` (e.g. `Universe.get_multiverse().all_dialects`) if there is one.
    Register them in place of the existing entries."""
    existing = existing or {}
    return {
        name: _merged_factory(name, extra, existing.get(name))
        for name, extra in TARGET_DIALECT_ATTRS.items()
    }


OPS: list[type] = []
ATTRS: list[type] = []
