"""scf.forall and scf.forall.in_parallel (xDSL 0.75 has neither).

    scf.forall (%i, %j) in (%n, 8) shared_outs(%o = %t) -> (tensor<?xf32>) {
      ...
      scf.forall.in_parallel { tensor.parallel_insert_slice ... }
    } {mapping = [#gpu.thread<x>, #gpu.thread<y>]}

A bound is a constant (in `staticLowerBound`/`staticUpperBound`/`staticStep`)
or an SSA value (an operand, with MLIR's dynamic marker in the static list).
Lower bounds 0 and steps 1 everywhere print as the `in (...)` form, other
loops as `= (lbs) to (ubs) step (steps)`. MLIR's verifiers are in
`xgpu.ir.scf_verifiers`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Self

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DenseArrayBase,
    IndexType,
    TensorType,
    i64,
)
from xdsl.dialects.utils.dynamic_index_list import (
    get_dynamic_index_list,
    print_dynamic_index_list,
    split_dynamic_index_list,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    base,
    irdl_op_definition,
    lazy_traits_def,
    opt_prop_def,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import (
    HasParent,
    IsTerminator,
    NoTerminator,
    Pure,
    RecursiveMemoryEffect,
    SingleBlockImplicitTerminator,
)

from xgpu.dialects.scf.syntax import (
    InherentAttributes,
    ensure_terminator,
    parse_assignments,
    parse_optional_arrow_types,
    print_assignments,
    print_attrs,
    print_body,
    split_inherent,
)

Bound = int | SSAValue


@irdl_op_definition
class InParallelOp(IRDLOperation):
    """`scf.forall.in_parallel {...}`: the terminator of scf.forall, whose
    single block holds the ops that combine the iterations' results."""

    name = "scf.forall.in_parallel"

    region = region_def("single_block")

    traits = lazy_traits_def(lambda: (Pure(), IsTerminator(), NoTerminator(), HasParent(ForallOp)))

    def __init__(self, region: Region | None = None):
        if region is None:
            region = Region(Block())
        super().__init__(regions=[region])

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        region = parser.parse_region()
        if not region.blocks:
            region.add_block(Block())
        op = cls(region)
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        print_body(printer, self.region, terminators=False)
        print_attrs(printer, self)


_STATIC = ("staticLowerBound", "staticUpperBound", "staticStep")


