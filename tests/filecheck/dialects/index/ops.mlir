// RUN: xgpu-opt %s | filecheck %s --strict-whitespace
// RUN: xgpu-opt %s --print-op-generic | xgpu-opt | filecheck %s --strict-whitespace
// RUN: xgpu-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @constants
func.func @constants() {
  // MLIR's result names: `%idx<value>`, `%true`, `%false` (unless named).
  // CHECK-NEXT: %idx42 = index.constant 42
  // GENERIC: "index.constant"() <{value = 42 : index}> : () -> index
  %0 = index.constant 42
  // CHECK-NEXT: %idx-3 = index.constant -3
  %1 = index.constant -3
  // CHECK-NEXT: %idx-9223372036854775808 = index.constant -9223372036854775808
  %2 = index.constant -9223372036854775808
  // The attribute dictionary comes first.
  // CHECK-NEXT: %c = index.constant {foo} 7
  // GENERIC: "index.constant"() <{value = 7 : index}> {foo} : () -> index
  %c = index.constant {foo} 7
  // CHECK-NEXT: %true = index.bool.constant true
  // GENERIC: "index.bool.constant"() <{value = true}> : () -> i1
  %3 = index.bool.constant true
  // CHECK-NEXT: %false = index.bool.constant {bar} false
  %4 = index.bool.constant {bar} false
  // An integer reads as a boolean.
  // CHECK-NEXT: %true_0 = index.bool.constant true
  %5 = index.bool.constant 1
  // CHECK-NEXT: %s = index.sizeof
  // GENERIC: "index.sizeof"() : () -> index
  %s = index.sizeof
  return
}

// CHECK-LABEL: func.func @binary
func.func @binary(%a: index, %b: index) {
  // CHECK-NEXT: %0 = index.add %a, %b
  // GENERIC: "index.add"(%{{.*}}, %{{.*}}) : (index, index) -> index
  %0 = index.add %a, %b
  // CHECK-NEXT: %1 = index.sub %a, %b
  %1 = index.sub %a, %b
  // CHECK-NEXT: %2 = index.mul %a, %b
  %2 = index.mul %a, %b
  // CHECK-NEXT: %3 = index.divs %a, %b
  %3 = index.divs %a, %b
  // CHECK-NEXT: %4 = index.divu %a, %b
  %4 = index.divu %a, %b
  // CHECK-NEXT: %5 = index.ceildivs %a, %b
  %5 = index.ceildivs %a, %b
  // CHECK-NEXT: %6 = index.ceildivu %a, %b
  %6 = index.ceildivu %a, %b
  // CHECK-NEXT: %7 = index.floordivs %a, %b
  %7 = index.floordivs %a, %b
  // CHECK-NEXT: %8 = index.rems %a, %b
  %8 = index.rems %a, %b
  // CHECK-NEXT: %9 = index.remu %a, %b
  %9 = index.remu %a, %b
  // CHECK-NEXT: %10 = index.maxs %a, %b
  %10 = index.maxs %a, %b
  // CHECK-NEXT: %11 = index.maxu %a, %b
  %11 = index.maxu %a, %b
  // CHECK-NEXT: %12 = index.mins %a, %b
  %12 = index.mins %a, %b
  // CHECK-NEXT: %13 = index.minu %a, %b
  %13 = index.minu %a, %b
  // CHECK-NEXT: %14 = index.shl %a, %b
  %14 = index.shl %a, %b
  // CHECK-NEXT: %15 = index.shrs %a, %b
  %15 = index.shrs %a, %b
  // CHECK-NEXT: %16 = index.shru %a, %b
  %16 = index.shru %a, %b
  // CHECK-NEXT: %17 = index.and %a, %b
  %17 = index.and %a, %b
  // CHECK-NEXT: %18 = index.or %a, %b
  %18 = index.or %a, %b
  // CHECK-NEXT: %19 = index.xor %a, %b {tag = 1 : i64}
  // GENERIC: "index.xor"(%{{.*}}, %{{.*}}) {tag = 1 : i64} : (index, index) -> index
  %19 = index.xor %a, %b {tag = 1}
  return
}

// CHECK-LABEL: func.func @casts_and_cmp
func.func @casts_and_cmp(%a: index, %b: index, %x: i32) {
  // CHECK-NEXT: %0 = index.casts %a : index to i32
  // GENERIC: "index.casts"(%{{.*}}) : (index) -> i32
  %0 = index.casts %a : index to i32
  // CHECK-NEXT: %1 = index.castu %x : i32 to index
  // GENERIC: "index.castu"(%{{.*}}) : (i32) -> index
  %1 = index.castu %x : i32 to index
  // CHECK-NEXT: %2 = index.cmp eq(%a, %b)
  // GENERIC: "index.cmp"(%{{.*}}, %{{.*}}) <{pred = #index<cmp_predicate eq>}> : (index, index) -> i1
  %2 = index.cmp eq(%a, %b)
  // CHECK-NEXT: %3 = index.cmp ne(%a, %b)
  %3 = index.cmp ne(%a, %b)
  // CHECK-NEXT: %4 = index.cmp slt(%a, %b)
  %4 = index.cmp slt(%a, %b)
  // CHECK-NEXT: %5 = index.cmp sle(%a, %b)
  %5 = index.cmp sle(%a, %b)
  // CHECK-NEXT: %6 = index.cmp sgt(%a, %b)
  %6 = index.cmp sgt(%a, %b)
  // CHECK-NEXT: %7 = index.cmp sge(%a, %b)
  %7 = index.cmp sge(%a, %b)
  // CHECK-NEXT: %8 = index.cmp ult(%a, %b)
  %8 = index.cmp ult(%a, %b)
  // CHECK-NEXT: %9 = index.cmp ule(%a, %b)
  %9 = index.cmp ule(%a, %b)
  // CHECK-NEXT: %10 = index.cmp ugt(%a, %b)
  %10 = index.cmp ugt(%a, %b)
  // A string predicate and a space before `(` read the same.
  // CHECK-NEXT: %11 = index.cmp uge(%a, %b) {foo}
  // GENERIC: "index.cmp"(%{{.*}}, %{{.*}}) <{pred = #index<cmp_predicate uge>}> {foo} : (index, index) -> i1
  %11 = index.cmp "uge" (%a, %b) {foo}
  return
}
