"""arith: how each op computes, in OpenCL C and in Python.

Integers (any supported width, `index` = 64 bits) wrap modulo 2**width. The C
side computes wrapping arithmetic in an unsigned type (`uint`/`ulong`), where
overflow is defined, and converts back; signed readings of `i1` are 0 and -1.

Undefined behaviour and poison, the same choice on both sides where possible:
- integer division and remainder by zero, and signed division overflow
  (`INT_MIN / -1`): immediate UB in MLIR. `py` raises `UndefinedBehavior`; the
  C helpers return 0 for a zero divisor and the wrapped quotient (`INT_MIN`)
  or 0 (remainder) for `INT_MIN / -1`, instead of trapping.
- shift amounts >= the width: poison in MLIR. Both sides compute what OpenCL C
  defines: the amount is taken modulo the promoted width (32, or 64 for 64-bit
  types), and the result is truncated to the type (`shli` of an i8 by 9 is 0).
- `fptosi`/`fptoui` out of range: poison in MLIR. Both sides saturate to the
  result range and give 0 for NaN (OpenCL's `convert_<T>_sat_rtz`).
- `maxnumf`/`minnumf` of +0 and -0 may give either zero (as in IEEE
  maxNum); tests should not depend on it.
Float arithmetic is IEEE round-to-nearest on both sides. OpenCL C 1.2 allows
2.5 ulp for a single-precision divide: PoCL's is correctly rounded.

One module per concern, imported here in this order (the order in which the
ops are registered): `common` (predicates, C building blocks, operand checks),
`integers`, `casts`, `floats`, `constants`.
"""

from __future__ import annotations

# The order registers the ops as they were registered in one module: keep it.
# isort: off
from xgpu.semantics.arith.common import (  # noqa: F401  (re-exported)
    CMPF_PREDICATES,
    CMPI_PREDICATES,
    _check_float,
    _check_int,
    _helper_name,
    signed_c,
    unsigned_c,
    wrap_c,
)
from xgpu.semantics.arith.integers import (  # noqa: F401  (re-exported; registers the ops)
    _BITWISE,
    _PY_BITWISE,
    _PY_WRAPPING,
    _WRAPPING,
    _addui_extended,
    _bitwise,
    _cmpi,
    _div_helpers,
    _division,
    _minmax_int,
    _mul_extended,
    _py_division,
    _select,
    _shift,
    _trunc_div,
    _wrapping,
)
from xgpu.semantics.arith.casts import (  # noqa: F401  (re-exported; registers the ops)
    _AS,
    _bitcast,
    _float_cast,
    _float_of_int,
    _float_to_int,
    _int_cast,
    _int_to_float,
)
from xgpu.semantics.arith.floats import (  # noqa: F401  (re-exported; registers the ops)
    _FLOAT_BINOPS,
    _PY_FLOAT_BINOPS,
    _cmpf,
    _float_binop,
    _ieee_minmax,
    _ieee_minmax_helper,
    _negf,
    _np_divide,
    _num_minmax,
    _py_divf,
    _py_ieee_minmax,
    _py_num_minmax,
    _remf,
    np_float,
)
from xgpu.semantics.arith.constants import (  # noqa: F401  (re-exported; registers the op)
    _constant,
    c_literal,
)
# isort: on
