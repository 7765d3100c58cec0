"""gpu.launch_func, with the symbol checks of its kernel.

The kernel is named by a nested symbol reference `@container::@kernel`, the
container being a `gpu.module` (or a `gpu.binary`) of the closest surrounding
`builtin.module`, which must carry the unit attribute `gpu.container_module`.
gpu.module, gpu.func and gpu.binary are recognised by op name, so this module
does not depend on the classes defining them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from operator import attrgetter

from xdsl.dialects.builtin import (
    DenseArrayBase,
    FunctionType,
    IndexType,
    ModuleOp,
    SymbolRefAttr,
    UnitAttr,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    EqAttrConstraint,
    IRDLOperation,
    base,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_result_def,
    prop_def,
    var_operand_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import CallableOpInterface
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.mlir_lexer import MLIRTokenKind

from xgpu.diagnostics import OpDiagnostic
from xgpu.dialects.gpu.async_interface import (
    AsyncOpInterface,
    async_token_types,
    parse_async_dependencies,
    parse_defined_async_dependencies,
    print_async_dependencies,
)
from xgpu.dialects.gpu.launch_func_form import (
    INDEX,
    TOKEN,
    launch_line_form,
    parse_common_form,
    segment_sizes,
)
from xgpu.dialects.gpu.types import AsyncTokenType
from xgpu.ir import symbols
from xgpu.ir.fast_print import LINE_TEXTS, attribute_text, template_literal, value_names
from xgpu.ir.line_forms import line_form, optional_attr_dict
from xgpu.ir.symbols import (  # noqa: F401  (re-exported: the launches' symbol look-up)
    indexed_symbol_tables,
    lookup_nested_symbol,
    lookup_symbol_in,
)
from xgpu.ir.verify_memo import SIGNATURE_VERIFIED

CONTAINER_MODULE_ATTR = "gpu.container_module"
KERNEL_ATTR = "gpu.kernel"

LaunchDimConstr = base(IndexType) | EqAttrConstraint(i32) | EqAttrConstraint(i64)
"""A launch dimension: `index`, `i32` or `i64` (MLIR's `LaunchIndx`)."""

Dim3 = tuple[SSAValue, SSAValue, SSAValue]


def _is_function(op: Operation) -> bool:
    """Whether `op` is a function (MLIR's FunctionOpInterface)."""
    return (
        op.has_trait(CallableOpInterface)
        or "function_type" in op.properties
        or "function_type" in op.attributes
    )


def _function_type(op: Operation) -> FunctionType | None:
    ty = op.properties.get("function_type") or op.attributes.get("function_type")
    return ty if isinstance(ty, FunctionType) else None


def _closest_module(op: Operation) -> ModuleOp | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, ModuleOp):
        parent = parent.parent_op()
    return parent


_GROUPS_MEMO = "_xgpu_operand_groups"
# per printer: the templates of `LaunchFuncOp._fast_text`
_TEMPLATES = "_xgpu_launch_templates"
# `value.type` without the property call (xDSL 0.75 keeps it in `_type`).
_value_type = attrgetter("_type")


def _slice_groups(
    sizes: Attribute | None, operands: Sequence[SSAValue]
) -> list[Sequence[SSAValue]] | None:
    if not isinstance(sizes, DenseArrayBase):
        return None
    counts = sizes.get_values()
    if len(counts) != 13 or sum(counts) != len(operands):  # type: ignore[arg-type]
        return None
    flat = tuple(operands)  # slices of a plain tuple (SSAValues slices in Python)
    groups: list[Sequence[SSAValue]] = []
    start = 0
    for count in counts:
        end = start + count  # type: ignore[operator]
        groups.append(flat[start:end])
        start = end
    return groups


# ---------------------------------------------------------------------------
# The op
# ---------------------------------------------------------------------------


