"""The names MLIR 22 gives op results when it prints IR (OpAsmOpInterface's
`getAsmResultNames`), and the default dialect an op gives its regions
(`getDefaultDialect`), keyed by op NAME so that they apply to any class that
implements the op (xDSL's, xgpu's or an unregistered one).

`result_names(op)` answers a list of `(result index, name)`: the first result
of each named group; results outside every named group are numbered.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.ir import Attribute, Operation
from xdsl.irdl import IRDLOperation
from xdsl.irdl.operations import VarResultDef

Names = list[tuple[int, str]]

# Ops whose regions print the ops of this dialect without the prefix.
DEFAULT_DIALECTS: dict[str, str] = {
    "builtin.module": "builtin",
    "func.func": "func",
    "async.func": "async",
}

# Ops MLIR names after their op (`%alloc`, `%dim`, ...): op name -> name.
_FIXED: dict[str, str] = {
    "memref.alloc": "alloc",
    "memref.alloca": "alloca",
    "memref.assume_alignment": "assume_align",
    "func.constant": "f",
    "memref.cast": "cast",
    "memref.collapse_shape": "collapse_shape",
    "memref.dim": "dim",
    "memref.expand_shape": "expand_shape",
    "memref.extract_aligned_pointer_as_index": "intptr",
    "memref.memory_space_cast": "memspacecast",
    "memref.reinterpret_cast": "reinterpret_cast",
    "memref.reshape": "reshape",
    "memref.subview": "subview",
    "memref.transpose": "transpose",
    "memref.view": "view",
    "complex.constant": "cst",
    "tensor.cast": "cast",
    "tensor.collapse_shape": "collapsed",
    "tensor.concat": "concat",
    "tensor.dim": "dim",
    "tensor.expand_shape": "expanded",
    "tensor.extract": "extracted",
    "tensor.extract_slice": "extracted_slice",
    "tensor.from_elements": "from_elements",
    "tensor.generate": "generated",
    "tensor.insert": "inserted",
    "tensor.insert_slice": "inserted_slice",
    "tensor.pad": "padded",
    "tensor.rank": "rank",
    "tensor.reshape": "reshape",
    "tensor.splat": "splat",
}

# Ops with several result groups, each named (MLIR's ODS names them after
# their results when an op declares more than one).
_GROUPS: dict[str, tuple[str, ...]] = {
    "async.execute": ("token", "bodyResults"),
    "gpu.alloc": ("memref", "asyncToken"),
    "gpu.shuffle": ("shuffleResult", "valid"),
    "gpu.rotate": ("rotateResult", "valid"),
    "gpu.create_2to4_spmat": ("spMat", "asyncToken"),
    "arith.addui_extended": ("sum", "overflow"),
    "arith.mului_extended": ("low", "high"),
    "arith.mulsi_extended": ("low", "high"),
}

# Ops with several result definitions that MLIR still numbers (they implement
# OpAsmOpInterface themselves without naming results).
_NUMBERED: frozenset[str] = frozenset()

# The gpu ops whose result is named `<op>_<dimension>` (`%thread_id_x`).
_DIMENSION_OPS = frozenset(
    {
        "gpu.thread_id",
        "gpu.block_id",
        "gpu.block_dim",
        "gpu.grid_dim",
        "gpu.global_id",
        "gpu.cluster_id",
        "gpu.cluster_dim",
        "gpu.cluster_block_id",
        "gpu.cluster_dim_blocks",
    }
)


def _attr(op: Operation, name: str) -> Attribute | None:
    attr = op.properties.get(name)
    return attr if attr is not None else op.attributes.get(name)


def _signed(value: int, width: int) -> int:
    """The value of `width` bits as a signed number (APInt prints it so)."""
    if width <= 0:
        return value
    value &= (1 << width) - 1
    return value - (1 << width) if value >> (width - 1) else value


def _int_of(attr: Attribute) -> tuple[int, Attribute] | None:
    """The integer and type of an IntegerAttr (read generically)."""
    from xdsl.dialects.builtin import IntegerAttr

    if isinstance(attr, IntegerAttr):
        return attr.value.data, attr.type
    return None


def _type_text(attr: Attribute) -> str:
    from xgpu.ir.printer import attribute_text

    return attribute_text(attr)


def _arith_constant(op: Operation) -> Names:
    from xdsl.dialects.builtin import IntegerType

    value = _attr(op, "value")
    parsed = _int_of(value) if value is not None else None
    if parsed is None:
        return [(0, "cst")]
    number, type = parsed
    if isinstance(type, IntegerType):
        width = type.width.data
        if width == 1:
            return [(0, "true" if number & 1 else "false")]
        return [(0, f"c{_signed(number, width)}_{_type_text(type)}")]
    return [(0, f"c{_signed(number, 64)}")]


def _index_constant(op: Operation) -> Names:
    value = _attr(op, "value")
    parsed = _int_of(value) if value is not None else None
    if parsed is None:
        return []
    return [(0, f"idx{_signed(parsed[0], 64)}")]


def _index_bool_constant(op: Operation) -> Names:
    from xdsl.dialects.builtin import BoolAttr, IntegerAttr

    value = _attr(op, "value")
    if isinstance(value, IntegerAttr | BoolAttr):
        return [(0, "true" if value.value.data else "false")]
    return []


def _dimension(op: Operation) -> Names:
    attr = _attr(op, "dimension")
    if attr is None:
        return []
    data = getattr(attr, "data", attr)
    text = getattr(data, "value", data)
    short = op.name.split(".", 1)[1]
    return [(0, f"{short}_{text}")]


def _strided_metadata(op: Operation) -> Names:
    """`%base_buffer, %offset, %sizes:R, %strides:R` (R sizes and strides)."""
    rank = (len(op.results) - 2) // 2
    names = [(0, "base_buffer"), (1, "offset")]
    if rank:
        names += [(2, "sizes"), (2 + rank, "strides")]
    return names


_CUSTOM: dict[str, Callable[[Operation], Names]] = {
    "memref.extract_strided_metadata": _strided_metadata,
    "arith.constant": _arith_constant,
    "index.constant": _index_constant,
    "index.bool.constant": _index_bool_constant,
    **{name: _dimension for name in _DIMENSION_OPS},
}


def _group_sizes(op: Operation) -> list[int] | None:
    """The number of results in each result definition of an IRDL op."""
    if not isinstance(op, IRDLOperation):
        return None
    defs = [d for _, d in op.get_irdl_definition().results]
    variadic = [i for i, d in enumerate(defs) if isinstance(d, VarResultDef)]
    total = len(op.results)
    if not variadic:
        return [1] * len(defs) if total == len(defs) else None
    if len(variadic) == 1:
        rest = total - (len(defs) - 1)
        if rest < 0:
            return None
        return [rest if isinstance(d, VarResultDef) else 1 for d in defs]
    segments = _attr(op, "resultSegmentSizes")
    sizes = getattr(getattr(segments, "data", None), "data", None)
    if segments is None or sizes is None:
        return None
    values = list(segments.get_values()) if hasattr(segments, "get_values") else []
    return values if len(values) == len(defs) and sum(values) == total else None


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def _named_groups(op: Operation, names: Sequence[str] | None) -> Names:
    """The first result of each non-empty group, named (MLIR's ODS rule)."""
    sizes = _group_sizes(op)
    if sizes is None:
        return []
    if names is None:
        assert isinstance(op, IRDLOperation)
        names = [_camel(n) for n, _ in op.get_irdl_definition().results]
    if len(names) != len(sizes):
        return []
    result: Names = []
    start = 0
    for name, size in zip(names, sizes):
        if size:
            result.append((start, name))
        start += size
    return result


def result_names(op: Operation) -> Names:
    """MLIR's names for the results of `op` (custom form only)."""
    if not op.results:
        return []
    name = op.name
    if (fixed := _FIXED.get(name)) is not None:
        return [(0, fixed)]
    if (custom := _CUSTOM.get(name)) is not None:
        return custom(op)
    if (groups := _GROUPS.get(name)) is not None:
        return _named_groups(op, groups)
    if name in _NUMBERED or not isinstance(op, IRDLOperation):
        return []
    if len(op.get_irdl_definition().results) > 1:
        return _named_groups(op, None)
    return []


def block_argument_names(op: Operation | None, region_index: int) -> list[str] | None:
    """MLIR's OpAsm names of the entry block arguments of region `region_index`
    of `op` (None: numbered `%argN`). linalg's structured ops name their
    payload arguments after the operands they stand for (`%in`, `%out`)."""
    if op is None or region_index != 0:
        return None
    if op.name in ("linalg.generic", "linalg.map", "linalg.reduce"):
        segments = _attr(op, "operandSegmentSizes")
        sizes = getattr(segments, "get_values", lambda: None)() if segments else None
        if sizes is None or len(sizes) < 2:
            return None
        inputs, outputs = sizes[0], sizes[1]
        return ["in"] * inputs + ["out"] * outputs
    return None
