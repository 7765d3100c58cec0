// RUN: %mlir-diff %s --pass canonicalize
// RUN: %mlir-diff --mlir-style --mlir-flags='-allow-unregistered-dialect -split-input-file' %s
// Splats of hundreds of millions of elements stay one value: parsed, printed
// and folded as mlir-opt does (xDSL alone would list every element).

func.func @fold_splats() -> (tensor<300000000xf32>, vector<100000xi32>, tensor<300000000xi64>) {
  %0 = arith.constant dense<1.0> : tensor<300000000xf32>
  %1 = arith.constant dense<"0x0000803F"> : tensor<300000000xf32>
  %2 = arith.addf %0, %1 : tensor<300000000xf32>
  %a = arith.constant dense<7> : vector<100000xi32>
  %b = arith.constant dense<5> : vector<100000xi32>
  %c = arith.muli %a, %b : vector<100000xi32>
  %z = arith.constant dense<0> : tensor<300000000xi64>
  %x = arith.constant dense<-3> : tensor<300000000xi64>
  %y = arith.addi %x, %z : tensor<300000000xi64>
  return %2, %c, %y : tensor<300000000xf32>, vector<100000xi32>, tensor<300000000xi64>
}
