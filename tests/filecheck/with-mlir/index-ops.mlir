// RUN: %mlir-diff %s
// RUN: %mlir-diff --mlir-style --mlir-flags='-allow-unregistered-dialect -split-input-file' %s

// The index ops in both forms, through xgpu and mlir-opt.
func.func @f(%a: index, %b: index, %x: i32, %v: f32) {
  %c = index.constant 42
  %c2 = index.constant -3
  %t = index.bool.constant true
  %f = index.bool.constant false
  %0 = index.add %a, %b
  %1 = index.sub %a, %b
  %2 = index.mul %a, %b
  %3 = index.divs %a, %b
  %4 = index.divu %a, %b
  %5 = index.ceildivs %a, %b
  %6 = index.ceildivu %a, %b
  %7 = index.floordivs %a, %b
  %8 = index.rems %a, %b
  %9 = index.remu %a, %b
  %10 = index.maxs %a, %b
  %11 = index.maxu %a, %b
  %12 = index.mins %a, %b
  %13 = index.minu %a, %b
  %14 = index.shl %a, %b
  %15 = index.shrs %a, %b
  %16 = index.shru %a, %b
  %17 = index.and %a, %b
  %18 = index.or %a, %b
  %19 = index.xor %a, %b
  %20 = index.casts %a : index to i32
  %21 = index.castu %x : i32 to index
  %22 = index.cmp slt(%a, %b)
  %23 = index.cmp uge(%a, %b) {foo}
  %24 = index.sizeof
  %25 = index.add %a, %b {bar = 1}
  return
}

// -----

func.func @f(%a: index, %b: index, %x: i32) {
  %c = index.constant {foo} 42 
  %t = index.bool.constant {bar} true
  %0 = index.cmp eq(%a, %b)
  %1 = index.cmp ne(%a, %b)
  %2 = index.cmp sle(%a, %b)
  %3 = index.cmp sgt(%a, %b)
  %4 = index.cmp sge(%a, %b)
  %5 = index.cmp ult(%a, %b)
  %6 = index.cmp ule(%a, %b)
  %7 = index.cmp ugt(%a, %b)
  %8 = index.casts %x : i32 to index
  %9 = index.castu %a : index to i64
  %10 = index.constant 9223372036854775807
  %11 = index.constant -9223372036854775808
  return
}
