"""Our KenKen grades against Simon Tatham's Keen difficulty tiers.

    python benchmarks/keen_grades.py [--count K] [--sizes 4,5,6,9] [--tiers enhxu] [--json]

For every tier (e Easy, n Normal, h Hard, x Extreme, u Unreasonable) and size, generates
K puzzles with ``sgt-keen --generate K {size}d{tier}`` (package ``sgt-puzzles``), reads
each game ID with ``formats.read(text, "tatham")``, explains it from the empty grid
(``logic.explain``) and prints a table tier x our grade, with how many chains completed
without a trial and the slowest explanation. Keen generates a puzzle of a tier only if
its own solver needs that tier's deductions, so a good grading grows with the tier.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from collections import Counter

from numgrid.server.kinds.kenken import formats, logic
from rich.console import Console
from rich.table import Table

KEEN = "/usr/games/sgt-keen"
TIERS = {"e": "Easy", "n": "Normal", "h": "Hard", "x": "Extreme", "u": "Unreasonable"}


def generate(size: int, tier: str, count: int) -> list[str]:
    keen = shutil.which("sgt-keen") or KEEN
    done = subprocess.run(
        [keen, "--generate", str(count), f"{size}d{tier}"],
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
    out.add_column("Keen tier")
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
    parser.add_argument("--sizes", default="4,5,6,9", help="comma-separated sizes")
    parser.add_argument("--tiers", default="enhxu", help="Keen tiers, e.g. 'enhxu'")
    parser.add_argument("--json", action="store_true", help="print every puzzle as JSON")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    rows = grade_all(sizes, args.tiers, args.count)
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    console = Console()
    console.print(table(rows, f"Keen tier x our grade ({args.count} per tier and size)"))
    for size in sizes:
        console.print(table([r for r in rows if r["size"] == size], f"{size}x{size}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
