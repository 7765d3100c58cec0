"""gpu.launch and gpu.terminator.

`gpu.launch` runs its body region as a kernel on a grid of thread blocks (and,
optionally, of block clusters). The body's entry block has, in this order:
block ids (3), thread ids (3), grid sizes (3), block sizes (3), then, with
clusters, cluster ids (3) and cluster sizes (3), then the workgroup memory
attributions and last the private memory attributions. The number of workgroup
attributions is kept, as in MLIR 22, in the discardable attribute
`workgroup_attributions` (i64).

Custom syntax (MLIR 22):

    gpu.launch (async ([%deps])?)?
        (clusters(%cx, %cy, %cz) in (%csx = %v, %csy = %v, %csz = %v))?
        blocks(%bx, %by, %bz) in (%gx = %v, %gy = %v, %gz = %v)
        threads(%tx, %ty, %tz) in (%sx = %v, %sy = %v, %sz = %v)
        (dynamic_shared_memory_size %s)? (module(@m))? (function(@f))?
        (workgroup(%w : T, ...))? (private(%p : T, ...))? region attr-dict

Every block of the body that ends in an op without successors must end in
`gpu.terminator`; there is no implicit terminator.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    FlatSymbolRefAttrConstr,
    IndexType,
    IntegerAttr,
    StringAttr,
    SymbolRefAttr,
    UnregisteredOp,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
    region_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import (
    HasCanonicalizationPatternsTrait,
    IsTerminator,
    Pure,
    RecursiveMemoryEffect,
)
from xdsl.utils.exceptions import VerifyException

from xgpu.diagnostics import OpDiagnostic
from xgpu.dialects.gpu.async_interface import AsyncOpInterface, async_token_types
from xgpu.dialects.gpu.attributes import AddressSpace, verify_attributions
from xgpu.dialects.gpu.types import AsyncTokenType
from xgpu.dialects.gpu.utils import HasParentWithMLIRMessage
from xgpu.ir.region_checks import RegionVerifier

NUM_CONFIG_ARGS = 12
"""Entry-block arguments for block/thread ids and grid/block sizes."""
NUM_CLUSTER_ARGS = 6
"""Extra entry-block arguments for cluster ids and sizes."""

WORKGROUP_ATTRIBUTIONS = "workgroup_attributions"
_SEGMENTS = "operandSegmentSizes"

Dim3 = tuple[SSAValue, SSAValue, SSAValue]


def _symbol_ref(sym: str | StringAttr | SymbolRefAttr | None) -> SymbolRefAttr | None:
    if sym is None or isinstance(sym, SymbolRefAttr):
        return sym
    return SymbolRefAttr(sym)


class _LaunchCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls):
        from xgpu.transforms.canonicalization.gpu_launch import launch_patterns

        return launch_patterns()


@irdl_op_definition
class LaunchOp(AsyncOpInterface, RegionVerifier, IRDLOperation):
    """`gpu.launch`: launch the body region as a kernel on a grid of blocks."""

    name = "gpu.launch"

    async_dependencies = var_operand_def(AsyncTokenType)
    grid_size_x = operand_def(IndexType)
    grid_size_y = operand_def(IndexType)
    grid_size_z = operand_def(IndexType)
    block_size_x = operand_def(IndexType)
    block_size_y = operand_def(IndexType)
    block_size_z = operand_def(IndexType)
    cluster_size_x = opt_operand_def(IndexType)
    cluster_size_y = opt_operand_def(IndexType)
    cluster_size_z = opt_operand_def(IndexType)
    dynamic_shared_memory_size = opt_operand_def(i32)

    async_token = opt_result_def(AsyncTokenType)

    body = region_def()

    kernel_module = opt_prop_def(FlatSymbolRefAttrConstr, prop_name="module")
    kernel_func = opt_prop_def(FlatSymbolRefAttrConstr, prop_name="function")

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    traits = traits_def(RecursiveMemoryEffect(), _LaunchCanonicalization())

    def __init__(
        self,
        grid: Sequence[SSAValue | Operation],
        block: Sequence[SSAValue | Operation],
        cluster: Sequence[SSAValue | Operation] | None = None,
        deps: Sequence[SSAValue | Operation] = (),
        is_async: bool = False,
        dynamic_shared_memory_size: SSAValue | Operation | None = None,
        workgroup_attributions: Sequence[Attribute] = (),
        private_attributions: Sequence[Attribute] = (),
        kernel_module: str | StringAttr | SymbolRefAttr | None = None,
        kernel_func: str | StringAttr | SymbolRefAttr | None = None,
        body: Region | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        """Build a launch. Without `body`, the body is one empty block with the
        entry arguments (ids, sizes, attributions): add the kernel ops and a
        `TerminatorOp` to it."""
        if len(grid) != 3 or len(block) != 3 or (cluster is not None and len(cluster) != 3):
            raise ValueError("grid, block and cluster sizes must have 3 values each")
        if body is None:
            arg_types: list[Attribute] = [IndexType()] * (
                NUM_CONFIG_ARGS + (NUM_CLUSTER_ARGS if cluster is not None else 0)
            )
            arg_types += [*workgroup_attributions, *private_attributions]
            body = Region(Block(arg_types=arg_types))
        attrs = dict(attributes or {})
        attrs[WORKGROUP_ATTRIBUTIONS] = IntegerAttr(len(workgroup_attributions), i64)
        props: dict[str, Attribute] = {}
        if (module := _symbol_ref(kernel_module)) is not None:
            props["module"] = module
        if (func := _symbol_ref(kernel_func)) is not None:
            props["function"] = func
        cluster_operands = [[c] for c in cluster] if cluster is not None else [[], [], []]
        super().__init__(
            operands=[
                deps,
                *grid,
                *block,
                *cluster_operands,
                [dynamic_shared_memory_size] if dynamic_shared_memory_size is not None else [],
            ],
            result_types=[async_token_types(is_async)],
            properties=props,
            attributes=dict(sorted(attrs.items())),
            regions=[body],
        )
        self.properties = dict(sorted(self.properties.items()))

    # ------------------------------------------------------------------ accessors
    @property
    def has_cluster_size(self) -> bool:
        return (
            self.cluster_size_x is not None
            and self.cluster_size_y is not None
            and self.cluster_size_z is not None
        )

    @property
    def num_config_args(self) -> int:
        """Entry-block arguments before the attributions (12, or 18 with clusters)."""
        return NUM_CONFIG_ARGS + (NUM_CLUSTER_ARGS if self.has_cluster_size else 0)

    @property
    def num_workgroup_attributions(self) -> int:
        """The value of `workgroup_attributions` (0 when absent, as in MLIR)."""
        attr = self.attributes.get(WORKGROUP_ATTRIBUTIONS)
        return attr.value.data if isinstance(attr, IntegerAttr) else 0

    @property
    def body_args(self) -> tuple[BlockArgument, ...]:
        """The entry block's arguments (empty when the body has no block)."""
        entry = self.body.blocks.first
        return () if entry is None else tuple(entry.args)

    def _dim3(self, start: int) -> Dim3:
        args = self.body_args
        if len(args) < start + 3:
            raise ValueError(f"'{self.name}' body has too few entry arguments")
        return args[start], args[start + 1], args[start + 2]

    @property
    def block_ids(self) -> Dim3:
        return self._dim3(0)

    @property
    def thread_ids(self) -> Dim3:
        return self._dim3(3)

    @property
    def grid_size_args(self) -> Dim3:
        """The body's view of the grid size (region arguments)."""
        return self._dim3(6)

    @property
    def block_size_args(self) -> Dim3:
        """The body's view of the block size (region arguments)."""
        return self._dim3(9)

    @property
    def cluster_ids(self) -> Dim3 | None:
        return self._dim3(12) if self.has_cluster_size else None

    @property
    def cluster_size_args(self) -> Dim3 | None:
        return self._dim3(15) if self.has_cluster_size else None

    @property
    def grid_size_operands(self) -> Dim3:
        return self.grid_size_x, self.grid_size_y, self.grid_size_z

    @property
    def block_size_operands(self) -> Dim3:
        return self.block_size_x, self.block_size_y, self.block_size_z

    @property
    def cluster_size_operands(self) -> Dim3 | None:
        if not self.has_cluster_size:
            return None
        assert self.cluster_size_x and self.cluster_size_y and self.cluster_size_z
        return self.cluster_size_x, self.cluster_size_y, self.cluster_size_z

    @property
    def workgroup_attribution_args(self) -> tuple[BlockArgument, ...]:
        start = self.num_config_args
        return self.body_args[start : start + max(self.num_workgroup_attributions, 0)]

    @property
    def private_attribution_args(self) -> tuple[BlockArgument, ...]:
        start = self.num_config_args + max(self.num_workgroup_attributions, 0)
        return self.body_args[start:]

    def add_workgroup_attribution(self, type: Attribute) -> BlockArgument:
        """Add a workgroup memory attribution (after the existing ones)."""
        entry = self.body.blocks.first
        if entry is None:
            raise ValueError(f"'{self.name}' body has no block")
        count = self.num_workgroup_attributions
        arg = entry.insert_arg(type, self.num_config_args + count)
        self.attributes[WORKGROUP_ATTRIBUTIONS] = IntegerAttr(count + 1, i64)
        return arg

    def add_private_attribution(self, type: Attribute) -> BlockArgument:
        """Add a private memory attribution (after all other arguments)."""
        entry = self.body.blocks.first
        if entry is None:
            raise ValueError(f"'{self.name}' body has no block")
        return entry.insert_arg(type, len(entry.args))

    # ------------------------------------------------------------------ verifier
    def verify_(self) -> None:
        clusters = (self.cluster_size_x, self.cluster_size_y, self.cluster_size_z)
        if any(c is not None for c in clusters) and not self.has_cluster_size:
            raise VerifyException("cluster size must be all present")

        entry = self.body.blocks.first
        num_wg = self.num_workgroup_attributions
        if entry is None or num_wg < 0 or len(entry.args) < self.num_config_args + num_wg:
            raise VerifyException("unexpected number of region arguments")

        verify_attributions(self.workgroup_attribution_args, AddressSpace.WORKGROUP)
        verify_attributions(self.private_attribution_args, AddressSpace.PRIVATE)
        self.run_region_checks()

    def verify_regions_(self) -> None:
        """The body's terminators (after the ops in the body, as MLIR)."""
        entry = self.body.blocks.first
        if entry is None:
            return
        if entry.first_op is None and entry.next_block is None:
            raise OpDiagnostic("empty block: expect at least a terminator", prefix=False)
        for block in self.body.blocks:
            last = block.last_op
            if last is None or last.successors or isinstance(last, TerminatorOp):
                continue
            # A last op that is no terminator at all is the generic region
            # check's to report; an unregistered op may be a terminator.
            if last.has_trait(IsTerminator) or isinstance(last, UnregisteredOp):
                raise OpDiagnostic(
                    "expected 'gpu.terminator' or a terminator with successors",
                    op=last,
                    prefix=False,
                    notes=[(self, "in 'gpu.launch' body region")],
                )

    # ------------------------------------------------------------------ syntax
    def _is_printable(self) -> bool:
        """Whether the custom form can show this op (it may be unverified)."""
        clusters = (self.cluster_size_x, self.cluster_size_y, self.cluster_size_z)
        if any(c is not None for c in clusters) and not self.has_cluster_size:
            return False
        num_wg = self.num_workgroup_attributions
        entry = self.body.blocks.first
        return (
            entry is not None and num_wg >= 0 and len(entry.args) >= self.num_config_args + num_wg
        )

    def print(self, printer: Printer) -> None:
        if not self._is_printable():
            # Not expressible in the custom form (only reachable with unverified
            # IR): show everything generically after the name.
            printer.print_op_with_default_format(self)
            return
        if self.async_token is not None:
            printer.print_string(" async")
        if self.async_dependencies:
            # MLIR 22 prints dependencies only with `async`, silently dropping
            # those of a synchronous launch; xgpu keeps them (see module notes).
            printer.print_string(" [")
            printer.print_list(self.async_dependencies, printer.print_ssa_value)
            printer.print_string("]")
        if (cluster_ids := self.cluster_ids) is not None:
            sizes = self.cluster_size_args
            operands = self.cluster_size_operands
            assert sizes is not None and operands is not None
            printer.print_string(" clusters")
            _print_size_assignment(printer, cluster_ids, sizes, operands)
        printer.print_string(" blocks")
        _print_size_assignment(
            printer, self.block_ids, self.grid_size_args, self.grid_size_operands
        )
        printer.print_string(" threads")
        _print_size_assignment(
            printer, self.thread_ids, self.block_size_args, self.block_size_operands
        )
        if self.dynamic_shared_memory_size is not None:
            printer.print_string(" dynamic_shared_memory_size ")
            printer.print_ssa_value(self.dynamic_shared_memory_size)
        if self.kernel_module is not None:
            printer.print_string(" module(")
            printer.print_symbol_name(self.kernel_module.root_reference.data)
            printer.print_string(")")
        if self.kernel_func is not None:
            printer.print_string(" function(")
            printer.print_symbol_name(self.kernel_func.root_reference.data)
            printer.print_string(")")
        _print_attributions(printer, "workgroup", self.workgroup_attribution_args)
        _print_attributions(printer, "private", self.private_attribution_args)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False, print_empty_block=False)
        printer.print_op_attributes(
            self.attributes, reserved_attr_names=(WORKGROUP_ATTRIBUTIONS, _SEGMENTS)
        )

    @classmethod
    def parse(cls, parser: Parser) -> LaunchOp:
        op_start = _op_name_start(parser, cls.name)
        if parser._current_token.text == "(":  # pyright: ignore[reportPrivateUsage]
            # The generic body `print` falls back to for an op the custom form
            # cannot show (unverified IR): read it back the same way.
            op = parser._parse_generic_operation(cls)  # pyright: ignore[reportPrivateUsage]
            assert isinstance(op, LaunchOp)
            return op

        # (async)? ([%deps])? -- whether `async` needs a named result, and whether
        # a result may be named, is checked by the driver once results are bound.
        is_async = parser.parse_optional_keyword("async") is not None
        deps = (
            parser.parse_optional_comma_separated_list(
                parser.Delimiter.SQUARE, parser.parse_unresolved_operand
            )
            or []
        )

        cluster = None
        if parser.parse_optional_keyword("clusters") is not None:
            cluster = _parse_size_assignment(parser)
        _expect_keyword(parser, "blocks")
        blocks = _parse_size_assignment(parser)
        _expect_keyword(parser, "threads")
        threads = _parse_size_assignment(parser)

        dsm = None
        if parser.parse_optional_keyword("dynamic_shared_memory_size") is not None:
            dsm = parser.parse_unresolved_operand()

        props: dict[str, Attribute] = {}
        for keyword in ("module", "function"):
            if parser.parse_optional_keyword(keyword) is not None:
                parser.parse_punctuation("(")
                pos = parser.pos
                sym = parser.parse_attribute()
                if not isinstance(sym, SymbolRefAttr) or sym.nested_references.data:
                    parser.raise_error(
                        "custom op 'gpu.launch' invalid kind of attribute specified",
                        pos,
                        parser.pos,
                    )
                parser.parse_punctuation(")")
                props[keyword] = sym

        workgroup = _parse_attributions(parser, "workgroup")
        private = _parse_attributions(parser, "private")

        index = IndexType()
        region_args: list[Parser.Argument] = [
            *(a.resolve(index) for a in blocks[0]),
            *(a.resolve(index) for a in threads[0]),
            *(a.resolve(index) for a in blocks[1]),
            *(a.resolve(index) for a in threads[1]),
        ]
        if cluster is not None:
            region_args += [a.resolve(index) for a in (*cluster[0], *cluster[1])]
        region_args += [*workgroup, *private]
        body = parser.parse_region(region_args)

        attrs_pos = parser.pos
        attrs = parser.parse_optional_attr_dict()
        for reserved in (_SEGMENTS, WORKGROUP_ATTRIBUTIONS, *props):
            if reserved in attrs:
                parser.raise_error(
                    f"custom op 'gpu.launch' attribute '{reserved}' occurs more than "
                    "once in the attribute list",
                    op_start if op_start is not None else attrs_pos,
                )
        # `module`/`function` written in the attribute dictionary are still the
        # op's inherent attributes (properties), as in MLIR.
        for keyword in ("module", "function"):
            if keyword in attrs:
                props[keyword] = attrs.pop(keyword)
        attrs[WORKGROUP_ATTRIBUTIONS] = IntegerAttr(len(workgroup), i64)

        token = AsyncTokenType()
        op = cls.build(
            operands=[
                [parser.resolve_operand(d, token) for d in deps],
                *(parser.resolve_operand(s, index) for s in blocks[2]),
                *(parser.resolve_operand(s, index) for s in threads[2]),
                *(
                    [[parser.resolve_operand(s, index)] for s in cluster[2]]
                    if cluster is not None
                    else [[], [], []]
                ),
                [parser.resolve_operand(dsm, i32)] if dsm is not None else [],
            ],
            result_types=[[token] if is_async else []],
            properties=props,
            attributes=dict(sorted(attrs.items())),
            regions=[body],
        )
        op.properties = dict(sorted(op.properties.items()))
        return op


