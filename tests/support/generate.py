"""What the makers' tests share: a generated puzzle checked as a user would check it."""

from __future__ import annotations

from hypothesis import HealthCheck
from hypothesis import settings
from numgrid.server import engines
from numgrid.server.core import Board
from numgrid.server.core import PuzzleError
from numgrid.server.core import Verdict
from numgrid.server.engines import Engine

# A maker's property test: a few seeds, the same on every run (a maker takes up to a
# second a puzzle, too slow for hypothesis's deadline and health check).
maker_examples = settings(
    max_examples=6,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)


def assert_made_well(kind, made) -> None:
    """Each text of the puzzle reads back to it and is UNIQUE under CP-SAT alone, with
    the maker's solution; the grade is the one the whole chain (trial included) gives."""
    for fmt in kind.formats.FORMATS:
        try:
            text = kind.formats.write(Board.empty(made.puzzle), fmt)
        except PuzzleError as e:  # a format that cannot hold it (a 4x4 in SudokuWiki's 9x9)
            assert e.findings and all(f.message for f in e.findings), fmt
            continue
        puzzle = kind.formats.read(text, fmt, 10_000).puzzle
        assert puzzle == made.puzzle, fmt
        answer = engines.find(kind, puzzle, engine=Engine.CPSAT, limit=2)
        assert answer.verdict is Verdict.UNIQUE, (fmt, text)
        assert answer.solutions[0] == made.solution, fmt
    full = kind.logic.explain(made.puzzle, None, max(kind.logic.Technique), budget=None)
    assert full.solved and full.grade is made.difficulty.grade
