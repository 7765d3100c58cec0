"""gpu.launch_func and gpu.wait print their common forms as one string; the
text is the same as the general printing code's, which the tests force."""

from __future__ import annotations

import pytest

from xgpu.dialects.gpu import host
from xgpu.dialects.gpu.launch_func import LaunchFuncOp
from xgpu.ir import fast_print
from xgpu.ir import printer as printer_module

MODULE = """module attributes {{gpu.container_module}} {{
  gpu.module @k {{
    gpu.func @f(%b: memref<?xf32>, %n: index) kernel {{
      gpu.return
    }}
    gpu.func @g() kernel {{
      gpu.return
    }}
    gpu.func @h(%m: memref<4xf32, affine_map<(d0) -> (d0 + 1)>>) kernel {{
      gpu.return
    }}
    gpu.func @s(%m: memref<4xf32, strided<[2], offset: ?>>, %x: i32, %y: f16) kernel {{
      gpu.return
    }}
  }}
  gpu.module @"q{{0}}" {{
    gpu.func @"f}}{{"(%n: index) kernel {{
      gpu.return
    }}
  }}
  func.func @main(%b: memref<?xf32>, %n: index, %t: !gpu.async.token, %i: i32,
                  %m: memref<4xf32, affine_map<(d0) -> (d0 + 1)>>,
                  %s: memref<4xf32, strided<[2], offset: ?>>, %y: f16) {{
    %c1 = arith.constant 1 : index
{body}
    func.return
  }}
}}
"""

LAUNCHES = [
    "    %l = gpu.launch_func async [%t] @k::@f blocks in (%n, %c1, %c1) "
    "threads in (%c1, %c1, %c1) args(%b : memref<?xf32>, %n : index)",
    "    gpu.launch_func @k::@f blocks in (%n, %c1, %c1) threads in (%c1, %c1, %c1) "
    "args(%b : memref<?xf32>, %n : index)",
    "    gpu.launch_func [%t] @k::@g blocks in (%n, %c1, %c1) threads in (%c1, %c1, %c1)",
    "    %l = gpu.launch_func async @k::@g blocks in (%n, %c1, %c1) threads in (%c1, %c1, %c1)",
    "    %l = gpu.launch_func async [%t, %t] @k::@g blocks in (%n, %c1, %c1) "
    "threads in (%c1, %c1, %c1)",
    "    gpu.launch_func @k::@g blocks in (%n, %c1, %c1) threads in (%c1, %c1, %c1) {x = 1}",
    "    gpu.launch_func @k::@g clusters in (%c1, %c1, %c1) blocks in (%n, %c1, %c1) "
    "threads in (%c1, %c1, %c1)",
    "    gpu.launch_func @k::@g blocks in (%i, %i, %i) threads in (%i, %i, %i) : i32",
    "    gpu.launch_func @k::@g blocks in (%n, %c1, %c1) threads in (%c1, %c1, %c1) "
    "dynamic_shared_memory_size %i",
    "    gpu.launch_func @k::@h blocks in (%n, %c1, %c1) threads in (%c1, %c1, %c1) "
    "args(%m : memref<4xf32, affine_map<(d0) -> (d0 + 1)>>)",
    "    gpu.launch_func @k::@s blocks in (%n, %c1, %c1) threads in (%c1, %c1, %c1) "
    "args(%s : memref<4xf32, strided<[2], offset: ?>>, %i : i32, %y : f16)",
    "    gpu.launch_func @k::@h blocks in (%n, %c1, %c1) threads in (%c1, %c1, %c1) "
    "args(%m : memref<4xf32, affine_map<(d0) -> (d0 + 1)>>)\n"
    "    gpu.launch_func @k::@f blocks in (%n, %c1, %c1) threads in (%c1, %c1, %c1) "
    "args(%b : memref<?xf32>, %n : index)",
]

# (braces in the text around the names that the one-string form fills in)
LAUNCHES.append(
    '    %l = gpu.launch_func async [%t] @"q{0}"::@"f}{" blocks in (%n, %c1, %c1) '
    "threads in (%c1, %c1, %c1) args(%n : index)\n"
    '    gpu.launch_func [%l] @"q{0}"::@"f}{" blocks in (%c1, %c1, %c1) '
    "threads in (%n, %c1, %n) args(%c1 : index)"
)

