"""mlir-opt's conventions on request: float text, value names, command line."""

from __future__ import annotations

import pytest

from xgpu.ir.float_text import apfloat_text, exponent_text
from xgpu.ir.mlir_style import print_mlir_style, sanitize
from xgpu.tools.mlir_cli import CliError, split_options, translate
from xgpu.tools.xgpu_opt import make_context, parse, pass_registry


@pytest.mark.parametrize(
    ("value", "type_name", "text"),
    [
        (4294967296.0, "f32", "4.2949673E+9"),
        (3.1415927410125732, "f32", "3.14159274"),
        (98765.4296875, "f32", "98765.4296"),
        (1.2345679402200715e-05, "f32", "1.23456794E-5"),
        (123456789.0, "f64", "123456789"),  # no `.`: MLIR prints the bits instead
        (0.1, "f64", "0.10000000000000001"),
        (-2.5, "f32", "-2.5"),
    ],
)
def test_apfloat_text(value: float, type_name: str, text: str) -> None:
    assert apfloat_text(value, type_name) == text


def test_exponent_text_truncates_as_apfloat() -> None:
    # 7.9609375 (an f16) is 7.96093 to APFloat, not Python's 7.96094.
    assert exponent_text(-7.9609375) == "-7.960930e+00"
    assert exponent_text(1.0) == "1.000000e+00"
    assert exponent_text(1.5e-7) == "1.500000e-07"


def test_sanitize() -> None:
    assert sanitize("c-1_i32") == "c-1_i32"
    assert sanitize("0x") == "_0x"
    assert sanitize("a b") == "a_b"
    assert sanitize("a+b") == "a2Bb"


def test_names_and_prefixes() -> None:
    text = """
    func.func @f(%x: index) -> index {
      %a = arith.constant 7 : i16
      %b = arith.constant 7 : i16
      %t = gpu.thread_id y
      %s = func.call @f(%t) : (index) -> index
      func.return %s : index
    }
    """
    out = print_mlir_style(parse(text, "<t>", make_context()))
    assert out.splitlines() == [
        "module {",
        "  func.func @f(%arg0: index) -> index {",
        "    %c7_i16 = arith.constant 7 : i16",
        "    %c7_i16_0 = arith.constant 7 : i16",
        "    %thread_id_y = gpu.thread_id  y",
        "    %0 = call @f(%thread_id_y) : (index) -> index",
        "    return %0 : index",
        "  }",
        "}",
    ]


def test_translate() -> None:
    passes = pass_registry()
    flags = {"--split-input-file": False, "-o": True, "--print-op-generic": False}
    assert translate(
        ["-split-input-file", "-canonicalize", "x.mlir", "-o", "out", "--mlir-print-op-generic"],
        flags,
        passes,
    ) == ["--split-input-file", "x.mlir", "-o", "out", "--print-op-generic", "-p", "canonicalize"]
    assert translate(
        ["--pass-pipeline=builtin.module(func.func(canonicalize{max-iterations=2}),cse)"],
        flags,
        passes,
    ) == ["-p", 'xgpu-nest{anchor="func.func" pipeline="canonicalize{max-iterations=2}"},cse']
    assert translate(
        ['--gpu-kernel-outlining=data-layout-str="#dlti.dl_spec<index = 32 : i32>"'], flags, passes
    ) == ["-p", 'gpu-kernel-outlining{data-layout-str="#dlti.dl_spec<index = 32 : i32>"}']
    # MLIR's test-convergence check changes no output: accepted, dropped.
    assert translate(["-canonicalize=test-convergence"], flags, passes) == ["-p", "canonicalize"]
    with pytest.raises(CliError, match="did you mean '--gpu-kernel-outlining'"):
        translate(["--gpu-kernel-outline"], flags, passes)
    with pytest.raises(CliError, match="no such option 'mapping' .* did you mean 'mapping-policy'"):
        translate(["--gpu-map-parallel-loops=mapping=x"], flags, passes)


def test_split_options() -> None:
    assert split_options('a=1 b="x y" c=<p q> d') == ["a=1", 'b="x y"', "c=<p q>", "d"]
