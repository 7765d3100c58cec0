"""gpu.binary, the compilation attributes and the GPU target attributes:
builders, printing, verifier messages, dialect registration."""

from __future__ import annotations

from io import StringIO

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FunctionType,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    UnitAttr,
    i32,
)
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Attribute, Block, Dialect, Region
from xdsl.printer import Printer
from xdsl.utils.exceptions import ParseError, VerifyException

from xgpu.dialects.gpu.binary import BinaryOp
from xgpu.dialects.gpu.compilation import (
    CompilationTarget,
    KernelMetadataAttr,
    KernelTableAttr,
    ObjectAttr,
    SelectObjectAttr,
)
from xgpu.dialects.gpu.targets import (
    NVVMTargetAttr,
    ROCDLTargetAttr,
    SPIRVResourceLimitsAttr,
    SPIRVTargetEnvAttr,
    SPIRVVerCapExtAttr,
    XeVMTargetAttr,
    is_target_attr,
    target_dialect_factories,
)
from xgpu.tools.xgpu_opt import make_context, parse


def text(obj: Attribute | ModuleOp | BinaryOp) -> str:
    out = StringIO()
    printer = Printer(stream=out)
    if isinstance(obj, Attribute):
        printer.print_attribute(obj)
    else:
        printer.print_op(obj)
    return out.getvalue()


def roundtrip(source: str) -> str:
    return text(parse(source)).strip()


# ----------------------------------------------------------------- targets


def test_target_defaults_print_bare():
    assert text(NVVMTargetAttr()) == "#nvvm.target"
    assert text(ROCDLTargetAttr()) == "#rocdl.target"
    assert text(XeVMTargetAttr()) == "#xevm.target"
    assert text(SPIRVResourceLimitsAttr()) == "#spirv.resource_limits<>"


def test_target_builders_print_non_defaults_in_order():
    nvvm = NVVMTargetAttr(
        opt_level=3,
        chip="sm_90",
        features="+ptx80",
        flags={"ftz": UnitAttr(), "fast": UnitAttr()},
        link=["a.bc"],
        verify_target=False,
    )
    assert text(nvvm) == (
        '#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80", flags = {fast, ftz}, '
        'link = ["a.bc"], verifyTarget = false>'
    )
    assert (
        text(ROCDLTargetAttr(chip="gfx90a", abi="500"))
        == '#rocdl.target<chip = "gfx90a", abi = "500">'
    )
    assert (
        text(XeVMTargetAttr(chip="pvc", link_files=[]))
        == '#xevm.target<chip = "pvc", linkFiles = []>'
    )


def test_spirv_target_env_builder():
    env = SPIRVTargetEnvAttr(
        SPIRVVerCapExtAttr("v1.3", ["Kernel", "Addresses"], ["SPV_KHR_expect_assume"]),
        SPIRVResourceLimitsAttr(subgroup_size=16, max_compute_workgroup_size=[8, 8, 1]),
        client_api="OpenCL",
        vendor="Intel",
        device_type="IntegratedGPU",
        device_id=7,
    )
    assert text(env) == (
        "#spirv.target_env<#spirv.vce<v1.3, [Kernel, Addresses], [SPV_KHR_expect_assume]>, "
        "api=OpenCL, Intel:IntegratedGPU:7, #spirv.resource_limits<max_compute_workgroup_size "
        "= [8 : i32, 8 : i32, 1 : i32], subgroup_size = 16>>"
    )
    assert is_target_attr(env)


def test_is_target_attr():
    assert all(is_target_attr(a) for a in (NVVMTargetAttr(), ROCDLTargetAttr(), XeVMTargetAttr()))
    assert not is_target_attr(SelectObjectAttr())
    assert not is_target_attr(IntegerAttr(1, i32))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"opt_level": 4}, "The optimization level must be a number between 0 and 3."),
        ({"triple": ""}, "The target triple cannot be empty."),
        ({"chip": ""}, "The target chip cannot be empty."),
        (
            {"link": ArrayAttr([IntegerAttr(1, i32)])},
            "All the elements in the `link` array must be strings.",
        ),
    ],
)
def test_nvvm_target_verifier(kwargs: dict[str, object], message: str):
    with pytest.raises(VerifyException, match=message.replace(".", r"\.").replace("`", "`")):
        NVVMTargetAttr(**kwargs)  # pyright: ignore[reportArgumentType]


