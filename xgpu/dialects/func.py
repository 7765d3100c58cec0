"""MLIR 22's func dialect on xDSL's: the ops xDSL 0.75 lacks (`func.constant`,
`func.call_indirect`) and the syntax it reads or prints otherwise.

- `func.func`: the attributes of a declaration's arguments and results are kept
  and printed (xDSL drops those of unnamed arguments and prints `-> ()`); an
  argument list is all named or all types, in MLIR's words; `attributes {...}`
  prints sorted, as MLIR's dictionaries; `{}` without arguments is MLIR's
  "expected non-empty function body".
- `func.call`: `no_inline`, `arg_attrs` and `res_attrs` are properties (xDSL
  keeps `no_inline` as a discardable attribute), written in the attribute
  dictionary of the custom form.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.dialects import func as xfunc
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FlatSymbolRefAttrConstr,
    FunctionType,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
    UnitAttr,
)
from xdsl.ir import Attribute, Dialect, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import ConstantLike, Pure, SymbolTable
from xdsl.utils.exceptions import VerifyException

from xgpu.dialects import xdsl_dialect
from xgpu.dialects.derive import derived_dialect
from xgpu.dialects.function_attrs import verify_function_attr_dicts

# Attributes that the custom form of func.func carries outside `attributes {}`.
_INFERRED = ("sym_visibility", "sym_name", "function_type")


def dict_array(dicts: Sequence[Mapping[str, Attribute]]) -> ArrayAttr[DictionaryAttr] | None:
    """`[{...}, ...]`, or None when every dictionary is empty (as MLIR stores it)."""
    if not any(dicts):
        return None
    return ArrayAttr(DictionaryAttr(dict(d)) for d in dicts)


def dict_at(attrs: ArrayAttr[DictionaryAttr] | None, index: int) -> dict[str, Attribute]:
    """The `index`th dictionary of `attrs` (empty where there is none)."""
    if attrs is None or index >= len(attrs):
        return {}
    entry = attrs.data[index]
    return dict(entry.data) if isinstance(entry, DictionaryAttr) else {}


def _print_attr_dict(printer: Printer, attrs: Mapping[str, Attribute]) -> None:
    """` {a, b = 1}` in MLIR's (sorted) order; nothing when empty."""
    if attrs:
        printer.print_string(" ")
        printer.print_attr_dict(dict(sorted(attrs.items())))


def _parse_attrs_and_loc(parser: Parser, arg: Parser.Argument | None) -> dict[str, Attribute]:
    attrs = parser.parse_optional_dictionary_attr_dict()
    loc = parser.parse_optional_location()
    if arg is not None and loc is not None:
        arg.location = loc
    return attrs


def parse_function_arguments(
    parser: Parser,
) -> tuple[list[Attribute], list[dict[str, Attribute]], list[Parser.Argument] | None]:
    """`(%a: T {attrs}?, ...)` or `(T {attrs}?, ...)`: the argument types, their
    attribute dictionaries, and the named arguments (None for a list of types)."""
    types: list[Attribute] = []
    attrs: list[dict[str, Attribute]] = []
    named: list[Parser.Argument] = []

    def parse_one() -> None:
        pos = parser.pos
        arg = parser.parse_optional_argument()
        if arg is not None:
            if types and not named:
                parser.raise_error("expected type instead of SSA identifier", pos, pos + 1)
            named.append(arg)
            types.append(arg.type)
        else:
            if named:
                parser.raise_error("expected SSA identifier")
            types.append(parser.parse_type())
        attrs.append(_parse_attrs_and_loc(parser, arg))

    parser.parse_punctuation("(")
    if parser.parse_optional_punctuation(")") is None:
        parse_one()
        while parser.parse_optional_punctuation(",") is not None:
            parse_one()
        parser.parse_punctuation(")")
    return types, attrs, (named if named else None)


def parse_function_results(parser: Parser) -> tuple[list[Attribute], list[dict[str, Attribute]]]:
    """`(-> T | -> (T {attrs}?, ...))?`."""
    if parser.parse_optional_punctuation("->") is None:
        return [], []
    results = parser.parse_optional_comma_separated_list(
        parser.Delimiter.PAREN,
        lambda: (parser.parse_type(), parser.parse_optional_dictionary_attr_dict()),
    )
    if results is None:
        return [parser.parse_type()], [{}]
    return [t for t, _ in results], [a for _, a in results]


