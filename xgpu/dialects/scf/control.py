"""scf.if, scf.while, scf.execute_region and scf.index_switch with MLIR 22's
custom syntax.

xDSL 0.75 reads `scf.if %c -> (i32)` but not `-> i32`; reads `scf.while`
only with an assignment list; prints `scf.execute_region` without its
`scf.yield` (which mlir-opt rejects) and has no `no_inline`; and prints
`scf.index_switch` otherwise than mlir-opt. MLIR's verifiers of these ops are
in `xgpu.ir.scf_verifiers`."""

from __future__ import annotations

from typing import Self

from xdsl.dialects import scf as xscf
from xdsl.dialects.builtin import DenseArrayBase, FunctionType, IndexType, UnitAttr, i1, i64
from xdsl.ir import Region
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    var_operand_def,
    var_region_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer

from xgpu.dialects.scf.syntax import (
    InherentAttributes,
    ensure_terminator,
    name_scope,
    op_name_pos,
    parse_index_integer,
    parse_optional_arrow_types,
    parse_optional_assignments,
    print_assignments,
    print_attrs,
    print_body,
    print_functional_type,
    print_optional_arrow_types,
    split_inherent,
)
from xgpu.ir.printer import attribute_text


@irdl_op_definition
class IfOp(xscf.IfOp):
    """`scf.if %c (-> types)? {...} (else {...})?`: the result types are
    one type or a parenthesized list (MLIR prints them in parentheses)."""

    name = "scf.if"

    # xDSL's fields, declared again (a subclass of an IRDL op redeclares them).
    output = var_result_def()
    cond = operand_def(i1)
    true_region = region_def("single_block")
    false_region = region_def()

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        cond = parser.resolve_operand(parser.parse_unresolved_operand(), i1)
        types = parse_optional_arrow_types(parser)
        then_region = parser.parse_region()
        ensure_terminator(then_region, xscf.YieldOp)
        else_region = Region()
        if parser.parse_optional_keyword("else") is not None:
            else_region = parser.parse_region()
            ensure_terminator(else_region, xscf.YieldOp)
        attrs = parser.parse_optional_attr_dict()
        return cls(cond, types, then_region, else_region, attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.cond)
        terminators = bool(self.results)
        if terminators:
            printer.print_string(" -> (")
            printer.print_list(self.result_types, printer.print_attribute)
            printer.print_string(")")
        printer.print_string(" ")
        print_body(printer, self.true_region, terminators=terminators)
        if self.false_region.blocks:
            printer.print_string(" else ")
            print_body(printer, self.false_region, terminators=terminators)
        print_attrs(printer, self)


@irdl_op_definition
class WhileOp(xscf.WhileOp):
    """`scf.while ((%arg = %init, ...))? : (types) -> types {before} do {after}
    (attributes {...})?`, also `scf.while : () -> ()`."""

    name = "scf.while"

    arguments = var_operand_def()
    res = var_result_def()
    before_region = region_def("single_block")
    after_region = region_def("single_block")

    def verify_(self) -> None:
        # MLIR's checks are in xgpu.ir.scf_verifiers (xDSL's raise a bare
        # Exception on a block argument count mismatch).
        return

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        args, values = parse_optional_assignments(parser) or ([], [])
        type_pos = parser.pos
        parser.parse_punctuation(":")
        function_type = parser.parse_type()
        if not isinstance(function_type, FunctionType):
            parser.raise_error(
                "invalid kind of type specified: expected builtin.function, but found "
                f"'{attribute_text(function_type)}'",
                type_pos,
            )
        inputs = function_type.inputs.data
        if len(inputs) != len(values):
            parser.raise_error(
                "expected as many input types as operands "
                f"(expected {len(values)} got {len(inputs)})",
                type_pos,
            )
        operands = [parser.resolve_operand(v, t) for v, t in zip(values, inputs)]
        block_args = [a.resolve(t) for a, t in zip(args, inputs)]
        before = parser.parse_region(block_args if block_args else None)
        parser.parse_keyword("do")
        after = parser.parse_region()
        attrs = parser.parse_optional_attr_dict_with_keyword()
        op = cls(operands, function_type.outputs.data, before, after)
        if attrs is not None:
            op.attributes |= attrs.data
        return op

    def print(self, printer: Printer) -> None:
        before = self.before_region.blocks.first
        # The names of the before region's arguments, printed in the
        # assignments, are free again in the after region.
        with name_scope(printer):
            print_assignments(printer, before.args if before else (), self.arguments, " ")
            printer.print_string(" : ")
            print_functional_type(printer, self.arguments.types, self.result_types)
            printer.print_string(" ")
            print_body(printer, self.before_region)
        printer.print_string(" do ")
        print_body(printer, self.after_region, entry_args=True)
        print_attrs(printer, self, keyword=True)


