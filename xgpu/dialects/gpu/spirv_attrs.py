"""The SPIR-V attributes of GPU programs: #spirv.target_env (with its
#spirv.vce and #spirv.resource_limits parts), the target of a gpu.module, and
#spirv.entry_point_abi, the workgroup and subgroup sizes of a kernel. xDSL 0.75
has no spirv dialect; these live in the `spirv` namespace that
`xgpu.dialects.gpu.targets` registers. Textual forms follow mlir-opt 22."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    IntAttr,
    IntegerAttr,
    NoneAttr,
    StringAttr,
    i32,
)
from xdsl.ir import Attribute, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from xgpu.dialects.gpu.struct_attrs import Field, StructAttr, opt

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
class SPIRVResourceLimitsAttr(StructAttr):
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
        Field(
            "max_compute_shared_memory_size",
            "max_compute_shared_memory_size",
            "int",
            IntAttr(16384),
        ),
        Field(
            "max_compute_workgroup_invocations",
            "max_compute_workgroup_invocations",
            "int",
            IntAttr(128),
        ),
        Field(
            "max_compute_workgroup_size",
            "max_compute_workgroup_size",
            "array",
            _DEFAULT_WORKGROUP_SIZE,
        ),
        Field("subgroup_size", "subgroup_size", "int", IntAttr(32)),
        Field("min_subgroup_size", "min_subgroup_size", "opt_int", NoneAttr()),
        Field("max_subgroup_size", "max_subgroup_size", "opt_int", NoneAttr()),
        Field(
            "cooperative_matrix_properties_khr",
            "cooperative_matrix_properties_khr",
            "array",
            NoneAttr(),
        ),
        Field(
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
            opt(None if min_subgroup_size is None else IntAttr(min_subgroup_size)),
            opt(None if max_subgroup_size is None else IntAttr(max_subgroup_size)),
            opt(cooperative_matrix_properties_khr),
            opt(cooperative_matrix_properties_nv),
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
            opt(None if device_id is None else IntAttr(device_id)),
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


@irdl_attr_definition
class SPIRVEntryPointABIAttr(StructAttr):
    """`#spirv.entry_point_abi<workgroup_size = [32, 1, 1], subgroup_size = 16,
    target_width = 32>`: what a kernel (`spirv.entry_point_abi` on a gpu.func)
    fixes of its launch. Every parameter is optional; `<>` is kept."""

    name = "spirv.entry_point_abi"
    ALWAYS_ANGLES = True

    workgroup_size: DenseArrayBase | NoneAttr
    subgroup_size: IntAttr | NoneAttr
    target_width: IntAttr | NoneAttr

    FIELDS = (
        Field("workgroup_size", "workgroup_size", "i32_array", NoneAttr()),
        Field("subgroup_size", "subgroup_size", "opt_int", NoneAttr()),
        Field("target_width", "target_width", "opt_int", NoneAttr()),
    )

    def __init__(
        self,
        workgroup_size: Sequence[int] | None = None,
        subgroup_size: int | None = None,
        target_width: int | None = None,
    ):
        super().__init__(
            opt(None if workgroup_size is None else DenseArrayBase.from_list(i32, workgroup_size)),
            opt(None if subgroup_size is None else IntAttr(subgroup_size)),
            opt(None if target_width is None else IntAttr(target_width)),
        )


SPIRV_SCOPES = (
    "CrossDevice",
    "Device",
    "Workgroup",
    "Subgroup",
    "Invocation",
    "QueueFamily",
    "ShaderCallKHR",
)
_SCOPE_ERROR = "expected ::mlir::spirv::Scope to be one of: " + ", ".join(SPIRV_SCOPES)


def _parse_scope_name(parser: AttrParser) -> str:
    """`<Subgroup>`: a scope after its `#spirv.scope` or as a parameter."""
    parser.parse_punctuation("<")
    start = parser.pos
    name = parser.parse_optional_identifier()
    if name not in SPIRV_SCOPES:
        parser.raise_error(_SCOPE_ERROR, start, max(parser.pos, start + 1))
    parser.parse_punctuation(">")
    return name


@irdl_attr_definition
class SPIRVScopeAttr(ParametrizedAttribute):
    """`#spirv.scope<Subgroup>`: an execution or memory scope."""

    name = "spirv.scope"

    value: StringAttr

    def __init__(self, value: str):
        super().__init__(StringAttr(value))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        return (StringAttr(_parse_scope_name(parser)),)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.value.data}>")


class _CoopMatrixProps(ParametrizedAttribute):
    """`key = value` parameters in any order, all of them required, printed in
    declaration order: sizes (integers), element types, `acc_sat` (a boolean,
    KHR only) and `scope = <Scope>`."""

    KEYS: ClassVar[tuple[tuple[str, str], ...]]

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        kinds = dict(cls.KEYS)
        values: dict[str, Attribute] = {}
        parser.parse_punctuation("<")
        while True:
            start = parser.pos
            key = parser.parse_optional_identifier()
            if key not in kinds or key in values:
                parser.raise_error(f"duplicate or unknown struct parameter name: {key}", start)
            parser.parse_punctuation("=")
            values[key] = cls._parse_value(parser, kinds[key])
            if len(values) == len(kinds):
                break
            if parser.parse_optional_punctuation(",") is None:
                parser.raise_error("expected ','")
        parser.parse_punctuation(">")
        return tuple(values[key] for key, _ in cls.KEYS)

    @staticmethod
    def _parse_value(parser: AttrParser, kind: str) -> Attribute:
        if kind == "int":
            return IntAttr(parser.parse_integer(allow_boolean=False))
        if kind == "type":
            return parser.parse_type()
        if kind == "bool":
            if (flag := parser.parse_optional_boolean()) is not None:
                return IntAttr(int(flag))
            return IntAttr(int(parser.parse_integer(allow_boolean=False) != 0))
        if parser.parse_optional_characters("#spirv.scope") is not None:
            return StringAttr(_parse_scope_name(parser))
        return StringAttr(_parse_scope_name(parser))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        for i, ((key, kind), value) in enumerate(zip(self.KEYS, self.parameters)):
            printer.print_string(f"{', ' if i else ''}{key} = ")
            if kind == "type":
                printer.print_attribute(value)
            elif kind == "bool":
                assert isinstance(value, IntAttr)
                printer.print_string("true" if value.data else "false")
            elif kind == "scope":
                assert isinstance(value, StringAttr)
                printer.print_string(f"<{value.data}>")
            else:
                assert isinstance(value, IntAttr)
                printer.print_string(str(value.data))
        printer.print_string(">")

    def verify(self) -> None:
        scope = self.parameters[-1]
        if not isinstance(scope, StringAttr) or scope.data not in SPIRV_SCOPES:
            raise VerifyException(_SCOPE_ERROR)


_COOP_KEYS = (
    ("m_size", "int"),
    ("n_size", "int"),
    ("k_size", "int"),
    ("a_type", "type"),
    ("b_type", "type"),
    ("c_type", "type"),
    ("result_type", "type"),
)


@irdl_attr_definition
class SPIRVCoopMatrixPropsKHRAttr(_CoopMatrixProps):
    """`#spirv.coop_matrix_props_khr<m_size = 8, ..., acc_sat = false,
    scope = <Subgroup>>`: a cooperative matrix shape a device supports (an
    element of `cooperative_matrix_properties_khr` in #spirv.resource_limits)."""

    name = "spirv.coop_matrix_props_khr"
    KEYS = (*_COOP_KEYS, ("acc_sat", "bool"), ("scope", "scope"))

    m_size: IntAttr
    n_size: IntAttr
    k_size: IntAttr
    a_type: Attribute
    b_type: Attribute
    c_type: Attribute
    result_type: Attribute
    acc_sat: IntAttr
    scope: StringAttr


@irdl_attr_definition
class SPIRVCoopMatrixPropsNVAttr(_CoopMatrixProps):
    """`#spirv.coop_matrix_props_nv<m_size = 8, ..., scope = <Subgroup>>`."""

    name = "spirv.coop_matrix_props_nv"
    KEYS = (*_COOP_KEYS, ("scope", "scope"))

    m_size: IntAttr
    n_size: IntAttr
    k_size: IntAttr
    a_type: Attribute
    b_type: Attribute
    c_type: Attribute
    result_type: Attribute
    scope: StringAttr


SPIRV_STORAGE_CLASSES = (
    "UniformConstant",
    "Input",
    "Uniform",
    "Output",
    "Workgroup",
    "CrossWorkgroup",
    "Private",
    "Function",
    "Generic",
    "PushConstant",
    "AtomicCounter",
    "Image",
    "StorageBuffer",
    "CallableDataKHR",
    "IncomingCallableDataKHR",
    "RayPayloadKHR",
    "HitAttributeKHR",
    "IncomingRayPayloadKHR",
    "ShaderRecordBufferKHR",
    "PhysicalStorageBuffer",
    "TaskPayloadWorkgroupEXT",
    "CodeSectionINTEL",
    "DeviceOnlyINTEL",
    "HostOnlyINTEL",
)
"""In MLIR's order (that of its message for an unknown one)."""


@irdl_attr_definition
class SPIRVStorageClassAttr(ParametrizedAttribute):
    """`#spirv.storage_class<StorageBuffer>`: a SPIR-V storage class, the
    memory space of a memref in a program for a SPIR-V target."""

    name = "spirv.storage_class"

    value: StringAttr

    def __init__(self, value: str):
        super().__init__(StringAttr(value))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        start = parser.pos
        value = parser.parse_optional_identifier()
        if value not in SPIRV_STORAGE_CLASSES:
            parser.raise_error(
                "expected ::mlir::spirv::StorageClass to be one of: "
                + ", ".join(SPIRV_STORAGE_CLASSES),
                start,
                max(parser.pos, start + 1),
            )
        parser.parse_punctuation(">")
        return (StringAttr(value),)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.value.data}>")


