"""A function's C signature and prologue (`function.FunctionEmitter.run`):
memref and scalar parameters and the kernel ABI (`KernelABI`), workgroup
and private attributions, the dynamic shared memory and the scratch buffer
of reductions, results through pointers, the subgroup prologue; then its
body and `return`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Operation

from xgpu.backend.opencl import guards, half
from xgpu.backend.opencl import memref as mr
from xgpu.backend.opencl import reductions as red
from xgpu.backend.opencl.program import (
    INT64,
    KernelABI,
    LocalArg,
    MemRefArg,
    Param,
    ScalarArg,
)
from xgpu.backend.opencl.types import (
    GLOBAL,
    LOCAL,
    PRIVATE,
    UnsupportedType,
    c_scalar,
)
from xgpu.mangle import mangled
from xgpu.semantics import (
    Scalar,
    SemanticsError,
)

if TYPE_CHECKING:
    from xgpu.backend.opencl.function import FunctionEmitter


#: the MMA ops that ask for the lane id (`xgpu.backend.opencl.mma.USES_LANES`)
MMA_LANE_OPS = frozenset(["gpu.subgroup_mma_store_matrix"])


class FunctionSignature:
    """The `run` of `FunctionEmitter` (a base class of it)."""

    # ------------------------------------------------------------ functions
    def run(self) -> None:
        f = self.func
        entry = f.body.blocks.first
        if entry is None:
            self.fail(f, "a function without a body cannot be emitted")
        ftype = f.function_type
        n_inputs = len(ftype.inputs.data)
        args = list(entry.args)
        params: list[str] = []
        abi = KernelABI(f.sym_name.data, self.c_name) if self.is_kernel else None
        if abi is not None:
            abi.checked = self.checked
        for i, arg in enumerate(args[:n_inputs]):
            base = mangled("a", i, arg.name_hint)
            if isinstance(arg.type, MemRefType):
                info = self.memref_info(arg.type, f)
                if info.space == PRIVATE:
                    self.fail(f, f"argument #{i}: private memrefs cannot be arguments")
                names = [base, f"{base}_off"]
                names += [f"{base}_size{d}" for d in range(info.rank)]
                names += [f"{base}_stride{d}" for d in range(info.rank)]
                decls, desc = mr.param_desc(names, info)
                params += decls
                if self.checked:
                    params += guards.memref_param(self, base, i, desc)
                self.descs[arg] = desc
                if abi is not None:
                    if info.space != GLOBAL and info.space != LOCAL:
                        self.fail(f, f"argument #{i}: unsupported memory space")
                    abi.args.append(
                        MemRefArg(
                            i,
                            base,
                            str(arg.type),
                            info.elem.dtype,
                            info.shape,
                            info.strides,
                            info.space,
                        )
                    )
                    abi.params.append(Param("buffer", base, i))
                    abi.params.append(Param("offset", names[1], i, dtype=INT64))
                    for d in range(info.rank):
                        abi.params.append(Param("size", names[2 + d], i, d, INT64))
                    for d in range(info.rank):
                        abi.params.append(Param("stride", names[2 + info.rank + d], i, d, INT64))
                    if self.checked:
                        abi.params.append(Param("extent", f"{base}_len", i, dtype=INT64))
            else:
                s = self.scalar_of(arg, f)
                params.append(f"{s.c} {base}")
                self.values[arg] = base
                if abi is not None:
                    abi.args.append(ScalarArg(i, base, str(arg.type), s.dtype))
                    abi.params.append(Param("scalar", base, i, dtype=s.dtype))

        n_wg = f.num_workgroup_attributions if f.name == "gpu.func" else 0
        wg_args = args[n_inputs : n_inputs + n_wg]
        priv_args = args[n_inputs + n_wg :]
        if wg_args and not self.is_kernel:
            self.fail(f, "workgroup attributions are supported on kernels only")
        wg_decls: list[str] = []
        for k, arg in enumerate(wg_args):
            info = self.memref_info(arg.type, f)
            if any(s is None for s in info.shape) or not info.identity:
                self.fail(f, f"workgroup attribution #{k} needs a static shape and identity layout")
            name = f"xg_wg{k}"
            # Passed as a pointer to the fixed-size array it is, used through a
            # plain pointer: PoCL 3.0 builds the tiled matmul of bench/kernels
            # 1.2x slower when the parameter is a bare `__local T*`.
            params.append(f"__local {info.elem.c} (*{name}_arr)[{max(_product(info.shape), 1)}]")
            wg_decls.append(f"__local {info.elem.c}* {name} = *{name}_arr;")
            self.descs[arg] = mr.Desc(
                name, LOCAL, info.elem, 0, list(info.shape), list(info.strides), "workgroup"
            )
            if self.checked:
                label = f"%{arg.name_hint}" if arg.name_hint else "workgroup memory"
                guards.static_memory(
                    self, self.descs[arg], "workgroup", label, _product(info.shape)
                )
            if abi is not None:
                n = _product(info.shape)
                local = LocalArg("workgroup", name, k, n * info.elem.nbytes, 0, info.elem.dtype)
                abi.locals.append(local)
                abi.params.append(Param("local", name, local=local))

        # What the body needs from the kernel's signature and prologue.
        for op in f.walk():
            if op.name == "gpu.dynamic_shared_memory":
                if not self.is_kernel:
                    self.fail(op, "is supported in kernels only")
                self.dsm_name = "xg_dsm"
            if op.name in red.SCRATCH_OPS:
                need = self._scratch_need(op)
                self.scratch_bytes = max(self.scratch_bytes, need)
                if need:
                    self.scratch_ops.append(op)
                self.uses_lanes = True
            if (op.name in red.SUBGROUP_QUERIES or op.name in MMA_LANE_OPS) and self.is_kernel:
                self.uses_lanes = True
        if self.dsm_name is not None:
            params.append(f"__local char* {self.dsm_name}")
            params.append(f"long {self.dsm_name}_len")
            if abi is not None:
                local = LocalArg("dynamic_shared_memory", self.dsm_name, None)
                abi.locals.append(local)
                abi.params.append(Param("local", self.dsm_name, local=local))
                abi.params.append(Param("dsm_size", f"{self.dsm_name}_len", dtype=INT64))
        if self.scratch_bytes and self.is_kernel:
            params.append(f"__local void* {red.SCRATCH}")
            if abi is not None:
                local = LocalArg("scratch", red.SCRATCH, None, 0, self.scratch_bytes)
                abi.locals.append(local)
                abi.params.append(Param("local", red.SCRATCH, local=local))

        # Results of device functions: the first is returned, the others are
        # written through pointers.
        result_types = list(ftype.outputs.data)
        ret = "void"
        if self.is_kernel and result_types:
            self.fail(f, "a kernel cannot return values")
        for k, t in enumerate(result_types):
            if isinstance(t, MemRefType):
                self.fail(f, "functions returning memrefs are not supported")
            s = c_scalar_or_fail(self, t, f)
            if k == 0:
                ret = s.c
            else:
                name = f"xg_out{k}"
                params.append(f"{s.c}* {name}")
                self.out_params.append(name)

        if f.sym_name.data in self.module.recorded:
            params += guards.record_params()
            if abi is not None:
                abi.params.append(Param("record", guards.REC))
                abi.params.append(Param("launch", guards.LAUNCH, dtype=INT64))
        param_text = ", ".join(params) if params else "void"
        if self.is_kernel:
            attr = ""
            kbs = f.known_block_size
            if kbs is not None:
                sizes = list(kbs.get_values())
                attr = f"__attribute__((reqd_work_group_size({', '.join(map(str, sizes))}))) "
                assert abi is not None
                abi.known_block_size = tuple(sizes)
            if f.known_grid_size is not None:
                assert abi is not None
                abi.known_grid_size = tuple(f.known_grid_size.get_values())
            self.prototype = f"{attr}__kernel void {self.c_name}({param_text})"
        else:
            self.prototype = f"{ret} {self.c_name}({param_text})"

        self.abi = abi
        self.open(self.prototype + " {", f)
        for ln in wg_decls:
            self.line(ln, f)
        if self.is_kernel and self.uses_lanes:
            if self.subgroups.mode == "khr" and not self.subgroups.simple:
                self.require_extension("cl_khr_subgroups")  # the prologue's builtins
            for ln in self.subgroups.prologue():
                self.line(ln, f)
            if self.subgroups.mode == "khr":  # the prologue calls its builtins
                self.require_extension("cl_khr_subgroups")
        for k, arg in enumerate(priv_args):
            info = self.memref_info(arg.type, f)
            if any(s is None for s in info.shape) or not info.identity:
                self.fail(f, f"private attribution #{k} needs a static shape and identity layout")
            name = f"xg_priv{k}"
            if half.emulated(self) and half.is_half_storage(info.elem):
                half.refuse(self, f, f"private attribution #{k} of f16")
            self.line(f"{info.elem.c} {name}[{max(_product(info.shape), 1)}];", f)
            self.descs[arg] = mr.Desc(
                name, PRIVATE, info.elem, 0, list(info.shape), list(info.strides), "private"
            )
            if self.checked:
                guards.static_memory(
                    self, self.descs[arg], "private", mr.value_label(arg), _product(info.shape)
                )
        self.emit_region(f.body, self._on_return, entry_bound=True)
        # A trailing `return;` of a void function says nothing.
        if self.w.lines and self.w.lines[-1].strip() == "return;" and ret == "void":
            self.w.lines.pop()
            self.w.ops.pop()
        self.close("}", f)

    def _scratch_need(self, op: Operation) -> int:
        try:
            return self.subgroups.scratch_bytes(op)
        except SemanticsError as err:
            self.fail(op, str(err))
            return 0

    def _on_return(self, op: Operation) -> None:
        if op.name not in ("gpu.return", "func.return"):
            self.fail(op, "is not supported by the OpenCL backend here")
        values = list(op.operands)
        if not values:
            self.line("return;", op)
            return
        for name, v in zip(self.out_params, values[1:]):
            self.line(f"*{name} = {self.expr(v)};", op)
        self.line(f"return {self.expr(values[0])};", op)


def _product(shape: Sequence[int | None]) -> int:
    n = 1
    for s in shape:
        n *= s or 0
    return n


def c_scalar_or_fail(fe: FunctionEmitter, t, op: Operation) -> Scalar:
    try:
        s = c_scalar(t, fe.module.options.fp16)
    except UnsupportedType as err:
        fe.fail(op, str(err))
    fe.module.note_types(s)
    return s
