// --mlir-style --mlir-print-debuginfo prints locations as mlir-opt 22 does
// (the lines below are mlir-opt's output): ops refer to `#locN` aliases
// defined after the module, numbered as MLIR meets them (nested locations
// after the others); block arguments print theirs in full, at their names,
// and those aliases are defined first; the implicit module is at 0:0; a
// written loc(unknown) stays.
// RUN: xgpu-opt --mlir-style --mlir-print-debuginfo %s | filecheck %s

func.func @f(%a: index, %b: index) -> index {
  %c = arith.addi %a, %b : index
  %d = arith.addi %c, %b : index loc("x.mlir":7:3)
  %e = arith.muli %d, %d : index loc(fused["a.mlir":1:2, "b.mlir":3:4])
  %g = arith.muli %e, %e : index loc(callsite("c.mlir":1:1 at "d.mlir":2:2))
  %h = arith.muli %g, %g : index loc(unknown)
  cf.br ^bb1(%h : index)
^bb1(%x: index):
  return %x : index loc("named")
}

// CHECK:      #loc2 = loc("{{.*}}mlir-style-locations.mlir":9:14)
// CHECK-NEXT: #loc3 = loc("{{.*}}mlir-style-locations.mlir":9:25)
// CHECK-NEXT: #loc12 = loc("{{.*}}mlir-style-locations.mlir":16:6)
// CHECK-NEXT: module {
// CHECK-NEXT:   func.func @f(%arg0: index loc("{{.*}}mlir-style-locations.mlir":9:14), %arg1: index loc("{{.*}}mlir-style-locations.mlir":9:25)) -> index {
// CHECK-NEXT:     %0 = arith.addi %arg0, %arg1 : index loc(#loc4)
// CHECK-NEXT:     %1 = arith.addi %0, %arg1 : index loc(#loc5)
// CHECK-NEXT:     %2 = arith.muli %1, %1 : index loc(#loc14)
// CHECK-NEXT:     %3 = arith.muli %2, %2 : index loc(#loc15)
// CHECK-NEXT:     %4 = arith.muli %3, %3 : index loc(#loc10)
// CHECK-NEXT:     cf.br ^bb1(%4 : index) loc(#loc11)
// CHECK-NEXT:   ^bb1(%5: index loc("{{.*}}mlir-style-locations.mlir":16:6)):  // pred: ^bb0
// CHECK-NEXT:     return %5 : index loc(#loc13)
// CHECK-NEXT:   } loc(#loc1)
// CHECK-NEXT: } loc(#loc)
// CHECK-NEXT: #loc = loc("{{.*}}mlir-style-locations.mlir":0:0)
// CHECK-NEXT: #loc1 = loc("{{.*}}mlir-style-locations.mlir":9:1)
// CHECK-NEXT: #loc4 = loc("{{.*}}mlir-style-locations.mlir":10:8)
// CHECK-NEXT: #loc5 = loc("x.mlir":7:3)
// CHECK-NEXT: #loc6 = loc("a.mlir":1:2)
// CHECK-NEXT: #loc7 = loc("b.mlir":3:4)
// CHECK-NEXT: #loc8 = loc("c.mlir":1:1)
// CHECK-NEXT: #loc9 = loc("d.mlir":2:2)
// CHECK-NEXT: #loc10 = loc(unknown)
// CHECK-NEXT: #loc11 = loc("{{.*}}mlir-style-locations.mlir":15:3)
// CHECK-NEXT: #loc13 = loc("named")
// CHECK-NEXT: #loc14 = loc(fused[#loc6, #loc7])
// CHECK-NEXT: #loc15 = loc(callsite(#loc8 at #loc9))
// CHECK-EMPTY:
