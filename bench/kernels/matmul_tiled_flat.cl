// Tiled matmul C = A @ B (n x n, n a multiple of TS), as matmul_tiled.cl but
// flat-indexed: the tiles are 1-D __local arrays and A and B are walked with
// pointers advanced by a tile per step. The second hand-written baseline of
// matmul_tiled.mlir (bench/kernels.py takes the faster of the two).
#define TS 16

__kernel __attribute__((reqd_work_group_size(TS, TS, 1)))
void matmul_tiled_flat(__global const float *restrict A, __global const float *restrict B,
                       __global float *restrict C, const int n) {
  __local float ta[TS * TS];
  __local float tb[TS * TS];
  const int tx = get_local_id(0);
  const int ty = get_local_id(1);
  const int row = get_global_id(1);
  const int col = get_global_id(0);
  const int me = ty * TS + tx;
  __global const float *a = A + row * n + tx;
  __global const float *b = B + ty * n + col;
  const int b_step = TS * n;
  float acc = 0.0f;
  for (int t = 0; t < n; t += TS) {
    ta[me] = *a;
    tb[me] = *b;
    a += TS;
    b += b_step;
    barrier(CLK_LOCAL_MEM_FENCE);
    const __local float *ar = ta + ty * TS;
    const __local float *bc = tb + tx;
    for (int k = 0; k < TS; ++k) {
      acc += ar[k] * bc[k * TS];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * n + col] = acc;
}
