"""The OpenCL C emitter at source level: what is printed, the ABI, errors."""

from __future__ import annotations

import re

import numpy as np
import pytest

import xgpu
from xgpu.backend.opencl import EmitError, compile_all, compile_gpu_module
from xgpu.backend.opencl.names import BUILTINS, KEYWORDS, SymbolNamer, is_reserved


def emit(body: str, **options):
    text = body if "gpu.module" in body else f"gpu.module @m {{\n{body}\n}}\n"
    module = xgpu.parse(text, "t.mlir")
    errors = xgpu.verify(module)
    assert not errors, errors.format()
    gpu_module = next(op for op in module.walk() if op.name == "gpu.module")
    # The plain accesses (tests/unit/test_opencl_guards.py checks the guarded ones).
    options.setdefault("checked", False)
    return compile_gpu_module(gpu_module, **options)


def kernel(body: str, args: str = "", attrs: str = "", pre: str = "", **options):
    return emit(f"gpu.func @k({args}) {pre} kernel {attrs} {{\n{body}\n  gpu.return\n}}", **options)


def compact(source: str) -> str:
    return re.sub(r"\s+", " ", source)


def test_memref_arguments_expand_to_descriptors():
    prog = kernel(
        "%c0 = arith.constant 0 : index\n"
        "%v = memref.load %a[%i, %c0] : memref<?x4xf32, strided<[?, 1], offset: ?>>\n"
        "memref.store %v, %b[%i] : memref<8xf32>",
        "%a: memref<?x4xf32, strided<[?, 1], offset: ?>>, %b: memref<8xf32>, %i: index",
    )
    src = prog.source
    assert (
        "__kernel void xg0_k(__global float* a0_a, long a0_a_off, long a0_a_size0, "
        "long a0_a_size1, long a0_a_stride0, long a0_a_stride1, __global float* a1_b, "
        "long a1_b_off, long a1_b_size0, long a1_b_stride0, long a2_i)" in src
    )
    # Dynamic stride from the argument, static unit stride folded.
    assert "a0_a[a0_a_off + (a2_i * a0_a_stride0)]" in src
    assert "a1_b[a1_b_off + a2_i] = v0_v;" in src
    abi = prog.kernels["k"]
    assert abi.cl_name == "xg0_k"
    assert [p.kind for p in abi.params] == (
        ["buffer", "offset", "size", "size", "stride", "stride"]
        + ["buffer", "offset", "size", "stride", "scalar"]
    )
    a, b, i = abi.args
    assert (a.kind, a.shape, a.strides, a.dtype) == ("memref", (None, 4), (None, 1), np.float32)
    assert (b.shape, b.address_space) == ((8,), "__global")
    assert (i.kind, i.dtype) == ("scalar", np.int64)
    assert abi.scalar_arg_dtypes() == [None, *[np.int64] * 5, None, *[np.int64] * 3, np.int64]


def test_scalar_argument_types():
    prog = kernel("", "%a: i1, %b: i8, %c: i16, %d: i32, %e: i64, %f: index, %g: f32")
    assert "uchar a0_a, char a1_b, short a2_c, int a3_d, long a4_e, long a5_f, float a6_g" in (
        prog.source
    )
    dtypes = [a.dtype for a in prog.kernels["k"].args]
    assert dtypes == [np.uint8, np.int8, np.int16, np.int32, np.int64, np.int64, np.float32]


def test_names_never_clash_with_opencl():
    prog = emit(
        "gpu.func @main() kernel { gpu.return }\n"
        "gpu.func @step() kernel { gpu.return }\n"
        "gpu.func @max() kernel { gpu.return }\n"
        'gpu.func @"we.ird-name"() kernel { gpu.return }\n'
    )
    names = [abi.cl_name for abi in prog.kernels.values()]
    assert names == ["xg0_main", "xg1_step", "xg2_max", "xg3_we_ird_name"]
    for name in re.findall(r"\b[A-Za-z_]\w*\b", prog.source):
        if name.startswith(("xg", "v", "a")) and re.match(r"(xg_|xg\d|[va]\d)", name):
            assert not is_reserved(name)
    namer = SymbolNamer()
    assert namer.symbol("b_c") == "xg0_b_c" and namer.symbol("b.c") == "xg1_b_c"
    assert namer.symbol("y") == "xg2_y" and namer.symbol("y") == "xg3_y"
    assert "kernel" in KEYWORDS and "get_global_id" in BUILTINS


