"""POSIX extended regular expressions as llvm::Regex reads them, matched in
bounded time.

MLIR's `expected-*-re` annotations are llvm::Regex patterns (Henry Spencer's
ERE dialect: alternation, groups, `* + ? {m,n}` with counts up to 255, bracket
expressions with `[:class:]`, `[=c=]` and `[.name.]`, `[[:<:]]`/`[[:>:]]` word
boundaries, `.`, `^`, `$`, and `\\c` for a literal `c`). Python's `re` reads
another dialect and backtracks: a pattern such as `(a*)*b` takes exponential
time. Here a pattern is parsed with llvm's grammar (the same errors, worded as
llvm's `regerror`) and compiled to an NFA that is run as a lazily built DFA
over the UTF-8 bytes of the text: time linear in the text for a fixed pattern,
and a fixed budget of work for any pattern and text.

Not supported: back-references (`\\1`...), which no bounded-time matcher can
have; `compile_pattern` rejects a pattern that uses one (`check_pattern`
accepts it, as llvm does).
"""

from __future__ import annotations

from dataclasses import dataclass

DUP_MAX = 255
"""llvm::Regex's largest repetition count (`RE_DUP_MAX`)."""
MAX_PROGRAM = 100_000
"""NFA instructions a pattern may expand to (`(a{255}){255}` and the like)."""
WORK_BUDGET = 5_000_000
"""NFA steps one match may take before it gives up."""
_DFA_CACHE = 4096

# llvm's `regerror` texts.
EMPTY = "empty (sub)expression"
EPAREN = "parentheses not balanced"
EBRACK = "brackets ([ ]) not balanced"
EBRACE = "braces not balanced"
BADBR = "invalid repetition count(s)"
ERANGE = "invalid character range"
ECTYPE = "invalid character class"
ECOLLATE = "invalid collating element"
EESCAPE = "trailing backslash (\\)"
ESUBREG = "invalid backreference number"
BADRPT = "repetition-operator operand invalid"
ESPACE = "out of memory"
BACKREF = "back-references are not supported by xgpu-opt"


class RegexError(Exception):
    """An invalid pattern; the message is llvm's `regerror` text."""


class RegexTooCostly(Exception):
    """A match that would exceed WORK_BUDGET."""


def _chars(*ranges: tuple[int, int] | str) -> frozenset[int]:
    out: set[int] = set()
    for r in ranges:
        if isinstance(r, str):
            out.update(r.encode())
        else:
            out.update(range(r[0], r[1] + 1))
    return frozenset(out)


_UPPER = _chars((65, 90))
_LOWER = _chars((97, 122))
_DIGIT = _chars((48, 57))
_ALPHA = _UPPER | _LOWER
_ALNUM = _ALPHA | _DIGIT
_GRAPH = _chars((33, 126))
_CLASSES = {
    "alnum": _ALNUM,
    "alpha": _ALPHA,
    "blank": _chars(" \t"),
    "cntrl": _chars((1, 31), (127, 127)),
    "digit": _DIGIT,
    "graph": _GRAPH,
    "lower": _LOWER,
    "print": _GRAPH | {32},
    "punct": _GRAPH - _ALNUM,
    "space": _chars("\t\n\v\f\r "),
    "upper": _UPPER,
    "xdigit": _DIGIT | _chars("ABCDEFabcdef"),
}
_WORD = _ALNUM | {ord("_")}


def _collating_names() -> dict[bytes, int]:
    """POSIX's names of the portable characters, for `[.name.]` and `[=name=]`."""
    names: dict[str, int] = {}
    controls = (
        "NUL SOH STX ETX EOT ENQ ACK BEL BS HT LF VT FF CR SO SI DLE DC1 DC2 DC3 DC4 NAK "
        "SYN ETB CAN EM SUB ESC IS4 IS3 IS2 IS1"
    ).split()
    names.update({name: code for code, name in enumerate(controls)})
    aliases = {
        "alert": 7, "backspace": 8, "tab": 9, "newline": 10, "vertical-tab": 11,
        "form-feed": 12, "carriage-return": 13, "FS": 28, "GS": 29, "RS": 30, "US": 31,
        "DEL": 127,
    }  # fmt: skip
    names.update(aliases)
    punctuation = {
        " ": "space", "!": "exclamation-mark", '"': "quotation-mark", "#": "number-sign",
        "$": "dollar-sign", "%": "percent-sign", "&": "ampersand", "'": "apostrophe",
        "(": "left-parenthesis", ")": "right-parenthesis", "*": "asterisk",
        "+": "plus-sign", ",": "comma", "-": "hyphen hyphen-minus", ".": "period full-stop",
        "/": "slash solidus", ":": "colon", ";": "semicolon", "<": "less-than-sign",
        "=": "equals-sign", ">": "greater-than-sign", "?": "question-mark",
        "@": "commercial-at", "[": "left-square-bracket", "\\": "backslash reverse-solidus",
        "]": "right-square-bracket", "^": "circumflex circumflex-accent",
        "_": "underscore low-line", "`": "grave-accent", "{": "left-brace left-curly-bracket",
        "|": "vertical-line", "}": "right-brace right-curly-bracket", "~": "tilde",
    }  # fmt: skip
    for char, words in punctuation.items():
        for word in words.split():
            names[word] = ord(char)
    for digit, word in enumerate("zero one two three four five six seven eight nine".split()):
        names[word] = ord("0") + digit
    return {name.encode(): code for name, code in names.items()}


