"""The launcher generated for a `gpu.launch_func` site (`make_launcher`; see
`xgpu.runtime.kernels` for what it does): a Python function, compiled once
per site, that checks the launch, sets the kernel arguments that changed
and enqueues the kernel.

Three ways through it, fastest first:

- the launch repeats the site's last one (the same sizes, operands and
  scalar values, the kernel's arguments still those this launcher set, its
  launch id still listed): one enqueue, and the watch entry of the chain;
- the same sizes and memref operands, only scalar operands changed (a loop
  passing its induction variable): the scalars that differ from the
  kernel's arguments are set, nothing else is looked at again;
- otherwise the whole work: the launch's sizes against the device's limits,
  every argument computed from the operands and those that differ from the
  kernel's memo set.
"""

from __future__ import annotations

import struct
import time
from typing import TYPE_CHECKING, Any

import numpy as np
import pyopencl as cl
from pyopencl import _cl
from xdsl.ir import Operation

from xgpu.runtime.launch_limits import check_launch
from xgpu.runtime.launch_repeat import add_repeat
from xgpu.runtime.memref import HOST_MEMORY_FIX, MemRef, RuntimeFailure
from xgpu.runtime.opencl_device import GpuRuntime, flush_host_output
from xgpu.runtime.watch import LaunchSite

if TYPE_CHECKING:
    from xgpu.runtime.kernels import KernelInfo


_PACK_CHARS = frozenset("cbBhHiIlLfd")


def _pack_char(dtype: np.dtype) -> str:
    char = np.dtype(dtype).char
    if char == "q" and struct.calcsize("l") == 8:
        return "l"
    if char == "Q" and struct.calcsize("L") == 8:
        return "L"
    if char == "?":
        return "B"
    return char


