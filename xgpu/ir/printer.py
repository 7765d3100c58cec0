"""A printer that writes builtin attributes the way MLIR 22 does where xDSL's
differs: dictionaries print sorted by name; a repeated value name is
uniquified with MLIR's counter; affine maps print without xDSL's extra
parentheses; MLIR elides the default type of an integer (i64) or float (f64)
inside an array (`[1, 2]`, not `[1 : i64, 2 : i64]`) and of an integer
memory space (`memref<4xf32, 3>`, not `memref<4xf32, 3 : i64>`)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from io import StringIO
from operator import attrgetter
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AffineSetAttr,
    AnyFloat,
    ArrayAttr,
    DictionaryAttr,
    Float64Type,
    Float80Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    NoneAttr,
    SymbolRefAttr,
    UnrankedMemRefType,
    f64,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, ParametrizedAttribute, SSAValue
from xdsl.printer import Printer
from xdsl.targets.mlir import MLIRTarget

from xgpu.ir.affine_text import affine_map_text, affine_set_text
from xgpu.ir.fast_print import LINE_TEXTS
from xgpu.ir.nesting import walk_ops
from xgpu.ir.speedups import gc_paused


def _uses_affine_maps(root: Operation) -> bool:
    """Whether an attribute or type in `root` holds an affine map (a quick scan,
    so that modules without maps are printed once)."""
    # The ids of the attributes found to hold no map. By identity: hashing a
    # nested attribute hashes all of it (quadratic in the nesting depth of
    # `[[[...]]]`); the IR keeps them alive meanwhile. The attributes of most
    # ops were all seen before, which one set look-up per op answers.
    clean: set[int] = set()

    def holds(attr: Attribute) -> bool:
        if id(attr) in clean:
            return False
        if isinstance(attr, AffineMapAttr | AffineSetAttr):
            return True
        if isinstance(attr, ArrayAttr):
            found = any(holds(a) for a in attr.data)
        elif isinstance(attr, DictionaryAttr):
            found = any(holds(a) for a in attr.data.values())
        elif isinstance(attr, ParametrizedAttribute):
            found = any(isinstance(p, Attribute) and holds(p) for p in attr.parameters)
        else:
            found = False
        if not found:
            clean.add(id(attr))
        return found

    for op in walk_ops(root):
        attrs = (
            *op.attributes.values(),
            *op.properties.values(),
            *map(_type_of, op.results),
        )
        if not clean.issuperset(map(id, attrs)) and any(holds(a) for a in attrs):
            return True
        for region in op.regions:
            for block in region.blocks:
                if any(holds(arg.type) for arg in block.args):
                    return True
    return False


_type_of = attrgetter("type")


def _generic_alias_order(op: Operation) -> list[Attribute]:
    """The affine maps and sets of `op`, in the order in which MLIR meets them
    when it collects the aliases of generic output."""
    found: dict[Attribute, None] = {}
    memo: set[int] = set()

    def visit(attr: Attribute) -> None:
        if id(attr) in memo:
            return
        memo.add(id(attr))
        if isinstance(attr, AffineMapAttr | AffineSetAttr):
            found.setdefault(attr, None)
        elif isinstance(attr, ArrayAttr):
            for a in attr.data:
                visit(a)
        elif isinstance(attr, DictionaryAttr):
            for _, a in sorted(attr.data.items()):
                visit(a)
        elif isinstance(attr, ParametrizedAttribute):
            for p in attr.parameters:
                if isinstance(p, Attribute):
                    visit(p)

    def visit_op(op: Operation) -> None:
        for region in op.regions:
            for block in region.blocks:
                for arg in block.args:
                    visit(arg.type)
                for inner in block.ops:
                    visit_op(inner)
        for t in (*op.operand_types, *op.result_types):
            visit(t)
        for _, a in sorted(op.properties.items()):
            visit(a)
        for _, a in sorted(op.attributes.items()):
            visit(a)

    visit_op(op)
    return list(found)


def _print_elided(printer: Printer, attr: Attribute) -> bool:
    """Print `attr` without its type if MLIR would elide it; True if printed."""
    if isinstance(attr, IntegerAttr) and attr.type == i64:
        attr.print_without_type(printer)
        return True
    if isinstance(attr, FloatAttr) and attr.type == f64:
        attr.print_without_type(printer)
        return True
    return False


class MLIRPrinter(Printer):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # MLIR uniquifies a repeated name with one counter for all names of an
        # isolated scope, from 0 (`%x`, `%x_0`, `%y`, `%y_1`); xDSL counts per name.
        self._conflict_ids: list[int] = [0]

    def enter_scope(self) -> None:
        super().enter_scope()
        self._conflict_ids.append(0)

    def exit_scope(self) -> None:
        super().exit_scope()
        self._conflict_ids.pop()

    def print_op(self, op: Operation) -> None:
        if not op.regions:
            if not self._print_line(op):
                super().print_op(op)
            return
        # As in MLIR, a name is taken only within its region: the names of an
        # op's block arguments (even those its custom syntax prints before the
        # body) and nested values are free again after the op; sibling regions
        # reuse them without a suffix.
        used = self.ssa_names
        before = set(used)
        super().print_op(op)
        # (A packed group `%x:2` keeps its name `x`, its values being `x#0`...)
        results = {self._ssa_values.get(r, "").split("#")[0] for r in op.results}
        for name in [n for n in used if n not in before and n not in results]:
            del used[name]

    def _print_results(self, op: Operation) -> None:
        # MLIR prints a run of results that share a name (a variadic group such
        # as `%bufferSzs`) or that have none (numbered) as one group, `%0:2`,
        # used as `%0#1`; xDSL names each result.
        groups: list[list[SSAValue]] = []
        for result in op.results:
            if (
                groups
                and result not in self._ssa_values
                and groups[-1][-1] not in self._ssa_values
                and result.name_hint == groups[-1][-1].name_hint
            ):
                groups[-1].append(result)
            else:
                groups.append([result])
        if all(len(group) == 1 for group in groups):
            return super()._print_results(op)
        for i, group in enumerate(groups):
            if i:
                self.print_string(", ")
            if len(group) == 1:
                self.print_ssa_value(group[0])
                continue
            name = self.print_ssa_value(group[0])
            self.print_string(f":{len(group)}")
            for j, result in enumerate(group):
                self._ssa_values[result] = f"{name}#{j}"
        self.print_string(" = ")

    def print_ssa_value(self, value: SSAValue) -> str:
        if value in self._ssa_values or not value.name_hint:
            return super().print_ssa_value(value)
        name = self._name_from_hint(value)
        self.print_string(f"%{name}")
        return name

    def _name_from_hint(self, value: SSAValue) -> str:
        """Give `value`, not yet named, its name hint (uniquified)."""
        used = self.ssa_names
        name = value.name_hint
        assert name is not None
        while name in used:
            name = f"{value.name_hint}_{self._conflict_ids[-1]}"
            self._conflict_ids[-1] += 1
        used[name] = 1
        self._ssa_values[value] = name
        return name

    def _print_line(self, op: Operation) -> bool:
        """Print `op` (no regions) as one string when its class gives the text
        after its name (`fast_print.LINE_TEXTS`) and it has no result or one
        with a name hint: what `print_op` would write, in one write."""
        text = self._line_text(op)
        if text is None:
            return False
        self.print_string(text)
        return True

    def _line_text(self, op: Operation) -> str | None:
        """The line `_print_line` writes for `op` (its result named), or None."""
        text_of = LINE_TEXTS.get(type(op))
        if text_of is None or self.print_generic_format or self.print_debuginfo:
            return None
        results = op.results
        messages = self.diagnostic.op_messages
        if len(results) > 1 or (messages and op in messages):
            return None
        if results and (results[0] in self._ssa_values or not results[0].name_hint):
            return None
        text = text_of(op, self)
        if text is None:
            return None
        if results:
            return f"%{self._name_from_hint(results[0])} = {op.name}{text}"
        return f"{op.name}{text}"

    def print_block(
        self, block: Block, print_block_args: bool = True, print_block_terminator: bool = True
    ) -> None:
        # The ops that print as one line (`_line_text`), thousands in a row in
        # a host program, are written together: each line as `print_block`'s
        # new line and `print_op` would write it.
        if (
            print_block_args
            or not print_block_terminator
            or type(self).print_op is not MLIRPrinter.print_op
        ):
            super().print_block(block, print_block_args, print_block_terminator)
            return
        with self.indented():
            lines: list[str] = []
            for op in block.ops:
                if not op.regions and not self._next_line_callback:
                    text = self._line_text(op)
                    if text is not None and "\n" not in text:
                        lines.append(text)
                        continue
                    self._write_lines(lines)
                    self._print_new_line()
                    if text is not None:  # (its result is named: print the text as is)
                        self.print_string(text)
                    else:  # what `print_op` does then
                        super().print_op(op)
                    continue
                self._write_lines(lines)
                self._print_new_line()
                self.print_op(op)
            self._write_lines(lines)

    def _write_lines(self, lines: list[str]) -> None:
        """What `_print_new_line` then `print_string(line)` write for each of
        `lines` (one-line texts; no callback waits for a new line); empties it."""
        if not lines:
            return
        indent = " " * (self._indent * self.indent_num_spaces)
        separator = "\n" + indent
        self._write(separator + separator.join(lines))
        self._current_line += len(lines)
        self._current_column = len(indent) + len(lines[-1])
        lines.clear()

    def print_float(self, value: float, type: AnyFloat) -> None:
        # xDSL cannot pack f80 and f128 (its float printer round-trips through
        # bytes): their values, Python floats, print as f64 would.
        try:
            type.compile_time_size
        except NotImplementedError:
            if math.isnan(value) or math.isinf(value):
                self.print_string(_wide_float_bits(value, type))
            else:
                super().print_float(value, Float64Type())
            return
        super().print_float(value, type)

    def print_attr_dict(self, attr_dict: Mapping[str, Attribute]) -> None:
        # An MLIR dictionary (attributes, properties, a dictionary attribute) is
        # kept sorted by name, and prints so.
        super().print_attr_dict(dict(sorted(attr_dict.items())))

    # Affine map aliases (`#map`, `#map1`, ...), as MLIR prints a module:
    # `_aliases` names the maps; `_seen_maps` collects them in printing order.
    _aliases: dict[AffineMapAttr | AffineSetAttr, str] | None = None
    _seen_maps: dict[AffineMapAttr | AffineSetAttr, None] | None = None

    def print_top_level(self, op: Operation) -> None:
        """Print `op` with MLIR's alias definitions before it: each affine map it
        uses is defined once as `#mapN = affine_map<...>` and referred to by name.
        As MLIR does, a first printing (discarded) finds the maps in the order
        in which they are printed."""
        if not _uses_affine_maps(op):
            self.print_op(op)
            return
        scout = MLIRPrinter(
            stream=StringIO(),
            print_generic_format=self.print_generic_format,
            print_properties_as_attributes=self.print_properties_as_attributes,
            print_debuginfo=self.print_debuginfo,
        )
        scout._seen_maps = {}
        if self.print_generic_format:
            # MLIR looks for aliases in a generic op's regions first, then in its
            # types, properties and attributes.
            for attr in _generic_alias_order(op):
                scout._seen_maps[attr] = None
        else:
            scout.print_op(op)
        # MLIR names maps `#map`, `#map1`, ... and integer sets `#set`, ...,
        # and defines all the maps first.
        seen = list(scout._seen_maps)
        maps = [a for a in seen if isinstance(a, AffineMapAttr)]
        sets = [a for a in seen if isinstance(a, AffineSetAttr)]
        self._aliases = {}
        for i, amap in enumerate(maps):
            self.print_string(f"#map{i or ''} = affine_map<{affine_map_text(amap.data)}>\n")
            self._aliases[amap] = f"#map{i or ''}"
        for i, aset in enumerate(sets):
            self.print_string(f"#set{i or ''} = affine_set<{affine_set_text(aset.data)}>\n")
            self._aliases[aset] = f"#set{i or ''}"
        try:
            self.print_op(op)
        finally:
            self._aliases = None

    # Types and symbol references repeat on every line of a host program: each
    # is rendered once per printer (never while collecting affine maps).
    _attribute_texts: dict[Attribute, str] | None = None

    def print_attribute(self, attribute: Attribute) -> None:
        if getattr(attribute, "name", None) in _REPEATED_ATTRIBUTES and self._seen_maps is None:
            texts = self._attribute_texts
            if texts is None:
                texts = self._attribute_texts = {}
            text = texts.get(attribute)
            if text is None:
                stream, line, column = self.stream, self._current_line, self._current_column
                self.stream = StringIO()
                try:
                    self._print_attribute(attribute)
                    text = texts[attribute] = self.stream.getvalue()
                finally:
                    self.stream, self._current_line = stream, line
                    self._current_column = column
            self.print_string(text)
            return
        self._print_attribute(attribute)

    def _print_attribute(self, attribute: Attribute) -> None:
        if isinstance(attribute, AffineMapAttr):
            if self._aliases is not None and attribute in self._aliases:
                self.print_string(self._aliases[attribute])
                return
            if self._seen_maps is not None:
                self._seen_maps[attribute] = None
            self.print_string(f"affine_map<{affine_map_text(attribute.data)}>")
            return
        if isinstance(attribute, AffineSetAttr):
            if self._aliases is not None and attribute in self._aliases:
                self.print_string(self._aliases[attribute])
                return
            if self._seen_maps is not None:
                self._seen_maps[attribute] = None
            self.print_string(f"affine_set<{affine_set_text(attribute.data)}>")
            return
        if isinstance(attribute, ArrayAttr):
            with self.in_square_brackets():
                self.print_list(
                    attribute.data,
                    lambda a: _print_elided(self, a) or self.print_attribute(a),
                )
            return
        if isinstance(attribute, MemRefType) and isinstance(attribute.memory_space, IntegerAttr):
            self.print_string("memref<")
            if attribute.shape.data:
                self.print_dimension_list(attribute.get_shape())
                self.print_string("x")
            self.print_attribute(attribute.element_type)
            if not isinstance(attribute.layout, NoneAttr):
                self.print_string(", ")
                self.print_attribute(attribute.layout)
            self.print_string(", ")
            if not _print_elided(self, attribute.memory_space):
                self.print_attribute(attribute.memory_space)
            self.print_string(">")
            return
        if isinstance(attribute, UnrankedMemRefType) and isinstance(
            attribute.memory_space, IntegerAttr
        ):
            self.print_string("memref<*x")
            self.print_attribute(attribute.element_type)
            self.print_string(", ")
            if not _print_elided(self, attribute.memory_space):
                self.print_attribute(attribute.memory_space)
            self.print_string(">")
            return
        super().print_attribute(attribute)


# The attributes printed once per module and then copied (by name, so that the
# gpu dialect's types need not be imported to print a module without them).
_REPEATED_ATTRIBUTES = frozenset(
    {MemRefType.name, SymbolRefAttr.name, IndexType.name, IntegerType.name, "gpu.async.token"}
)


@dataclass(frozen=True)
class XGpuMLIRTarget(MLIRTarget):
    """xdsl-opt's `mlir` target, printing with `MLIRPrinter`."""

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        if self.syntax_highlight:
            return super().emit(ctx, module, output)
        printer = MLIRPrinter(
            stream=output,
            print_generic_format=self.print_generic_format,
            print_properties_as_attributes=self.print_properties_as_attributes,
            print_debuginfo=self.print_debuginfo,
        )
        with gc_paused():
            printer.print_top_level(module)
        printer.print_metadata(ctx.loaded_dialects)
        print("\n", file=output)


