"""Every format of every kind over the whole corpus: written, read back, solved.

    python benchmarks/links_roundtrip.py [--kinds sudoku,killer] [--formats tatham,sudokuwiki]
                                         [--limit N] [--json]

For each kind of the registry, each format of its ``formats.FORMATS`` and each puzzle of
its corpus (``shared/corpus/<kind>.json`` as the tests read it, the published X variants
its tests know read as X; and the kind's line files, ``<kind>-*.txt``, which have no
published solutions): the empty board is written in the format, then read back in it.

- *refused*: the format cannot hold the puzzle (a 16x16 Sudoku on SudokuWiki's 9x9
  page, a variant Tatham has no rule for); the codes of the findings are counted.
- *equal*: read back as the same board; *detected*: the written text is detected as that
  kind and that format with neither named; *mismatched*: read back as another board, or
  not read at all (the first few are printed).
- *solved*: the board read back is UNIQUE under both engines (``limit=2``), both with
  the published solution (without one, with the same solution). The engines are
  deterministic, so a board read back equal to one already solved is not solved again:
  each corpus puzzle costs one search per engine however many formats hold it.

Exit 1 on any mismatch or wrong solution. Formats other branches add to a kind's
``FORMATS`` are covered once merged: nothing here names a format or a kind.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any

from common import progress_bar
from numgrid.server import engines
from numgrid.server.core import Board
from numgrid.server.core import Grid
from numgrid.server.core import PuzzleError
from numgrid.server.core import Verdict
from numgrid.server.engines import Engine
from numgrid.server.kinds import REGISTRY
from numgrid.server.kinds import detect_format
from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from support.corpus import CORPUS
from support.corpus import MAX_CELLS
from support.corpus import corpus_ids
from support.corpus import corpus_puzzle

SHOWN = 5  # mismatches printed per kind and format


@dataclass
class Tally:
    """What one format made of one kind's corpus."""

    puzzles: int = 0
    equal: int = 0
    detected: int = 0
    refused: Counter[str] = field(default_factory=Counter)  # finding code: puzzles
    mismatched: list[str] = field(default_factory=list)
    solved: int = 0
    wrong: list[str] = field(default_factory=list)
    seconds: float = 0.0  # writing and reading, the solves left out

    def row(self) -> dict[str, Any]:
        return {
            "puzzles": self.puzzles,
            "written": self.puzzles - sum(self.refused.values()),
            "equal": self.equal,
            "detected": self.detected,
            "refused": dict(self.refused.most_common()),
            "mismatched": len(self.mismatched),
            "solved": self.solved,
            "wrong": len(self.wrong),
            "seconds": round(self.seconds, 3),
            "first_problems": (self.mismatched + self.wrong)[:SHOWN],
        }


def corpus(kind) -> list[tuple[str, Any, Grid | None]]:
    """``(id, puzzle, published solution or None)`` of every puzzle of the kind's corpus."""
    out: list[tuple[str, Any, Grid | None]] = [
        (key, *corpus_puzzle(kind.name, key)) for key in corpus_ids(kind.name)
    ]
    for path in sorted(CORPUS.glob(f"{kind.name}-*.txt")):
        lines = path.read_text().splitlines()
        for number, line in enumerate(lines, 1):
            if line.strip() and not line.startswith("#"):
                puzzle = kind.formats.read(line.strip(), None, MAX_CELLS).puzzle
                out.append((f"{path.name}:{number}", puzzle, None))
    return out


class Solver:
    """Each puzzle's answers from both engines, searched once per distinct puzzle."""

    def __init__(self, kind) -> None:
        self.kind = kind
        self.answers: dict[Any, tuple[Any, Any]] = {}

    def problem(self, puzzle, published: Grid | None) -> str:
        """What is wrong with the engines' answers for ``puzzle`` ("" if nothing)."""
        if puzzle not in self.answers:
            self.answers[puzzle] = tuple(  # type: ignore[assignment]
                engines.find(self.kind, puzzle, engine=engine, limit=2)
                for engine in (Engine.NATIVE, Engine.CPSAT)
            )
        native, cpsat = self.answers[puzzle]
        verdicts = (native.verdict, cpsat.verdict)
        if verdicts != (Verdict.UNIQUE, Verdict.UNIQUE):
            return f"native {native.verdict.value}, cpsat {cpsat.verdict.value}"
        if native.solutions[0] != cpsat.solutions[0]:
            return "the engines' solutions differ"
        if published is not None and native.solutions[0] != published:
            return "the solution differs from the published one"
        return ""


