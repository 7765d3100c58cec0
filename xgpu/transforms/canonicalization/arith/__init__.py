"""MLIR 22's folders and canonicalization patterns for the arith ops.

xDSL's arith canonicalization differs from MLIR's in ways GPU programs meet
(`addf %x, 0.0` folded, `x ^ x` and `x - x` not folded, index arithmetic not
wrapped at 64 bits, `select` and `cmpi` rewritten differently, ...), so every
arith op xDSL defines gets MLIR 22's folder and MLIR 22's patterns here
(`register` at the end), written from the behaviour of `ArithOps.cpp` and
`ArithCanonicalization.td`:

* a folder computes what MLIR's `fold` hook returns; it never changes the IR.
  Integers are folded as APInt does: on the bits of the type's width (index is
  64 bits), signedness given by the op, no fold where MLIR refuses one
  (division by zero, signed overflow of `divsi`, shift amounts >= width, ...).
  Floats are folded for f16, bf16, f32 and f64, rounding to nearest even as
  APFloat does (a binary64 result rounded once more is exact for these
  formats); NaN results follow APFloat (a NaN operand is propagated, a new NaN
  is the positive quiet one).
* MLIR's folds that modify the op in place (`OpTrait::IsCommutative` moving a
  constant operand to the right, `cmpi` swapping a constant left operand,
  `extui(extui(x))`, `trunci(trunci(x))`, ...) are patterns listed first; the
  folder returns None where they apply so that the driver reaches them, as MLIR
  reaches them when `fold` returns the op itself.
* the declarative patterns keep MLIR's order, which is by benefit (the number
  of ops they match), then by registration.

Statically shaped vector and tensor constants are folded element by element by
the binary integer and float ops and by cmpi, as MLIR does; casts and selects
of such constants are not folded (left as they are, never folded wrongly), nor
are constants whose value a Python float cannot hold (signaling NaN payloads;
f80, f128 and the 8-bit float types).

The code lives in one module per concern, re-exported here:

* `values`: values, constants and integer semantics (shared with the index,
  memref and scf modules);
* `floats`: floating point semantics;
* `fold_int`, `fold_cmp_float`, `fold_cast`: the folders of the integer
  arithmetic ops, of cmpi/cmpf/select and the float arithmetic ops, and of the
  casts;
* `patterns_in_place`: MLIR's in-place folds, as patterns;
* `patterns_int`, `patterns_select_cast`, `patterns_float`: the patterns of
  `ArithCanonicalization.td` and `ArithOps.cpp`;
* this module: `register`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from xdsl.dialects import arith
from xdsl.ir import Operation
from xdsl.pattern_rewriter import RewritePattern

from xgpu.dialects import arith as xgpu_arith
from xgpu.transforms.canonicalization.arith.floats import float_or_splat as float_or_splat
from xgpu.transforms.canonicalization.arith.floats import float_to_int as float_to_int
from xgpu.transforms.canonicalization.arith.floats import float_value as float_value
from xgpu.transforms.canonicalization.arith.floats import int_to_float as int_to_float
from xgpu.transforms.canonicalization.arith.fold_cast import (
    fold_bitcast,
    fold_extf,
    fold_extsi,
    fold_extui,
    fold_fptosi,
    fold_fptoui,
    fold_index_cast,
    fold_sitofp,
    fold_truncf,
    fold_trunci,
    fold_uitofp,
)
from xgpu.transforms.canonicalization.arith.fold_cmp_float import cmpf_holds as cmpf_holds
from xgpu.transforms.canonicalization.arith.fold_cmp_float import cmpi_holds as cmpi_holds
from xgpu.transforms.canonicalization.arith.fold_cmp_float import (
    fold_addf,
    fold_cmpf,
    fold_cmpi,
    fold_divf,
    fold_maximumf,
    fold_maxnumf,
    fold_minimumf,
    fold_minnumf,
    fold_mulf,
    fold_negf,
    fold_select,
    fold_subf,
)
from xgpu.transforms.canonicalization.arith.fold_int import IntFn as IntFn
from xgpu.transforms.canonicalization.arith.fold_int import (
    fold_addi,
    fold_addui_extended,
    fold_andi,
    fold_ceildivsi,
    fold_ceildivui,
    fold_divsi,
    fold_divui,
    fold_floordivsi,
    fold_maxsi,
    fold_maxui,
    fold_minsi,
    fold_minui,
    fold_muli,
    fold_mulsi_extended,
    fold_mului_extended,
    fold_ori,
    fold_remsi,
    fold_remui,
    fold_shli,
    fold_shrsi,
    fold_shrui,
    fold_subi,
    fold_xori,
)
from xgpu.transforms.canonicalization.arith.patterns_float import (
    CmpFIntToFPConst,
    DivFOfNegF,
    MulFOfNegF,
)
from xgpu.transforms.canonicalization.arith.patterns_in_place import (
    CmpiSwapConstantLeft,
    ExtOfSameExt,
    MoveConstantOperandRight,
    TruncFOfExtF,
    TruncIOfExtOrTrunc,
)
from xgpu.transforms.canonicalization.arith.patterns_int import (
    AddIAddConstant,
    AddIMulNegativeOneLhs,
    AddIMulNegativeOneRhs,
    AddISubConstantLHS,
    AddISubConstantRHS,
    AddUIExtendedToAddI,
    AndOfExtSI,
    AndOfExtUI,
    CmpIExtSI,
    CmpIExtUI,
    MulExtendedToMulI,
    MulIMulIConstant,
    MulSIExtendedRHSOne,
    OrOfExtSI,
    OrOfExtUI,
    SubILHSAddConstant,
    SubILHSSubConstantLHS,
    SubILHSSubConstantRHS,
    SubIRHSAddConstant,
    SubIRHSSubConstantLHS,
    SubIRHSSubConstantRHS,
    SubISubILHSRHSLHS,
    XOrINotCmpI,
    XOrIOfExtSI,
    XOrIOfExtUI,
)
from xgpu.transforms.canonicalization.arith.patterns_select_cast import (
    BitcastOfBitcast,
    ExtSIOfExtUI,
    IndexCastOfExtSI,
    IndexCastOfIndexCast,
    RedundantSelectFalse,
    RedundantSelectTrue,
    SelectI1ToNot,
    SelectNotCond,
    SelectToExtUI,
    TruncFSIToFPToSIToFP,
    TruncFUIToFPToUIToFP,
    TruncIExtSIToExtSI,
    TruncIExtUIToExtUI,
    TruncIShrSIToTrunciShrUI,
)
from xgpu.transforms.canonicalization.arith.values import Folded
from xgpu.transforms.canonicalization.arith.values import const_attr as const_attr
from xgpu.transforms.canonicalization.arith.values import defining_op as defining_op
from xgpu.transforms.canonicalization.arith.values import element_type as element_type
from xgpu.transforms.canonicalization.arith.values import inline_block as inline_block
from xgpu.transforms.canonicalization.arith.values import inline_block_before as inline_block_before
from xgpu.transforms.canonicalization.arith.values import int_attr as int_attr
from xgpu.transforms.canonicalization.arith.values import int_bits as int_bits
from xgpu.transforms.canonicalization.arith.values import int_or_splat_bits as int_or_splat_bits
from xgpu.transforms.canonicalization.arith.values import int_width as int_width
from xgpu.transforms.canonicalization.arith.values import is_all_ones as is_all_ones
from xgpu.transforms.canonicalization.arith.values import is_one as is_one
from xgpu.transforms.canonicalization.arith.values import is_zero as is_zero
from xgpu.transforms.canonicalization.arith.values import static_shaped as static_shaped
from xgpu.transforms.canonicalization.arith.values import to_signed as to_signed
from xgpu.transforms.canonicalization.arith.values import value_is_one as value_is_one
from xgpu.transforms.canonicalization.arith.values import value_is_zero as value_is_zero
from xgpu.transforms.canonicalization.arith.values import zero_attr as zero_attr

if TYPE_CHECKING:
    from xgpu.transforms.canonicalization import CanonicalizationTable


# ---------------------------------------------------------------------------
# Registration
# ---------------------------------------------------------------------------


def register(table: CanonicalizationTable) -> None:
    swap = MoveConstantOperandRight()
    rules: list[
        tuple[type[Operation], Callable[..., Folded] | None, tuple[RewritePattern, ...]]
    ] = [
        (arith.ConstantOp, None, ()),
        (
            arith.AddiOp,
            fold_addi,
            (
                swap,
                AddIAddConstant(),
                AddISubConstantRHS(),
                AddISubConstantLHS(),
                AddIMulNegativeOneRhs(),
                AddIMulNegativeOneLhs(),
            ),
        ),
        (
            arith.SubiOp,
            fold_subi,
            (
                SubIRHSAddConstant(),
                SubILHSAddConstant(),
                SubIRHSSubConstantRHS(),
                SubIRHSSubConstantLHS(),
                SubILHSSubConstantRHS(),
                SubILHSSubConstantLHS(),
                SubISubILHSRHSLHS(),
            ),
        ),
        (arith.MuliOp, fold_muli, (swap, MulIMulIConstant())),
        (arith.DivUIOp, fold_divui, ()),
        (arith.DivSIOp, fold_divsi, ()),
        (arith.CeilDivUIOp, fold_ceildivui, ()),
        (arith.CeilDivSIOp, fold_ceildivsi, ()),
        (arith.FloorDivSIOp, fold_floordivsi, ()),
        (arith.RemUIOp, fold_remui, ()),
        (arith.RemSIOp, fold_remsi, ()),
        (arith.AndIOp, fold_andi, (swap, AndOfExtUI(), AndOfExtSI())),
        (arith.OrIOp, fold_ori, (swap, OrOfExtUI(), OrOfExtSI())),
        (arith.XOrIOp, fold_xori, (swap, XOrIOfExtUI(), XOrIOfExtSI(), XOrINotCmpI())),
        (arith.ShLIOp, fold_shli, ()),
        (arith.ShRUIOp, fold_shrui, ()),
        (arith.ShRSIOp, fold_shrsi, ()),
        (arith.MaxSIOp, fold_maxsi, (swap,)),
        (arith.MaxUIOp, fold_maxui, (swap,)),
        (arith.MinSIOp, fold_minsi, (swap,)),
        (arith.MinUIOp, fold_minui, (swap,)),
        (arith.AddUIExtendedOp, fold_addui_extended, (swap, AddUIExtendedToAddI())),
        (
            arith.MulSIExtendedOp,
            fold_mulsi_extended,
            (swap, MulExtendedToMulI(), MulSIExtendedRHSOne()),
        ),
        (arith.MulUIExtendedOp, fold_mului_extended, (swap, MulExtendedToMulI())),
        (arith.CmpiOp, fold_cmpi, (CmpiSwapConstantLeft(), CmpIExtSI(), CmpIExtUI())),
        (arith.CmpfOp, fold_cmpf, (CmpFIntToFPConst(),)),
        (
            arith.SelectOp,
            fold_select,
            (
                RedundantSelectFalse(),
                RedundantSelectTrue(),
                SelectNotCond(),
                SelectI1ToNot(),
                SelectToExtUI(),
            ),
        ),
        (arith.AddfOp, fold_addf, (swap,)),
        (arith.SubfOp, fold_subf, ()),
        (arith.MulfOp, fold_mulf, (swap, MulFOfNegF())),
        (arith.DivfOp, fold_divf, (DivFOfNegF(),)),
        (arith.NegfOp, fold_negf, ()),
        (arith.MaximumfOp, fold_maximumf, (swap,)),
        (arith.MinimumfOp, fold_minimumf, (swap,)),
        (arith.MaxnumfOp, fold_maxnumf, (swap,)),
        (arith.MinnumfOp, fold_minnumf, (swap,)),
        (arith.ExtUIOp, fold_extui, (ExtOfSameExt(),)),
        (arith.ExtSIOp, fold_extsi, (ExtOfSameExt(), ExtSIOfExtUI())),
        (
            arith.TruncIOp,
            fold_trunci,
            (
                TruncIOfExtOrTrunc(),
                TruncIExtSIToExtSI(),
                TruncIExtUIToExtUI(),
                TruncIShrSIToTrunciShrUI(),
            ),
        ),
        (arith.ExtFOp, fold_extf, ()),
        (
            arith.TruncFOp,
            fold_truncf,
            (TruncFOfExtF(), TruncFSIToFPToSIToFP(), TruncFUIToFPToUIToFP()),
        ),
        (arith.IndexCastOp, fold_index_cast, (IndexCastOfIndexCast(), IndexCastOfExtSI())),
        (arith.BitcastOp, fold_bitcast, (BitcastOfBitcast(),)),
        (arith.SIToFPOp, fold_sitofp, ()),
        (arith.UIToFPOp, fold_uitofp, ()),
        (arith.FPToSIOp, fold_fptosi, ()),
        (arith.FPToUIOp, fold_fptoui, ()),
    ]
    # xgpu's arith classes (xgpu.dialects.arith) subclass xDSL's: same rules.
    rules += [
        (sub, folder, patterns)
        for sub in xgpu_arith.all_ops()
        for op_type, folder, patterns in list(rules)
        if sub is not op_type and issubclass(sub, op_type)
    ]
    for op_type, folder, patterns in rules:
        if folder is not None:
            table.set_folder(op_type, folder)
        table.set_patterns(op_type, *patterns)


__all__ = ["register"]
