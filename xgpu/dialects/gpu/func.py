"""gpu.func (kernel, attributions, known sizes) and gpu.return.

Custom syntax of gpu.func (MLIR 22; a body is required):

    gpu.func @name(%a: T {argattrs}, ...) (-> T | -> (T {resattrs}, ...))?
        (workgroup(%w : T {attrs}, ...))? (private(%p : T {attrs}, ...))? (kernel)?
        (attributes {...})? { body }

The entry block takes the function arguments, then the workgroup attributions,
then the private attributions. Properties: `function_type`, `arg_attrs`,
`res_attrs`, `workgroup_attrib_attrs`, `private_attrib_attrs`, `known_block_size`,
`known_grid_size`, `known_cluster_size`; discardable attributes: `sym_name`,
`gpu.kernel` (unit) and `workgroup_attributions` (the number of workgroup
attributions, i64).

The module the catalog names for them (`xgpu.dialects.gpu.catalog`); they are
defined in `func_op` (gpu.func) and `func_return` (gpu.return), with the traits
and property constraints of gpu.func in `func_traits` and the pieces of its
custom syntax in `func_syntax`.
"""

from __future__ import annotations

from xgpu.dialects.gpu.func_op import (  # noqa: F401  (re-exported)
    _KNOWN_SIZE_PROPS,
    _PROPERTY_NAMES,
    KERNEL_ATTR_NAME,
    GPUFuncCallableInterface,
    GPUFuncOp,
    _type_str,
)
from xgpu.dialects.gpu.func_return import ReturnOp
from xgpu.dialects.gpu.func_syntax import (  # noqa: F401  (re-exported)
    _at_ssa_name,
    _dict_array,
    _dict_at,
    _parse_arg_attrs_and_loc,
    _parse_named_argument_list,
    _parse_named_arguments_rest,
    _parse_results,
    _parse_signature_arguments,
    _print_arg_attrs,
)
from xgpu.dialects.gpu.func_traits import (  # noqa: F401  (re-exported)
    AutomaticAllocationScope,
    DictArrayConstraint,
    FunctionTypeConstraint,
    KnownSizeConstraint,
    _is_dense_i32_array,
)

OPS: list[type] = [GPUFuncOp, ReturnOp]
ATTRS: list[type] = []
