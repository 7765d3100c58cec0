"""A faster MLIR lexer: xDSL's token stream, one regular expression per token.

xDSL's `MLIRLexer.lex` inspects the input character by character in Python;
on GPU host programs (about 50 tokens per `gpu.launch_func` line) it was a
quarter of the parse time. This lexer matches whitespace, comments and the
common tokens (identifiers, SSA names, symbols, punctuation, plain integers)
with one compiled pattern and builds the same `Token`s; anything else
(strings, floats, hex numbers, `...`, `{-#`, errors) goes to xDSL's code, so
tokens and error messages are unchanged.
"""

from __future__ import annotations

import re

from xdsl.utils.lexer import Span, Token
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRToken, MLIRTokenKind

_K = MLIRTokenKind
_SUFFIX = r"(?:[0-9]+|[a-zA-Z$._-][a-zA-Z0-9$._-]*)"
_TOKEN = re.compile(
    r"(?:\s+|//[^\n]*\n?)*"  # whitespace and comments, as xDSL skips them
    r"(?:"
    r"(?P<bare>[a-zA-Z_][a-zA-Z0-9_$.]*)"
    rf"|(?P<percent>%{_SUFFIX})"
    r"|(?P<punct>[:,()}\[\]<>=+*?|]|->|\{(?!-#)|-(?!>)|/)"
    r"|(?P<at>@[a-zA-Z_][a-zA-Z0-9_$.]*)"
    r"|(?P<int>[1-9][0-9]*(?![0-9.eExX])|0(?![0-9.eExX]))"
    rf"|(?P<hash>#(?!-\}}){_SUFFIX})"
    rf"|(?P<bang>!{_SUFFIX})"
    rf"|(?P<caret>\^{_SUFFIX})"
    r")?",
    re.ASCII,
)
_PUNCT = {
    ":": _K.COLON,
    ",": _K.COMMA,
    "(": _K.L_PAREN,
    ")": _K.R_PAREN,
    "}": _K.R_BRACE,
    "{": _K.L_BRACE,
    "[": _K.L_SQUARE,
    "]": _K.R_SQUARE,
    "<": _K.LESS,
    ">": _K.GREATER,
    "=": _K.EQUAL,
    "+": _K.PLUS,
    "/": _K.SLASH,
    "*": _K.STAR,
    "?": _K.QUESTION,
    "|": _K.VERTICAL_BAR,
    "-": _K.MINUS,
    "->": _K.ARROW,
}
_GROUP_KIND = {
    "bare": _K.BARE_IDENT,
    "percent": _K.PERCENT_IDENT,
    "at": _K.AT_IDENT,
    "int": _K.INTEGER_LIT,
    "hash": _K.HASH_IDENT,
    "bang": _K.EXCLAMATION_IDENT,
    "caret": _K.CARET_IDENT,
}


class FastMLIRLexer(MLIRLexer):
    def lex(self) -> MLIRToken:
        source = self.input
        match = _TOKEN.match(source.content, self.pos)
        assert match is not None  # the pattern can match the empty string
        group = match.lastgroup
        if group is None:
            # Not a common token: let xDSL lex it after the skipped whitespace.
            self.pos = match.end()
            return super().lex()
        start, end = match.span(group)
        self.pos = end
        if group == "punct":
            kind = _PUNCT[source.content[start:end]]
        else:
            kind = _GROUP_KIND[group]
        return Token(kind, Span(start, end, source))
