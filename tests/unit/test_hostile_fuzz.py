"""Fuzzing hostile inputs (hypothesis, 500 examples per property).

- Each accepted printf conversion, drawn with any flags, width, precision,
  length modifier, argument type and value, formats as glibc's snprintf does
  (`c_printf`: the independent oracle; PoCL's own deviations, a NUL `%c` and
  the sign of NaN, are folded in and documented in `xgpu.semantics.printf`).
- Programs whose symbol names (gpu.module, kernels, device and host
  functions), cf.assert messages and printf literal text are arbitrary text
  or bytes, with printf formats drawn from the accepted conversions: the
  generated Python compiles, every call reaches its own function and the
  simulator prints what the format means; OpenCL C is generated for every
  program, and one program in `OPENCL_EVERY` (chosen by a hash of its text,
  so the same ones on every run of a seed) is also built and run on PoCL,
  which must print the same bytes. A PoCL build is about 0.2 s of CPU: all
  500 would be most of the suite's time.
- Formats of arbitrary bytes are either rejected with a `PrintfError` or
  compile and print on both backends alike.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import math
import struct
import sys
import zlib

import pytest
from devices import needs_opencl
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xgpu.backend.opencl import compile_gpu_module
from xgpu.runtime.api import Runner, RunOptions, load
from xgpu.semantics import scalar
from xgpu.semantics.printf import MAX_FIELD, MAX_INT_PRECISION, PrintfError, compile_printf
from xgpu.semantics.types import round_float

_LIBC = ctypes.CDLL(ctypes.util.find_library("c") or None)
needs_glibc = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="compares with glibc's snprintf"
)


def c_printf(spec: str, t: str, value) -> bytes:
    """What glibc prints for one conversion `spec` as written (flags, width,
    precision), with the length modifier of the argument's own width and the
    value passed as C would (unsigned conversions: the unsigned value of the
    width; floats: as a double, NaN without a sign)."""
    s = scalar(t)
    conv = spec[-1]
    body = spec[1:-1].rstrip("hljztq")
    buf = ctypes.create_string_buffer(1024)
    if conv == "c":
        byte = int(value) & 0xFF
        if byte == 0:  # PoCL prints nothing for the character (the field is padded)
            width = int("".join(ch for ch in body.split(".")[0] if ch.isdigit()) or 0)
            return b" " * width
        arg = ctypes.c_int(byte)
        fmt = "%" + body.split(".")[0] + "c"
    elif conv in "di":
        v = s.unsigned(value) if s.is_bool else s.signed(value)
        arg = ctypes.c_long(v) if s.width == 64 else ctypes.c_int(v)
        fmt = "%" + body + ("l" if s.width == 64 else "") + conv
    elif conv in "ouxX":
        v = s.unsigned(value)
        arg = ctypes.c_ulong(v) if s.width == 64 else ctypes.c_uint(v)
        fmt = "%" + body + ("l" if s.width == 64 else "") + conv
    else:
        v = round_float(value, s.width)
        arg = ctypes.c_double(math.nan if math.isnan(v) else v)
        fmt = "%" + body + conv
    n = _LIBC.snprintf(buf, len(buf), fmt.encode(), arg)
    return buf.raw[:n]


# The strategies conversions() draws from, made once: one built inside the
# draw (a `.map`, a `|`, a list argument) is made and validated again each
# time, a good part of the generation's time.
_FLAGS = st.lists(st.sampled_from("-+ #0"), max_size=4)
_WIDTH = st.one_of(st.just(""), st.integers(1, MAX_FIELD).map(str))
_PRECISION = {
    cap: st.one_of(st.just(""), st.just("."), st.integers(0, cap).map(lambda p: f".{p}"))
    for cap in (MAX_INT_PRECISION, MAX_FIELD)
}
_INT_LENGTH = st.sampled_from(("", "hh", "h", "l", "ll", "z", "j", "t"))
_FLOAT_LENGTH = st.sampled_from(("", "l"))
_INT_TYPES = ("i1", "i8", "i16", "i32", "i64", "index")
_INT_TYPE = st.sampled_from(_INT_TYPES)
_INT_VALUE = {
    t: st.integers(scalar(t).min, scalar(t).max)
    | st.sampled_from((0, 1, -1, scalar(t).min, scalar(t).max))
    for t in _INT_TYPES
}
_FLOAT_TYPE = st.sampled_from(("f32", "f64"))
_F32_OR_SPECIAL = st.integers(0, 7)  # the drawn f32 or one of 7 special values
_F64_OR_KEEP = st.floats(allow_nan=False, width=64) | st.none()  # None: keep the value


@st.composite
def conversions(draw):
    conv = draw(st.sampled_from("diouxXcfFeEgGaA"))
    flags = "".join(draw(_FLAGS))
    width = draw(_WIDTH)
    prec = draw(_PRECISION[MAX_INT_PRECISION if conv in "diouxX" else MAX_FIELD])
    length = ""
    if conv in "diouxX":
        length = draw(_INT_LENGTH)
    elif conv in "fFeEgGaA":
        length = draw(_FLOAT_LENGTH)
    if conv == "c":
        prec = ""
    spec = "%" + flags + width + prec + length + conv
    if conv in "diouxXc":
        t = draw(_INT_TYPE)
        value = scalar(t).norm(draw(_INT_VALUE[t]))
    else:
        t = draw(_FLOAT_TYPE)
        bits = draw(st.integers(0, 2**32 - 1))
        f32 = struct.unpack("<f", struct.pack("<I", bits))[0]
        value = (f32, 0.0, -0.0, math.inf, -math.inf, math.nan, 0.5, 2.5)[draw(_F32_OR_SPECIAL)]
        if t == "f64" and not math.isnan(value):
            f64 = draw(_F64_OR_KEEP)
            value = value if f64 is None else f64
    return spec, t, value


@needs_glibc
@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(conversions())
def test_each_conversion_prints_what_c_prints(case):
    spec, t, value = case
    pf = compile_printf(spec, [t])
    assert pf.format([value]) == c_printf(spec, t, value)


# --------------------------------------------------------------------------- #
# Programs built from arbitrary names, messages and formats


def mlir_string(data: bytes | str) -> str:
    """An MLIR string literal of exactly `data` (UTF-8 for text): printable
    ASCII as is, every other byte (and quotes, backslashes) as `\\XX`."""
    if isinstance(data, str):
        data = data.encode()
    return (
        '"'
        + "".join(chr(b) if 32 <= b < 127 and b not in (0x22, 0x5C) else f"\\{b:02X}" for b in data)
        + '"'
    )


def mlir_constant(t: str, value) -> str:
    s = scalar(t)
    if s.is_float:
        if s.width == 64:
            return f"0x{struct.unpack('<Q', struct.pack('<d', value))[0]:016X}"
        return f"0x{struct.unpack('<I', struct.pack('<f', value))[0]:08X}"
    if s.is_bool:
        return "1" if value else "0"
    return str(value)


_RESERVED = {"main", "printI64", "printNewline"}
_names = st.text(min_size=1, max_size=30).filter(lambda n: n not in _RESERVED)
_literal = st.binary(max_size=12).map(lambda b: b.replace(b"\0", b""))


@st.composite
def kernels(draw):
    """(format bytes, [(type, value)], expected output) of one gpu.printf:
    literal bytes and drawn conversions, then a device function's result."""
    fmt, args, expected = b"", [], b""
    for _ in range(draw(st.integers(0, 4))):
        if draw(st.booleans()):
            text = draw(_literal)
            fmt += text.replace(b"%", b"%%")
            expected += text
        else:
            spec, t, value = draw(conversions())
            if scalar(t).is_float:
                # f32 values only: PoCL 3.0 prints doubles at single precision.
                value = round_float(value, 32)
            fmt += spec.encode()
            args.append((t, value))
            expected += c_printf(spec, t, value)
    raw = draw(st.binary(max_size=16))
    return fmt, args, expected, raw