def test_fp64_pragma_only_when_used():
    assert "cl_khr_fp64" not in kernel("", "%a: f32").source
    prog = kernel("%y = arith.addf %x, %x : f64", "%x: f64")
    assert prog.source.splitlines()[1] == "#pragma OPENCL EXTENSION cl_khr_fp64 : enable"
    assert "cl_khr_fp64" in prog.extensions
    # Without cl_khr_fp16 an f16 value is a float rounded to f16 after each op.
    prog = kernel("%y = arith.addf %x, %x : f16", "%x: f16")
    assert "cl_khr_fp16" not in prog.source and "float a0_x" in prog.source
    assert "xg_half((a0_x + a0_x))" in prog.source
    with pytest.raises(EmitError, match="f16"):
        kernel("%y = math.fma %x, %x, %x : f16", "%x: f16")
    prog = kernel("%y = arith.addf %x, %x : f16", "%x: f16", fp16=True)
    assert "#pragma OPENCL EXTENSION cl_khr_fp16 : enable" in prog.source
    assert "half v0_y = (a0_x + a0_x);" in prog.source


def test_arith_and_math_use_the_shared_semantics():
    prog = kernel(
        "%a = arith.divsi %x, %y : i32\n"
        "%b = arith.cmpf ult, %f, %f : f32\n"
        "%c = math.exp %f : f32\n"
        "%d = arith.maximumf %f, %f : f32\n"
        "%e = arith.shrui %x, %y : i32\n"
        "%g = arith.fptosi %f : f32 to i32",
        "%x: i32, %y: i32, %f: f32",
    )
    src = prog.source
    assert "static inline int xg_divsi_int(int a, int b) {" in src
    assert "int v0_a = xg_divsi_int(a0_x, a1_y);" in src
    assert "uchar v1_b = (uchar)(!(a2_f >= a2_f));" in src
    assert "float v2_c = exp(a2_f);" in src
    assert "float v3_d = xg_maximumf_float(a2_f, a2_f);" in src
    assert "int v4_e = (int)((uint)a0_x >> (uint)a1_y);" in src
    assert "convert_int_sat_rtz(a2_f)" in src
    assert src.count("xg_divsi_int(int a") == 1


def test_structured_control_flow():
    prog = kernel(
        "%c0 = arith.constant 0 : index\n"
        "%c1 = arith.constant 1 : index\n"
        "%z = arith.constant 0 : i32\n"
        "%s:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %z, %b = %z) -> (i32, i32) {\n"
        "  scf.yield %b, %a : i32, i32\n"
        "}\n"
        "%t = arith.cmpi eq, %s#0, %z : i32\n"
        "%r = scf.if %t -> (i32) { scf.yield %s#1 : i32 } else { scf.yield %z : i32 }\n"
        "%w = scf.while (%x = %r) : (i32) -> i32 {\n"
        "  %p = arith.cmpi slt, %x, %z : i32\n"
        "  scf.condition(%p) %x : i32\n"
        "} do {\n"
        "^bb0(%y: i32):\n"
        "  scf.yield %y : i32\n"
        "}\n"
        "%k = scf.index_switch %n -> i32\n"
        "case 2 { scf.yield %z : i32 }\n"
        "default { scf.yield %w : i32 }",
        "%n: index",
    )
    src = compact(prog.source)
    assert "for (long v2_i = 0L; v2_i < a0_n; v2_i += 1L) {" in src
    # The swap goes through temporaries.
    assert "int xg_t0 = v1_s; int xg_t1 = v0_s; v0_s = xg_t0; v1_s = xg_t1;" in src
    assert "int v4_r; if (v3_t) { v4_r = v1_s; } else { v4_r = 0; }" in src
    assert "for (;;) {" in src and "if (!v7_p) break;" in src
    assert "switch (a0_n) { case 2: {" in src and "default: {" in src


def test_unstructured_control_flow_uses_labels():
    prog = emit(
        "func.func @f(%n: i32) -> i32 {\n"
        "  %one = arith.constant 1 : i32\n"
        "  cf.br ^loop(%n, %one : i32, i32)\n"
        "^loop(%k: i32, %acc: i32):\n"
        "  %done = arith.cmpi sle, %k, %one : i32\n"
        "  cf.cond_br %done, ^exit, ^body\n"
        "^body:\n"
        "  %acc2 = arith.muli %acc, %k : i32\n"
        "  %k2 = arith.subi %k, %one : i32\n"
        "  cf.br ^loop(%k2, %acc2 : i32, i32)\n"
        "^exit:\n"
        "  return %acc : i32\n"
        "}\n"
    )
    src = prog.source
    assert "int xg0_f(int a0_n);" in src  # prototype
    assert "bb0: ;" in src and "goto bb0;" in src and "goto bb2;" in src
    # Locals of a multi-block region are declared at its top.
    body = src.split("int xg0_f(int a0_n) {")[1]
    first = body.strip().splitlines()[0]
    assert first == "int v0_k;"
    assert not prog.kernels


