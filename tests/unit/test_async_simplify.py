"""gpu-async-simplify: each rewrite on explicit programs, positive and negative
cases; remarks; the command line; cost on long programs."""

from __future__ import annotations

import re
import time

import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

from xgpu import diagnostics
from xgpu.analysis.happens_before import build_trace, tag_key
from xgpu.ir.printer import print_mlir
from xgpu.ir.verifier import verify_ir
from xgpu.tools.xgpu_opt import make_context, parse
from xgpu.transforms.async_simplify import AsyncSimplifyPass

HEADER = """\
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%b: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func @main(%h: memref<4xf32>, %ta: !gpu.async.token, %cond: i1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %true = arith.constant true
    %f = arith.constant 1.0 : f32
"""
FOOTER = "    return\n  }\n}\n"


def L(name: str | None, deps: str = "", tag: int = 0) -> str:
    """A `gpu.launch_func` line: async with result `name`, or synchronous."""
    lhs, asy = (f"{name} = ", " async") if name else ("", "")
    dep = f" [{deps}]" if deps else ""
    attr = f" {{tag = {tag}}}" if tag else ""
    return (
        f"    {lhs}gpu.launch_func{asy}{dep} @kernels::@k blocks in (%c1, %c1, %c1) "
        f"threads in (%c1, %c1, %c1) args(%h : memref<4xf32>){attr}\n"
    )


class Result:
    def __init__(self, module: ModuleOp, remarks: list[diagnostics.Diagnostic]):
        self.module = module
        self.remarks = remarks
        text = print_mlir(module)
        start = text.index("func.func @main")
        self.body = text[start : text.index("func.return", start)]
        # Each op on one line, without the launch boilerplate.
        self.lines = [
            re.sub(r" @kernels::@k blocks in .*", "", line.strip())
            for line in self.body.splitlines()[1:]
            if line.strip() and "arith.constant" not in line
        ]

    def messages(self) -> list[str]:
        return [d.message for d in self.remarks]


def _trace_relation(module: ModuleOp):
    main = next(
        op for op in module.walk() if isinstance(op, func.FuncOp) and op.sym_name.data == "main"
    )
    try:
        trace = build_trace(main)
    except NotImplementedError:
        return None
    return trace.keys(tag_key()), trace.relation(tag_key())


def simplify(body: str, remarks: bool = True) -> Result:
    """Run the pass on `@main` with `body`; check that the IR still verifies and,
    where the trace can be built, that the happens-before relation is kept."""
    ctx = make_context(allow_unregistered=True)
    module = parse(HEADER + body + FOOTER, "t.mlir", ctx)
    assert verify_ir(module) is None
    before = _trace_relation(module)
    with diagnostics.collecting() as engine:
        AsyncSimplifyPass(remarks=remarks).apply(ctx, module)
    diag = verify_ir(module)
    assert diag is None, diag.message
    assert before == _trace_relation(module)
    assert all(d.severity == "remark" for d in engine.diagnostics)
    return Result(module, engine.diagnostics)


# ---------------------------------------------------------------- rule 1


def test_duplicates_are_removed() -> None:
    r = simplify(L("%a") + L("%b", "%a, %a, %ta, %a"))
    assert r.lines[1] == "%b = gpu.launch_func async [%a, %ta]"
    assert r.messages() == ["duplicate dependency %a removed", "duplicate dependency %a removed"]


def test_dependency_implied_by_another_is_removed() -> None:
    r = simplify(L("%a") + L("%b", "%a") + L("%c", "%a, %b"))
    assert r.lines[2] == "%c = gpu.launch_func async [%b]"
    assert r.messages() == ["dependency %a removed: implied by %b"]
    assert r.remarks[0].location is not None and r.remarks[0].location.line == 15


def test_implication_is_transitive_and_goes_through_joins() -> None:
    r = simplify(
        L("%a")
        + "    %j = gpu.wait async [%a, %ta]\n"
        + L("%b", "%j")
        + L("%c", "%b")
        + "    %d = gpu.memset async [%ta, %c, %a] %h, %f : memref<4xf32>, f32\n"
    )
    assert "%d = gpu.memset async [%c] %h, %f : memref<4xf32>, f32" in r.lines
    assert set(r.messages()) == {
        "dependency %ta removed: implied by %c",
        "dependency %a removed: implied by %c",
    }


def test_join_dependency_implied_by_several_others() -> None:
    r = simplify(
        L("%a")
        + L("%b")
        + "    %j = gpu.wait async [%a, %b]\n"
        + L("%x", "%a")
        + L("%y", "%b")
        + L("%z", "%j, %x, %y")
    )
    assert r.lines[-1] == "%z = gpu.launch_func async [%x, %y]"
    assert "dependency %j removed: implied by %x, %y" in r.messages()
    # The join lost its only user.
    assert "gpu.wait async removed: its token is unused" in r.messages()
    assert not any("gpu.wait async" in line for line in r.lines)


