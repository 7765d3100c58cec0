"""The SPIR-V attributes of xgpu.dialects.gpu.spirv_attrs: built in Python,
printed as mlir-opt 22 prints them, and the first error of the inputs where
mlir-opt adds a second one ("failed to parse ... parameter"), which the
lit files cannot check with --verify-diagnostics."""

from __future__ import annotations

import pytest

import xgpu
from xgpu.dialects.gpu.spirv_attrs import (
    SPIRVCoopMatrixPropsKHRAttr,
    SPIRVEntryPointABIAttr,
    SPIRVInterfaceVarABIAttr,
    SPIRVScopeAttr,
    SPIRVStorageClassAttr,
)
from xgpu.ir.printer import attribute_text


def test_built_attributes_print_as_mlir_does():
    assert (
        attribute_text(SPIRVEntryPointABIAttr(workgroup_size=[32, 1, 1], subgroup_size=16))
        == "#spirv.entry_point_abi<workgroup_size = [32, 1, 1], subgroup_size = 16>"
    )
    assert attribute_text(SPIRVEntryPointABIAttr()) == "#spirv.entry_point_abi<>"
    assert attribute_text(SPIRVInterfaceVarABIAttr(0, 3, "StorageBuffer")) == (
        "#spirv.interface_var_abi<(0, 3), StorageBuffer>"
    )
    assert attribute_text(SPIRVInterfaceVarABIAttr(1, 2)) == "#spirv.interface_var_abi<(1, 2)>"
    assert attribute_text(SPIRVStorageClassAttr("Workgroup")) == "#spirv.storage_class<Workgroup>"
    assert attribute_text(SPIRVScopeAttr("Device")) == "#spirv.scope<Device>"


def _attr(text: str):
    module = xgpu.parse(f"func.func private @f() attributes {{x.y = {text}}}\n", "a.mlir")
    return next(iter(module.body.block.ops)).attributes["x.y"]


def test_parsed_attributes_are_xgpu_classes():
    coop = _attr(
        "#spirv.coop_matrix_props_khr<m_size = 8, n_size = 8, k_size = 32, a_type = i8, "
        "b_type = i8, c_type = i32, result_type = i32, acc_sat = false, scope = <Subgroup>>"
    )
    assert isinstance(coop, SPIRVCoopMatrixPropsKHRAttr)
    assert (coop.m_size.data, coop.scope.data, coop.acc_sat.data) == (8, "Subgroup", 0)
    abi = _attr("#spirv.entry_point_abi<workgroup_size = [4, 4]>")
    assert isinstance(abi, SPIRVEntryPointABIAttr)
    assert abi.workgroup_size.get_values() == (4, 4)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "#spirv.scope<Foo>",
            "expected ::mlir::spirv::Scope to be one of: CrossDevice, Device, Workgroup, "
            "Subgroup, Invocation, QueueFamily, ShaderCallKHR",
        ),
        (
            "#spirv.storage_class<Foo>",
            "expected ::mlir::spirv::StorageClass to be one of: UniformConstant, Input",
        ),
        ("#spirv.entry_point_abi<workgroup_size = array<i32: 1, 2, 3>>", "expected '['"),
        ("#spirv.interface_var_abi<(0), Uniform>", "expected ','"),
    ],
)
def test_first_error_is_mlir_opts(text: str, message: str):
    with pytest.raises(xgpu.ParseDiagnosticError) as info:
        _attr(text)
    assert info.value.diagnostic.message.startswith(message)
