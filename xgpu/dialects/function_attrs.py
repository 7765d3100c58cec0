"""MLIR's checks of the argument and result attributes of a function
(`func.func`, `gpu.func`: FunctionOpInterface): one dictionary per argument
or result, holding dialect attributes only, each accepted by its dialect (the
LLVM ones need a pointer or an integer where the type is an LLVM type; the
SPIR-V one, `spirv.interface_var_abi`, goes on arguments only)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    DictionaryAttr,
    IndexType,
    IntegerType,
    Signedness,
    VectorType,
)
from xdsl.ir import Attribute
from xdsl.utils.exceptions import VerifyException

from xgpu.diagnostics import OpDiagnostic

# LLVM's argument attributes that need a pointer or an integer, where the type
# is an LLVM type (MLIR's builtin integers, floats and vectors of them count).
_LLVM_POINTER_ATTRS = frozenset(
    "llvm." + n
    for n in (
        "noalias",
        "readonly",
        "writeonly",
        "nonnull",
        "nocapture",
        "align",
        "dereferenceable",
        "dereferenceable_or_null",
    )
)
_LLVM_INTEGER_ATTRS = frozenset({"llvm.zeroext", "llvm.signext"})


def _llvm_kind(type: Attribute) -> str | None:
    """ "pointer", "integer" or "other" for an LLVM-compatible type, else None."""
    if isinstance(type, VectorType):
        return "other" if _llvm_kind(type.element_type) is not None else None
    if isinstance(type, IntegerType):
        return "integer" if type.signedness.data == Signedness.SIGNLESS else None
    if isinstance(type, AnyFloat):
        return "other"
    if type.name == "llvm.ptr":
        return "pointer"
    if type.name.startswith("llvm."):
        return "other"
    return None


def _verify_llvm(key: str, type: Attribute) -> None:
    llvm = _llvm_kind(type)
    if llvm is None:
        return
    if key in _LLVM_POINTER_ATTRS and llvm != "pointer":
        raise OpDiagnostic(f'"{key}" attribute attached to non-pointer LLVM type', prefix=False)
    if key in _LLVM_INTEGER_ATTRS and llvm != "integer":
        raise OpDiagnostic(f'"{key}" attribute attached to non-integer LLVM type', prefix=False)


def _verify_spirv(key: str, value: Attribute, type: Attribute, kind: str) -> None:
    from xgpu.dialects.gpu.spirv_attrs import SPIRVInterfaceVarABIAttr

    if kind != "argument":
        raise OpDiagnostic(
            "cannot attach SPIR-V attributes to region result which is not part of a "
            "spirv::GraphARMOp type",
            prefix=False,
        )
    if key != "spirv.interface_var_abi":
        raise OpDiagnostic(f"found unsupported '{key}' attribute on region argument", prefix=False)
    if not isinstance(value, SPIRVInterfaceVarABIAttr):
        raise OpDiagnostic(f"'{key}' must be a spirv::InterfaceVarABIAttr", prefix=False)
    scalar = isinstance(type, IntegerType | IndexType) or isinstance(type, AnyFloat)
    if value.storage_class.data and not scalar:
        raise OpDiagnostic(
            f"'{key}' attribute cannot specify storage class when attaching to a non-scalar value",
            prefix=False,
        )


def verify_function_attr_dicts(
    attrs: ArrayAttr[DictionaryAttr] | None, types: Sequence[Attribute], kind: str
) -> None:
    """`kind` ("argument" or "result"): the `arg_attrs` or `res_attrs` of a
    function whose arguments or results have `types`, checked as MLIR does
    (each dictionary in turn, its entries in name order)."""
    if attrs is None:
        return
    plural = "arguments" if kind == "argument" else "results"
    if len(attrs) != len(types):
        raise VerifyException(
            f"expects {kind} attribute array to have the same number of elements as the "
            f"number of function {plural}, got {len(attrs)}, but expected {len(types)}"
        )
    for entry, type in zip(attrs.data, types):
        if not isinstance(entry, DictionaryAttr):
            continue
        for key, value in sorted(entry.data.items()):
            if "." not in key:
                raise VerifyException(f"{plural} may only have dialect attributes")
            if key.startswith("llvm."):
                _verify_llvm(key, type)
            elif key.startswith("spirv."):
                _verify_spirv(key, value, type, kind)