def test_independent_dependencies_are_kept() -> None:
    r = simplify(
        L("%a") + L("%b", "%a") + L("%c", "%a") + L("%d", "%b, %c") + "    gpu.wait [%d]\n"
    )
    assert "%d = gpu.launch_func async [%b, %c]" in r.lines
    assert r.messages() == []


def test_loop_carried_tokens_are_opaque() -> None:
    r = simplify(
        L("%a")
        + "    %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %a) -> (!gpu.async.token) {\n"
        + L("%n", "%acc, %a")
        + "      scf.yield %n : !gpu.async.token\n    }\n"
        + L("%z", "%r, %a")
    )
    assert "%n = gpu.launch_func async [%acc, %a]" in r.lines
    assert "%z = gpu.launch_func async [%r, %a]" in r.lines
    assert r.messages() == []


# ---------------------------------------------------------------- rule 2


def test_join_used_only_by_a_blocking_wait_is_folded() -> None:
    r = simplify(L("%a") + L("%b") + "    %j = gpu.wait async [%a, %b]\n    gpu.wait [%j]\n")
    assert r.lines[-1] == "gpu.wait [%a, %b]"
    assert sum("gpu.wait" in line for line in r.lines) == 1
    assert r.messages() == ["folded the gpu.wait async %j (line 15) into this gpu.wait"]


def test_nested_joins_are_folded() -> None:
    r = simplify(
        L("%a")
        + L("%b")
        + "    %j1 = gpu.wait async [%a]\n"
        + "    %j2 = gpu.wait async [%j1, %b]\n"
        + "    gpu.wait [%j2]\n"
    )
    assert r.lines[-1] == "gpu.wait [%a, %b]"


def test_join_with_other_users_is_not_folded() -> None:
    r = simplify(
        L("%a") + L("%b") + "    %j = gpu.wait async [%a, %b]\n    gpu.wait [%j]\n" + L("%c", "%j")
    )
    assert "%j = gpu.wait async [%a, %b]" in r.lines
    assert "gpu.wait [%j]" in r.lines


def test_join_used_by_an_async_op_is_not_folded() -> None:
    # gpu-to-llvm lowers ops with one dependency only: a join is not inlined
    # into a launch.
    r = simplify(L("%a") + L("%b") + "    %j = gpu.wait async [%a, %b]\n" + L("%c", "%j"))
    assert "%c = gpu.launch_func async [%j]" in r.lines


def test_adjacent_blocking_waits_are_merged() -> None:
    r = simplify(
        L("%a")
        + L("%b")
        + "    gpu.wait [%a]\n"
        + "    %x = arith.constant 3 : index\n"
        + "    gpu.wait [%b]\n"
    )
    assert r.lines[-1] == "gpu.wait [%a, %b]"
    assert r.messages() == ["gpu.wait merged into the gpu.wait at line 17"]


def test_merged_waits_are_reduced() -> None:
    r = simplify(L("%a") + L("%b", "%a") + "    gpu.wait [%a]\n    gpu.wait [%b]\n")
    assert r.lines[-1] == "gpu.wait [%b]"
    assert "dependency %a removed: implied by %b" in r.messages()


def test_merging_waits_on_a_common_token_reports_no_duplicate() -> None:
    # Neither wait lists %a twice: the merge says so, nothing else.
    r = simplify(L("%a") + L("%b") + "    gpu.wait [%a]\n    gpu.wait [%a, %b]\n")
    assert r.lines[-1] == "gpu.wait [%a, %b]"
    assert r.messages() == ["gpu.wait merged into the gpu.wait at line 16"]


def test_waits_separated_by_host_work_are_not_merged() -> None:
    r = simplify(
        L("%a")
        + L("%b")
        + "    gpu.wait [%a]\n"
        + '    "test.observe"(%h) : (memref<4xf32>) -> ()\n'
        + "    gpu.wait [%b]\n"
        + "    gpu.wait [%a]\n"  # already completed: removed
        + L(None, "%b")  # a synchronous op
        + "    gpu.wait [%ta]\n"
    )
    waits = [line for line in r.lines if line.startswith("gpu.wait")]
    assert waits == ["gpu.wait [%a]", "gpu.wait [%b]", "gpu.wait [%ta]"]
    assert "gpu.launch_func" in r.lines[-2]


