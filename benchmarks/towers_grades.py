"""Our Skyscraper grades against Simon Tatham's Towers difficulty tiers.

    python benchmarks/towers_grades.py [--count K] [--sizes 5,6] [--tiers ehxu] [--json]

For every tier (e Easy, h Hard, x Extreme, u Unreasonable) and size, generates K puzzles
with ``sgt-towers --generate K {size}d{tier}`` (package ``sgt-puzzles``: installed with
apt when missing), reads each game ID with ``formats.read(text, "tatham")``, explains
it from its givens (``logic.explain``) and prints a table tier x our grade, with how many
chains completed without a trial and the slowest explanation. Towers generates a puzzle
of a tier only if its own solver needs that tier's deductions (Easy: clue pairs,
visibility bounds, singles; Hard: clue enumeration, latin subsets; Extreme: forcing
chains; Unreasonable: recursion), so a good grading grows with the tier.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from collections import Counter

from numgrid.server.kinds.skyscraper import formats, logic
from rich.console import Console
from rich.table import Table

TOWERS = "/usr/games/sgt-towers"
TIERS = {"e": "Easy", "h": "Hard", "x": "Extreme", "u": "Unreasonable"}


def towers() -> str:
    """The sgt-towers program, installed with apt if it is missing."""
    found = shutil.which("sgt-towers") or (TOWERS if os.path.exists(TOWERS) else None)
    if found is None:
        subprocess.run(["apt-get", "install", "-y", "sgt-puzzles"], check=True, timeout=900)
        found = TOWERS
    return found


def generate(size: int, tier: str, count: int) -> list[str]:
    done = subprocess.run(
        [towers(), "--generate", str(count), f"{size}d{tier}"],
        capture_output=True,
        text=True,
        check=True,
        timeout=900,
    )
    return done.stdout.split()


def grade_all(sizes: list[int], tiers: str, count: int) -> list[dict]:
    rows = []
    for tier in tiers:
        for size in sizes:
            for game_id in generate(size, tier, count):
                puzzle = formats.read(game_id, "tatham").puzzle
                start = time.perf_counter()
                explanation = logic.explain(puzzle)
                seconds = time.perf_counter() - start
                counts = explanation.technique_counts
                used = [t for t, n in counts.items() if n]
                rows.append(
                    {
                        "tier": tier,
                        "size": size,
                        "id": game_id,
                        "grade": explanation.grade.name if explanation.grade else "none",
                        "hardest": max(used).name if used else "",
                        "trial": counts[logic.Technique.TRIAL] > 0,
                        "solved": explanation.solved,
                        "seconds": seconds,
                        "counts": {t.name: n for t, n in counts.items()},
                    }
                )
    return rows


def table(rows: list[dict], title: str) -> Table:
    grades = [g.name for g in logic.Grade]
    if any(r["grade"] == "none" for r in rows):
        grades.append("none")
    out = Table(title=title)
    out.add_column("Towers tier")
    for g in grades:
        out.add_column(g, justify="right")
    out.add_column("no trial", justify="right")
    out.add_column("max s", justify="right")
    for tier in TIERS:
        mine = [r for r in rows if r["tier"] == tier]
        if not mine:
            continue
        counted = Counter(r["grade"] for r in mine)
        out.add_row(
            f"{tier} {TIERS[tier]}",
            *(str(counted.get(g, 0)) for g in grades),
            f"{sum(r['solved'] and not r['trial'] for r in mine)}/{len(mine)}",
            f"{max(r['seconds'] for r in mine):.2f}",
        )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=20, help="puzzles per tier and size")
    parser.add_argument("--sizes", default="5,6", help="comma-separated sizes (3-9)")
    parser.add_argument("--tiers", default="ehxu", help="Towers tiers, e.g. 'ehxu'")
    parser.add_argument("--json", action="store_true", help="print every puzzle as JSON")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    rows = grade_all(sizes, args.tiers, args.count)
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    console = Console()
    console.print(table(rows, f"Towers tier x our grade ({args.count} per tier and size)"))
    for size in sizes:
        console.print(table([r for r in rows if r["size"] == size], f"{size}x{size}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
