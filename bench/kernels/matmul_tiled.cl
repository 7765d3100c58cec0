// Tiled matmul C = A @ B (n x n, n a multiple of TS) with TS x TS tiles of A
// and B in __local memory; one work item per element of C.
// The hand-written baseline of matmul_tiled.mlir (bench/kernels.py).
#define TS 16

__kernel __attribute__((reqd_work_group_size(TS, TS, 1)))
void matmul_tiled(__global const float *restrict A, __global const float *restrict B,
                  __global float *restrict C, const int n) {
  __local float ta[TS][TS];
  __local float tb[TS][TS];
  const int tx = get_local_id(0);
  const int ty = get_local_id(1);
  const int row = get_global_id(1);
  const int col = get_global_id(0);
  float acc = 0.0f;
  for (int t = 0; t < n; t += TS) {
    ta[ty][tx] = A[row * n + t + tx];
    tb[ty][tx] = B[(t + ty) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TS; ++k) {
      acc += ta[ty][k] * tb[k][tx];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * n + col] = acc;
}
