"""The index dialect's ops as the arith ops they compute (`index` is 64 bits
in xgpu's runtimes): `index.add` is `arith.addi` on index values,
`index.casts`/`index.castu` are `arith.index_cast`/`arith.index_castui`,
`index.cmp` is `arith.cmpi`, and the constants (with `index.sizeof`, 64) are
`arith.constant`s. `xgpu.semantics.lookup` supplies the predicate and the
value."""

from __future__ import annotations

from dataclasses import replace

from xgpu.semantics.core import REGISTRY, Builder, OpSemantics, Signature

AS_ARITH: dict[str, str] = {
    "index.add": "arith.addi",
    "index.sub": "arith.subi",
    "index.mul": "arith.muli",
    "index.divs": "arith.divsi",
    "index.divu": "arith.divui",
    "index.ceildivs": "arith.ceildivsi",
    "index.ceildivu": "arith.ceildivui",
    "index.floordivs": "arith.floordivsi",
    "index.rems": "arith.remsi",
    "index.remu": "arith.remui",
    "index.maxs": "arith.maxsi",
    "index.maxu": "arith.maxui",
    "index.mins": "arith.minsi",
    "index.minu": "arith.minui",
    "index.shl": "arith.shli",
    "index.shrs": "arith.shrsi",
    "index.shru": "arith.shrui",
    "index.and": "arith.andi",
    "index.or": "arith.ori",
    "index.xor": "arith.xori",
    "index.casts": "arith.index_cast",
    "index.castu": "arith.index_castui",
    "index.cmp": "arith.cmpi",
    "index.constant": "arith.constant",
    "index.bool.constant": "arith.constant",
    "index.sizeof": "arith.constant",
}

#: The width of `index` in the runtimes (the value of `index.sizeof`).
INDEX_BITS = 64


def _as(arith: str) -> Builder:
    def builder(sig: Signature) -> OpSemantics:
        return REGISTRY[arith](replace(sig, name=arith))

    return builder


for _name, _arith in AS_ARITH.items():
    REGISTRY[_name] = _as(_arith)
