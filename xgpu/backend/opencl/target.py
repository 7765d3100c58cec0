"""`xgpu-opt -t opencl`: print the OpenCL C of every gpu.module.

`-t 'opencl{subgroups=khr subgroup_size=0 fp16=false checked=true reduction=tree}'`
passes the options of `compile_gpu_module` (subgroup_size 0: one subgroup per
workgroup; `checked=false`: memory accesses without bounds checks, as
`xgpu-run --unchecked` runs them; reduction "fold", the default, or "tree"
for GPUs; the default prints what xgpu-run runs on PoCL). An op that
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
from xgpu.diagnostics import Diagnostic
from xgpu.semantics.gpu import REDUCTIONS


@dataclass(frozen=True)
class OpenCLTarget(Target):
    name: ClassVar[str] = "opencl"

    subgroups: str = "emulate"
    subgroup_size: int = 0
    fp16: bool = False
    checked: bool = True
    reduction: str = "fold"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        problem = self._option_error()
        if problem is not None:
            if diagnostics.engine() is not diagnostics._engines[0]:
                diagnostics.engine().diagnostics.append(Diagnostic("error", problem, None))
                return
            raise ValueError(problem)
        modules = [op for op in module.walk() if op.name == "gpu.module"]
        try:
            programs = [
                compile_gpu_module(
                    m,
                    subgroups=self.subgroups,
                    subgroup_size=self.subgroup_size or None,
                    fp16=self.fp16,
                    checked=self.checked,
                    reduction=self.reduction,
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

    def _option_error(self) -> str | None:
        for name, value, allowed in (
            ("subgroups", self.subgroups, ("emulate", "khr")),
            ("reduction", self.reduction, tuple(REDUCTIONS)),
        ):
            if value not in allowed:
                return f"opencl target: {name}={value} is not one of " + ", ".join(allowed)
        if self.subgroup_size < 0:
            return "opencl target: subgroup_size must be 0 (the workgroup) or positive"
        return None