@irdl_attr_definition
class SPIRVInterfaceVarABIAttr(ParametrizedAttribute):
    """`#spirv.interface_var_abi<(set, binding), StorageClass?>`: where a
    kernel argument lives (`spirv.interface_var_abi` on a gpu.func argument).
    The set and binding are 32-bit unsigned (a negative value wraps)."""

    name = "spirv.interface_var_abi"

    descriptor_set: IntAttr
    binding: IntAttr
    storage_class: StringAttr
    """"" when not given."""

    def __init__(self, descriptor_set: int, binding: int, storage_class: str = ""):
        super().__init__(IntAttr(descriptor_set), IntAttr(binding), StringAttr(storage_class))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        parser.parse_punctuation("(")
        descriptor_set = parser.parse_integer(allow_boolean=False) % 2**32
        if parser.parse_optional_punctuation(",") is None:
            parser.raise_error("expected ','")
        binding = parser.parse_integer(allow_boolean=False) % 2**32
        parser.parse_punctuation(")")
        storage_class = ""
        if parser.parse_optional_punctuation(",") is not None:
            start = parser.pos
            storage_class = parser.parse_optional_identifier() or ""
            if storage_class not in SPIRV_STORAGE_CLASSES:
                parser.raise_error(f"unknown storage class: {storage_class}", start)
        parser.parse_punctuation(">")
        return (IntAttr(descriptor_set), IntAttr(binding), StringAttr(storage_class))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<({self.descriptor_set.data}, {self.binding.data})")
        if self.storage_class.data:
            printer.print_string(f", {self.storage_class.data}")
        printer.print_string(">")


def verify_spirv_attribute(name: str, value: Attribute) -> None:
    """MLIR's `SPIRVDialect::verifyOperationAttribute`: the `spirv.*`
    discardable attributes an op may carry."""
    from xgpu.diagnostics import OpDiagnostic

    if name == "spirv.entry_point_abi":
        if not isinstance(value, SPIRVEntryPointABIAttr):
            raise OpDiagnostic(
                "'spirv.entry_point_abi' attribute must be an entry point ABI attribute",
                prefix=False,
            )
    elif name == "spirv.target_env":
        if not isinstance(value, SPIRVTargetEnvAttr):
            raise OpDiagnostic("'spirv.target_env' must be a spirv::TargetEnvAttr", prefix=False)
    else:
        raise OpDiagnostic(f"found unsupported '{name}' attribute on operation", prefix=False)
