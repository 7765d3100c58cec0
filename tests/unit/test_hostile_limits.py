"""Valid programs that are deep or wide run, on the host, on the simulator and
on OpenCL, and give their results; where a tool has a limit, the program gets
a diagnostic at the op, never a Python error.

CPython refuses 21 statically nested loops, 100 indentation levels and
expressions nested a few thousand deep, and the OpenCL C compiler 256 nested
brackets: the generated code stays flat (xgpu.runtime.flat,
xgpu.backend.opencl.flat). The programs come from `limits_programs`.
"""

from __future__ import annotations

import ast
import io
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from devices import needs_opencl

import xgpu
from xgpu.backend.opencl import compile_gpu_module
from xgpu.ir.nesting import MAX_NESTING
from xgpu.runtime import flat
from xgpu.runtime.api import RunError, Runner, RunOptions, load

sys.path.insert(0, str(Path(__file__).parent))
import limits_programs as lp

BACKENDS = ["sim", pytest.param("opencl", marks=needs_opencl)]


def _line_of(text: str, needle: str) -> int:
    """The 1-based line of the first line of `text` containing `needle`."""
    for number, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return number
    raise AssertionError(needle)


def _host_source(text: str) -> str:
    module, sources = load(text)
    return Runner(module, sources, RunOptions()).program.source


# --------------------------------------------------------------------------- #
# Deep nesting


@pytest.mark.parametrize(
    "depth, kinds",
    [
        (21, ("for",)),
        (100, ("for",)),
        (300, ("for",)),
        (21, ("if",)),
        (100, ("if",)),
        (300, ("if",)),
        (300, lp.KINDS),
    ],
    ids=lambda x: "-".join(x) if isinstance(x, tuple) else str(x),
)
def test_deep_host_code(depth, kinds):
    assert xgpu.run(lp.host_program(depth, kinds)) == depth + 1


def test_deep_host_code_is_outlined_and_shallow_code_is_not():
    shallow = _host_source(lp.host_program(8))
    assert "def _o" not in shallow and shallow.count("def ") == 1
    deep = _host_source(lp.host_program(100, ("for",)))
    assert deep.count("def _o") >= 100 // 12
    # Every function of the deep program is under CPython's 20 nested loops.
    for function in re.split(r"^def ", deep, flags=re.M)[1:]:
        indents = [len(line) - len(line.lstrip()) for line in function.splitlines() if line]
        assert max(indents) // 4 < 20


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    "depth, kinds",
    [(21, ("for",)), (100, ("if",)), (300, ("if",)), (300, lp.KINDS)],
    ids=lambda x: "-".join(x) if isinstance(x, tuple) else str(x),
)
def test_deep_kernels(backend, depth, kinds):
    host = np.zeros(4, dtype=np.int64)
    xgpu.run(lp.kernel_program(depth, kinds), args=[host], backend=backend)
    assert list(host) == [t + depth + 1 for t in range(4)]


def _exchange(value: str) -> tuple[list[str], str]:
    """Innermost: store, barrier, read the next work-item's element, barrier."""
    return [
        "memref.store %t, %out[%t] : memref<?xindex>",
        "gpu.barrier",
        "%c4 = arith.constant 4 : index",
        "%t1 = arith.addi %t, %c1 : index",
        "%nb = arith.remui %t1, %c4 : index",
        "%v = memref.load %out[%nb] : memref<?xindex>",
        "gpu.barrier",
    ], "%v"


_SYNC_FUNCTION = """func.func @exchange(%o: memref<?xindex>, %t: index) -> index {
%c1 = arith.constant 1 : index
%c4 = arith.constant 4 : index
gpu.barrier
%t1 = arith.addi %t, %c1 : index
%nb = arith.remui %t1, %c4 : index
%v = memref.load %o[%nb] : memref<?xindex>
gpu.barrier
return %v : index
}
"""


def _exchange_by_call(value: str) -> tuple[list[str], str]:
    """Innermost: store, then the same exchange in a function with barriers."""
    return [
        "memref.store %t, %out[%t] : memref<?xindex>",
        "%v = func.call @exchange(%out, %t) : (memref<?xindex>, index) -> index",
    ], "%v"