def make_launcher(info: KernelInfo, gpu: GpuRuntime, is_async: bool, op: Operation | None = None):
    """Generate the launcher of `info` (see the module docstring)."""
    watch = gpu.watch
    ns: dict[str, Any] = {
        "_k": info.kernel,
        "_q": gpu.queue,
        "_enq": _cl.enqueue_nd_range_kernel,
        "_setm": info.kernel._set_arg_multi,
        "_pack": info.kernel._set_arg_buf_pack_multi,
        "_setb": info.kernel._set_arg_buf,
        "_spack": struct.pack,
        "_LM": cl.LocalMemory,
        "_nobuf": _no_buffer,
        "_flush": flush_host_output,
        "_tok": gpu.tokens,
        "_trace": gpu.tracer.command if gpu.tracer is not None else None,
        "_sym": info.symbol,
        "_now": time.perf_counter_ns,
        "_bad": _bad_launch(info, op),
        "_site": LaunchSite(op, info.symbol, info.program),
        "_launches": watch.launches,
        "_lid": watch.launch_id,
        "_w": watch,
        "_inf": watch.inflight,
        "_rec": watch.record.buffer if watch.record is not None else None,
    }
    operands = [f"a{k}" for k in range(info.operand_count)]
    lines = [
        f"def launch(deps, gx, gy, gz, bx, by, bz, shmem{''.join(', ' + a for a in operands)}):"
    ]
    body: list[str] = []
    coherence = gpu.coherence if info.memrefs else None
    if coherence is not None:
        # Registered host memory on a device without unified memory: what
        # the host changed goes to the device first, and what the kernel
        # may write is recorded (`xgpu.runtime.coherence`).
        ns["_pre"] = coherence.before
        ns["_post"] = coherence.after
        body.append(f"deps = _pre(deps, ({''.join(f'a{k}, ' for k in info.memrefs)}))")
    # Arguments that did not change since the kernel's last launch are not set
    # again (clSetKernelArg costs about as much as the enqueue on PoCL): the
    # kernel's memo (`DeviceContext.arg_memo`, shared by every launcher of the
    # same cl.Kernel) holds the values last set. A buffer is the same only if
    # it is the same cl.Buffer object (the memo holds it: a new buffer is a
    # new object even where OpenCL reuses the handle); an integer compares by
    # value (the slot's format is fixed, so equal values pack to equal bytes);
    # a float by its packed bytes (-0.0 == 0.0, NaN != NaN). The launch id of
    # checked kernels has its own memo entry; `__local` sizes that depend on
    # the launch are set every time. Only xgpu's launchers set the arguments of these kernels.
    ns["_c"] = gpu.dctx.arg_memo(info.kernel, len(info.slots) + 1)
    slow: list[str] = []
    buffers: list[str] = []  # cached cl.Buffer / LocalMemory arguments
    packed: list[str] = []  # cached integers: index, format, value
    raw: list[tuple[int, str]] = []  # cached packed bytes (floats, odd formats)
    always_buf: list[str] = []  # set at every launch
    always_packed: list[str] = []
    keys: list[tuple[int, str, bool]] = []  # (index, local name, compare by identity)
    seen_buf: set[int] = set()
    launch_slot = None  # the launch id's argument (checked kernels)
    ints: list[tuple[int, int, str]] = []  # integer scalars: slot, operand, format
    floats: list[tuple[int, int, str]] = []  # packed scalars (floats, odd formats)
    slow.append(f"if not ({_fast_check(info)}): _bad(gx, gy, gz, bx, by, bz, shmem)")
    listed = watch.record is not None or watch.timeout is not None
    if listed:
        # The launch's id (`watch`): the last one of this site while the
        # memref operands are the same ones and the id is still listed (a
        # failure's report depends only on the site, the memref operands and
        # the record), else a new one, listed with the site and operands.
        ns["_m"] = [0] + [None] * len(info.memrefs)
        same = "".join(f"a{k} is _m[{j + 1}] and " for j, k in enumerate(info.memrefs))
        body.append(f"if {same}_m[0] in _launches:")
        body.append("    lid = _m[0]")
        body.append("else:")
        body.append("    lid = _lid()")
        body.append(f"    _launches[lid] = (_site, ({''.join(a + ', ' for a in operands)}))")
        targets = "".join(f", _m[{j + 1}]" for j in range(len(info.memrefs)))
        values = "".join(f", a{k}" for k in info.memrefs)
        body.append(f"    _m[0]{targets} = lid{values}")
    for index, slot in enumerate(info.slots):
        kind = slot[0]
        v = f"v{index}"
        if kind == "buffer":
            k = slot[1]
            if k not in seen_buf:
                slow.append(f"b{k} = a{k}.storage.buf")
                slow.append(f"if b{k} is None: _nobuf({k}, a{k}, _sym)")
                seen_buf.add(k)
            buffers += [str(index), f"b{k}"]
            keys.append((index, f"b{k}", True))
            continue
        if kind == "offset":
            expr = f"a{slot[1]}.offset"
        elif kind == "size":
            expr = f"a{slot[1]}.sizes[{slot[2]}]"
        elif kind == "stride":
            expr = f"a{slot[1]}.strides[{slot[2]}]"
        elif kind == "scalar":
            char = _pack_char(slot[2])
            if char in _PACK_CHARS and char not in "fd":
                expr = f"a{slot[1]}"
                ints.append((index, slot[1], char))
            else:
                slow.append(f"{v} = _spack({char!r}, a{slot[1]})")
                raw.append((index, v))
                keys.append((index, v, False))
                floats.append((index, slot[1], char))
                continue
        elif kind == "local":
            name = f"_loc{index}"
            ns[name] = cl.LocalMemory(max(int(slot[1]), 1))
            buffers += [str(index), name]
            keys.append((index, name, True))
            continue
        elif kind == "dynamic_local":
            always_buf += [str(index), "_LM(shmem if shmem > 0 else 1)"]
            continue
        elif kind == "dynamic_size":
            expr = "shmem"
        elif kind == "extent":
            k = slot[1]
            expr = f"a{k}.storage.nbytes // a{k}.dtype.itemsize"
        elif kind == "record":
            buffers += [str(index), "_rec"]
            keys.append((index, "_rec", True))
            continue
        elif kind == "launch":
            launch_slot = index
            continue
        elif kind == "block_local":
            always_buf += [str(index), f"_LM({slot[1]} + {slot[2]} * bx * by * bz)"]
            continue
        else:
            raise RuntimeFailure(f"unknown kernel argument kind {kind!r}")
        slow.append(f"{v} = {expr}")
        packed += [str(index), "b'l'" if kind != "scalar" else repr(char.encode()), v]
        keys.append((index, v, False))
    if keys:
        changed = " or ".join(
            f"{name} {'is not' if same else '!='} _c[{index}]" for index, name, same in keys
        )
        slow.append(f"if {changed}:")
        if buffers:
            slow.append(f"    _setm(({', '.join(buffers)},))")
        if packed:
            slow.append(f"    _pack(({', '.join(packed)},))")
        for index, name in raw:
            slow.append(f"    _setb({index}, {name})")
        # Remembered once all are set (a failing set leaves the memo stale,
        # so the next launch sets everything again).
        targets = ", ".join(f"_c[{index}]" for index, _, _ in keys)
        values = ", ".join(name for _, name, _ in keys)
        slow.append(f"    {targets} = {values}")
    # The launch's sizes and the values of the kernel's arguments follow
    # from the launcher's arguments: a launch with the same sizes and memref
    # operands as the launcher's last (equal integers, the same memref
    # objects, the same buffers) on a kernel whose arguments this launcher
    # set last (the memo's last entry, cleared while they change) passed the
    # checks and needs only the scalar operands that changed (`fast`);
    # where they have not either, it sets nothing (`fast_all`). While the
    # memo's last entry is this launcher's, only this launcher sets the
    # kernel's arguments: a float operand that is the same object as the
    # one last set (`_s`) is the same value.
    marker = len(info.slots)
    scalar_operands = {k for _, k, _ in ints + floats}
    keyed = ["gx", "gy", "gz", "bx", "by", "bz", "shmem"] + [
        f"a{k}" for k in range(info.operand_count) if k not in scalar_operands
    ]
    held = [f"b{k}" for k in sorted(seen_buf)]
    ns["_p"] = [None] * (3 + len(held))
    ns["_s"] = [None] * len(floats)
    fast = [f"({', '.join(keyed)},) == _p[0]", f"_c[{marker}] is _p"]
    for j, name in enumerate(held):
        fast.append(f"a{name[1:]}.storage.buf is _p[{3 + j}]")
    fast_all = fast + [f"a{k} == _c[{index}]" for index, k, _ in ints]
    fast_all += [f"a{k} is _s[{j}]" for j, (_, k, _) in enumerate(floats)]
    for j, (_, k, _) in enumerate(floats):
        slow.append(f"_s[{j}] = a{k}")
    body.append(f"if {' and '.join(fast)}:")
    body.append("    gs, ls = _p[1], _p[2]")
    for index, k, char in ints:
        body.append(f"    if a{k} != _c[{index}]:")
        body.append(f"        _pack(({index}, {char.encode()!r}, a{k}))")
        body.append(f"        _c[{index}] = a{k}")
    for j, (index, k, char) in enumerate(floats):
        body.append(f"    if a{k} is not _s[{j}]:")
        body.append(f"        v = _spack({char!r}, a{k})")
        body.append(f"        if v != _c[{index}]:")
        body.append(f"            _setb({index}, v)")
        body.append(f"            _c[{index}] = v")
        body.append(f"        _s[{j}] = a{k}")
    body.append("else:")
    body.append(f"    _c[{marker}] = None")
    body.extend("    " + line for line in slow)
    # Trailing dimensions of size 1 are left out of the NDRange: OpenCL gives
    # a work-item the same ids and sizes in a dimension past the work_dim
    # (id 0, size 1), and PoCL enqueues a 1-D range faster than a 3-D one
    # (0.4 to 0.9 us of a 4 to 7 us launch).
    body.append("    if gz == 1 and bz == 1:")
    body.append("        if gy == 1 and by == 1:")
    body.append("            gs, ls = (gx * bx,), (bx,)")
    body.append("        else:")
    body.append("            gs, ls = (gx * bx, gy * by), (bx, by)")
    body.append("    else:")
    body.append("        gs, ls = (gx * bx, gy * by, gz * bz), (bx, by, bz)")
    body.append(f"    _p[:] = ({', '.join(keyed)},), gs, ls{''.join(', ' + h for h in held)}")
    body.append(f"    _c[{marker}] = _p")
    if listed and coherence is None and not (always_buf or always_packed or info.prints):
        if gpu.tracer is None:
            # The common repeated launch, whole: the sizes and operands of this
            # launcher's last launch, its arguments still the kernel's (so the
            # launch id set is `_m[0]`, its last) and that id still listed.
            fast_whole = [
                f"if {' and '.join(fast_all)} and (lid := _m[0]) in _launches:",
                "    e = _enq(_q, _k, _p[1], _p[2], None, deps, False, True)",
            ]
            fast_whole += ["    " + line for line in _listed_entry(watch, "lid")]
            fast_whole += ["    " + line for line in _launch_result(is_async)]
            body[:0] = fast_whole
    if launch_slot is not None:
        # Set when it changed: its own memo entry (the other arguments are
        # not set again when only the launch id changes).
        body.append(f"if lid != _c[{launch_slot}]:")
        body.append(f"    _pack(({launch_slot}, b'l', lid))")
        body.append(f"    _c[{launch_slot}] = lid")
    if always_buf:
        body.append(f"_setm(({', '.join(always_buf)},))")
    if always_packed:
        body.append(f"_pack(({', '.join(always_packed)},))")
    if info.prints:
        body.append("_flush()")
    if gpu.tracer is not None:
        body.append("t0 = _now()")
    body.append("e = _enq(_q, _k, gs, ls, None, deps, False, True)")
    if gpu.tracer is not None:
        body.append(
            "_trace(e, _sym, 'kernel', before_ns=t0, grid=[gx, gy, gz], block=[bx, by, bz])"
        )
    if coherence is not None and info.written:
        body.append(f"_post((e,), ({''.join(f'a{k}, ' for k in info.written)}))")
    if listed:
        ns["_me"] = [_NO_ENTRY]
        body.extend(_listed_entry(watch, "lid"))
    body.extend(_launch_result(is_async))
    if getattr(gpu, "launch_count", None) is not None:  # counted for a progress line
        ns["_cnt"] = gpu.launch_count
        body.insert(0, "_cnt[0] += 1")
    source = "\n".join(lines + ["    " + b for b in body]) + "\n"
    # The file name is for tracebacks only; ascii() escapes what a symbol may hold.
    exec(compile(source, f"<xgpu-launch {ascii(info.symbol)[1:-1]}>", "exec"), ns)
    launch = ns["launch"]
    launch.source = source  # type: ignore[attr-defined]
    if is_async:
        # n chained launches of the site as one call (`launch_repeat`), its
        # tight loop where a launch on the fast path is only the enqueue.
        tight = (
            coherence is None
            and gpu.tracer is None
            and not (always_buf or always_packed or info.prints)
            and (listed or launch_slot is None)
        )
        params = ", ".join(["gx, gy, gz, bx, by, bz, shmem", *operands])
        add_repeat(
            launch, ns, info.symbol, params, " and ".join(fast_all) if tight else None, listed
        )
    return launch


