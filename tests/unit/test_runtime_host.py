"""xgpu-run's host compiler: host functions compiled to Python and run with
`xgpu.run` (no OpenCL device needed: these programs have no gpu op)."""

from __future__ import annotations

import io

import numpy as np
import pytest

import xgpu
from xgpu.runtime.api import RunError, Runner, RunOptions, load


def run(text: str, entry: str = "main", args=(), name: str = "host.mlir"):
    out = io.StringIO()
    result = xgpu.run(text, entry=entry, args=list(args), stdout=out, name=name)
    return result, out.getvalue()


def test_scf_for_iter_args_and_results():
    text = """
    func.func @sum(%n: index) -> (index, index) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %s:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %c0, %b = %c1) -> (index, index) {
        %a2 = arith.addi %a, %i : index
        %b2 = arith.muli %b, %c1 : index
        %b3 = arith.addi %b2, %b2 : index
        scf.yield %a2, %b3 : index, index
      }
      return %s#0, %s#1 : index, index
    }
    """
    assert run(text, "sum", [10])[0] == (45, 1024)
    # An empty loop returns its initial values.
    assert run(text, "sum", [0])[0] == (0, 1)


def test_generated_code_is_python_loops():
    text = """
    func.func @f(%n: index) -> index {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %c0) -> (index) {
        %b = arith.addi %a, %i : index
        scf.yield %b : index
      }
      return %r : index
    }
    """
    module, sources = load(text)
    runner = Runner(module, sources, RunOptions())
    source = runner.program.source
    assert "def f0_f(" in source
    assert "for v" in source and "in range(" in source
    assert runner.call("f", [100000]) == 4999950000


def test_scf_if_while_index_switch_execute_region():
    text = """
    func.func @gcd(%a: i32, %b: i32) -> i32 {
      %r:2 = scf.while (%x = %a, %y = %b) : (i32, i32) -> (i32, i32) {
        %c0 = arith.constant 0 : i32
        %more = arith.cmpi ne, %y, %c0 : i32
        scf.condition(%more) %x, %y : i32, i32
      } do {
      ^bb0(%x: i32, %y: i32):
        %m = arith.remsi %x, %y : i32
        scf.yield %y, %m : i32, i32
      }
      return %r#0 : i32
    }
    func.func @pick(%k: index, %v: f32) -> f32 {
      %r = scf.index_switch %k -> f32
      case 0 {
        %c = arith.constant 1.5 : f32
        scf.yield %c : f32
      }
      case 2 {
        %d = arith.addf %v, %v : f32
        scf.yield %d : f32
      }
      default {
        scf.yield %v : f32
      }
      return %r : f32
    }
    func.func @absdiff(%a: i64, %b: i64) -> i64 {
      %lt = arith.cmpi slt, %a, %b : i64
      %r = scf.if %lt -> (i64) {
        %d = arith.subi %b, %a : i64
        scf.yield %d : i64
      } else {
        %d = scf.execute_region -> i64 {
          %e = arith.subi %a, %b : i64
          scf.yield %e : i64
        }
        scf.yield %d : i64
      }
      return %r : i64
    }
    """
    assert run(text, "gcd", [84, 36])[0] == 12
    assert run(text, "pick", [0, 3.0])[0] == 1.5
    assert run(text, "pick", [2, 3.0])[0] == 6.0
    assert run(text, "pick", [7, 3.0])[0] == 3.0
    assert run(text, "absdiff", [3, 10])[0] == 7
    assert run(text, "absdiff", [10, 3])[0] == 7


def test_cf_branches_and_calls():
    text = """
    func.func @fact(%n: i64) -> i64 {
      %c1 = arith.constant 1 : i64
      cf.br ^loop(%n, %c1 : i64, i64)
    ^loop(%k: i64, %acc: i64):
      %done = arith.cmpi sle, %k, %c1 : i64
      cf.cond_br %done, ^exit(%acc : i64), ^body
    ^body:
      %a2 = arith.muli %acc, %k : i64
      %k2 = arith.subi %k, %c1 : i64
      cf.br ^loop(%k2, %a2 : i64, i64)
    ^exit(%r: i64):
      return %r : i64
    }
    func.func @classify(%x: i32) -> i32 {
      cf.switch %x : i32, [
        default: ^other,
        1: ^one,
        5: ^five
      ]
    ^one:
      %a = arith.constant 10 : i32
      return %a : i32
    ^five:
      %b = arith.constant 50 : i32
      return %b : i32
    ^other:
      %c = arith.constant -1 : i32
      return %c : i32
    }
    func.func @main() -> (i64, i32, i32, i32) {
      %c20 = arith.constant 20 : i64
      %f = call @fact(%c20) : (i64) -> i64
      %one = arith.constant 1 : i32
      %five = arith.constant 5 : i32
      %nine = arith.constant 9 : i32
      %a = call @classify(%one) : (i32) -> i32
      %b = call @classify(%five) : (i32) -> i32
      %c = call @classify(%nine) : (i32) -> i32
      return %f, %a, %b, %c : i64, i32, i32, i32
    }
    """
    assert run(text)[0] == (2432902008176640000, 10, 50, -1)