@st.composite
def programs(draw):
    top = draw(st.lists(_names, min_size=2, max_size=4, unique=True))
    module, hosts = top[0], top[1:]
    inner = draw(st.lists(_names, min_size=2, max_size=5, unique=True))
    n_dev = draw(st.integers(1, len(inner) - 1))
    devices, kernel_names = inner[:n_dev], inner[n_dev:]
    ks = [draw(kernels()) for _ in kernel_names]
    # ASCII (any byte, escaped): xDSL lexes a literal with escapes and non-ASCII
    # text as bytes, which cf.assert's StringAttr rejects (a parser gap).
    message = draw(st.text(st.characters(max_codepoint=127), max_size=20))
    return module, hosts, devices, list(zip(kernel_names, ks)), message


def sym(name: str) -> str:
    return "@" + mlir_string(name)


def build(module, hosts, devices, kernels_):
    """The program's text and the output it must print."""
    lines = ["module attributes {gpu.container_module} {", f"  gpu.module {sym(module)} {{"]
    for j, d in enumerate(devices):
        lines += [
            f"    func.func {sym(d)}() -> i32 {{",
            f"      %c = arith.constant {100 + j} : i32",
            "      return %c : i32",
            "    }",
        ]
    main = ["  func.func @main() {", "    %c1 = arith.constant 1 : index"]
    expected = b""
    for j, h in enumerate(hosts):
        main += [
            f"    %h{j} = call {sym(h)}() : () -> i64",
            f"    call @printI64(%h{j}) : (i64) -> ()",
            "    call @printNewline() : () -> ()",
        ]
        expected += f"{10 * j}\n".encode()
    for i, (name, (fmt, args, want, raw)) in enumerate(kernels_):
        types = [t for t, _ in args]
        params = ", ".join(f"%a{k}: {t}" for k, t in enumerate(types))
        dev = i % len(devices)
        lines += [
            f"    gpu.func {sym(name)}({params}) kernel {{",
            f"      %d = func.call {sym(devices[dev])}() : () -> i32",
        ]
        operands = [f"%a{k}" for k in range(len(types))] + ["%d"]
        full = mlir_string(fmt + b"[%d]\n")
        lines.append(
            f"      gpu.printf {full}, {', '.join(operands)} : " + ", ".join([*types, "i32"])
        )
        want += f"[{100 + dev}]\n".encode()
        # A format of arbitrary bytes: an error, or the same output on both.
        try:
            pf = compile_printf(raw, [])
        except PrintfError:
            pass
        else:
            lines.append(f"      gpu.printf {mlir_string(raw)}")
            want += pf.format([])
        lines += ["      gpu.return", "    }"]
        values = []
        for k, (t, v) in enumerate(args):
            main.append(f"    %k{i}_{k} = arith.constant {mlir_constant(t, v)} : {t}")
            values.append(f"%k{i}_{k} : {t}")
        launch = (
            f"    gpu.launch_func {sym(module)}::{sym(name)} blocks in (%c1, %c1, %c1) "
            "threads in (%c1, %c1, %c1)"
        )
        main.append(launch + (f" args({', '.join(values)})" if values else ""))
        expected += want
    lines.append("  }")
    lines += ["  func.func private @printI64(i64)", "  func.func private @printNewline()"]
    for j, h in enumerate(hosts):
        lines += [
            f"  func.func {sym(h)}() -> i64 {{",
            f"    %c = arith.constant {10 * j} : i64",
            "    return %c : i64",
            "  }",
        ]
    return lines, main, expected


