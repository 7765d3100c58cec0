"""SVG and HTML forms of the graph.

SVG comes from Graphviz's `dot` program (Debian: `apt-get install graphviz`),
run with a time limit; without it the error says so and that `format=dot`
needs nothing. The HTML form is one self-contained XHTML file: the SVG
inline, a style sheet, the text of each op as JSON, and a short script that
shows the op under the pointer in a panel; nothing is fetched from the
network. The file is well-formed XML (the script uses neither `<` nor `&`,
the JSON escapes them).
"""

from __future__ import annotations

import hashlib
import html
import json
import shutil
import subprocess

from xgpu.analysis.async_graph.model import Graph

DOT_TIMEOUT_S = 120


class RenderError(Exception):
    """Graphviz is missing or failed (the message says what to do)."""


def dot_program() -> str | None:
    return shutil.which("dot")


def dot_version() -> str:
    """`dot -V`'s answer ("dot - graphviz version 2.42.2 (0)"), or ""."""
    dot = dot_program()
    if dot is None:
        return ""
    try:
        done = subprocess.run([dot, "-V"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return (done.stderr or done.stdout).strip()


def dot_digest(dot_text: str) -> str:
    return hashlib.sha256(dot_text.encode()).hexdigest()


def to_svg(dot_text: str) -> str:
    """The SVG Graphviz draws for `dot_text`, with a comment naming the DOT
    text's SHA-256 and the Graphviz version (so a committed picture can be
    checked to be current)."""
    dot = dot_program()
    if dot is None:
        raise RenderError(
            "format=svg and format=html need Graphviz's 'dot' program, which is not "
            "installed (Debian: apt-get install graphviz); format=dot writes the graph "
            "without it"
        )
    try:
        done = subprocess.run(
            [dot, "-Tsvg"],
            input=dot_text.encode(),
            capture_output=True,
            timeout=DOT_TIMEOUT_S,
        )
    except subprocess.TimeoutExpired:
        raise RenderError(f"Graphviz's dot did not finish in {DOT_TIMEOUT_S} s") from None
    except OSError as err:
        raise RenderError(f"cannot run Graphviz's dot: {err}") from None
    if done.returncode != 0:
        why = done.stderr.decode(errors="replace").strip().splitlines()
        raise RenderError(f"Graphviz's dot failed: {why[-1] if why else done.returncode}")
    svg = done.stdout.decode()
    start = svg.find("<svg")
    if start < 0:
        raise RenderError("Graphviz's dot wrote no SVG")
    stamp = f"<!-- xgpu-dot-sha256: {dot_digest(dot_text)}; {_comment(dot_version())} -->\n"
    return svg[:start] + stamp + svg[start:]


def _comment(text: str) -> str:
    return text.replace("--", "- -")


def _json_for_script(data: object) -> str:
    """JSON that is safe inside an XHTML `<script>`: no `<`, `>` or `&`."""
    text = json.dumps(data, ensure_ascii=True, sort_keys=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


_STYLE = """
body { font-family: Helvetica, Arial, sans-serif; margin: 1em; }
#graph svg { max-width: 100%; height: auto; }
#op { position: sticky; bottom: 0; background: #fafafa; border-top: 1px solid #ccc;
      padding: 0.5em; min-height: 2.5em; white-space: pre-wrap; font-family: monospace; }
g.node:hover polygon, g.node:hover ellipse, g.node:hover path { stroke-width: 3; }
"""

# Shows the text of the node or edge under the pointer. No '<' and no '&' (the
# file is XML).
_SCRIPT = """
(function () {
  var ops = JSON.parse(document.getElementById("xgpu-ops").textContent);
  var panel = document.getElementById("op");
  var count = 0;
  document.querySelectorAll("g.node, g.edge").forEach(function (g) {
    var text = ops[g.id];
    if (text === undefined) { return; }
    count += 1;
    g.addEventListener("mouseenter", function () { panel.textContent = text; });
  });
  document.body.setAttribute("data-xgpu-ready", String(count));
})();
"""


def to_html(graph: Graph, svg: str, title: str) -> str:
    texts: dict[str, str] = {}
    for n in graph.nodes:
        texts[n.id] = "\n".join([n.text or n.label[0], *n.notes])
    for i, e in enumerate(graph.edges):
        texts[f"e{i}"] = e.tooltip or e.label or e.kind.value
    inline = svg[svg.find("<svg") :] if "<svg" in svg else svg
    return (
        "<!DOCTYPE html>\n"
        '<html xmlns="http://www.w3.org/1999/xhtml" lang="en">\n'
        "<head>\n"
        '<meta charset="utf-8"/>\n'
        f"<title>{html.escape(title)}</title>\n"
        f"<style>{_STYLE}</style>\n"
        "</head>\n"
        "<body>\n"
        f"<h1>{html.escape(title)}</h1>\n"
        f'<div id="graph">\n{inline}</div>\n'
        '<div id="op">Point at an op to see its text.</div>\n'
        f'<script type="application/json" id="xgpu-ops">{_json_for_script(texts)}</script>\n'
        f"<script>{_SCRIPT}</script>\n"
        "</body>\n"
        "</html>\n"
    )


__all__ = ["RenderError", "dot_digest", "dot_program", "dot_version", "to_html", "to_svg"]
