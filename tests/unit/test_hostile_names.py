"""Hostile symbol names and string attributes: generated OpenCL C and Python
are built from xgpu-made identifiers (`xgpu.mangle`) and escaped literals,
never from IR text.

A gpu.module name that holds C code (`@"k\\0A#define printf(...) evil()..."`,
valid MLIR) once ended the generated header comment, and its inline
`__asm__` ran on the host under PoCL: here the payload would create a file;
the tests check that no file appears, that the program runs, and that no
process dies of a signal. Host functions (`f<N>_<hint>`) and simulated
kernels (`k<N>_<hint>`) get distinct ASCII Python names, so `@a_b` and
`@"a.b"` each run their own code and `@"f²"`, `@"ｍain"` work.
"""

from __future__ import annotations

import keyword
import re
import subprocess
import sys
from pathlib import Path

import pytest
from devices import BACKENDS, needs_opencl
from xdsl.dialects.builtin import SymbolRefAttr

from xgpu.backend.opencl import compile_all
from xgpu.backend.opencl.names import c_string, comment_symbol, is_reserved
from xgpu.mangle import HINT_LENGTH, Namer, hint, mangled
from xgpu.runtime.api import RunError, load, run

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ROOT / "tests" / "filecheck" / "hostile"


def sym(name: str) -> str:
    """`@name` as MLIR prints it (quoted and escaped where needed)."""
    return str(SymbolRefAttr(name))


def payload(path: Path) -> str:
    """C that creates `path` (an x86-64 `open` system call) when the kernel
    calls printf, if it ever became part of a program."""
    return (
        "k\n#define printf(...) xg_evil()\n"
        f'void xg_evil(void) {{ __private char p[] = "{path}"; long r; '
        '__asm__ volatile("syscall" : "=a"(r) : "a"(2L), "D"(p), "S"(65L), "d"(420L) '
        ': "rcx", "r11", "memory"); }\n//'
    )


def launch_program(module: str, kernel: str = "k") -> str:
    return f"""module attributes {{gpu.container_module}} {{
  gpu.module {sym(module)} {{
    gpu.func {sym(kernel)}(%n: i32) kernel {{
      gpu.printf "n=%d\\n", %n : i32
      gpu.return
    }}
  }}
  func.func @main() {{
    %c1 = arith.constant 1 : index
    %n = arith.constant 7 : i32
    gpu.launch_func {sym(module)}::{sym(kernel)} blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%n : i32)
    return
  }}
}}
"""


