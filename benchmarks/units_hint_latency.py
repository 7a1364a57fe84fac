"""Latency of one hint from mid-solve positions of 9x9 corpus puzzles, in process.

    python benchmarks/units_hint_latency.py [--positions N] [--seed S] [--file F ...]
                                            [--target-ms MS] [--json]

For ``--positions`` boards (default 300), picks a puzzle of the one-a-line files (by
default ``sudoku-17clue-sample.txt`` and ``sudoku-top1465.txt`` of the shared corpus),
explains it once, and takes the candidates the chain has reached after a random 5 % to
95 % of its steps: the position a player who followed the hints would have (one that
its one-candidate cells would complete is drawn again). Then times,
from those candidates (the position rebuilt each call, as a Hint request does), the next
step and the next step with ``placements_only`` (the next digit placed). Prints p50,
p95, p99 and the slowest per call with the technique it needed, and PASS or FAIL against
``--target-ms`` (20 ms) for the p95 of either call. Exits 1 on FAIL. ``--clock cpu``
times this process's CPU instead of the wall clock: on a machine shared with other
work, the wall clock also counts the time others hold the cores.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from numgrid.server.kinds.units import ladder
from numgrid.server.kinds.units.shape import shape

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "units"))
import units_support  # tests/units/units_support.py: shared with the tests

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
FILES = ("sudoku-17clue-sample.txt", "sudoku-top1465.txt")
TARGET_MS = 20.0


def positions(
    files: list[Path], count: int, rng: random.Random
) -> list[tuple[units_support.Puzzle, dict]]:
    grid = shape(9, (3, 3))
    lines = [line for path in files for line in units_support.lines(path)]
    out: list[tuple[units_support.Puzzle, dict]] = []
    while len(out) < count:
        line = rng.choice(lines)
        puzzle = units_support.puzzle(line, grid)
        steps = ladder.explain(puzzle).steps
        pos = ladder.position(puzzle, unique=True)
        for step in steps[: int(len(steps) * rng.uniform(0.05, 0.95))]:
            pos.apply(step)
        candidates = pos.candidates()
        if not ladder.position(puzzle, candidates).solved:  # its last singles placed
            out.append((puzzle, candidates))
    return out


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(boards: list[tuple[units_support.Puzzle, dict]], clock: Any) -> dict[str, Any]:
    results: dict[str, Any] = {}
    for name, only in (("next step", False), ("placements only", True)):
        times: list[float] = []
        used: Counter[str] = Counter()
        slowest = (0.0, "")
        for puzzle, candidates in boards:
            start = clock()
            step = ladder.next_step(puzzle, candidates, placements_only=only)
            ms = (clock() - start) * 1000
            times.append(ms)
            technique = step.technique.name if step is not None else "none"
            used[technique] += 1
            if ms > slowest[0]:
                slowest = (ms, technique)
        results[name] = {
            "p50": statistics.median(times),
            "p95": percentile(times, 0.95),
            "p99": percentile(times, 0.99),
            "max": slowest[0],
            "slowest technique": slowest[1],
            "techniques": dict(used.most_common()),
        }
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--file", action="append", help="a one-a-line file (repeatable)")
    parser.add_argument("--target-ms", type=float, default=TARGET_MS)
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="wall time, or this process's CPU time (fairer on a machine shared with others)",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    files = [Path(f) for f in args.file] if args.file else [CORPUS / f for f in FILES]
    boards = positions(files, args.positions, random.Random(args.seed))
    clock = time.perf_counter if args.clock == "wall" else time.process_time
    results = measure(boards, clock)
    ok = all(r["p95"] < args.target_ms for r in results.values())
    if args.json:
        print(json.dumps({"results": results, "pass": ok}, indent=1))
    else:
        for name, r in results.items():
            print(
                f"{name:16} p50 {r['p50']:6.2f} ms  p95 {r['p95']:6.2f} ms  "
                f"p99 {r['p99']:6.2f} ms  max {r['max']:7.1f} ms ({r['slowest technique']})"
            )
            print(f"{'':16} {r['techniques']}")
        print(f"{'PASS' if ok else 'FAIL'}: p95 under {args.target_ms:g} ms ({args.clock} time)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
