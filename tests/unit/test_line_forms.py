"""The whole-line forms of gpu.wait and gpu.launch_func (`xgpu.ir.line_forms`)
give what the general path gives: the same output, diagnostics and status
of xgpu-opt, with and without them, on valid and malformed lines (each
line alone, and many mixed in one function with random spacing)."""

from __future__ import annotations

import random

import pytest

from xgpu.ir import line_forms

HEAD = """module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%b: memref<?xf32>, %n: index) kernel {
      gpu.return
    }
  }
  func.func @main(%b: memref<?xf32>, %n: index, %a: !gpu.async.token, %i: i32) {
"""
TAIL = "    func.return\n  }\n}\n"
GRID = "blocks in (%n, %n, %n) threads in (%n, %n, %n)"
ARGS = "args(%b : memref<?xf32>, %n : index)"

LINES = [
    # gpu.wait
    "%t = gpu.wait async\n",
    "%t = gpu.wait async [%a]\n",
    "%t = gpu.wait async [%a, %a]\n",
    "%t =gpu.wait   async\t[ %a ,%a ]  \n",
    "%t = gpu.wait async\n    [%a]\n",
    "%t = gpu.wait async\n    // c\n    [%a]\n",
    "%t = gpu.wait async [%a] // c\n",
    "%t = gpu.wait async [%a]\n    {x = 1 : i32}\n",
    "%t = gpu.wait async [%a] {x = 1 : i32}\n",
    '%t = gpu.wait async [%a]\n    loc("here":3:4)\n',
    "%t = gpu.wait async [%a] loc(unknown)\n",
    "%t = gpu.wait async [%a]\n    {x = }\n",
    "%t = gpu.wait async [%a]\n    : i32\n",
    "%t = gpu.wait async [%n]\n",
    "%t = gpu.wait async [%nope]\n",
    "%t = gpu.wait async [%a#0]\n",
    "%t = gpu.wait async [%later]\n    %later = gpu.wait async\n",
    "%a = gpu.wait async [%a]\n",
    "%t = gpu.wait async []\n",
    "%t = gpu.wait async [%a,]\n",
    "%t = gpu.wait asyncx [%a]\n",
    "%t = gpu.wait [%a]\n",
    "%t = gpu.wait\n",
    "%t:1 = gpu.wait async [%a]\n",
    "%t, %u = gpu.wait async [%a]\n",
    "%t = gpu.waitx async [%a]\n",
    '%t = "gpu.wait"(%a) : (!gpu.async.token) -> !gpu.async.token\n',
    "%u = gpu.wait async [%t]\n    %t = gpu.wait async\n",
    "%t = gpu.wait async [%a]\n    %t = gpu.wait async [%a]\n",
    # gpu.launch_func
    f"%l = gpu.launch_func async [%a] @k::@f {GRID} {ARGS}\n",
    f"%l = gpu.launch_func async @k::@f {GRID} {ARGS}\n",
    f"%l = gpu.launch_func async [%a, %a] @k::@f {GRID}\n",
    f"%l = gpu.launch_func  async\t[ %a ] @k::@f {GRID} {ARGS}  \n",
    f"%l = gpu.launch_func async [%a] @k::@f {GRID} {ARGS} {{x = 1}}\n",
    f"%l = gpu.launch_func async [%a] @k::@f {GRID} {ARGS}\n    {{x = 1}}\n",
    f"%l = gpu.launch_func async [%a] @k::@f {GRID} {ARGS} loc(unknown)\n",
    f"%l = gpu.launch_func async [%a] @k::@f {GRID}\n    {ARGS}\n",
    f"%l = gpu.launch_func async [%a] @k::@f {GRID} {ARGS} // c\n",
    f"%l = gpu.launch_func async\n    [%a] @k::@f {GRID} {ARGS}\n",
    f"%l = gpu.launch_func async [%a] <%a : !gpu.async.token> @k::@f {GRID}\n",
    f"%l = gpu.launch_func async [%nope] @k::@f {GRID} {ARGS}\n",
    f"%l = gpu.launch_func async [%n] @k::@f {GRID} {ARGS}\n",
    f"%l = gpu.launch_func async [%a] @k::@f {GRID} args(%b : memref<?xf32>, %i : index)\n",
    f"%l = gpu.launch_func async [%a] @k::@f {GRID} args(%b : memref<?xf32>)\n",
    f"%l = gpu.launch_func async [%a] @k::@nope {GRID}\n",
    f"%l = gpu.launch_func async [%a] @k::@f {GRID} args(%b : memref<?xf32>, %n : index\n",
    "%l = gpu.launch_func async [%a] @k::@f blocks in (%n, %n) threads in (%n, %n, %n)\n",
    "%l = gpu.launch_func async [%a] @k::@f blocks in (%i, %i, %i) threads in (%i, %i, %i)\n",
    f"%l = gpu.launch_func async [%a] @k::@f clusters in (%n, %n, %n) {GRID}\n",
    f"%l = gpu.launch_func async [%a] @k::@f {GRID} dynamic_shared_memory_size %i\n",
    f"%l = gpu.launch_func [%a] @k::@f {GRID}\n",
    f"%l = gpu.launch_func async [%a] @f {GRID}\n",
    f"%b = gpu.launch_func async [%a] @k::@f {GRID}\n",
    f"%l = gpu.launch_func async [%a] @k::@f {GRID} {ARGS} {{kernel = @k::@g}}\n",
    f"%l = gpu.launch_func async [%a] @k::@f {GRID} {ARGS} {{operandSegmentSizes = 1}}\n",
]


