"""gpu-async-graph: the graph's order is happens-before, the SVG and HTML forms
are well-formed and hold every node, hostile text stays text, the HTML renders
in a browser without console errors, and the README's picture is current.

Tests that need Graphviz's `dot` or Chromium skip without them, unless
XGPU_REQUIRE_GRAPHVIZ=1 / XGPU_REQUIRE_CHROMIUM=1 (set in CI)."""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from xdsl.dialects import func

from xgpu.analysis.async_graph import render as render_mod
from xgpu.analysis.async_graph.graph_pass import build, render
from xgpu.analysis.async_graph.model import EdgeKind, NodeKind
from xgpu.analysis.happens_before import EventKind, build_trace
from xgpu.tools.xgpu_opt import make_context, parse

ROOT = Path(__file__).resolve().parents[2]
FORUM = ROOT / "examples" / "forum"
GRAPH_TESTS = ROOT / "tests" / "filecheck" / "transforms" / "gpu-async-graph"

HAVE_DOT = shutil.which("dot") is not None
CHROMIUM = next((c for c in ("chromium", "chromium-browser") if shutil.which(c)), None)
needs_dot = pytest.mark.skipif(
    not HAVE_DOT and os.environ.get("XGPU_REQUIRE_GRAPHVIZ") != "1",
    reason="Graphviz's dot is not installed (apt-get install graphviz)",
)
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None and os.environ.get("XGPU_REQUIRE_CHROMIUM") != "1",
    reason="Chromium is not installed (apt-get install chromium)",
)

SVG_NS = "{http://www.w3.org/2000/svg}"
XLINK_TITLE = "{http://www.w3.org/1999/xlink}title"


def load(path: Path, unregistered: bool = False):
    return parse(path.read_text(), str(path), make_context(allow_unregistered=unregistered))


def programs() -> list[Path]:
    return [
        FORUM / "program.mlir",
        FORUM / "missing_dependency.mlir",
        FORUM / "host_touch.mlir",
        *sorted(GRAPH_TESTS.glob("*.mlir")),
    ]


# ---------------------------------------------------------------------------
# The graph's order is happens-before
# ---------------------------------------------------------------------------

KERNEL = """\
  gpu.module @k {
    gpu.func @f(%b: memref<4xf32>) kernel {
      gpu.return
    }
  }
"""


def random_program(seed: int) -> str:
    """Straight-line host code with random token dependencies: launches, copies,
    aliases, joins, tokens for no work, blocking waits, host loads and
    synchronous ops, and a pure host loop."""
    rng = random.Random(seed)
    lines = [
        "    %c0 = arith.constant 0 : index",
        "    %c1 = arith.constant 1 : index",
        "    %c4 = arith.constant 4 : index",
    ]
    tokens: list[str] = ["%in"]
    for i in range(rng.randint(3, 14)):
        deps = ", ".join(rng.sample(tokens, rng.randint(0, min(3, len(tokens)))))
        dep = f" [{deps}]" if deps else ""
        what = rng.choice(["launch"] * 4 + ["copy", "wait_async", "wait", "load", "sync", "loop"])
        t = f"%t{i}"
        if what == "launch":
            lines.append(
                f"    {t} = gpu.launch_func async{dep} @k::@f blocks in (%c1, %c1, %c1) "
                "threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)"
            )
            tokens.append(t)
        elif what == "copy":
            lines.append(f"    {t} = gpu.memcpy async{dep} %a, %b : memref<4xf32>, memref<4xf32>")
            tokens.append(t)
        elif what == "wait_async":
            lines.append(f"    {t} = gpu.wait async{dep}")
            tokens.append(t)
        elif what == "wait":
            lines.append(f"    gpu.wait{dep}")
        elif what == "load":
            lines.append(f"    %v{i} = memref.load %b[%c0] : memref<4xf32>")
        elif what == "sync":
            lines.append(f"    gpu.memcpy{dep} %b, %a : memref<4xf32>, memref<4xf32>")
        else:
            lines.append(
                f"    %s{i} = scf.for %i{i} = %c0 to %c4 step %c1 iter_args(%acc = %c0) -> (index) {{\n"
                f"      %n{i} = arith.addi %acc, %i{i} : index\n"
                f"      scf.yield %n{i} : index\n"
                "    }"
            )
    body = "\n".join(lines)
    return (
        "module attributes {gpu.container_module} {\n" + KERNEL + "  func.func @main("
        "%a: memref<4xf32>, %b: memref<4xf32>, %in: !gpu.async.token) {\n"
        + body
        + "\n    return\n  }\n}\n"
    )


