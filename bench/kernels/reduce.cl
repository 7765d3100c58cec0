// Block reduction: each work-group of L work items sums its L elements of
// `in` with a __local tree and work item 0 writes the block's partial sum to
// partial[group]. The hand-written baseline of reduce.mlir emitted with
// reduction="tree", and of reduce_tree.mlir (bench/kernels.py).
#define L 256

__kernel __attribute__((reqd_work_group_size(L, 1, 1)))
void reduce(__global const float *restrict in, __global float *restrict partial) {
  __local float s[L];
  const int lid = get_local_id(0);
  s[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int stride = L / 2; stride > 0; stride >>= 1) {
    if (lid < stride) {
      s[lid] += s[lid + stride];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) {
    partial[get_group_id(0)] = s[0];
  }
}
