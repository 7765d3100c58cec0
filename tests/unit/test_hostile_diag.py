"""Hostile inputs to xgpu-opt's diagnostics machinery: `-verify-diagnostics`
annotations and regexes, locations, and the caret under a diagnostic. Each
must give a diagnostic (mlir-opt 22's message where it has one), never a
traceback or a hang."""

from __future__ import annotations

import random
import re

import pytest

from xgpu.diagnostics import Diagnostic, Location, SourceFiles, format_diagnostic
from xgpu.tools import posix_regex
from xgpu.tools.posix_regex import RegexError, RegexTooCostly, check_pattern, compile_pattern
from xgpu.tools.verify_diagnostics import check, parse_expectations

# ------------------------------------------------------------------ the regex


@pytest.mark.parametrize(
    ("pattern", "text", "expected"),
    [
        ("a+b", "xxaab", True),
        ("^ab", "xab", False),
        ("ab$", "xab", True),
        ("a|b|c", "zzc", True),
        ("a{2,3}", "xaax", True),
        ("a{3}", "xaax", False),
        ("x{0}y", "y", True),
        ("a{,2}", "a{,2}", True),  # `{` not followed by a digit is literal
        ("[^a-c]", "abc", False),
        ("[]a]", "]", True),
        ("[a-]", "-", True),
        ("[[:alpha:]]+[0-9]", "--abc1", True),
        ("[[:punct:]]", "abc", False),
        ("[[:<:]]foo", "afoo", False),
        ("[[:<:]]foo", "a foo", True),
        ("foo[[:>:]]", "foox", False),
        ("foo[[:>:]]", "foo.", True),
        ("x[[.space.]]y", "x y", True),
        ("x[[=a=]]y", "xay", True),
        (r"\.", "ab", False),
        (r"\d", "d", True),  # `\c` is the character c, as in llvm::Regex
        ("()", "", True),
        ("(a*)*b", "a" * 20000, False),
        ("(a|aa)*c", "a" * 5000 + "c", True),
        ("é+", "café", True),
    ],
)
def test_regex_matches_as_llvm_regex(pattern, text, expected):
    assert compile_pattern(pattern).search(text) is expected


@pytest.mark.parametrize(
    ("pattern", "message"),
    [
        ("(", "parentheses not balanced"),
        ("(()", "parentheses not balanced"),
        (")", "parentheses not balanced"),
        ("a**", "repetition-operator operand invalid"),
        ("*a", "repetition-operator operand invalid"),
        ("^*", "repetition-operator operand invalid"),
        ("{1}", "repetition-operator operand invalid"),
        ("a{256}", "invalid repetition count(s)"),
        ("a{3,2}", "invalid repetition count(s)"),
        ("a{1x}", "invalid repetition count(s)"),
        ("a{1", "braces not balanced"),
        ("[a", "brackets ([ ]) not balanced"),
        ("[[:alpha", "brackets ([ ]) not balanced"),
        ("[[:foo:]]", "invalid character class"),
        ("[[:alpha]]", "invalid character class"),
        ("[z-a]", "invalid character range"),
        ("[a-c-e]", "invalid character range"),
        ("[[=ab=]]", "invalid collating element"),
        ("\\", "trailing backslash (\\)"),
        ("\\1", "invalid backreference number"),
        ("", "empty (sub)expression"),
        ("a|", "empty (sub)expression"),
        ("(|a)", "empty (sub)expression"),
        ("a{0}", "empty (sub)expression"),
    ],
)
def test_invalid_regex_gets_llvm_message(pattern, message):
    with pytest.raises(RegexError) as err:
        check_pattern(pattern)
    assert str(err.value) == message


def test_back_reference_is_valid_but_not_matched():
    check_pattern("(a)\\1")
    with pytest.raises(RegexError, match="back-references are not supported"):
        compile_pattern("(a)\\1")


def test_huge_expansion_is_refused():
    with pytest.raises(RegexError, match="out of memory"):
        compile_pattern("((a{255}){255}){255}")


def test_deep_nesting_parses_without_recursion():
    depth = 20000
    assert compile_pattern("(" * depth + "a" + ")" * depth).search("xa")


def test_matching_work_is_bounded(monkeypatch):
    monkeypatch.setattr(posix_regex, "WORK_BUDGET", 10_000)
    regex = compile_pattern("(a|b)*a(a|b){12}c")
    rng = random.Random(0)
    text = "".join(rng.choice("ab") for _ in range(5000))
    with pytest.raises(RegexTooCostly):
        regex.search(text)


# ------------------------------------------------------------ the annotations


def _problems(text: str, diagnostics: list[Diagnostic]) -> list[tuple[int, int, str]]:
    found = check(parse_expectations(text, "f.mlir"), diagnostics)
    return [(p.location.line, p.location.col, p.message) for p in found if p.location]