def test_scf_parallel_with_reduction():
    text = """
    func.func @f(%m: memref<3x4xi32>) -> i32 {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %zero = arith.constant 0 : i32
      // xDSL 0.75 reads scf.parallel and scf.reduce in generic form only
      %s = "scf.parallel"(%c0, %c0, %c3, %c4, %c1, %c1, %zero) <{operandSegmentSizes = array<i32: 2, 2, 2, 1>}> ({
      ^bb0(%i: index, %j: index):
        %v = memref.load %m[%i, %j] : memref<3x4xi32>
        "scf.reduce"(%v) ({
        ^bb1(%a: i32, %b: i32):
          %r = arith.addi %a, %b : i32
          "scf.reduce.return"(%r) : (i32) -> ()
        }) : (i32) -> ()
      }) : (index, index, index, index, index, index, i32) -> i32
      return %s : i32
    }
    """
    m = np.arange(12, dtype=np.int32).reshape(3, 4)
    assert run(text, "f", [m])[0] == 66


def test_integer_semantics_wrap():
    text = """
    func.func @f(%a: i8, %b: i8) -> (i8, i8, index) {
      %s = arith.addi %a, %b : i8
      %d = arith.divui %a, %b : i8
      %w = arith.extui %s : i8 to i64
      %i = arith.index_cast %w : i64 to index
      return %s, %d, %i : i8, i8, index
    }
    """
    assert run(text, "f", [100, 100])[0] == (-56, 1, 200)


def test_memref_views_copies_and_numpy_arguments():
    text = """
    func.func private @printMemrefF32(memref<*xf32>)
    func.func @f(%m: memref<4x6xf32>) -> memref<?x?xf32> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      // a rank-reducing strided view: row 1, columns 1, 3, 5
      %row = memref.subview %m[1, 1] [1, 3] [1, 2] : memref<4x6xf32> to memref<3xf32, strided<[2], offset: 7>>
      %v = memref.load %row[%c2] : memref<3xf32, strided<[2], offset: 7>>
      %neg = arith.negf %v : f32
      memref.store %neg, %row[%c0] : memref<3xf32, strided<[2], offset: 7>>
      %u = memref.cast %row : memref<3xf32, strided<[2], offset: 7>> to memref<*xf32>
      call @printMemrefF32(%u) : (memref<*xf32>) -> ()
      // a copy of a 2x2 block into new memory, returned
      %blk = memref.subview %m[2, 4] [2, 2] [1, 1] : memref<4x6xf32> to memref<2x2xf32, strided<[6, 1], offset: 16>>
      %d0 = memref.dim %blk, %c0 : memref<2x2xf32, strided<[6, 1], offset: 16>>
      %new = memref.alloc(%d0, %c2) : memref<?x?xf32>
      %newc = memref.cast %new : memref<?x?xf32> to memref<2x2xf32>
      memref.copy %blk, %newc : memref<2x2xf32, strided<[6, 1], offset: 16>> to memref<2x2xf32>
      %flat = memref.collapse_shape %newc [[0, 1]] : memref<2x2xf32> into memref<4xf32>
      %x = memref.load %flat[%c1] : memref<4xf32>
      %three = arith.constant 3 : index
      memref.store %x, %flat[%three] : memref<4xf32>
      return %new : memref<?x?xf32>
    }
    """
    m = np.arange(24, dtype=np.float32).reshape(4, 6)
    result, out = run(text, "f", [m])
    # The argument is used in place.
    assert m[1, 1] == -11.0
    assert out == (
        f"Unranked Memref base@ = {hex(m.ctypes.data)} rank = 1 offset = 7 sizes = [3] "
        "strides = [2] data = \n[-11,  9,  11]\n"
    )
    np.testing.assert_array_equal(result, np.array([[16, 17], [22, 17]], dtype=np.float32))


def test_memref_global_and_reinterpret_cast():
    text = """
    memref.global "private" constant @table : memref<2x3xi32> = dense<[[1, 2, 3], [4, 5, 6]]>
    func.func private @printMemrefI32(memref<*xi32>)
    func.func @main() {
      %g = memref.get_global @table : memref<2x3xi32>
      %t = memref.reinterpret_cast %g to offset: [1], sizes: [2, 2], strides: [3, 1] : memref<2x3xi32> to memref<2x2xi32, strided<[3, 1], offset: 1>>
      %u = memref.cast %t : memref<2x2xi32, strided<[3, 1], offset: 1>> to memref<*xi32>
      call @printMemrefI32(%u) : (memref<*xi32>) -> ()
      return
    }
    """
    _, out = run(text)
    assert out.splitlines()[1:] == ["[[2,   3], ", " [5,   6]]"]


