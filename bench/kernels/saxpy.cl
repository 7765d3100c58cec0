// saxpy: y[i] = a * x[i] + y[i] for i < n, one work item per element.
// The hand-written baseline of saxpy.mlir (bench/kernels.py).
__kernel void saxpy(const float a, __global const float *restrict x,
                    __global float *restrict y, const int n) {
  const int i = get_global_id(0);
  if (i < n) {
    y[i] = a * x[i] + y[i];
  }
}
