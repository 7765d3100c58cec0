"""A launcher's `repeat`: n launches of one site, each waiting for the one
before, as one call.

The host compiler turns an `scf.for` whose body is only a `gpu.launch_func
async [%t]` chained on the loop's one token, with every other operand of the
launch defined outside the loop, into one call (`host_gpu.repeated_launch`):

    def repeat(n, deps, gx, gy, gz, bx, by, bz, shmem, *operands) -> token

It does what n calls of the site's `launch` do, the i-th waiting for the
token of the one before (n >= 1; the host code does not call it for an empty
loop). The first launch is a call of `launch` (its checks, arguments,
listing and errors). The others have the same sizes and operands, and
nothing runs on the host between them: where the launcher has nothing to do
per launch (no tracer, no coherence of registered host memory, no `__local`
buffer set at every launch, no `gpu.printf` output to flush) and its fast
path holds after the first launch (the kernel's arguments are still the ones
it set, its launch id is still listed and its chain entry in the watch holds
the first launch's event), each is one enqueue waiting for the previous
event; the last becomes the chain entry's event when the loop ends, or
when an enqueue fails or a Ctrl-C interrupts it (a timeout is seen only in
a wait, after the loop: the chain is then as n calls of `launch` would have
left it). The progress counter goes up by the launches about to be
enqueued, `CHUNK` at a time. Otherwise `repeat` calls `launch` n - 1 more
times.
"""

from __future__ import annotations

from typing import Any

#: launches enqueued between two updates of the progress counter
CHUNK = 1024


def repeat_source(params: str, fast: str | None, listed: bool, counted: bool) -> str:
    """The source of `repeat`, executed in the namespace of the site's
    `launch`: `params` its parameters after `deps` (`gx, gy, ..., a0, a1`),
    `fast` the condition of its fast path (None: every launch needs the
    whole launcher), `listed` whether its launches are listed in the watch
    (`_m`, `_me`, `_launches`), `counted` whether it counts launches (`_cnt`)."""
    lines = [
        f"def repeat(n, deps, {params}):",
        f"    d = launch(deps, {params})",
    ]
    if fast is not None:
        cond = fast
        if listed:
            cond += " and (lid := _m[0]) in _launches and (ent := _me[0])[0] == lid"
            cond += " and ent[1] is d[0]"
        step = "e = enq(q, kern, gs, ls, None, (e,), False, True)"
        if counted:
            loop = [
                "n -= 1",
                "while n:",
                f"    k = n if n < {CHUNK} else {CHUNK}",
                "    n -= k",
                "    _cnt[0] += k",
                "    for _ in range(k):",
                "        " + step,
            ]
        else:
            loop = ["for _ in range(n - 1):", "    " + step]
        lines += [
            f"    if n > 1 and {cond}:",
            "        e, gs, ls = d[0], _p[1], _p[2]",
            "        enq, q, kern = _enq, _q, _k",
        ]
        if listed:
            # The chain entry's event is the last enqueued, also when an
            # enqueue fails or a Ctrl-C lands in the loop.
            lines.append("        try:")
            lines += ["            " + line for line in loop]
            lines += ["        finally:", "            ent[1] = e"]
        else:
            lines += ["        " + line for line in loop]
        lines.append("        return (e,)")
    lines += [
        "    for _ in range(n - 1):",
        f"        d = launch(d, {params})",
        "    return d",
    ]
    return "\n".join(lines) + "\n"


def add_repeat(launch: Any, ns: dict, symbol: str, params: str, fast: str | None, listed: bool):
    """Generate `repeat` in `launch`'s namespace `ns` and attach it as
    `launch.repeat` (its source as `launch.repeat.source`); see
    `repeat_source` for `params`, `fast` and `listed`."""
    source = repeat_source(params, fast, listed, "_cnt" in ns)
    # The file name is for tracebacks only; ascii() escapes what a symbol may hold.
    exec(compile(source, f"<xgpu-repeat {ascii(symbol)[1:-1]}>", "exec"), ns)
    repeat = ns["repeat"]
    repeat.source = source
    launch.repeat = repeat
