"""MLIR 22's verifiers of func, arith and memref ops that xDSL 0.75 lacks or
words otherwise (see `xgpu.ir.upstream_verifiers`; cf's are in `cf_verifiers`):
return values against the function type, entry block arguments against the
signature, and enum-valued properties in their enum's range.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import func
from xdsl.ir import Attribute, Operation
from xdsl.traits import SymbolTable
from xdsl.utils.exceptions import VerifyException

from xgpu.diagnostics import OpDiagnostic
from xgpu.ir.enum_properties import ENUM_PROPERTIES, in_range
from xgpu.ir.printer import attribute_text
from xgpu.ir.upstream_verifiers import quoted, register

# --------------------------------------------------------------------- func


def _return_custom(op: Operation) -> None:
    parent = op.parent_op()
    if not isinstance(parent, func.FuncOp):
        return  # HasParent reported it
    results = parent.function_type.outputs.data
    name = parent.sym_name.data
    if len(op.operands) != len(results):
        raise VerifyException(
            f"has {len(op.operands)} operands, but enclosing function (@{name}) returns "
            f"{len(results)}"
        )
    for index, (value, expected) in enumerate(zip(op.operands, results)):
        if value.type != expected:
            raise OpDiagnostic(
                f"type of return operand {index} ({quoted(value.type)}) doesn't match function "
                f"result type ({quoted(expected)}) in function @{name}",
                prefix=False,
            )


register("func.return", replace_custom=True, custom=_return_custom)


def _func_custom(op: Operation) -> None:
    assert isinstance(op, func.FuncOp)
    from xgpu.dialects.func import verify_function_signature

    verify_function_signature(op)
    entry = op.body.blocks.first
    if entry is None:
        return
    inputs = op.function_type.inputs.data
    if len(entry.args) != len(inputs):
        raise VerifyException(
            f"entry block must have {len(inputs)} arguments to match function signature"
        )
    for index, (arg, expected) in enumerate(zip(entry.args, inputs)):
        if arg.type != expected:
            raise VerifyException(
                f"type of entry block argument #{index}({quoted(arg.type)}) must match the type "
                f"of the corresponding argument in function signature({quoted(expected)})"
            )


register("func.func", replace_custom=True, custom=_func_custom)


def _call_custom(op: Operation) -> None:
    assert isinstance(op, func.CallOp)
    callee = SymbolTable.lookup_symbol(op, op.callee)
    if not isinstance(callee, func.FuncOp):
        raise VerifyException(f"'{op.callee.string_value()}' does not reference a valid function")
    signature = callee.function_type
    if len(signature.inputs) != len(op.operands):
        raise VerifyException("incorrect number of operands for callee")
    for index, (value, expected) in enumerate(zip(op.operands, signature.inputs)):
        if value.type != expected:
            raise VerifyException(
                f"operand type mismatch: expected operand type {quoted(expected)}, but provided "
                f"{quoted(value.type)} for operand number {index}"
            )
    if len(signature.outputs) != len(op.results):
        raise VerifyException("incorrect number of results for callee")
    for index, (result, expected) in enumerate(zip(op.results, signature.outputs)):
        if result.type != expected:
            raise OpDiagnostic(
                f"result type mismatch at index {index}",
                notes=[
                    (op, f"      op result types: {_types(op.result_types)}"),
                    (op, f"function result types: {_types(signature.outputs)}"),
                ],
            )


def _types(types: Sequence[Attribute]) -> str:
    return "{" + ", ".join(attribute_text(t) for t in types) + "}"


# Before xDSL's SymbolUserOpInterface trait, which makes the same checks in other words.
register("func.call", before=_call_custom)


# ------------------------------------------------------- enum-valued props


def _enum_custom(op: Operation) -> None:
    name, cases = ENUM_PROPERTIES[op.name]
    value = op.properties.get(name, op.attributes.get(name))
    if value is not None and not in_range(value, cases):
        allowed = ", ".join(str(i) for i in range(cases))
        raise VerifyException(
            f"attribute '{name}' failed to satisfy constraint: allowed 64-bit signless integer "
            f"cases: {allowed}"
        )


def _enum_before(op: Operation) -> None:
    # Before xDSL's checks, which print the op (and fail on an unknown predicate).
    name = ENUM_PROPERTIES[op.name][0]
    if name not in op.properties and name not in op.attributes:
        raise VerifyException(f"requires attribute '{name}'")
    _enum_custom(op)


for _name in ENUM_PROPERTIES:
    register(_name, before=_enum_before)
