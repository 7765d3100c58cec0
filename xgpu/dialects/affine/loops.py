"""affine.if and affine.parallel with MLIR 22's syntax, properties and
verifier messages (xDSL 0.75 has them generic-only, and keeps
affine.parallel's reductions as strings where MLIR has AtomicRMWKind
integers); affine.yield as MLIR prints it."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import affine
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AffineSetAttr,
    AnyFloat,
    ArrayAttr,
    DenseIntElementsAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    StringAttr,
    TensorType,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap, AffineSymExpr
from xdsl.irdl import (
    irdl_op_definition,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import RecursivelySpeculatable, RecursiveMemoryEffect
from xdsl.utils.exceptions import VerifyException

from xgpu.dialects.affine.for_op import YieldOp
from xgpu.dialects.affine.syntax import (
    expect,
    parse_dim_and_symbol_list,
    print_dim_and_symbol_list,
    print_expr_of_ssa_ids,
    resolve_indices,
)
from xgpu.dialects.affine.validity import check_access_operands
from xgpu.ir.affine_expr import replace

# MLIR's arith::AtomicRMWKind, by value.
ATOMIC_RMW_KINDS = (
    "addf",
    "addi",
    "andi",
    "assign",
    "maximumf",
    "maxnumf",
    "maxs",
    "maxu",
    "minimumf",
    "minnumf",
    "mins",
    "minu",
    "mulf",
    "muli",
    "ori",
    "xori",
)
_FLOAT_KINDS = frozenset({"addf", "maximumf", "maxnumf", "minimumf", "minnumf", "mulf"})
_INT_KINDS = frozenset({"addi", "andi", "maxs", "maxu", "mins", "minu", "muli", "ori"})


def _ensure_yield(region: Region) -> None:
    """MLIR's implicit terminator: an empty affine.yield where it was omitted."""
    if not region.blocks:
        region.add_block(Block())
    block = region.block
    if not isinstance(block.last_op, affine.YieldOp):
        block.add_op(YieldOp.create())


def _parse_optional_arrow_types(parser: Parser) -> list[Attribute]:
    if not parser.parse_optional_punctuation("->"):
        return []
    if parser.parse_optional_punctuation("("):
        types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        expect(parser, ")")
        return types
    return [parser.parse_type()]


@irdl_op_definition
class IfOp(affine.IfOp):
    name = "affine.if"

    args = var_operand_def(IndexType)
    res = var_result_def()
    condition = prop_def(AffineSetAttr)
    then_region = region_def()
    else_region = region_def()
    traits = traits_def(RecursiveMemoryEffect(), RecursivelySpeculatable())

    def verify_(self) -> None:
        if len(self.then_region.blocks) != 1:
            raise VerifyException(
                "region #0 ('thenRegion') failed to verify constraint: region with 1 blocks"
            )
        if len(self.else_region.blocks) > 1:
            raise VerifyException(
                "region #1 ('elseRegion') failed to verify constraint: region with at most 1 blocks"
            )
        cond = self.condition.data
        if len(self.args) != cond.num_dims + cond.num_symbols:
            raise VerifyException(
                "operand count and condition integer set dimension and symbol count must match"
            )
        message = check_access_operands(self, cond.num_dims, self.args)
        if message is not None:
            raise VerifyException(message)

    @classmethod
    def parse(cls, parser: Parser) -> IfOp:
        pos = parser.pos
        condition = parser.parse_attribute()
        if not isinstance(condition, AffineSetAttr):
            parser.raise_error("invalid kind of attribute specified", pos)
        pos = parser.pos
        dims, syms = parse_dim_and_symbol_list(parser)
        if len(dims) != condition.data.num_dims:
            parser.raise_error("dim operand count and integer set dim count must match", pos)
        if len(dims) + len(syms) != condition.data.num_dims + condition.data.num_symbols:
            parser.raise_error("symbol operand count and integer set symbol count must match", pos)
        operands = resolve_indices(parser, [*dims, *syms])
        result_types = _parse_optional_arrow_types(parser)
        then_region = parser.parse_region()
        _ensure_yield(then_region)
        else_region = Region()
        if parser.parse_optional_keyword("else"):
            else_region = parser.parse_region()
            _ensure_yield(else_region)
        attrs = parser.parse_optional_attr_dict()
        return cls.create(
            operands=operands,
            result_types=result_types,
            properties={"condition": condition},
            attributes=attrs,
            regions=[then_region, else_region],
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.condition)
        print_dim_and_symbol_list(printer, self.args, self.condition.data.num_dims)
        if self.res:
            printer.print_string(" -> ")
            if len(self.res) == 1:
                printer.print_attribute(self.res.types[0])
            else:
                with printer.in_parens():
                    printer.print_list(self.res.types, printer.print_attribute)
        terminators = bool(self.res)
        printer.print_string(" ")
        printer.print_region(self.then_region, False, False, terminators)
        if self.else_region.blocks:
            printer.print_string(" else ")
            printer.print_region(self.else_region, False, False, terminators)
        printer.print_op_attributes(self.attributes)


