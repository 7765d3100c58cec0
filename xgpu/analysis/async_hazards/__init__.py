"""Async-token hazards in host code: the analysis behind `gpu-check-async`.

`find_hazards(module)` analyzes every host function (`func.func` outside
`gpu.module`) and returns `Finding`s; `xgpu.analysis.check_async` turns them
into diagnostics. Nothing here prints or changes the IR.

Semantics (MLIR's GPU_AsyncOpInterface): an async gpu op starts after the work
of its dependency tokens has completed and may run concurrently with anything
else; `gpu.wait async [deps]` is an alias of the union of its dependencies; a
blocking `gpu.wait [deps]` and a synchronous gpu op (no token) make the host
wait for their dependencies and everything those depend on (a synchronous op
also for itself; it does not wait for other work). Host ops run in program
order.

What is reported (`FindingKind`):

1. HOST_ACCESS: a host op (memref.load/store, a call or unknown op taking the
   buffer, a synchronous gpu op, `return` of the buffer) touches a buffer that
   an async op which may still be in flight writes (or writes one it reads);
2. CONFLICT: an async gpu op conflicts with an in-flight async op (write/write
   or read/write on the same buffer) and no token orders them;
3. DEALLOC: `gpu.dealloc` (or `gpu.host_unregister`) of a buffer that an op not
   ordered before it uses, or an op using a buffer while an async dealloc of it
   may run; USE_AFTER_FREE: a use of a buffer after a dealloc of it;
4. UNAWAITED: async work in flight when the function returns, unless a token
   covering it is returned (or handed to a call);
5. remarks: ALIAS_WAIT (a single-token `gpu.wait async`), USELESS_WAIT (a
   blocking `gpu.wait` on tokens whose work has already completed on every
   path, or that stand for no work), EMPTY_WAIT (a blocking `gpu.wait` without
   dependencies).

Memory: buffers are abstract objects. Every function argument is its own
object (arguments are assumed not to alias each other), every allocation site
(`gpu.alloc`, `memref.alloc`, a call returning a memref, ...) gives objects,
`memref.get_global` one object per symbol; `memref.cast`, `subview`, `view`,
`reinterpret_cast`, ... (any side-effect-free op returning a memref from memref
operands) alias their operands. Host-shared, host-registered and device memory
are not told apart: any buffer a kernel can reach may be the memory a host op
reaches. Kernel effects come from the `gpu.func` body (`KernelEffects`): which
arguments it loads from and stores to, following views; an argument passed to a
call, a region op or an unknown op counts as read and written, and so does
every memref argument of a kernel whose body is not available.

The abstract state (`_State`), per program point, over all paths reaching it:

- events: every async op (and every token argument of the function, and every
  op returning a token the analysis cannot follow: its work may read and write
  every buffer the op takes) is an event; an op that runs
  several times (in a loop) has two events, its most recent run and a summary
  of its earlier runs (recency abstraction), so the state space is finite;
- `inflight`: events that may be in flight; `owed`: those the function must
  still await (not token arguments, not handed to a call);
- `tokens[t]`: events certainly complete once token `t` is (must; only the bits
  of in-flight events matter), `may[t]`: events that may complete with `t`;
- `points[v]`: objects a buffer value may refer to; `acc_r`/`acc_w`: per object,
  the events that read / write it; `freed`: objects that may have been freed.

A dealloc marks a buffer freed only when the value it frees is one known
buffer (not a summary of earlier allocations, not one of several): uses after
free are reported where the freed buffer is known, never on a guess.

Reporting policy (in `findings`): for each op and buffer operand, one other op
is named (the nearest one before it). A conflict is left out when an op
ordered before this one already conflicts with the same other op (it is a
consequence: the fix of the first one fixes it), and so is unawaited work that
the token of an op found to conflict would cover. The raw results
(`_FunctionAnalysis.hazards`, `.uaf`, `.unawaited`) keep everything.

Joins (after `scf.if`, at loop heads, at blocks with several predecessors) take
the union of what may be in flight and keep in `tokens[t]` an event only when
every path either completes it with `t` or has it not in flight; loops
(`scf.for` with any bounds, `scf.while`, `cf` back edges) iterate to a fixpoint:
a body may run zero or more times. Warnings found on any visit hold in the
fixpoint (they grow with the state); remarks must hold on every visit.

The code, by concern:

- `findings`: what is reported (`FindingKind`, `Finding`);
- `state`: the abstract state (`_State`) and its joins;
- `core`: the analysis of one function, its ids, values, recency and effects
  on the state (`_AnalysisCore`);
- `transfer`: what gpu ops, host ops and `return` do to the state (`_OpTransfer`);
- `control_flow`: running blocks, regions and structured control flow to a
  fixpoint (`_ControlFlow`), and the successors of `cf` branches (`successors`);
- `analysis`: the results of one function (`_FunctionAnalysis.findings`) and
  the entry points (`find_hazards`, `analyze_function`, `host_functions`).
"""

from __future__ import annotations

from xgpu.analysis.async_hazards.analysis import (
    _FunctionAnalysis,  # noqa: F401  (the tests run it)
    analyze_function,
    find_hazards,
    host_functions,
)
from xgpu.analysis.async_hazards.control_flow import successors
from xgpu.analysis.async_hazards.findings import Finding, FindingKind
from xgpu.analysis.async_hazards.state import MAX_ITERATIONS  # noqa: F401
from xgpu.analysis.buffer_effects import (  # noqa: F401  (re-exported: the access modes)
    ALLOC,
    FREE,
    READ,
    RW,
    UNREGISTER,
    WRITE,
    WRITE_LIKE,
    KernelEffects,
    is_buffer,
    is_token,
)

__all__ = [
    "ALLOC",
    "FREE",
    "READ",
    "RW",
    "UNREGISTER",
    "WRITE",
    "Finding",
    "FindingKind",
    "KernelEffects",
    "analyze_function",
    "find_hazards",
    "host_functions",
    "successors",
]
