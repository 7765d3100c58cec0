"""`gpu-kernel-outlining`: move the body of each `gpu.launch` into a kernel.

The output is the one mlir-opt 22 produces (checked op for op, see
docs/passes/gpu-kernel-outlining.md). For every top-level op of the module
that is a named symbol (`func.func`, `llvm.func`, `gpu.module`, a named
`builtin.module`, ... including the gpu.modules this pass inserts, which are
visited in turn), its `gpu.launch` ops are outlined in a post-order walk
(nested launches first):

1. the kernel is a `gpu.func` named `<symbol>_kernel` after the closest
   enclosing named symbol, or as the launch's `function(@f)`; it has the
   `kernel` unit attribute, one argument per value the body uses from above
   (first-use order, `used_values_defined_above`), the launch's workgroup and
   private attributions, and `known_block_size` / `known_grid_size`
   (`array<i32: x, y, z>`) when all three sizes are integer constants no larger
   than 2^32 - 1 (the unsigned value, as an i32: 3000000000 gives -1294967296);
2. its entry block computes the 12 ids and sizes (`gpu.block_id`,
   `gpu.thread_id`, `gpu.grid_dim`, `gpu.block_dim`, each x, y, z), then, with
   clusters, `gpu.cluster_id` and `gpu.cluster_dim`, all kept even when
   unused; the launch's entry block follows in the same block and its other
   blocks follow as blocks (there is no `cf.br`: MLIR 22 splices the entry
   block); each `gpu.terminator` ending a block becomes `gpu.return`;
3. the kernel goes into a new `gpu.module` named after it, or into the
   launch's `module(@m)` when a `gpu.module @m` is a top-level symbol already
   (otherwise a new module named `m` is made); a name already taken is made
   unique as MLIR's SymbolTable does: `_0`, `_1`, ... with one counter for all
   the modules of the pass run, and a counter for the kernel names of each
   module. A new module goes right after the symbol holding the launch (after
   the modules inserted before it for the same symbol);
4. every symbol the kernel references (leaf name of the reference), and the
   ones those reference in turn, that the module does not have yet, is copied
   into it from the top-level module (a depth-first worklist, as MLIR);
   `data_layout_str` (a `#dlti.dl_spec<...>`) is set as `dlti.dl_spec` on the
   module;
5. the launch becomes `gpu.launch_func @module::@kernel` with the same sizes,
   clusters, dynamic shared memory size, async dependencies and token, and the
   captured values as kernel operands; the top module gets
   `gpu.container_module` when anything was outlined.

mlir-opt 22 crashes when a referenced symbol is not a top-level symbol of the
module (for instance `@inner::@k` of an already outlined nested launch with a
module name of its own); this pass reports an error at the launch instead.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
    UnregisteredOp,
    i32,
)
from xdsl.ir import Attribute, Block, Operation, ParametrizedAttribute, Region, SSAValue
from xdsl.parser import Parser
from xdsl.passes import ModulePass
from xdsl.traits import SymbolOpInterface, SymbolTable
from xdsl.utils.exceptions import DiagnosticException

from xgpu import diagnostics
from xgpu.dialects.gpu.func import GPUFuncOp, ReturnOp
from xgpu.dialects.gpu.kernel import (
    BlockDimOp,
    BlockIdOp,
    ClusterDimOp,
    ClusterIdOp,
    GridDimOp,
    ThreadIdOp,
)
from xgpu.dialects.gpu.launch import LaunchOp, TerminatorOp
from xgpu.dialects.gpu.launch_func import CONTAINER_MODULE_ATTR, LaunchFuncOp
from xgpu.dialects.gpu.module import GPUModuleOp
from xgpu.transforms.constants import constant_value
from xgpu.transforms.sink_index_computations import (
    launch_ops_post_order,
    used_values_defined_above,
)

DATA_LAYOUT_ATTR = "dlti.dl_spec"
_UINT32_MAX = (1 << 32) - 1


class OutliningError(Exception):
    """A launch that cannot be outlined (reported at `op`)."""

    def __init__(self, op: Operation, message: str):
        super().__init__(message)
        self.op = op
        self.message = message


# ---------------------------------------------------------------------------
# Symbols, as MLIR's SymbolTable
# ---------------------------------------------------------------------------


def symbol_name(op: Operation) -> str | None:
    """The `sym_name` of `op` (property or attribute), or None."""
    sym = op.properties.get("sym_name") or op.attributes.get("sym_name")
    return sym.data if isinstance(sym, StringAttr) else None


def _set_symbol_name(op: Operation, name: str) -> None:
    if "sym_name" in op.properties:
        op.properties["sym_name"] = StringAttr(name)
    else:
        op.attributes["sym_name"] = StringAttr(name)


def _is_named_symbol(op: Operation) -> bool:
    """MLIR's `isa<SymbolOpInterface>`: a symbol op that has a name."""
    return (
        not isinstance(op, UnregisteredOp)
        and op.has_trait(SymbolOpInterface)
        and symbol_name(op) is not None
    )


