"""The async-hazard analysis of one host function (`_FunctionAnalysis`): its
results as `Finding`s (the reporting policy); the entry points over a module
(`find_hazards`, `host_functions`) and a function (`analyze_function`)."""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.ir import Operation

from xgpu.analysis.async_hazards.control_flow import _ControlFlow
from xgpu.analysis.async_hazards.core import _Hazard
from xgpu.analysis.async_hazards.findings import Finding, FindingKind
from xgpu.analysis.buffer_effects import FREE, UNREGISTER, KernelEffects
from xgpu.dialects.gpu.async_interface import AsyncOpInterface
from xgpu.dialects.gpu.host import WaitOp
from xgpu.dialects.gpu.launch import LaunchOp


class _FunctionAnalysis(_ControlFlow):
    # ------------------------------------------------------- results
    def findings(self) -> list[Finding]:
        out: list[Finding] = []
        for (op, v), hz in self.hazards.items():
            roots = {k: m for k, m in hz.others.items() if not hz.derived.get(k, False)}
            if not roots:
                continue  # a consequence of a conflict reported at an earlier op
            other, same, other_mode = self._pick(op, _Hazard(hz.mode, roots))
            if (op.name == "gpu.dealloc" or hz.mode & (FREE | UNREGISTER)) or other_mode & FREE:
                kind = FindingKind.DEALLOC
            elif isinstance(op, AsyncOpInterface) and op.async_token is not None:  # type: ignore[attr-defined]
                kind = FindingKind.CONFLICT
            else:
                kind = FindingKind.HOST_ACCESS
            out.append(Finding(kind, op, other, v, hz.mode, other_mode, same))
        for (op, v), (mode, deallocs) in self.uaf.items():
            if (op, v) in self.hazards:
                continue
            dealloc, same, _ = self._pick(op, _Hazard(mode, {(d, d is op): FREE for d in deallocs}))
            out.append(Finding(FindingKind.USE_AFTER_FREE, op, dealloc, v, mode, FREE, same))
        for op, (ret, only_old, explained) in self.unawaited.items():
            if not explained:
                out.append(Finding(FindingKind.UNAWAITED, op, ret, earlier_runs=only_old))
        for op in self.alias_waits:
            assert isinstance(op, WaitOp)
            out.append(Finding(FindingKind.ALIAS_WAIT, op, value=op.async_dependencies[0]))
        for op in self.empty_waits:
            out.append(Finding(FindingKind.EMPTY_WAIT, op))
        for op, rec in self.waits.items():
            if not rec.useless:
                continue
            assert isinstance(op, WaitOp)
            deps = tuple(op.async_dependencies)
            idx = sorted(rec.useless)
            completed = tuple(deps[i] for i in idx)
            no_work = tuple(deps[i] for i in idx if rec.no_work.get(i, False))
            completers = set().union(*(rec.completers.get(i, set()) for i in idx))
            by = next(iter(completers)) if len(completers) == 1 else None
            partial = len(idx) < len(deps)
            out.append(
                Finding(
                    FindingKind.USELESS_WAIT,
                    op,
                    by,
                    completed=completed,
                    no_work=no_work,
                    partial=partial,
                )
            )
        kinds = list(FindingKind)
        out.sort(key=lambda f: (self.order.get(f.op, len(self.order)), kinds.index(f.kind)))
        return out

    def _pick(self, op: Operation, hz: _Hazard) -> tuple[Operation, bool, int]:
        """The other op to name: another op before `op` (the nearest), else
        another op, else an earlier run of `op` itself."""
        here = self.order.get(op, 0)

        def rank(item: tuple[tuple[Operation, bool], int]) -> tuple[int, int]:
            (other, same), _ = item
            pos = self.order.get(other, 0)
            if same:
                return (2, 0)
            return (0, -pos) if pos < here else (1, -pos)

        (other, same), mode = min(hz.others.items(), key=rank)
        return other, same, mode


def host_functions(module: Operation) -> list[func.FuncOp]:
    """The `func.func` ops with a body that are not inside a `gpu.module`."""
    out: list[func.FuncOp] = []

    def visit(op: Operation) -> None:
        for region in op.regions:
            for block in region.blocks:
                for inner in block.ops:
                    if inner.name == "gpu.module" or isinstance(inner, LaunchOp):
                        continue
                    if isinstance(inner, func.FuncOp):
                        if inner.body.blocks:
                            out.append(inner)
                        continue
                    visit(inner)

    visit(module)
    return out


def find_hazards(module: Operation, effects: KernelEffects | None = None) -> list[Finding]:
    """The findings of every host function of `module`, function by function,
    in program order within each."""
    effects = effects or KernelEffects()
    out: list[Finding] = []
    for f in host_functions(module):
        analysis = _FunctionAnalysis(f, effects)
        analysis.run()
        out.extend(analysis.findings())
    return out


def analyze_function(f: func.FuncOp, effects: KernelEffects | None = None) -> list[Finding]:
    """The findings of one host function."""
    analysis = _FunctionAnalysis(f, effects or KernelEffects())
    analysis.run()
    return analysis.findings()
