"""The simulator's malloc policy (`xgpu.backend.sim.memory_policy`): set
once per process on glibc, left alone with XGPU_SIM_MALLOPT=0."""

from __future__ import annotations

import os
import platform
import subprocess
import sys

import pytest

CODE = "from xgpu.backend.sim.memory_policy import keep_freed_memory as k; print(k(), k())"


def _run(env_value: str | None) -> str:
    env = dict(os.environ)
    env.pop("XGPU_SIM_MALLOPT", None)
    if env_value is not None:
        env["XGPU_SIM_MALLOPT"] = env_value
    out = subprocess.run(
        [sys.executable, "-c", CODE], capture_output=True, text=True, env=env, check=True
    )
    return out.stdout.strip()


@pytest.mark.skipif(
    platform.system() != "Linux" or platform.libc_ver()[0] != "glibc", reason="glibc only"
)
def test_thresholds_are_set_on_glibc() -> None:
    assert _run(None) == "True True"


def test_the_environment_turns_it_off() -> None:
    assert _run("0") == "False False"