def print_mlir(op: Operation, generic: bool = False) -> str:
    """`op` as xgpu-opt prints it (custom form, or generic with `generic=True`): a
    module with MLIR's `#map` aliases, any other op with its maps inline."""
    out = StringIO()
    printer = MLIRPrinter(stream=out, print_generic_format=generic)
    if isinstance(op, ModuleOp):
        printer.print_top_level(op)
    else:
        printer.print_op(op)
    return out.getvalue()


def attribute_text(attr: Attribute) -> str:
    """`attr` (or a type) as MLIR prints it inside a diagnostic."""
    out = StringIO()
    MLIRPrinter(stream=out).print_attribute(attr)
    return out.getvalue()


def _wide_float_bits(value: float, type: Attribute) -> str:
    """MLIR's hex form of an f80 or f128 infinity or NaN."""
    sign = math.copysign(1.0, value) < 0
    if isinstance(type, Float80Type):
        bits = (0x7FFF << 64) | ((0xC << 60) if math.isnan(value) else (0x8 << 60))
        bits |= (1 << 79) if sign else 0
        return f"0x{bits:020X}"
    bits = (0x7FFF << 112) | ((1 << 111) if math.isnan(value) else 0)
    bits |= (1 << 127) if sign else 0
    return f"0x{bits:032X}"
