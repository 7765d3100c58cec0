"""`xgpu-opt -t opencl`: print the OpenCL C of every gpu.module.

`-t 'opencl{subgroups=khr subgroup_size=0 fp16=false checked=true}'` passes the
options of `compile_gpu_module` (subgroup_size 0: one subgroup per workgroup;
`checked=false`: memory accesses without bounds checks, as `xgpu-run
--unchecked` runs them; the default prints what xgpu-run runs). An op that
cannot be emitted is reported as an error diagnostic at its location (exit
status 1) inside xgpu-opt; elsewhere `EmitError` propagates.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO, ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.target import Target

from xgpu import diagnostics
from xgpu.backend.opencl import EmitError, compile_gpu_module


@dataclass(frozen=True)
class OpenCLTarget(Target):
    name: ClassVar[str] = "opencl"

    subgroups: str = "emulate"
    subgroup_size: int = 0
    fp16: bool = False
    checked: bool = True

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        modules = [op for op in module.walk() if op.name == "gpu.module"]
        try:
            programs = [
                compile_gpu_module(
                    m,
                    subgroups=self.subgroups,
                    subgroup_size=self.subgroup_size or None,
                    fp16=self.fp16,
                    checked=self.checked,
                )
                for m in modules
            ]
        except EmitError as err:
            # Inside xgpu-opt a diagnostics engine collects errors; report there.
            if err.op is not None and diagnostics.engine() is not diagnostics._engines[0]:
                diagnostics.emit(err.op, "error", err.op_message)
                return
            raise
        if not programs:
            output.write("// no gpu.module\n")
        for i, prog in enumerate(programs):
            if i:
                output.write("\n")
            output.write(prog.source)
