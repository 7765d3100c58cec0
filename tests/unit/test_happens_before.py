"""xgpu.analysis.happens_before: the dynamic trace of a host function's GPU
events and host points, and its happens-before relation."""

from __future__ import annotations

import pytest
from xdsl.dialects import func

from xgpu.analysis.happens_before import EventKind, Trace, build_trace, tag_key
from xgpu.tools.xgpu_opt import make_context, parse

KERNEL = """\
  gpu.module @kernels {
    gpu.func @k(%b: memref<4xf32>) kernel {
      gpu.return
    }
  }
"""


def program(body: str, args: str = "%h: memref<4xf32>") -> str:
    return (
        "module attributes {gpu.container_module} {\n"
        + KERNEL
        + f"  func.func @main({args}) {{\n"
        + "    %c0 = arith.constant 0 : index\n"
        + "    %c1 = arith.constant 1 : index\n"
        + "    %c2 = arith.constant 2 : index\n"
        + "    %c3 = arith.constant 3 : index\n"
        + "    %true = arith.constant true\n"
        + "    %false = arith.constant false\n"
        + "    %f = arith.constant 1.0 : f32\n"
        + body
        + "    return\n  }\n}\n"
    )


def launch(tag: int, deps: str = "", result: str | None = None) -> str:
    lhs = f"{result} = " if result else ""
    dep = f" [{deps}]" if deps else ""
    asy = " async" if result else ""
    return (
        f"    {lhs}gpu.launch_func{asy}{dep} @kernels::@k blocks in (%c1, %c1, %c1) "
        f"threads in (%c1, %c1, %c1) args(%h : memref<4xf32>) {{tag = {tag}}}\n"
    )


def observe(tag: int, buf: str = "%h") -> str:
    return f'    "test.observe"({buf}) {{tag = {tag}}} : (memref<4xf32>) -> ()\n'


class Traced:
    """A trace and its tagged events, by (tag, iteration)."""

    def __init__(self, text: str):
        module = parse(text, "t.mlir", make_context(allow_unregistered=True))
        self.func = next(
            op for op in module.walk() if isinstance(op, func.FuncOp) and op.sym_name.data == "main"
        )
        self.trace: Trace = build_trace(self.func)
        key = tag_key()
        self.by_tag = {key(e): e for e in self.trace if key(e) is not None}

    def e(self, tag: int, *iteration: int):
        return self.by_tag[(tag, tuple(iteration))]

    def hb(self, a, b) -> bool:
        return self.trace.happens_before(a, b)


def test_chain_is_transitive_and_one_way() -> None:
    t = Traced(
        program(
            "    %m, %t1 = gpu.alloc async () {tag = 1} : memref<4xf32>\n"
            "    %t2 = gpu.memcpy async [%t1] %m, %h : memref<4xf32>, memref<4xf32> {tag = 2}\n"
            + launch(3, "%t2", "%t3")
        )
    )
    a, b, c = t.e(1), t.e(2), t.e(3)
    assert t.hb(a, b) and t.hb(b, c) and t.hb(a, c)
    assert not t.hb(b, a) and not t.hb(c, a) and not t.hb(a, a)
    assert c.token_preds == (b.index,) and c.host_pred is None
    assert [x.kind for x in t.trace] == [EventKind.GPU] * 3
    assert t.trace.ancestors(c) == [a, b]


def test_fork_is_unordered_join_orders_both() -> None:
    t = Traced(
        program(
            launch(1, "", "%a")
            + launch(2, "%a", "%b")
            + launch(3, "%a", "%c")
            + "    %j = gpu.wait async [%b, %c]\n"
            + "    %alias = gpu.wait async [%j]\n"
            + launch(4, "%alias", "%d")
        )
    )
    b, c, d = t.e(2), t.e(3), t.e(4)
    assert not t.hb(b, c) and not t.hb(c, b)
    assert t.hb(b, d) and t.hb(c, d) and t.hb(t.e(1), d)
    # gpu.wait async is no event: the launch's direct predecessors are the
    # events its token stands for.
    assert d.token_preds == (b.index, c.index)
    assert len(t.trace) == 4


def test_empty_join_stands_for_nothing() -> None:
    t = Traced(program(launch(1, "", "%a") + "    %s = gpu.wait async\n" + launch(2, "%s", "%b")))
    assert not t.hb(t.e(1), t.e(2))
    assert t.e(2).token_preds == ()


