"""Types of the gpu dialect: !gpu.async.token, !gpu.mma_matrix and the sparse handles."""

from __future__ import annotations

from xdsl.ir import ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition


@irdl_attr_definition
class AsyncTokenType(ParametrizedAttribute, TypeAttribute):
    """`!gpu.async.token`: the handle of asynchronous GPU work."""

    name = "gpu.async.token"


@irdl_attr_definition
class SparseDnTensorHandleType(ParametrizedAttribute, TypeAttribute):
    """`!gpu.sparse.dntensor_handle`."""

    name = "gpu.sparse.dntensor_handle"


@irdl_attr_definition
class SparseSpMatHandleType(ParametrizedAttribute, TypeAttribute):
    """`!gpu.sparse.spmat_handle`."""

    name = "gpu.sparse.spmat_handle"


@irdl_attr_definition
class SparseSpGEMMOpHandleType(ParametrizedAttribute, TypeAttribute):
    """`!gpu.sparse.spgemmop_handle`."""

    name = "gpu.sparse.spgemmop_handle"


OPS: list[type] = []
ATTRS: list[type] = [
    AsyncTokenType,
    SparseDnTensorHandleType,
    SparseSpMatHandleType,
    SparseSpGEMMOpHandleType,
]