def test_device_functions_calls_and_results():
    prog = emit(
        "func.func @two(%x: f32) -> (f32, i32) {\n"
        "  %c = arith.constant 2 : i32\n"
        "  return %x, %c : f32, i32\n"
        "}\n"
        "func.func @use(%m: memref<?x?xf32, #gpu.address_space<workgroup>>) {\n"
        "  return\n"
        "}\n"
        "gpu.func @k(%x: f32) workgroup(%w: memref<4x4xf32, #gpu.address_space<workgroup>>)"
        " kernel {\n"
        "  %a, %b = func.call @two(%x) : (f32) -> (f32, i32)\n"
        '  %c = "memref.cast"(%w) : (memref<4x4xf32, #gpu.address_space<workgroup>>) -> '
        "memref<?x?xf32, #gpu.address_space<workgroup>>\n"
        "  func.call @use(%c) : (memref<?x?xf32, #gpu.address_space<workgroup>>) -> ()\n"
        "  gpu.return\n"
        "}\n"
    )
    src = prog.source
    assert "float xg0_two(float a0_x, int* xg_out1);" in src
    assert "*xg_out1 = 2;" in src and "return a0_x;" in src
    assert "int v0_b;" in src and "float v1_a = xg0_two(a0_x, &v0_b);" in src
    assert "void xg1_use(__local float* a0_m, long a0_m_off" in src
    assert "xg1_use(xg_wg0, 0, 4, 4, 4, 1);" in src
    local = prog.kernels["k"].locals[0]
    assert (local.kind, local.index, local.nbytes((8, 8, 1))) == ("workgroup", 0, 64)


def test_barrier_printf_ids_and_known_block_size():
    prog = kernel(
        "%t = gpu.thread_id y\n"
        "%b = gpu.block_id z\n"
        "%d = gpu.block_dim x\n"
        "%g = gpu.grid_dim y\n"
        "%i = gpu.global_id x\n"
        "gpu.barrier\n"
        'gpu.printf "t=%lld x=%f \\"q\\"\\n", %t, %x : index, f32',
        "%x: f32",
        "attributes {known_block_size = array<i32: 8, 4, 1>}",
    )
    src = prog.source
    for text in (
        "long v0_t = (long)get_local_id(1);",
        "long v1_b = (long)get_group_id(2);",
        "long v2_d = (long)get_local_size(0);",
        "long v3_g = (long)get_num_groups(1);",
        "long v4_i = (long)get_global_id(0);",
        "barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);",
        'printf("t=%ld x=%f \\"q\\"\\012", (long)(v0_t), xg_printf_f(a0_x));',
        "__attribute__((reqd_work_group_size(8, 4, 1))) __kernel void xg0_k(",
    ):
        assert text in src
    assert prog.kernels["k"].known_block_size == (8, 4, 1)


def test_reductions_and_subgroups_emulated_abi():
    prog = kernel(
        "%a = gpu.all_reduce add %x {} : (f64) -> f64\n"
        "%s = gpu.subgroup_reduce maxsi %i : (i32) -> i32\n"
        "%r, %v = gpu.shuffle xor %f, %o, %o : f32\n"
        "%l = gpu.lane_id\n"
        "%n = gpu.num_subgroups : index\n"
        "%d = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>",
        "%x: f64, %i: i32, %f: f32, %o: i32",
    )
    src = prog.source
    assert "long xg_lid = (long)(get_local_id(0) + get_local_size(0) *" in src
    assert "__local char* xg_dsm, long xg_dsm_len, __local void* xg_scratch)" in src
    assert "if (xg_lid == 0) {" in src
    assert "long v5_n = 1L;" in src and "long v4_l = xg_lid;" in src
    dsm, scratch = prog.kernels["k"].locals
    assert dsm.kind == "dynamic_shared_memory" and dsm.nbytes((4, 1, 1), 100) == 100
    assert scratch.kind == "scratch" and scratch.nbytes((4, 2, 1)) == 64  # 8 items x f64
    assert "barrier(CLK_LOCAL_MEM_FENCE);" in src and "sub_group" not in src