def _listed_entry(watch: Any, lid: str) -> list[str]:
    """A launcher's lines that list its launch's event `e` under the id `lid`
    in `watch.inflight`. A launch that waits for the last listed launch of its
    site under the same id takes that entry's place: the entry then stands
    for a chain of launches, complete when its last is. With a timeout the
    entry also keeps the chain's first event, so that a timeout can tell a
    chain that has started from one still waiting (`Watch._timeout`): every
    launch of a chain has the same site, which is what a timeout names."""
    first = ", e" if watch.timeout is not None else ""
    return [
        "ent = _me[0]",
        f"if {lid} == ent[0] and deps and deps[0] is ent[1]:",
        "    ent[1] = e",
        "else:",
        f"    ent = _me[0] = [{lid}, e{first}]",
        "    _inf.append(ent)",
        "    if len(_inf) > _w.sweep_at: _w.sweep()",
    ]


def _launch_result(is_async: bool) -> list[str]:
    """A launcher's last lines: its token, or (synchronous) the wait for `e`."""
    if is_async:
        return ["return (e,)"]
    return ["_tok.wait((e,), 'gpu.launch_func ' + _sym)", "return ()"]


#: the last entry of a launcher that has listed none
_NO_ENTRY = [0, None]


def _no_buffer(k: int, value: Any, symbol: str) -> None:
    if isinstance(value, MemRef):
        raise RuntimeFailure(
            f"operand {k} of {symbol} is host memory that the device cannot use ({HOST_MEMORY_FIX})"
        )
    raise RuntimeFailure(f"operand {k} of {symbol} is not a memref")


