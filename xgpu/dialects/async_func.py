"""Async functions of MLIR 22's async dialect: `async.func` (a function that
returns an `!async.token` and/or `!async.value`s), `async.call` and
`async.return`, with MLIR's syntax and verifier messages. Part of xgpu's async
dialect (`xgpu.dialects.async_.dialect`)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FlatSymbolRefAttrConstr,
    FunctionType,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
)
from xdsl.dialects.utils import parse_func_op_like, print_func_op_like
from xdsl.ir import Attribute, Operation
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    lazy_traits_def,
    opt_prop_def,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import (
    IsolatedFromAbove,
    IsTerminator,
    Pure,
    ReturnLike,
    SymbolOpInterface,
    SymbolTable,
)
from xdsl.utils.exceptions import VerifyException

from xgpu.diagnostics import OpDiagnostic
from xgpu.dialects.async_ import TokenType, ValueType
from xgpu.dialects.gpu.utils import HasParentWithMLIRMessage
from xgpu.dialects.ods_errors import property_conversion_error
from xgpu.ir.printer import attribute_text
from xgpu.ir.upstream_verifiers import quoted, register

_RESERVED = ("sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs")


@irdl_op_definition
class FuncOp(IRDLOperation):
    """`async.func @f(%a: i32) -> (!async.token, !async.value<i32>) { ... }`."""

    name = "async.func"

    sym_name = prop_def(SymbolNameConstraint())
    function_type = prop_def(FunctionType)
    sym_visibility = opt_prop_def(StringAttr)
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    body = region_def()

    traits = traits_def(IsolatedFromAbove(), SymbolOpInterface())

    @classmethod
    def parse(cls, parser: Parser) -> FuncOp:
        visibility = parser.parse_optional_visibility_keyword()
        name, inputs, outputs, region, extra, arg_attrs, res_attrs = parse_func_op_like(
            parser, reserved_attr_names=_RESERVED
        )
        properties: dict[str, Attribute] = {
            "sym_name": StringAttr(name),
            "function_type": FunctionType.from_lists(inputs, outputs),
        }
        if visibility is not None:
            properties["sym_visibility"] = visibility
        if arg_attrs is not None:
            properties["arg_attrs"] = arg_attrs
        if res_attrs is not None:
            properties["res_attrs"] = res_attrs
        attributes = dict(extra.data) if extra is not None else {}
        return cls.create(properties=properties, attributes=attributes, regions=[region])

    def print(self, printer: Printer) -> None:
        if self.sym_visibility is not None:
            printer.print_string(f" {self.sym_visibility.data}")
        print_func_op_like(
            printer,
            self.sym_name,
            self.function_type,
            self.body,
            self.attributes,
            arg_attrs=self.arg_attrs,
            res_attrs=self.res_attrs,
            reserved_attr_names=_RESERVED,
        )

    @property
    def is_stateful(self) -> bool:
        """Whether its first result is the `!async.token`."""
        outputs = self.function_type.outputs.data
        return bool(outputs) and isinstance(outputs[0], TokenType)

    def verify_(self) -> None:
        parent = self.parent_op()
        if parent is not None and not parent.has_trait(SymbolTable):
            raise VerifyException("symbol's parent must have the SymbolTable trait")
        outputs = self.function_type.outputs.data
        if not outputs:
            raise VerifyException("result is expected to be at least of size 1, but got 0")
        for index, ty in enumerate(outputs):
            if not isinstance(ty, (TokenType, ValueType)):
                raise VerifyException(
                    "result type must be async value type or async token type, "
                    f"but got {quoted(ty)}"
                )
            if isinstance(ty, TokenType) and index != 0:
                # (MLIR's message starts with a space.)
                raise VerifyException(
                    " results' (optional) async token type is expected to appear as the "
                    f"1st return value, but got {index + 1}"
                )
        entry = self.body.blocks.first
        if entry is None:
            return
        inputs = self.function_type.inputs.data
        if len(entry.args) != len(inputs):
            raise VerifyException(
                f"entry block must have {len(inputs)} arguments to match function signature"
            )
        for index, (arg, expected) in enumerate(zip(entry.args, inputs)):
            if arg.type != expected:
                raise VerifyException(
                    f"type of entry block argument #{index}({quoted(arg.type)}) must match "
                    f"the type of the corresponding argument in function "
                    f"signature({quoted(expected)})"
                )


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """`return %v : i32` in an `async.func` (the values of its `!async.value`s)."""

    name = "async.return"

    operands_ = var_operand_def()

    traits = lazy_traits_def(
        lambda: (Pure(), HasParentWithMLIRMessage(FuncOp), ReturnLike(), IsTerminator())
    )

    assembly_format = "attr-dict ($operands_^ `:` type($operands_))?"

    def verify_(self) -> None:
        func = self.parent_op()
        if not isinstance(func, FuncOp):
            return
        outputs = func.function_type.outputs.data
        if func.is_stateful:
            outputs = outputs[1:]
        expected = [t.value_type if isinstance(t, ValueType) else t for t in outputs]
        if [v.type for v in self.operands] != expected:
            raise VerifyException(
                "operand types do not match the types returned from the parent FuncOp"
            )


def _type_list(types: Sequence[Attribute]) -> str:
    return "{" + ", ".join(attribute_text(t) for t in types) + "}"


@irdl_op_definition
class CallOp(IRDLOperation):
    """`%t = async.call @f(%a) : (i32) -> !async.token`."""

    name = "async.call"

    callee = prop_def(FlatSymbolRefAttrConstr)
    arguments = var_operand_def()
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res = var_result_def()

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$callee `(` $arguments `)` attr-dict `:` functional-type($arguments, results)"
    )


def _call_checks(op: Operation) -> None:
    """MLIR's `verifySymbolUses` of `async.call` (checked with the op here)."""
    assert isinstance(op, CallOp)
    callee = op.callee
    assert isinstance(callee, SymbolRefAttr)
    fn = SymbolTable.lookup_symbol(op, callee)
    if not isinstance(fn, FuncOp):
        raise VerifyException(
            f"'{callee.string_value()}' does not reference a valid async function"
        )
    signature = fn.function_type
    if len(signature.inputs) != len(op.operands):
        raise VerifyException("incorrect number of operands for callee")
    for index, (value, expected) in enumerate(zip(op.operands, signature.inputs)):
        if value.type != expected:
            raise VerifyException(
                f"operand type mismatch: expected operand type {quoted(expected)}, but "
                f"provided {quoted(value.type)} for operand number {index}"
            )
    if len(signature.outputs) != len(op.results):
        raise VerifyException("incorrect number of results for callee")
    for index, (result, expected) in enumerate(zip(op.results, signature.outputs)):
        if result.type != expected:
            raise OpDiagnostic(
                f"result type mismatch at index {index}",
                notes=[
                    (op, f"      op result types: {_type_list(op.result_types)}"),
                    (op, f"function result types: {_type_list(signature.outputs)}"),
                ],
            )


def _call_result_types(op: Operation) -> None:
    property_conversion_error(op, "callee", lambda v: isinstance(v, SymbolRefAttr))
    for index, result in enumerate(op.results):
        if not isinstance(result.type, (TokenType, ValueType)):
            raise VerifyException(
                f"result #{index} must be variadic of async value type or async token "
                f"type, but got {quoted(result.type)}"
            )
    _call_checks(op)


register("async.call", before=_call_result_types)


OPS: list[type[Operation]] = [FuncOp, ReturnOp, CallOp]
