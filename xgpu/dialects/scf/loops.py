"""scf.for, scf.parallel and scf.reduce with MLIR 22's custom syntax.

xDSL 0.75 reads scf.parallel only in generic form, has no `unsigned` scf.for
(MLIR 22's `unsignedCmp`), and spaces `scf.for ... : i32` and `scf.reduce`
otherwise than mlir-opt. MLIR's verifiers of these ops are in
`xgpu.ir.scf_verifiers`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Self

from xdsl.dialects import scf as xscf
from xdsl.dialects.builtin import IndexType, SignlessIntegerConstraint, UnitAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import (
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    region_def,
    var_operand_def,
    var_region_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer

from xgpu.dialects.scf.syntax import (
    InherentAttributes,
    ensure_terminator,
    op_name_pos,
    parse_assignments,
    parse_optional_arrow_types,
    parse_result_types,
    print_assignments,
    print_attrs,
    print_body,
    print_optional_arrow_types,
    resolve_all,
    split_inherent,
)


@irdl_op_definition
class ForOp(InherentAttributes, xscf.ForOp):
    """`scf.for (unsigned)? %iv = %lb to %ub step %step
    (iter_args(%arg = %init, ...) -> (types))? (: type)? {...}`."""

    name = "scf.for"

    # xDSL's fields, declared again (a subclass of an IRDL op redeclares them).
    T: ClassVar = VarConstraint("T", base(IndexType) | SignlessIntegerConstraint)
    lb = operand_def(T)
    ub = operand_def(T)
    step = operand_def(T)
    iter_args = var_operand_def()
    res = var_result_def()
    body = region_def("single_block")

    unsigned_cmp = opt_prop_def(UnitAttr, prop_name="unsignedCmp")

    def __init__(
        self,
        lb: SSAValue | Operation,
        ub: SSAValue | Operation,
        step: SSAValue | Operation,
        iter_args: Sequence[SSAValue | Operation],
        body: Region | Sequence[Operation] | Sequence[Block] | Block,
        *,
        unsigned_cmp: bool = False,
    ):
        super().__init__(lb, ub, step, iter_args, body)
        if unsigned_cmp:
            self.properties["unsignedCmp"] = UnitAttr()

    def verify_(self) -> None:
        # MLIR's checks are in xgpu.ir.scf_verifiers.
        return

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        start = op_name_pos(parser, cls.name)
        unsigned = parser.parse_optional_keyword("unsigned") is not None
        indvar = parser.parse_argument(expect_type=False)
        parser.parse_punctuation("=")
        lb = parser.parse_unresolved_operand()
        parser.parse_keyword("to")
        ub = parser.parse_unresolved_operand()
        parser.parse_keyword("step")
        step = parser.parse_unresolved_operand()
        args: list[Parser.UnresolvedArgument] = []
        inits: list[UnresolvedOperand] = []
        types: list[Attribute] = []
        if parser.parse_optional_keyword("iter_args") is not None:
            args, inits = parse_assignments(parser)
            parser.parse_punctuation("->")
            types = parse_result_types(parser)
        if len(args) != len(types):
            # At the op name, which xgpu-opt's parser does not prefix itself.
            parser.raise_error(
                f"custom op '{cls.name}' mismatch in number of loop-carried values and "
                "defined values",
                start,
            )
        iv_type = IndexType()
        if parser.parse_optional_punctuation(":") is not None:
            iv_type = parser.parse_type()
        bounds = [parser.resolve_operand(v, iv_type) for v in (lb, ub, step)]
        operands = [parser.resolve_operand(v, t) for v, t in zip(inits, types)]
        block_args = [indvar.resolve(iv_type), *(a.resolve(t) for a, t in zip(args, types))]
        body = parser.parse_region(block_args)
        ensure_terminator(body, xscf.YieldOp)
        props, attrs = split_inherent(parser.parse_optional_attr_dict(), ("unsignedCmp",))
        op = cls(*bounds, operands, body, unsigned_cmp=unsigned)
        op.properties.update(props)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        block = self.body.blocks.first
        assert block is not None
        indvar, *iter_args = block.args
        if "unsignedCmp" in self.properties:
            printer.print_string(" unsigned")
        printer.print_string(" ")
        printer.print_ssa_value(indvar)
        printer.print_string(" = ")
        printer.print_operand(self.lb)
        printer.print_string(" to ")
        printer.print_operand(self.ub)
        printer.print_string(" step ")
        printer.print_operand(self.step)
        print_assignments(printer, iter_args, self.iter_args, " iter_args")
        if self.iter_args:
            printer.print_string(" -> (")
            printer.print_list(self.iter_args.types, printer.print_attribute)
            printer.print_string(")")
        printer.print_string(" ")
        if not isinstance(indvar.type, IndexType):
            # MLIR prints two spaces before the colon.
            printer.print_string(" : ")
            printer.print_attribute(indvar.type)
            printer.print_string(" ")
        print_body(printer, self.body, terminators=bool(self.iter_args))
        print_attrs(printer, self, ("unsignedCmp",))


@irdl_op_definition
class ReduceOp(xscf.ReduceOp):
    """`scf.reduce ((%v, ... : types))? {reduction}, ...` (mlir-opt prints a
    space after `scf.reduce` even without reductions)."""

    name = "scf.reduce"

    args = var_operand_def()
    reductions = var_region_def("single_block")
    assembly_format = None

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        operands: list[SSAValue] = []
        if parser.parse_optional_punctuation("(") is not None:
            pos = parser.pos
            values = [parser.parse_unresolved_operand()]
            while parser.parse_optional_punctuation(",") is not None:
                values.append(parser.parse_unresolved_operand())
            parser.parse_punctuation(":")
            types = [parser.parse_type()]
            while parser.parse_optional_punctuation(",") is not None:
                types.append(parser.parse_type())
            parser.parse_punctuation(")")
            operands = resolve_all(parser, values, types, pos)
        regions: list[Region] = []
        region = parser.parse_optional_region()
        if region is not None:
            regions.append(region)
            while parser.parse_optional_punctuation(",") is not None:
                regions.append(parser.parse_region())
        attrs = parser.parse_optional_attr_dict()
        op = cls(operands, regions)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        if self.args:
            printer.print_string("(")
            printer.print_list(self.args, printer.print_operand)
            printer.print_string(" : ")
            printer.print_list(self.args.types, printer.print_attribute)
            printer.print_string(")")
        printer.print_string(" ")
        printer.print_list(self.reductions, lambda r: print_body(printer, r, entry_args=True))
        print_attrs(printer, self)

    def verify_(self) -> None:
        # MLIR's checks are in xgpu.ir.scf_verifiers.
        return


@irdl_op_definition
class ParallelOp(InherentAttributes, xscf.ParallelOp):
    """`scf.parallel (%i, ...) = (lbs) to (ubs) step (steps) (init (vals))?
    (-> types)? {...}`."""

    name = "scf.parallel"

    lowerBound = var_operand_def(IndexType)
    upperBound = var_operand_def(IndexType)
    step = var_operand_def(IndexType)
    initVals = var_operand_def()
    res = var_result_def()
    body = region_def("single_block")

    def verify_(self) -> None:
        # MLIR's checks are in xgpu.ir.scf_verifiers.
        return

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        name_pos = op_name_pos(parser, cls.name)
        ivs = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=False)
        )
        parser.parse_punctuation("=")
        index = IndexType()

        def bounds() -> list[SSAValue]:
            pos = parser.pos
            values = parser.parse_comma_separated_list(
                parser.Delimiter.PAREN, parser.parse_unresolved_operand
            )
            if len(values) != len(ivs):
                parser.raise_error(f"expected {len(ivs)} operands", pos)
            return [parser.resolve_operand(v, index) for v in values]

        lbs = bounds()
        parser.parse_keyword("to")
        ubs = bounds()
        parser.parse_keyword("step")
        steps = bounds()
        inits: list[UnresolvedOperand] = []
        if parser.parse_optional_keyword("init") is not None:
            inits = parser.parse_comma_separated_list(
                parser.Delimiter.PAREN, parser.parse_unresolved_operand
            )
        types = parse_optional_arrow_types(parser)
        body = parser.parse_region([iv.resolve(index) for iv in ivs])
        props, attrs = split_inherent(parser.parse_optional_attr_dict(), ("operandSegmentSizes",))
        init_vals = resolve_all(parser, inits, types, name_pos, cls.name)
        ensure_terminator(body, ReduceOp)
        op = cls(lbs, ubs, steps, body, init_vals)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        block = self.body.blocks.first
        printer.print_string(" (")
        printer.print_list(block.args if block else (), printer.print_ssa_value)
        for keyword, values in (
            (") = (", self.lowerBound),
            (") to (", self.upperBound),
            (") step (", self.step),
        ):
            printer.print_string(keyword)
            printer.print_list(values, printer.print_operand)
        printer.print_string(")")
        if self.initVals:
            printer.print_string(" init (")
            printer.print_list(self.initVals, printer.print_operand)
            printer.print_string(")")
        print_optional_arrow_types(printer, self.result_types)
        printer.print_string(" ")
        print_body(printer, self.body)
        print_attrs(printer, self, ("operandSegmentSizes",))