def _is_symbol_table(op: Operation) -> bool:
    return not isinstance(op, UnregisteredOp) and (
        op.has_trait(SymbolTable) or op.name in ("builtin.module", "gpu.module")
    )


class SymbolTableView:
    """The symbols of a symbol-table op's body with MLIR's insertion and renaming."""

    def __init__(self, table_op: Operation):
        self.block: Block = table_op.regions[0].blocks[0]
        self.symbols: dict[str, Operation] = {}
        self.counter = 0
        for op in self.block.ops:
            if (name := symbol_name(op)) is not None:
                self.symbols.setdefault(name, op)

    def lookup(self, name: str) -> Operation | None:
        return self.symbols.get(name)

    def insert(self, op: Operation, before: Operation | None = None) -> str:
        """Insert `op` (before `before`, else at the end) unless it is in the
        body already; rename it `<name>_<counter>` if its name is taken."""
        if op.parent is None:
            if before is not None and before.parent is self.block:
                self.block.insert_op_before(op, before)
            else:
                self.block.add_op(op)
        name = symbol_name(op)
        assert name is not None
        existing = self.symbols.get(name)
        if existing is None:
            self.symbols[name] = op
            return name
        if existing is op:
            return name
        while True:
            candidate = f"{name}_{self.counter}"
            self.counter += 1
            if candidate not in self.symbols:
                break
        _set_symbol_name(op, candidate)
        self.symbols[candidate] = op
        return candidate


def _attribute_symbol_refs(attr: Attribute, out: list[SymbolRefAttr]) -> None:
    """The symbol references in `attr`, pre-order, nested references not walked."""
    if isinstance(attr, SymbolRefAttr):
        out.append(attr)
    elif isinstance(attr, ArrayAttr):
        for element in attr.data:
            _attribute_symbol_refs(element, out)
    elif isinstance(attr, DictionaryAttr):
        for key in sorted(attr.data):
            _attribute_symbol_refs(attr.data[key], out)
    elif isinstance(attr, ParametrizedAttribute):
        for param in attr.parameters:
            if isinstance(param, Attribute):
                _attribute_symbol_refs(param, out)


def _op_symbol_refs(op: Operation, out: list[SymbolRefAttr]) -> None:
    """Symbol references in the op's attribute dictionary (inherent and
    discardable attributes together, sorted by name, as MLIR walks them)."""
    merged = {**op.attributes, **op.properties}
    for key in sorted(merged):
        _attribute_symbol_refs(merged[key], out)


def symbol_uses(op: Operation, ctx: Context) -> list[SymbolRefAttr] | None:
    """The symbol references of `op` and of the ops nested in it, not inside
    nested symbol tables, in MLIR's order (`SymbolTable::getSymbolUses`: the
    op's own, then region by region, each region's ops before the regions nested
    in them, the last pushed region first). None when an op might be an unknown
    symbol table (an op of an unregistered dialect with one region)."""

    def unknown(o: Operation) -> bool:
        if not isinstance(o, UnregisteredOp) or len(o.regions) != 1:
            return False
        dialect = o.op_name.data.split(".", 1)[0]
        return dialect not in ctx.registered_dialect_names

    if unknown(op):
        return None
    out: list[SymbolRefAttr] = []
    _op_symbol_refs(op, out)
    if _is_symbol_table(op):
        return out
    worklist: list[Region] = list(op.regions)
    while worklist:
        region = worklist.pop()
        for block in region.blocks:
            for nested in block.ops:
                if unknown(nested):
                    return None
                _op_symbol_refs(nested, out)
                if not _is_symbol_table(nested):
                    worklist.extend(nested.regions)
    return out


def _leaf_name(ref: SymbolRefAttr) -> str:
    nested = ref.nested_references.data
    return nested[-1].data if nested else ref.root_reference.data


# ---------------------------------------------------------------------------
# Outlining one launch
# ---------------------------------------------------------------------------