@irdl_op_definition
class ExecuteRegionOp(InherentAttributes, xscf.ExecuteRegionOp):
    """`scf.execute_region (-> types)? (no_inline)? {...}`, its terminators
    printed."""

    name = "scf.execute_region"

    outs = var_result_def()
    region = region_def()
    no_inline = opt_prop_def(UnitAttr)

    def __init__(
        self,
        result_types,
        region: Region,
        attr_dict=None,
        *,
        no_inline: bool = False,
    ):
        super().__init__(result_types, region)
        if attr_dict:
            self.attributes.update(attr_dict)
        if no_inline:
            self.properties["no_inline"] = UnitAttr()

    def verify_(self) -> None:
        # MLIR's checks are in xgpu.ir.scf_verifiers.
        return

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        pos = op_name_pos(parser, cls.name)
        types = parse_optional_arrow_types(parser)
        no_inline = parser.parse_optional_keyword("no_inline") is not None
        region = parser.parse_region()
        props, attrs = split_inherent(parser.parse_optional_attr_dict(), ("no_inline",))
        if no_inline and props:
            # At the op name, which xgpu-opt's parser does not prefix itself.
            parser.raise_error(
                f"custom op '{cls.name}' attribute 'no_inline' occurs more than once in the "
                "attribute list",
                pos,
            )
        op = cls(types, region, attrs)
        op.properties.update(props)
        if no_inline:
            op.properties["no_inline"] = UnitAttr()
        return op

    def print(self, printer: Printer) -> None:
        print_optional_arrow_types(printer, self.result_types)
        if "no_inline" in self.properties:
            printer.print_string(" no_inline")
        printer.print_string(" ")
        print_body(printer, self.region, terminators=True)
        print_attrs(printer, self, ("no_inline",))


@irdl_op_definition
class IndexSwitchOp(InherentAttributes, xscf.IndexSwitchOp):
    """`scf.index_switch %arg {attrs}? (-> types)? (case N {...})* default {...}`."""

    name = "scf.index_switch"

    arg = operand_def(IndexType)
    cases = prop_def(DenseArrayBase.constr(i64))
    output = var_result_def()
    default_region = region_def("single_block")
    case_regions = var_region_def("single_block")

    def verify_(self) -> None:
        # MLIR's checks are in xgpu.ir.scf_verifiers.
        return

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        arg = parser.resolve_operand(parser.parse_unresolved_operand(), IndexType())
        props, attrs = split_inherent(parser.parse_optional_attr_dict(), ("cases",))
        types = []
        if parser.parse_optional_punctuation("->") is not None:
            types = [parser.parse_type()]
            while parser.parse_optional_punctuation(",") is not None:
                types.append(parser.parse_type())
        values: list[int] = []
        regions: list[Region] = []
        while parser.parse_optional_keyword("case") is not None:
            values.append(parse_index_integer(parser))
            regions.append(parser.parse_region())
        parser.parse_keyword("default")
        default = parser.parse_region()
        ensure_terminator(default, xscf.YieldOp)
        cases = DenseArrayBase.from_list(i64, values)
        op = cls(arg, cases, default, regions, types, attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.arg)
        print_attrs(printer, self, ("cases",))
        if self.result_types:
            printer.print_string(" -> ")
            printer.print_list(self.result_types, printer.print_attribute)
        printer.print_string(" ")
        for value, region in zip(self.cases.iter_values(), self.case_regions):
            printer.print_string(f"\ncase {value} ")
            print_body(printer, region)
        printer.print_string("\ndefault ")
        block = self.default_region.blocks.first
        last = block.last_op if block is not None else None
        terminator = last is None or bool(last.operands or last.attributes or last.results)
        print_body(printer, self.default_region, entry_args=True, terminators=terminator)
