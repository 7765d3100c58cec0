"""The greedy driver behind canonicalize: pattern objects are built once per op
type, the worklist order and constant handling follow MLIR's driver."""

from __future__ import annotations

from xdsl.dialects import arith

from xgpu.dialects.gpu.host import WaitOp
from xgpu.ir.printer import print_mlir
from xgpu.ir.verifier import verify_ir
from xgpu.tools.xgpu_opt import make_context, parse
from xgpu.transforms import canonicalization
from xgpu.transforms.canonicalization import CanonicalizationTable
from xgpu.transforms.greedy import GreedyConfig, GreedyDriver


def _waits(n: int) -> str:
    body = "\n".join(f"  %w{i} = gpu.wait async [%t]\n  gpu.wait [%w{i}]" for i in range(n))
    return f"func.func @f(%t: !gpu.async.token) {{\n{body}\n  return\n}}\n"


def test_patterns_are_built_once_per_op_type(monkeypatch):
    import xgpu.transforms.canonicalization.gpu_wait as gpu_wait

    built = []
    original = gpu_wait.wait_patterns

    def counting():
        built.append(1)
        return original()

    monkeypatch.setattr(gpu_wait, "wait_patterns", counting)
    table = CanonicalizationTable()
    module = parse(_waits(50), "f", make_context())
    GreedyDriver(table).simplify(module.body)
    assert len(built) == 1
    assert table.patterns(WaitOp) is table.patterns(WaitOp)
    # Each single-token `gpu.wait async` was forwarded: the blocking waits now
    # wait for %t itself.
    func = module.body.block.first_op
    assert [op.name for op in func.body.block.ops] == ["gpu.wait"] * 50 + ["func.return"]


def test_shared_table_caches_across_runs():
    table = canonicalization.CANONICALIZATION
    assert table.patterns(WaitOp) is table.patterns(WaitOp)


def test_constants_unique_and_hoisted_to_isolated_entry():
    text = """
func.func @f(%a: index) -> index {
  %c1 = arith.constant 1 : index
  %x = arith.addi %a, %c1 : index
  %r = scf.for %i = %a to %x step %c1 iter_args(%acc = %a) -> (index) {
    %c1b = arith.constant 1 : index
    %c7 = arith.constant 7 : index
    %s = arith.addi %acc, %c1b : index
    %t = arith.muli %s, %c7 : index
    scf.yield %t : index
  }
  return %r : index
}
"""
    module = parse(text, "f", make_context())
    GreedyDriver(canonicalization.CANONICALIZATION).simplify(module.body)
    assert verify_ir(module) is None
    func = module.body.block.first_op
    constants = [op for op in func.walk() if isinstance(op, arith.ConstantOp)]
    # One constant per value, all in the function's entry block (MLIR hoists out
    # of the non-isolated scf.for), in the order MLIR's folder leaves them.
    assert [c.value.value.data for c in constants] == [7, 1]
    assert all(c.parent is func.body.block for c in constants)


def test_iteration_limit_reports_non_convergence():
    module = parse(_waits(3), "f", make_context())
    driver = GreedyDriver(canonicalization.CANONICALIZATION, GreedyConfig(max_iterations=1))
    # The first iteration changes the IR, so one iteration cannot show a fixpoint.
    assert driver.simplify(module.body) is False
    assert "gpu.wait async" not in print_mlir(module)
    again = GreedyDriver(canonicalization.CANONICALIZATION, GreedyConfig(max_iterations=1))
    assert again.simplify(module.body) is True


def test_fold_to_own_results_is_not_a_change():
    """An xDSL folder cannot modify its op, so returning the op's own results
    means nothing happened: the driver must not revisit the op forever."""
    from xgpu.transforms.greedy import PatternSource

    class OwnResults(PatternSource):
        def folder(self, op_type):
            return (lambda op: tuple(op.results)) if op_type is arith.AddiOp else None

    text = "func.func @f(%a: index) -> index {\n  %x = arith.addi %a, %a : index\n  return %x : index\n}\n"
    module = parse(text, "f", make_context())
    assert GreedyDriver(OwnResults()).simplify(module.body) is True
    assert "arith.addi" in print_mlir(module)