def test_subgroups_khr_mode_uses_builtins():
    prog = kernel(
        "%s = gpu.subgroup_reduce add %f : (f32) -> f32\n"
        "%m = gpu.subgroup_reduce minui %i : (i32) -> i32\n"
        "%r, %v = gpu.shuffle down %f, %o, %o : f32\n"
        "%b = gpu.subgroup_broadcast %f, first_active_lane : f32\n"
        "%l = gpu.lane_id\n"
        "%z = gpu.subgroup_size : index",
        "%f: f32, %i: i32, %o: i32",
        subgroups="khr",
    )
    src = prog.source
    for text in (
        "#pragma OPENCL EXTENSION cl_khr_subgroups : enable",
        "float v0_s = sub_group_reduce_add(a0_f);",
        "int v1_m = (int)sub_group_reduce_min((uint)a1_i);",
        "sub_group_shuffle_down(a0_f, (uint)(long)a2_o)",
        "sub_group_broadcast_first(a0_f)",
        "(long)get_sub_group_local_id()",
        "(long)get_sub_group_size()",
    ):
        assert text in src, text
    assert not prog.kernels["k"].locals
    # The builtin-only extensions it needs have no pragma; the subgroup
    # builtins are OpenCL C 2.0's.
    assert {"cl_khr_subgroup_shuffle_relative", "cl_khr_subgroup_ballot"} <= prog.extensions
    assert "cl_khr_subgroup_ballot" not in src
    assert prog.build_options == "-cl-std=CL2.0"


def test_emulated_subgroup_size():
    prog = kernel(
        "%l = gpu.lane_id\n%s = gpu.subgroup_reduce add %i cluster(size = 2) : (i32) -> i32",
        "%i: i32",
        subgroup_size=8,
    )
    src = prog.source
    assert "long xg_sgid = xg_lid / 8L;" in src
    assert "long xg_lane = xg_lid - xg_sgbase;" in src
    assert "long v0_l = xg_lane;" in src
    assert "xg_sgbase + xg_cb" in src


def test_memref_views_and_private_memory():
    prog = kernel(
        "%c1 = arith.constant 1 : index\n"
        "%s = memref.subview %a[2, %o] [4, 1] [%st, 1] : memref<?x?xf32> to "
        "memref<4xf32, strided<[?], offset: ?>>\n"
        "%v = memref.load %s[%c1] : memref<4xf32, strided<[?], offset: ?>>\n"
        "%p = memref.alloca() : memref<2x3xf32>\n"
        "memref.store %v, %p[%c1, %c1] : memref<2x3xf32>\n"
        "%r = memref.reinterpret_cast %a to offset: [%o], sizes: [6], strides: [1] : "
        "memref<?x?xf32> to memref<6xf32, strided<[1], offset: ?>>\n"
        "memref.store %v, %r[%c1] : memref<6xf32, strided<[1], offset: ?>>\n"
        "%d = memref.dim %a, %c1 : memref<?x?xf32>",
        "%a: memref<?x?xf32>, %o: index, %st: index",
        pre="private(%q: memref<5xi32, #gpu.address_space<private>>)",
    )
    src = prog.source
    assert "int xg_priv0[5];" in src
    assert "float v3_p[6];" in src and "v3_p[4] = v2_v;" in src
    assert "a0_a[a1_o + 1] = v2_v;" in src
    # Subview: offset a_off + 2 * stride0 + o, stride stride0 * st; dim 1 dropped.
    assert "long v0_off = a0_a_off + (2 * a0_a_stride0) + a1_o;" in src
    assert "long v1_stride = a0_a_stride0 * a2_st;" in src
    assert "float v2_v = a0_a[v0_off + v1_stride];" in src


def test_constant_globals():
    prog = emit(
        '"memref.global"() <{sym_name = "lut", sym_visibility = "private", '
        "type = memref<3xf32>, initial_value = dense<[1.0, 2.5, -1.0]> : tensor<3xf32>, "
        "constant}> : () -> ()\n"
        "gpu.func @k(%i: index) kernel {\n"
        "  %g = memref.get_global @lut : memref<3xf32>\n"
        "  %v = memref.load %g[%i] : memref<3xf32>\n"
        "  gpu.return\n"
        "}\n"
    )
    assert "__constant float xg1_lut[3] = {1.0f, 2.5f, (-1.0f)};" in prog.source
    assert "float v0_v = xg1_lut[a0_i];" in prog.source