def test_blocking_wait_orders_its_deps_before_later_host_work() -> None:
    t = Traced(
        program(
            launch(1, "", "%a")
            + launch(2, "", "%b")
            + "    gpu.wait [%a]\n"
            + observe(3)
            + launch(4, "", "%c")
        )
    )
    a, b, obs, c = t.e(1), t.e(2), t.e(3), t.e(4)
    assert t.hb(a, obs) and t.hb(a, c)
    # %b was issued before the wait but not waited for.
    assert not t.hb(b, obs) and not t.hb(b, c)
    # Host program order after an observation point.
    assert t.hb(obs, c) and not t.hb(c, obs)
    wait = t.trace.events[obs.host_pred]
    assert wait.kind is EventKind.WAIT and wait.is_host_point
    assert t.hb(wait, obs) and t.hb(a, wait) and not t.hb(b, wait)


def test_work_issued_before_an_observation_is_not_ordered_with_it() -> None:
    t = Traced(program(launch(1, "", "%a") + observe(2) + launch(3, "%a", "%b")))
    a, obs, b = t.e(1), t.e(2), t.e(3)
    assert not t.hb(a, obs) and not t.hb(obs, a)
    assert t.hb(obs, b) and t.hb(a, b)


def test_synchronous_op_completes_its_deps_and_itself() -> None:
    t = Traced(
        program(
            launch(1, "", "%a")
            + launch(2, "", "%b")
            + "    gpu.memcpy [%a] %h, %h : memref<4xf32>, memref<4xf32> {tag = 3}\n"
            + observe(4)
        )
    )
    a, b, copy, obs = t.e(1), t.e(2), t.e(3), t.e(4)
    assert copy.synchronous and copy.is_host_point
    assert t.hb(a, copy) and t.hb(copy, obs) and t.hb(a, obs)
    # A synchronous op is not a device-wide barrier.
    assert not t.hb(b, copy) and not t.hb(b, obs)


def test_synchronous_op_without_interface() -> None:
    t = Traced(
        program(
            launch(1, "", "%a")
            + "    gpu.host_register %u {tag = 2} : memref<*xf32>\n"
            + observe(3),
            args="%h: memref<4xf32>, %u: memref<*xf32>",
        )
    )
    reg = t.e(2)
    assert reg.kind is EventKind.GPU and reg.synchronous
    assert t.hb(reg, t.e(3)) and not t.hb(t.e(1), reg)


def test_token_arguments_are_events() -> None:
    t = Traced(program(launch(1, "%ta", "%a"), args="%h: memref<4xf32>, %ta: !gpu.async.token"))
    arg = t.trace.events[0]
    assert arg.kind is EventKind.ARGUMENT and arg.op is None
    assert arg.argument is t.func.body.blocks[0].args[1]
    assert t.hb(arg, t.e(1))
    assert t.trace.event(arg.argument) is arg


def test_loop_unrolls_with_iteration_indices() -> None:
    t = Traced(
        program(
            "    scf.for %i = %c0 to %c3 step %c1 {\n"
            + launch(1, "", "%a")
            + "      scf.yield\n    }\n"
        )
    )
    instances = [t.e(1, i) for i in range(3)]
    assert [e.iteration for e in instances] == [(0,), (1,), (2,)]
    # Independent iterations: no order.
    assert not any(t.hb(x, y) for x in instances for y in instances)
    op = instances[0].op
    assert t.trace.instances(op) == instances
    assert t.trace.event(op, (1,)) is instances[1]


def test_loop_carried_token_chains_the_iterations() -> None:
    t = Traced(
        program(
            launch(1, "", "%a")
            + "    %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %a) -> (!gpu.async.token) {\n"
            + launch(2, "%acc", "%n")
            + "      scf.yield %n : !gpu.async.token\n    }\n"
            + launch(3, "%r", "%z")
        )
    )
    a, i0, i1, z = t.e(1), t.e(2, 0), t.e(2, 1), t.e(3)
    assert t.hb(a, i0) and t.hb(i0, i1) and t.hb(i1, z) and t.hb(a, z)
    assert not t.hb(i1, i0)


def test_zero_trip_loop_forwards_its_init_values() -> None:
    t = Traced(
        program(
            launch(1, "", "%a")
            + "    %r = scf.for %i = %c0 to %c0 step %c1 iter_args(%acc = %a) -> (!gpu.async.token) {\n"
            + launch(2, "%acc", "%n")
            + "      scf.yield %n : !gpu.async.token\n    }\n"
            + launch(3, "%r", "%z")
        )
    )
    assert (2, (0,)) not in t.by_tag
    assert t.hb(t.e(1), t.e(3))


