// Transform library for pass-gpu-eliminate-barriers.mlir: MLIR 22 cannot
// schedule the gpu-eliminate-barriers pass on gpu.func, so the reference for
// xgpu's `gpu-eliminate-barriers{gpu-funcs=true}` applies the pass's pattern
// set to every gpu.func with the transform interpreter.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %funcs = transform.structured.match ops{["gpu.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %funcs {
      transform.apply_patterns.gpu.eliminate_barriers
    } : !transform.any_op
    transform.yield
  }
}
