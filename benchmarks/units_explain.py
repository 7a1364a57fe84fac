"""Every step of the units ladder checked against the solution, over corpus files.

    python benchmarks/units_explain.py [FILE ...] [--start K] [--count N] [--json]

For every puzzle of the files (by default ``sudoku-17clue-sample.txt`` and
``sudoku-top1465.txt`` of the shared corpus: 81 characters a line, ``.`` or ``0`` empty;
a ``.json`` dataset, e.g. ``sudoku.json`` or ``jigsaw-sudoku.json``, is read by the kind
its dataset name says, each problem as janko text), finds its solutions by search
(exactly one is required: a puzzle with more is counted apart), explains it from its
givens (unique rectangles on) and checks every step: a placement must put the solution's digit,
an elimination must never remove it. Prints per file the puzzles, how many the chain
completed and how many without a trial, the wrong steps (0 is the only right answer),
the grades, how many puzzles used each technique, and the explanation times. Exits 1 on
a wrong step or a chain that did not complete.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from numgrid.server.kinds.units import ladder
from numgrid.server.kinds.units.shape import shape
from numgrid.server.kinds.units.techniques_chains import solve

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "units"))
import units_support  # tests/units/units_support.py: shared with the tests

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
FILES = ("sudoku-17clue-sample.txt", "sudoku-top1465.txt")


def puzzles(path: Path) -> list[tuple[str, Any]]:
    """``(name, puzzle)`` per puzzle of a one-a-line file or a JSON dataset."""
    if path.suffix != ".json":
        grid = shape(9, (3, 3))
        return [
            (str(k), units_support.puzzle(line, grid))
            for k, line in enumerate(units_support.lines(path))
        ]
    from numgrid.server.kinds import KINDS

    dataset = json.loads(path.read_text())
    kind = next(k for k in KINDS.values() if k.title.replace(" ", "") == dataset["name"])
    return [
        (key, kind.formats.read(item["problem"], "janko").puzzle)
        for key, item in dataset["data"].items()
    ]


def run(path: Path, start: int, count: int | None) -> dict[str, Any]:
    chosen = puzzles(path)[start : None if count is None else start + count]
    wrong: list[str] = []
    grades: Counter[str] = Counter()
    used: Counter[str] = Counter()
    times: list[float] = []
    solved = no_trial = 0
    slowest = (0.0, "")
    not_unique = []
    for k, puzzle in chosen:
        n = puzzle.shape.size
        pos = ladder.position(puzzle)
        found = solve(pos, list(pos.masks), 2)
        if len(found) != 1:
            not_unique.append(k)
            continue
        sol = found[0]
        begin = time.perf_counter()
        explained = ladder.explain(puzzle, unique=True)
        seconds = time.perf_counter() - begin
        times.append(seconds)
        slowest = max(slowest, (seconds, k))
        for step in explained.steps:
            wrong.extend(f"puzzle {k}: {w}" for w in units_support.wrong(step, sol, n))
        counts = explained.technique_counts
        solved += explained.solved
        no_trial += explained.solved and not counts[ladder.Technique.TRIAL]
        grades[explained.grade.name if explained.grade else "none"] += 1
        used.update(t.name for t, n in counts.items() if n)
    return {
        "file": path.name,
        "puzzles": len(chosen) - len(not_unique),
        "not unique": not_unique,
        "solved": solved,
        "no trial": no_trial,
        "wrong steps": len(wrong),
        "wrong": wrong[:10],
        "grades": dict(grades),
        "puzzles using": dict(used),
        "seconds mean": statistics.mean(times) if times else 0.0,
        "seconds median": statistics.median(times) if times else 0.0,
        "slowest": {"puzzle": slowest[1], "seconds": slowest[0]},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("files", nargs="*", help="one-a-line files (default: the corpus's)")
    parser.add_argument("--start", type=int, default=0, help="the first puzzle of each file")
    parser.add_argument("--count", type=int, help="puzzles per file (default: all)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    files = [Path(f) for f in args.files] or [CORPUS / f for f in FILES]
    results = [run(path, args.start, args.count) for path in files]
    if args.json:
        print(json.dumps(results, indent=1))
    else:
        for r in results:
            share = r["no trial"] / r["puzzles"] if r["puzzles"] else 0.0
            print(
                f"{r['file']}: {r['puzzles']} puzzles, {r['solved']} completed, "
                f"{r['no trial']} without a trial ({share:.1%}), {r['wrong steps']} wrong steps"
            )
            print(f"  grades {r['grades']}")
            print(f"  puzzles using {r['puzzles using']}")
            print(
                f"  explain mean {r['seconds mean']:.3f} s, median {r['seconds median']:.3f} s, "
                f"slowest puzzle {r['slowest']['puzzle']} {r['slowest']['seconds']:.2f} s"
            )
            for line in r["wrong"]:
                print(f"  WRONG {line}")
            if r["not unique"]:
                print(f"  left out, not one solution: {', '.join(r['not unique'])}")
    bad = any(r["wrong steps"] or r["solved"] < r["puzzles"] for r in results)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