def assert_order_is_happens_before(module) -> int:
    """On loop-free host code (host loops without events allowed): a path of
    token, order and issue edges joins two events' nodes iff the first
    happens before the second. Returns the number of pairs compared."""
    funcs = [f for f in module.walk() if isinstance(f, func.FuncOp) and f.body.blocks]
    graph = build(module)
    compared = 0
    for f in funcs:
        if not any(f is g for g, _ in graph.functions):
            continue
        trace = build_trace(f)
        events = []
        for e in trace:
            if e.kind is EventKind.ARGUMENT:
                node = graph.arguments[e.argument]
            else:
                node = graph.by_op[e.op]
            assert not e.iteration, "the programs compared have no event in a loop"
            events.append((e, node))
        succ: dict = {}
        for edge in graph.edges:
            if edge.kind in (EdgeKind.TOKEN, EdgeKind.ORDER, EdgeKind.ISSUE):
                succ.setdefault(edge.src, set()).add(edge.dst)

        def reach(src):
            seen, todo = set(), [src]
            while todo:
                for m in succ.get(todo.pop(), ()):
                    if m not in seen:
                        seen.add(m)
                        todo.append(m)
            return seen

        for a, na in events:
            reached = reach(na)
            for b, nb in events:
                if a is b:
                    continue
                assert (nb in reached) == trace.happens_before(a, b), (a, b)
                compared += 1
    return compared


@pytest.mark.parametrize("seed", range(60))
def test_random_programs_order_is_happens_before(seed: int) -> None:
    module = parse(random_program(seed), f"random{seed}.mlir", make_context())
    assert_order_is_happens_before(module) > 0


@pytest.mark.parametrize("name", ["program.mlir", "missing_dependency.mlir"])
def test_forum_order_is_happens_before(name: str) -> None:
    assert assert_order_is_happens_before(load(FORUM / name)) > 20


def test_forum_square_after_loop_through_alias() -> None:
    g = build(load(FORUM / "program.mlir"))
    square = next(n for n in g.nodes if "@square" in n.label[0])
    shift = next(n for n in g.nodes if "@shift" in n.label[0])
    loop = next(n for n in g.nodes if n.kind is NodeKind.LOOP)
    into = {(e.src, e.kind): e for e in g.edges if e.dst is square}
    assert into[(shift, EdgeKind.TOKEN)].label == "%356 = alias of %343"
    assert (loop, EdgeKind.ISSUE) in into
    # The alias is no node: no node's op is the gpu.wait async.
    assert not [n for n in g.nodes if n.op is not None and "gpu.wait async [%343]" in n.text]


def test_long_alias_chain_is_one_labelled_edge() -> None:
    """5000 aliases in a row: one token edge from the launch to its user (no
    recursion per alias: this runs outside xgpu-opt's deep stack)."""
    chain = [
        "    %a0 = gpu.launch_func async @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)"
    ]
    chain += [f"    %a{i} = gpu.wait async [%a{i - 1}]" for i in range(1, 5001)]
    text = (
        "module attributes {gpu.container_module} {\n"
        + KERNEL
        + "  func.func @chain(%a: memref<4xf32>) {\n"
        "    %c1 = arith.constant 1 : index\n" + "\n".join(chain) + "\n"
        "    %x = gpu.launch_func async [%a5000] @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)\n"
        "    gpu.wait [%x]\n    return\n  }\n}\n"
    )
    graph = build(parse(text, "chain.mlir", make_context()))
    gpu = [n for n in graph.nodes if n.kind is NodeKind.GPU]
    assert len(gpu) == 2
    tokens = list(graph.edges_of(EdgeKind.TOKEN))
    first = [e for e in tokens if e.src is gpu[0]]
    assert len(first) == 1 and first[0].dst is gpu[1]
    assert first[0].label == "%a5000 = alias of %a0"


# ---------------------------------------------------------------------------
# SVG and HTML
# ---------------------------------------------------------------------------