def _constant_dims(values: tuple[SSAValue, SSAValue, SSAValue]) -> DenseArrayBase | None:
    """`array<i32: x, y, z>` when the three values are integer constants that
    fit in 32 unsigned bits (MLIR's `maybeConstantDimsAttr`)."""
    dims: list[int] = []
    for value in values:
        owner = value.owner
        if not isinstance(owner, Operation):
            return None
        attr = constant_value(owner)
        if not isinstance(attr, IntegerAttr):
            return None
        width = getattr(value.type, "width", None)
        bits = width.data if width is not None else 64
        unsigned = attr.value.data & ((1 << bits) - 1)
        if unsigned > _UINT32_MAX:
            return None
        dims.append(unsigned - (1 << 32) if unsigned >= (1 << 31) else unsigned)
    return DenseArrayBase.from_list(i32, dims)


def _index_ops(launch: LaunchOp) -> list[Operation]:
    """The ops re-materializing the launch's ids and sizes in the kernel."""
    kinds: list[type[Operation]] = [BlockIdOp, ThreadIdOp, GridDimOp, BlockDimOp]
    if launch.has_cluster_size:
        kinds += [ClusterIdOp, ClusterDimOp]
    ops: list[Operation] = []
    for kind in kinds:
        for dim in ("x", "y", "z"):
            op = kind(dim)  # pyright: ignore[reportCallIssue]
            op.location = launch.location
            ops.append(op)
    return ops


def _replace_all_uses(value: SSAValue, new: SSAValue) -> None:
    """Like `replace_all_uses_with`, without passing the name hint on."""
    for use in tuple(value.uses):
        use.operation.operands[use.index] = new


def outline_kernel_func(launch: LaunchOp, name: str) -> tuple[GPUFuncOp, list[SSAValue]]:
    """A detached `gpu.func @name` holding a copy of `launch`'s body, and the
    values it takes as arguments (MLIR's `outlineKernelFunc`). The launch is
    not changed."""
    body = launch.body
    operands = used_values_defined_above(body)
    func = GPUFuncOp(
        name,
        [v.type for v in operands],
        kernel=True,
        workgroup_attributions=[a.type for a in launch.workgroup_attribution_args],
        private_attributions=[a.type for a in launch.private_attribution_args],
        known_block_size=_constant_dims(launch.block_size_operands),
        known_grid_size=_constant_dims(launch.grid_size_operands),
    )
    func.location = launch.location
    entry = func.body.block
    for arg in entry.args:  # MLIR builds the function's arguments at the launch
        arg.location = launch.location
    index_ops = _index_ops(launch)
    entry.add_ops(index_ops)

    # Copy the body with the captured values mapped to the arguments.
    mapping: dict[SSAValue, SSAValue] = {v: entry.args[i] for i, v in enumerate(operands)}
    copy = Region()
    body.clone_into(copy, None, mapping, {})
    launch_entry = copy.blocks.first
    assert launch_entry is not None
    replacements: list[SSAValue] = [op.results[0] for op in index_ops]
    replacements += func.workgroup_attribution_args
    replacements += func.private_attribution_args
    for arg, new in zip(launch_entry.args, replacements, strict=True):
        _replace_all_uses(arg, new)
    for arg in reversed(launch_entry.args):
        launch_entry.erase_arg(arg)

    # gpu.terminator ending a block -> gpu.return.
    for block in copy.blocks:
        last = block.last_op
        if isinstance(last, TerminatorOp):
            ret = ReturnOp()
            ret.location = last.location
            block.insert_op_before(ret, last)
            block.erase_op(last)

    # The launch's entry block continues the kernel's entry block.
    for op in list(launch_entry.ops):
        op.detach()
        entry.add_op(op)
    copy.detach_block(launch_entry).erase()
    copy.move_blocks(func.body)
    return func, operands


@dataclass(frozen=True)
class GpuKernelOutliningPass(ModulePass):
    """Outline the body of each `gpu.launch` into a `gpu.func` of a `gpu.module`
    and launch it with `gpu.launch_func` (MLIR's `gpu-kernel-outlining`).

    `data_layout_str` (`-p 'gpu-kernel-outlining{data-layout-str="#dlti.dl_spec<...>"}'`):
    a data layout specification set as `dlti.dl_spec` on the kernel modules.
    """

    name = "gpu-kernel-outlining"

    data_layout_str: str = ""

    def _data_layout(self, ctx: Context) -> Attribute | None:
        if not self.data_layout_str:
            return None
        try:
            attr = Parser(ctx, self.data_layout_str, "data-layout-str").parse_attribute()
        except Exception as err:
            raise DiagnosticException(
                f"gpu-kernel-outlining: data-layout-str '{self.data_layout_str}' does not parse"
            ) from err
        # xgpu's #dlti.dl_spec (xgpu.dialects.dlti) or xDSL's.
        if attr.name != "dlti.dl_spec":
            raise DiagnosticException(
                f"gpu-kernel-outlining: data-layout-str '{self.data_layout_str}' is not a "
                "data layout specification (#dlti.dl_spec<...>)"
            )
        return attr

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        outliner = _Outliner(ctx, op, self._data_layout(ctx))
        try:
            outliner.run()
        except OutliningError as err:
            diagnostics.emit(err.op, "error", err.message)


