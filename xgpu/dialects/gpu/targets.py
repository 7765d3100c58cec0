"""Target attributes a gpu.module carries: #nvvm.target, #rocdl.target,
#xevm.target and #spirv.target_env (with its #spirv.vce and
#spirv.resource_limits parts, in `xgpu.dialects.gpu.spirv_attrs`).

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

from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, IntAttr, NoneAttr, StringAttr
from xdsl.ir import Attribute, Dialect
from xdsl.irdl import irdl_attr_definition

from xgpu.dialects.gpu.spirv_attrs import (
    SPIRVCoopMatrixPropsKHRAttr,
    SPIRVCoopMatrixPropsNVAttr,
    SPIRVEntryPointABIAttr,
    SPIRVInterfaceVarABIAttr,
    SPIRVResourceLimitsAttr,
    SPIRVScopeAttr,
    SPIRVStorageClassAttr,
    SPIRVTargetEnvAttr,
    SPIRVVerCapExtAttr,
)
from xgpu.dialects.gpu.struct_attrs import (
    Field,
    StructAttr,
    opt_dict,
    opt_str_array,
    print_array,
    sorted_dict,
)

__all__ = [
    "ATTRS",
    "OPS",
    "TARGET_DIALECT_ATTRS",
    "NVVMTargetAttr",
    "ROCDLTargetAttr",
    "SPIRVEntryPointABIAttr",
    "SPIRVResourceLimitsAttr",
    "SPIRVTargetEnvAttr",
    "SPIRVVerCapExtAttr",
    "XeVMTargetAttr",
    "is_target_attr",
    "print_array",
    "sorted_dict",
    "target_dialect_factories",
]


# --------------------------------------------------------------------------
# #nvvm.target
# --------------------------------------------------------------------------


@irdl_attr_definition
class NVVMTargetAttr(StructAttr):
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
        Field("opt_level", "O", "int", IntAttr(2)),
        Field("triple", "triple", "str", StringAttr("nvptx64-nvidia-cuda")),
        Field("chip", "chip", "str", StringAttr("sm_50")),
        Field("features", "features", "str", StringAttr("")),
        Field("flags", "flags", "dict", NoneAttr()),
        Field("link", "link", "array", NoneAttr()),
        Field("verify_target", "verifyTarget", "bool", IntAttr(1)),
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
            opt_dict(flags),
            opt_str_array(link),
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
class ROCDLTargetAttr(StructAttr):
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
        Field("opt_level", "O", "int", IntAttr(2)),
        Field("triple", "triple", "str", StringAttr("amdgcn-amd-amdhsa")),
        Field("chip", "chip", "str", StringAttr("gfx900")),
        Field("features", "features", "str", StringAttr("")),
        Field("abi", "abi", "str", StringAttr("600")),
        Field("flags", "flags", "dict", NoneAttr()),
        Field("link", "link", "array", NoneAttr()),
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
            opt_dict(flags),
            opt_str_array(link),
        )


# --------------------------------------------------------------------------
# #xevm.target
# --------------------------------------------------------------------------


@irdl_attr_definition
class XeVMTargetAttr(StructAttr):
    """`#xevm.target<O = 2, triple = "spirv64-unknown-unknown", chip = "bmg",
    flags = {...}, linkFiles = [...]>`. mlir-opt 22 runs no verifier on it."""

    name = "xevm.target"

    opt_level: IntAttr
    triple: StringAttr
    chip: StringAttr
    flags: DictionaryAttr | NoneAttr
    link_files: ArrayAttr | NoneAttr

    FIELDS = (
        Field("opt_level", "O", "int", IntAttr(2)),
        Field("triple", "triple", "str", StringAttr("spirv64-unknown-unknown")),
        Field("chip", "chip", "str", StringAttr("bmg")),
        Field("flags", "flags", "dict", NoneAttr()),
        Field("link_files", "linkFiles", "array", NoneAttr()),
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
            opt_dict(flags),
            opt_str_array(link_files),
        )


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
    "spirv": [
        SPIRVTargetEnvAttr,
        SPIRVVerCapExtAttr,
        SPIRVResourceLimitsAttr,
        SPIRVEntryPointABIAttr,
        SPIRVCoopMatrixPropsKHRAttr,
        SPIRVCoopMatrixPropsNVAttr,
        SPIRVScopeAttr,
        SPIRVInterfaceVarABIAttr,
        SPIRVStorageClassAttr,
    ],
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