def svg_ids(root: ET.Element) -> tuple[set[str], set[str]]:
    nodes, edges = set(), set()
    for g in root.iter(f"{SVG_NS}g"):
        cls = g.get("class", "").split()
        if "node" in cls:
            nodes.add(g.get("id"))
        elif "edge" in cls:
            edges.add(g.get("id"))
    return nodes, edges


@needs_dot
@pytest.mark.parametrize("path", programs(), ids=lambda p: p.name)
def test_svg_and_html_are_xml_with_every_node(path: Path) -> None:
    module = load(path)
    graph = build(module)
    assert graph.nodes
    want_nodes = {n.id for n in graph.nodes}
    want_edges = {f"e{i}" for i in range(len(graph.edges))}
    svg = ET.fromstring(render(module, "svg"))
    assert svg.tag == f"{SVG_NS}svg"
    assert svg_ids(svg) == (want_nodes, want_edges)
    page = ET.fromstring(render(module, "html"))
    assert page.tag == "{http://www.w3.org/1999/xhtml}html"
    inline = page.find(".//{http://www.w3.org/1999/xhtml}div[@id='graph']/" + f"{SVG_NS}svg")
    assert inline is not None
    assert svg_ids(inline) == (want_nodes, want_edges)
    # Nothing is fetched: no src/href to anything but the page itself.
    text = render(module, "html")
    assert not re.search(r"""(src|href)\s*=\s*["'](https?:|//)""", text)


HOSTILE = 'a \\"quote\\" \\\\N \\\\l </script> <!-- --> ]]> & &lt; \\n \\1B end'


def hostile_program() -> str:
    return (
        "module attributes {gpu.container_module} {\n"
        + KERNEL
        + "  func.func @hostile(%a: memref<4xf32>) {\n"
        "    %c1 = arith.constant 1 : index\n"
        "    %t = gpu.launch_func async @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)\n"
        f'    "test.touch"(%a) {{note = "{HOSTILE}"}} : (memref<4xf32>) -> ()\n'
        "    gpu.wait [%t]\n"
        "    return\n  }\n}\n"
    )


@needs_dot
def test_hostile_text_stays_text(tmp_path: Path) -> None:
    path = tmp_path / "hostile.mlir"
    path.write_text(hostile_program())
    module = load(path, unregistered=True)
    graph = build(module)
    touch = next(n for n in graph.nodes if n.label[0] == "test.touch")
    source_line = path.read_text().splitlines()[touch.op.location.line.data - 1].strip()
    assert touch.text == source_line
    # The SVG shows the op's text exactly as written, as the tooltip of its node.
    svg = ET.fromstring(render(module, "svg"))
    node = next(g for g in svg.iter(f"{SVG_NS}g") if g.get("id") == touch.id)
    link = next(a for a in node.iter(f"{SVG_NS}a"))
    assert link.get(XLINK_TITLE) == source_line
    # The node and edge counts are unchanged by the text: no structure injected.
    assert svg_ids(svg) == ({n.id for n in graph.nodes}, {f"e{i}" for i in range(len(graph.edges))})
    # In the HTML the text is in the JSON only (escaped), and the page is XML.
    page_text = render(module, "html")
    ET.fromstring(page_text)
    assert page_text.count("</script>") == 2


def test_quote_escapes_everything_graphviz_reads() -> None:
    from xgpu.analysis.async_graph.dot import quote

    assert quote('a"b') == '"a\\"b"'
    assert quote("a\\N") == '"a\\\\N"'
    assert quote("x\ny") == '"x\\ny"'
    assert quote("\x1b") == '"\\\\x1b"'
    assert quote("&lt;") == '"&amp;lt;"'
    assert quote("a & b") == '"a & b"'
    assert quote("a\\N", tooltip=True) == '"a\\\\\\\\N"'


SHOWN = [
    "a\\N",
    "a\\\\N",
    'a\\"q',
    'a"q',
    "a\\l \\G\\E\\T\\H\\L",
    "end\\",
    "<&amp;> &lt; &#60; & x",
    "a\\nb",
    "} ]; n9 -> n1 [label=x]; {",
]


@needs_dot
@pytest.mark.parametrize("text", SHOWN)
def test_graphviz_shows_labels_and_tooltips_as_written(text: str) -> None:
    from xgpu.analysis.async_graph.dot import quote

    dot = f"digraph {{ n1 [label={quote(text)}, tooltip={quote(text, tooltip=True)}]; }}"
    svg = ET.fromstring(render_mod.to_svg(dot))
    texts = [t.text for t in svg.iter(f"{SVG_NS}text")]
    titles = [a.get(XLINK_TITLE) for a in svg.iter(f"{SVG_NS}a")]
    assert texts == [text] and titles == [text]
    assert len([g for g in svg.iter(f"{SVG_NS}g") if "node" in g.get("class", "")]) == 1


