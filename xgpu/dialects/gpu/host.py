"""Host-side gpu ops: wait (more host ops are added here)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    opt_result_def,
    var_operand_def,
)

from xgpu.dialects.gpu.async_interface import AsyncDependencies, AsyncOpInterface
from xgpu.dialects.gpu.types import AsyncTokenType


@irdl_op_definition
class WaitOp(AsyncOpInterface, IRDLOperation):
    """`gpu.wait`: block the host on tokens, or (`async`) join them into one token."""

    name = "gpu.wait"

    async_dependencies = var_operand_def(AsyncTokenType)
    async_token = opt_result_def(AsyncTokenType)

    custom_directives = (AsyncDependencies,)
    assembly_format = "custom<AsyncDependencies>(type($async_token), $async_dependencies) attr-dict"

    def __init__(self, dependencies: Sequence[SSAValue] = (), is_async: bool = False):
        super().__init__(
            operands=[dependencies],
            result_types=[[AsyncTokenType()] if is_async else []],
        )


OPS: list[type] = [WaitOp]
ATTRS: list[type] = []