class _Outliner:
    def __init__(self, ctx: Context, module: ModuleOp, data_layout: Attribute | None):
        self.ctx = ctx
        self.module = module
        self.data_layout = data_layout
        self.table = SymbolTableView(module)

    def _top_level_symbols(self) -> Iterator[Operation]:
        """The module's named symbols, including those inserted meanwhile."""
        op = self.module.body.block.first_op
        while op is not None:
            if _is_named_symbol(op):
                yield op
            op = op.next_op

    def run(self) -> None:
        modified = False
        try:
            for symbol in self._top_level_symbols():
                insert_before = symbol.next_op
                for launch in launch_ops_post_order(symbol):
                    self.outline(launch, insert_before)
                    modified = True
        finally:
            # Also after an error, so that the launches outlined so far verify.
            if modified:
                self.module.attributes[CONTAINER_MODULE_ATTR] = UnitAttr()

    def outline(self, launch: LaunchOp, insert_before: Operation | None) -> None:
        if launch.kernel_func is not None:
            name = launch.kernel_func.root_reference.data
        else:
            parent = launch.parent_op()
            while parent is not None and not _is_named_symbol(parent):
                parent = parent.parent_op()
            assert parent is not None  # the walked symbol at least
            name = f"{symbol_name(parent)}_kernel"
        func, operands = outline_kernel_func(launch, name)
        kernel_module = self.kernel_module(launch, func)
        self.table.insert(kernel_module, insert_before)
        self.replace_by_launch_func(launch, func, kernel_module, operands)

    def kernel_module(self, launch: LaunchOp, func: GPUFuncOp) -> GPUModuleOp:
        """The gpu.module receiving `func` (and the symbols it uses)."""
        module: GPUModuleOp | None = None
        if launch.kernel_module is not None:
            module_name = launch.kernel_module.root_reference.data
            existing = self.table.lookup(module_name)
            if isinstance(existing, GPUModuleOp):
                module = existing
        else:
            module_name = func.sym_name.data
        if module is None:
            module = GPUModuleOp(module_name)
            module.location = func.location

        table = SymbolTableView(module)
        table.insert(func)
        added: list[Operation] = [func]
        worklist: list[Operation] = [func]
        while worklist:
            uses = symbol_uses(worklist.pop(), self.ctx)
            for ref in uses or ():
                name = _leaf_name(ref)
                if table.lookup(name) is not None:
                    continue
                definition = self.table.lookup(name)
                if definition is None:
                    # Leave the IR as it was before this launch.
                    for op in added:
                        if op.parent is not None:
                            op.detach()
                        op.erase()
                    raise OutliningError(
                        launch,
                        f"cannot outline: the kernel uses symbol '@{name}', which is not "
                        "defined at the top level of the module",
                    )
                clone = definition.clone()
                worklist.append(clone)
                table.insert(clone)
                added.append(clone)
        if self.data_layout is not None:
            module.attributes[DATA_LAYOUT_ATTR] = self.data_layout
        return module

    @staticmethod
    def replace_by_launch_func(
        launch: LaunchOp, func: GPUFuncOp, module: GPUModuleOp, operands: list[SSAValue]
    ) -> None:
        launch_func = LaunchFuncOp(
            SymbolRefAttr(module.sym_name.data, [func.sym_name.data]),
            launch.grid_size_operands,
            launch.block_size_operands,
            args=operands,
            deps=launch.async_dependencies,
            is_async=launch.async_token is not None,
            cluster=launch.cluster_size_operands,
            dynamic_shared_memory_size=launch.dynamic_shared_memory_size,
        )
        launch_func.location = launch.location
        block = launch.parent
        assert block is not None
        block.insert_op_before(launch_func, launch)
        if launch.async_token is not None and launch_func.async_token is not None:
            _replace_all_uses(launch.async_token, launch_func.async_token)
        block.erase_op(launch)
