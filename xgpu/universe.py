"""xgpu's `xdsl.universe` entry point.

It publishes only names that cannot clash with xDSL's: never a dialect named
`gpu` (xDSL has its own, and a duplicate name makes every `xdsl-opt` run fail).
xgpu's dialect is used through `xgpu-opt`, which swaps it in for xDSL's.
"""

from xdsl.universe import Universe

XGPU_UNIVERSE = Universe()
