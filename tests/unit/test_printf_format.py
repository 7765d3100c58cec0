"""gpu.printf (`xgpu.semantics.printf`): formats checked against their
arguments with an error at the op on both backends, the OpenCL format
generated from the parsed conversions, and the same bytes printed by OpenCL
(PoCL) and the simulator: C's (glibc's) output for every accepted conversion.
"""

from __future__ import annotations

import math
import struct
import sys
from pathlib import Path

import pytest
from devices import BACKENDS, needs_opencl

from xgpu.runtime.api import RunError, run
from xgpu.semantics.printf import (
    Conversion,
    PrintfError,
    compile_printf,
    parse,
)

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ROOT / "tests" / "filecheck" / "hostile"


def output(capfdbinary, text: str, backend: str) -> bytes:
    capfdbinary.readouterr()
    run(text, backend=backend)
    sys.stdout.flush()
    out, _ = capfdbinary.readouterr()
    return out


# --------------------------------------------------------------------------- #
# Errors at the op, on both backends

BAD = [
    ("%s", ["i32"], "conversion '%s' is not supported: gpu.printf prints integers and floats"),
    ("%p", ["index"], "conversion '%p' is not supported"),
    ("%n", ["i32"], "conversion '%n' is not supported"),
    ("%d %d", ["i32"], "the format has 2 conversions for 1 argument"),
    ("x", ["i32"], "the format has 0 conversions for 1 argument"),
    (
        "%f",
        ["i32"],
        "conversion '%f' takes a floating-point argument, but argument #0 has type 'i32'",
    ),
    (
        "%d",
        ["f32"],
        "conversion '%d' takes an integer or index argument, but argument #0 has type 'f32'",
    ),
    ("%*d", ["i32"], "'*' in '%*d': the width must be a number in the format"),
    ("%.999999999f", ["f32"], "the precision in '%.999999999f' is larger than 128"),
    ("%200d", ["i32"], "the width in '%200d' is larger than 128"),
    ("%.65x", ["i32"], "the precision in '%.65x' is larger than 64"),
    ("%Lf", ["f32"], "length modifier 'L' is not supported in '%Lf'"),
    ("%v4d", ["i32"], "invalid conversion '%v'"),
    ("%5%", [], "'%5%': '%%' takes no flags, width, precision or length"),
    ("50%", [], "the format ends inside the conversion '%'"),
    ("a\\00b", [], "the format contains a NUL byte"),
]


def _bad_program(fmt: str, types: list[str]) -> str:
    params = ", ".join(f"%a{k}: {t}" for k, t in enumerate(types))
    args = ""
    if types:
        args = ", " + ", ".join(f"%a{k}" for k in range(len(types))) + " : " + ", ".join(types)
    return (
        "module attributes {gpu.container_module} {\n"
        "  gpu.module @m {\n"
        f"    gpu.func @k({params}) kernel {{\n"
        f'      gpu.printf "{fmt}"{args}\n'
        "      gpu.return\n"
        "    }\n"
        "  }\n"
        "  func.func @main() {\n"
        "    %c1 = arith.constant 1 : index\n"
        + "".join(
            f"    %v{k} = arith.constant {'1.0' if t[0] == 'f' else '1'} : {t}\n"
            for k, t in enumerate(types)
        )
        + "    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)"
        + (" args(" + ", ".join(f"%v{k} : {t}" for k, t in enumerate(types)) + ")" if types else "")
        + "\n    return\n  }\n}\n"
    )


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("fmt", "types", "message"), BAD, ids=[b[0] for b in BAD])
def test_invalid_formats_are_errors_at_the_op(backend: str, fmt: str, types, message: str):
    with pytest.raises(RunError) as err:
        run(_bad_program(fmt, types), name="bad.mlir", backend=backend)
    text = str(err.value)
    assert text.startswith("bad.mlir:4:7: error: 'gpu.printf' op "), text
    assert message in text


