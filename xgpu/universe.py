"""xgpu's `xdsl.universe` entry point.

It publishes only names that cannot clash with xDSL's: never a dialect named
`gpu` (xDSL has its own, and a duplicate name makes every `xdsl-opt` run fail).
xgpu's dialect is used through `xgpu-opt`, which swaps it in for xDSL's.
"""

from xdsl.universe import Universe

XGPU_UNIVERSE = Universe()


def installed_universes() -> dict[str, Universe]:
    """The `xdsl.universe` entry points of the installed distributions, loaded:
    what `Universe.get_multiverse` reads, found by reading only the
    `entry_points.txt` of each distribution on `sys.path` (the first of a name
    wins, as in `importlib.metadata`); importlib.metadata's scan of every
    distribution's metadata costs about 70 ms of each start-up."""
    import importlib
    import os
    import re
    import sys

    found: dict[str, Universe] = {}
    seen: set[str] = set()
    for path in sys.path:
        try:
            entries = sorted(os.scandir(path or "."), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            name = entry.name
            if name.endswith(".dist-info"):
                dist = name[: -len(".dist-info")].split("-", 1)[0]
            elif name.endswith(".egg-info"):
                dist = name[: -len(".egg-info")].split("-", 1)[0]
            else:
                continue
            key = re.sub(r"[-_.]+", "_", dist).lower()
            if key in seen:
                continue
            seen.add(key)
            try:
                with open(os.path.join(entry.path, "entry_points.txt"), encoding="utf-8") as f:
                    text = f.read()
            except OSError:
                continue
            for plugin, value in _group(text, "xdsl.universe"):
                module, _, attr = value.partition(":")
                obj: object = importlib.import_module(module.strip())
                for part in attr.strip().split(".") if attr.strip() else ():
                    obj = getattr(obj, part)
                found.setdefault(plugin, obj)  # type: ignore[arg-type]
    return found


def _group(text: str, group: str) -> list[tuple[str, str]]:
    """The `name = value` lines of `[group]` in an entry_points.txt."""
    lines: list[tuple[str, str]] = []
    current = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = line[1:-1].strip()
        elif current == group and "=" in line:
            name, _, value = line.partition("=")
            lines.append((name.strip(), value.strip()))
    return lines


def merged_universe(universes: dict[str, Universe]) -> Universe:
    """One Universe of `universes` (by plugin name), as `Universe.get_multiverse`
    merges them: a name defined twice is an error."""
    ordered = sorted(universes.items())
    merged = Universe()
    for kind in ("all_dialects", "all_passes", "all_targets", "all_frontends"):
        table: dict = getattr(merged, kind)
        for _, universe in ordered:
            if not isinstance(universe, Universe):
                raise ValueError(f"Entry point {universe} is not an instance of Universe.")
            for name, factory in getattr(universe, kind).items():
                if name in table:
                    owners = [n for n, u in ordered if name in getattr(u, kind)]
                    raise ValueError(f"Duplicate definition of {name} in {owners}.")
                table[name] = factory
    return merged
