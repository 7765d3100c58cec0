"""The canonicalization patterns and folders xgpu's `canonicalize` applies.

gpu ops carry theirs as xDSL does (`HasCanonicalizationPatternsTrait`, a
`fold` method); they live in this package, one module per op family
(`gpu_wait`, `gpu_memory`, `gpu_launch`, `gpu_kernel`). Ops of other dialects
(arith, memref, scf, func) keep xDSL's patterns and folders unless a module
here registers MLIR 22's behaviour for them instead (`arith`, `memref`, `scf`),
because MLIR's output is the specification.

`CANONICALIZATION.patterns(T)` / `.folder(T)` are looked up once per op type by
the driver, so pattern objects are built once, not at every op visited.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib import import_module

from xdsl.interfaces import HasFolderInterface
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import RewritePattern
from xdsl.traits import HasCanonicalizationPatternsTrait, HasFolder

from xgpu.transforms.greedy import Fold, PatternSource

# Modules that register MLIR's patterns/folders for ops xgpu does not define.
# Each defines `register(table: CanonicalizationTable) -> None`.
_OVERRIDE_MODULES = (
    "xgpu.transforms.canonicalization.arith",
    "xgpu.transforms.canonicalization.async_",
    "xgpu.transforms.canonicalization.cf",
    "xgpu.transforms.canonicalization.index",
    "xgpu.transforms.canonicalization.memref",
    "xgpu.transforms.canonicalization.scf",
)

_NO_FOLDER = object()


class CanonicalizationTable(PatternSource):
    def __init__(self) -> None:
        self._patterns: dict[type[Operation], tuple[RewritePattern, ...]] = {}
        self._folders: dict[type[Operation], Fold | None] = {}
        self._loaded = False

    def set_patterns(self, op_type: type[Operation], *patterns: RewritePattern) -> None:
        """Use exactly `patterns` (in this order) for `op_type`."""
        self._patterns[op_type] = patterns

    def set_folder(self, op_type: type[Operation], fold: Fold | None) -> None:
        """Use `fold` for `op_type` (None: the op does not fold)."""
        self._folders[op_type] = fold

    def _load(self) -> None:
        if not self._loaded:
            self._loaded = True
            for name in _OVERRIDE_MODULES:
                try:
                    module = import_module(name)
                except ModuleNotFoundError as err:
                    if err.name != name:
                        raise
                    continue
                module.register(self)

    def patterns(self, op_type: type[Operation]) -> Sequence[RewritePattern]:
        """The patterns of `op_type`, built on the first request only."""
        self._load()
        patterns = self._patterns.get(op_type)
        if patterns is None:
            found: list[RewritePattern] = []
            for trait in op_type.get_traits_of_type(HasCanonicalizationPatternsTrait):
                found.extend(trait.get_patterns(op_type))
            patterns = self._patterns[op_type] = tuple(found)
        return patterns

    def folder(self, op_type: type[Operation]) -> Fold | None:
        self._load()
        if op_type in self._folders:
            return self._folders[op_type]
        if issubclass(op_type, HasFolderInterface):
            return _fold_method
        trait = op_type.get_trait(HasFolder)
        if trait is not None:
            return trait.fold
        return None


def _fold_method(op: Operation) -> Sequence[SSAValue | Attribute] | None:
    return op.fold()  # type: ignore[attr-defined]


CANONICALIZATION = CanonicalizationTable()

__all__ = ["CANONICALIZATION", "CanonicalizationTable", "Callable"]
