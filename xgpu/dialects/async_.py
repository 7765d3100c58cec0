"""MLIR 22's async dialect (xDSL 0.75 has none): the types `!async.token`,
`!async.value<T>` and `!async.group`, and the ops that host programs with
asynchronous GPU work carry: `async.execute`, `async.yield`, `async.await`,
`async.create_group`, `async.add_to_group` and `async.await_all`.

Syntax, generic form, traits and verifier messages are MLIR's. The ODS
checks (operand and result types, region sizes) are made in MLIR's words
before xDSL's own verification (`ods_checks`), and the region checks of
`async.execute` (its RegionBranchOpInterface edges, then `verifyRegions`)
after the ops nested in it, as mlir-opt does."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from xdsl.dialects.builtin import DenseArrayBase, FunctionType, IndexType, i32
from xdsl.ir import Attribute, Dialect, Operation, ParametrizedAttribute, Region, TypeAttribute
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    opt_result_def,
    param_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.irdl.declarative_assembly_format import (
    CustomDirective,
    ParsingState,
    PrintingState,
    TypeDirective,
    irdl_custom_directive,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import (
    IsTerminator,
    Pure,
    RecursiveMemoryEffect,
    ReturnLike,
    SingleBlockImplicitTerminator,
)
from xdsl.utils.exceptions import VerifyException

from xgpu.dialects import derive, xdsl_dialect
from xgpu.dialects.gpu.utils import HasParentWithMLIRMessage, MLIRResultNames
from xgpu.dialects.ods_errors import property_conversion_error
from xgpu.ir.upstream_verifiers import (
    Edge,
    quoted,
    register,
    verify_edges,
    verify_sized_regions,
)

# ---------------------------------------------------------------------------
# Types
# ---------------------------------------------------------------------------


@irdl_attr_definition
class TokenType(ParametrizedAttribute, TypeAttribute):
    """`!async.token`: the completion of an asynchronous region."""

    name = "async.token"


@irdl_attr_definition
class GroupType(ParametrizedAttribute, TypeAttribute):
    """`!async.group`: a group of tokens and values awaited together."""

    name = "async.group"


@irdl_attr_definition
class ValueType(ParametrizedAttribute, TypeAttribute):
    """`!async.value<T>`: a value of type T that becomes available later."""

    name = "async.value"

    value_type: TypeAttribute = param_def(TypeAttribute)

    def __init__(self, value_type: Attribute):
        super().__init__(value_type)  # type: ignore[arg-type]

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        for punctuation in ("<", None, ">"):
            if punctuation is None:
                value_type = parser.parse_type()
            elif parser.parse_optional_punctuation(punctuation) is None:
                parser.raise_error(f"expected '{punctuation}'")
        return (value_type,)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_attribute(self.value_type)
        printer.print_string(">")


_TOKEN = TokenType()


def is_value_or_token(t: Attribute) -> bool:
    return isinstance(t, (TokenType, ValueType))


def unwrapped(t: Attribute) -> Attribute:
    """The type an `!async.value<T>` holds (T); other types stay as they are."""
    return t.value_type if isinstance(t, ValueType) else t


# ---------------------------------------------------------------------------
# MLIR's ODS checks, in its words
# ---------------------------------------------------------------------------

VALUE_OR_TOKEN = "async value type or async token type"

# Per op: operand and result constraints as (is variadic, accepts, description).
Constraint = tuple[bool, Callable[[Attribute], bool], str]


def _type_checks(
    what: str, values: Sequence, constraints: Sequence[Constraint], segments: Sequence[int]
) -> None:
    index = 0
    for (variadic, accepts, description), size in zip(constraints, segments):
        for value in values[index : index + size]:
            if not accepts(value.type):
                prefix = "variadic of " if variadic else ""
                raise VerifyException(
                    f"{what} #{index} must be {prefix}{description}, but got {quoted(value.type)}"
                )
            index += 1


def _segments(values: Sequence, constraints: Sequence[Constraint], op: Operation) -> list[int]:
    """The number of values of each constraint group (variadic groups take the
    rest, or MLIR's operandSegmentSizes where the op has them)."""
    sizes = op.properties.get("operandSegmentSizes")
    if sum(1 for v, _, _ in constraints if v) > 1 and isinstance(sizes, DenseArrayBase):
        return [int(v) for v in sizes.get_values()]
    fixed = sum(1 for v, _, _ in constraints if not v)
    rest = max(len(values) - fixed, 0)
    return [rest if v else 1 for v, _, _ in constraints]


def ods_checks(
    operands: Sequence[Constraint],
    results: Sequence[Constraint],
    regions: Sequence[str | None] = (),
) -> Callable[[Operation], None]:
    def check(op: Operation) -> None:
        _type_checks("operand", op.operands, operands, _segments(op.operands, operands, op))
        res_sizes = [len(op.results) - (len(results) - 1) if v else 1 for v, _, _ in results]
        _type_checks("result", op.results, results, res_sizes)
        if regions:
            verify_sized_regions(op, regions)

    return check


def any_type(_: Attribute) -> bool:
    return True


TOKEN_C: Constraint = (False, lambda t: isinstance(t, TokenType), "async token type")
GROUP_C: Constraint = (False, lambda t: isinstance(t, GroupType), "async group type")
INDEX_C: Constraint = (False, lambda t: isinstance(t, IndexType), "index")
VALUE_OR_TOKEN_C: Constraint = (False, is_value_or_token, VALUE_OR_TOKEN)


# ---------------------------------------------------------------------------
# async.execute / async.yield
# ---------------------------------------------------------------------------


def _parse_arrow_types(parser: Parser) -> list[Attribute]:
    """MLIR's `parseOptionalArrowTypeList`: `-> T` or `-> (T, ...)`."""
    if parser.parse_optional_punctuation("->") is None:
        return []
    if parser.parse_optional_punctuation("(") is not None:
        if parser.parse_optional_punctuation(")") is not None:
            return []
        types = [parser.parse_type()]
        while parser.parse_optional_punctuation(",") is not None:
            types.append(parser.parse_type())
        parser.parse_punctuation(")")
        return types
    return [parser.parse_type()]


def _print_arrow_types(printer: Printer, types: Sequence[Attribute]) -> None:
    """MLIR's `printOptionalArrowTypeList`."""
    if not types:
        return
    printer.print_string(" -> ")
    parens = len(types) > 1 or isinstance(types[0], FunctionType)
    if parens:
        printer.print_string("(")
    printer.print_list(types, printer.print_attribute)
    if parens:
        printer.print_string(")")


_SEGMENTS = "operandSegmentSizes"


@irdl_op_definition
class ExecuteOp(MLIRResultNames, IRDLOperation):
    """`async.execute [%deps] (%v as %x: !async.value<T>) -> !async.value<U> { ... }`:
    a region that may run concurrently with what follows it."""

    name = "async.execute"

    dependencies = var_operand_def()
    body_operands = var_operand_def()
    token = result_def()
    body_results = var_result_def()
    body_region = region_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = lazy_traits_def(
        lambda: (SingleBlockImplicitTerminator(YieldOp), RecursiveMemoryEffect())
    )

    MLIR_RESULT_NAMES: ClassVar[tuple[str, ...]] = ("token", "bodyResults")

    @classmethod
    def build_execute(
        cls,
        dependencies: Sequence,
        body_operands: Sequence,
        result_types: Sequence[Attribute],
        region: Region,
    ) -> ExecuteOp:
        """MLIR's builder: a token result, then `result_types` wrapped in
        `!async.value`, and only the operand segment sizes as properties."""
        return cls.create(
            operands=[*dependencies, *body_operands],
            result_types=[_TOKEN, *(ValueType(t) for t in result_types)],
            properties={_SEGMENTS: _segment_sizes(len(dependencies), len(body_operands))},
            regions=[region],
        )

    @classmethod
    def parse(cls, parser: Parser) -> ExecuteOp:
        deps = []
        if parser.parse_optional_punctuation("[") is not None:
            if parser.parse_optional_punctuation("]") is None:
                deps.append(parser.resolve_operand(parser.parse_unresolved_operand(), _TOKEN))
                while parser.parse_optional_punctuation(",") is not None:
                    deps.append(parser.resolve_operand(parser.parse_unresolved_operand(), _TOKEN))
                parser.parse_punctuation("]")

        values = []
        args: list[Parser.Argument] = []

        def parse_value_arg() -> None:
            unresolved = parser.parse_unresolved_operand()
            parser.parse_keyword("as")
            arg = parser.parse_argument(expect_type=False)
            parser.parse_punctuation(":")
            ty = parser.parse_type()
            values.append(parser.resolve_operand(unresolved, ty))
            args.append(arg.resolve(unwrapped(ty)))

        if parser.parse_optional_punctuation("(") is not None:
            if parser.parse_optional_punctuation(")") is None:
                parse_value_arg()
                while parser.parse_optional_punctuation(",") is not None:
                    parse_value_arg()
                parser.parse_punctuation(")")

        result_types = _parse_arrow_types(parser)
        extra = parser.parse_optional_attr_dict_with_keyword()
        region = parser.parse_region(args) if args else parser.parse_region()
        op = cls.create(
            operands=[*deps, *values],
            result_types=[_TOKEN, *result_types],
            properties={_SEGMENTS: _segment_sizes(len(deps), len(values))},
            attributes=dict(extra.data) if extra is not None else {},
            regions=[region],
        )
        return op

    def print(self, printer: Printer) -> None:
        if self.dependencies:
            printer.print_string(" [")
            printer.print_list(self.dependencies, printer.print_ssa_value)
            printer.print_string("]")
        if self.body_operands:
            entry = self.body_region.blocks.first
            args = list(entry.args) if entry is not None else []
            printer.print_string(" (")
            for i, operand in enumerate(self.body_operands):
                if i:
                    printer.print_string(", ")
                printer.print_ssa_value(operand)
                printer.print_string(" as ")
                if i < len(args):
                    printer.print_ssa_value(args[i])
                else:
                    printer.print_string("<<NULL VALUE>>")
                printer.print_string(": ")
                printer.print_attribute(operand.type)
            printer.print_string(")")
        _print_arrow_types(printer, [r.type for r in self.body_results])
        printer.print_op_attributes(
            self.attributes, reserved_attr_names=(_SEGMENTS,), print_keyword=True
        )
        printer.print_string(" ")
        printer.print_region(self.body_region, print_entry_block_args=False)


def _segment_sizes(deps: int, operands: int) -> Attribute:
    return DenseArrayBase.from_list(i32, [deps, operands])


def _verify_execute_regions(op: Operation) -> None:
    """MLIR's RegionBranchOpInterface edges of `async.execute` (the operands
    into the body, unwrapped; the yield back to the results, compared with
    them unwrapped), then its `verifyRegions`."""
    assert isinstance(op, ExecuteOp)
    region = op.body_region
    entry = region.blocks.first
    inputs = list(entry.args) if entry is not None else []
    _verify_unwrapped_edge(op, None, 0, list(op.body_operands), inputs)
    for block in region.blocks:
        last = block.last_op
        if isinstance(last, YieldOp):
            _verify_unwrapped_edge(op, last, None, list(last.operands), list(op.body_results))
    if [unwrapped(v.type) for v in op.body_operands] != [a.type for a in inputs]:
        raise VerifyException(
            "async body region argument types do not match the execute operation arguments types"
        )


def _verify_unwrapped_edge(
    op: Operation, source: Operation | None, target: int | None, operands: list, inputs: list
) -> None:
    """An edge whose types MLIR compares after unwrapping `!async.value`
    (`ExecuteOp::areTypesCompatible`)."""
    if len(operands) == len(inputs) and all(
        unwrapped(a.type) == unwrapped(b.type) for a, b in zip(operands, inputs)
    ):
        return
    verify_edges(op, [Edge(source, target, operands, inputs)])


@irdl_op_definition
class YieldOp(IRDLOperation):
    """`async.yield %v : T`: the terminator of an `async.execute` body."""

    name = "async.yield"

    operands_ = var_operand_def()

    traits = lazy_traits_def(
        lambda: (HasParentWithMLIRMessage(ExecuteOp), Pure(), IsTerminator(), ReturnLike())
    )

    assembly_format = "($operands_^ `:` type($operands_))? attr-dict"


# ---------------------------------------------------------------------------
# async.await
# ---------------------------------------------------------------------------


@irdl_custom_directive
class AwaitResultType(CustomDirective):
    """`custom<AwaitResultType>(type($operand), type($result))`: the operand's
    type; awaiting an `!async.value<T>` gives a T."""

    operand_type: TypeDirective
    result_type: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> bool:
        ty = parser.parse_type()
        self.operand_type.set(state, [ty])
        self.result_type.set(state, [ty.value_type] if isinstance(ty, ValueType) else [])
        return True

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        printer.print_list(self.operand_type.get(op), printer.print_attribute)


@irdl_op_definition
class AwaitOp(IRDLOperation):
    """`async.await %t : !async.token`, `%v = async.await %x : !async.value<T>`."""

    name = "async.await"

    operand = operand_def()
    result = opt_result_def()

    custom_directives = (AwaitResultType,)
    assembly_format = (
        "$operand `:` custom<AwaitResultType>(type($operand), type($result)) attr-dict"
    )

    def __init__(self, operand, attributes: dict[str, Attribute] | None = None):
        ty = operand.type if hasattr(operand, "type") else None
        result_types = [[ty.value_type] if isinstance(ty, ValueType) else []]
        super().__init__(operands=[operand], result_types=result_types, attributes=attributes)

    def verify_(self) -> None:
        ty = self.operand.type
        if isinstance(ty, TokenType) and self.results:
            raise VerifyException("awaiting on a token must have empty result")
        if isinstance(ty, ValueType):
            if not self.results:
                # mlir-opt 22 crashes here (it reads the absent result's type).
                raise VerifyException(
                    f"result type <<NULL TYPE>> does not match async value type "
                    f"{quoted(ty.value_type)}"
                )
            if self.results[0].type != ty.value_type:
                raise VerifyException(
                    f"result type {quoted(self.results[0].type)} does not match "
                    f"async value type {quoted(ty.value_type)}"
                )


# ---------------------------------------------------------------------------
# Groups
# ---------------------------------------------------------------------------


@irdl_custom_directive
class AsyncGroupType(CustomDirective):
    """`type($result)` of an `!async.group` result, rejected at parse time as
    MLIR's `parseType<GroupType>` does when it is another type."""

    ty: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> bool:
        start = parser.pos
        ty = parser.parse_type()
        if not isinstance(ty, GroupType):
            parser.raise_error(
                f"custom op '{state.op_type.name}' invalid kind of type specified: "
                f"expected async.group, but found '{ty}'",
                start,
                parser.pos,
            )
        self.ty.set(state, [ty])
        return True

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        printer.print_list(self.ty.get(op), printer.print_attribute)


@irdl_op_definition
class CreateGroupOp(IRDLOperation):
    """`%g = async.create_group %size : !async.group`."""

    name = "async.create_group"

    size = operand_def(IndexType)
    result = result_def(GroupType)

    traits = traits_def(Pure())

    custom_directives = (AsyncGroupType,)
    assembly_format = "$size `:` custom<AsyncGroupType>(type($result)) attr-dict"


@irdl_op_definition
class AddToGroupOp(IRDLOperation):
    """`%rank = async.add_to_group %t, %g : !async.token`."""

    name = "async.add_to_group"

    operand = operand_def()
    group = operand_def(GroupType)
    rank = result_def(IndexType)

    assembly_format = "$operand `,` $group `:` type($operand) attr-dict"


@irdl_op_definition
class AwaitAllOp(IRDLOperation):
    """`async.await_all %g`: wait for everything added to the group."""

    name = "async.await_all"

    operand = operand_def(GroupType)

    assembly_format = "$operand attr-dict"


# MLIR's ODS checks, before xDSL's verification of each op.
_execute_ods_checks = ods_checks(
    [
        (True, lambda t: isinstance(t, TokenType), "async token type"),
        (True, is_value_or_token, VALUE_OR_TOKEN),
    ],
    [TOKEN_C, (True, lambda t: isinstance(t, ValueType), "async value type")],
    ["bodyRegion"],
)


def _is_two_i32s(value: Attribute) -> bool:
    return isinstance(value, DenseArrayBase) and value.elt_type == i32 and len(value) == 2


def _execute_checks(op: Operation) -> None:
    segments = op.properties.get(_SEGMENTS)
    property_conversion_error(
        op,
        _SEGMENTS,
        lambda v: isinstance(v, DenseArrayBase) and v.elt_type == i32,
        "expected DenseI32ArrayAttr for key `value`",
    )
    if isinstance(segments, DenseArrayBase):
        property_conversion_error(
            op,
            _SEGMENTS,
            _is_two_i32s,
            f"size mismatch in attribute conversion: {len(segments)} vs 2",
        )
    # The SingleBlock trait comes before the ODS constraints.
    for index, region in enumerate(op.regions):
        if len(region.blocks) > 1:
            raise VerifyException(f"expects region #{index} to have 0 or 1 blocks")
    _execute_ods_checks(op)


register("async.execute", before=_execute_checks, regions=_verify_execute_regions)
register("async.yield", before=ods_checks([(True, any_type, "any type")], []))
register(
    "async.await",
    before=ods_checks([VALUE_OR_TOKEN_C], [(True, any_type, "any type")]),
)
register(
    "async.create_group",
    before=ods_checks([INDEX_C], [GROUP_C]),
)
register(
    "async.add_to_group",
    before=ods_checks([VALUE_OR_TOKEN_C, GROUP_C], [INDEX_C]),
)
register("async.await_all", before=ods_checks([GROUP_C], []))


OPS: list[type[Operation]] = [
    ExecuteOp,
    YieldOp,
    AwaitOp,
    CreateGroupOp,
    AddToGroupOp,
    AwaitAllOp,
]
ATTRS: list[type[Attribute]] = [TokenType, ValueType, GroupType]


def dialect() -> Dialect:
    from xgpu.dialects import async_func, async_runtime

    return derive.derived_dialect(
        xdsl_dialect("async"),
        "async",
        ops=[*OPS, *async_func.OPS, *async_runtime.OPS],
        attrs=[*ATTRS, *async_runtime.ATTRS],
    )