@pytest.mark.parametrize("through_call", [False, True], ids=["inline", "call"])
@pytest.mark.parametrize(
    "backend, options",
    [("sim", {}), ("sim", {"detect_races": True}), pytest.param("opencl", {}, marks=needs_opencl)],
    ids=["sim", "sim-races", "opencl"],
)
def test_barriers_deep_inside_kernels(backend, options, through_call):
    """On the simulator, outlined code that reaches a barrier (itself or
    through a call) is a generator called with `yield from`."""
    depth = 120
    inner = _exchange_by_call if through_call else _exchange
    text = lp.kernel_program(depth, inner=inner)
    if through_call:
        text = text.replace("gpu.func @k(", _SYNC_FUNCTION + "gpu.func @k(")
    host = np.zeros(4, dtype=np.int64)
    xgpu.run(text, args=[host], backend=backend, **options)
    assert list(host) == [(t + 1) % 4 + depth + 1 for t in range(4)]


def test_deep_opencl_c_is_flat():
    """Past 64 braces, structured ops become labels and gotos: the C nests
    far less than clang's 256 brackets."""
    module, _ = load(lp.kernel_program(300))
    gpu_module = next(op for op in module.walk() if op.name == "gpu.module")
    source = compile_gpu_module(gpu_module).source
    depth = deepest = 0
    for char in source:
        if char in "({[":
            depth += 1
            deepest = max(deepest, depth)
        elif char in ")}]":
            depth -= 1
    assert deepest < 80
    assert "goto" in source
    clang = shutil.which("clang-14")
    if clang is not None:
        done = subprocess.run(
            [clang, "-x", "cl", "-cl-std=CL1.2", "-target", "nvptx64-nvidia-nvcl", "-Xclang",
             "-finclude-default-header", "-S", "-o", "/dev/null", "-Werror", "-"],
            input=source, capture_output=True, text=True,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr


# --------------------------------------------------------------------------- #
# Errors inside outlined code: at the op, with the work-item and indices


def _store_at_9(memref: str, type_: str):
    def inner(value: str) -> tuple[list[str], str]:
        return [
            "%c9 = arith.constant 9 : index",
            f"memref.store {value}, {memref}[%c9] : {type_}",
        ], value

    return inner


def test_host_error_deep_inside_is_reported_at_its_op():
    text = lp.host_program(120, inner=_store_at_9("%m", "memref<4xindex>")).replace(
        "%true = arith.constant true",
        "%true = arith.constant true\n%m = memref.alloc() : memref<4xindex>",
    )
    with pytest.raises(RunError) as info:
        xgpu.run(text, name="deep.mlir")
    message = info.value.format()
    assert (
        f"deep.mlir:{_line_of(text, '%m[%c9]')}:1: error: out-of-bounds access at [9] " in message
    )
    assert "Traceback" not in message


def test_kernel_error_deep_inside_is_reported_at_its_op():
    """The simulator reads the indices and the buffer from the frame of the
    outlined function."""
    text = lp.kernel_program(120, inner=_store_at_9("%out", "memref<?xindex>"))
    with pytest.raises(RunError) as info:
        xgpu.run(text, args=[np.zeros(4, dtype=np.int64)], backend="sim", name="deep.mlir")
    message = info.value.format()
    line = _line_of(text, "%out[%c9]")
    assert (
        f"deep.mlir:{line}:1: error: out-of-bounds access to %d[9] (sizes [4]) by work-item "
        "(0, 0, 0) of block (0, 0, 0) of @m::@k"
    ) in message


def test_kernel_race_deep_inside_is_reported_at_its_op():
    def inner(value: str) -> tuple[list[str], str]:
        return [f"memref.store {value}, %out[%c0] : memref<?xindex>"], value

    text = lp.kernel_program(120, inner=inner)
    with pytest.raises(RunError) as info:
        xgpu.run(
            text,
            args=[np.zeros(4, dtype=np.int64)],
            backend="sim",
            detect_races=True,
            name="r.mlir",
        )
    line = _line_of(text, "%out[%c0]")
    assert f"r.mlir:{line}:1: error: data race: memref.store by work-item (1, 0, 0)" in str(
        info.value
    )


def _host_reads_shared(wait_first: bool) -> str:
    """A kernel fills host_shared memory; the host reads it 120 levels deep,
    after a blocking wait on the kernel or not."""

    def inner(value: str) -> tuple[list[str], str]:
        return ["%x = memref.load %shared[%c2] : memref<4xindex>"], "%x"

    body, result = lp.nested(120, "%c0", inner=inner)
    return "\n".join(
        [
            "module attributes {gpu.container_module} {",
            "gpu.module @k {",
            "gpu.func @fill(%m: memref<4xindex>) kernel {",
            "%i = gpu.thread_id x",
            "memref.store %i, %m[%i] : memref<4xindex>",
            "gpu.return",
            "}",
            "}",
            "func.func @main() -> index {",
            *lp.CONSTS,
            "%c2 = arith.constant 2 : index",
            "%c4 = arith.constant 4 : index",
            "%shared = gpu.alloc host_shared () : memref<4xindex>",
            "%t0 = gpu.wait async",
            "%t1 = gpu.launch_func async [%t0] @k::@fill blocks in (%c1, %c1, %c1) "
            "threads in (%c4, %c1, %c1) args(%shared : memref<4xindex>)",
            *(["gpu.wait [%t1]"] if wait_first else []),
            *body,
            "gpu.wait [%t1]",
            f"return {result} : index",
            "}",
            "}",
        ]
    )


def test_host_race_deep_inside_is_reported_at_its_op():
    """The race detector's instrumentation of host loads works in outlined code."""
    text = _host_reads_shared(wait_first=False)
    with pytest.raises(RunError) as info:
        xgpu.run(text, backend="sim", detect_races=True, name="h.mlir")
    line = _line_of(text, "memref.load %shared")
    assert f"h.mlir:{line}:6: error: data race: memref.load by the host reads %shared[2]" in str(
        info.value
    )
    # Waited for, the load is work-item 2's store.
    fixed = _host_reads_shared(wait_first=True)
    assert xgpu.run(fixed, backend="sim", detect_races=True) == 2 + 121


def test_deep_recursion_is_an_error_at_the_call():
    text = """func.func @f(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.cmpi eq, %n, %c0 : index
  %r = scf.if %z -> (index) {
    scf.yield %c0 : index
  } else {
    %m = arith.subi %n, %c1 : index
    %x = func.call @f(%m) : (index) -> index
    %y = arith.addi %x, %c1 : index
    scf.yield %y : index
  }
  return %r : index
}
func.func @main(%n: index) -> index {
  %r = func.call @f(%n) : (index) -> index
  return %r : index
}"""
    assert xgpu.run(text, args=[300]) == 300
    with pytest.raises(RunError) as info:
        xgpu.run(text, args=[10**6], name="rec.mlir")
    assert "rec.mlir:9:10: error: calls nested too deeply: the program recursed past " in str(
        info.value
    )


# --------------------------------------------------------------------------- #
# Wide ops: many tokens, operands, results, cases, blocks


@pytest.mark.parametrize(
    "backend, mode, options",
    [
        ("sim", "blocking", {"detect_races": True, "schedule": "random", "seed": 1}),
        ("sim", "async", {"detect_races": True, "schedule": "random", "seed": 2}),
        ("sim", "op", {"detect_races": True, "schedule": "random", "seed": 3}),
        pytest.param("opencl", "blocking", {}, marks=needs_opencl),
        pytest.param("opencl", "op", {}, marks=needs_opencl),
    ],
)
def test_wait_for_5000_tokens(backend, mode, options):
    """The launches among the tokens are all waited for (under the race
    detector, a missed one is a race with the copy)."""
    text, launches = lp.tokens_program(5000, mode)
    host = np.zeros(launches, dtype=np.int64)
    xgpu.run(text, args=[host], backend=backend, **options)
    assert list(host) == list(range(1, launches + 1))


@pytest.mark.parametrize(
    "program, n",
    [(lp.call_program, 2000), (lp.branch_program, 2000), (lp.iter_args_program, 1000)],
    ids=["call", "branch", "iter-args"],
)
def test_thousands_of_operands_and_results(program, n):
    text, expected = program(n)
    assert xgpu.run(text) == expected


def test_launch_with_a_thousand_arguments():
    text, expected = lp.launch_args_program(1000)
    host = np.zeros(2, dtype=np.int64)
    xgpu.run(text, args=[host], backend="sim")
    assert list(host) == expected


def test_launch_arguments_on_opencl_up_to_the_device_limit():
    """As many arguments as CL_DEVICE_MAX_PARAMETER_SIZE allows run; more are
    an error at the kernel that names the limit (PoCL: 1024 bytes)."""
    text, expected = lp.launch_args_program(100)
    host = np.zeros(2, dtype=np.int64)
    xgpu.run(text, args=[host])
    assert list(host) == expected
    text, _ = lp.launch_args_program(1000)
    with pytest.raises(RunError) as err:
        xgpu.run(text, args=[host])
    assert "(CL_DEVICE_MAX_PARAMETER_SIZE)" in err.value.diagnostic.message
    assert err.value.diagnostic.location.line == 3  # the gpu.func


@pytest.mark.parametrize("kind", ["scf", "cf"])
def test_switch_of_thousands_of_cases(kind):
    n = 2000
    module, sources = load(lp.switch_program(n, kind))
    runner = Runner(module, sources, RunOptions())
    for x in (0, 1, 63, 64, 65, 4095, n - 1, n, n + 1, -5, 10**12):
        assert runner.call("main", [x]) == (3 * x + 1 if 0 <= x < n else -1), x
    # A tree of if/elif chains, none longer than 64 branches.
    assert 32 < _longest_elif_chain(runner.program.source) <= flat.FANOUT


def _longest_elif_chain(source: str) -> int:
    longest = 0
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.If):
            length = 1
            while len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
                node = node.orelse[0]
                length += 1
            longest = max(longest, length)
    return longest