def test_wait_fold_then_merge() -> None:
    r = simplify(
        L("%a")
        + L("%b")
        + L("%c")
        + "    gpu.wait [%a]\n    %j = gpu.wait async [%b, %c]\n    gpu.wait [%j]\n"
    )
    assert r.lines[-1] == "gpu.wait [%a, %b, %c]"
    assert sum(line.startswith("gpu.wait") for line in r.lines) == 1


# ---------------------------------------------------------------- rule 3


def test_dependency_completed_by_an_earlier_wait_is_removed() -> None:
    r = simplify(L("%a") + L("%b", "%a") + L("%c") + "    gpu.wait [%b]\n" + L("%d", "%a, %c"))
    assert r.lines[-1] == "%d = gpu.launch_func async [%c]"
    assert r.messages() == ["dependency %a removed: already completed by the gpu.wait at line 16"]


def test_dependency_completed_by_a_synchronous_op_is_removed() -> None:
    r = simplify(
        L("%a")
        + L("%b", "%a")
        + "    gpu.memcpy [%b] %h, %h : memref<4xf32>, memref<4xf32>\n"
        + L("%d", "%a")
        + L("%e", "%b")
    )
    assert "%d = gpu.launch_func async" in r.lines
    assert "%e = gpu.launch_func async" in r.lines
    assert r.messages() == [
        "dependency %a removed: already completed by the gpu.memcpy at line 15",
        "dependency %b removed: already completed by the gpu.memcpy at line 15",
    ]


def test_synchronous_op_does_not_complete_other_work() -> None:
    r = simplify(
        L("%a")
        + "    gpu.memcpy %h, %h : memref<4xf32>, memref<4xf32>\n"
        + L(None)
        + "    %m = gpu.alloc () : memref<4xf32>\n"
        + L("%d", "%a")
    )
    assert r.lines[-1] == "%d = gpu.launch_func async [%a]"
    assert r.messages() == []


def test_join_completed_through_its_dependencies() -> None:
    r = simplify(
        L("%a")
        + L("%b")
        + "    %j = gpu.wait async [%a, %b]\n"
        + "    gpu.wait [%a, %b]\n"
        + L("%d", "%j")
        + L("%e", "%j, %ta")
    )
    assert "%d = gpu.launch_func async" in r.lines
    assert "%e = gpu.launch_func async [%ta]" in r.lines


def test_wait_on_one_branch_does_not_complete_after_the_if() -> None:
    r = simplify(
        L("%a")
        + "    scf.if %cond {\n"
        + "      gpu.wait [%a]\n"
        + L("%x", "%a")
        + "      scf.yield\n    }\n"
        + L("%d", "%a")
    )
    assert "%x = gpu.launch_func async" in r.lines  # after the wait, in the branch
    assert r.lines[-1] == "%d = gpu.launch_func async [%a]"


def test_wait_in_a_loop_body() -> None:
    r = simplify(
        L("%a")
        + L("%b")
        + "    scf.for %i = %c0 to %c2 step %c1 {\n"
        + L("%x", "%b")  # before the wait: kept
        + "      gpu.wait [%a]\n"
        + L("%y", "%a")  # after it, same block: removed
        + "      scf.yield\n    }\n"
        + L("%z", "%a")  # the loop may run zero times: kept
    )
    assert "%x = gpu.launch_func async [%b]" in r.lines
    assert "%y = gpu.launch_func async" in r.lines
    assert r.lines[-1] == "%z = gpu.launch_func async [%a]"


def test_wait_before_a_region_completes_inside_it() -> None:
    r = simplify(
        L("%a")
        + "    gpu.wait [%a]\n"
        + "    scf.for %i = %c0 to %c2 step %c1 {\n"
        + L("%y", "%a")
        + "      scf.yield\n    }\n"
    )
    assert "%y = gpu.launch_func async" in r.lines


def test_later_wait_does_not_complete_earlier_ops() -> None:
    r = simplify(L("%a") + L("%b", "%a") + "    gpu.wait [%a]\n")
    assert "%b = gpu.launch_func async [%a]" in r.lines
    assert r.lines[-1] == "gpu.wait [%a]"


def test_redundant_waits_are_removed() -> None:
    r = simplify(
        L("%a")
        + L("%b", "%a")
        + "    gpu.wait [%b]\n"
        + L(None)
        + "    gpu.wait [%a]\n    gpu.wait\n"
    )
    assert [line for line in r.lines if line.startswith("gpu.wait")] == ["gpu.wait [%b]"]
    assert r.messages().count("gpu.wait removed: it has nothing left to wait for") == 2


# ---------------------------------------------------------------- rule 4