def _local_parts(info: KernelInfo) -> tuple[int, int]:
    """(fixed bytes, bytes per work-item) of the kernel's `__local` buffers
    besides the dynamic shared memory."""
    fixed = per_item = 0
    for slot in info.slots:
        if slot[0] == "local":
            fixed += int(slot[1])
        elif slot[0] == "block_local":
            fixed += int(slot[1])
            per_item += int(slot[2])
    return fixed, per_item


def _fast_check(info: KernelInfo) -> str:
    """A Python condition that holds when the launch fits every limit
    (`_bad_launch` says what is wrong otherwise)."""
    lim = info.limits
    assert lim is not None
    bx, by, bz = lim.block_dims
    parts = [
        f"0 < bx <= {bx} and 0 < by <= {by} and 0 < bz <= {bz}",
        f"bx * by * bz <= {lim.block_total}",
        f"0 < gx and 0 < gy and 0 < gz and gx * gy * gz <= {lim.grid_total}",
    ]
    fixed, per_item = _local_parts(info)
    local = f"{fixed} + shmem" + (f" + {per_item} * bx * by * bz" if per_item else "")
    parts.append(f"0 <= shmem and {local} <= {lim.local_bytes}")
    if lim.global_bits is not None and lim.global_bits < 64:
        top = 2**lim.global_bits
        parts.append(f"gx * bx < {top} and gy * by < {top} and gz * bz < {top}")
    abi = info.abi
    if abi is not None and abi.known_block_size is not None:
        parts.append(f"(bx, by, bz) == {tuple(abi.known_block_size)!r}")
    if abi is not None and abi.known_grid_size is not None:
        parts.append(f"(gx, gy, gz) == {tuple(abi.known_grid_size)!r}")
    return " and ".join(parts)


def _bad_launch(info: KernelInfo, op: Operation | None):
    def bad(gx, gy, gz, bx, by, bz, shmem) -> None:
        assert info.limits is not None
        fixed, per_item = _local_parts(info)
        parts = []
        for slot in info.slots:
            if slot[0] == "local" and slot[1]:
                parts.append(("workgroup attributions", int(slot[1])))
            elif slot[0] == "block_local":
                n = int(slot[1]) + int(slot[2]) * bx * by * bz
                parts.append(("reduction scratch", n))
        abi = info.abi
        message = check_launch(
            info.limits,
            (gx, gy, gz),
            (bx, by, bz),
            shmem,
            _merge(parts),
            abi.known_block_size if abi is not None else None,
            abi.known_grid_size if abi is not None else None,
        )
        raise RuntimeFailure(f"gpu.launch_func {info.symbol}: {message or 'invalid launch'}")

    return bad


def _merge(parts: list[tuple[str, int]]) -> list[tuple[str, int]]:
    merged: dict[str, int] = {}
    for what, n in parts:
        merged[what] = merged.get(what, 0) + n
    return list(merged.items())
