"""gpu.module -> OpenCL C 1.2: programs, functions and bodies (the C of each
op is written by its handler in `ops`).

The program of a gpu.module is, in order: pragmas for the extensions it uses
(fp64, fp16, subgroups), the helper functions its expressions call, its
constant `memref.global`s (`__constant` arrays), prototypes of its device
functions, the device functions, the kernels.

Bodies: each SSA scalar value is a C local (`v<N>`) assigned once where it is
defined (constants are inlined as literals); a memref value is a descriptor
(`memref.Desc`) whose dynamic parts are `long` locals. Structured control flow
maps to C statements:

- `scf.for` -> `for (T iv = lb; iv < ub; iv += step)`, its iteration values and
  results being the same variables, declared before the loop;
- `scf.if` -> `if/else`, results declared before it and assigned by the yields;
- `scf.while` -> `for (;;)`: the before region, the results assigned from the
  `scf.condition` arguments, `if (!cond) break;`, the after region;
- `scf.index_switch` -> `switch`; `scf.execute_region` -> a block;
- a region of several blocks (`cf.br`, `cf.cond_br`, `cf.switch`) -> labels and
  `goto`, the locals of its blocks declared at its top; block arguments are
  variables assigned before each jump.

Device functions (non-kernel `gpu.func`, `func.func` in the gpu.module) are C
functions: memref arguments expand as for kernels, one result is returned,
further results go through pointers (`func.call` passes `&v`).

Here: the program (`ModuleEmitter`, `emit_program`) and its `Options`; one
function's C is `function.FunctionEmitter`'s (its signature and prologue
`signature`'s), the lines of C `writer.Writer`'s.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, UnitAttr
from xdsl.ir import Operation

from xgpu.backend.opencl import guards
from xgpu.backend.opencl.errors import EmitError
from xgpu.backend.opencl.function import (  # noqa: F401  (re-exported)
    _SEMANTIC_OPS,
    _TERMINATORS,
    FunctionEmitter,
    _handlers,
    _name,
)
from xgpu.backend.opencl.names import SymbolNamer, comment_symbol
from xgpu.backend.opencl.program import (
    KernelABI,
    OpenCLProgram,
)
from xgpu.backend.opencl.signature import (  # noqa: F401  (re-exported)
    MMA_LANE_OPS,
    FunctionSignature,
    _product,
    c_scalar_or_fail,
)
from xgpu.backend.opencl.types import (
    MemRefInfo,
    UnsupportedType,
    memref_info,
)
from xgpu.backend.opencl.writer import Writer
from xgpu.ir.nesting import deep_call
from xgpu.semantics import (
    CHelper,
    Scalar,
    c_literal,
)

BUILD_OPTIONS = "-cl-std=CL1.2"
#: programs that use cl_khr_subgroups: its builtins are OpenCL C 2.0 ones
SUBGROUP_BUILD_OPTIONS = "-cl-std=CL2.0"
# Extensions enabled by a pragma; the others used (cl_khr_subgroup_shuffle,
# cl_khr_subgroup_shuffle_relative, cl_khr_subgroup_ballot) only add built-in
# functions, have no pragma, and compilers that predate them (clang 14) warn
# about one.
_PRAGMA_ORDER = (
    "cl_khr_fp64",
    "cl_khr_fp16",
    "cl_khr_subgroups",
    "cl_khr_int64_base_atomics",
)

MAX_CONSTANT_BYTES = 64 * 1024
"""The largest `__constant` memref.global the emitter writes out."""


@dataclass(frozen=True)
class Options:
    subgroups: str = "emulate"  # "emulate" | "khr"
    subgroup_size: int | None = None  # emulated subgroup size (None: the workgroup)
    fp16: bool = False  # the device has cl_khr_fp16
    checked: bool = True  # bounds-checked memory accesses (`guards`)
    reduction: str = "fold"  # "fold" | "tree": the order of reductions (see `reductions`)


# --------------------------------------------------------------------------- #
# Module                                                                      #
# --------------------------------------------------------------------------- #


class ModuleEmitter:
    def __init__(self, module_op: Operation, options: Options):
        self.module_op = module_op
        self.options = options
        self.module_name = module_op.sym_name.data
        self.symbols = SymbolNamer()
        self.functions: dict[str, tuple[str, Operation]] = {}
        self.globals: dict[str, tuple[str, MemRefInfo]] = {}
        self.helpers: dict[str, CHelper] = {}
        self.extensions: set[str] = set()
        self.guards = guards.GuardTables()

    def fail(self, op: Operation | None, message: str) -> None:
        raise EmitError(op, message)

    def run(self) -> OpenCLProgram:
        block = self.module_op.body.blocks.first
        ops = list(block.ops) if block is not None else []
        funcs: list[Operation] = []
        globs: list[Operation] = []
        for op in ops:
            if op.name in ("gpu.func", "func.func"):
                funcs.append(op)
            elif op.name == "memref.global":
                globs.append(op)
            elif op.name in ("gpu.module_end",):
                continue
            else:
                self.fail(op, "is not supported at gpu.module level by the OpenCL backend")
        for f in funcs:
            sym = f.sym_name.data
            self.functions[sym] = (self.symbols.symbol(sym), f)
        self.recorded = (
            guards.needs_record({s: f for s, (_, f) in self.functions.items()})
            if self.options.checked
            else set()
        )

        globals_w = Writer()
        for g in globs:
            self._global(g, globals_w)

        protos = Writer()
        devices = Writer()
        kernels_w = Writer()
        kernels: dict[str, KernelABI] = {}
        for f in funcs:
            is_kernel = f.name == "gpu.func" and isinstance(
                f.attributes.get("gpu.kernel"), UnitAttr
            )
            fe = FunctionEmitter(self, f, is_kernel)
            fe.run()
            if is_kernel:
                kernels_w.extend(fe.w)
                kernels_w.line("", None)
                assert fe.abi is not None
                kernels[f.sym_name.data] = fe.abi
            else:
                protos.line(fe.prototype + ";", f)
                devices.extend(fe.w)
                devices.line("", None)

        out = Writer()
        title = comment_symbol(self.module_name)
        out.line(f"// OpenCL C 1.2 for gpu.module {title}, generated by xgpu", None)
        for ext in _PRAGMA_ORDER:
            if ext in self.extensions:
                out.line(f"#pragma OPENCL EXTENSION {ext} : enable", None)
        out.line("", None)
        for helper in self.helpers.values():
            out.text_block(helper.source)
            out.line("", None)
        if globals_w.lines:
            out.extend(globals_w)
            out.line("", None)
        if protos.lines:
            out.extend(protos)
            out.line("", None)
        out.extend(devices)
        out.extend(kernels_w)
        while out.lines and out.lines[-1] == "":
            out.lines.pop()
            out.ops.pop()
        source = "\n".join(out.lines) + "\n"
        return OpenCLProgram(
            self.module_name,
            source,
            kernels,
            SUBGROUP_BUILD_OPTIONS if "cl_khr_subgroups" in self.extensions else BUILD_OPTIONS,
            frozenset(self.extensions),
            out.ops,
            self.options.checked,
            self.guards.sites,
            self.guards.buffers,
        )

    def note_types(self, *scalars: Scalar) -> None:
        for s in scalars:
            if s.is_float and s.width == 64:
                self.extensions.add("cl_khr_fp64")
            if s.is_float and s.width == 16 and self.options.fp16:
                self.extensions.add("cl_khr_fp16")

    def _global(self, op: Operation, w: Writer) -> None:
        sym = op.sym_name.data
        if op.constant is None:
            self.fail(
                op,
                "only constant memref.globals are supported: OpenCL C 1.2 has no "
                "writable program-scope memory",
            )
        try:
            info = memref_info(op.type, self.options.fp16)
        except UnsupportedType as err:
            self.fail(op, str(err))
        if any(s is None for s in info.shape) or not info.identity:
            self.fail(op, "a memref.global needs a static shape and identity layout")
        init = op.initial_value
        n = 1
        for s in info.shape:
            n *= s  # type: ignore[operator]
        if not isinstance(init, DenseIntOrFPElementsAttr):
            self.fail(op, "a constant memref.global needs a dense initial value")
        size = n * max(info.elem.width, 8) // 8
        if size > MAX_CONSTANT_BYTES:
            # Checked before the initializer is written out: a splat of 3e8
            # elements stays one value until here.
            self.fail(
                op,
                f"is {size} bytes: an OpenCL __constant array holds at most "
                f"{MAX_CONSTANT_BYTES} bytes on every device (the minimum of "
                "CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE)",
            )
        if info.elem.is_float and info.elem.width == 16 and not self.options.fp16:
            self.fail(
                op,
                "a memref.global of f16 needs cl_khr_fp16, which the target device lacks "
                "(f16 is emulated in float for loads, stores, arith and math only)",
            )
        values = list(init.get_values())
        if len(values) == 1 and n > 1:
            values = values * n
        self.note_types(info.elem)
        name = self.symbols.symbol(sym)
        self.globals[sym] = (name, info)
        body = ", ".join(c_literal(v, info.elem) for v in values)
        w.line(f"__constant {info.elem.c} {name}[{max(n, 1)}] = {{{body}}};", op)


def emit_program(module_op: Operation, options: Options) -> OpenCLProgram:
    # Emitting recurses once per level of region nesting.
    return deep_call(ModuleEmitter(module_op, options).run)
