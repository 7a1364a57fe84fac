"""Uniqueness of the Sudoku benchmark files (one puzzle a line) with the native engine,
beside Norvig's solver, taking turns on the same file.

    python benchmarks/sudoku_lines.py [--norvig PATH/TO/sudoku.py] [--cpsat] [FILE ...]

FILE defaults to ``shared/corpus/sudoku-17clue-sample.txt`` and ``sudoku-top1465.txt``.
The native engine proves uniqueness (limit 2, parse included); Norvig's solver
(``norvig/pytudes``, ``py/sudoku.py``, not part of this repository: give its path)
solves only, in a process of its own. Both are timed in CPU seconds of their own
process (the machine is shared: wall clocks move with the load) and in wall seconds.
Every puzzle must be UNIQUE, else the script names it and exits 1.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

from numgrid.server.core import Budget
from numgrid.server.kinds import KINDS

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
FILES = ("sudoku-17clue-sample.txt", "sudoku-top1465.txt")
NORVIG = """
import importlib.util, sys, time
spec = importlib.util.spec_from_file_location("norvig", sys.argv[1])
norvig = importlib.util.module_from_spec(spec)
spec.loader.exec_module(norvig)
lines = [l.strip() for l in open(sys.argv[2]) if l.strip() and not l.startswith("#")]
cpu, wall = time.process_time(), time.perf_counter()
for line in lines:
    assert norvig.solve(line)
print(time.process_time() - cpu, time.perf_counter() - wall)
"""


def lines(path: Path) -> list[str]:
    return [
        line.strip()
        for line in path.read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]


def native(path: Path, cpsat: bool) -> tuple[float, float, str, int]:
    """CPU and wall seconds over the file, the slowest line and how many were not
    UNIQUE."""
    kind = KINDS["sudoku"]
    bad = 0
    slowest = (0.0, 0)
    cpu, wall = time.process_time(), time.perf_counter()
    for number, line in enumerate(lines(path), 1):
        start = time.perf_counter()
        puzzle = kind.formats.read(line, "line", None).puzzle
        if cpsat:
            from numgrid.server import cpsat_runner

            found = cpsat_runner.search(
                kind, puzzle, limit=2, fixed=None, budget=Budget.seconds(60)
            )
        else:
            found = kind.native.search(puzzle, limit=2)
        if found.verdict().value != "UNIQUE":
            print(f"{path.name}:{number}: {found.verdict().value}")
            bad += 1
        slowest = max(slowest, (time.perf_counter() - start, number))
    done = time.process_time() - cpu, time.perf_counter() - wall
    return done[0], done[1], f"line {slowest[1]} ({slowest[0] * 1000:.0f} ms)", bad


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--norvig", type=Path, help="a copy of norvig/pytudes py/sudoku.py")
    parser.add_argument("--cpsat", action="store_true", help="CP-SAT instead of native")
    args = parser.parse_args()
    failed = 0
    for path in args.files or [CORPUS / name for name in FILES]:
        count = len(lines(path))
        cpu, wall, slowest, bad = native(path, args.cpsat)
        failed += bad
        engine = "cpsat" if args.cpsat else "native"
        print(
            f"{path.name}: {engine} {count / cpu:.0f}/s CPU ({cpu:.2f} s), "
            f"{count / wall:.0f}/s wall; slowest {slowest}"
        )
        if args.norvig:
            done = subprocess.run(
                [sys.executable, "-c", NORVIG, str(args.norvig), str(path)],
                capture_output=True,
                text=True,
                check=True,
            )
            n_cpu, n_wall = map(float, done.stdout.split())
            print(
                f"{path.name}: norvig {count / n_cpu:.0f}/s CPU, {count / n_wall:.0f}/s wall; "
                f"native/norvig rate: {n_cpu / cpu:.1f}x CPU, {n_wall / wall:.1f}x wall"
            )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