def test_target_dialect_factories_merge_with_existing():
    base = Dialect("nvvm", [], [SelectObjectAttr])
    merged = target_dialect_factories({"nvvm": lambda: base})["nvvm"]()
    assert {a.name for a in merged.attributes} == {"gpu.select_object", "nvvm.target"}
    alone = target_dialect_factories()
    assert set(alone) == {"nvvm", "rocdl", "xevm", "spirv"}
    ctx = Context()
    for name, factory in alone.items():
        ctx.register_dialect(name, factory)
    assert ctx.get_optional_attr("spirv.target_env") is SPIRVTargetEnvAttr


# ----------------------------------------------------- compilation attributes


def test_object_builder_and_formats():
    obj = ObjectAttr(NVVMTargetAttr(), b"\x00\xff")
    assert text(obj) == '#gpu.object<#nvvm.target, "\\00\\FF">'
    assert obj.compilation_target is CompilationTarget.FATBIN
    kernels = [
        KernelMetadataAttr("b", FunctionType.from_lists([], [])),
        KernelMetadataAttr("a", i32),
    ]
    obj = ObjectAttr(
        ROCDLTargetAttr(),
        "isa",
        CompilationTarget.ASSEMBLY,
        properties={"O": IntegerAttr(3, i32)},
        kernels=kernels,
    )
    assert text(obj) == (
        "#gpu.object<#rocdl.target, properties = {O = 3 : i32}, kernels = "
        '<[#gpu.kernel_metadata<"a", i32>, #gpu.kernel_metadata<"b", () -> ()>]>, assembly = "isa">'
    )


def test_object_rejects_non_target():
    with pytest.raises(VerifyException, match="must implement or promise"):
        ObjectAttr(IntegerAttr(1, i32), "x")


def test_kernel_table_sorted_and_unique():
    fn = FunctionType.from_lists([i32], [])
    table = KernelTableAttr([KernelMetadataAttr("z", fn), KernelMetadataAttr("m", fn)])
    assert [k.kernel_name.data for k in table.kernels] == ["m", "z"]
    assert table.lookup("z") is not None and table.lookup("q") is None
    assert text(KernelTableAttr()) == "#gpu.kernel_table<>"
    with pytest.raises(VerifyException, match="expected all kernels to be uniquely named"):
        KernelTableAttr([KernelMetadataAttr("k", fn), KernelMetadataAttr("k", i32)])


def test_kernel_metadata():
    fn = FunctionType.from_lists([i32], [])
    meta = KernelMetadataAttr(
        "k", fn, [{"b": UnitAttr(), "a": UnitAttr()}], {"regs": IntegerAttr(8, i32)}
    )
    assert (
        text(meta)
        == '#gpu.kernel_metadata<"k", (i32) -> (), arg_attrs = [{a, b}], metadata = {regs = 8 : i32}>'
    )
    with pytest.raises(
        VerifyException, match="all attributes in the array must be a dictionary attribute"
    ):
        KernelMetadataAttr("k", fn, ArrayAttr([StringAttr("x")]))


def test_select_object():
    assert text(SelectObjectAttr()) == "#gpu.select_object"
    assert text(SelectObjectAttr(1)) == "#gpu.select_object<1 : i64>"
    assert (
        text(SelectObjectAttr(NVVMTargetAttr(chip="sm_90")))
        == '#gpu.select_object<#nvvm.target<chip = "sm_90">>'
    )
    with pytest.raises(VerifyException, match="the object index must be positive"):
        SelectObjectAttr(-1)
    with pytest.raises(
        VerifyException, match="the target attribute must be a GPU Target attribute"
    ):
        SelectObjectAttr(StringAttr("nvvm"))


