"""The fast path that parses `gpu.wait` gives the same IR and the same
diagnostics as xDSL's declarative-format parser, which it falls back to."""

from __future__ import annotations

import pytest

from xgpu.dialects.gpu import host
from xgpu.ir import line_forms

HEAD = "func.func @f(%a: !gpu.async.token, %i: index, %m: memref<4xf32>) {\n"
TAIL = "  func.return\n}\n"

# Bodies of `func.func @f`, valid and not.
CASES = [
    "  %t = gpu.wait async\n",
    "  %t = gpu.wait async [%a]\n",
    "  %t = gpu.wait async[%a]\n",
    "  %t = gpu.wait   async \t [ %a ,%a ]\n",
    "  %t = gpu.wait async\n    [%a]\n",
    "  gpu.wait [%a]\n",
    "  gpu.wait\n",
    "  gpu.wait [%a] {x = 1 : i32, a = unit}\n",
    "  %t = gpu.wait async [%a] {gpu.kernel}\n",
    "  %t = gpu.wait async [%a] loc(unknown)\n",
    '  %t = gpu.wait async [%a] loc("here":3:4)\n',
    "  %t = gpu.wait async // a comment\n    [%a]\n",
    "  %t = gpu.wait async [%a] // a comment\n",
    "  %t = gpu.wait async [%a]\n  %u = gpu.wait async [%t, %a]\n  gpu.wait [%u]\n",
    "  %0 = gpu.wait async\n  %1 = gpu.wait async [%0]\n",
    "  %t:1 = gpu.wait async [%a]\n",
    # malformed or invalid
    "  %t = gpu.wait async []\n",
    "  gpu.wait []\n",
    "  %t = gpu.wait async [%a,]\n",
    "  %t = gpu.wait async [%a\n",
    "  %t = gpu.wait async [%a %a]\n",
    "  %t = gpu.wait async [%i]\n",
    "  %t = gpu.wait async [%m]\n",
    "  %t = gpu.wait async [%nope]\n",
    "  %t = gpu.wait async [%later]\n  %later = gpu.wait async\n",
    "  %t = gpu.wait async [%a#0]\n",
    "  %t = gpu.wait async [%a#1]\n",
    "  %t = gpu.wait async [%a] [%a]\n",
    "  %t = gpu.wait async [%a] async\n",
    "  %t = gpu.wait asyncx [%a]\n",
    "  %t = gpu.wait async.x [%a]\n",
    "  gpu.wait async [%a]\n",
    "  %t = gpu.wait [%a]\n",
    "  %t, %u = gpu.wait async [%a]\n",
    "  %t = gpu.wait async [%a] {\n",
    "  %t = gpu.wait async [%a] {x}\n",
    "  %t = gpu.wait async [%a] {x = }\n",
    "  %t = gpu.wait async [%a] :\n",
    "  %a = gpu.wait async [%a]\n",
    "  %t = gpu.wait async [%a, %i]\n",
    "  %t = gpu.wait async [%a] {x = 1, x = 2}\n",
    "  %t = gpu.wait async [ %a ] [%a]\n",
    "  %t = gpu.wait async\n",
]


def _run(xgpu_opt, text: str, *args: str):
    res = xgpu_opt(text, *args)
    return res.rc, res.out, res.err


@pytest.mark.parametrize("body", CASES)
@pytest.mark.parametrize(
    "args", [(), ("--mlir-style",), ("--mlir-print-op-generic",), ("-p", "canonicalize")]
)
def test_same_output_and_diagnostics_as_the_declarative_parser(xgpu_opt, monkeypatch, body, args):
    text = HEAD + body + TAIL
    fast = _run(xgpu_opt, text, *args)
    monkeypatch.setattr(host, "_wait_fast_path", lambda parser: None)
    monkeypatch.setattr(line_forms, "LINE_FORMS", {})
    general = _run(xgpu_opt, text, *args)
    assert fast == general
    assert "Traceback" not in fast[2]