_COLLATING = _collating_names()


# ---------------------------------------------------------------- syntax tree
# Nodes: ("set", frozenset[int]) one byte of the set; ("cat", [nodes]);
# ("alt", [nodes]); ("rep", node, min, max | None); ("assert", kind) with kind
# in "bol", "eol", "bow", "eow"; ("empty",) matches the empty string.
Node = tuple

_ANY = frozenset(range(256))
_REPEAT_START = frozenset(b"*+?")


def _isdigit(byte: int) -> bool:
    """C's isdigit in the C locale (ASCII only)."""
    return 48 <= byte <= 57


def _signed(byte: int) -> int:
    """llvm compares bracket range ends as (signed) chars."""
    return byte - 256 if byte >= 128 else byte


class _Parser:
    """llvm's ERE grammar (regcomp's p_ere/p_ere_exp/p_bracket), raising the
    error llvm records first. Groups nest through an explicit stack, so any
    depth parses."""

    def __init__(self, pattern: bytes):
        self.s = pattern
        self.i = 0
        self.groups = 0
        self.closed: set[int] = set()
        """Numbers of the groups whose `)` was read (a back-reference needs one)."""

    def more(self, n: int = 1) -> bool:
        return self.i + n <= len(self.s)

    def peek(self, k: int = 0) -> int:
        return self.s[self.i + k] if self.i + k < len(self.s) else -1

    def see2(self, a: str, b: str) -> bool:
        return self.peek() == ord(a) and self.peek(1) == ord(b)

    def parse(self) -> Node:
        # Each frame: [finished alternatives, current concatenation, emitted?,
        # group number]. `emitted` is llvm's "the alternative produced code"
        # (an `x{0}` produces none, and an alternative without code is an error).
        stack: list[list] = [[[], [], False, 0]]
        while True:
            frame = stack[-1]
            nested = len(stack) > 1
            if not self.more() or (self.peek() == ord(")") and nested):
                if not frame[2]:
                    raise RegexError(EMPTY)
                if not nested:
                    return _alt(frame)
                if not self.more():
                    raise RegexError(EPAREN)
                # End of a group: `(` ... `)`
                stack.pop()
                self.closed.add(frame[3])
                self.i += 1  # the `)`
                self._atom_done(stack[-1], ("group", _alt(frame)), caret=False)
                continue
            if self.peek() == ord("|"):
                if not frame[2]:
                    raise RegexError(EMPTY)
                self.i += 1
                frame[0].append(_cat(frame[1]))
                frame[1] = []
                frame[2] = False
                continue
            c = self.s[self.i]
            self.i += 1
            if c == ord("("):
                if not self.more():
                    raise RegexError(EPAREN)
                self.groups += 1
                if self.peek() == ord(")"):
                    self.i += 1
                    self.closed.add(self.groups)
                    self._atom_done(frame, ("group", ("empty",)), caret=False)
                else:
                    stack.append([[], [], False, self.groups])
                continue
            self._atom_done(frame, *self._atom(c))

    def _atom(self, c: int) -> tuple[Node, bool]:
        if c == ord(")"):
            raise RegexError(EPAREN)
        if c == ord("^"):
            return ("assert", "bol"), True
        if c == ord("$"):
            return ("assert", "eol"), False
        if c == ord("|"):  # pragma: no cover - handled by the loop
            raise RegexError(EMPTY)
        if c in _REPEAT_START:
            raise RegexError(BADRPT)
        if c == ord("."):
            return ("set", _ANY), False
        if c == ord("["):
            return self._bracket(), False
        if c == ord("\\"):
            if not self.more():
                raise RegexError(EESCAPE)
            c = self.s[self.i]
            self.i += 1
            if ord("1") <= c <= ord("9"):
                if c - ord("0") not in self.closed:
                    raise RegexError(ESUBREG)
                # A valid pattern for llvm; compiling it says it is not supported.
                return ("backref", c - ord("0")), False
            return ("set", frozenset((c,))), False
        if c == ord("{") and _isdigit(self.peek()):
            raise RegexError(BADRPT)
        return ("set", frozenset((c,))), False

    def _atom_done(self, frame: list, node: Node, caret: bool) -> None:
        """Append an atom and its repetition, if any, to the frame."""
        emits = True
        if self.more():
            c = self.peek()
            is_brace = c == ord("{") and _isdigit(self.peek(1))
            if c in _REPEAT_START or is_brace:
                self.i += 1
                if caret:
                    raise RegexError(BADRPT)
                if c == ord("*"):
                    node = ("rep", node, 0, None)
                elif c == ord("+"):
                    node = ("rep", node, 1, None)
                elif c == ord("?"):
                    node = ("rep", node, 0, 1)
                else:
                    low = self._count()
                    high: int | None = low
                    if self.peek() == ord(","):
                        self.i += 1
                        if _isdigit(self.peek()):
                            high = self._count()
                            if low > high:
                                raise RegexError(BADBR)
                        else:
                            high = None
                    if self.peek() == ord("}"):
                        self.i += 1
                    else:
                        close = self.s.find(b"}", self.i)
                        raise RegexError(EBRACE if close < 0 else BADBR)
                    if high == 0:
                        emits = False  # llvm drops the operand of `x{0}`
                    node = ("rep", node, low, high)
                if self.more():
                    c = self.peek()
                    again = c == ord("{") and _isdigit(self.peek(1))
                    if c in _REPEAT_START or again:
                        raise RegexError(BADRPT)
        if emits:
            frame[1].append(node)
            frame[2] = True

    def _count(self) -> int:
        count = 0
        digits = 0
        while _isdigit(self.peek()) and count <= DUP_MAX:
            count = count * 10 + self.s[self.i] - ord("0")
            self.i += 1
            digits += 1
        if digits == 0 or count > DUP_MAX:
            raise RegexError(BADBR)
        return count

    # ---------------------------------------------------------- brackets
    def _bracket(self) -> Node:
        rest = self.s[self.i : self.i + 6]
        if len(self.s) - self.i > 5 and rest in (b"[:<:]]", b"[:>:]]"):
            self.i += 6
            return ("assert", "bow" if rest == b"[:<:]]" else "eow")
        members: set[int] = set()
        invert = False
        if self.peek() == ord("^"):
            self.i += 1
            invert = True
        if self.peek() == ord("]"):
            self.i += 1
            members.add(ord("]"))
        elif self.peek() == ord("-"):
            self.i += 1
            members.add(ord("-"))
        while self.more() and self.peek() != ord("]") and not self.see2("-", "]"):
            self._bracket_term(members)
        if self.peek() == ord("-"):
            self.i += 1
            members.add(ord("-"))
        if not (self.more() and self.peek() == ord("]")):
            raise RegexError(EBRACK)
        self.i += 1
        chosen = frozenset(members)
        return ("set", _ANY - chosen if invert else chosen)

    def _bracket_term(self, members: set[int]) -> None:
        c = self.peek()
        kind = self.peek(1) if c == ord("[") else -1
        if c == ord("-"):
            raise RegexError(ERANGE)
        if kind == ord(":"):
            self.i += 2
            if not self.more():
                raise RegexError(EBRACK)
            if self.peek() in (ord("-"), ord("]")):
                raise RegexError(ECTYPE)
            start = self.i
            while self.peek() in _ALPHA:
                self.i += 1
            chars = _CLASSES.get(self.s[start : self.i].decode())
            if chars is None:
                raise RegexError(ECTYPE)
            members.update(chars)
            if not self.more():
                raise RegexError(EBRACK)
            if not self.see2(":", "]"):
                raise RegexError(ECTYPE)
            self.i += 2
            return
        if kind == ord("="):
            self.i += 2
            if not self.more():
                raise RegexError(EBRACK)
            if self.peek() in (ord("-"), ord("]")):
                raise RegexError(ECOLLATE)
            members.add(self._collating_element("="))
            if not self.more():
                raise RegexError(EBRACK)
            if not self.see2("=", "]"):  # pragma: no cover - the scan stopped there
                raise RegexError(ECOLLATE)
            self.i += 2
            return
        first = self._bracket_symbol()
        last = first
        if self.peek() == ord("-") and self.more(2) and self.peek(1) != ord("]"):
            self.i += 1
            if self.peek() == ord("-"):
                self.i += 1
                last = ord("-")
            else:
                last = self._bracket_symbol()
        low, high = _signed(first), _signed(last)
        if low > high:
            raise RegexError(ERANGE)
        members.update(v & 0xFF for v in range(low, high + 1))

    def _bracket_symbol(self) -> int:
        if not self.more():
            raise RegexError(EBRACK)
        if self.see2("[", "."):
            self.i += 2
            value = self._collating_element(".")
            if not self.see2(".", "]"):  # pragma: no cover - the scan stopped there
                raise RegexError(ECOLLATE)
            self.i += 2
            return value
        c = self.s[self.i]
        self.i += 1
        return c

    def _collating_element(self, end: str) -> int:
        close = self.s.find(end.encode() + b"]", self.i)
        if close < 0:
            self.i = len(self.s)
            raise RegexError(EBRACK)
        name = self.s[self.i : close]
        self.i = close
        if name in _COLLATING:
            return _COLLATING[name]
        if len(name) == 1:
            return name[0]
        raise RegexError(ECOLLATE)


