"""`verify_ir` and `verify_all` with their shortcuts (ops skipped by block
signature, dominance left unchecked for uses defined earlier in the block,
`xgpu.ir.verify_memo`) report what the general path reports, on host
programs valid and not: random edits of an async program (misplaced ops,
uses before definitions, bad kernels, argument lists, attributes, segment
sizes), and launches in several blocks and modules."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from xdsl.ir import Operation

from xgpu.diagnostics import Diagnostic
from xgpu.ir import verifier, verify_memo
from xgpu.ir.nesting import walk_ops
from xgpu.tools.xgpu_opt import make_context, parse

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from programs import async_program  # noqa: E402

_LAUNCH = (
    "gpu.launch_func async [%w] @kernels::@scale blocks in (%n, %c1, %c1) "
    "threads in (%c1, %c1, %c1) args(%dev : memref<?xf32>, %n : index)"
)
_EDITS = [
    ("@kernels::@scale", "@kernels::@nope"),
    ("@kernels::@scale", "@other::@scale"),
    ("args(%dev : memref<?xf32>, %n : index)", "args(%n : index, %dev : memref<?xf32>)"),
    ("args(%dev : memref<?xf32>, %n : index)", "args(%dev : memref<?xf32>)"),
    ("args(%dev : memref<?xf32>, %n : index)", "args(%dev : memref<?xf32>, %n : index) {x}"),
    (
        "args(%dev : memref<?xf32>, %n : index)",
        "args(%dev : memref<?xf32>, %n : index) {gpu.known_block_size = array<i32: 1>}",
    ),
    ("gpu.wait async [%l", "gpu.wait async {gpu.container_module} [%l"),
]
_INSERTS = [
    "return",
    '"gpu.return"() : () -> ()',
    '"gpu.wait"() ({ }) : () -> ()',
    '%q = "gpu.wait"(%n) : (index) -> !gpu.async.token',
    '"gpu.launch_func"(%n, %c1, %c1, %c1, %c1, %c1) <{kernel = @kernels::@scale, '
    "operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>}> "
    ": (index, index, index, index, index, index) -> ()",
    '"gpu.launch_func"(%n, %c1, %c1, %c1, %c1, %c1, %dev, %n) <{kernel = @kernels::@scale, '
    "operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 2, 0>}> "
    ": (index, index, index, index, index, index, memref<?xf32>, index) -> ()",
    '"gpu.launch_func"(%n, %c1, %c1, %c1, %c1, %c1, %dev, %n) <{kernel = @kernels::@scale, '
    "operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 2, 0, 0, 0, 0, 1, 0>}> "
    ": (index, index, index, index, index, index, memref<?xf32>, index) -> ()",
    '"gpu.launch_func"(%n, %c1, %c1, %c1, %c1, %c1) <{kernel = @kernels::@scale}> '
    ": (index, index, index, index, index, index) -> ()",
    "%qq = gpu.wait async [%qq]",
    "gpu.dealloc %dev : memref<?xf32>",
    "%m2 = gpu.alloc () : memref<?xf32>",
    "%m3 = gpu.alloc (%n) : memref<4xf32>",
    "gpu.memcpy %dev, %host : memref<?xf32>, memref<?xf32>",
    "scf.execute_region {\n      %x = gpu.wait async\n      "
    + _LAUNCH.replace("%w", "%x")
    + "\n      scf.yield\n    }",
]


def _program(rng: random.Random) -> str:
    lines = async_program(rng.randrange(5, 40), buffers_every=rng.choice([0, 3, 7])).split("\n")
    if rng.random() < 0.2:
        lines[0] = "module {"
    if rng.random() < 0.2:  # a second container module, nested, with its own kernels
        inner = "\n".join("  " + line for line in lines if line)
        lines = ["module {", inner, "}", ""]
    for _ in range(rng.randrange(0, 4)):
        body = [i for i, line in enumerate(lines) if line.startswith(("    %", "      %"))]
        if not body:
            break
        i = rng.choice(body)
        kind = rng.randrange(3)
        if kind == 0:
            old, new = rng.choice(_EDITS)
            lines[i] = lines[i].replace(old, new, 1)
        elif kind == 1:
            j = rng.choice(body)
            lines[i], lines[j] = lines[j], lines[i]
        else:
            indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
            lines.insert(i, indent + rng.choice(_INSERTS))
    return "\n".join(lines)


def _general_users(root: Operation, with_root: bool = True, skip=None):  # type: ignore[no-untyped-def]
    """Every op with operands, in walk order (what the shortcut narrows)."""
    stack = [root]
    while stack:
        op = stack.pop()
        if op.operands and (with_root or op is not root):
            yield op
        if op is root or skip is None or not skip(op):
            stack.extend(reversed([c for r in op.regions for b in r.blocks for c in b.ops]))


def _key(diags: list[Diagnostic]) -> list[tuple[object, ...]]:
    return [
        (d.message, d.location, id(d.op), [(n.message, n.location, id(n.op)) for n in d.notes])
        for d in diags
    ]


def _both(module: Operation, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = verifier.verify_ir(module), verifier.verify_all(module)
    with monkeypatch.context() as patch:
        patch.setattr(verify_memo, "SIGNATURE_VERIFIED", set())
        patch.setattr(verifier, "users_to_check", _general_users)
        general = verifier.verify_ir(module), verifier.verify_all(module)
    assert _key([d for d in fast[:1] if d]) == _key([d for d in general[:1] if d])
    assert _key(fast[1]) == _key(general[1])


_CTX = None


@pytest.mark.parametrize("seed", range(150))
def test_shortcuts_report_what_the_general_path_reports(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    global _CTX
    _CTX = _CTX or make_context(allow_unregistered=True)
    rng = random.Random(seed)
    for _ in range(20):  # an edit may make the program unparsable: draw again
        try:
            module = parse(_program(rng), f"p{seed}.mlir", _CTX)
            break
        except Exception:
            continue
    else:
        pytest.fail(f"seed {seed}: no parsable program in 20 draws")
    _both(module, monkeypatch)


def test_the_random_programs_fail_in_many_ways() -> None:
    ctx = make_context(allow_unregistered=True)
    messages = set()
    for seed in range(150):
        try:
            module = parse(_program(random.Random(seed)), "p.mlir", ctx)
        except Exception:
            continue
        diag = verifier.verify_ir(module)
        messages.add(diag.message[:40] if diag else "ok")
    assert len(messages) >= 8, messages


def test_users_to_check_leaves_only_uses_defined_before_in_the_block() -> None:
    module = parse(async_program(30, buffers_every=4), "p.mlir", make_context())
    checked = set(map(id, verify_memo.users_to_check(module)))
    for op in walk_ops(module):
        if id(op) in checked:
            continue
        earlier = set()
        block = op.parent
        if block is not None:
            earlier.update(block.args)
            for other in block.ops:
                if other is op:
                    break
                earlier.update(other.results)
        assert all(v in earlier for v in op.operands), op
