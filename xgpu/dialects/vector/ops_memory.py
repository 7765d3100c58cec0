"""vector ops on memory: load, store, maskedload, maskedstore (with MLIR 22's
`alignment` property), gather, scatter; as MLIR 22 reads, prints and
verifies them. transfer_read/transfer_write are xDSL's."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import vector as xvector
from xdsl.dialects.builtin import (
    BoolAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    TensorType,
    VectorType,
    i1,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect
from xdsl.utils.exceptions import VerifyException

_FALSE = BoolAttr.from_bool(False)


def _verify_alignment(op: Operation) -> None:
    value = op.properties.get("alignment")
    if value is None:
        return
    ok = (
        isinstance(value, IntegerAttr)
        and value.type == i64
        and value.value.data > 0
        and value.value.data & (value.value.data - 1) == 0
    )
    if not ok:
        raise VerifyException(
            "attribute 'alignment' failed to satisfy constraint: 64-bit signless integer "
            "attribute whose value is positive and whose value is a power of two > 0"
        )


def _elements_match(
    memref: Attribute, vector: Attribute, what: tuple[str, str], s: str = ""
) -> None:
    assert isinstance(memref, MemRefType | TensorType)
    if memref.element_type != (vector.element_type if isinstance(vector, VectorType) else vector):
        raise VerifyException(f"{what[0]} and {what[1]} element type{s} should match")


def _indices(memref: Attribute, indices: Sequence[SSAValue]) -> None:
    assert isinstance(memref, MemRefType | TensorType)
    rank = memref.get_num_dims()
    if len(indices) != rank:
        raise VerifyException(f"requires {rank} indices")


def _verify_whole_load_store(memref: Attribute, vector: Attribute, load: bool) -> None:
    assert isinstance(memref, MemRefType) and isinstance(vector, VectorType)
    name = "result" if load else "valueToStore"
    if memref.get_num_dims() < vector.get_num_dims():
        raise VerifyException(
            "destination memref has lower rank than the result vector"
            if load
            else "source memref has lower rank than the vector to store"
        )
    element = memref.element_type
    if isinstance(element, VectorType):
        if element != vector:
            raise VerifyException(f"base memref and {name} vector types should match")
        element = element.element_type
    if element != vector.element_type:
        raise VerifyException(
            "base and result element types should match"
            if load
            else "base and valueToStore element type should match"
        )


@irdl_op_definition
class LoadOp(xvector.LoadOp):
    name = "vector.load"

    base = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    result = result_def(VectorType)
    nontemporal = opt_prop_def(BoolAttr, default_value=_FALSE)
    alignment = opt_prop_def(AnyAttr())

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$base `[` $indices `]` attr-dict `:` type($base) `,` type($result)"
    parse = Operation.parse
    print = Operation.print

    def verify_(self) -> None:
        _verify_alignment(self)
        _verify_whole_load_store(self.base.type, self.result.type, load=True)
        _indices(self.base.type, self.indices)


@irdl_op_definition
class StoreOp(xvector.StoreOp):
    name = "vector.store"

    vector = operand_def(VectorType)
    base = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    nontemporal = opt_prop_def(BoolAttr, default_value=_FALSE)
    alignment = opt_prop_def(AnyAttr())

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$vector `,` $base `[` $indices `]` attr-dict `:` type($base) `,` type($vector)"
    )
    parse = Operation.parse
    print = Operation.print

    def verify_(self) -> None:
        _verify_alignment(self)
        _verify_whole_load_store(self.base.type, self.vector.type, load=False)
        _indices(self.base.type, self.indices)


@irdl_op_definition
class MaskedLoadOp(xvector.MaskedLoadOp):
    name = "vector.maskedload"

    base = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    mask = operand_def(VectorType)
    pass_thru = operand_def(VectorType)
    result = result_def(VectorType)
    alignment = opt_prop_def(AnyAttr())

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$base `[` $indices `]` `,` $mask `,` $pass_thru attr-dict `:` type($base) `,` "
        "type($mask) `,` type($pass_thru) `into` type($result)"
    )
    parse = Operation.parse
    print = Operation.print

    def verify_(self) -> None:
        _verify_alignment(self)
        res = self.result.type
        assert isinstance(res, VectorType)
        _elements_match(self.base.type, res, ("base", "result"))
        _indices(self.base.type, self.indices)
        if _shape(self.mask.type) != res.get_shape():
            raise VerifyException("expected result shape to match mask shape")
        if self.pass_thru.type != res:
            raise VerifyException("expected pass_thru of same type as result type")


@irdl_op_definition
class MaskedStoreOp(xvector.MaskedStoreOp):
    name = "vector.maskedstore"

    base = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    mask = operand_def(VectorType)
    value_to_store = operand_def(VectorType)
    alignment = opt_prop_def(AnyAttr())

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$base `[` $indices `]` `,` $mask `,` $value_to_store attr-dict `:` type($base) `,` "
        "type($mask) `,` type($value_to_store)"
    )
    parse = Operation.parse
    print = Operation.print

    def verify_(self) -> None:
        _verify_alignment(self)
        value = self.value_to_store.type
        assert isinstance(value, VectorType)
        _elements_match(self.base.type, value, ("base", "valueToStore"))
        _indices(self.base.type, self.indices)
        if _shape(self.mask.type) != value.get_shape():
            raise VerifyException("expected valueToStore shape to match mask shape")


def _shape(type_: Attribute) -> tuple[int, ...]:
    return tuple(type_.get_shape()) if isinstance(type_, VectorType) else ()


def _verify_index_mask(index_vec: Attribute, mask: Attribute) -> None:
    if not isinstance(index_vec, VectorType) or not isinstance(
        index_vec.element_type, IntegerType | IndexType
    ):
        raise VerifyException(
            f"operand #2 must be vector of integer or index values, but got '{index_vec}'"
        )
    if not isinstance(mask, VectorType) or mask.element_type != i1:
        raise VerifyException(
            f"operand #3 must be vector of 1-bit signless integer values, but got '{mask}'"
        )


@irdl_op_definition
class GatherOp(IRDLOperation):
    """`vector.gather %base[%i] [%idx], %mask, %pass : memref<?xf32>, vector<16xi32>,
    vector<16xi1>, vector<16xf32> into vector<16xf32>`."""

    name = "vector.gather"

    base = operand_def(MemRefType | TensorType)
    indices = var_operand_def(IndexType)
    index_vec = operand_def(VectorType)
    mask = operand_def(VectorType)
    pass_thru = operand_def(VectorType)
    alignment = opt_prop_def(AnyAttr())
    result = result_def(VectorType)

    traits = traits_def(MemoryReadEffect())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$base `[` $indices `]` `[` $index_vec `]` `,` $mask `,` $pass_thru attr-dict `:` "
        "type($base) `,` type($index_vec) `,` type($mask) `,` type($pass_thru) `into` "
        "type($result)"
    )

    def __init__(
        self,
        base: SSAValue | Operation,
        indices: Sequence[SSAValue | Operation],
        index_vec: SSAValue | Operation,
        mask: SSAValue | Operation,
        pass_thru: SSAValue | Operation,
        result_type: Attribute | None = None,
    ):
        super().__init__(
            operands=[base, indices, index_vec, mask, pass_thru],
            result_types=[result_type or SSAValue.get(pass_thru).type],
        )

    def verify_(self) -> None:
        _verify_alignment(self)
        res = self.result.type
        assert isinstance(res, VectorType)
        _elements_match(self.base.type, res, ("base", "result"))
        _indices(self.base.type, self.indices)
        if _shape(self.index_vec.type) != res.get_shape():
            raise VerifyException("expected result dim to match indices dim")
        if _shape(self.mask.type) != res.get_shape():
            raise VerifyException("expected result dim to match mask dim")
        if self.pass_thru.type != res:
            raise VerifyException("expected pass_thru of same type as result type")


@irdl_op_definition
class ScatterOp(IRDLOperation):
    """`vector.scatter %base[%i] [%idx], %mask, %value : memref<?xf32>, vector<16xi32>,
    vector<16xi1>, vector<16xf32>`."""

    name = "vector.scatter"

    base = operand_def(MemRefType)
    indices = var_operand_def(IndexType)
    index_vec = operand_def(VectorType)
    mask = operand_def(VectorType)
    valueToStore = operand_def(VectorType)
    alignment = opt_prop_def(AnyAttr())

    traits = traits_def(MemoryWriteEffect())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$base `[` $indices `]` `[` $index_vec `]` `,` $mask `,` $valueToStore attr-dict `:` "
        "type($base) `,` type($index_vec) `,` type($mask) `,` type($valueToStore)"
    )

    def __init__(
        self,
        base: SSAValue | Operation,
        indices: Sequence[SSAValue | Operation],
        index_vec: SSAValue | Operation,
        mask: SSAValue | Operation,
        value: SSAValue | Operation,
    ):
        super().__init__(operands=[base, indices, index_vec, mask, value])

    def verify_(self) -> None:
        _verify_alignment(self)
        value = self.valueToStore.type
        assert isinstance(value, VectorType)
        _elements_match(self.base.type, value, ("base", "valueToStore"))
        _indices(self.base.type, self.indices)
        if _shape(self.index_vec.type) != value.get_shape():
            raise VerifyException("expected valueToStore dim to match indices dim")
        if _shape(self.mask.type) != value.get_shape():
            raise VerifyException("expected valueToStore dim to match mask dim")


OPS: list[type[Operation]] = [
    LoadOp,
    StoreOp,
    MaskedLoadOp,
    MaskedStoreOp,
    GatherOp,
    ScatterOp,
]