def test_line_origin_maps_lines_to_ops():
    prog = kernel("%y = arith.addf %x, %x : f32\ngpu.barrier", "%x: f32")
    lines = prog.source.splitlines()
    n = next(i for i, ln in enumerate(lines, 1) if "v0_y" in ln)
    op = prog.line_origin(n)
    assert op is not None and op.name == "arith.addf"
    loc = prog.line_location(n)
    assert (loc.file, loc.line) == ("t.mlir", 3)
    b = next(i for i, ln in enumerate(lines, 1) if "barrier(" in ln)
    assert prog.line_origin(b).name == "gpu.barrier"
    assert prog.line_origin(1) is None and prog.line_origin(10_000) is None
    log = f"<source>:{n}:5: error: something is wrong\n"
    explained = prog.explain_build_log(log)
    assert "from 'arith.addf' at t.mlir:3:" in explained and "v0_y" in explained


@pytest.mark.parametrize(
    ("body", "args", "message"),
    [
        (
            "%m = memref.alloc(%n) : memref<?xf32>",
            "%n: index",
            "'memref.alloc' op is not supported",
        ),
        (
            "%m = memref.alloca(%n) : memref<?xf32>",
            "%n: index",
            "'memref.alloca' op dynamic sizes are not supported",
        ),
        ("%v = arith.constant 3 : i7", "", "'arith.constant' op unsupported type 'i7'"),
        ("%v = arith.addi %x, %x : i7", "%x: i7", "'gpu.func' op unsupported type 'i7'"),
        (
            "%c = gpu.cluster_id x",
            "",
            "'gpu.cluster_id' op is not supported by the OpenCL backend",
        ),
    ],
)
def test_unsupported_constructs_are_clear_errors(body, args, message):
    with pytest.raises(EmitError) as info:
        kernel(body, args)
    text = str(info.value)
    assert message in text
    assert re.match(r"t\.mlir:\d+:\d+: error: ", text)


def test_reductions_in_device_functions_are_rejected():
    with pytest.raises(EmitError, match="scratch"):
        emit(
            "func.func @f(%x: f32) -> f32 {\n"
            "  %r = gpu.all_reduce add %x {} : (f32) -> f32\n"
            "  return %r : f32\n"
            "}\n"
        )


def test_compile_all_and_cli(xgpu_opt):
    text = (
        "gpu.module @a { gpu.func @k() kernel { gpu.return } }\n"
        "gpu.module @b { gpu.func @k() kernel { gpu.return } }\n"
    )
    module = xgpu.parse(text, "t.mlir")
    assert [p.module_name for p in compile_all(module)] == ["a", "b"]
    res = xgpu_opt(text, "-t", "opencl")
    assert res.rc == 0
    assert res.out.count("__kernel void xg0_k(void)") == 2
    bad = "gpu.module @a {\n  gpu.func @k(%n: index) kernel {\n    %m = memref.alloc(%n) : memref<?xf32>\n    gpu.return\n  }\n}\n"
    res = xgpu_opt(bad, "-t", "opencl")
    assert res.rc == 1
    assert "input.mlir:3:10: error: 'memref.alloc' op is not supported by the OpenCL backend" in (
        res.err
    )
    assert "Traceback" not in res.err


def test_build_failure_without_a_source_line_names_the_compiler_error():
    """A build that fails before compiling the source (PoCL's LLVM not knowing
    the host CPU) reports the compiler's own error and what to do, not
    pyopencl's "BUILD_PROGRAM_FAILURE" repeated."""
    from xgpu.runtime.opencl_device import unlocated_error

    log = (
        "clBuildProgram failed: BUILD_PROGRAM_FAILURE - clBuildProgram failed: "
        "BUILD_PROGRAM_FAILURE\n\nBuild on <pyopencl.Device 'pthread-AMD EPYC'>:\n\n"
        "error: unknown target CPU 'generic'\nDevice pthread-AMD EPYC failed to build\n"
    )
    message = unlocated_error(log)
    assert message.startswith("unknown target CPU 'generic': ")
    assert "pocl-opencl-icd" in message and "--device" in message
    other = "clBuildProgram failed\n\nerror: out of host memory\n"
    assert unlocated_error(other) == "out of host memory"
    assert unlocated_error("something odd\nmore") == "something odd"
