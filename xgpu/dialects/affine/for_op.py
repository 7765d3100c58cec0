"""affine.for and affine.yield with MLIR 22's syntax and verifier messages."""

from __future__ import annotations

from xdsl.dialects import affine
from xdsl.dialects.builtin import AffineMapAttr, IndexType, IntegerAttr
from xdsl.ir import Attribute, Block, SSAValue
from xdsl.irdl import (
    irdl_op_definition,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, Pure
from xdsl.utils.exceptions import VerifyException

from xgpu.dialects.affine.syntax import (
    SYMBOL_IDENTITY,
    constant_map,
    expect,
    parse_dim_and_symbol_list,
    print_bound,
    resolve_indices,
)
from xgpu.dialects.affine.validity import check_access_operands


def _parse_bound(parser: Parser, which: str, keyword: str):
    """`%v`, an integer, or `[min|max] #map(dims)[syms]` (MLIR's parseBound)."""
    if (operand := parser.parse_optional_unresolved_operand()) is not None:
        return SYMBOL_IDENTITY, [parser.resolve_operand(operand, IndexType())]
    if (value := parser.parse_optional_integer(allow_boolean=False)) is not None:
        return constant_map(value), []
    prefixed = parser.parse_optional_keyword(keyword) is not None
    pos = parser.pos
    amap = parser.parse_attribute()
    if not isinstance(amap, AffineMapAttr):
        parser.raise_error("expected valid affine map representation for loop bounds", pos)
    dims, syms = parse_dim_and_symbol_list(parser)
    if len(dims) != amap.data.num_dims:
        parser.raise_error("dim operand count and affine map dim count must match", pos)
    if len(syms) != amap.data.num_symbols:
        parser.raise_error("symbol operand count and affine map symbol count must match", pos)
    if len(amap.data.results) > 1 and not prefixed:
        parser.raise_error(
            f"{which} loop bound affine map with multiple results requires '{keyword}' prefix",
            pos,
        )
    return amap, resolve_indices(parser, [*dims, *syms])


@irdl_op_definition
class ForOp(affine.ForOp):
    name = "affine.for"

    lowerBoundOperands = var_operand_def(IndexType)
    upperBoundOperands = var_operand_def(IndexType)
    inits = var_operand_def()
    res = var_result_def()
    lowerBoundMap = prop_def(AffineMapAttr)
    upperBoundMap = prop_def(AffineMapAttr)
    step = prop_def(IntegerAttr)
    body = region_def()
    # (xDSL's `irdl_options`, AttrSizedOperandSegments as a property, are inherited.)

    def verify_(self) -> None:
        if len(self.body.blocks) != 1:
            raise VerifyException(
                "region #0 ('region') failed to verify constraint: region with 1 blocks"
            )
        args = self.body.block.args
        if not args or not isinstance(args[0].type, IndexType):
            raise VerifyException(
                "expected body to have a single index argument for the induction variable"
            )
        if len(self.inits) != len(self.res):
            raise VerifyException("mismatch between the number of loop-carried values and results")
        if len(args) != len(self.inits) + 1:
            raise VerifyException(
                "mismatch between the number of basic block args and the number of "
                "loop-carried values"
            )
        for amap, operands in (
            (self.lowerBoundMap, self.lowerBoundOperands),
            (self.upperBoundMap, self.upperBoundOperands),
        ):
            message = check_access_operands(self, amap.data.num_dims, operands)
            if message is not None:
                raise VerifyException(message)
        for init, arg, result in zip(self.inits, args[1:], self.res):
            if init.type != arg.type or init.type != result.type:
                raise VerifyException(
                    "types mismatch between the loop-carried values, the region "
                    "arguments and the results"
                )

    @classmethod
    def parse(cls, parser: Parser) -> ForOp:
        iv = parser.parse_argument(expect_type=False)
        expect(parser, "=")
        lower, lower_operands = _parse_bound(parser, "lower", "max")
        parser.parse_keyword("to")
        upper, upper_operands = _parse_bound(parser, "upper", "min")
        step = 1
        if parser.parse_optional_keyword("step"):
            pos = parser.pos
            step = parser.parse_integer(allow_boolean=False)
            if step < 0:  # MLIR takes `step 0`
                parser.raise_error(
                    "expected step to be representable as a positive signed integer", pos
                )
        iter_args: list = []
        inits: list[SSAValue] = []
        types: list[Attribute] = []
        if parser.parse_optional_keyword("iter_args"):
            pos = parser.pos

            def parse_pair():
                arg = parser.parse_argument(expect_type=False)
                expect(parser, "=")
                return arg, parser.parse_unresolved_operand()

            pairs = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parse_pair)
            expect(parser, "->")
            if parser.parse_optional_punctuation("("):
                types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
                expect(parser, ")")
            else:
                types = [parser.parse_type()]
            inits = parser.resolve_operands([o for _, o in pairs], types, pos)
            iter_args = [a.resolve(t) for (a, _), t in zip(pairs, types)]
        body = parser.parse_region([iv.resolve(IndexType()), *iter_args])
        if not body.blocks or not isinstance(body.block.last_op, affine.YieldOp):
            if not body.blocks:
                body.add_block(Block(arg_types=[IndexType()]))
            body.block.add_op(YieldOp.create())
        attrs = parser.parse_optional_attr_dict()
        return cls.build(
            operands=[lower_operands, upper_operands, inits],
            result_types=[types],
            properties={
                "lowerBoundMap": lower,
                "upperBoundMap": upper,
                "step": IntegerAttr.from_index_int_value(step),
            },
            attributes=attrs,
            regions=[body],
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        iv, *iter_args = self.body.block.args
        printer.print_block_argument(iv, print_type=False)
        printer.print_string(" = ")
        print_bound(printer, self.lowerBoundMap.data, self.lowerBoundOperands, "max")
        printer.print_string(" to ")
        print_bound(printer, self.upperBoundMap.data, self.upperBoundOperands, "min")
        if self.step.value.data != 1:
            printer.print_string(f" step {self.step.value.data}")
        if self.inits:
            printer.print_string(" iter_args(")
            for i, (arg, init) in enumerate(zip(iter_args, self.inits)):
                if i:
                    printer.print_string(", ")
                printer.print_block_argument(arg, print_type=False)
                printer.print_string(" = ")
                printer.print_ssa_value(init)
            printer.print_string(") -> (")
            printer.print_list(self.res.types, printer.print_attribute)
            printer.print_string(")")
        printer.print_string(" ")
        printer.print_region(self.body, False, False, bool(self.inits))
        printer.print_op_attributes(self.attributes)


_YIELD_PARENTS = ("affine.for", "affine.if", "affine.parallel")


@irdl_op_definition
class YieldOp(affine.YieldOp):
    name = "affine.yield"

    arguments = var_operand_def()
    traits = traits_def(IsTerminator(), Pure())
    # xDSL's declarative format, replaced by the same syntax written out (a
    # subclass cannot add a verifier to an inherited format's op).
    assembly_format = None

    @classmethod
    def parse(cls, parser: Parser) -> YieldOp:
        # attr-dict ($arguments^ `:` type($arguments))?
        attrs = parser.parse_optional_attr_dict()
        operands = []
        first = parser.parse_optional_unresolved_operand()
        if first is not None:
            operands = [first]
            while parser.parse_optional_punctuation(","):
                operands.append(parser.parse_unresolved_operand())
            pos = parser.pos
            expect(parser, ":")
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
            operands = parser.resolve_operands(operands, types, pos)
        return cls.create(operands=operands, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)
        if self.arguments:
            printer.print_string(" ")
            printer.print_list(self.arguments, printer.print_ssa_value)
            printer.print_string(" : ")
            printer.print_list(self.arguments.types, printer.print_attribute)

    def verify_(self) -> None:
        parent = self.parent_op()
        if parent is None:
            return
        if parent.name not in _YIELD_PARENTS:
            raise VerifyException("only terminates affine.if/for/parallel regions")
        if len(parent.results) != len(self.arguments):
            raise VerifyException(
                "parent of yield must have same number of results as the yield operands"
            )
        for result, operand in zip(parent.results, self.arguments):
            if result.type != operand.type:
                raise VerifyException("types mismatch between yield op and its parent")


FOR_OPS = [ForOp, YieldOp]