def print_function_results(
    printer: Printer, outputs: Sequence[Attribute], res_attrs: ArrayAttr[DictionaryAttr] | None
) -> None:
    """` -> T` or ` -> (T {attrs}, ...)` as MLIR prints them; nothing without results."""
    if not outputs:
        return
    dicts = [dict_at(res_attrs, i) for i in range(len(outputs))]
    parens = len(outputs) > 1 or bool(dicts[0]) or isinstance(outputs[0], FunctionType)
    printer.print_string(" -> ")
    if parens:
        printer.print_string("(")

    def print_result(i: int) -> None:
        printer.print_attribute(outputs[i])
        _print_attr_dict(printer, dicts[i])

    printer.print_list(range(len(outputs)), print_result)
    if parens:
        printer.print_string(")")


@irdl_op_definition
class FuncOp(xfunc.FuncOp):
    """`func.func`, read and printed as mlir-opt 22 does."""

    name = "func.func"

    # xDSL's fields, declared again: a subclass of a defined op redeclares them.
    body = region_def()
    sym_name = prop_def(SymbolNameConstraint())
    function_type = prop_def(FunctionType)
    sym_visibility = opt_prop_def(StringAttr)
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])

    @classmethod
    def parse(cls, parser: Parser) -> FuncOp:
        visibility = parser.parse_optional_visibility_keyword()
        name = parser.parse_symbol_name()
        types, arg_dicts, named = parse_function_arguments(parser)
        result_types, result_dicts = parse_function_results(parser)
        dict_pos = parser.pos
        extra = parser.parse_optional_attr_dict_with_keyword()
        if extra is not None:
            for key in _INFERRED:
                if key in extra.data:
                    parser.raise_error(
                        f"'{key}' is an inferred attribute and should not be specified in "
                        "the explicit attribute dictionary",
                        dict_pos,
                        dict_pos + 1,
                    )
        region_pos = parser.pos
        region = parser.parse_optional_region(named)
        if region is not None and not region.blocks:
            parser.raise_error("expected non-empty function body", region_pos, region_pos + 1)
        properties: dict[str, Attribute] = {
            "sym_name": name,
            "function_type": FunctionType.from_lists(types, result_types),
        }
        if visibility is not None:
            properties["sym_visibility"] = visibility
        if (arg_attrs := dict_array(arg_dicts)) is not None:
            properties["arg_attrs"] = arg_attrs
        if (res_attrs := dict_array(result_dicts)) is not None:
            properties["res_attrs"] = res_attrs
        attributes = dict(extra.data) if extra is not None else {}
        for key in ("arg_attrs", "res_attrs"):
            # MLIR takes the inherent attributes out of the dictionary.
            if key in attributes:
                properties[key] = attributes.pop(key)
        return cls.create(
            properties=properties,
            attributes=attributes,
            regions=[region if region is not None else Region()],
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        if self.sym_visibility is not None:
            printer.print_string(f"{self.sym_visibility.data} ")
        printer.print_symbol_name(self.sym_name.data)
        ftype = self.function_type
        entry = self.body.blocks.first
        inputs = ftype.inputs.data

        def print_arg(i: int) -> None:
            if entry is not None and i < len(entry.args):
                printer.print_block_argument(entry.args[i])
            else:
                printer.print_attribute(inputs[i])
            _print_attr_dict(printer, dict_at(self.arg_attrs, i))

        printer.print_string("(")
        printer.print_list(range(len(inputs)), print_arg)
        printer.print_string(")")
        print_function_results(printer, ftype.outputs.data, self.res_attrs)
        if self.attributes:
            printer.print_string(" attributes ")
            printer.print_attr_dict(dict(sorted(self.attributes.items())))
        if entry is not None:
            printer.print_string(" ")
            printer.print_region(self.body, print_entry_block_args=False)


def verify_function_signature(op: xfunc.FuncOp) -> None:
    """MLIR's checks of a func.func before its body: a declaration is not
    public; the argument and result attributes, one dictionary per argument or
    result, hold dialect attributes only, which the LLVM ones accept."""
    if not op.body.blocks and op.sym_visibility in (None, StringAttr("public")):
        raise VerifyException("symbol declaration cannot have public visibility")
    ftype = op.function_type
    verify_function_attr_dicts(op.arg_attrs, ftype.inputs.data, "argument")
    verify_function_attr_dicts(op.res_attrs, ftype.outputs.data, "result")


@irdl_op_definition
class CallOp(xfunc.CallOp):
    """`func.call`: with MLIR 22's `arg_attrs`, `res_attrs` and `no_inline`."""

    name = "func.call"

    arguments = var_operand_def()
    callee = prop_def(FlatSymbolRefAttrConstr)
    res = var_result_def()
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    no_inline = opt_prop_def(UnitAttr)

    irdl_options = (ParsePropInAttrDict(),)

    # xDSL's syntax, generated from its format, is put back to Operation's, so
    # that the format below (the same, with the new properties) applies.
    parse = Operation.__dict__["parse"]
    print = Operation.print

    assembly_format = "$callee `(` $arguments `)` attr-dict `:` functional-type($arguments, $res)"

    def __init__(
        self,
        callee: str | StringAttr | SymbolRefAttr,
        arguments: Sequence[SSAValue | Operation],
        return_types: Sequence[Attribute],
        *,
        no_inline: bool = False,
    ):
        super().__init__(callee, arguments, return_types)
        if no_inline:
            self.properties["no_inline"] = UnitAttr()

    def verify_(self) -> None:
        # Only this class's definition: xDSL's would reject the new properties.
        pass


@irdl_op_definition
class ConstantOp(IRDLOperation):
    """`func.constant`: the value of a function (`%f = func.constant @g : (i32) -> i32`)."""

    name = "func.constant"

    value = prop_def(FlatSymbolRefAttrConstr)
    result = result_def()

    traits = traits_def(ConstantLike(), Pure())

    assembly_format = "attr-dict $value `:` type($result)"

    def __init__(self, callee: str | StringAttr | SymbolRefAttr, type: Attribute):
        super().__init__(properties={"value": SymbolRefAttr.get(callee)}, result_types=[type])

    def verify_(self) -> None:
        callee = SymbolTable.lookup_symbol(self, self.value)
        name = self.value.root_reference.data
        if not isinstance(callee, xfunc.FuncOp):
            raise VerifyException(f"reference to undefined function '{name}'")
        if callee.function_type != self.result.type:
            raise VerifyException("reference to function with mismatched type")


@irdl_op_definition
class CallIndirectOp(IRDLOperation):
    """`func.call_indirect %f(%a) : (i32) -> i32`: a call through a function value."""

    name = "func.call_indirect"

    callee = operand_def()
    callee_operands = var_operand_def()
    results_ = var_result_def()

    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])

    irdl_options = (ParsePropInAttrDict(),)

    def __init__(self, callee: SSAValue | Operation, arguments: Sequence[SSAValue | Operation]):
        ftype = SSAValue.get(callee).type
        assert isinstance(ftype, FunctionType)
        super().__init__(operands=[callee, arguments], result_types=[ftype.outputs.data])

    def verify_(self) -> None:
        ftype = self.callee.type
        if not isinstance(ftype, FunctionType):
            raise VerifyException(f"operand #0 must be function type, but got {_type_text(ftype)}")
        if ftype.inputs.data != tuple(self.callee_operands.types):
            raise VerifyException("failed to verify that callee input types match argument types")
        if ftype.outputs.data != tuple(self.results_.types):
            raise VerifyException("failed to verify that callee result types match result types")

    @classmethod
    def parse(cls, parser: Parser) -> CallIndirectOp:
        callee = parser.parse_unresolved_operand()
        parser.parse_punctuation("(")
        args_pos = parser.pos
        args = []
        if parser.parse_optional_punctuation(")") is None:
            args.append(parser.parse_unresolved_operand())
            while parser.parse_optional_punctuation(",") is not None:
                args.append(parser.parse_unresolved_operand())
            parser.parse_punctuation(")")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        ftype = parser.parse_type()
        if not isinstance(ftype, FunctionType):
            parser.raise_error(
                f"invalid kind of type specified: expected builtin.function, but found "
                f"{_type_text(ftype)}",
                pos,
                parser.pos,
            )
        callee = parser.resolve_operand(callee, ftype)
        inputs = ftype.inputs.data
        if len(inputs) != len(args):
            parser.raise_error(
                "number of operands and types do not match: got "
                f"{len(args)} operands and {len(inputs)} types",
                args_pos,
                args_pos + 1,
            )
        operands = [parser.resolve_operand(a, t) for a, t in zip(args, inputs)]
        properties = {k: attrs.pop(k) for k in ("arg_attrs", "res_attrs") if k in attrs}
        return cls.create(
            operands=[callee, *operands],
            result_types=list(ftype.outputs.data),
            properties=properties,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.callee)
        printer.print_string("(")
        printer.print_list(self.callee_operands, printer.print_ssa_value)
        printer.print_string(")")
        shown = {**self.properties, **self.attributes}
        _print_attr_dict(printer, shown)
        printer.print_string(" : ")
        printer.print_attribute(self.callee.type)


def _type_text(attr: Attribute) -> str:
    from xgpu.ir.printer import attribute_text

    return f"'{attribute_text(attr)}'"


def dialect() -> Dialect:
    return derived_dialect(
        xdsl_dialect("func"),
        "func",
        ops=[FuncOp, CallOp, ConstantOp, CallIndirectOp],
    )