def _cat(nodes: list[Node]) -> Node:
    return nodes[0] if len(nodes) == 1 else ("cat", nodes)


def _alt(frame: list) -> Node:
    branches = [*frame[0], _cat(frame[1])]
    return branches[0] if len(branches) == 1 else ("alt", branches)


# ------------------------------------------------------------------ compiling
# Instructions: ("set", chars) consume one byte in chars; ("split", a, b);
# ("jmp", a); ("assert", kind); ("match",).


def check_pattern(pattern: str) -> None:
    """Raise RegexError (llvm's message) if llvm::Regex rejects `pattern`."""
    _Parser(pattern.encode("utf-8", "surrogateescape")).parse()


def compile_pattern(pattern: str) -> Regex:
    """Parse and compile `pattern` (raises RegexError with llvm's message, or
    with BACKREF for a valid pattern this matcher cannot run)."""
    tree = _Parser(pattern.encode("utf-8", "surrogateescape")).parse()
    return Regex(_build_program(tree))


def _build_program(tree: Node) -> list[tuple]:
    """The NFA of a syntax tree, built without recursion."""
    prog: list[list] = []

    def emit(*ins) -> int:
        if len(prog) >= MAX_PROGRAM:
            raise RegexError(ESPACE)
        prog.append(list(ins))
        return len(prog) - 1

    # Work items: ("node", n) compile n here; ("fix", at, slot) point prog[at][slot]
    # at the next instruction; ("jmp", target) emit a jump; ("fixlist", list)
    # point every listed jump at the next instruction.
    work: list[tuple] = [("node", tree)]
    while work:
        item = work.pop()
        tag = item[0]
        if tag == "fix":
            prog[item[1]][item[2]] = len(prog)
            continue
        if tag == "jmp":
            emit("jmp", item[1])
            continue
        if tag == "jmp_to_end":
            item[1].append(emit("jmp", None))
            continue
        if tag == "fixlist":
            for at in item[1]:
                prog[at][1] = len(prog)
            continue
        if tag == "split_here":
            # split next, <fixed later to the following alternative>
            at = emit("split", len(prog) + 1, None)
            item[1].append(at)
            continue
        if tag == "fix_last_split":
            prog[item[1].pop()][2] = len(prog)
            continue
        if tag == "loop_start":
            # `x*`: L: split body, end; body; jmp L; end:
            at = emit("split", len(prog) + 1, None)
            work.append(("fix", at, 2))
            work.append(("jmp", at))
            work.append(("node", item[1]))
            continue
        if tag == "plus_start":
            # `x+`: L: body; split L, end
            work.append(("split_back", len(prog)))
            work.append(("node", item[1]))
            continue
        if tag == "split_back":
            emit("split", item[1], len(prog) + 1)
            continue
        if tag == "opt_start":
            at = emit("split", len(prog) + 1, None)
            work.append(("fix", at, 2))
            work.append(("node", item[1]))
            continue
        node = item[1]
        kind = node[0]
        if kind == "set":
            emit("set", node[1])
        elif kind == "assert":
            emit("assert", node[1])
        elif kind == "group":
            work.append(("node", node[1]))
        elif kind == "backref":
            raise RegexError(BACKREF)
        elif kind == "cat":
            work.extend(("node", child) for child in reversed(node[1]))
        elif kind == "alt":
            # split A0, s1; A0; jmp end; s1: split A1, s2; A1; jmp end; ...; An; end:
            branches = node[1]
            ends: list[int] = []
            splits: list[int] = []
            plan: list[tuple] = []
            for index, branch in enumerate(branches):
                if index < len(branches) - 1:
                    plan.append(("split_here", splits))
                    plan.append(("node", branch))
                    plan.append(("jmp_to_end", ends))
                    plan.append(("fix_last_split", splits))
                else:
                    plan.append(("node", branch))
            plan.append(("fixlist", ends))
            work.extend(reversed(plan))
        elif kind == "rep":
            _, sub, low, high = node
            plan = [("node", sub)] * low
            if high is None:
                if low == 0:
                    plan.append(("loop_start", sub))
                else:
                    plan[-1] = ("plus_start", sub)
            else:
                plan.extend([("opt_start", sub)] * (high - low))
            if len(plan) > MAX_PROGRAM:
                raise RegexError(ESPACE)
            work.extend(reversed(plan))
        # ("empty",) emits nothing
    emit("match")
    return [tuple(ins) for ins in prog]