def _error(line: int, message: str) -> Diagnostic:
    return Diagnostic("error", message, Location("f.mlir", line, 1))


def test_invalid_regex_is_reported_at_the_annotation():
    text = "// expected-error-re @+1 {{bad {{(}} op}}\nx\n"
    assert _problems(text, [_error(2, "bad ( op")]) == [
        (1, 4, "invalid regex: parentheses not balanced"),
        (2, 1, "unexpected error: bad ( op"),
    ]


def test_unterminated_regex_piece():
    text = "// expected-error-re @+1 {{a{{b}}\nx\n"
    assert _problems(text, []) == [(1, 4, "found start of regex with no end '}}'")]


def test_regex_pieces_are_groups_in_escaped_text():
    text = "// expected-error-re {{a.b {{[0-9]+}} (c)}}\n"
    assert _problems(text, [_error(1, "x a.b 42 (c) y")]) == []
    assert _problems(text, [_error(1, "x aXb 42 (c) y")])[0][2].startswith("unexpected error")


def test_empty_regex_text_never_matches():
    text = "// expected-error-re {{}}\n"
    assert _problems(text, [_error(1, "anything")])[-1] == (
        1,
        4,
        'expected error "" was not produced',
    )


def test_other_severity_is_a_near_miss():
    text = "// expected-warning {{boom}}\n"
    assert _problems(text, [_error(1, "boom")]) == [
        (1, 4, "'error' diagnostic emitted when expecting a 'warning'"),
        (1, 4, 'expected warning "boom" was not produced'),
    ]


def test_one_expectation_absorbs_repeated_diagnostics():
    text = "// expected-error {{boom}}\n"
    assert _problems(text, [_error(1, "boom"), _error(1, "boom")]) == []


def test_xgpu_count_requires_exactly_that_many():
    text = "// expected-error 2 {{boom}}\n"
    assert _problems(text, [_error(1, "boom"), _error(1, "boom")]) == []
    assert _problems(text, [_error(1, "boom")]) == [
        (1, 4, 'expected error "boom" was not produced')
    ]


@pytest.mark.parametrize(
    "annotation",
    [
        "expected-error\t{{boom}}",  # only spaces separate the parts
        "expected-error @ +1 {{boom}}",
        "expected-error @+x {{boom}}",
        "expected-error {{boom}} trailing",
        "expected-error {{boom}",
        "expected-fatal {{boom}}",
    ],
)
def test_malformed_annotations_are_not_annotations(annotation):
    assert parse_expectations(f"// {annotation}\nx\n", "f.mlir") == []


@pytest.mark.parametrize(
    ("designator", "line"),
    [("@+010", 9), ("@+1", 2), ("@-1", 0), ("@+08", -1), ("@+99999999999", -1)],
)
def test_line_offsets_as_mlir_reads_them(designator, line):
    (exp,) = parse_expectations(f"// expected-error {designator} {{{{x}}}}\n", "f.mlir")
    assert exp.line == line


def test_above_and_below_skip_annotations():
    text = "op1\n// expected-error @above {{a}}\n// expected-error @below {{b}}\n// c\nop2\n"
    above, below = parse_expectations(text, "f.mlir")
    assert (above.line, below.line) == (1, 4)


def test_hostile_annotation_lines_parse_quickly():
    line = "expected-error {{" * 20000 + "x"
    assert parse_expectations(line + "\n", "f.mlir") == []


def test_diagnostic_in_another_file_matches_no_annotation():
    text = "// expected-error {{boom}}\n"
    other = Diagnostic("error", "boom", Location("other.mlir", 1, 1))
    assert [p[2] for p in _problems(text, [other])] == [
        "unexpected error: boom",
        'expected error "boom" was not produced',
    ]


# ------------------------------------------------------------------ the caret


def _formatted(text: str, loc: Location, underline: int = 0) -> list[str]:
    sources = SourceFiles()
    sources.add("f.mlir", text)
    return format_diagnostic(Diagnostic("error", "m", loc, underline=underline), sources).split(
        "\n"
    )


@pytest.mark.parametrize(
    ("line", "col"),
    [(1, 99999999999), (1, 4294967295), (1, 0), (0, 1), (7, 1), (1, 6), (-1, -5)],
)
def test_location_outside_the_text_shows_no_source_line(line, col):
    assert _formatted("abcd\n", Location("f.mlir", line, col)) == [f"f.mlir:{line}:{col}: error: m"]


def test_caret_one_past_the_end_of_the_line():
    assert _formatted("abcd\n", Location("f.mlir", 1, 5)) == [
        "f.mlir:1:5: error: m",
        "abcd",
        "    ^",
    ]


def test_tabs_are_expanded_and_ranges_underlined():
    assert _formatted("a\tb c\n", Location("f.mlir", 1, 3), underline=3) == [
        "f.mlir:1:3: error: m",
        "a       b c",
        "        ^~~",
    ]


