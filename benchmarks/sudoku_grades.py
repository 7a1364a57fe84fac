"""Our grades of the Solo kinds (Sudoku, Jigsaw, Killer) against the difficulty tiers of
Simon Tatham's Solo.

    python benchmarks/sudoku_grades.py [--kind sudoku|jigsaw|killer] [--count K]
                                       [--tiers tbiaeu] [--seed S] [--json]

For every tier, generates K 9x9 puzzles with ``sgt-solo --generate K 3x3{v}d{tier}``
(``v``: ``j`` Jigsaw, ``k`` Killer; package ``sgt-puzzles``: installed with apt when
missing; with ``--seed S``, Solo's random seed is ``S-{tier}``, so the same puzzles come
back), reads each game ID with the kind's own Tatham reader, explains it with the kind's
chain (Solo's puzzles have one solution) and prints a table tier x our grade, with the
median and range of the difficulty score, how many chains completed without a trial and
the slowest explanation.

Solo makes a puzzle of a tier only when its own solver needs that tier's deductions:
Trivial and Basic singles (and, in a Killer, the sums of cages and of the units' cages),
Intermediate intersections (locked candidates), Advanced set analysis (naked and hidden
subsets), Extreme forcing chains and X-Wing-like positional sets, Unreasonable recursion
(guessing). A grading that people would agree with grows with the tier.
"""

from __future__ import annotations

import argparse
import inspect
import json
import statistics
import subprocess
import sys
from collections import Counter
from typing import Any

from numgrid.server.chain import Grade
from numgrid.server.kinds import KINDS
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
VARIANTS = {"sudoku": "", "jigsaw": "j", "killer": "k"}  # Solo's parameter letter


def generate(kind: str, tier: str, count: int, seed: str | None) -> list[str]:
    params = f"3x3{VARIANTS[kind]}d{tier}" + ("" if seed is None else f"#{seed}-{tier}")
    command = [program("sgt-solo"), "--generate", str(count), params]
    done = subprocess.run(command, capture_output=True, text=True, check=True, timeout=3600)
    return done.stdout.split()


def grade_all(kind_name: str, tiers: str, count: int, seed: str | None) -> list[dict[str, Any]]:
    kind = KINDS[kind_name]
    trial = kind.logic.Technique["TRIAL"]
    # Solo's puzzles have one solution: unique rectangles may be looked for, where the
    # kind's chain has them (Killer's leaves them out: cage sums can tell their cells apart)
    known = {"unique": True} if "unique" in inspect.signature(kind.logic.explain).parameters else {}
    rows = []
    for tier in tiers:
        for game_id in generate(kind_name, tier, count, seed):
            puzzle = kind.formats.read(game_id, "tatham", None).puzzle
            found, row = explained(trial, kind.logic.explain, puzzle, **known)
            counts = found.technique_counts
            rows.append(
                {
                    "tier": tier,
                    "id": game_id,
                    "grade": row["grade"],
                    "difficulty": found.score,
                    **row,  # the grade stays where it stands: before the difficulty
                    "counts": {t.name: n for t, n in counts.items() if n},
                }
            )
    return rows


def _difficulty(rows: list[dict[str, Any]]) -> str:
    points = [r["difficulty"] for r in rows]
    return f"{statistics.median(points):.0f} ({min(points)}-{max(points)})"


def table(rows: list[dict[str, Any]], grades: list[str], kind: str) -> Table:
    title = f"Solo tier x our grade ({kind}, 9x9)"
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
    parser.add_argument("--kind", choices=sorted(VARIANTS), default="sudoku")
    parser.add_argument("--count", type=int, default=30, help="puzzles per tier")
    parser.add_argument("--tiers", default="tbiaeu", help="Solo tiers, e.g. 'biaeu'")
    parser.add_argument("--seed", help="Solo's random seed (with the tier appended)")
    parser.add_argument("--json", action="store_true", help="print every puzzle as JSON")
    args = parser.parse_args(argv)
    rows = grade_all(args.kind, args.tiers, args.count, args.seed)
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    console = Console(width=160)
    console.print(table(rows, [g.name for g in Grade], args.kind))
    console.print(hardest(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