_WORD_CLASS, _OTHER_CLASS, _EDGE_CLASS = 0, 1, 2
_END = 256
_MATCHED = frozenset((-1,))


@dataclass
class Regex:
    """A compiled pattern; `search(text)` says whether it matches anywhere."""

    program: list[tuple]

    def __post_init__(self) -> None:
        # The lazily built DFA: (NFA threads, class of the previous byte, next
        # byte) -> threads after it, or _MATCHED.
        self._cache: dict[tuple[frozenset[int], int, int], frozenset[int]] = {}
        self._work = 0

    def search(self, text: str) -> bool:
        """Whether the pattern matches a part of `text` (llvm::Regex::match);
        raises RegexTooCostly past WORK_BUDGET steps."""
        data = text.encode("utf-8", "surrogateescape")
        self._work = 0
        cache = self._cache
        current: frozenset[int] = frozenset()
        prev_class = _EDGE_CLASS
        for i in range(len(data) + 1):
            nxt = data[i] if i < len(data) else _END
            key = (current, prev_class, nxt)
            following = cache.get(key)
            if following is None:
                following = self._step(current, prev_class, nxt)
                if len(cache) >= _DFA_CACHE:
                    cache.clear()
                cache[key] = following
            if following is _MATCHED:
                return True
            current = following
            prev_class = _WORD_CLASS if nxt in _WORD else _OTHER_CLASS
        return False

    def _step(self, threads: frozenset[int], prev_class: int, nxt: int) -> frozenset[int]:
        """Close `threads` plus a fresh start at this position (the match may
        begin anywhere): _MATCHED if the closure matches, else the threads
        that survive the byte `nxt`."""
        prog = self.program
        seen: set[int] = set()
        stack = [0, *threads]
        following: set[int] = set()
        next_word = nxt in _WORD
        while stack:
            pc = stack.pop()
            if pc in seen:
                continue
            seen.add(pc)
            self._work += 1
            if self._work > WORK_BUDGET:
                raise RegexTooCostly
            ins = prog[pc]
            op = ins[0]
            if op == "set":
                if nxt in ins[1]:
                    following.add(pc + 1)
            elif op == "split":
                stack.append(ins[2])
                stack.append(ins[1])
            elif op == "jmp":
                stack.append(ins[1])
            elif op == "match":
                return _MATCHED
            else:
                kind = ins[1]
                if (
                    (kind == "bol" and prev_class == _EDGE_CLASS)
                    or (kind == "eol" and nxt == _END)
                    or (kind == "bow" and next_word and prev_class != _WORD_CLASS)
                    or (kind == "eow" and prev_class == _WORD_CLASS and not next_word)
                ):
                    stack.append(pc + 1)
        return frozenset(following)


def escape(text: str) -> str:
    """llvm::Regex::escape: `text` as a pattern that matches it literally."""
    return "".join("\\" + ch if ch in "()^$|*+?.[]\\{}" else ch for ch in text)
