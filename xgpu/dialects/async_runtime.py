"""The lower-level ops of MLIR 22's async dialect: `async.runtime.*` (the
async runtime API that `async.execute` is lowered to) and `async.coro.*` (LLVM
coroutine intrinsics), with the coroutine types `!async.coro.id`,
`!async.coro.handle` and `!async.coro.state`. Part of xgpu's async dialect
(`xgpu.dialects.async_.dialect`); none of these ops has MLIR traits beyond
`async.coro.suspend` being a terminator, so every one counts as having effects."""

from __future__ import annotations

from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType, i1, i64
from xdsl.ir import Attribute, Operation, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    successor_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsTerminator
from xdsl.utils.exceptions import VerifyException

from xgpu.dialects.async_ import (
    GROUP_C,
    INDEX_C,
    VALUE_OR_TOKEN_C,
    AsyncGroupType,
    Constraint,
    GroupType,
    TokenType,
    ValueType,
    any_type,
    ods_checks,
)
from xgpu.dialects.ods_errors import property_conversion_error
from xgpu.ir.upstream_verifiers import register

# ---------------------------------------------------------------------------
# Coroutine types
# ---------------------------------------------------------------------------


@irdl_attr_definition
class CoroIdType(ParametrizedAttribute, TypeAttribute):
    """`!async.coro.id`: a switched-resume coroutine identifier."""

    name = "async.coro.id"


@irdl_attr_definition
class CoroHandleType(ParametrizedAttribute, TypeAttribute):
    """`!async.coro.handle`: a coroutine handle."""

    name = "async.coro.handle"


@irdl_attr_definition
class CoroStateType(ParametrizedAttribute, TypeAttribute):
    """`!async.coro.state`: a saved coroutine state."""

    name = "async.coro.state"


def _kind(cls: type[Attribute], description: str) -> Constraint:
    return (False, lambda t: isinstance(t, cls), description)


_ANY_ASYNC: Constraint = (
    False,
    lambda t: isinstance(t, (TokenType, ValueType, GroupType)),
    "async value type or async token type or async group type",
)
_VALUE_C = _kind(ValueType, "async value type")
_ID_C = _kind(CoroIdType, "switched-resume coroutine identifier")
_HANDLE_C = _kind(CoroHandleType, "coroutine handle")
_STATE_C = _kind(CoroStateType, "saved coroutine state")
_I1_C: Constraint = (False, lambda t: t == i1, "1-bit signless integer")
_ANY_C: Constraint = (False, any_type, "any type")


# ---------------------------------------------------------------------------
# `type($storage)` of an `!async.value` operand
# ---------------------------------------------------------------------------


def _parse_value_type(parser: Parser, op_name: str) -> ValueType:
    """MLIR's `parseType<ValueType>`: the stripped `<T>` or the full type."""
    if parser.parse_optional_punctuation("<") is not None:
        inner = parser.parse_type()
        parser.parse_punctuation(">")
        return ValueType(inner)
    start = parser.pos
    ty = parser.parse_type()
    if not isinstance(ty, ValueType):
        parser.raise_error(
            f"custom op '{op_name}' invalid kind of type specified: "
            f"expected async.value, but found '{ty}'",
            start,
            parser.pos,
        )
    return ty


def _print_value_type(printer: Printer, ty: Attribute) -> None:
    """MLIR prints a type of a known dialect type kind stripped: `<f32>`."""
    if isinstance(ty, ValueType):
        printer.print_string("<")
        printer.print_attribute(ty.value_type)
        printer.print_string(">")
    else:
        printer.print_attribute(ty)


# ---------------------------------------------------------------------------
# async.runtime.*
# ---------------------------------------------------------------------------


@irdl_op_definition
class RuntimeCreateOp(IRDLOperation):
    """`%t = async.runtime.create : !async.token`."""

    name = "async.runtime.create"
    result = result_def()
    assembly_format = "attr-dict `:` type($result)"


@irdl_op_definition
class RuntimeCreateGroupOp(IRDLOperation):
    """`%g = async.runtime.create_group %size : !async.group`."""

    name = "async.runtime.create_group"
    size = operand_def(IndexType)
    result = result_def(GroupType)
    custom_directives = (AsyncGroupType,)
    assembly_format = "$size `:` custom<AsyncGroupType>(type($result)) attr-dict"


class _OperandOnlyOp(IRDLOperation):
    operand = operand_def()
    assembly_format = "$operand attr-dict `:` type($operand)"


@irdl_op_definition
class RuntimeSetAvailableOp(_OperandOnlyOp):
    """`async.runtime.set_available %t : !async.token`."""

    name = "async.runtime.set_available"


