"""gpu.return: return from a gpu.func (`xgpu.dialects.gpu.func`)."""

from __future__ import annotations

from xdsl.ir import Operation, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, traits_def, var_operand_def
from xdsl.traits import IsTerminator
from xdsl.utils.exceptions import VerifyException

from xgpu.diagnostics import OpDiagnostic
from xgpu.dialects.gpu.func_op import GPUFuncOp, _type_str
from xgpu.dialects.gpu.utils import HasParentWithMLIRMessage

# --------------------------------------------------------------------------- #
# gpu.return                                                                  #
# --------------------------------------------------------------------------- #


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """`gpu.return`: return from a gpu.func."""

    name = "gpu.return"

    values = var_operand_def()

    traits = traits_def(HasParentWithMLIRMessage(GPUFuncOp), IsTerminator())

    assembly_format = "attr-dict ($values^ `:` type($values))?"

    def __init__(self, *values: SSAValue | Operation):
        super().__init__(operands=[values])

    def verify_(self) -> None:
        func = self.parent_op()
        if not isinstance(func, GPUFuncOp):
            return
        expected = func.function_type.outputs.data
        if len(expected) != len(self.values):
            raise OpDiagnostic(
                f"expected {len(expected)} result operands",
                notes=[(func, "return type declared here")],
            )
        for i, (want, value) in enumerate(zip(expected, self.values)):
            if value.type != want:
                raise VerifyException(
                    f"unexpected type `'{_type_str(value.type)}'' for operand #{i}"
                )