def _print_size_assignment(printer: Printer, ids: Dim3, sizes: Dim3, operands: Dim3) -> None:
    """`(%id_x, %id_y, %id_z) in (%size_x = %v, %size_y = %v, %size_z = %v)`."""
    printer.print_string("(")
    printer.print_list(ids, printer.print_ssa_value)
    printer.print_string(") in (")
    for i, (size, operand) in enumerate(zip(sizes, operands)):
        if i:
            printer.print_string(", ")
        printer.print_ssa_value(size)
        printer.print_string(" = ")
        printer.print_ssa_value(operand)
    printer.print_string(")")


def _print_attributions(printer: Printer, keyword: str, args: Sequence[BlockArgument]) -> None:
    """` workgroup(%a : T, %b : U)`; nothing when there are none."""
    if not args:
        return
    printer.print_string(f" {keyword}(")
    for i, arg in enumerate(args):
        if i:
            printer.print_string(", ")
        printer.print_ssa_value(arg)
        printer.print_string(" : ")
        printer.print_attribute(arg.type)
    printer.print_string(")")


_SizeAssignment = tuple[
    list[Parser.UnresolvedArgument], list[Parser.UnresolvedArgument], list[UnresolvedOperand]
]


def _expect_keyword(parser: Parser, keyword: str) -> None:
    if parser.parse_optional_keyword(keyword) is None:
        parser.raise_error(f"custom op 'gpu.launch' expected '{keyword}'")


