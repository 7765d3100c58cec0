"""`gpu.warp_execute_on_lane_0` (`subgroup` lists it for the catalog): the op,
its custom syntax, its terminator trait and the checks of its distributed
types."""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

from xdsl.dialects.builtin import (
    I64,
    IndexType,
    IntegerAttr,
    UnregisteredOp,
    VectorType,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    prop_def,
    region_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import (
    IsTerminator,
    RecursiveMemoryEffect,
    SingleBlockImplicitTerminator,
)
from xdsl.utils.exceptions import VerifyException

from xgpu.diagnostics import OpDiagnostic
from xgpu.dialects.gpu.subgroup_format import _expect
from xgpu.dialects.gpu.subgroup_ops import YieldOp


class _WarpTerminator(SingleBlockImplicitTerminator):
    """SingleBlockImplicitTerminator(gpu.yield) with MLIR's messages."""

    def verify(self, op: Operation) -> None:
        for index, region in enumerate(op.regions):
            if len(region.blocks) > 1:
                raise VerifyException(f"expects region #{index} to have 0 or 1 blocks")
            for block in region.blocks:
                last = block.last_op
                if last is None:
                    raise VerifyException("expects a non-empty block")
                if not isinstance(last, self.op_type):
                    found = last.op_name.data if isinstance(last, UnregisteredOp) else last.name
                    raise OpDiagnostic(
                        f"expects regions to end with '{self.op_type.name}', found '{found}'",
                        notes=[
                            (
                                op,
                                "in custom textual format, the absence of terminator "
                                f"implies '{self.op_type.name}'",
                            )
                        ],
                    )


def _ensure_yield(region: Region) -> None:
    """MLIR's ensureTerminator: give the region a block, and end its last block
    with `gpu.yield` unless it already ends with a (registered) terminator."""
    if not region.blocks:
        region.add_block(Block())
    block = region.blocks.last
    assert block is not None
    last = block.last_op
    if last is None or not last.has_trait(IsTerminator, value_if_unregistered=False):
        block.add_op(YieldOp())


def _verify_distributed_type(expanded: Attribute, distributed: Attribute, warp_size: int):
    if expanded == distributed:
        return
    if not isinstance(expanded, VectorType) or not isinstance(distributed, VectorType):
        raise VerifyException("expected vector type for distributed operands.")
    if (
        expanded.get_num_dims() != distributed.get_num_dims()
        or expanded.element_type != distributed.element_type
    ):
        raise VerifyException("expected distributed vectors to have same rank and element type.")
    scales: list[int] = []
    for i, (e_dim, d_dim) in enumerate(
        zip(expanded.get_shape(), distributed.get_shape(), strict=True)
    ):
        if e_dim == d_dim:
            scales.append(1)
            continue
        if d_dim == 0 or e_dim % d_dim != 0:
            raise VerifyException(
                f"expected expanded vector dimension #{i} ({e_dim}) to be a multipler "
                f"of the distributed vector dimension ({d_dim})"
            )
        scales.append(e_dim // d_dim)
    if prod(scales) != warp_size:
        raise VerifyException(
            f"incompatible distribution dimensions from '{expanded}' to "
            f"'{distributed}' with warp size = {warp_size}"
        )


@irdl_op_definition
class WarpExecuteOnLane0Op(IRDLOperation):
    """`gpu.warp_execute_on_lane_0`: run the body on lane 0 of a warp only;
    `args` are gathered from all lanes, results are distributed to all lanes."""

    name = "gpu.warp_execute_on_lane_0"

    laneid = operand_def()
    args = var_operand_def()
    warp_size = prop_def(IntegerAttr[I64])
    warp_region = region_def()

    results_ = var_result_def()

    traits = lazy_traits_def(lambda: (RecursiveMemoryEffect(), _WarpTerminator(YieldOp)))

    def __init__(
        self,
        laneid: SSAValue | Operation,
        warp_size: int | IntegerAttr,
        result_types: Sequence[Attribute] = (),
        args: Sequence[SSAValue | Operation] = (),
        block_arg_types: Sequence[Attribute] | None = None,
        region: Region | None = None,
    ):
        """Without `region`, builds a body block whose arguments have
        `block_arg_types` (default: the types of `args`). The body's last block
        gets a `gpu.yield` if it does not end with a terminator."""
        if isinstance(warp_size, int):
            warp_size = IntegerAttr(warp_size, i64)
        if region is None:
            if block_arg_types is None:
                block_arg_types = [SSAValue.get(a).type for a in args]
            region = Region(Block(arg_types=block_arg_types))
        _ensure_yield(region)
        super().__init__(
            operands=[laneid, args],
            result_types=[result_types],
            properties={"warp_size": warp_size},
            regions=[region],
        )

    @classmethod
    def parse(cls, parser: Parser) -> WarpExecuteOnLane0Op:
        _expect(parser, "(")
        lane = parser.parse_unresolved_operand()
        _expect(parser, ")")
        _expect(parser, "[")
        pos = parser.pos
        warp_size = parser.parse_integer(allow_boolean=False, allow_negative=True)
        if not -(2**63) <= warp_size < 2**63:
            parser.raise_error("integer value too large", pos, parser.pos)
        _expect(parser, "]")
        laneid = parser.resolve_operand(lane, IndexType())

        args: list[SSAValue] = []
        if parser.parse_optional_keyword("args") is not None:
            _expect(parser, "(")
            pos = parser.pos
            unresolved = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, parser.parse_unresolved_operand
            )
            _expect(parser, ":")
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
            _expect(parser, ")")
            if len(types) != len(unresolved):
                parser.raise_error(
                    "number of operands and types do not match: "
                    f"got {len(unresolved)} operands and {len(types)} types",
                    pos,
                    pos + 1,
                )
            args = [parser.resolve_operand(u, t) for u, t in zip(unresolved, types)]

        result_types: list[Attribute] = []
        if parser.parse_optional_punctuation("->") is not None:
            if parser.parse_optional_punctuation("(") is not None:
                if parser.parse_optional_punctuation(")") is None:
                    result_types = parser.parse_comma_separated_list(
                        parser.Delimiter.NONE, parser.parse_type
                    )
                    _expect(parser, ")")
            else:
                result_types = [parser.parse_type()]

        region = parser.parse_region()
        attributes = parser.parse_optional_attr_dict()
        op = cls(
            laneid,
            IntegerAttr(warp_size, i64),
            result_types=result_types,
            args=args,
            region=region,
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_ssa_value(self.laneid)
        printer.print_string(f")[{self.warp_size.value.data}]")
        if self.args:
            printer.print_string(" args(")
            printer.print_list(self.args, printer.print_ssa_value)
            printer.print_string(" : ")
            printer.print_list((a.type for a in self.args), printer.print_attribute)
            printer.print_string(")")
        if self.results_:
            printer.print_string(" -> (")
            printer.print_list(self.result_types, printer.print_attribute)
            printer.print_string(")")
        printer.print_string(" ")
        printer.print_region(
            self.warp_region,
            print_entry_block_args=True,
            print_block_terminators=bool(self.results_),
        )
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        if not isinstance(self.laneid.type, IndexType):
            raise VerifyException(f"operand #0 must be index, but got '{self.laneid.type}'")
        block = self.warp_region.blocks.first
        if block is None:
            raise VerifyException(
                "region #0 ('warpRegion') failed to verify constraint: region with 1 blocks"
            )
        if len(self.args) != len(block.args):
            raise VerifyException("expected same number op arguments and block arguments.")
        yield_op = block.last_op
        if not isinstance(yield_op, YieldOp):  # the terminator trait reports this first
            raise VerifyException("expects regions to end with 'gpu.yield'")
        if len(yield_op.values) != len(self.results_):
            raise VerifyException("expected same number of yield operands and return values.")
        warp_size = self.warp_size.value.data
        for block_arg, arg in zip(block.args, self.args):
            _verify_distributed_type(block_arg.type, arg.type, warp_size)
        for yielded, result in zip(yield_op.values, self.results_):
            _verify_distributed_type(yielded.type, result.type, warp_size)
