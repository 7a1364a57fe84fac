"""Our Sudoku grades against the difficulty tiers of Simon Tatham's Solo.

    python benchmarks/sudoku_grades.py [--count K] [--tiers tbiaeu] [--seed S] [--json]

For every tier, generates K 9x9 puzzles with ``sgt-solo --generate K 3x3d{tier}``
(package ``sgt-puzzles``: installed with apt when missing; with ``--seed S``, Solo's
random seed is ``S-{tier}``, so the same puzzles come back), decodes each game ID,
explains it from its givens with the units ladder (unique rectangles on: Solo's puzzles
have one solution) and prints a table tier x our grade, with the median and range of
the difficulty score, how many chains completed without a trial and the slowest
explanation.

Solo makes a puzzle of a tier only when its own solver needs that tier's deductions:
Trivial and Basic singles, Intermediate intersections (locked candidates), Advanced set
analysis (naked and hidden subsets), Extreme forcing chains and X-Wing-like positional
sets, Unreasonable recursion (guessing). A grading that people would agree with grows
with the tier.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from typing import Any

from numgrid.server.chain import Grade
from numgrid.server.kinds.units import ladder
from numgrid.server.kinds.units.shape import Shape
from numgrid.server.kinds.units.shape import shape
from rich.console import Console
from rich.table import Table
from tatham import explained
from tatham import grade_table
from tatham import program

TIERS = {
    "t": "Trivial",
    "b": "Basic",
    "i": "Intermediate",
    "a": "Advanced",
    "e": "Extreme",
    "u": "Unreasonable",
}


@dataclass(frozen=True)
class Puzzle:
    """What the ladder reads of a puzzle."""

    shape: Shape
    givens: tuple[int, ...]
    unique: bool = True


def generate(tier: str, count: int, seed: str | None) -> list[str]:
    params = f"3x3d{tier}" if seed is None else f"3x3d{tier}#{seed}-{tier}"
    command = [program("sgt-solo"), "--generate", str(count), params]
    done = subprocess.run(command, capture_output=True, text=True, check=True, timeout=1800)
    return done.stdout.split()


def decode(game_id: str) -> tuple[int, ...]:
    """A Solo 9x9 game ID (``3x3:`` then digits, ``_`` between two digits, ``a``-``z``
    for 1-26 empty cells) as 81 digits, 0 for empty."""
    _, text = game_id.split(":", 1)
    out: list[int] = []
    k = 0
    while k < len(text):
        ch = text[k]
        if ch.isdigit():
            j = k
            while j < len(text) and text[j].isdigit():
                j += 1
            out.append(int(text[k:j]))
            k = j
        elif ch == "_":
            k += 1
        else:
            out.extend([0] * (ord(ch) - ord("a") + 1))
            k += 1
    if len(out) != 81:
        raise ValueError(f"{game_id!r} is not a 9x9 Solo game ID")
    return tuple(out)


def grade_all(tiers: str, count: int, seed: str | None) -> list[dict[str, Any]]:
    grid = shape(9, (3, 3))
    rows = []
    for tier in tiers:
        for game_id in generate(tier, count, seed):
            puzzle = Puzzle(grid, decode(game_id))
            found, row = explained(ladder.Technique.TRIAL, ladder.explain, puzzle)
            counts = found.technique_counts
            rows.append(
                {
                    "tier": tier,
                    "id": game_id,
                    "grade": row["grade"],
                    "difficulty": ladder.difficulty(found),
                    **row,  # the grade stays where it stands: before the difficulty
                    "counts": {t.name: n for t, n in counts.items() if n},
                }
            )
    return rows


def _difficulty(rows: list[dict[str, Any]]) -> str:
    points = [r["difficulty"] for r in rows]
    return f"{statistics.median(points):.0f} ({min(points)}-{max(points)})"


def table(rows: list[dict[str, Any]], grades: list[str]) -> Table:
    title = "Solo tier x our grade (9x9)"
    extra = {"difficulty median (min-max)": _difficulty}
    return grade_table(rows, title, "Solo", TIERS, grades, extra)


def hardest(rows: list[dict[str, Any]]) -> Table:
    out = Table(title="Solo tier x hardest technique used")
    out.add_column("Solo tier")
    out.add_column("hardest technique: puzzles")
    for tier in TIERS:
        mine = Counter(r["hardest"] for r in rows if r["tier"] == tier)
        if mine:
            out.add_row(tier, ", ".join(f"{k} {v}" for k, v in sorted(mine.items())))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--count", type=int, default=30, help="puzzles per tier")
    parser.add_argument("--tiers", default="tbiaeu", help="Solo tiers, e.g. 'biaeu'")
    parser.add_argument("--seed", help="Solo's random seed (with the tier appended)")
    parser.add_argument("--json", action="store_true", help="print every puzzle as JSON")
    args = parser.parse_args(argv)
    rows = grade_all(args.tiers, args.count, args.seed)
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    console = Console(width=160)
    console.print(table(rows, [g.name for g in Grade]))
    console.print(hardest(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