def test_function_of_thousands_of_blocks():
    module, sources = load(lp.switch_program(2000, "blocks"))
    runner = Runner(module, sources, RunOptions())
    assert runner.call("main", [5]) == 2005


def test_many_dimensions():
    """scf.parallel of 30 dimensions (one loop over their product, in the
    order of nested loops) and a memref of rank 70 (index expressions in
    bounded groups)."""
    d = 30
    ubs = ["%c1"] * (d - 2) + ["%c2", "%c3"]
    text = f"""func.func @main() -> index {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c10 = arith.constant 10 : index
  %s = "scf.parallel"({", ".join(["%c0"] * d)}, {", ".join(ubs)}, {", ".join(["%c1"] * d)}, %c0) <{{operandSegmentSizes = array<i32: {d}, {d}, {d}, 1>}}> ({{
  ^bb0({", ".join(f"%i{k}: index" for k in range(d))}):
    %a = arith.muli %i{d - 2}, %c10 : index
    %b = arith.addi %a, %i{d - 1} : index
    "scf.reduce"(%b) ({{
    ^bb1(%x: index, %y: index):
      %z = arith.muli %x, %c10 : index
      %w = arith.addi %z, %y : index
      "scf.reduce.return"(%w) : (index) -> ()
    }}) : (index) -> ()
  }}) : (index, {", ".join(["index"] * (3 * d))}) -> index
  return %s : index
}}"""  # fmt: skip
    # (i28, i29) in order (0,0) (0,1) (0,2) (1,0) (1,1) (1,2): acc = acc * 10 + 10 * i28 + i29
    assert xgpu.run(text) == 13122
    rank = 70
    t = "memref<" + "x".join(["2"] + ["1"] * (rank - 1)) + "xindex>"
    one = ", ".join(["%c1"] + ["%c0"] * (rank - 1))
    text = f"""func.func @main() -> index {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %m = memref.alloc() : {t}
  memref.store %c5, %m[{one}] : {t}
  %v = memref.load %m[{one}] : {t}
  return %v : index
}}"""
    assert xgpu.run(text) == 5


