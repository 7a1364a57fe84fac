"""What the benchmarks that compare with Simon Tatham's puzzles share: his generators
(``sgt-solo``, ``sgt-keen``, ``sgt-towers``), the fields of a row of a grade table, and
the table of his tiers against our grades."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections import Counter
from collections.abc import Callable
from collections.abc import Mapping
from typing import Any

from rich.table import Table


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


def grade_table(
    rows: list[dict[str, Any]],
    title: str,
    game: str,
    tiers: dict[str, str],
    grades: list[str],
    extra: Mapping[str, Callable[[list[dict[str, Any]]], str]] | None = None,
) -> Table:
    """Tier x our grade: a row per tier of ``game`` (``tiers``: letter, name) that
    ``rows`` have, how many of its puzzles have each grade, the ``extra`` columns (name:
    the cell of a tier's rows), how many completed without a trial, the slowest."""
    extra = extra or {}
    if any(r["grade"] == "none" for r in rows):
        grades = [*grades, "none"]
    out = Table(title=title)
    out.add_column(f"{game} tier")
    for name in [*grades, *extra, "no trial", "max s"]:
        out.add_column(name, justify="right")
    for tier, name in tiers.items():
        mine = [r for r in rows if r["tier"] == tier]
        if not mine:
            continue
        counted = Counter(r["grade"] for r in mine)
        out.add_row(
            f"{tier} {name}",
            *(str(counted.get(g, 0)) for g in grades),
            *(cell(mine) for cell in extra.values()),
            f"{sum(r['solved'] and not r['trial'] for r in mine)}/{len(mine)}",
            f"{max(r['seconds'] for r in mine):.2f}",
        )
    return out