def measure(kind, fmt: str, puzzles, solver: Solver, advance) -> Tally:
    tally = Tally()
    for key, puzzle, published in puzzles:
        tally.puzzles += 1
        board = Board.empty(puzzle)
        start = time.perf_counter()
        try:
            text = kind.formats.write(board, fmt)
        except PuzzleError as e:
            tally.seconds += time.perf_counter() - start
            tally.refused.update({f.code for f in e.findings})
            advance()
            continue
        try:
            back = kind.formats.read(text, fmt, MAX_CELLS)
        except PuzzleError as e:
            tally.seconds += time.perf_counter() - start
            tally.mismatched.append(f"{key}: not read back: {e.findings[0].message}")
            advance()
            continue
        try:
            found = detect_format(text)
        except PuzzleError:
            found = None
        tally.seconds += time.perf_counter() - start
        tally.detected += found == (kind, fmt)
        if back.puzzle == puzzle:
            tally.equal += 1
        else:
            tally.mismatched.append(f"{key}: read back as another puzzle")
        problem = solver.problem(back.puzzle, published)
        if problem:
            tally.wrong.append(f"{key}: {problem}")
        else:
            tally.solved += 1
        advance()
    return tally


def table(kind, tallies: dict[str, Tally]) -> Table:
    out = Table(title=f"{kind.title}: write, read back, solve", title_justify="left")
    out.add_column("format")
    for name in ("puzzles", "written", "equal", "detected", "mismatched", "solved", "wrong", "s"):
        out.add_column(name, justify="right")
    out.add_column("refused on write (finding: puzzles)")
    for fmt, t in tallies.items():
        row = t.row()
        refused = ", ".join(f"{code} {n}" for code, n in row["refused"].items()) or "-"
        out.add_row(
            fmt,
            *(
                str(row[name])
                for name in ("puzzles", "written", "equal", "detected", "mismatched", "solved")
            ),
            str(row["wrong"]),
            f"{t.seconds:.2f}",
            refused,
        )
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    names = [kind.name for kind in REGISTRY]
    parser.add_argument("--kinds", help=f"comma-separated, of {', '.join(names)} (default all)")
    parser.add_argument("--formats", help="comma-separated (default: every format of the kind)")
    parser.add_argument("--limit", type=int, help="only the first N puzzles of each kind")
    parser.add_argument("--json", action="store_true", help="print the tallies as JSON")
    args = parser.parse_args()
    kinds = [kind for kind in REGISTRY if not args.kinds or kind.name in args.kinds.split(",")]
    if args.kinds and (unknown := set(args.kinds.split(",")) - set(names)):
        parser.error(f"unknown kind(s) {', '.join(sorted(unknown))}; known: {', '.join(names)}")
    wanted = set(args.formats.split(",")) if args.formats else None
    console = Console(stderr=args.json, width=max(Console().width, 140))
    plan = []
    for kind in kinds:
        formats = [fmt for fmt in kind.formats.FORMATS if wanted is None or fmt in wanted]
        if formats:
            plan.append((kind, formats, corpus(kind)[: args.limit]))
    results: dict[str, dict[str, Tally]] = {}
    with progress_bar("{task.description}", console, transient=True) as progress:
        task = progress.add_task("puzzles", total=sum(len(f) * len(p) for _, f, p in plan))
        for kind, formats, puzzles in plan:
            solver = Solver(kind)
            results[kind.name] = {}
            for fmt in formats:
                progress.update(task, description=f"{kind.name} {fmt}")
                results[kind.name][fmt] = measure(
                    kind, fmt, puzzles, solver, lambda: progress.advance(task)
                )
    failed = any(t.mismatched or t.wrong for tallies in results.values() for t in tallies.values())
    if args.json:
        payload = {
            kind: {fmt: t.row() for fmt, t in tallies.items()} for kind, tallies in results.items()
        }
        print(json.dumps(payload, indent=2))
    else:
        for kind, _, _ in plan:
            console.print(table(kind, results[kind.name]))
            for fmt, t in results[kind.name].items():
                for problem in (t.mismatched + t.wrong)[:SHOWN]:
                    console.print(f"[bold red]{kind.name} {fmt}: {problem}")
    if failed:
        console.print("[bold red]FAILED: a board read back differs, or its solution is wrong")
    if wanted and not any(results.values()):
        console.print("[yellow]no kind has the formats asked for")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
