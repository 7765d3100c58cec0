"""The GPU runtime of a run, made when the program first needs it.

Starting OpenCL (importing pyopencl, choosing a device, making a context and
queues) costs more than the rest of a short run. Host code binds `_gpu` and
`_tok` (`host_gpu`) to these stand-ins; the first use that needs the device
makes the real runtime (`Runner.gpu_runtime`) and rebinds both names in the
generated code's namespace, so later uses go straight to it.

Until then no GPU work exists, so every token is empty: joining empty tokens
gives the empty token and waiting for one (or for all work) does nothing,
which is what the real runtime would do without touching the device.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class LazyGpu:
    __slots__ = ("_make", "_ns", "tokens")

    def __init__(self, make: Callable[[], Any], ns: dict[str, Any]):
        self._make = make
        self._ns = ns
        self.tokens = LazyTokens(self)

    def real(self) -> Any:
        gpu = self._make()
        self._ns["_gpu"] = gpu
        self._ns["_tok"] = gpu.tokens
        return gpu

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real(), name)


class LazyTokens:
    __slots__ = ("_gpu",)

    def __init__(self, gpu: LazyGpu):
        self._gpu = gpu

    def join(self, *tokens: Any) -> Any:
        if any(tokens):
            return self._gpu.real().tokens.join(*tokens)
        return ()

    def wait(self, token: Any, what: str = "gpu.wait") -> None:
        if token:
            self._gpu.real().tokens.wait(token, what)

    def wait_all(self, what: str = "gpu.wait") -> None:
        return None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._gpu.real().tokens, name)
