"""What the conformance suite knows of Sudoku: its sample, its corpus (16x16) and an
independent checker of solutions (rows, columns, boxes and givens, counted here, not
through the library)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from numgrid.server.core import Board
from numgrid.server.core import Grid
from numgrid.server.kinds import KINDS

from support.facts import Facts
from support.facts import latin_violations
from support.facts import no_trials

SUDOKU = KINDS["sudoku"]
BOXES = {4: (2, 2), 6: (2, 3), 9: (3, 3), 16: (4, 4)}
# Tatham's Solo, which makes Sudoku and Jigsaw Sudoku game IDs (None: not installed)
SGT_SOLO = shutil.which("sgt-solo") or (
    "/usr/games/sgt-solo" if Path("/usr/games/sgt-solo").exists() else None
)


def assert_solo_ids_round_trip(kind, params: str) -> None:
    """Three game IDs ``sgt-solo --generate`` makes with ``params`` read as one puzzle
    of ``kind`` with one solution each, and are written back as the same ID."""
    assert SGT_SOLO is not None
    done = subprocess.run(
        [SGT_SOLO, "--generate", "3", params], capture_output=True, text=True, timeout=120
    )
    ids = [line.strip() for line in done.stdout.splitlines() if line.strip()]
    assert ids
    for game_id in ids:
        puzzle = kind.formats.read(game_id, None, None).puzzle
        assert kind.native.search(puzzle, limit=2).verdict().value == "UNIQUE"
        assert kind.formats.write(Board(puzzle, puzzle.empty_grid()), "tatham").strip() == game_id


def rule_violations(p, grid: Grid) -> list[str]:
    """What is wrong with ``grid`` as a solution of ``p`` (empty = nothing)."""
    box_rows, box_cols = BOXES[p.size]
    boxes = {
        f"box at r{top}c{left}": [
            (top + r, left + c) for r in range(box_rows) for c in range(box_cols)
        ]
        for top in range(0, p.size, box_rows)
        for left in range(0, p.size, box_cols)
    }
    return latin_violations(p, grid, boxes)


FACTS = Facts(
    sample="sudoku-9x9.sdk",
    corpus_key="1051_16x16",
    # the top-right 2x2 of each half swaps: a unique rectangle left open
    two_solutions=".2.4.4.221434321",
    differing=frozenset({(0, 0), (0, 2), (1, 0), (1, 2)}),
    broken="11" + "." * 14,  # two 1s in row 0, and so in box 0
    broken_findings=(
        ("duplicate_given", ((0, 0), (0, 1)), "row 0"),
        ("duplicate_given", ((0, 0), (0, 1)), "box 0"),
    ),
    rule_violations=rule_violations,
    size=(4, 4),
    open_puzzle=lambda: SUDOKU.formats.read("." * 81, None, 100).puzzle,
    corpus_size=92,
    trials=no_trials,  # the published 16x16 puzzles
    formats_without_entries=frozenset(
        {"line", "grid", "janko", "tatham", "penpa", "puzzlink", "sudokuwiki"}
    ),
    corpus_step=4,
)