# --------------------------------------------------------------------------- #
# The tools


def test_opt_prints_1000_nested_levels(xgpu_opt):
    """(Printed, parsed again and run: hostile/limits-nesting.test, at 300.)"""
    result = xgpu_opt(lp.host_program(1000))
    assert result.rc == 0, result.err
    for op in ("scf.for", "scf.if", "scf.while", "scf.execute_region", "scf.index_switch"):
        assert result.out.count(f"= {op}") == 200, op
    assert "%s0 = arith.addi %r0, %c1 : index\n    func.return %s0 : index" in result.out


def test_opt_canonicalizes_300_nested_levels(xgpu_opt):
    result = xgpu_opt(lp.host_program(300, ("for", "if", "region", "switch")), "-p", "canonicalize")
    assert result.rc == 0, result.err
    # Every level folds away, as with mlir-opt --canonicalize.
    assert re.search(
        r"(%\w+) = arith.constant 301 : index\n\s+func.return \1 : index\n", result.out
    )
    assert "scf." not in result.out


def test_nesting_past_the_limit_is_an_error_at_the_region(xgpu_opt):
    """(The same through the xgpu-run command: hostile/limits-nesting.test.)"""
    # The function's body and MAX_NESTING scf.if: the last region is one too many.
    text = lp.host_program(MAX_NESTING, ("if",))
    line = _line_of(text, f"%r{MAX_NESTING - 1} = scf.if")
    column = text.splitlines()[line - 1].index("{") + 1
    message = (
        f"{line}:{column}: error: regions are nested more than {MAX_NESTING} "
        "levels deep (xgpu's limit)"
    )
    result = xgpu_opt(text, name="too-deep.mlir")
    assert result.rc == 1
    assert result.err.startswith(f"too-deep.mlir:{message}\n"), result.err[:500]
    with pytest.raises(RunError) as info:
        xgpu.run(text, name="too-deep.mlir")
    assert str(info.value).startswith(f"too-deep.mlir:{message}\n")


