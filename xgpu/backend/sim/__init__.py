"""The simulator's kernels: gpu.module -> Python functions run work-item by
work-item (`kernel`), and the block scheduler with barrier and subgroup
semantics (`workgroup`). The host side (tasks, scheduler, memory, races) is
`xgpu.runtime.sim_device` and `xgpu.runtime.races`."""