def test_tokens_that_stand_for_no_work() -> None:
    r = simplify(
        "    %s = gpu.wait async\n"
        + "    %s2 = gpu.wait async [%s]\n"
        + L("%a", "%s")  # its only dependency: kept (the stream, for gpu-to-llvm)
        + L("%b", "%s2, %a")  # another dependency remains: removed
        + "    gpu.wait [%s]\n"  # a wait on nothing: removed
    )
    assert r.lines[0] == "%s = gpu.wait async"
    assert "%a = gpu.launch_func async [%s]" in r.lines
    assert "%b = gpu.launch_func async [%a]" in r.lines
    assert not any(line.startswith("gpu.wait [") for line in r.lines)
    assert not any("%s2" in line for line in r.lines)


# ------------------------------------------------------------ dead joins


def test_dead_joins_are_erased() -> None:
    r = simplify(
        L("%a")
        + "    %j1 = gpu.wait async [%a]\n"
        + "    %j2 = gpu.wait async [%j1, %ta]\n"
        + "    %j3 = gpu.wait async\n"
    )
    assert not any("gpu.wait" in line for line in r.lines)
    assert r.messages().count("gpu.wait async removed: its token is unused") == 3


def test_no_remarks_unless_asked() -> None:
    r = simplify(L("%a") + L("%b", "%a, %a"), remarks=False)
    assert r.lines[1] == "%b = gpu.launch_func async [%a]"
    assert r.remarks == []


def test_segment_sizes_follow_the_dependencies() -> None:
    r = simplify(
        L("%a")
        + "    %m, %t = gpu.alloc async [%a, %a, %ta] (%c2) : memref<?xf32>\n"
        + "    %t2 = gpu.memcpy async [%t, %a] %m, %m : memref<?xf32>, memref<?xf32>\n"
        + "    gpu.wait [%t2]\n"
    )
    generic = print_mlir(r.module, generic=True)
    assert "operandSegmentSizes = array<i32: 2, 1, 0>" in generic
    assert '"gpu.memcpy"(%t, %m, %m)' in generic


def test_other_functions_and_token_arguments() -> None:
    text = """\
func.func @f(%t: !gpu.async.token, %m: memref<4xf32>) -> !gpu.async.token {
  %a = gpu.memcpy async [%t] %m, %m : memref<4xf32>, memref<4xf32>
  %b = gpu.memcpy async [%t, %a, %t] %m, %m : memref<4xf32>, memref<4xf32>
  return %b : !gpu.async.token
}
"""
    ctx = make_context()
    module = parse(text, "t.mlir", ctx)
    AsyncSimplifyPass().apply(ctx, module)
    assert verify_ir(module) is None
    assert "gpu.memcpy async [%a] %m, %m" in print_mlir(module)


# ---------------------------------------------------------- command line


def test_command_line_option(xgpu_opt) -> None:
    text = HEADER + L("%a") + L("%b", "%a, %a") + FOOTER
    res = xgpu_opt(text, "--allow-unregistered-dialect", "-p", "gpu-async-simplify{remarks=true}")
    assert res.rc == 0
    assert "input.mlir:14:10: remark: duplicate dependency %a removed" in res.err
    assert "%b = gpu.launch_func async [%a] @kernels::@k" in res.out
    res = xgpu_opt(text, "--allow-unregistered-dialect", "-p", "gpu-async-simplify")
    assert res.rc == 0 and res.err == ""


# ---------------------------------------------------------------- cost


def _long_program(n: int, pattern: str) -> str:
    lines = [L("%a0")]
    for i in range(1, n + 1):
        if pattern == "old":  # each op: its predecessor and the first token
            deps = f"%w{i - 1}, %a0" if i > 1 else "%a0"
        else:  # its predecessor and the token of the op i/2 positions back
            deps = f"%w{i - 1}, %a{i // 2}" if i > 1 else "%a0"
        lines.append(L(f"%a{i}", deps))
        lines.append(f"    %w{i} = gpu.wait async [%a{i}]\n")
    lines.append(f"    gpu.wait [%w{n}, %a0, %a{n // 2}]\n")
    return "".join(lines)


@pytest.mark.parametrize("pattern", ["old", "fork"])
def test_long_chains_are_reduced_in_linear_time(pattern: str) -> None:
    n = 3000
    ctx = make_context()
    module = parse(HEADER + _long_program(n, pattern) + FOOTER, "t.mlir", ctx)
    start = time.perf_counter()
    AsyncSimplifyPass().apply(ctx, module)
    elapsed = time.perf_counter() - start
    text = print_mlir(module)
    # Every implied dependency went: one dependency per launch, one per wait.
    assert len(re.findall(r"launch_func async \[%\w+\] @", text)) == n
    assert f"gpu.wait [%a{n}]" in text
    # Linear: about 0.1 s per 1000 launches on the development machine; a
    # quadratic search would take minutes.
    assert elapsed < 10, elapsed