def _parse_size_assignment(parser: Parser) -> _SizeAssignment:
    """`(%id, %id, %id) in (%size = %v, %size = %v, %size = %v)`: the ids and
    sizes are new region arguments, the `%v` are operands."""
    pos = parser.pos
    ids = parser.parse_comma_separated_list(
        parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=False)
    )
    if len(ids) != 3:
        # MLIR 22 does not check this count (and misbehaves on it).
        parser.raise_error(
            f"custom op 'gpu.launch' expected 3 identifiers, got {len(ids)}", pos, parser.pos
        )
    _expect_keyword(parser, "in")
    parser.parse_punctuation("(")
    sizes: list[Parser.UnresolvedArgument] = []
    operands: list[UnresolvedOperand] = []
    for i in range(3):
        if i:
            parser.parse_punctuation(",")
        sizes.append(parser.parse_argument(expect_type=False))
        parser.parse_punctuation("=")
        operands.append(parser.parse_unresolved_operand())
    parser.parse_punctuation(")")
    return ids, sizes, operands


def _parse_attributions(parser: Parser, keyword: str) -> list[Parser.Argument]:
    """`keyword(%a : T (loc(...))?, ...)`, if present."""
    if parser.parse_optional_keyword(keyword) is None:
        return []

    def parse_one() -> Parser.Argument:
        arg = parser.parse_argument(expect_type=True)
        if (loc := parser.parse_optional_location()) is not None:
            arg.location = loc
        return arg

    return parser.parse_comma_separated_list(parser.Delimiter.PAREN, parse_one)


def _op_name_start(parser: Parser, op_name: str) -> int | None:
    """Where the op name just parsed starts (MLIR reports some errors there)."""
    text = parser.lexer.input.content
    end = parser.pos
    while end > 0 and text[end - 1 : end] in (" ", "\t", "\n", "\r", b" ", b"\t", b"\n", b"\r"):
        end -= 1
    for name in (op_name, op_name.split(".", 1)[1]):
        start = end - len(name)
        chunk = text[start:end]
        if start >= 0 and (chunk == name or chunk == name.encode()):
            return start
    return None


@irdl_op_definition
class TerminatorOp(IRDLOperation):
    """`gpu.terminator`: ends the body of a `gpu.launch`."""

    name = "gpu.terminator"

    assembly_format = "attr-dict"

    traits = lazy_traits_def(lambda: (HasParentWithMLIRMessage(LaunchOp), IsTerminator(), Pure()))

    def __init__(self):
        super().__init__()


OPS: list[type] = [LaunchOp, TerminatorOp]
ATTRS: list[type] = []