@irdl_op_definition
class RuntimeSetErrorOp(_OperandOnlyOp):
    """`async.runtime.set_error %t : !async.token`."""

    name = "async.runtime.set_error"


@irdl_op_definition
class RuntimeAwaitOp(_OperandOnlyOp):
    """`async.runtime.await %t : !async.token` (blocks the calling thread)."""

    name = "async.runtime.await"


@irdl_op_definition
class RuntimeIsErrorOp(IRDLOperation):
    """`%e = async.runtime.is_error %t : !async.token`."""

    name = "async.runtime.is_error"
    operand = operand_def()
    is_error = result_def(i1)
    assembly_format = "$operand attr-dict `:` type($operand)"


@irdl_op_definition
class RuntimeResumeOp(IRDLOperation):
    """`async.runtime.resume %handle`."""

    name = "async.runtime.resume"
    handle = operand_def(CoroHandleType)
    assembly_format = "$handle attr-dict"


@irdl_op_definition
class RuntimeAwaitAndResumeOp(IRDLOperation):
    """`async.runtime.await_and_resume %t, %handle : !async.token`."""

    name = "async.runtime.await_and_resume"
    operand = operand_def()
    handle = operand_def(CoroHandleType)
    assembly_format = "$operand `,` $handle attr-dict `:` type($operand)"


_TYPES_MATCH = "failed to verify that type of 'value' matches element type of 'storage'"


@irdl_op_definition
class RuntimeStoreOp(IRDLOperation):
    """`async.runtime.store %v, %storage : <f32>`."""

    name = "async.runtime.store"
    value = operand_def()
    storage = operand_def()

    @classmethod
    def parse(cls, parser: Parser) -> RuntimeStoreOp:
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        storage = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ty = _parse_value_type(parser, cls.name)
        operands = [
            parser.resolve_operand(value, ty.value_type),
            parser.resolve_operand(storage, ty),
        ]
        return cls.create(operands=operands, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.value)
        printer.print_string(", ")
        printer.print_ssa_value(self.storage)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        _print_value_type(printer, self.storage.type)

    def verify_(self) -> None:
        ty = self.storage.type
        if isinstance(ty, ValueType) and self.value.type != ty.value_type:
            raise VerifyException(_TYPES_MATCH)


@irdl_op_definition
class RuntimeLoadOp(IRDLOperation):
    """`%v = async.runtime.load %storage : <f32>`."""

    name = "async.runtime.load"
    storage = operand_def()
    result = result_def()

    @classmethod
    def parse(cls, parser: Parser) -> RuntimeLoadOp:
        storage = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        ty = _parse_value_type(parser, cls.name)
        return cls.create(
            operands=[parser.resolve_operand(storage, ty)],
            result_types=[ty.value_type],
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.storage)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        _print_value_type(printer, self.storage.type)

    def verify_(self) -> None:
        ty = self.storage.type
        if isinstance(ty, ValueType) and self.result.type != ty.value_type:
            raise VerifyException(_TYPES_MATCH)


@irdl_op_definition
class RuntimeAddToGroupOp(IRDLOperation):
    """`%rank = async.runtime.add_to_group %t, %g : !async.token`."""

    name = "async.runtime.add_to_group"
    operand = operand_def()
    group = operand_def(GroupType)
    rank = result_def(IndexType)
    assembly_format = "$operand `,` $group attr-dict `:` type($operand)"


class _RefCountOp(IRDLOperation):
    operand = operand_def()
    count = prop_def()
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$operand attr-dict `:` type($operand)"


@irdl_op_definition
class RuntimeAddRefOp(_RefCountOp):
    """`async.runtime.add_ref %t {count = 1 : i64} : !async.token`."""

    name = "async.runtime.add_ref"


@irdl_op_definition
class RuntimeDropRefOp(_RefCountOp):
    """`async.runtime.drop_ref %t {count = 1 : i64} : !async.token`."""

    name = "async.runtime.drop_ref"


@irdl_op_definition
class RuntimeNumWorkerThreadsOp(IRDLOperation):
    """`%n = async.runtime.num_worker_threads : index`."""

    name = "async.runtime.num_worker_threads"
    result = result_def()
    assembly_format = "attr-dict `:` type($result)"


# ---------------------------------------------------------------------------
# async.coro.*
# ---------------------------------------------------------------------------


@irdl_op_definition
class CoroIdOp(IRDLOperation):
    """`%id = async.coro.id`."""

    name = "async.coro.id"
    id = result_def(CoroIdType)
    assembly_format = "attr-dict"


