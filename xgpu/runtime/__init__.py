"""xgpu-run: run a host function, its GPU work on an OpenCL device or on the
simulator.

    xgpu-run prog.mlir [--entry main] [--device NAME] [--verbose] [--trace t.json]
    xgpu-run prog.mlir --backend sim [--schedule random --seed N] [--detect-races]
    xgpu.run(module_or_text, entry="main", args=[numpy arrays, scalars],
             backend="opencl" | "sim", schedule=..., seed=..., detect_races=...)

With `backend="sim"` steps 3 and 4 below use the simulator instead of
OpenCL: kernels compiled to Python and run work-item by work-item, async ops
as tasks started by a scheduler, checked memory, and optionally the race
detector (`sim_device`, `races`, `xgpu.backend.sim`).

How a run goes (`api`):

1. the text is parsed with xgpu-opt's context (`make_context`) and
   verified; `gpu.launch` ops are outlined by `gpu-kernel-outlining`;
2. every host `func.func` is compiled into one Python function (`compile_host`):
   SSA values are locals, `scf.for` a Python `for`, arith/math ops call the
   Python side of `xgpu.semantics`; nothing is interpreted op by op;
3. each launched `gpu.module` is emitted as OpenCL C
   (`xgpu.backend.opencl.compile_gpu_module`) and built once per device and
   source for the process (`opencl_device.DeviceContext`); each
   `gpu.launch_func` site gets a generated launcher that sets the kernel's
   arguments as its ABI says and enqueues it (`kernels`);
4. the entry function is called; device work goes to one out-of-order queue,
   async tokens being tuples of OpenCL events (`tokens`): an op waits for
   exactly its dependencies, so a missing dependency races as it would on a
   GPU; the run waits for all device work before it returns.

Memory (`memref`): host memrefs are numpy arrays behind strided descriptors;
`gpu.alloc` memory is a `cl.Buffer` (host access to it is an error reported
at the op); `gpu.alloc host_shared` and `gpu.host_register` give the device a
buffer over the host array (`CL_MEM_USE_HOST_PTR`) on devices with unified
host memory, and elsewhere (discrete GPUs, Oclgrind) a device copy that
`coherence` keeps coherent with it where CUDA's semantics make it visible
(launches, copies, blocking waits, host accesses). Host loads and stores are bounds-checked; kernel accesses are
not (OpenCL has no bounds checks).

Output (`runner_utils`): MLIR's runner utilities (`printMemrefF32`, ...,
`printNewline`) in MLIR's exact format; `gpu.printf` output is written by the
OpenCL driver when the kernel completes, the host's buffered output being
flushed before each launch of a printing kernel, so the two are in program
order whenever the host waits for a kernel before printing again.

`--trace` (`trace`): a Chrome/Perfetto JSON trace of every device command from
OpenCL profiling, plus the host's blocking waits.

Environment: `XGPU_DEVICE` (or `XGPU_OPENCL_DEVICE`) picks the device as
`--device` does; `XGPU_OOO=0` uses an in-order queue (debugging only: it hides
missing dependencies); `XGPU_HOST_COPIES=1` keeps device copies of registered
host memory even on a device with unified memory (tests that path on PoCL);
`XGPU_REDUCTION=fold|tree` forces the order of
`gpu.all_reduce`/`gpu.subgroup_reduce` as `--reduction` does (OpenCL: the
generated algorithm, else fold on CPU devices and tree on the others; the
simulator: the order it reproduces, else fold).
"""