WAITS = [
    "    %w = gpu.wait async",
    "    %w = gpu.wait async [%t]",
    "    %w = gpu.wait async [%t, %t]",
    "    gpu.wait [%t]",
    "    gpu.wait",
    "    %w = gpu.wait async [%t] {x = 1 : i32}",
    "    gpu.wait [%t] {a, b = 2}",
]

ARGS = [(), ("--mlir-style",), ("--mlir-print-op-generic",), ("--mlir-print-debuginfo",)]


def _general(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(LaunchFuncOp, "_fast_text", lambda self, printer: None)
    monkeypatch.setattr(host, "value_names", lambda printer, values: None)
    monkeypatch.setattr(fast_print, "LINE_TEXTS", {})
    monkeypatch.setattr(printer_module, "LINE_TEXTS", {})


MIXED = "\n".join(
    [
        "    %w0 = gpu.wait async",
        "    %w1 = gpu.wait async [%w0, %t]",
        "    %0 = gpu.wait async [%w1]",
        "    %1 = gpu.wait async [%0]",
        LAUNCHES[0],
        LAUNCHES[1],
        "    %l2 = gpu.launch_func async [%l, %1] @k::@g blocks in (%n, %c1, %c1) "
        "threads in (%c1, %c1, %c1)",
        "    gpu.wait [%l2]",
    ]
)


@pytest.mark.parametrize("body", [*LAUNCHES, *WAITS, MIXED])
@pytest.mark.parametrize("args", ARGS)
def test_same_text_as_the_general_printer(xgpu_opt, monkeypatch, body, args):
    text = MODULE.format(body=body)
    fast = xgpu_opt(text, *args)
    assert fast.rc == 0, fast.err
    _general(monkeypatch)
    general = xgpu_opt(text, *args)
    assert (fast.out, fast.err) == (general.out, general.err)


def test_the_common_launch_takes_the_fast_form(xgpu_opt, monkeypatch):
    used: list[bool] = []
    real = LaunchFuncOp._fast_text

    def spy(self, printer):
        text = real(self, printer)
        used.append(text is not None)
        return text

    monkeypatch.setattr(LaunchFuncOp, "_fast_text", spy)
    res = xgpu_opt(MODULE.format(body="\n".join([LAUNCHES[0], LAUNCHES[5], LAUNCHES[9]])))
    assert res.rc == 0, res.err
    # (The module may be printed twice: a first, discarded, printing finds aliases.
    # A launch without the one-string form is asked twice: for its whole line,
    # then by its print.)
    assert used and used == [True, False, False, False, False] * (len(used) // 5)
    assert (
        "%l = gpu.launch_func async [%t] @k::@f blocks in (%n, %c1, %c1) "
        "threads in (%c1, %c1, %c1)  args(%b : memref<?xf32>, %n : index)\n" in res.out
    )


@pytest.mark.parametrize("body", [*LAUNCHES, *WAITS, MIXED])
@pytest.mark.parametrize("args", [(), ("--mlir-style",), ("-p", "canonicalize")])
def test_whole_lines_print_as_print_op_prints_them(xgpu_opt, monkeypatch, body, args):
    """The one-string lines (`fast_print.LINE_TEXTS`, written a run at a
    time by `print_block`) against `print_op`'s own sequence, the op texts
    being the same one-string forms."""
    text = MODULE.format(body=body)
    fast = xgpu_opt(text, *args)
    assert fast.rc == 0, fast.err
    monkeypatch.setattr(printer_module, "LINE_TEXTS", {})
    general = xgpu_opt(text, *args)
    assert (fast.out, fast.err) == (general.out, general.err)


def test_the_common_lines_print_in_one_write(xgpu_opt, monkeypatch):
    lines: list[str] = []
    real = printer_module.MLIRPrinter._line_text

    def spy(self, op):
        text = real(self, op)
        if text is not None:
            lines.append(op.name)
        return text

    monkeypatch.setattr(printer_module.MLIRPrinter, "_line_text", spy)
    res = xgpu_opt(MODULE.format(body=MIXED))
    assert res.rc == 0, res.err
    # %0 and %1 have no name hint: print_op numbers them.
    assert lines[:6] == ["gpu.wait", "gpu.wait", *["gpu.launch_func"] * 3, "gpu.wait"]