def test_runner_print_functions():
    text = """
    func.func private @printF32(f32)
    func.func private @printF64(f64)
    func.func private @printI64(i64)
    func.func private @printU64(i64)
    func.func private @printOpen()
    func.func private @printClose()
    func.func private @printComma()
    func.func private @printNewline()
    func.func @main() {
      %a = arith.constant 1.5 : f32
      %b = arith.constant 1.0e10 : f64
      %c = arith.constant -7 : i64
      %z = arith.constant 0.1 : f32
      call @printOpen() : () -> ()
      call @printF32(%a) : (f32) -> ()
      call @printComma() : () -> ()
      call @printF64(%b) : (f64) -> ()
      call @printComma() : () -> ()
      call @printI64(%c) : (i64) -> ()
      call @printComma() : () -> ()
      call @printU64(%c) : (i64) -> ()
      call @printComma() : () -> ()
      call @printF32(%z) : (f32) -> ()
      call @printClose() : () -> ()
      call @printNewline() : () -> ()
      return
    }
    """
    assert run(text)[1] == "( 1.5, 1e+10, -7, 18446744073709551609, 0.1 )\n"


def _error(text: str, *args, entry: str = "main") -> str:
    with pytest.raises(RunError) as info:
        run(text, entry, args, name="bad.mlir")
    return info.value.format()


def test_error_unsupported_op_at_its_location():
    text = """func.func @main() {
  %v = "test.unknown"() : () -> i32
  return
}
"""
    message = _error(text)
    assert message.startswith("bad.mlir:2:8: error: 'test.unknown' is not supported in host code")
    assert message.endswith('  %v = "test.unknown"() : () -> i32\n       ^')


def test_error_runtime_failures_at_the_op():
    text = """func.func @main(%m: memref<4xf32>, %i: index, %d: i32) -> (f32, i32) {
  %v = memref.load %m[%i] : memref<4xf32>
  %c1 = arith.constant 1 : i32
  %q = arith.divsi %c1, %d : i32
  %true = arith.constant true
  %ok = arith.cmpi ne, %d, %c1 : i32
  cf.assert %ok, "d must not be one"
  return %v, %q : f32, i32
}
"""
    m = np.zeros(4, dtype=np.float32)
    message = _error(text, m, 4, 2)
    assert message.startswith("bad.mlir:2:8: error: out-of-bounds access at [4] of a memref")
    message = _error(text, m, -1, 2)
    assert "out-of-bounds access at [-1]" in message
    message = _error(text, m, 0, 0)
    assert message.startswith("bad.mlir:4:8: error: undefined behavior:")
    message = _error(text, m, 0, 1)
    assert message.startswith("bad.mlir:7:3: error: assertion failed: d must not be one")


def test_error_arguments_and_entry():
    text = "func.func @main(%m: memref<4xf32>) {\n  return\n}\n"
    assert "takes 1 arguments, 0 given" in _error(text)
    assert "expected float32" in _error(text, np.zeros(4, dtype=np.int32))
    assert "of shape (3,)" in _error(text, np.zeros(3, dtype=np.float32))
    assert "no function @nope" in _error(text, entry="nope")
    # Parse and verifier errors are reported as xgpu-opt reports them.
    assert "error:" in _error("func.func @main( {\n")


def test_load_does_not_change_a_module_it_outlines():
    text = """
    func.func @main() {
      %c1 = arith.constant 1 : index
      gpu.launch blocks(%a, %b, %c) in (%x = %c1, %y = %c1, %z = %c1)
                 threads(%d, %e, %f) in (%u = %c1, %v = %c1, %w = %c1) {
        gpu.terminator
      }
      return
    }
    """
    module = xgpu.parse(text)
    outlined, _ = load(module)
    assert outlined is not module
    names = {op.name for op in module.walk()}
    assert "gpu.launch" in names and "gpu.launch_func" not in names
    names = {op.name for op in outlined.walk()}
    assert "gpu.launch_func" in names and "gpu.launch" not in names


def test_error_array_strides_must_match_the_memref_layout():
    text = """
    func.func @main(%m: memref<?x?xf32>) -> f32 {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %x = memref.load %m[%c0, %c1] : memref<?x?xf32>
      return %x : f32
    }
    func.func @strided(%m: memref<4xf32, strided<[2]>>) -> f32 {
      %c1 = arith.constant 1 : index
      %x = memref.load %m[%c1] : memref<4xf32, strided<[2]>>
      return %x : f32
    }
    """
    a = np.arange(8, dtype=np.float32)
    # Compiled code uses the type's strides: a transposed view of an identity
    # layout memref would be accessed as if contiguous.
    with pytest.raises(RunError, match=r"argument 0: array of strides \(1, 2\)"):
        run(text, args=[a[:4].reshape(2, 2).T])
    assert run(text, args=[a[:4].reshape(2, 2)])[0] == 1.0
    assert run(text, "strided", args=[a[::2]])[0] == 2.0
    with pytest.raises(RunError, match=r"argument 0: array of strides \(1,\)"):
        run(text, "strided", args=[a[:4]])


def test_error_unlexable_input_is_a_diagnostic():
    with pytest.raises(RunError) as info:
        run("\x01abc")
    assert info.value.format().startswith("host.mlir:1:1: error: ")
