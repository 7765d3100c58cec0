"""xgpu-opt: xdsl-opt with xgpu's gpu dialect in place of xDSL's."""

from __future__ import annotations

from xdsl.xdsl_opt_main import xDSLOptMain


class XGpuOptMain(xDSLOptMain):
    def register_all_dialects(self) -> None:
        from xdsl.universe import Universe

        from xgpu.dialects.gpu import GPU

        for name, factory in Universe.get_multiverse().all_dialects.items():
            if name != "gpu":
                self.ctx.register_dialect(name, factory)
        self.ctx.register_dialect("gpu", lambda: GPU)


def main() -> None:
    XGpuOptMain().run()


if __name__ == "__main__":
    main()
