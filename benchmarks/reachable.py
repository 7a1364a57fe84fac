"""Which grades a kind's puzzles of one size come out at: the evidence behind a maker's
table of reachable grades (a grade no draw reaches is refused at once, not searched for
until the time cap).

    python benchmarks/reachable.py --kind KIND --size N [--diagonals] [--count K] [--seed S]
                                   [--json]

Draws K candidates with the kind's maker, pressures spread evenly over -1..1 (from the
easiest choices to the hardest), makes each unique as the Generate driver does (the
native engine, the maker's repairs), explains it with the whole chain (the trial
included) and counts the grades, with the hardest technique met per grade.

    python benchmarks/reachable.py --every-4x4-sudoku [--diagonals]

Every 4x4 Sudoku instead: each of the grids whose first row is 1 2 3 4 (every grid is
one of them with its digits renamed, which changes no deduction) with each of the 2^16
sets of givens; those with one solution and none when any one given goes (the minimal
puzzles) are explained by the whole chain. Every puzzle with one solution holds a
minimal one, and more givens never make a deduction harder.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from typing import Any

from common import progress_bar
from numgrid.server import generate
from numgrid.server.chain import Grade
from numgrid.server.core import Budget
from numgrid.server.kinds import KINDS
from numgrid.server.kinds.base import Spec
from numgrid.server.kinds.units import native
from numgrid.server.kinds.units.model import Puzzle
from numgrid.server.operations import difficulty_of
from rich.console import Console
from rich.table import Table

GRADE_NAMES = (*(g.name for g in Grade), "UNSOLVED")  # the table's rows, in order


def graded(kind: Any, puzzle: Any) -> tuple[str, str]:
    """The grade the whole chain (the trial included) gives ``puzzle`` ("UNSOLVED" if
    none), and the hardest technique it used ("-" if none)."""
    found = difficulty_of(kind.logic.explain(puzzle, None, kind.logic.Technique["TRIAL"]))
    grade = found.grade.name if found.grade is not None else "UNSOLVED"
    return grade, found.hardest.name if found.hardest is not None else "-"


def sample(
    kind_name: str, size: int, diagonals: bool, count: int, seed: int, console: Console
) -> dict:
    kind = KINDS[kind_name]
    spec = Spec(size, size, None, diagonals=diagonals)
    grades: Counter[str] = Counter()
    hardest: dict[str, Counter[str]] = {}
    dropped = 0
    with progress_bar("{task.description}", console, transient=True) as bar:
        task = bar.add_task(f"{kind_name} {size}x{size}", total=count)
        for i in range(count):
            pressure = -1.0 + 2.0 * i / max(1, count - 1)
            attempt = generate.Attempt(kind, spec, seed + i, Budget.seconds(30))
            puzzle, solution = kind.maker.candidate(spec, attempt.rng, pressure, attempt.budget)
            made = attempt.unique(puzzle, solution)
            bar.advance(task)
            if made is None:
                dropped += 1
                continue
            grade, top = graded(kind, made[0])
            grades[grade] += 1
            hardest.setdefault(grade, Counter())[top] += 1
    return {
        "kind": kind_name,
        "size": f"{size}x{size}",
        "diagonals": diagonals,
        "count": count,
        "seed": seed,
        "not_made_unique": dropped,
        "grades": {name: grades[name] for name in GRADE_NAMES},
        "hardest": {g: dict(c.most_common(3)) for g, c in hardest.items()},
    }


def every_4x4_sudoku(diagonals: bool, console: Console) -> dict:
    """The grades of every 4x4 Sudoku (see the module's docstring)."""
    kind = KINDS["sudoku"]
    blank = Puzzle(4, (2, 2), None, diagonals, ((1, 2, 3, 4), *((0,) * 4,) * 3))
    grids = kind.native.search(blank, limit=100, fixed=None, budget=None).solutions
    t = native.tables(blank.shape)
    grades: Counter[str] = Counter()
    hardest: Counter[str] = Counter()
    sizes: Counter[int] = Counter()
    with progress_bar("{task.description}", console, transient=True) as bar:
        task = bar.add_task("4x4 grids", total=len(grids))
        for grid in grids:
            values = [v for row in grid for v in row]
            unique = [False] * (1 << 16)
            for given in range(1 << 16):
                trial = [v if given >> i & 1 else 0 for i, v in enumerate(values)]
                found, _, _ = native.count(t, t.fresh(trial), limit=2)
                unique[given] = len(found) == 1
            for given in range(1 << 16):
                if not unique[given] or any(
                    unique[given ^ (1 << i)] for i in range(16) if given >> i & 1
                ):
                    continue  # not unique, or not minimal: it holds a unique puzzle
                sizes[given.bit_count()] += 1
                givens = tuple(
                    tuple(values[4 * r + c] if given >> (4 * r + c) & 1 else 0 for c in range(4))
                    for r in range(4)
                )
                puzzle = Puzzle(4, (2, 2), None, diagonals, givens)
                grade, top = graded(kind, puzzle)
                grades[grade] += 1
                hardest[top] += 1
            bar.advance(task)
    return {
        "kind": "sudoku",
        "size": "4x4",
        "diagonals": diagonals,
        "grids": len(grids),
        "minimal_puzzles_by_givens": dict(sorted(sizes.items())),
        "grades": {name: grades[name] for name in GRADE_NAMES},
        "hardest": dict(hardest.most_common()),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kind", choices=sorted(KINDS))
    parser.add_argument("--size", type=int)
    parser.add_argument("--every-4x4-sudoku", action="store_true")
    parser.add_argument("--diagonals", action="store_true", help="the X variant")
    parser.add_argument("--count", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    console = Console(stderr=True)
    if args.every_4x4_sudoku:
        print(json.dumps(every_4x4_sudoku(args.diagonals, console)))
        return 0
    if args.kind is None or args.size is None:
        parser.error("--kind and --size, or --every-4x4-sudoku")
    result = sample(args.kind, args.size, args.diagonals, args.count, args.seed, console)
    if args.json:
        print(json.dumps(result))
        return 0
    variant = " X" if args.diagonals else ""
    table = Table(title=f"{args.kind}{variant} {result['size']}: grades of {args.count} draws")
    table.add_column("grade")
    table.add_column("puzzles", justify="right")
    table.add_column("hardest techniques met")
    for grade, n in result["grades"].items():
        top = ", ".join(f"{t} {k}" for t, k in result["hardest"].get(grade, {}).items())
        table.add_row(grade, str(n), top)
    Console().print(table)
    print(f"not made unique by the maker's repairs: {result['not_made_unique']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
