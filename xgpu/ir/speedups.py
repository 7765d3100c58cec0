"""Memoization for hot xDSL 0.75 accessors (xDSL is pinned; see pyproject).

Every access to a named operand of an op with `operandSegmentSizes`
(`op.async_dependencies`, `op.args`, ...) unpacks the segment-size array from
bytes again; on host programs with thousands of async ops this was the largest
single cost of verification and rewriting. Attributes are immutable, so the
unpacked tuple is kept on the attribute the first time.

`OpDef.verify` (an op's IRDL invariants) checks operand and result types,
properties and attributes against the definition's constraints, then the
op's traits. For an op without regions and successors the first part depends
only on (definition, operand types, result types, properties, attributes),
which repeat from line to line of a host program: a signature that passed once
passes again, so only the traits (which may look at the op's parent or
position) are checked again.

The signature is first looked up by the identity of its attributes (the
parser gives every `memref<?xf32>` of a file one object): hashing nested
attributes by value, as the set of signatures does, cost more than the check
it saved. The table keeps the attributes it names alive, so an id in it always
means the same object.

`IsolatedFromAbove.verify` asks, for every operand in the op's regions,
whether the op is an ancestor of the value's owner, walking up the parents
each time; an operand defined in the block of its user (nearly all of them in
a host program) is inside by construction. Only the others are asked, and a
failure is left to xDSL's own check, which reports it in its words.

`Operation.get_trait(T)` scans the class's traits; the answer per (op class,
trait class) is kept (and dropped when a trait is added to a class).

`gc_paused()`: parsing a host program creates about a million objects that
all live on, and verifying, rewriting and printing it walk them; Python's
cyclic garbage collector, run every 700 allocations, kept scanning them (a
fifth of the time of `xgpu-opt` on 10k launches). Within the context it does
not run; the cycles made meanwhile are collected on its next full run.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from operator import attrgetter

from xdsl.dialects.builtin import DenseArrayBase
from xdsl.ir import Operation
from xdsl.ir.core import OpTraits
from xdsl.irdl.operations import OpDef
from xdsl.traits import IsolatedFromAbove

_KEY = "_xgpu_values"


@contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic garbage collection inside (nested uses are fine). The objects
    made inside, which the collector would otherwise scan two or three times
    as they age, are moved at once to its oldest generation (which `freeze`
    then `unfreeze` does without scanning them); cycles among them are still
    collected on its next full run."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.unfreeze()
        gc.enable()


def _get_values(self: DenseArrayBase) -> tuple[int, ...] | tuple[float, ...]:
    values = self.__dict__.get(_KEY)
    if values is None:
        values = self.elt_type.unpack(self.data.data, len(self.data.data) // self.elt_type.size)
        object.__setattr__(self, _KEY, values)
    return values


_xdsl_verify = OpDef.verify
_VERIFIED: set[object] = set()
_MAX_VERIFIED = 65536


# `value.type` without the property call per value (xDSL 0.75 keeps it in
# the field `_type`; `Operation._operands` is the operand tuple).
_value_type = attrgetter("_type")


def _signature_ids(self: OpDef, op: Operation) -> tuple[int, ...]:
    properties, attributes = op.properties, op.attributes
    return (
        id(self),
        *map(id, map(_value_type, op._operands)),  # pyright: ignore[reportPrivateUsage]
        -1,
        *map(id, map(_value_type, op.results)),
        -1,
        *map(id, properties),
        *map(id, properties.values()),
        -1,
        *map(id, attributes),
        *map(id, attributes.values()),
    )


# signature ids -> the objects they name (kept alive while they are keys)
_VERIFIED_IDS: dict[tuple[int, ...], tuple[object, ...]] = {}


def _verify(self: OpDef, op: Operation) -> None:
    if op.regions or op.successors:
        _xdsl_verify(self, op)
        return
    ids = _signature_ids(self, op)
    if ids in _VERIFIED_IDS:
        for trait in self.traits:
            trait.verify(op)
        return
    try:
        key = (
            id(self),
            tuple(o.type for o in op.operands),
            tuple(r.type for r in op.results),
            tuple(op.properties.items()),
            tuple(op.attributes.items()),
        )
        known = key in _VERIFIED
    except TypeError:  # an unhashable attribute
        _xdsl_verify(self, op)
        return
    if known:
        for trait in self.traits:
            trait.verify(op)
    else:
        _xdsl_verify(self, op)
        if len(_VERIFIED) >= _MAX_VERIFIED:
            _VERIFIED.clear()
        _VERIFIED.add(key)
    if len(_VERIFIED_IDS) >= _MAX_VERIFIED:
        _VERIFIED_IDS.clear()
    _VERIFIED_IDS[ids] = (self, key)


_xdsl_isolated_verify = IsolatedFromAbove.verify


def _isolated_verify(self: IsolatedFromAbove, op: Operation) -> None:
    regions = list(op.regions)
    while regions:
        region = regions.pop()
        for block in region.blocks:
            for child in block.ops:
                for operand in child.operands:
                    owner = operand.owner
                    if owner is block or owner.parent is block:
                        continue
                    if owner is op or not op.is_ancestor(owner):
                        _xdsl_isolated_verify(self, op)  # raises, in xDSL's words
                        raise AssertionError("IsolatedFromAbove: xDSL found no use from outside")
                if child.regions and not child.has_trait(IsolatedFromAbove):
                    regions += child.regions


_xdsl_get_trait = Operation.get_trait.__func__  # type: ignore[attr-defined]
_xdsl_add_trait = OpTraits.add_trait
_TRAITS: dict[tuple[type, type], object] = {}


def _get_trait(cls, trait):  # type: ignore[no-untyped-def]
    if isinstance(trait, type):
        key = (cls, trait)
        try:
            return _TRAITS[key]
        except KeyError:
            found = _TRAITS[key] = _xdsl_get_trait(cls, trait)
            return found
    return _xdsl_get_trait(cls, trait)


def _add_trait(self: OpTraits, trait) -> None:  # type: ignore[no-untyped-def]
    _TRAITS.clear()
    _xdsl_add_trait(self, trait)


def install() -> None:
    if IsolatedFromAbove.verify is not _isolated_verify:
        IsolatedFromAbove.verify = _isolated_verify  # type: ignore[method-assign]
    if DenseArrayBase.get_values is not _get_values:
        DenseArrayBase.get_values = _get_values  # type: ignore[method-assign]
    if OpDef.verify is not _verify:
        OpDef.verify = _verify  # type: ignore[method-assign]
    if OpTraits.add_trait is not _add_trait:
        OpTraits.add_trait = _add_trait  # type: ignore[method-assign]
        Operation.get_trait = classmethod(_get_trait)  # type: ignore[method-assign,assignment]


install()
