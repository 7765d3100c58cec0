"""`vector.print` as the runner calls MLIR's lowering makes (the printing
half of `xgpu.transforms.scalarize_vectors`): `printOpen`, the elements
with `printF32`/`printF64`/`printI64`/`printU64` (index as unsigned, i1
zero-extended, narrower integers sign-extended, f16/bf16 through f32),
`printComma`, `printClose`, nested for n-D, then the op's punctuation; the
runner functions are declared where the module lacks them. A string or a
punctuation alone stays an op that host code prints."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xdsl.dialects.builtin import (
    AnyFloat,
    Float32Type,
    Float64Type,
    FunctionType,
    IndexType,
    IntegerType,
    Signedness,
    StringAttr,
    VectorType,
    i64,
)
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.rewriter import Rewriter


class PrintLowering:
    """The printing methods of the scalarizer (which provides `make`, `of`,
    `fail`, `ctx`, `module` and `runner_decls`)."""

    make: Any
    of: Any
    fail: Any
    ctx: Any
    module: Any
    runner_decls: set[str]

    def _vector_print(self, op: Operation) -> None:
        if in_gpu_module(op):
            self.fail("vector.print in device code is not supported (gpu.printf prints there)")
        src = op.source
        if src is None:
            return  # punctuation or a string: host code prints it as it stands
        if isinstance(src.type, VectorType):
            self._print_nested(self.of(src), vector_shape(src.type), src.type.element_type)
        else:
            self._print_scalar(src)
        self._punctuation(op)
        Rewriter.erase_op(op, safe_erase=False)

    def _print_nested(self, values: list[SSAValue], shape: list[int], t: Attribute) -> None:
        self._call("printOpen")
        if shape:
            size = element_count(shape[1:])
            for k in range(shape[0]):
                if k:
                    self._call("printComma")
                part = values[k * size : (k + 1) * size]
                if len(shape) > 1:
                    self._print_nested(part, shape[1:], t)
                else:
                    self._print_scalar(part[0])
        self._call("printClose")

    def _print_scalar(self, v: SSAValue) -> None:
        t = v.type
        if isinstance(t, Float32Type):
            self._call("printF32", v)
        elif isinstance(t, Float64Type):
            self._call("printF64", v)
        elif isinstance(t, AnyFloat):
            ext = self.make("arith.extf", (v,), [Float32Type()]).results[0]
            self._call("printF32", ext)
        elif isinstance(t, IndexType):
            self._call("printU64", v)
        elif isinstance(t, IntegerType):
            width = t.width.data
            unsigned = t.signedness.data == Signedness.UNSIGNED
            if width > 64:
                self.fail(f"vector.print of {t} is not supported")
            if width < 64:
                conv = "arith.extui" if unsigned or width == 1 else "arith.extsi"
                v = self.make(conv, (v,), [IntegerType(64, t.signedness.data)]).results[0]
            self._call("printU64" if unsigned else "printI64", v)
        else:
            self.fail(f"vector.print of {t} is not supported")

    def _punctuation(self, op: Operation) -> None:
        p = str(op.punctuation.data.value) if op.punctuation is not None else "newline"
        name = {
            "newline": "printNewline",
            "comma": "printComma",
            "open": "printOpen",
            "close": "printClose",
        }.get(p)
        if name is not None:
            self._call(name)

    def _call(self, name: str, *args: SSAValue) -> None:
        from xdsl.dialects.builtin import SymbolRefAttr

        self.runner_decls.add(name)
        self.make("func.call", args, [], {"callee": SymbolRefAttr(name)})

    def _declare_runner_functions(self) -> None:
        if not self.runner_decls:
            return
        present = {op.sym_name.data for op in self.module.body.block.ops if op.name == "func.func"}
        args = {
            "printF32": [Float32Type()],
            "printF64": [Float64Type()],
            "printI64": [i64],
            "printU64": [IntegerType(64, Signedness.UNSIGNED)],
        }
        for name in sorted(self.runner_decls - present):
            ftype = FunctionType.from_lists(args.get(name, []), [])
            decl = self.ctx.get_op("func.func").create(
                properties={
                    "sym_name": StringAttr(name),
                    "function_type": ftype,
                    "sym_visibility": StringAttr("private"),
                },
                regions=[Region()],
            )
            self.module.body.block.add_op(decl)


def in_gpu_module(op: Operation) -> bool:
    p = op.parent_op()
    while p is not None:
        if p.name == "gpu.module":
            return True
        p = p.parent_op()
    return False


def vector_shape(t: VectorType) -> list[int]:
    return [int(d) for d in t.get_shape()]


def element_count(shape: Sequence[int]) -> int:
    n = 1
    for d in shape:
        n *= d
    return n
