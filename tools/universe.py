"""The `xdsl.universe` entry point: every soacc dialect, pass and target, so that
`soacc-opt` and plain `xdsl-opt` see the same things. Kept import-light: it is
imported by every xdsl-opt start."""

from xdsl.universe import Universe

from soacc.dialects import get_all_dialects
from soacc.registry import get_all_passes, get_all_targets

SOACC_UNIVERSE = Universe(
    all_dialects=get_all_dialects(),
    all_passes=get_all_passes(),
    all_targets=get_all_targets(),
)