def test_wait_in_a_loop_body_orders_later_iterations() -> None:
    t = Traced(
        program(
            "    scf.for %i = %c0 to %c2 step %c1 {\n"
            + launch(1, "", "%a")
            + launch(2, "", "%b")
            + "      gpu.wait [%a]\n"
            + "      scf.yield\n    }\n"
        )
    )
    assert t.hb(t.e(1, 0), t.e(1, 1)) and t.hb(t.e(1, 0), t.e(2, 1))
    assert not t.hb(t.e(2, 0), t.e(1, 1))
    assert not t.hb(t.e(1, 0), t.e(2, 0))


def test_constant_if_takes_one_branch() -> None:
    t = Traced(
        program(
            launch(1, "", "%a")
            + launch(2, "", "%b")
            + "    %r = scf.if %false -> (!gpu.async.token) {\n"
            + launch(3, "", "%x")
            + "      scf.yield %a : !gpu.async.token\n"
            + "    } else {\n"
            + "      gpu.wait [%a]\n"
            + "      scf.yield %b : !gpu.async.token\n"
            + "    }\n"
            + launch(4, "%r", "%z")
        )
    )
    assert (3, ()) not in t.by_tag
    a, b, z = t.e(1), t.e(2), t.e(4)
    assert t.hb(b, z)  # through the if's result
    assert t.hb(a, z)  # through the blocking wait in the taken branch
    assert sum(e.kind is EventKind.WAIT for e in t.trace) == 1


def test_observation_points() -> None:
    t = Traced(
        program(
            launch(1, "", "%a")
            + "    %v = memref.load %h[%c0] : memref<4xf32>\n"
            + "    %s = arith.addf %v, %f : f32\n"
            + "    func.call @host() : () -> ()\n"
            + launch(2, "", "%b")
        ).replace("  func.func @main", "  func.func private @host()\n  func.func @main")
    )
    kinds = [(e.kind, e.op.name if e.op else None) for e in t.trace]
    assert kinds == [
        (EventKind.GPU, "gpu.launch_func"),
        (EventKind.OBSERVE, "memref.load"),
        (EventKind.OBSERVE, "func.call"),
        (EventKind.GPU, "gpu.launch_func"),
    ]
    load, call = t.trace.events[1], t.trace.events[2]
    assert t.hb(load, call) and t.hb(call, t.e(2)) and not t.hb(t.e(1), load)


def test_relation_by_key() -> None:
    t = Traced(
        program(launch(1, "", "%a") + "    gpu.wait [%a]\n" + observe(2) + launch(3, "%a", "%b"))
    )
    rel = t.trace.relation(tag_key())
    assert rel == {((1, ()), (2, ())), ((1, ()), (3, ())), ((2, ()), (3, ()))}
    assert t.trace.keys(tag_key()) == [(1, ()), (2, ()), (3, ())]
    # Only GPU events, by a custom key.
    gpu_only = t.trace.relation(tag_key(kinds=(EventKind.GPU,)))
    assert gpu_only == {((1, ()), (3, ()))}


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            "    %n = arith.addi %c1, %c2 : index\n"
            "    scf.for %i = %c0 to %n step %c1 {\n      scf.yield\n    }\n",
            "upper bound of 'scf.for'",
        ),
        (
            "    %v = memref.load %h[%c0] : memref<4xf32>\n"
            "    %c = arith.cmpf olt, %v, %f : f32\n"
            "    scf.if %c {\n      scf.yield\n    }\n",
            "condition of 'scf.if'",
        ),
        (
            "    scf.execute_region {\n"
            '      "test.observe"(%h) : (memref<4xf32>) -> ()\n'
            "      scf.yield\n    }\n",
            "unsupported region op 'scf.execute_region'",
        ),
        (
            '    %t = "test.token"() : () -> !gpu.async.token\n',
            "produces a token",
        ),
    ],
)
def test_unsupported_host_code_is_reported(body: str, message: str) -> None:
    with pytest.raises(NotImplementedError, match=message):
        Traced(program(body))


def test_unstructured_control_flow_is_reported() -> None:
    text = program("    cf.br ^bb1\n  ^bb1:\n")
    with pytest.raises(NotImplementedError, match="several blocks"):
        Traced(text)


def test_declaration_has_an_empty_trace() -> None:
    module = parse("func.func private @f(%t: !gpu.async.token)\n", "t.mlir")
    f = next(op for op in module.walk() if isinstance(op, func.FuncOp))
    assert len(build_trace(f)) == 0
