"""The program zoo (tests/runtime/zoo/*.mlir and examples/forum_run.mlir), run by
xgpu-run's runtime in this process on the OpenCL device.

Each program's output must match its `// CHECK:` and `// CHECK-NEXT:` lines
(in order; a CHECK line matches a later output line, a CHECK-NEXT line the
next one; `{{regex}}` is a regular expression, the rest is literal text found
anywhere in the line), or, when there is a `NAME.expected` file beside it, be
exactly that file. Output is captured at the file-descriptor level, so the
`gpu.printf` output that the OpenCL driver writes is checked too.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ZOO = sorted((ROOT / "tests" / "runtime" / "zoo").glob("*.mlir")) + [
    ROOT / "examples" / "forum_run.mlir"
]


def _skip_reason() -> str | None:
    try:
        from xgpu.runtime.opencl_device import has_device
    except Exception as err:  # pragma: no cover
        return f"pyopencl unavailable: {err}"
    if not has_device():
        return "no OpenCL device (install pyopencl[pocl] for a CPU device)"
    try:
        from xgpu.backend.opencl import compile_gpu_module  # noqa: F401
    except ImportError:
        return "the OpenCL emitter (xgpu.backend.opencl.compile_gpu_module) is not available"
    return None


SKIP = _skip_reason()
needs_opencl = pytest.mark.skipif(SKIP is not None, reason=SKIP or "")


def _pattern(text: str) -> re.Pattern[str]:
    parts = re.split(r"\{\{(.*?)\}\}", text)
    return re.compile("".join(re.escape(p) if i % 2 == 0 else p for i, p in enumerate(parts)))


def check_output(program: str, output: str) -> None:
    """Match `output` against the CHECK / CHECK-NEXT lines of `program`."""
    checks = re.findall(r"^\s*// (CHECK|CHECK-NEXT): ?(.*)$", program, re.M)
    assert checks, "the program has no CHECK lines"
    lines = output.splitlines()
    pos = 0
    for kind, text in checks:
        pattern = _pattern(text.strip())
        if kind == "CHECK-NEXT":
            assert pos < len(lines) and pattern.search(lines[pos]), (
                f"CHECK-NEXT: {text!r} does not match line {pos + 1}: "
                f"{lines[pos] if pos < len(lines) else '<end of output>'!r}\n{output}"
            )
            pos += 1
            continue
        while pos < len(lines) and not pattern.search(lines[pos]):
            pos += 1
        assert pos < len(lines), f"CHECK: {text!r} not found\n{output}"
        pos += 1


def test_check_output_matcher():
    program = "// CHECK: a {{[0-9]+}} b\n// CHECK-NEXT: [1,  2]\n// CHECK: end\n"
    check_output(program, "x\na 12 b\n[1,  2]\nmiddle\nend\n")
    with pytest.raises(AssertionError):
        check_output(program, "a 1 b\nx\n[1,  2]\nend\n")
    with pytest.raises(AssertionError):
        check_output(program, "a b\n")


@needs_opencl
@pytest.mark.parametrize("path", ZOO, ids=[p.stem for p in ZOO])
def test_zoo_program(path: Path, capfd: pytest.CaptureFixture[str]):
    from xgpu.runtime.api import run

    text = path.read_text()
    capfd.readouterr()
    run(text, name=str(path))
    out, err = capfd.readouterr()
    expected = path.with_suffix(".expected")
    if expected.exists():
        assert out == expected.read_text()
    else:
        check_output(text, out)
    assert "error" not in err.lower(), err