def _groups(attr: DenseIntElementsAttr) -> list[int]:
    return [int(v) for v in attr.get_values()]


def _groups_attr(sizes: Sequence[int]) -> DenseIntElementsAttr:
    return DenseIntElementsAttr.from_list(TensorType(i32, [len(sizes)]), list(sizes))


@irdl_op_definition
class ParallelOp(affine.ParallelOp):
    name = "affine.parallel"

    map_operands = var_operand_def(IndexType)
    reductions = prop_def(ArrayAttr)
    lowerBoundsMap = prop_def(AffineMapAttr)
    lowerBoundsGroups = prop_def(DenseIntElementsAttr)
    upperBoundsMap = prop_def(AffineMapAttr)
    upperBoundsGroups = prop_def(DenseIntElementsAttr)
    steps = prop_def(ArrayAttr[IntegerAttr[IntegerType]])
    res = var_result_def()
    body = region_def()

    def verify_(self) -> None:
        if len(self.body.blocks) != 1:
            raise VerifyException(
                "region #0 ('region') failed to verify constraint: region with 1 blocks"
            )
        for kind_attr in self.reductions:
            if not (
                isinstance(kind_attr, IntegerAttr)
                and kind_attr.type == i64
                and 0 <= kind_attr.value.data < len(ATOMIC_RMW_KINDS)
            ):
                raise VerifyException(
                    "attribute 'reductions' failed to satisfy constraint: Reduction ops"
                )
        lower, upper = self.lowerBoundsMap.data, self.upperBoundsMap.data
        num_dims = len(self.body.block.args) if self.body.blocks else 0
        lower_groups = _groups(self.lowerBoundsGroups)
        upper_groups = _groups(self.upperBoundsGroups)
        if (
            len(lower_groups) != num_dims
            or len(upper_groups) != num_dims
            or len(self.steps) != num_dims
        ):
            raise VerifyException(
                "the number of region arguments (" + str(num_dims) + ") and the number of "
                "map groups for lower ("
                + str(len(lower_groups))
                + ") and upper bound ("
                + str(len(upper_groups))
                + "), and the number of steps ("
                + str(len(self.steps))
                + ") must all match"
            )
        if sum(lower_groups) != len(lower.results):
            raise VerifyException(
                "expected lower bounds map to have the same number of results as the "
                "number of lower bound groups"
            )
        if sum(upper_groups) != len(upper.results):
            raise VerifyException(
                "expected upper bounds map to have the same number of results as the "
                "number of upper bound groups"
            )
        if len(self.reductions) != len(self.res):
            raise VerifyException("a reduction must be specified for each output")
        for kind_attr, result_type in zip(self.reductions, self.res.types):
            if not isinstance(kind_attr, IntegerAttr) or not (
                0 <= kind_attr.value.data < len(ATOMIC_RMW_KINDS)
            ):
                raise VerifyException("invalid reduction attribute")
            kind = ATOMIC_RMW_KINDS[kind_attr.value.data]
            is_float = isinstance(result_type, AnyFloat)
            is_int = isinstance(result_type, IntegerType | IndexType)
            if (
                (kind in _FLOAT_KINDS and not is_float)
                or (kind in _INT_KINDS and not is_int)
                or kind == "xori"
            ):
                raise VerifyException("result type cannot match reduction attribute")
        expected = lower.num_dims + lower.num_symbols + upper.num_dims + upper.num_symbols
        if len(self.map_operands) != expected:
            raise VerifyException("expects as many operands as affine map inputs")
        operands = list(self.map_operands)
        num_lower = lower.num_dims + lower.num_symbols
        for amap, group in ((lower, operands[:num_lower]), (upper, operands[num_lower:])):
            message = check_access_operands(self, amap.num_dims, group)
            if message is not None:
                raise VerifyException(message)

    # -- custom syntax ---------------------------------------------------------

    @staticmethod
    def _parse_bounds(parser: Parser, keyword: str):
        """`(b0, keyword(e, ...), ...)`: the map of all groups, the group
        sizes and the operands (all groups' dimensions, then their symbols)."""
        maps: list[AffineMap] = []
        dims: list[UnresolvedOperand] = []
        syms: list[UnresolvedOperand] = []

        def parse_group() -> None:
            if parser.parse_optional_keyword(keyword):
                expect(parser, "(")
                amap, d, s = parser.parse_affine_ssa_subscripts(")")  # type: ignore[attr-defined]
            else:
                amap, d, s = parser.parse_affine_ssa_expr()  # type: ignore[attr-defined]
            maps.append(amap)
            dims.extend(d)
            syms.extend(s)

        parser.parse_comma_separated_list(parser.Delimiter.PAREN, parse_group)
        num_dims, num_syms = len(dims), len(syms)
        results = []
        dim_at = sym_at = 0
        for amap in maps:
            new_dims = [AffineDimExpr(dim_at + i) for i in range(amap.num_dims)]
            new_syms = [AffineSymExpr(sym_at + i) for i in range(amap.num_symbols)]
            results.extend(replace(e, new_dims, new_syms) for e in amap.results)
            dim_at += amap.num_dims
            sym_at += amap.num_symbols
        combined = AffineMap(num_dims, num_syms, tuple(results))
        sizes = [len(amap.results) for amap in maps]
        return AffineMapAttr(combined), sizes, [*dims, *syms]

    @classmethod
    def parse(cls, parser: Parser) -> ParallelOp:
        ivs = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=False)
        )
        expect(parser, "=")
        lower, lower_sizes, lower_operands = cls._parse_bounds(parser, "max")
        parser.parse_keyword("to")
        upper, upper_sizes, upper_operands = cls._parse_bounds(parser, "min")
        steps = [1] * len(ivs)
        if parser.parse_optional_keyword("step"):
            steps = parser.parse_comma_separated_list(
                parser.Delimiter.PAREN, lambda: parser.parse_integer(allow_boolean=False)
            )
        reductions: list[Attribute] = []
        result_types: list[Attribute] = []
        if parser.parse_optional_keyword("reduce"):

            def parse_kind() -> Attribute:
                pos = parser.pos
                name = parser.parse_str_literal()
                if name not in ATOMIC_RMW_KINDS:
                    parser.raise_error(f'invalid reduction value: "{name}"', pos)
                return IntegerAttr(ATOMIC_RMW_KINDS.index(name), 64)

            reductions = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parse_kind)
            result_types = _parse_optional_arrow_types(parser)
        operands = resolve_indices(parser, [*lower_operands, *upper_operands])
        body = parser.parse_region([iv.resolve(IndexType()) for iv in ivs])
        _ensure_yield(body)
        attrs = parser.parse_optional_attr_dict()
        return cls.create(
            operands=operands,
            result_types=result_types,
            properties={
                "reductions": ArrayAttr(reductions),
                "lowerBoundsMap": lower,
                "lowerBoundsGroups": _groups_attr(lower_sizes),
                "upperBoundsMap": upper,
                "upperBoundsGroups": _groups_attr(upper_sizes),
                "steps": ArrayAttr([IntegerAttr(s, 64) for s in steps]),
            },
            attributes=attrs,
            regions=[body],
        )

    def _print_bounds(self, printer: Printer, amap: AffineMap, sizes, operands, keyword):
        dims, syms = operands[: amap.num_dims], operands[amap.num_dims :]
        with printer.in_parens():
            start = 0
            for i, size in enumerate(sizes):
                if i:
                    printer.print_string(", ")
                group = amap.results[start : start + size]
                start += size
                if size == 1:
                    print_expr_of_ssa_ids(printer, group[0], dims, syms)
                    continue
                printer.print_string(f"{keyword}(")
                printer.print_list(group, lambda e: print_expr_of_ssa_ids(printer, e, dims, syms))
                printer.print_string(")")

    def print(self, printer: Printer) -> None:
        lower, upper = self.lowerBoundsMap.data, self.upperBoundsMap.data
        num_lower = lower.num_dims + lower.num_symbols
        operands: list[SSAValue] = list(self.map_operands)
        printer.print_string(" ")
        with printer.in_parens():
            printer.print_list(
                self.body.block.args, lambda a: printer.print_block_argument(a, False)
            )
        printer.print_string(" = ")
        self._print_bounds(
            printer, lower, _groups(self.lowerBoundsGroups), operands[:num_lower], "max"
        )
        printer.print_string(" to ")
        self._print_bounds(
            printer, upper, _groups(self.upperBoundsGroups), operands[num_lower:], "min"
        )
        steps = [s.value.data for s in self.steps]
        if any(s != 1 for s in steps):
            printer.print_string(" step ")
            with printer.in_parens():
                printer.print_list(steps, lambda s: printer.print_string(str(s)))
        if self.reductions.data:
            printer.print_string(" reduce ")
            with printer.in_parens():
                printer.print_list(
                    self.reductions.data,
                    lambda k: printer.print_string(_kind_text(k)),
                )
            printer.print_string(" -> ")
            with printer.in_parens():
                printer.print_list(self.res.types, printer.print_attribute)
        printer.print_string(" ")
        printer.print_region(self.body, False, False, bool(self.res))
        printer.print_op_attributes(self.attributes)


def _kind_text(kind: Attribute) -> str:
    if isinstance(kind, IntegerAttr) and 0 <= kind.value.data < len(ATOMIC_RMW_KINDS):
        return f'"{ATOMIC_RMW_KINDS[kind.value.data]}"'
    if isinstance(kind, StringAttr):
        return f'"{kind.data}"'
    return "?"


LOOP_OPS = [IfOp, ParallelOp]
