"""Installing xgpu must never break xdsl-opt (its entry point has no `gpu`)."""

from __future__ import annotations

import subprocess
import sys

from xdsl.dialects import get_all_dialects
from xdsl.transforms import get_all_passes
from xdsl.universe import Universe

from xgpu.universe import XGPU_UNIVERSE


def test_multiverse_loads_with_xgpu_installed():
    # Universe.get_multiverse raises on any duplicate name across plugins.
    multiverse = Universe.get_multiverse()
    assert "gpu" in multiverse.all_dialects


def test_xgpu_universe_names_cannot_clash_with_xdsl():
    assert "gpu" not in XGPU_UNIVERSE.all_dialects
    assert not set(XGPU_UNIVERSE.all_dialects) & set(get_all_dialects())
    assert not set(XGPU_UNIVERSE.all_passes) & set(get_all_passes())


def test_xdsl_opt_still_runs():
    proc = subprocess.run(
        [sys.executable, "-c", "from xdsl.tools.xdsl_opt import main; main()"],
        input='"test.op"() : () -> ()\n',
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert '"test.op"() : () -> ()' in proc.stdout


def test_xgpu_reads_the_same_universes_as_xdsl():
    """xgpu's fast reading of the `xdsl.universe` entry points finds what
    importlib.metadata's finds, merged the same way."""
    from xdsl.universe import Universe

    from xgpu.universe import installed_universes, merged_universe

    theirs = Universe.get_multiverse()
    ours = merged_universe(installed_universes())
    for kind in ("all_dialects", "all_passes", "all_targets", "all_frontends"):
        assert getattr(ours, kind) == getattr(theirs, kind), kind


def test_a_name_defined_twice_is_an_error():
    import pytest
    from xdsl.universe import Universe

    from xgpu.universe import _group, merged_universe

    def factory():
        return None

    one = Universe(all_passes={"p": factory})
    with pytest.raises(ValueError, match=r"Duplicate definition of p in \['a', 'b'\]"):
        merged_universe({"b": one, "a": Universe(all_passes={"p": factory})})
    text = "[console_scripts]\nx = y:z\n\n[xdsl.universe]\n# a comment\nmine = pkg.mod:U\n"
    assert _group(text, "xdsl.universe") == [("mine", "pkg.mod:U")]