def test_deeply_nested_attributes_are_an_error_where_the_parser_stands(xgpu_opt):
    depth = 60_000
    result = xgpu_opt("func.func @f() attributes {a = " + "[" * depth + "]" * depth + "} {\n}")
    assert result.rc == 1
    assert re.match(
        r"input.mlir:1:\d+: error: nested too deeply for xgpu \(Python recursion limit\)",
        result.err,
    )


def test_runner_output_is_unchanged_through_the_deep_stack():
    """`load` and the compilers run on a thread of their own; what the
    program prints and the errors it raises come back as before."""
    out = io.StringIO()
    text = lp.host_program(3).replace(
        "return",
        "%i = arith.index_cast %s0 : index to i64\ncall @printI64(%i) : (i64) -> ()\nreturn",
    )
    text = "func.func private @printI64(i64)\n" + text
    assert xgpu.run(text, stdout=out) == 4
    assert out.getvalue() == "4"
    with pytest.raises(RunError, match="expected"):
        xgpu.run("func.func @main( {")


@pytest.mark.parametrize("depth", [0, 1, 40, 300])
def test_walk_ops_is_xdsl_walk_without_recursion(depth: int):
    """`walk_ops` (the parser's, printer's and verifier's walk) gives the ops
    of xDSL's `walk()` in the same order, nested kernels and host code alike."""
    from xgpu.ir.nesting import deep_call, walk_ops

    for text in (lp.host_program(depth), lp.kernel_program(depth)):
        module, _ = load(text, "walk.mlir")
        ours = [id(op) for op in walk_ops(module)]
        theirs = deep_call(lambda module=module: [id(op) for op in module.walk()])
        assert ours == theirs and len(ours) > depth
