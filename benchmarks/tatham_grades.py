"""Our grades against the difficulty tiers of Simon Tatham's Keen (KenKen) and Towers
(Skyscraper), whose generators share ``latin.c`` as our two kinds share ``latin.py``.

    python benchmarks/tatham_grades.py --kind kenken|skyscraper [--count K]
                                       [--sizes 5,6] [--tiers ehxu] [--json]

For every tier and size, generates K puzzles with ``sgt-keen``/``sgt-towers --generate K
{size}d{tier}`` (package ``sgt-puzzles``: installed with apt when missing), reads each
game ID with the kind's ``formats.read(text, "tatham", None)``, explains it from its givens
(the kind's ``explain``) and prints a table tier x our grade, with how many chains completed
without a trial and the slowest explanation. Tatham's generators make a puzzle of a tier
only if their own solver needs that tier's deductions (Towers: Easy clue pairs,
visibility bounds and singles; Hard clue enumeration and latin subsets; Extreme forcing
chains; Unreasonable recursion), so a good grading grows with the tier.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from dataclasses import dataclass

from numgrid.server.chain import Grade
from numgrid.server.kinds import KINDS
from rich.console import Console
from rich.table import Table
from tatham import explained
from tatham import grade_table
from tatham import program

TIERS = {"e": "Easy", "n": "Normal", "h": "Hard", "x": "Extreme", "u": "Unreasonable"}


@dataclass(frozen=True)
class Game:
    name: str  # Tatham's
    program: str  # the Debian package's command
    sizes: str  # default sizes
    tiers: str  # the tiers it has


GAMES = {
    "kenken": Game("Keen", "sgt-keen", "4,5,6,9", "enhxu"),
    "skyscraper": Game("Towers", "sgt-towers", "5,6", "ehxu"),
}


def generate(game: Game, size: int, tier: str, count: int) -> list[str]:
    done = subprocess.run(
        [program(game.program), "--generate", str(count), f"{size}d{tier}"],
        capture_output=True,
        text=True,
        check=True,
        timeout=900,
    )
    return done.stdout.split()


def grade_all(kind: str, sizes: list[int], tiers: str, count: int) -> list[dict]:
    served = KINDS[kind]
    rows = []
    for tier in tiers:
        for size in sizes:
            for game_id in generate(GAMES[kind], size, tier, count):
                puzzle = served.formats.read(game_id, "tatham", None).puzzle
                techniques = served.logic.Technique
                trial, hardest = techniques["TRIAL"], max(techniques)
                found, row = explained(
                    trial, served.logic.explain, puzzle, None, hardest, budget=None
                )
                counts = found.technique_counts
                rows.append(
                    {
                        "tier": tier,
                        "size": size,
                        "id": game_id,
                        **row,
                        "counts": {t.name: n for t, n in counts.items()},
                    }
                )
    return rows


def table(rows: list[dict], title: str, game: Game, grades: list[str]) -> Table:
    return grade_table(rows, title, game.name, TIERS, grades)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kind", choices=sorted(GAMES), required=True)
    parser.add_argument("--count", type=int, default=20, help="puzzles per tier and size")
    parser.add_argument("--sizes", help="comma-separated sizes (Keen 4,5,6,9; Towers 5,6)")
    parser.add_argument("--tiers", help="tiers, e.g. 'enhxu' (Towers has no n)")
    parser.add_argument("--json", action="store_true", help="print every puzzle as JSON")
    args = parser.parse_args(argv)
    game = GAMES[args.kind]
    sizes = [int(s) for s in (args.sizes or game.sizes).split(",")]
    rows = grade_all(args.kind, sizes, args.tiers or game.tiers, args.count)
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    grades = [g.name for g in Grade]
    console = Console()
    title = f"{game.name} tier x our grade ({args.count} per tier and size)"
    console.print(table(rows, title, game, grades))
    for size in sizes:
        console.print(table([r for r in rows if r["size"] == size], f"{size}x{size}", game, grades))
    return 0


if __name__ == "__main__":
    sys.exit(main())
