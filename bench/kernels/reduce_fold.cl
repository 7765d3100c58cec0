// Block reduction by one lane: each work-group of L work items stores its L
// elements of `in` in __local memory, work item 0 sums them left to right and
// writes the block's partial sum to partial[group]. The hand-written baseline
// of reduce.mlir emitted with reduction="fold" (bench/kernels.py).
#define L 256

__kernel __attribute__((reqd_work_group_size(L, 1, 1)))
void reduce_fold(__global const float *restrict in, __global float *restrict partial) {
  __local float s[L];
  const int lid = get_local_id(0);
  s[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    float acc = s[0];
    for (int j = 1; j < L; ++j) {
      acc += s[j];
    }
    partial[get_group_id(0)] = acc;
  }
}
