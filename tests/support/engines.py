"""Each engine of a kind called as its tests call it: ``search(puzzle, limit=2,
fixed=None, budget=None)``, and ``BOTH``, a test parametrised over the two."""

from __future__ import annotations

import pytest
from numgrid.server import engines
from numgrid.server.core import Budget


def searches(kind):
    """``run_native, run_cpsat, BOTH`` for ``kind``."""

    def run_native(p, limit=2, fixed=None, budget=None):
        budget = budget or Budget()
        return engines.native_search(kind, p, limit=limit, fixed=fixed, budget=budget)

    def run_cpsat(p, limit=2, fixed=None, budget=None):
        budget = budget or Budget()
        return engines.cpsat_search(kind, p, limit=limit, fixed=fixed, budget=budget)

    both = pytest.mark.parametrize("search", [run_native, run_cpsat], ids=["native", "cpsat"])
    return run_native, run_cpsat, both