# -------------------------------------------------------------- gpu.binary


def module_of(*ops: BinaryOp) -> ModuleOp:
    return ModuleOp(list(ops))


def test_binary_builder_prints_like_mlir():
    objects = [ObjectAttr(NVVMTargetAttr(), "blob")]
    default = BinaryOp("b", objects)
    indexed = BinaryOp("c", objects, SelectObjectAttr(0), attributes={"tag": UnitAttr()})
    module = module_of(default, indexed)
    module.verify()
    assert text(default) == 'gpu.binary @b  [#gpu.object<#nvvm.target, "blob">]'
    assert (
        text(indexed)
        == 'gpu.binary @c <#gpu.select_object<0 : i64>> {tag} [#gpu.object<#nvvm.target, "blob">]'
    )
    assert default.offloading_handler == SelectObjectAttr()


def test_binary_generic_form():
    op = BinaryOp("b", [ObjectAttr(XeVMTargetAttr(), "x")])
    out = StringIO()
    Printer(stream=out, print_generic_format=True).print_op(op)
    assert out.getvalue() == (
        '"gpu.binary"() <{objects = [#gpu.object<#xevm.target, "x">], '
        'offloadingHandler = #gpu.select_object, sym_name = "b"}> : () -> ()'
    )


@pytest.mark.parametrize(
    ("op", "message"),
    [
        (
            BinaryOp("b", []),
            "attribute 'objects' failed to satisfy constraint: an array of GPU object attributes with at least 1 elements",
        ),
        (
            BinaryOp("b", ArrayAttr([StringAttr("x")])),
            "an array of GPU object attributes with at least 1 elements",
        ),
        (
            BinaryOp("b", [ObjectAttr(NVVMTargetAttr(), "x")], NVVMTargetAttr()),
            "attribute 'offloadingHandler' failed to satisfy constraint: any attribute with the `OffloadingTranslationAttrTrait` trait.",
        ),
    ],
)
def test_binary_verifier(op: BinaryOp, message: str):
    with pytest.raises(VerifyException) as info:
        module_of(op).verify()
    assert message in str(info.value)


def test_binary_needs_symbol_table_parent():
    op = BinaryOp("b", [ObjectAttr(NVVMTargetAttr(), "x")])
    FuncOp("f", ((), ()), Region(Block([op, ReturnOp()])))
    with pytest.raises(VerifyException, match="symbol's parent must have the SymbolTable trait"):
        op.verify()


def test_parse_roundtrip_and_errors():
    src = (
        "gpu.binary @b <#gpu.select_object<#rocdl.target>> {x} [#gpu.object<#rocdl.target, "
        'properties = {b, a}, kernels = #gpu.kernel_table<[#gpu.kernel_metadata<"k", () -> ()>]>, offload = "\\00">]'
    )
    assert roundtrip(src) == (
        "builtin.module {\n  gpu.binary @b <#gpu.select_object<#rocdl.target>> {x} [#gpu.object<#rocdl.target, "
        'properties = {a, b}, kernels = <[#gpu.kernel_metadata<"k", () -> ()>]>, offload = "\\00">]\n}'
    )
    for bad, message in [
        (
            'gpu.binary @b [#gpu.object<#nvvm.target, cubin = "x">]',
            "expected keyword for GPU object format",
        ),
        (
            'gpu.binary @b [#gpu.object<#nvvm.target<foo = 1>, "x">]',
            "duplicate or unknown struct parameter name: foo",
        ),
        (
            'gpu.binary @b <#gpu.select_object<-2>> [#gpu.object<#nvvm.target, "x">]',
            "the object index must be positive",
        ),
    ]:
        with pytest.raises(ParseError, match=message):
            parse(bad)


def test_registered_in_driver_context():
    ctx = make_context()
    for name in (
        "nvvm.target",
        "rocdl.target",
        "xevm.target",
        "spirv.target_env",
        "spirv.vce",
        "spirv.resource_limits",
    ):
        assert ctx.get_optional_attr(name) is not None, name
    assert isinstance(DictionaryAttr({}), Attribute)
