"""Symbol look-up as MLIR's `SymbolTable::lookupSymbolIn`, and the index of
symbol tables kept while the IR cannot change (one verification).

Its own module so that the verifier can index symbol tables without importing
the gpu dialect's launch ops (a program without `gpu.launch_func` never
imports them).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from xdsl.dialects.builtin import StringAttr, SymbolRefAttr
from xdsl.ir import Operation
from xdsl.traits import SymbolTable

# While the IR cannot change, each symbol table is indexed once instead of
# scanned for each look-up. Besides the tables, the index holds what the
# launches' verifiers found under the two keys below.
_INDEX: dict[object, dict] | None = None

#: key of the launches (container module, kernel, operand types) found valid
VALID_LAUNCHES = object()
#: key of the ids of the launches whose kernel symbol the container module's
#: check found valid (their own verifier need not check it again)
CHECKED_LAUNCHES = object()


@contextmanager
def indexed_symbol_tables() -> Iterator[None]:
    """Within this context the IR must not change: symbol look-ups are cached."""
    global _INDEX
    outer = _INDEX
    _INDEX = {} if outer is None else outer
    try:
        yield
    finally:
        _INDEX = outer


def active_index() -> dict | None:
    """The index of the innermost `indexed_symbol_tables`, or None outside one."""
    return _INDEX


def sym_name(op: Operation) -> str | None:
    sym = op.properties.get("sym_name") or op.attributes.get("sym_name")
    return sym.data if isinstance(sym, StringAttr) else None


def is_symbol_table(op: Operation) -> bool:
    return op.has_trait(SymbolTable) or op.name in ("builtin.module", "gpu.module")


def lookup_symbol_in(table: Operation, name: str) -> Operation | None:
    """The op named `name` directly in the symbol table `table`, or None."""
    if not table.regions or not table.regions[0].blocks:
        return None
    if _INDEX is not None:
        index = _INDEX.get(table)
        if index is None:
            index = _INDEX[table] = {}
            for op in table.regions[0].blocks[0].ops:
                if (sym := sym_name(op)) is not None:
                    index.setdefault(sym, op)
        return index.get(name)
    for op in table.regions[0].blocks[0].ops:
        if sym_name(op) == name:
            return op
    return None


def lookup_nested_symbol(table: Operation, ref: SymbolRefAttr) -> Operation | None:
    """Resolve `@a::@b::@c` from `table`: every op but the last must be a symbol table."""
    op = lookup_symbol_in(table, ref.root_reference.data)
    for nested in ref.nested_references.data:
        if op is None or not is_symbol_table(op):
            return None
        op = lookup_symbol_in(op, nested.data)
    return op
