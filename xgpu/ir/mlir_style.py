"""Printing exactly as mlir-opt 22 does (`xgpu-opt --mlir-style`).

MLIR names every value and block before it prints (its SSANameState): the
regions of the printed op are visited from a stack, each starting from the
counters its parent region ended with (in generic form: one set of counters
for all); entry block arguments are `%argN`, other values are numbered or
take the name their op gives them (xgpu.ir.asm_names), made unique within
the enclosing regions with one conflict counter (`%c0`, `%c0_1`, ...); blocks
are `^bbN` by their position in their region. Ops print without the prefix
of the default dialect of the op whose region holds them (`return`, `call`,
`module`), and a block's label carries a comment naming its predecessors.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from io import StringIO

from xdsl.context import Context
from xdsl.dialects.builtin import AnyFloat, ModuleOp, UnregisteredOp
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.traits import IsTerminator

from xgpu.ir.asm_names import DEFAULT_DIALECTS, block_argument_names, result_names
from xgpu.ir.float_text import apfloat_text, exponent_text
from xgpu.ir.loc_aliases import LocAliases, location_text
from xgpu.ir.printer import MLIRPrinter

_VALID = re.compile(r"[A-Za-z0-9$._-]*")


def sanitize(name: str) -> str:
    """MLIR's sanitizeIdentifier: invalid characters spelled in hex (a space
    as `_`), and a leading digit prefixed with `_`."""
    if _VALID.fullmatch(name) and not name[:1].isdigit():
        return name
    out = "_" if name[:1].isdigit() else ""
    for ch in name:
        if _VALID.fullmatch(ch):
            out += ch
        elif ch == " ":
            out += "_"
        else:
            out += "".join(f"{b:X}" for b in ch.encode())
    return out


@dataclass
class _Scope:
    parent: _Scope | None
    names: set[str] = field(default_factory=set)

    def __contains__(self, name: str) -> bool:
        scope: _Scope | None = self
        while scope is not None:
            if name in scope.names:
                return True
            scope = scope.parent
        return False


class AsmNames:
    """The names MLIR gives the values and blocks under `top`."""

    def __init__(self, top: Operation, generic: bool = False):
        self.generic = generic
        self.ids: dict[SSAValue, str] = {}
        self.groups: dict[Operation, list[int]] = {}
        self.blocks: dict[Block, str] = {}
        self.block_ids: dict[Block, int] = {}
        self.preds: dict[Block, list[Block]] = {}
        self._value = self._arg = self._conflict = 0
        self._scope = _Scope(None)
        top_scope = self._scope
        stack: list[tuple[Region, int, int, int, _Scope]] = [
            (region, 0, 0, 0, top_scope) for region in top.regions
        ]
        self._number_op(top)
        while stack:
            region, value, arg, conflict, parent = stack.pop()
            if not generic:
                self._value, self._arg, self._conflict = value, arg, conflict
            self._scope = _Scope(parent)
            self._number_region(region)
            for block in region.blocks:
                for op in block.ops:
                    for inner in op.regions:
                        stack.append((inner, self._value, self._arg, self._conflict, self._scope))

    # ------------------------------------------------------------- numbering
    def _unique(self, name: str) -> str:
        name = sanitize(name)
        if name in self._scope:
            while True:
                probe = f"{name}_{self._conflict}"
                self._conflict += 1
                if probe not in self._scope:
                    name = probe
                    break
        self._scope.names.add(name)
        return name

    def _set_name(self, value: SSAValue, name: str) -> None:
        if not name:
            self.ids[value] = str(self._value)
            self._value += 1
        else:
            self.ids[value] = self._unique(name)

    def _number_region(self, region: Region) -> None:
        for index, block in enumerate(region.blocks):
            self.blocks[block] = f"bb{index}"
            self.block_ids[block] = index
            self.preds.setdefault(block, [])
        for block in region.blocks:
            if (last := block.last_op) is not None:
                for succ in last.successors:
                    self.preds.setdefault(succ, []).append(block)
        first = region.blocks.first
        parent = region.parent_op()
        named = None
        if parent is not None and first is not None and not self.generic:
            named = block_argument_names(parent, parent.regions.index(region))
            if named is not None and len(named) == len(first.args):
                for arg, name in zip(first.args, named):
                    if arg not in self.ids:
                        self._set_name(arg, name)
        for block in region.blocks:
            entry = block is first
            for arg in block.args:
                if arg in self.ids:
                    continue
                if entry:
                    self._set_name(arg, f"arg{self._arg}")
                    self._arg += 1
                else:
                    self._set_name(arg, "")
            for op in block.ops:
                self._number_op(op)

    def _number_op(self, op: Operation) -> None:
        if not op.results:
            return
        groups = [0]
        if not self.generic:
            for index, name in result_names(op):
                if op.results[index] in self.ids:
                    continue
                self._set_name(op.results[index], name)
                if index:
                    groups.append(index)
        head = op.results[0]
        if head not in self.ids:
            self.ids[head] = str(self._value)
            self._value += 1
        if len(groups) > 1:
            self.groups[op] = sorted(groups)

    # -------------------------------------------------------------- lookups
    def _group_of(self, result: OpResult) -> tuple[int, int]:
        """The first result and size of the group that holds `result`."""
        op = result.op
        count = len(op.results)
        groups = self.groups.get(op)
        if groups is None:
            return 0, count
        start = max(g for g in groups if g <= result.index)
        later = [g for g in groups if g > result.index]
        return start, (later[0] if later else count) - start

    def use(self, value: SSAValue) -> str | None:
        """The text of a use of `value` (without `%`), e.g. `0#1`."""
        if isinstance(value, OpResult) and len(value.op.results) > 1:
            start, size = self._group_of(value)
            head = self.ids.get(value.op.results[start])
            if head is None:
                return None
            return f"{head}#{value.index - start}" if size != 1 else head
        return self.ids.get(value)

    def definition(self, op: Operation) -> str:
        """The result list of `op` as MLIR prints it (`%0:2, %x`)."""
        count = len(op.results)
        starts = self.groups.get(op, [0])
        parts = []
        for i, start in enumerate(starts):
            end = starts[i + 1] if i + 1 < len(starts) else count
            head = self.ids.get(op.results[start], "<<UNKNOWN SSA VALUE>>")
            parts.append(f"%{head}" + (f":{end - start}" if end - start > 1 else ""))
        return ", ".join(parts)


class MLIRStylePrinter(MLIRPrinter):
    """MLIRPrinter with mlir-opt's names, op name prefixes and block comments.
    Names come from `AsmNames` of the op printed first (`print_top_level`)."""

    _names: AsmNames | None = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._dialects: list[str] = ["builtin"]
        self._extra_ids = 0

    # With --mlir-print-debuginfo: the location aliases (`_collecting` while a
    # first, discarded printing meets the locations in MLIR's order).
    _locs: LocAliases | None = None
    _collecting = False

    def print_top_level(self, op: Operation) -> None:
        self._names = AsmNames(op, self.print_generic_format)
        if not self.print_debuginfo:
            super().print_top_level(op)
            return
        scout = MLIRStylePrinter(
            stream=StringIO(), print_generic_format=self.print_generic_format, print_debuginfo=True
        )
        scout._names = self._names
        scout._locs = locs = LocAliases()
        scout._collecting = True
        scout.print_op(op)
        locs.finish()
        self._locs = locs
        for line in locs.definitions(deferred=False):
            self.print_string(line + "\n")
        super().print_top_level(op)
        for line in locs.definitions(deferred=True):
            self.print_string("\n" + line)

    def _print_location(self, loc: Attribute, alias: bool) -> None:
        if self._collecting and self._locs is not None:
            self._locs.visit(loc, deferrable=alias)
        names = self._locs.names if self._locs is not None and not self._collecting else {}
        if alias and loc in names:
            self.print_string(f"loc({names[loc]})")
        else:
            self.print_string(f"loc({location_text(loc)})")

    def print_operation_type(self, op: Operation) -> None:
        self.print_function_type(op.operand_types, op.result_types)
        if self.print_debuginfo:
            self.print_string(" ")
            self._print_location(op.location, alias=True)

    def _ensure_names(self, op: Operation) -> AsmNames:
        if self._names is None:
            self._names = AsmNames(op, self.print_generic_format)
        return self._names

    # ----------------------------------------------------------- values
    def print_ssa_value(self, value: SSAValue) -> str:
        text = self._names.use(value) if self._names is not None else None
        if text is None:
            if value not in self._ssa_values:
                self._ssa_values[value] = f"<<UNKNOWN SSA VALUE>>{self._extra_ids}"
                self._extra_ids += 1
            self.print_string("<<UNKNOWN SSA VALUE>>")
            return "<<UNKNOWN SSA VALUE>>"
        self.print_string(f"%{text}")
        return text

    def _print_results(self, op: Operation) -> None:
        if not op.results:
            return
        assert self._names is not None
        self.print_string(self._names.definition(op) + " = ")

    def print_block_name(self, block: Block) -> str:
        name = self._names.blocks.get(block) if self._names is not None else None
        if name is None:
            return super().print_block_name(block)
        self.print_string(f"^{name}")
        return name

    def print_float(self, value: float, type: AnyFloat) -> None:
        self.print_string(_float_text(value, type, lambda: self._captured_float(value, type)))

    def _captured_float(self, value: float, type: AnyFloat) -> str:
        stream, column = self.stream, self._current_column
        self.stream = StringIO()
        try:
            super().print_float(value, type)
            return self.stream.getvalue()
        finally:
            self.stream, self._current_column = stream, column

    def print_successors(self, successors) -> None:
        # MLIR writes a generic op's successors right after its operands.
        if successors:
            with self.in_square_brackets():
                self.print_list(successors, self.print_block_name)

    # ----------------------------------------------------------- structure
    def print_block(
        self,
        block: Block,
        print_block_args: bool = True,
        print_block_terminator: bool = True,
    ) -> None:
        if print_block_args:
            self._print_new_line()
            self.print_block_name(block)
            if block.args:
                with self.in_parens():
                    self.print_list(block.args, self.print_block_argument)
            self.print_string(":")
            self._print_preds(block)
        with self.indented():
            for op in block.ops:
                if not print_block_terminator and op.has_trait(
                    IsTerminator, value_if_unregistered=False
                ):
                    continue
                self._print_new_line()
                self.print_op(op)

    def _print_preds(self, block: Block) -> None:
        if self._names is None:
            return
        preds = self._names.preds.get(block, [])
        if not preds:
            if block.parent is not None and block is not block.parent.blocks.first:
                self.print_string("  // no predecessors")
            return
        if len(preds) == 1:
            self.print_string(f"  // pred: ^{self._names.blocks[preds[0]]}")
            return
        ordered = sorted(preds, key=lambda b: self._names.block_ids.get(b, 0))
        names = ", ".join(f"^{self._names.blocks[b]}" for b in ordered)
        self.print_string(f"  // {len(preds)} preds: {names}")

    def print_block_argument(self, arg: BlockArgument, print_type: bool = True) -> None:
        self.print_ssa_value(arg)
        if print_type:
            self.print_string(": ")
            self.print_attribute(arg.type)
            if self.print_debuginfo:
                self.print_string(" ")
                self._print_location(arg.location, alias=False)

    def print_region(
        self,
        region: Region,
        print_entry_block_args: bool = True,
        print_empty_block: bool = True,
        print_block_terminators: bool = True,
    ) -> None:
        parent = region.parent_op()
        self._dialects.append(DEFAULT_DIALECTS.get(parent.name, "") if parent else "")
        try:
            with self.in_braces():
                entry = region.blocks.first
                if entry is None:
                    self._print_new_line()
                    return
                show = (bool(entry.args) and print_entry_block_args) or (
                    not entry.ops and print_empty_block
                )
                self.print_block(entry, show, print_block_terminators)
                block = entry.next_block
                while block is not None:
                    self.print_block(block, print_block_terminator=print_block_terminators)
                    block = block.next_block
                self._print_new_line()
        finally:
            self._dialects.pop()

    def print_op(self, op: Operation) -> None:
        self._ensure_names(op)
        if self._collecting and self._locs is not None:
            # MLIR meets an op's location before what the op holds.
            self._locs.visit(op.location, deferrable=True)
        begin = self._current_column
        self._print_results(op)
        if isinstance(op, UnregisteredOp):
            self.print_string(f'"{op.op_name.data}"')
            custom = False
        elif self.print_generic_format or Operation.print is type(op).print:
            self.print_string(f'"{op.name}"')
            custom = False
        else:
            self.print_string(self._short_name(op.name))
            custom = True
        end = self._current_column
        for message in self.diagnostic.op_messages.get(op, ()):
            self._add_message_on_next_line(message, begin, end)
        if isinstance(op, UnregisteredOp):
            op_name = op.op_name
            del op.attributes["op_name__"]
            try:
                self.print_op_with_default_format(op)
            finally:
                op.attributes["op_name__"] = op_name
        elif custom:
            op.print(self)
            if self.print_debuginfo:
                self.print_string(" ")
                self._print_location(op.location, alias=True)
        else:
            self.print_op_with_default_format(op)

    def _short_name(self, name: str) -> str:
        dialect = self._dialects[-1]
        if dialect and name.startswith(dialect + ".") and name.count(".") == 1:
            return name[len(dialect) + 1 :]
        return name


def _float_text(value: float, type: AnyFloat, fallback: Callable[[], str]) -> str:
    """MLIR's printFloatValue: six significant digits in `%e` form where they
    give the value back, else APFloat's shortest text, else the bits in upper
    case hexadecimal (always for infinities and NaNs)."""
    try:
        pack, unpack = type.pack, type.unpack
        type.compile_time_size
    except NotImplementedError:
        return fallback()
    if math.isfinite(value):
        text = exponent_text(value) if value else f"{value:.6e}"
        if unpack(pack([float(text)]), 1)[0] == value:
            return text
        text = apfloat_text(value, type.name)
        if "." in text:
            return text
    raw = pack((value,))
    return "0x" + raw[::-1].hex().upper()


def print_mlir_style(op: Operation, generic: bool = False, debuginfo: bool = False) -> str:
    """`op` printed as mlir-opt 22 prints it (a module with its `#map` aliases)."""
    out = StringIO()
    printer = MLIRStylePrinter(stream=out, print_generic_format=generic, print_debuginfo=debuginfo)
    if isinstance(op, ModuleOp):
        printer.print_top_level(op)
    else:
        printer.print_op(op)
    return out.getvalue()


def mlir_style_text(ctx: Context, module: ModuleOp, generic: bool, debuginfo: bool) -> str:
    """xgpu-opt's output for `module` with --mlir-style (mlir-opt's framing)."""
    out = StringIO()
    printer = MLIRStylePrinter(stream=out, print_generic_format=generic, print_debuginfo=debuginfo)
    printer.print_top_level(module)
    printer.print_metadata(ctx.loaded_dialects)
    out.write("\n\n")
    return out.getvalue()