def _run(xgpu_opt, text: str, *args: str):
    res = xgpu_opt(text, *args)
    return res.rc, res.out, res.err


def _both(xgpu_opt, monkeypatch, text: str, *args: str):
    fast = _run(xgpu_opt, text, *args)
    with monkeypatch.context() as patch:
        patch.setattr(line_forms, "LINE_FORMS", {})
        general = _run(xgpu_opt, text, *args)
    return fast, general


@pytest.mark.parametrize("line", LINES)
@pytest.mark.parametrize("args", [(), ("--mlir-print-op-generic",), ("--mlir-print-debuginfo",)])
def test_a_line_reads_as_the_general_path_reads_it(xgpu_opt, monkeypatch, line, args):
    fast, general = _both(xgpu_opt, monkeypatch, HEAD + "    " + line + TAIL, *args)
    assert fast == general
    assert "Traceback" not in fast[2]


@pytest.mark.parametrize("seed", range(40))
def test_mixed_lines_read_as_the_general_path_reads_them(xgpu_opt, monkeypatch, seed):
    """Chains of waits and launches (the names defined in turn, some used
    before their definition or twice), with random spacing and a malformed
    line now and then."""
    rng = random.Random(seed)
    lines: list[str] = []
    prev = "%a"
    for i in range(rng.randint(1, 12)):
        sp = lambda: rng.choice([" ", "  ", "\t"])  # noqa: E731
        dep = rng.choice([prev, prev, "%a", f"%x{i + 1}", "%n"]) if rng.random() < 0.95 else ""
        deps = f"[{dep}]" if dep else ""
        if rng.random() < 0.5:
            line = f"%x{i} ={sp()}gpu.wait{sp()}async{sp()}{deps}"
        else:
            line = f"%x{i} = gpu.launch_func{sp()}async {deps}{sp()}@k::@f {GRID}"
            line += rng.choice(["", f" {ARGS}", " args(%b : memref<?xf32>)"])
        line += rng.choice(["", "", " {y}", " loc(unknown)", "\n    {z = 2}", " // c"])
        lines.append(line + "\n")
        prev = f"%x{i}"
    text = HEAD + "".join("    " + line for line in lines) + TAIL
    fast, general = _both(xgpu_opt, monkeypatch, text)
    assert fast == general
    fast, general = _both(xgpu_opt, monkeypatch, text, "-p", "canonicalize")
    assert fast == general


def test_the_common_lines_take_the_line_forms(monkeypatch):
    from xgpu.tools.xgpu_opt import parse

    taken: list[str] = []
    real = line_forms.match_line

    def spy(parser):
        found = real(parser)
        if found is not None:
            taken.append(found[0])
        return found

    monkeypatch.setattr("xgpu.ir.parser.match_line", spy)
    module = parse(
        HEAD
        + f"    %t = gpu.wait async [%a]\n    %l = gpu.launch_func async [%t] @k::@f {GRID} {ARGS}\n"
        + "    %u = gpu.wait async\n    %v = gpu.wait async [%nope]\n    %nope = gpu.wait async\n"
        + TAIL
    )
    assert taken == ["t", "l", "u"]  # (%nope was used before: the general path)
    ops = [op.name for op in module.walk()]
    assert ops.count("gpu.wait") == 4 and ops.count("gpu.launch_func") == 1