# ------------------------------------------------------------- the locations


@pytest.mark.parametrize(
    "loc",
    [
        'loc("input.mlir":1:99999999999)',
        'loc("input.mlir":99999999999:1)',
        'loc("input.mlir":-1:-1)',
        'loc("input.mlir":1:2 to 99999999999:1)',
    ],
)
def test_out_of_range_location_numbers_are_parse_errors(xgpu_opt, loc):
    res = xgpu_opt(f'"gpu.thread_id"() : () -> index {loc}\n')
    assert res.rc == 1
    assert re.match(
        r"input\.mlir:1:\d+: error: expected integer (line|column) number in FileLineColRange",
        res.err,
    )
    assert "Traceback" not in res.err


@pytest.mark.parametrize("kind", ["fused", "callsite", "name"])
def test_deeply_nested_locations(xgpu_opt, kind):
    def nest(depth: int) -> str:
        inner = '"input.mlir":1:3'
        for _ in range(depth):
            inner = {
                "fused": f"fused[{inner}]",
                "callsite": f'callsite({inner} at "c.mlir":1:1)',
                "name": f'"n"({inner})',
            }[kind]
        return inner

    # Deep enough for xDSL's recursive attribute code: shown where it points.
    res = xgpu_opt(f'"gpu.thread_id"() : () -> index loc({nest(200)})\n')
    assert res.err.startswith("input.mlir:1:3: error: 'gpu.thread_id' op requires attribute")
    # Thousands deep (parsed on the tools' deep stack): the same error.
    res = xgpu_opt(f'"gpu.thread_id"() : () -> index loc({nest(20000)})\n')
    assert res.rc == 1
    assert res.err.startswith("input.mlir:1:3: error: 'gpu.thread_id' op requires attribute")
    assert "Traceback" not in res.err


# ------------------------------------------------------------------ the splats


def _constant(text: str):
    from xgpu.tools.xgpu_opt import parse

    module = parse(f"func.func @f() {{\n  %0 = arith.constant {text}\n  func.return\n}}\n")
    (op,) = [o for o in module.walk() if o.name == "arith.constant"]
    return op.value


def test_huge_splat_is_stored_as_one_value():
    from xgpu.ir.splats import is_compact_splat, splat_value

    attr = _constant("dense<1.5> : tensor<300000000xf32>")
    assert is_compact_splat(attr)
    assert len(attr.data.data) == 4
    assert len(attr) == 300000000
    assert attr.is_splat() and splat_value(attr) == 1.5
    values = attr.get_values()
    assert (len(values), values[0], values[-1], values[123456789]) == (300000000, 1.5, 1.5, 1.5)
    assert len(values[10:20]) == 10
    with pytest.raises(IndexError):
        values[300000000]


def test_huge_hex_splat_and_integer_splat():
    from xgpu.ir.splats import is_compact_splat

    hexed = _constant('dense<"0x0000803F"> : tensor<300000000xf32>')
    assert is_compact_splat(hexed) and hexed.get_values()[5] == 1.0
    ints = _constant("dense<-3> : vector<100000xi8>")
    assert is_compact_splat(ints) and ints.get_values()[99999] == -3


def test_small_splats_and_lists_are_unchanged():
    from xgpu.ir.splats import SPLAT_THRESHOLD, is_compact_splat

    small = _constant(f"dense<2.0> : tensor<{SPLAT_THRESHOLD}xf32>")
    assert not is_compact_splat(small) and len(small.data.data) == 4 * SPLAT_THRESHOLD
    listed = _constant("dense<[1, 2, 3]> : tensor<3xi32>")
    assert listed.get_values() == (1, 2, 3)


def test_huge_splat_prints_and_folds_as_one_value(xgpu_opt):
    text = (
        "func.func @f() -> tensor<300000000xf32> {\n"
        "  %0 = arith.constant dense<1.0> : tensor<300000000xf32>\n"
        "  %1 = arith.addf %0, %0 : tensor<300000000xf32>\n"
        "  func.return %1 : tensor<300000000xf32>\n"
        "}\n"
    )
    res = xgpu_opt(text, "-p", "canonicalize")
    assert res.rc == 0, res.err
    assert "arith.constant dense<2.000000e+00> : tensor<300000000xf32>" in res.out


def test_splat_global_fills_the_host_array():
    from xgpu.runtime.run_hooks import global_memref as _global_memref
    from xgpu.tools.xgpu_opt import parse

    module = parse(
        '"memref.global"() <{sym_name = "g", type = memref<70000xi32>, '
        "initial_value = dense<9> : memref<70000xi32>, constant}> : () -> ()\n"
    )
    (glob,) = [o for o in module.walk() if o.name == "memref.global"]
    data = _global_memref(glob).host_view()
    assert data.shape == (70000,) and int(data.min()) == int(data.max()) == 9