#: one program in this many is built and run on PoCL too
OPENCL_EVERY = 25


def on_opencl(text: str) -> bool:
    return zlib.crc32(text.encode("utf-8", "surrogatepass")) % OPENCL_EVERY == 0


@needs_opencl
@settings(
    max_examples=500,
    deadline=None,
    # capfdbinary is read out at the start of each run
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
)
@given(programs())
def test_arbitrary_names_messages_and_formats(capfdbinary, program):
    module, hosts, devices, kernels_, message = program
    lines, main, expected = build(module, hosts, devices, kernels_)
    main += [
        "    %true = arith.constant true",
        f"    cf.assert %true, {mlir_string(message + '?')}",
        "    %false = arith.constant false",
        f"    cf.assert %false, {mlir_string(message)}",
        "    return",
        "  }",
        "}",
    ]
    text = "\n".join(lines + main) + "\n"
    module_op, sources = load(text)
    for gpu_module in module_op.walk():
        if gpu_module.name == "gpu.module":
            assert compile_gpu_module(gpu_module).source
    for backend in ("opencl", "sim") if on_opencl(text) else ("sim",):
        capfdbinary.readouterr()
        with pytest.raises(Exception) as err:
            # What run() does after load(), which would parse or verify again.
            Runner(module_op, sources, RunOptions(backend=backend)).call("main", [])
        sys.stdout.flush()
        out, _ = capfdbinary.readouterr()
        assert type(err.value).__name__ == "RunError"
        assert f"error: assertion failed: {message}\n" in str(err.value) + "\n", backend
        assert out == expected, backend