def test_the_fast_path_reads_the_common_forms(monkeypatch):
    """The common forms do take the fast path (and leave the parser where the
    general path would)."""
    from xgpu.tools.xgpu_opt import parse

    taken: list[object] = []
    real = host._wait_fast_path

    def spy(parser):
        found = real(parser)
        taken.append(found is not None)
        return found

    monkeypatch.setattr(host, "_wait_fast_path", spy)
    monkeypatch.setattr(line_forms, "LINE_FORMS", {})  # (which read whole lines first)
    module = parse(
        HEAD
        + "  %t = gpu.wait async\n  %u = gpu.wait async [%t, %a] {x = 1 : i32}\n"
        + "  gpu.wait [%u]\n  %v = gpu.wait async [%nope]\n  %nope = gpu.wait async\n"
        + TAIL
    )
    assert taken == [True, True, True, False, True]
    waits = [op for op in module.walk() if op.name == "gpu.wait"]
    assert [len(w.operands) for w in waits] == [0, 2, 1, 1, 0]
    assert [len(w.results) for w in waits] == [1, 1, 0, 1, 1]
    assert waits[1].operands[1] is waits[0].parent.parent.blocks[0].args[0]
    assert list(waits[1].attributes) == ["x"]


def test_a_list_after_a_comment_takes_the_general_path(monkeypatch):
    from xgpu.tools.xgpu_opt import parse

    module = parse(HEAD + "  %t = gpu.wait async // c\n  [%a]\n" + TAIL)
    (wait,) = [op for op in module.walk() if op.name == "gpu.wait"]
    assert len(wait.operands) == 1


# gpu.launch_func reads its dependencies the same way, then its common form.
LAUNCH_HEAD = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%b: memref<?xf32>, %n: index) kernel {
      gpu.return
    }
  }
  func.func @main(%b: memref<?xf32>, %n: index, %a: !gpu.async.token, %i: i32) {
"""
LAUNCH_TAIL = "    func.return\n  }\n}\n"
GRID = "blocks in (%n, %n, %n) threads in (%n, %n, %n)"
LAUNCHES = [
    f"    %l = gpu.launch_func async [%a] @k::@f {GRID} args(%b : memref<?xf32>, %n : index)\n",
    f"    %l = gpu.launch_func async @k::@f {GRID} args(%b : memref<?xf32>, %n : index)\n",
    f"    gpu.launch_func [%a, %a] @k::@f {GRID} args(%b : memref<?xf32>, %n : index)\n",
    f"    gpu.launch_func @k::@f {GRID} args(%b : memref<?xf32>, %n : index) {{x = 1}}\n",
    f"    %l = gpu.launch_func async // c\n  [%a] @k::@f {GRID} args(%b : memref<?xf32>, %n : index)\n",
    f"    %l = gpu.launch_func async [%a] <%a : !gpu.async.token> @k::@f {GRID}\n",
    f"    %l = gpu.launch_func async [%nope] @k::@f {GRID} args(%b : memref<?xf32>, %n : index)\n",
    f"    %l = gpu.launch_func async [%n] @k::@f {GRID} args(%b : memref<?xf32>, %n : index)\n",
    f"    %l = gpu.launch_func async [%a] @k::@f {GRID} args(%b : memref<?xf32>, %i : index)\n",
    f"    %l = gpu.launch_func async [%a] @k::@f {GRID} args(%b : memref<?xf32>)\n",
    f"    %l = gpu.launch_func async [%a] @k::@nope {GRID}\n",
    f"    %l = gpu.launch_func async [%a] @k::@f {GRID} args(%b : memref<?xf32>, %n : index\n",
    "    %l = gpu.launch_func async [%a] @k::@f blocks in (%n, %n) threads in (%n, %n, %n)\n",
    f"    %l = gpu.launch_func async [%a,] @k::@f {GRID}\n",
    f"    %l = gpu.launch_func async [%a] [%a] @k::@f {GRID}\n",
]


@pytest.mark.parametrize("body", LAUNCHES)
@pytest.mark.parametrize("args", [(), ("--mlir-style",), ("--mlir-print-op-generic",)])
def test_launch_same_output_and_diagnostics_as_the_general_parser(
    xgpu_opt, monkeypatch, body, args
):
    from xgpu.dialects.gpu import launch_func

    text = LAUNCH_HEAD + body + LAUNCH_TAIL
    fast = _run(xgpu_opt, text, *args)
    monkeypatch.setattr(launch_func, "parse_defined_async_dependencies", lambda parser: None)
    monkeypatch.setattr(launch_func, "parse_common_form", lambda parser: None)
    monkeypatch.setattr(line_forms, "LINE_FORMS", {})
    general = _run(xgpu_opt, text, *args)
    assert fast == general
    assert "Traceback" not in fast[2]