@irdl_op_definition
class CoroBeginOp(IRDLOperation):
    """`%handle = async.coro.begin %id`."""

    name = "async.coro.begin"
    id = operand_def(CoroIdType)
    handle = result_def(CoroHandleType)
    assembly_format = "$id attr-dict"


@irdl_op_definition
class CoroFreeOp(IRDLOperation):
    """`async.coro.free %id, %handle`."""

    name = "async.coro.free"
    id = operand_def(CoroIdType)
    handle = operand_def(CoroHandleType)
    assembly_format = "$id `,` $handle attr-dict"


@irdl_op_definition
class CoroEndOp(IRDLOperation):
    """`async.coro.end %handle`."""

    name = "async.coro.end"
    handle = operand_def(CoroHandleType)
    assembly_format = "$handle attr-dict"


@irdl_op_definition
class CoroSaveOp(IRDLOperation):
    """`%state = async.coro.save %handle`."""

    name = "async.coro.save"
    handle = operand_def(CoroHandleType)
    state = result_def(CoroStateType)
    assembly_format = "$handle attr-dict"


@irdl_op_definition
class CoroSuspendOp(IRDLOperation):
    """`async.coro.suspend %state, ^suspend, ^resume, ^cleanup`."""

    name = "async.coro.suspend"
    state = operand_def(CoroStateType)
    suspend_dest = successor_def()
    resume_dest = successor_def()
    cleanup_dest = successor_def()
    traits = traits_def(IsTerminator())
    assembly_format = "$state `,` $suspend_dest `,` $resume_dest `,` $cleanup_dest attr-dict"


# ---------------------------------------------------------------------------
# MLIR's ODS checks
# ---------------------------------------------------------------------------


def _count_checks(op: Operation) -> None:
    property_conversion_error(op, "count", lambda v: isinstance(v, IntegerAttr))
    ods_checks([_ANY_ASYNC], [])(op)
    count = op.properties.get("count")
    if count is not None and not (
        isinstance(count, IntegerAttr)
        and count.type == i64
        and isinstance(count.type, IntegerType)
        and count.value.data > 0
    ):
        raise VerifyException(
            "attribute 'count' failed to satisfy constraint: 64-bit signless integer "
            "attribute whose value is positive"
        )


for _name, _operands, _results in (
    ("async.runtime.create", [], [VALUE_OR_TOKEN_C]),
    ("async.runtime.create_group", [INDEX_C], [GROUP_C]),
    ("async.runtime.set_available", [VALUE_OR_TOKEN_C], []),
    ("async.runtime.set_error", [VALUE_OR_TOKEN_C], []),
    ("async.runtime.is_error", [_ANY_ASYNC], [_I1_C]),
    ("async.runtime.await", [_ANY_ASYNC], []),
    ("async.runtime.resume", [_HANDLE_C], []),
    ("async.runtime.await_and_resume", [_ANY_ASYNC, _HANDLE_C], []),
    ("async.runtime.store", [_ANY_C, _VALUE_C], []),
    ("async.runtime.load", [_VALUE_C], [_ANY_C]),
    ("async.runtime.add_to_group", [VALUE_OR_TOKEN_C, GROUP_C], [INDEX_C]),
    ("async.runtime.num_worker_threads", [], [INDEX_C]),
    ("async.coro.id", [], [_ID_C]),
    ("async.coro.begin", [_ID_C], [_HANDLE_C]),
    ("async.coro.free", [_ID_C, _HANDLE_C], []),
    ("async.coro.end", [_HANDLE_C], []),
    ("async.coro.save", [_HANDLE_C], [_STATE_C]),
    ("async.coro.suspend", [_STATE_C], []),
):
    register(_name, before=ods_checks(_operands, _results))
register("async.runtime.add_ref", before=_count_checks)
register("async.runtime.drop_ref", before=_count_checks)


OPS: list[type[Operation]] = [
    RuntimeCreateOp,
    RuntimeCreateGroupOp,
    RuntimeSetAvailableOp,
    RuntimeSetErrorOp,
    RuntimeIsErrorOp,
    RuntimeAwaitOp,
    RuntimeResumeOp,
    RuntimeAwaitAndResumeOp,
    RuntimeStoreOp,
    RuntimeLoadOp,
    RuntimeAddToGroupOp,
    RuntimeAddRefOp,
    RuntimeDropRefOp,
    RuntimeNumWorkerThreadsOp,
    CoroIdOp,
    CoroBeginOp,
    CoroFreeOp,
    CoroEndOp,
    CoroSaveOp,
    CoroSuspendOp,
]
ATTRS: list[type[Attribute]] = [CoroIdType, CoroHandleType, CoroStateType]
