"""gpu.func: a function (or, with `kernel`, an entry point) of a gpu.module.

`GPUFuncOp` with its accessors, verifier and custom syntax (described in
`xgpu.dialects.gpu.func`), and its callable interface. Its traits and property
constraints are in `func_traits`, the pieces of its syntax in `func_syntax`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from io import StringIO
from typing import ClassVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    FunctionType,
    IntegerAttr,
    StringAttr,
    SymbolNameConstraint,
    UnitAttr,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    attr_def,
    irdl_op_definition,
    lazy_traits_def,
    opt_attr_def,
    opt_prop_def,
    prop_def,
    region_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import CallableOpInterface, SymbolOpInterface
from xdsl.utils.exceptions import VerifyException

from xgpu.diagnostics import OpDiagnostic
from xgpu.dialects.function_attrs import verify_function_attr_dicts
from xgpu.dialects.gpu.func_syntax import (
    _dict_array,
    _dict_at,
    _parse_named_argument_list,
    _parse_results,
    _parse_signature_arguments,
    _print_arg_attrs,
)
from xgpu.dialects.gpu.func_traits import (
    AutomaticAllocationScope,
    DictArrayConstraint,
    FunctionTypeConstraint,
    KnownSizeConstraint,
    _is_dense_i32_array,
)
from xgpu.dialects.gpu.module import GPUModuleOp
from xgpu.dialects.gpu.utils import HasParentWithMLIRMessage, IsolatedFromAboveWithMLIRMessage

KERNEL_ATTR_NAME = "gpu.kernel"
"""The unit attribute that marks a function as a kernel."""

_KNOWN_SIZE_PROPS = ("known_block_size", "known_grid_size", "known_cluster_size")
_PROPERTY_NAMES = frozenset(
    {
        "function_type",
        "arg_attrs",
        "res_attrs",
        "workgroup_attrib_attrs",
        "private_attrib_attrs",
        *_KNOWN_SIZE_PROPS,
    }
)


def _type_str(attr: Attribute) -> str:
    stream = StringIO()
    Printer(stream=stream).print_attribute(attr)
    return stream.getvalue()


class GPUFuncCallableInterface(CallableOpInterface):
    @classmethod
    def get_callable_region(cls, op: Operation) -> Region:
        assert isinstance(op, GPUFuncOp)
        return op.body

    @classmethod
    def get_argument_types(cls, op: Operation) -> tuple[Attribute, ...]:
        assert isinstance(op, GPUFuncOp)
        return op.function_type.inputs.data

    @classmethod
    def get_result_types(cls, op: Operation) -> tuple[Attribute, ...]:
        assert isinstance(op, GPUFuncOp)
        return op.function_type.outputs.data


# --------------------------------------------------------------------------- #
# gpu.func                                                                    #
# --------------------------------------------------------------------------- #


@irdl_op_definition
class GPUFuncOp(IRDLOperation):
    """`gpu.func`: a function (or, with `kernel`, an entry point) of a gpu.module."""

    name = "gpu.func"

    body = region_def()

    function_type: FunctionType = prop_def(FunctionTypeConstraint())  # pyright: ignore
    arg_attrs: ArrayAttr[DictionaryAttr] | None = opt_prop_def(  # pyright: ignore
        DictArrayConstraint("arg_attrs")
    )
    res_attrs: ArrayAttr[DictionaryAttr] | None = opt_prop_def(  # pyright: ignore
        DictArrayConstraint("res_attrs")
    )
    workgroup_attrib_attrs: ArrayAttr[DictionaryAttr] | None = opt_prop_def(  # pyright: ignore
        DictArrayConstraint("workgroup_attrib_attrs")
    )
    private_attrib_attrs: ArrayAttr[DictionaryAttr] | None = opt_prop_def(  # pyright: ignore
        DictArrayConstraint("private_attrib_attrs")
    )
    known_block_size = opt_prop_def(KnownSizeConstraint("known_block_size"))
    known_grid_size = opt_prop_def(KnownSizeConstraint("known_grid_size"))
    known_cluster_size = opt_prop_def(KnownSizeConstraint("known_cluster_size"))

    sym_name = attr_def(SymbolNameConstraint())
    # MLIR reads these with getAttrOfType and ignores values of another kind.
    kernel = opt_attr_def(AnyAttr(), attr_name=KERNEL_ATTR_NAME)
    workgroup_attributions_attr = opt_attr_def(AnyAttr(), attr_name="workgroup_attributions")

    traits = lazy_traits_def(
        lambda: (
            HasParentWithMLIRMessage(GPUModuleOp),
            IsolatedFromAboveWithMLIRMessage(),
            AutomaticAllocationScope(),
            SymbolOpInterface(),
            GPUFuncCallableInterface(),
        )
    )

    # Names the custom syntax prints elsewhere than in `attributes {...}`.
    _ELIDED: ClassVar[frozenset[str]] = frozenset(
        {
            "sym_name",
            "function_type",
            "arg_attrs",
            "res_attrs",
            "workgroup_attrib_attrs",
            "private_attrib_attrs",
            "workgroup_attributions",
            KERNEL_ATTR_NAME,
        }
    )

    def __init__(
        self,
        name: str | StringAttr,
        input_types: Sequence[Attribute] | FunctionType,
        result_types: Sequence[Attribute] = (),
        *,
        kernel: bool = False,
        workgroup_attributions: Sequence[Attribute] = (),
        private_attributions: Sequence[Attribute] = (),
        known_block_size: Sequence[int] | DenseArrayBase | None = None,
        known_grid_size: Sequence[int] | DenseArrayBase | None = None,
        known_cluster_size: Sequence[int] | DenseArrayBase | None = None,
        arg_attrs: Sequence[Mapping[str, Attribute]] | ArrayAttr[DictionaryAttr] | None = None,
        res_attrs: Sequence[Mapping[str, Attribute]] | ArrayAttr[DictionaryAttr] | None = None,
        workgroup_attrib_attrs: Sequence[Mapping[str, Attribute]]
        | ArrayAttr[DictionaryAttr]
        | None = None,
        private_attrib_attrs: Sequence[Mapping[str, Attribute]]
        | ArrayAttr[DictionaryAttr]
        | None = None,
        body: Region | None = None,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        """Build a gpu.func. Without `body`, the body is one empty block whose
        arguments are the inputs, then the workgroup, then the private attributions."""
        if isinstance(name, str):
            name = StringAttr(name)
        if isinstance(input_types, FunctionType):
            function_type = input_types
        else:
            function_type = FunctionType.from_lists(input_types, result_types)
        if body is None:
            body = Region(
                Block(
                    arg_types=(
                        *function_type.inputs.data,
                        *workgroup_attributions,
                        *private_attributions,
                    )
                )
            )

        def as_dense(v: Sequence[int] | DenseArrayBase | None) -> DenseArrayBase | None:
            if v is None or isinstance(v, DenseArrayBase):
                return v
            return DenseArrayBase.from_list(i32, v)

        def as_dicts(
            v: Sequence[Mapping[str, Attribute]] | ArrayAttr[DictionaryAttr] | None,
        ) -> ArrayAttr[DictionaryAttr] | None:
            if v is None or isinstance(v, ArrayAttr):
                return v
            return ArrayAttr(DictionaryAttr(dict(d)) for d in v)

        attrs: dict[str, Attribute] = {
            "sym_name": name,
            "workgroup_attributions": IntegerAttr(len(workgroup_attributions), i64),
        }
        if kernel:
            attrs[KERNEL_ATTR_NAME] = UnitAttr()
        attrs.update(attributes or {})
        super().__init__(
            properties={
                "function_type": function_type,
                "arg_attrs": as_dicts(arg_attrs),
                "res_attrs": as_dicts(res_attrs),
                "workgroup_attrib_attrs": as_dicts(workgroup_attrib_attrs),
                "private_attrib_attrs": as_dicts(private_attrib_attrs),
                "known_block_size": as_dense(known_block_size),
                "known_grid_size": as_dense(known_grid_size),
                "known_cluster_size": as_dense(known_cluster_size),
            },
            attributes=attrs,
            regions=[body],
        )

    # ----------------------------------------------------------------- accessors

    @property
    def is_kernel(self) -> bool:
        """Whether the function carries the `gpu.kernel` unit attribute."""
        return isinstance(self.attributes.get(KERNEL_ATTR_NAME), UnitAttr)

    @is_kernel.setter
    def is_kernel(self, value: bool) -> None:
        if value:
            self.attributes[KERNEL_ATTR_NAME] = UnitAttr()
        else:
            self.attributes.pop(KERNEL_ATTR_NAME, None)

    @property
    def num_arguments(self) -> int:
        return len(self.function_type.inputs)

    @property
    def num_workgroup_attributions(self) -> int:
        attr = self.attributes.get("workgroup_attributions")
        return attr.value.data if isinstance(attr, IntegerAttr) else 0

    def _entry_args(self) -> tuple[BlockArgument, ...]:
        block = self.body.blocks.first
        return tuple(block.args) if block is not None else ()

    @property
    def arguments(self) -> tuple[BlockArgument, ...]:
        """The entry-block arguments that are function arguments."""
        return self._entry_args()[: self.num_arguments]

    @property
    def workgroup_attribution_args(self) -> tuple[BlockArgument, ...]:
        """The entry-block arguments that are workgroup-memory buffers."""
        start = self.num_arguments
        return self._entry_args()[start : start + self.num_workgroup_attributions]

    @property
    def private_attribution_args(self) -> tuple[BlockArgument, ...]:
        """The entry-block arguments that are private-memory buffers."""
        return self._entry_args()[self.num_arguments + self.num_workgroup_attributions :]

    def add_workgroup_attribution(self, type: Attribute) -> BlockArgument:
        """Append a workgroup attribution (before the private ones)."""
        index = self.num_arguments + self.num_workgroup_attributions
        self.attributes["workgroup_attributions"] = IntegerAttr(
            self.num_workgroup_attributions + 1, i64
        )
        return self.body.block.insert_arg(type, index)

    def add_private_attribution(self, type: Attribute) -> BlockArgument:
        """Append a private attribution."""
        block = self.body.block
        return block.insert_arg(type, len(block.args))

    # ----------------------------------------------------------------- verifier

    def verify_(self) -> None:
        ftype = self.function_type
        verify_function_attr_dicts(self.arg_attrs, ftype.inputs.data, "argument")
        verify_function_attr_dicts(self.res_attrs, ftype.outputs.data, "result")
        if self.is_kernel and len(ftype.outputs) != 0:
            raise VerifyException("expected void return type for kernel function")

        entry = self.body.blocks.first
        if entry is None:
            raise VerifyException("expected body with at least one block")
        num_inputs = len(ftype.inputs)
        expected = num_inputs + self.num_workgroup_attributions
        if len(entry.args) < expected:
            raise VerifyException(f"expected at least {expected} arguments to body region")
        for i, (want, arg) in enumerate(zip(ftype.inputs.data, entry.args)):
            if arg.type != want:
                raise VerifyException(
                    f"expected body region argument #{i} to be of type "
                    f"'{_type_str(want)}', got '{_type_str(arg.type)}'"
                )
        workgroup, private = self.workgroup_attribution_args, self.private_attribution_args
        if workgroup or private:
            # The address-space rules live with the attributes (imported for a
            # function with attributions only).
            from xgpu.dialects.gpu.attributes import AddressSpace, verify_attributions

            verify_attributions(workgroup, AddressSpace.WORKGROUP)
            verify_attributions(private, AddressSpace.PRIVATE)
        # MLIR's structural check of the blocks, which runs after the op's verifier.
        if any(block.first_op is None for block in self.body.blocks):
            raise OpDiagnostic("empty block: expect at least a terminator", prefix=False)

    # ----------------------------------------------------------------- syntax

    @classmethod
    def parse(cls, parser: Parser) -> GPUFuncOp:
        name = parser.parse_symbol_name()
        args = _parse_signature_arguments(parser)
        result_types, result_attrs = _parse_results(parser)
        input_types = [arg.type for arg, _ in args]

        workgroup: list[tuple[Parser.Argument, dict[str, Attribute]]] = []
        if parser.parse_optional_keyword("workgroup") is not None:
            workgroup = _parse_named_argument_list(parser)
        private: list[tuple[Parser.Argument, dict[str, Attribute]]] = []
        if parser.parse_optional_keyword("private") is not None:
            private = _parse_named_argument_list(parser)
        kernel = parser.parse_optional_keyword("kernel") is not None
        dict_pos = parser.pos
        extra = parser.parse_optional_attr_dict_with_keyword()

        entry_args = [a for a, _ in (*args, *workgroup, *private)]
        if not entry_args and parser._current_token.text == "{":  # pyright: ignore[reportPrivateUsage]
            # Without arguments, `{}` is a region without blocks (as in MLIR).
            region = parser.parse_region()
        else:
            region = parser.parse_region(entry_args)

        attributes: dict[str, Attribute] = {
            "sym_name": name,
            "workgroup_attributions": IntegerAttr(len(workgroup), i64),
        }
        if kernel:
            attributes[KERNEL_ATTR_NAME] = UnitAttr()
        properties: dict[str, Attribute] = {
            "function_type": FunctionType.from_lists(input_types, result_types)
        }
        for key, value in (
            ("arg_attrs", _dict_array([a for _, a in args])),
            ("res_attrs", _dict_array(result_attrs)),
            ("workgroup_attrib_attrs", _dict_array([a for _, a in workgroup])),
            ("private_attrib_attrs", _dict_array([a for _, a in private])),
        ):
            if value is not None:
                properties[key] = value
        if extra is not None:
            for key, value in extra.data.items():
                if key in attributes or key in properties:
                    parser.raise_error(
                        f"attribute '{key}' occurs more than once in the attribute list",
                        dict_pos,
                    )
                if key in _KNOWN_SIZE_PROPS:
                    # MLIR drops a value it cannot convert to the property.
                    if _is_dense_i32_array(value):
                        properties[key] = value
                elif key in _PROPERTY_NAMES:
                    properties[key] = value
                else:
                    attributes[key] = value
        return cls.create(properties=properties, attributes=attributes, regions=[region])

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        ftype = self.function_type
        entry = self.body.blocks.first

        printer.print_string("(")
        if entry is not None:
            args = entry.args[: len(ftype.inputs)]

            def print_arg(i: int) -> None:
                printer.print_block_argument(args[i])
                _print_arg_attrs(printer, _dict_at(self.arg_attrs, i))

            printer.print_list(range(len(args)), print_arg)
        else:
            printer.print_list(ftype.inputs.data, printer.print_attribute)
        printer.print_string(")")

        outputs = ftype.outputs.data
        if outputs:
            res_dicts = [_dict_at(self.res_attrs, i) for i in range(len(outputs))]
            parens = len(outputs) > 1 or bool(res_dicts[0]) or isinstance(outputs[0], FunctionType)
            printer.print_string(" -> ")
            if parens:
                printer.print_string("(")

            def print_result(i: int) -> None:
                printer.print_attribute(outputs[i])
                _print_arg_attrs(printer, res_dicts[i])

            printer.print_list(range(len(outputs)), print_result)
            if parens:
                printer.print_string(")")

        self._print_attributions(
            printer, "workgroup", self.workgroup_attribution_args, self.workgroup_attrib_attrs
        )
        self._print_attributions(
            printer, "private", self.private_attribution_args, self.private_attrib_attrs
        )
        if self.is_kernel:
            printer.print_string(" kernel")

        shown = {
            k: v
            for k, v in (*self.properties.items(), *self.attributes.items())
            if k not in self._ELIDED
        }
        if shown:
            printer.print_string(" attributes ")
            printer.print_attr_dict(dict(sorted(shown.items())))
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False, print_empty_block=False)

    @staticmethod
    def _print_attributions(
        printer: Printer,
        keyword: str,
        values: Sequence[BlockArgument],
        attrs: ArrayAttr[DictionaryAttr] | None,
    ) -> None:
        if not values:
            return
        printer.print_string(f" {keyword}(")

        def print_one(i: int) -> None:
            printer.print_ssa_value(values[i])
            printer.print_string(" : ")
            printer.print_attribute(values[i].type)
            _print_arg_attrs(printer, _dict_at(attrs, i))

        printer.print_list(range(len(values)), print_one)
        printer.print_string(")")
