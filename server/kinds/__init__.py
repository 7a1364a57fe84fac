"""Registry of puzzle kinds: the only place that lists them."""

from numgrid.server.kinds.base import Kind
from numgrid.server.kinds.kakuro import KAKURO

KINDS: dict[str, Kind] = {KAKURO.name: KAKURO}

__all__ = ["KINDS", "Kind"]