def test_svg_without_dot_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from xdsl.utils.exceptions import DiagnosticException

    monkeypatch.setattr(render_mod.shutil, "which", lambda _: None)
    module = load(FORUM / "program.mlir")
    assert render(module, "dot").startswith("digraph")
    with pytest.raises(
        DiagnosticException, match="need Graphviz's 'dot' program.*apt-get install graphviz"
    ):
        render(module, "svg")


# ---------------------------------------------------------------------------
# The HTML in a browser
# ---------------------------------------------------------------------------


def chromium_render(page: Path) -> tuple[str, list[str]]:
    """The DOM Chromium has after running the page's scripts, and its console lines."""
    assert CHROMIUM is not None, "XGPU_REQUIRE_CHROMIUM=1 but chromium is not installed"
    done = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            f"--user-data-dir={page.parent / 'chromium-profile'}",
            "--enable-logging=stderr",
            "--v=0",
            "--dump-dom",
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    console = [line for line in done.stderr.splitlines() if ":CONSOLE" in line]
    return done.stdout, console


@needs_dot
@needs_chromium
def test_html_renders_in_chromium_without_console_errors(tmp_path: Path) -> None:
    module = load(FORUM / "program.mlir")
    graph = build(module)
    page = tmp_path / "forum.html"
    page.write_text(render(module, "html"))
    dom, console = chromium_render(page)
    assert console == []
    ready = re.search(r'data-xgpu-ready="(\d+)"', dom)
    assert ready is not None, dom[:2000]
    assert int(ready.group(1)) == len(graph.nodes) + len(graph.edges)
    # The check sees a broken page: a script error shows on the console.
    broken = tmp_path / "broken.html"
    broken.write_text(page.read_text().replace("JSON.parse(", "JSON.parsed("))
    dom, console = chromium_render(broken)
    assert any("JSON.parsed is not a function" in line for line in console)
    assert re.search(r'data-xgpu-ready="', dom) is None


# ---------------------------------------------------------------------------
# The README's picture
# ---------------------------------------------------------------------------

PICTURE_DOT = ROOT / "docs" / "images" / "forum-async-graph.dot"
PICTURE_SVG = ROOT / "docs" / "images" / "forum-async-graph.svg"


def test_readme_picture_dot_is_current() -> None:
    """`make graphs` writes the picture; the committed DOT is what the pass
    draws today (run `make graphs` after changing the graph's style)."""
    module = load(FORUM / "program.mlir")
    fresh = render(module, "dot", "forum")
    assert PICTURE_DOT.read_text() == fresh, "docs/images is stale: run `make graphs`"
    assert "docs/images/forum-async-graph.svg" in (ROOT / "README.md").read_text()


def test_readme_picture_svg_is_drawn_from_the_dot() -> None:
    svg = PICTURE_SVG.read_text()
    stamp = re.search(r"<!-- xgpu-dot-sha256: ([0-9a-f]{64}); (.*?) -->", svg)
    assert stamp is not None
    assert stamp.group(1) == render_mod.dot_digest(PICTURE_DOT.read_text())
    nodes, edges = svg_ids(ET.fromstring(svg))
    dot_lines = PICTURE_DOT.read_text().splitlines()
    assert nodes == {m.group(1) for x in dot_lines if (m := re.match(r"\s+(n\d+) \[", x))}
    assert len(edges) == sum(1 for x in dot_lines if re.match(r"\s+n\d+ -> n\d+ \[", x))


@needs_dot
def test_readme_picture_svg_is_what_this_graphviz_draws() -> None:
    svg = PICTURE_SVG.read_text()
    stamp = re.search(r"<!-- xgpu-dot-sha256: [0-9a-f]{64}; (.*?) -->", svg)
    assert stamp is not None
    if stamp.group(1) != render_mod._comment(render_mod.dot_version()):
        pytest.skip(
            f"the picture was drawn by {stamp.group(1)}, this is {render_mod.dot_version()}"
        )
    assert render_mod.to_svg(PICTURE_DOT.read_text()) == svg
