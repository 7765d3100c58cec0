"""Affine maps, integer sets and SSA subscripts read as MLIR 22 reads them.

xDSL's affine parser rejects semi-affine expressions (`d0 * s0`,
`(d0 - s0) ceildiv s1`, which every `convert-parallel-loops-to-gpu` output
holds) and simplifies with its own rules. `AffineTextParser`, a base of
xgpu's parser, reads them with MLIR's grammar, precedence and messages, and
builds each expression with MLIR's construction-time simplification
(`xgpu.ir.affine_expr`)."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import contextmanager
from typing import NoReturn

from xdsl.ir.affine import (
    AffineConstraintExpr,
    AffineConstraintKind,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSet,
    AffineSymExpr,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.utils.exceptions import ParseError
from xdsl.utils.lexer import Position

from xgpu.ir import affine_expr as ax
from xgpu.ir.affine_expr import Kind

_HIGH_PRECEDENCE = {"floordiv": Kind.FloorDiv, "ceildiv": Kind.CeilDiv, "mod": Kind.Mod}

# Parses an identifier-like operand (`d0`, `%x`), or returns None.
LeafParser = Callable[[], AffineExpr | None]


class AffineTextParser(Parser):
    """Affine expressions with MLIR's grammar:

    expr    ::= term (('+' | '-') term)*
    term    ::= operand (('*' | 'floordiv' | 'ceildiv' | 'mod') operand)*
    operand ::= '-' operand | '(' expr ')' | integer | identifier
    """

    def raise_wrong_token(self, message: str) -> NoReturn:
        """MLIR's error for a missing token: at the end of the token before it,
        worded as MLIR's generic parser does (no `custom op` prefix)."""
        text = self.lexer.input.content
        pos = self.pos
        while pos > 0 and text[pos - 1] in " \t\r\n":
            pos -= 1
        with _own_errors():
            self.raise_error(message, pos)

    def expect_punctuation(self, punctuation, message: str | None = None) -> None:
        """`punctuation`, or MLIR's `expected 'P'` error (`message` if given)."""
        if not self.parse_optional_punctuation(punctuation):
            self.raise_wrong_token(message or f"expected '{punctuation}'")

    # -- expressions -------------------------------------------------------

    def _parse_optional_low_op(self) -> str | None:
        return self.parse_optional_punctuation("+") or self.parse_optional_punctuation("-")

    def _parse_optional_high_op(self) -> Kind | None:
        if self.parse_optional_punctuation("*"):
            return Kind.Mul
        for word, kind in _HIGH_PRECEDENCE.items():
            if self.parse_optional_keyword(word):
                return kind
        return None

    def _parse_optional_affine_operand(self, leaf: LeafParser) -> AffineExpr | None:
        if self.parse_optional_punctuation("-"):
            operand = self._parse_optional_affine_operand(leaf)
            if operand is None:
                self.raise_error("missing operand of negation")
            return ax.neg(operand)
        if self.parse_optional_punctuation("("):
            inner = self._parse_affine_expr(leaf)
            self.expect_punctuation(")", "expected ')'")
            return inner
        pos = self.pos
        if (value := self.parse_optional_integer(False, False)) is not None:
            if value >= 1 << 63:
                self.raise_error("constant too large for index", pos)
            return ax.constant(value)
        return leaf()

    def _parse_affine_operand(self, leaf: LeafParser, after_op: bool) -> AffineExpr:
        pos = self.pos
        operand = self._parse_optional_affine_operand(leaf)
        if operand is not None:
            return operand
        if after_op:
            self.raise_error("missing right operand of binary operator", pos)
        if self._parse_optional_low_op() or self._parse_optional_high_op():
            self.raise_error("missing left operand of binary operator", pos)
        self.raise_error("expected affine expression", pos)

    def _build_high(self, kind: Kind, lhs: AffineExpr, rhs: AffineExpr, at: Position):
        if kind == Kind.Mul:
            if not ax.is_symbolic_or_constant(lhs) and not ax.is_symbolic_or_constant(rhs):
                self.raise_error(
                    "non-affine expression: at least one of the multiply operands has to "
                    "be either a constant or symbolic",
                    at,
                )
        elif not ax.is_symbolic_or_constant(rhs):
            self.raise_error(
                f"non-affine expression: right operand of {kind.get_token()} has to be "
                "either a constant or symbolic",
                at,
            )
        return ax.binary(kind, lhs, rhs)

    def _parse_affine_term(self, leaf: LeafParser, after_op: bool) -> AffineExpr:
        expr = self._parse_affine_operand(leaf, after_op)
        at = self.pos
        kind = self._parse_optional_high_op()
        while kind is not None:
            rhs = self._parse_affine_operand(leaf, True)
            next_at = self.pos
            next_kind = self._parse_optional_high_op()
            # MLIR reports a non-affine product at the operator after it, if
            # the chain goes on.
            expr = self._build_high(kind, expr, rhs, at if next_kind is None else next_at)
            at, kind = next_at, next_kind
        return expr

    def _parse_affine_expr(self, leaf: LeafParser) -> AffineExpr:
        expr = self._parse_affine_term(leaf, False)
        while (op := self._parse_optional_low_op()) is not None:
            rhs = self._parse_affine_term(leaf, True)
            expr = ax.add(expr, rhs) if op == "+" else ax.sub(expr, rhs)
        return expr

    # -- maps and sets ---------------------------------------------------------

    def _parse_affine_names(self, close: str, names: dict[str, AffineExpr], make, what: str) -> int:
        """The names of a `(d0, d1)` or `[s0]` list (its opening bracket read)."""
        count = 0
        if self.parse_optional_punctuation(close):
            return 0
        while True:
            pos = self.pos
            name = self.parse_optional_identifier()
            if name is None:
                self.raise_error("expected bare identifier", pos)
            if name in names:
                self.raise_error(f"redefinition of identifier '{name}'", pos)
            names[name] = make(count)
            count += 1
            if self.parse_optional_punctuation(close):
                return count
            if not self.parse_optional_punctuation(","):
                self.raise_wrong_token(f"expected '{close}' in {what} list")

    def _parse_affine_space(self) -> tuple[int, int, LeafParser]:
        names: dict[str, AffineExpr] = {}
        self.parse_punctuation("(", " at start of dimensional identifiers list")
        num_dims = self._parse_affine_names(")", names, AffineDimExpr, "dimensional identifier")
        num_syms = 0
        if self.parse_optional_punctuation("["):
            num_syms = self._parse_affine_names("]", names, AffineSymExpr, "symbol")

        def leaf() -> AffineExpr | None:
            pos = self.pos
            name = self.parse_optional_identifier()
            if name is None:
                return None
            if name not in names:
                self.raise_error("use of undeclared identifier", pos)
            return names[name]

        return num_dims, num_syms, leaf

    def parse_affine_map_or_set(self) -> AffineMap | AffineSet:
        with _own_errors():
            return self._parse_affine_map_or_set()

    def _parse_affine_map_or_set(self) -> AffineMap | AffineSet:
        num_dims, num_syms, leaf = self._parse_affine_space()
        if self.parse_optional_punctuation("->"):
            results: list[AffineExpr] = []
            self.expect_punctuation("(", "expected '(' in affine map range")
            if not self.parse_optional_punctuation(")"):
                while True:
                    results.append(self._parse_affine_expr(leaf))
                    if self.parse_optional_punctuation(")"):
                        break
                    if not self.parse_optional_punctuation(","):
                        self.raise_wrong_token("expected ')' in affine map range")
            return AffineMap(num_dims, num_syms, tuple(results))
        if self.parse_optional_punctuation(":"):
            constraints: list[AffineConstraintExpr] = []
            self.expect_punctuation("(", "expected '(' in integer set constraint list")
            if not self.parse_optional_punctuation(")"):
                while True:
                    constraints.append(self._parse_affine_constraint(leaf))
                    if self.parse_optional_punctuation(")"):
                        break
                    if not self.parse_optional_punctuation(","):
                        self.raise_wrong_token("expected ')' in integer set constraint list")
            return AffineSet(num_dims, num_syms, tuple(constraints))
        self.raise_wrong_token("expected '->' or ':'")

    def _parse_affine_constraint(self, leaf: LeafParser) -> AffineConstraintExpr:
        lhs = self._parse_affine_expr(leaf)
        message = "expected '== affine-expr' or '>= affine-expr' at end of affine constraint"
        if self.parse_optional_punctuation(">"):
            kind = AffineConstraintKind.ge
        elif self.parse_optional_punctuation("<"):
            kind = AffineConstraintKind.le
        elif self.parse_optional_punctuation("="):
            kind = AffineConstraintKind.eq
        else:
            self.raise_error(message)
        if not self.parse_optional_punctuation("="):
            self.raise_error(message)
        rhs = self._parse_affine_expr(leaf)
        if kind == AffineConstraintKind.le:
            kind, lhs, rhs = AffineConstraintKind.ge, rhs, lhs
        return constraint(kind, ax.sub(lhs, rhs))

    def parse_affine_map(self) -> AffineMap:
        pos = self.pos
        parsed = self.parse_affine_map_or_set()
        if not isinstance(parsed, AffineMap):
            self.raise_error("expected AffineMap, but got IntegerSet", pos)
        return parsed

    def parse_affine_set(self) -> AffineSet:
        pos = self.pos
        parsed = self.parse_affine_map_or_set()
        if not isinstance(parsed, AffineSet):
            self.raise_error("expected IntegerSet, but got AffineMap", pos)
        return parsed

    # -- subscripts of SSA values (affine.load, affine.store, ...) ---------

    def parse_affine_ssa_subscripts(
        self, close: str = "]"
    ) -> tuple[AffineMap, list[UnresolvedOperand], list[UnresolvedOperand]]:
        """`%i + 1, symbol(%n) * 2]` (the opening bracket already read): the map
        and its dimension and symbol operands, each value counted once, in
        the order first used; `symbol(%x)` makes `%x` a symbol."""
        with _own_errors():
            return self._parse_affine_ssa_subscripts(close)

    def parse_affine_ssa_expr(
        self,
    ) -> tuple[AffineMap, list[UnresolvedOperand], list[UnresolvedOperand]]:
        """One expression of SSA values (a bound of affine.parallel)."""
        with _own_errors():
            return self._parse_affine_ssa_subscripts(None)

    def _parse_affine_ssa_subscripts(
        self, close: str | None
    ) -> tuple[AffineMap, list[UnresolvedOperand], list[UnresolvedOperand]]:
        # A value used again is the same input, whether written `%x` or
        # `symbol(%x)` the second time (as in MLIR).
        seen: dict[str, AffineExpr] = {}
        dims: list[UnresolvedOperand] = []
        syms: list[UnresolvedOperand] = []

        def use(operand: UnresolvedOperand, symbol: bool) -> AffineExpr:
            key = _key(operand)
            if key not in seen:
                if symbol:
                    seen[key] = AffineSymExpr(len(syms))
                    syms.append(operand)
                else:
                    seen[key] = AffineDimExpr(len(dims))
                    dims.append(operand)
            return seen[key]

        def leaf() -> AffineExpr | None:
            if self.parse_optional_keyword("symbol"):
                self.expect_punctuation("(")
                operand = self.parse_optional_operand_name()
                if operand is None:
                    self.raise_error("expected ssa identifier")
                self.expect_punctuation(")")
                return use(operand, True)
            pos = self.pos
            operand = self.parse_optional_operand_name()
            if operand is None:
                if self.parse_optional_identifier() is not None:
                    self.raise_error("use of undeclared identifier", pos)
                return None
            return use(operand, False)

        results: list[AffineExpr] = []
        if close is None:
            results.append(self._parse_affine_expr(leaf))
        elif not self.parse_optional_punctuation(close):
            while True:
                results.append(self._parse_affine_expr(leaf))
                if self.parse_optional_punctuation(close):
                    break
                if not self.parse_optional_punctuation(","):
                    self.raise_wrong_token(f"expected '{close}' in affine map")
        amap = AffineMap(len(dims), len(syms), tuple(results))
        return amap, dims, syms

    def parse_optional_operand_name(self) -> UnresolvedOperand | None:
        return self.parse_optional_unresolved_operand()


@contextmanager
def _own_errors():
    """MLIR reports errors in an affine map without naming the op around it."""
    try:
        yield
    except ParseError as err:
        setattr(err, "_xgpu_owned", True)
        raise


def constraint(kind: AffineConstraintKind, expr: AffineExpr) -> AffineConstraintExpr:
    """`expr >= 0` or `expr == 0`, kept as built (xDSL would re-simplify)."""
    return AffineConstraintExpr(kind, expr, ax.constant(0), canonicalize=False)


def _key(operand: UnresolvedOperand) -> str:
    """An SSA use as written (`%x`, `%x#1`): a repeated use is one map input."""
    return f"{operand.operand_name}#{operand.index}"