@irdl_op_definition
class LaunchFuncOp(AsyncOpInterface, IRDLOperation):
    """`gpu.launch_func`: launch a kernel function of a gpu.module on a grid of blocks."""

    name = "gpu.launch_func"

    async_dependencies = var_operand_def(AsyncTokenType)
    grid_size_x = operand_def(LaunchDimConstr)
    grid_size_y = operand_def(LaunchDimConstr)
    grid_size_z = operand_def(LaunchDimConstr)
    block_size_x = operand_def(LaunchDimConstr)
    block_size_y = operand_def(LaunchDimConstr)
    block_size_z = operand_def(LaunchDimConstr)
    cluster_size_x = opt_operand_def(LaunchDimConstr)
    cluster_size_y = opt_operand_def(LaunchDimConstr)
    cluster_size_z = opt_operand_def(LaunchDimConstr)
    dynamic_shared_memory_size = opt_operand_def(i32)
    kernel_operands = var_operand_def()
    async_object = opt_operand_def()

    kernel = prop_def(SymbolRefAttr)

    async_token = opt_result_def(AsyncTokenType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        kernel: SymbolRefAttr,
        grid: Sequence[SSAValue],
        block: Sequence[SSAValue],
        args: Sequence[SSAValue] = (),
        deps: Sequence[SSAValue] = (),
        is_async: bool = False,
        cluster: Sequence[SSAValue] | None = None,
        dynamic_shared_memory_size: SSAValue | None = None,
        async_object: SSAValue | None = None,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        if len(grid) != 3 or len(block) != 3 or (cluster is not None and len(cluster) != 3):
            raise ValueError("grid, block and cluster sizes take three values (x, y, z)")
        # Built without xDSL's generic argument-list machinery (a host program
        # holds thousands of launches): operands in definition order and their
        # segment sizes.
        groups: list[Sequence[SSAValue]] = [
            deps,
            *([g] for g in grid),
            *([b] for b in block),
            *([[c] for c in cluster] if cluster is not None else [[], [], []]),
            [dynamic_shared_memory_size] if dynamic_shared_memory_size is not None else [],
            args,
            [async_object] if async_object is not None else [],
        ]
        super(IRDLOperation, self).__init__(
            operands=[v for group in groups for v in group],
            result_types=async_token_types(is_async),
            properties={
                "kernel": kernel,
                "operandSegmentSizes": segment_sizes(tuple(len(g) for g in groups)),
            },
            attributes=dict(attributes or {}),
        )

    # -- accessors ---------------------------------------------------------

    def _operand_groups(self) -> list[Sequence[SSAValue]] | None:
        """The 13 operand groups, sliced once from `operandSegmentSizes` (each
        named accessor would unpack them again); None if the sizes are
        malformed. The groups are kept until the operands or the sizes change
        (both are replaced, never mutated, when they do)."""
        sizes = self.properties.get("operandSegmentSizes")
        operands = self._operands  # pyright: ignore[reportPrivateUsage]
        memo = self.__dict__.get(_GROUPS_MEMO)
        if memo is not None and memo[0] is operands and memo[1] is sizes:
            return memo[2]
        groups = _slice_groups(sizes, operands)
        self.__dict__[_GROUPS_MEMO] = (operands, sizes, groups)
        return groups

    def _dim3(self, first: int) -> tuple[SSAValue | None, ...]:
        groups = self._operand_groups()
        if groups is None:
            return tuple(
                getattr(self, f"{name}_size_{d}")
                for name in (("grid",), ("block",), ("cluster",))[(first - 1) // 3]
                for d in "xyz"
            )
        x, y, z = groups[first : first + 3]
        return (
            x[0] if len(x) == 1 else None,
            y[0] if len(y) == 1 else None,
            z[0] if len(z) == 1 else None,
        )

    def _kernel_args(self) -> Sequence[SSAValue]:
        """`kernel_operands`, from the memoized groups when the sizes are well formed."""
        groups = self._operand_groups()
        return self.kernel_operands if groups is None else groups[11]

    @property
    def grid_sizes(self) -> Dim3:
        return self._dim3(1)  # type: ignore[return-value]

    @property
    def block_sizes(self) -> Dim3:
        return self._dim3(4)  # type: ignore[return-value]

    @property
    def cluster_sizes(self) -> Dim3 | None:
        """The cluster sizes, or None when the launch has no (complete) cluster."""
        x, y, z = self._dim3(7)
        if x is None or y is None or z is None:
            return None
        return (x, y, z)

    @property
    def kernel_module_name(self) -> str:
        """The name of the kernel's container (`@m` in `@m::@f`)."""
        return self.kernel.root_reference.data

    @property
    def kernel_name(self) -> str:
        """The name of the kernel function (`@f` in `@m::@f`)."""
        refs = self.kernel.nested_references.data
        return refs[-1].data if refs else self.kernel.root_reference.data

    # -- syntax -------------------------------------------------------------

    @classmethod
    def parse(cls, parser: Parser) -> LaunchFuncOp:
        def punct(p: str, context: str = "") -> None:
            if parser.parse_optional_punctuation(p) is None:  # pyright: ignore
                parser.raise_error(f"expected '{p}'{context}")

        def keyword(k: str) -> None:
            if parser.parse_optional_keyword(k) is None:
                parser.raise_error(f"custom op '{cls.name}' expected '{k}'")

        # The common form, its dependencies defined tokens, is read at once;
        # any other launch is read (or reported) from the start by the code below.
        start = parser.pos
        if (fast := parse_defined_async_dependencies(parser)) is not None:
            if parser._current_token.kind is not MLIRTokenKind.LESS:  # pyright: ignore[reportPrivateUsage]
                if (common := parse_common_form(parser)) is not None:
                    return cls._from_common_form(parser, fast[0], fast[1], *common)
            parser._resume_from(start)  # pyright: ignore[reportPrivateUsage]

        is_async, deps = parse_async_dependencies(parser)

        async_object: tuple[UnresolvedOperand, Attribute] | None = None
        if parser.parse_optional_punctuation("<") is not None:
            obj = parser.parse_unresolved_operand()
            punct(":")
            obj_type = parser.parse_type()
            punct(">")
            async_object = (obj, obj_type)

        token = TOKEN
        if async_object is None and (common := parse_common_form(parser)) is not None:
            resolved = [parser.resolve_operand(v, token) for v in deps]
            return cls._from_common_form(parser, is_async, resolved, *common)

        pos = parser.pos
        kernel = parser.parse_attribute()
        if not isinstance(kernel, SymbolRefAttr):
            parser.raise_error(
                f"custom op '{cls.name}' invalid kind of attribute specified", pos, parser.pos
            )

        def parse_dim3() -> list[UnresolvedOperand]:
            keyword("in")
            punct("(")
            values = [parser.parse_unresolved_operand()]
            for _ in range(2):
                punct(",")
                values.append(parser.parse_unresolved_operand())
            punct(")")
            return values

        cluster = None
        if parser.parse_optional_keyword("clusters") is not None:
            cluster = parse_dim3()
        keyword("blocks")
        grid = parse_dim3()
        keyword("threads")
        block = parse_dim3()

        dim_type: Attribute = IndexType()
        if parser.parse_optional_punctuation(":") is not None:
            dim_type = parser.parse_type()

        dsm = None
        if parser.parse_optional_keyword("dynamic_shared_memory_size") is not None:
            dsm = parser.parse_unresolved_operand()

        args: list[tuple[UnresolvedOperand, Attribute]] = []
        if parser.parse_optional_keyword("args") is not None:
            punct("(")
            if parser.parse_optional_punctuation(")") is None:
                while True:
                    value = parser.parse_unresolved_operand()
                    punct(":")
                    args.append((value, parser.parse_type()))
                    if parser.parse_optional_punctuation(",") is None:
                        break
                punct(")", " in argument list")

        attrs = parser.parse_optional_attr_dict()
        # Inherent attributes written in the dictionary are properties, as in MLIR.
        attrs.pop("operandSegmentSizes", None)
        if isinstance(attrs.get("kernel"), SymbolRefAttr):
            kernel = attrs.pop("kernel")
        assert isinstance(kernel, SymbolRefAttr)

        def resolve(values: Iterable[UnresolvedOperand], ty: Attribute) -> list[SSAValue]:
            return [parser.resolve_operand(v, ty) for v in values]

        return cls(
            kernel,
            resolve(grid, dim_type),
            resolve(block, dim_type),
            args=[parser.resolve_operand(v, t) for v, t in args],
            deps=resolve(deps, token),
            is_async=is_async,
            cluster=resolve(cluster, dim_type) if cluster is not None else None,
            dynamic_shared_memory_size=(
                parser.resolve_operand(dsm, i32) if dsm is not None else None
            ),
            async_object=(
                parser.resolve_operand(*async_object) if async_object is not None else None
            ),
            # MLIR keeps attribute dictionaries sorted by name.
            attributes=dict(sorted(attrs.items())),
        )

    def _fast_text(self, printer: Printer) -> str | None:
        """The syntax of a launch without clusters, dynamic shared memory, an
        async object or attributes, with `index` sizes and operands the
        printer has named: one string (None for any other launch).

        The text around the operand names depends only on the segment sizes,
        the kernel, whether the launch is async and the operand types, which
        repeat from launch to launch: it is made once per printer, as a
        template the names fill."""
        if self.attributes or printer._next_line_callback:  # pyright: ignore[reportPrivateUsage]
            return None
        properties, operands = self.properties, self._operands  # pyright: ignore[reportPrivateUsage]
        sizes, kernel = properties.get("operandSegmentSizes"), properties.get("kernel")
        types = tuple(map(_value_type, operands))
        key = (id(sizes), id(kernel), bool(self.results), *map(id, types))
        templates = printer.__dict__.get(_TEMPLATES)
        if templates is None:
            templates = printer.__dict__[_TEMPLATES] = {}
        entry = templates.get(key)
        if entry is None:
            # (the entry keeps the objects the key names alive)
            entry = templates[key] = (self._template(printer), sizes, kernel, types)
        template = entry[0]
        if template is None or (names := value_names(printer, operands)) is None:
            return None
        return template.format(*names)

    def _template(self, printer: Printer) -> str | None:
        """The text `_fast_text` gives, with `{}` for each operand name."""
        groups = self._operand_groups()
        if groups is None or any(groups[7:11]) or groups[12]:
            return None
        dims = groups[1:7]
        for d in dims:
            if len(d) != 1 or ((t := d[0].type) is not INDEX and t != INDEX):
                return None
        kernel = attribute_text(printer, self.kernel)
        if kernel is None:
            return None
        arg_texts: list[str] = []
        for value in groups[11]:
            if (type_text := attribute_text(printer, value.type)) is None:
                return None
            arg_texts.append("{} : " + template_literal(type_text))
        is_async = bool(self.results)
        parts = [" async" if is_async else " "]
        if groups[0]:
            parts.append(" [" if is_async else "[")
            parts.append(", ".join("{}" for _ in groups[0]))
            parts.append("]")
        parts.append(f" {template_literal(kernel)} blocks in ({{}}, {{}}, {{}})")
        parts.append(" threads in ({}, {}, {})  ")
        if arg_texts:
            parts.append(f"args({', '.join(arg_texts)})")
        return "".join(parts)

    @classmethod
    def _from_common_form(
        cls,
        parser: Parser,
        is_async: bool,
        deps: list[SSAValue],
        kernel: SymbolRefAttr,
        grid: list[SSAValue],
        block: list[SSAValue],
        args: list[SSAValue],
    ) -> LaunchFuncOp:
        """The launch read by `parse_common_form`, with its attribute dictionary."""
        attrs = optional_attr_dict(parser)
        attrs.pop("operandSegmentSizes", None)
        if isinstance(attrs.get("kernel"), SymbolRefAttr):
            kernel = attrs.pop("kernel")
        return cls(
            kernel,
            grid,
            block,
            args=args,
            deps=deps,
            is_async=is_async,
            attributes=dict(sorted(attrs.items())),
        )

    def print(self, printer: Printer) -> None:
        if (text := self._fast_text(printer)) is not None:
            printer.print_string(text)
            return

        def print_dim3(keyword: str, values: Sequence[SSAValue | None]) -> None:
            printer.print_string(f" {keyword} in (")
            # A value may be missing only in IR that does not verify; print
            # what there is, as MLIR does.
            printer.print_list(
                values, lambda v: printer.print_ssa_value(v) if v is not None else None
            )
            printer.print_string(")")

        print_async_dependencies(printer, self.is_async, self.async_dependencies)
        if self.async_object is not None:
            printer.print_string("<")
            printer.print_ssa_value(self.async_object)
            printer.print_string(" : ")
            printer.print_attribute(self.async_object.type)
            printer.print_string(">")
        printer.print_string(" ")
        printer.print_attribute(self.kernel)
        clusters = self._dim3(7)
        if clusters[0] is not None:
            print_dim3("clusters", clusters)
        grid = self.grid_sizes
        print_dim3("blocks", grid)
        print_dim3("threads", self.block_sizes)
        printer.print_string(" ")
        dim_type = grid[0].type
        if dim_type != IndexType():
            printer.print_string(": ")
            printer.print_attribute(dim_type)
        if self.dynamic_shared_memory_size is not None:
            printer.print_string(" dynamic_shared_memory_size ")
            printer.print_ssa_value(self.dynamic_shared_memory_size)
        printer.print_string(" ")
        if self.kernel_operands:
            printer.print_string("args(")

            def print_arg(value: SSAValue) -> None:
                printer.print_ssa_value(value)
                printer.print_string(" : ")
                printer.print_attribute(value.type)

            printer.print_list(self.kernel_operands, print_arg)
            printer.print_string(")")
        if self.attributes:
            printer.print_string(" ")
            printer.print_attr_dict(dict(sorted(self.attributes.items())))

    # -- verification -------------------------------------------------------

    def verify_(self) -> None:
        dims = (*self.grid_sizes, *self.block_sizes)
        first = dims[0].type
        if any(d.type is not first and d.type != first for d in dims):
            raise VerifyException(
                "failed to verify that all of {gridSizeX, gridSizeY, gridSizeZ, "
                "blockSizeX, blockSizeY, blockSizeZ} have same type"
            )

        module = _closest_module(self)
        if module is None:
            raise VerifyException("expected to belong to a module")
        if not isinstance(module.attributes.get(CONTAINER_MODULE_ATTR), UnitAttr):
            raise VerifyException(
                "expected the closest surrounding module to have the "
                f"'{CONTAINER_MODULE_ATTR}' attribute"
            )

        clusters = self._dim3(7)
        present = [c for c in clusters if c is not None]
        if present and len(present) != 3:
            # MLIR 22 accepts this and prints unparsable text; xgpu rejects it.
            raise VerifyException("cluster size must be all present")
        if present and any(c.type != present[0].type for c in present):
            raise VerifyException("expects types of the cluster dimensions must be the same")

        self.verify_kernel_symbol()

    def verify_kernel_symbol(self) -> None:
        """MLIR's `gpu.container_module` check: done only for launches whose
        grandparent is the container module (a launch in a function of it)."""
        if (index := symbols.active_index()) is not None and id(self) in index.get(
            symbols.CHECKED_LAUNCHES, ()
        ):  # type: ignore[call-overload]
            return
        parent = self.parent_op()
        module = parent.parent_op() if parent is not None else None
        if not isinstance(module, ModuleOp) or not isinstance(
            module.attributes.get(CONTAINER_MODULE_ATTR), UnitAttr
        ):
            return

        # A launch of the same kernel with the same operand types was found
        # valid earlier in this verification: nothing new to check. (By
        # identity: the IR, which holds these objects, does not change meanwhile.)
        if (index := symbols.active_index()) is not None:
            ok_key = (id(module), id(self.kernel), *[id(o.type) for o in self._kernel_args()])
            ok_launches = index.setdefault(symbols.VALID_LAUNCHES, {})  # type: ignore[call-overload]
            if ok_key in ok_launches:
                return
        else:
            ok_key = ok_launches = None
        self._verify_kernel_symbol_in(module)
        if ok_launches is not None:
            ok_launches[ok_key] = True  # type: ignore[index]

    def _verify_kernel_symbol_in(self, module: ModuleOp) -> None:
        container_name = self.kernel_module_name
        container = lookup_symbol_in(module, container_name)
        if container is None:
            raise VerifyException(f"kernel container '{container_name}' is undefined")
        if container.name == "gpu.binary":
            return
        if container.name != "gpu.module":
            raise VerifyException(f"kernel module '{container_name}' is undefined")

        kernel = lookup_nested_symbol(module, self.kernel)
        if kernel is None:
            raise VerifyException(f"kernel function '{self.kernel}' is undefined")
        if not _is_function(kernel):
            raise OpDiagnostic(
                f"referenced kernel '{self.kernel}' is not a function",
                notes=[(kernel, "see the kernel definition here")],
            )
        if not isinstance(kernel.attributes.get(KERNEL_ATTR), UnitAttr):
            raise VerifyException(f"kernel function is missing the '{KERNEL_ATTR}' attribute")

        # Operand types are checked against gpu.func kernels only (other
        # functions may be in a lowered form with converted types).
        if kernel.name != "gpu.func":
            return
        func_type = _function_type(kernel)
        if func_type is None:
            return
        inputs = func_type.inputs.data
        if len(self.kernel_operands) != len(inputs):
            raise VerifyException(
                f"got {len(self.kernel_operands)} kernel operands but expected {len(inputs)}"
            )
        for i, (operand, expected) in enumerate(zip(self.kernel_operands, inputs)):
            if operand.type != expected:
                raise VerifyException(f"type of function argument {i} does not match")


line_form(LaunchFuncOp.name)(launch_line_form(LaunchFuncOp))
LINE_TEXTS[LaunchFuncOp] = lambda op, printer: op._fast_text(printer)  # type: ignore[attr-defined]
# Its verifier reads the operand types, the segment sizes, the kernel and the
# enclosing modules (found from the parent block), nothing else of the op.
SIGNATURE_VERIFIED.add(LaunchFuncOp)

OPS: list[type] = [LaunchFuncOp]
ATTRS: list[type] = []