def xgpu_run(path: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    cmd = [sys.executable, "-c", "from xgpu.tools.xgpu_run import main; main()", *args, str(path)]
    return subprocess.run(cmd, capture_output=True, cwd=ROOT, timeout=300, check=False)


def output(capfdbinary, text: str, backend: str, entry: str = "main") -> bytes:
    capfdbinary.readouterr()
    run(text, entry=entry, backend=backend)
    sys.stdout.flush()
    out, _ = capfdbinary.readouterr()
    return out


# --------------------------------------------------------------------------- #
# Code injection through symbol names


@pytest.mark.parametrize("backend", BACKENDS)
def test_module_name_payload_does_not_run(tmp_path: Path, backend: str):
    pwned = tmp_path / "PWNED"
    program = tmp_path / "p.mlir"
    program.write_text(launch_program(payload(pwned)))
    proc = xgpu_run(program, "--backend", backend)
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout == b"n=7\n"
    assert not pwned.exists()


@pytest.mark.parametrize("backend", BACKENDS)
def test_host_function_name_payload_through_outlining(tmp_path: Path, backend: str):
    # gpu-kernel-outlining names the module @<func>_kernel.
    pwned = tmp_path / "PWNED"
    f = sym(payload(pwned))
    program = tmp_path / "p.mlir"
    program.write_text(
        f"""module {{
  func.func {f}(%n: i32) {{
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {{
      gpu.printf "n=%d\\n", %n : i32
      gpu.terminator
    }}
    return
  }}
  func.func @main() {{
    %n = arith.constant 7 : i32
    call {f}(%n) : (i32) -> ()
    return
  }}
}}
"""
    )
    proc = xgpu_run(program, "--backend", backend)
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout == b"n=7\n"
    assert not pwned.exists()


_BUILD_AND_RUN = """
import sys, pyopencl as cl
src = open(sys.argv[1]).read()
ctx = cl.Context(cl.get_platforms()[0].get_devices()[:1])
q = cl.CommandQueue(ctx)
prg = cl.Program(ctx, src).build(options="-cl-std=CL1.2")
for k in prg.all_kernels():
    k(q, (1,), (1,))
q.finish()
"""


@needs_opencl
def test_xgpu_opt_output_carries_no_code(tmp_path: Path):
    # The C that `xgpu-opt -t opencl` prints, built and run as it is.
    pwned = tmp_path / "PWNED"
    module = xgpu_parse_opencl(
        f"""gpu.module {sym(payload(pwned))} {{
  gpu.func {sym(payload(pwned))}() kernel {{
    gpu.printf "ran\\n"
    gpu.return
  }}
}}
"""
    )
    c_file = tmp_path / "k.cl"
    c_file.write_text(module)
    assert module.count("\n#") == 0  # no preprocessor line
    proc = subprocess.run(
        [sys.executable, "-c", _BUILD_AND_RUN, str(c_file)],
        capture_output=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout == b"ran\n"
    assert not pwned.exists()


def xgpu_parse_opencl(text: str) -> str:
    module, _ = load(text, "<test>")
    (prog,) = compile_all(module)
    return prog.source


# --------------------------------------------------------------------------- #
# Names in generated code


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("entry", ["main", "ｍain"])
def test_distinct_symbols_run_their_own_function(capfdbinary, backend: str, entry: str):
    # @a_b vs @"a.b", @"f²", @"ｍain": host functions, device functions and
    # kernels (the lit test names-python.mlir runs the same on the simulator).
    text = (HOSTILE / "names-python.mlir").read_text()
    out = output(capfdbinary, text, backend, entry)
    assert out == "10\n20\n30\nkernel ｍain: 1 2 3\nkernel main\n".encode()


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("length", [253, 1000])
def test_long_symbol_names(capfdbinary, backend: str, length: int):
    # PoCL aborts on a kernel named with 253 characters: the OpenCL names are short.
    name = "k" * length
    assert output(capfdbinary, launch_program(name, name), backend) == b"n=7\n"
    module, _ = load(launch_program(name, name), "<test>")
    (prog,) = compile_all(module)
    assert len(prog.kernels[name].cl_name) <= 40


@pytest.mark.parametrize("backend", BACKENDS)
def test_symbols_with_nul_quotes_and_newlines(capfdbinary, backend: str):
    text = launch_program("m\0x\n'''", "k\0\n\"'\\")
    assert output(capfdbinary, text, backend) == b"n=7\n"


def test_opencl_names_are_unique_ascii_and_not_reserved():
    names = ["a_b", "a.b", "a-b", "a b", "f²", "ｍain", "main", "step", "kernel", "", "_", "9"]
    body = "".join(f"  gpu.func {sym(n)}() kernel {{ gpu.return }}\n" for n in names if n)
    body += "".join(
        f"  func.func {sym(n + '.fn')}() {{ return }}\n" for n in ["x", "x_fn", "printf"]
    )
    module, _ = load(f"gpu.module @m {{\n{body}}}\n", "<test>")
    (prog,) = compile_all(module)
    cl_names = [abi.cl_name for abi in prog.kernels.values()]
    c_names = re.findall(r"\b(xg\d+_?\w*)\(", prog.source)
    assert len(set(cl_names)) == len(cl_names) == len(names) - 1
    for n in set(c_names):
        assert n.isascii() and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", n)
        assert not is_reserved(n) and len(n) < 64


def test_python_names_are_unique_ascii_identifiers():
    from xgpu.runtime.compile_host import HostCompiler

    names = ["a_b", "a.b", "a$b", "f²", "ｍain", "class", "None", "__import__", "f0_a_b"]
    funcs = "".join(f"  func.func {sym(n)}() {{ return }}\n" for n in names)
    module, _ = load(f"module {{\n{funcs}}}\n", "<test>")

    class Hooks:
        pass

    program = HostCompiler(module, Hooks()).compile()
    py_names = re.findall(r"^def (\w+)\(", program.source, re.M)
    assert len(set(py_names)) == len(names)
    for n in py_names:
        assert n.isascii() and n.isidentifier() and not keyword.iskeyword(n)
    assert set(program.functions) == set(names)


@pytest.mark.parametrize("backend", BACKENDS)
def test_assert_messages_are_data(backend: str):
    # A cf.assert message reaches generated Python only as a repr() literal.
    message = "x')\nimport os; os._exit(3) #\0'''\"\"\"\\"
    text = f"""module {{
  func.func @main() {{
    %f = arith.constant false
    cf.assert %f, {str(SymbolRefAttr(message))[1:]}
    return
  }}
}}
"""
    with pytest.raises(RunError) as err:
        run(text, backend=backend)
    assert f"assertion failed: {message}" in str(err.value)


# --------------------------------------------------------------------------- #
# The helpers


def test_mangled_names():
    assert hint("a.b") == "a_b" and hint("ｍain") == "ain" and hint("f²") == "f"
    assert hint("..") == "" and hint(None) == "" and len(hint("x" * 300)) == HINT_LENGTH
    assert mangled("v", 1, "2") == "v1_2" and mangled("v", 12) == "v12"
    namer = Namer("f")
    assert [namer("a_b"), namer("a.b"), namer("²"), namer("a_b")] == [
        "f0_a_b",
        "f1_a_b",
        "f2",
        "f3_a_b",
    ]
    with pytest.raises(ValueError):
        Namer("0x")


def _decode_c_string(literal: str) -> bytes:
    assert literal[0] == literal[-1] == '"'
    out, i, body = bytearray(), 0, literal[1:-1]
    while i < len(body):
        ch = body[i]
        assert ch != '"' and ch != "?" and ch.isascii() and ch.isprintable()
        if ch != "\\":
            out.append(ord(ch))
            i += 1
        elif body[i + 1] in "01234567":
            assert re.fullmatch(r"[0-7]{3}", body[i + 1 : i + 4])
            out.append(int(body[i + 1 : i + 4], 8))
            i += 4
        else:
            assert body[i + 1] in '\\"?'
            out.append(ord(body[i + 1]))
            i += 2
    return bytes(out)


def test_c_string_escapes_every_byte():
    data = bytes(range(256)) + b"??/??=??'" + b'\\\n"0'
    literal = c_string(data)
    assert _decode_c_string(literal) == data
    assert "??" not in literal and "\n" not in literal


@pytest.mark.parametrize(
    "name", ["k", "k.v$1", "k\n#define x", "a*/b", "a??/", "end\\", "é", "\0", '"']
)
def test_comment_symbol_cannot_end_a_comment(name: str):
    text = comment_symbol(name)
    assert "\n" not in text and "?" not in text and "*/" not in text
    assert not text.endswith("\\") and text.isascii()
    # Every backslash starts a two-digit hex escape.
    assert re.fullmatch(r'@[A-Za-z_][\w$.]*|@"([\w$.]|\\[0-9A-F]{2})*"', text)


@pytest.mark.parametrize("backend", BACKENDS)
def test_symbols_in_runtime_messages_are_printed_as_mlir_prints_them(backend: str):
    """A runtime error names the kernel as MLIR prints the symbol: an escape
    sequence or a newline in a symbol does not reach the terminal raw."""
    text = """
module attributes {gpu.container_module} {
  gpu.module @"m\\1B[31m" {
    gpu.func @"k\\0Ax"(%d: memref<4xf32>) kernel {
      %c9 = arith.constant 9 : index
      %one = arith.constant 1.0 : f32
      memref.store %one, %d[%c9] : memref<4xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %d = gpu.alloc () : memref<4xf32>
    gpu.launch_func @"m\\1B[31m"::@"k\\0Ax" blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<4xf32>)
    return
  }
}
"""
    with pytest.raises(RunError) as err:
        run(text, backend=backend)
    message = err.value.diagnostic.message
    assert message.endswith('of @"m\\1B[31m"::@"k\\0Ax"'), message
    assert "\x1b" not in message and "\n" not in message