@irdl_op_definition
class ForallOp(InherentAttributes, IRDLOperation):
    """`scf.forall`: a multi-dimensional parallel loop, on tensors through
    `shared_outs`, or on memrefs with no results."""

    name = "scf.forall"

    dynamic_lower_bound = var_operand_def(IndexType)
    dynamic_upper_bound = var_operand_def(IndexType)
    dynamic_step = var_operand_def(IndexType)
    outputs = var_operand_def(base(TensorType))

    res = var_result_def()

    static_lower_bound = prop_def(DenseArrayBase.constr(i64), prop_name="staticLowerBound")
    static_upper_bound = prop_def(DenseArrayBase.constr(i64), prop_name="staticUpperBound")
    static_step = prop_def(DenseArrayBase.constr(i64), prop_name="staticStep")
    mapping = opt_prop_def(ArrayAttr)

    body = region_def("single_block")

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    traits = traits_def(
        SingleBlockImplicitTerminator(InParallelOp),
        RecursiveMemoryEffect(),
    )

    DYNAMIC: ClassVar[int] = DYNAMIC_INDEX

    def __init__(
        self,
        lower_bounds: Sequence[Bound | Operation],
        upper_bounds: Sequence[Bound | Operation],
        steps: Sequence[Bound | Operation],
        body: Region,
        outputs: Sequence[SSAValue] = (),
        mapping: ArrayAttr | None = None,
    ):
        def values(bounds: Sequence[Bound | Operation]) -> list[Bound]:
            return [b if isinstance(b, int) else SSAValue.get(b) for b in bounds]

        lb_static, lb_dynamic = split_dynamic_index_list(values(lower_bounds), DYNAMIC_INDEX)
        ub_static, ub_dynamic = split_dynamic_index_list(values(upper_bounds), DYNAMIC_INDEX)
        st_static, st_dynamic = split_dynamic_index_list(values(steps), DYNAMIC_INDEX)
        properties: dict[str, Attribute] = {
            "staticLowerBound": DenseArrayBase.from_list(i64, lb_static),
            "staticUpperBound": DenseArrayBase.from_list(i64, ub_static),
            "staticStep": DenseArrayBase.from_list(i64, st_static),
        }
        if mapping is not None:
            properties["mapping"] = mapping
        super().__init__(
            operands=[lb_dynamic, ub_dynamic, st_dynamic, outputs],
            result_types=[[SSAValue.get(o).type for o in outputs]],
            properties=properties,
            regions=[body],
        )

    # The bounds, each an int or an SSA value.
    def lower_bounds(self) -> list[Bound]:
        return _mixed(self.static_lower_bound, self.dynamic_lower_bound)

    def upper_bounds(self) -> list[Bound]:
        return _mixed(self.static_upper_bound, self.dynamic_upper_bound)

    def steps(self) -> list[Bound]:
        return _mixed(self.static_step, self.dynamic_step)

    def rank(self) -> int:
        return len(self.static_lower_bound)

    def is_normalized(self) -> bool:
        """Lower bounds all 0, steps all 1 (as constants in the op)."""
        return all(b == 0 for b in self.lower_bounds()) and all(s == 1 for s in self.steps())

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        ivs = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=False)
        )
        if parser.parse_optional_keyword("in") is not None:
            ubs = _parse_bounds(parser)
            lbs: list[Bound] = [0] * len(ivs)
            steps: list[Bound] = [1] * len(ivs)
        else:
            parser.parse_punctuation("=")
            lbs = _parse_bounds(parser)
            parser.parse_keyword("to")
            ubs = _parse_bounds(parser)
            parser.parse_keyword("step")
            steps = _parse_bounds(parser)
        args: list[Parser.UnresolvedArgument] = []
        outs: list[UnresolvedOperand] = []
        types: list[Attribute] = []
        pos = parser.pos
        if parser.parse_optional_keyword("shared_outs") is not None:
            args, outs = parse_assignments(parser)
            types = parse_optional_arrow_types(parser)
            if len(outs) != len(types):
                parser.raise_error(
                    "number of operands and types do not match: got "
                    f"{len(outs)} operands and {len(types)} types",
                    pos,
                )
            outputs = [parser.resolve_operand(o, t) for o, t in zip(outs, types)]
        else:
            outputs = []
        index = IndexType()
        block_args = [iv.resolve(index) for iv in ivs]
        block_args += [a.resolve(t) for a, t in zip(args, types)]
        body = parser.parse_region(block_args)
        ensure_terminator(body, InParallelOp)
        props, attrs = split_inherent(
            parser.parse_optional_attr_dict(), ("mapping", "operandSegmentSizes", *_STATIC)
        )
        mapping = props.get("mapping")
        op = cls(
            lbs, ubs, steps, body, outputs, mapping if isinstance(mapping, ArrayAttr) else None
        )
        if mapping is not None and not isinstance(mapping, ArrayAttr):
            op.properties["mapping"] = mapping
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        block = self.body.blocks.first
        assert block is not None
        rank = self.rank()
        printer.print_string(" (")
        printer.print_list(block.args[:rank], printer.print_ssa_value)
        if self.is_normalized():
            printer.print_string(") in ")
            _print_bounds(printer, self.static_upper_bound, self.dynamic_upper_bound)
        else:
            printer.print_string(") = ")
            _print_bounds(printer, self.static_lower_bound, self.dynamic_lower_bound)
            printer.print_string(" to ")
            _print_bounds(printer, self.static_upper_bound, self.dynamic_upper_bound)
            printer.print_string(" step ")
            _print_bounds(printer, self.static_step, self.dynamic_step)
        print_assignments(printer, block.args[rank:], self.outputs, " shared_outs")
        printer.print_string(" ")
        if len(block.args) > rank:
            printer.print_string("-> (")
            printer.print_list(self.result_types, printer.print_attribute)
            printer.print_string(") ")
        print_body(printer, self.body, terminators=bool(self.results))
        print_attrs(printer, self, ("operandSegmentSizes", *_STATIC))


def _mixed(static: DenseArrayBase, dynamic: Sequence[SSAValue]) -> list[Bound]:
    values = list(static.iter_values())
    if values.count(DYNAMIC_INDEX) != len(dynamic):
        # Invalid IR (the verifier says so): the constants as they are.
        return [int(v) for v in values]
    return get_dynamic_index_list(values, dynamic, DYNAMIC_INDEX)


def _parse_bounds(parser: Parser) -> list[Bound]:
    """`(%v, 4, ...)`: SSA values (index) or integers."""

    def one() -> Bound:
        value = parser.parse_optional_unresolved_operand()
        if value is not None:
            return parser.resolve_operand(value, IndexType())
        integer = parser.parse_optional_integer(allow_boolean=False)
        if integer is None:
            parser.raise_error("expected integer value")
        return integer

    return parser.parse_comma_separated_list(parser.Delimiter.PAREN, one)


def _print_bounds(printer: Printer, static: DenseArrayBase, dynamic: Sequence[SSAValue]) -> None:
    values = list(static.iter_values())
    if values.count(DYNAMIC_INDEX) != len(dynamic):
        printer.print_string("(")
        printer.print_list(values, lambda v: printer.print_string(str(v)))
        printer.print_string(")")
        return
    print_dynamic_index_list(
        printer, DYNAMIC_INDEX, dynamic, values, delimiter=Parser.Delimiter.PAREN
    )
