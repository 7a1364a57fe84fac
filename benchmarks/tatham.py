"""What the benchmarks that compare with Simon Tatham's puzzles share: his generators
(``sgt-solo``, ``sgt-keen``, ``sgt-towers``), and the fields of a row of a grade table."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Callable
from typing import Any


def program(name: str) -> str:
    """The generator ``name`` (e.g. ``sgt-keen``), installed with apt if it is missing."""
    path = f"/usr/games/{name}"
    found = shutil.which(name) or (path if os.path.exists(path) else None)
    if found is None:
        subprocess.run(["apt-get", "install", "-y", "sgt-puzzles"], check=True, timeout=900)
        found = path
    return found


def explained(
    trial: Any, explain: Callable[..., Any], *args: Any, **kwargs: Any
) -> tuple[Any, dict[str, Any]]:
    """``explain(*args, **kwargs)`` timed, and what a grade table's row says of it: the grade, the
    hardest technique used, whether a trial (the technique ``trial``) was, whether the
    chain completed, and the seconds it took."""
    start = time.perf_counter()
    found = explain(*args, **kwargs)
    seconds = time.perf_counter() - start
    counts = found.technique_counts
    used = [t for t, n in counts.items() if n]
    return found, {
        "grade": found.grade.name if found.grade else "none",
        "hardest": max(used).name if used else "",
        "trial": counts[trial] > 0,
        "solved": found.solved,
        "seconds": seconds,
    }