def test_xgpu_run_exit_status_and_diagnostic(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    # In process: xgpu-run's main() exits with the status the command would
    # (a traceback would be an exception here).
    from xgpu.tools.xgpu_run import main

    path = tmp_path / "bad.mlir"
    path.write_text(_bad_program("%*d", ["i32"]))
    for backend in ("sim", "opencl"):
        capsys.readouterr()
        with pytest.raises(SystemExit) as info:
            main(["--backend", backend, str(path)])
        assert info.value.code == 1
        err = capsys.readouterr().err
        assert f"{path}:4:7: error: 'gpu.printf' op '*' in '%*d'" in err
        assert "Traceback" not in err


# --------------------------------------------------------------------------- #
# The same bytes on both backends


LITERALS = (
    b'??/"); evil(); printf("7\n'
    b"??= ??( ??) ??< ??> ??' ??! ??- \\ \\\\ 100% \t\x01\x1b\x7f \xc3\xa9 \xff\n"
    b"\\0\\1\x07712\n"
)


@pytest.mark.parametrize("backend", BACKENDS)
def test_literal_text_prints_as_written(capfdbinary, backend: str):
    text = (HOSTILE / "printf-literals.mlir").read_text()
    assert output(capfdbinary, text, backend) == LITERALS


@needs_opencl
def test_conversions_print_the_same_on_both_backends(capfdbinary):
    text = (HOSTILE / "printf-conversions.mlir").read_text()
    sim = output(capfdbinary, text, "sim")
    assert output(capfdbinary, text, "opencl") == sim
    assert sim.count(b"\n") == 16


# --------------------------------------------------------------------------- #
# The rules


def test_length_modifiers_follow_the_argument():
    # MLIR's tests write %lld for index, %d for i8 and for index.
    pf = compile_printf(
        "%lld %d %d %hhd %u %x %lu", ["index", "i8", "index", "i32", "i8", "i16", "i32"]
    )
    assert pf.c_format() == b"%ld %d %ld %d %u %x %u"
    assert pf.format([-5, -1, 2**40, 300, -1, -1, -1]) == (
        b"-5 -1 1099511627776 300 255 ffff 4294967295"
    )
    args = pf.c_args(["a", "b", "c", "d", "e", "f", "g"])
    assert args == [
        "(long)(a)",
        "(int)(b)",
        "(long)(c)",
        "(int)(d)",
        "(uint)(uchar)(e)",
        "(uint)(ushort)(f)",
        "(uint)(g)",
    ]


def test_meaningless_flags_are_dropped():
    def flags(spec: str) -> str:
        (conv,) = parse(spec)
        assert isinstance(conv, Conversion)
        return conv.flags

    assert flags("%0-8d") == "-" and flags("%+ d") == "+" and flags("%#d") == ""
    assert (
        flags("%+ #0u") == "0"
        and flags("%+ #0x") == "#0"
        and flags("%08.3x") == ""
        and flags("%-+ #0c") == "-"
    )
    assert flags("%+ #0-f") == "-+#"
    assert compile_printf("%05.3c", ["i32"]).c_format() == b"%5c"


def test_f64_prints_at_double_precision_and_nan_without_sign():
    pf = compile_printf(
        "%.10f %g %e %f %f %.17g %a", ["f64", "f64", "f32", "f32", "f64", "f64", "f64"]
    )
    neg_nan = struct.unpack("<d", struct.pack("<Q", 0xFFF8000000000001))[0]
    assert pf.format([0.1, 1e300, math.nan, neg_nan, -math.inf, 0.1, 5e-324]) == (
        b"0.1000000000 1e+300 nan nan -inf 0.10000000000000001 0x0.0000000000001p-1022"
    )
    # The C gets a double for an f64 argument, a float for an f32 one.
    pf = compile_printf("%f %f", ["f64", "f32"])
    assert pf.c_args(["a", "b"]) == ["xg_printf_d(a)", "xg_printf_f(b)"]
    assert [name for name, _ in pf.c_helpers()] == ["xg_printf_f", "xg_printf_d"]


def test_invalid_formats():
    for fmt, types, message in BAD:
        with pytest.raises(PrintfError, match=None) as err:
            compile_printf(fmt.replace("\\00", "\0"), types)
        assert message in str(err.value)
    # Non-ASCII bytes in a message are shown as MLIR escapes.
    with pytest.raises(PrintfError, match=r"invalid conversion '%\\C3'"):
        compile_printf("%é", ["i32"])
