"""The one interface every puzzle kind implements (in the spirit of Tatham's ``game``).

The engines, the service and the CLI hold a :class:`Kind` and never ask which one.
A kind is a package under :mod:`numgrid.server.kinds` (model, formats, checks, engines,
techniques) whose ``__init__`` builds one object satisfying this protocol; the type
checker tells a new kind what it still lacks.

Every kind's board is a :class:`~numgrid.server.core.Board` (its puzzle, with
``.rows``/``.cols``, and the entries), its steps :class:`~numgrid.server.core.Step`,
its board reports :class:`~numgrid.server.core.BoardReport`, its explanations and grades
those of :mod:`numgrid.server.chain`, its formats a
:class:`~numgrid.server.kinds.textformats.Formats`, its pictures
:class:`~numgrid.server.pictures.Picture`.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any, Protocol

from numgrid.server.core import Board, BoardReport, Budget, Finding, Grid, SearchResult, Step
from numgrid.server.pictures import Contents, Picture


class Explanation(Protocol):
    """A logical solution from a position, as far as the techniques reach."""

    steps: tuple[Step, ...]
    solved: bool  # the chain completed the grid
    grade: enum.IntEnum | None  # named as numgrid.v1.Grade; None unless solved
    technique_counts: dict  # {technique: steps}, every technique of the kind
    candidates: dict  # {cell: digits} where the chain stopped


class Kind(Protocol):
    """A puzzle kind: how it is read, checked, solved by both engines and explained."""

    name: str  # also its field in numgrid.v1.Puzzle and its PuzzleKind
    formats: tuple[str, ...]  # named as numgrid.v1.PuzzleFormat, without the prefix
    # IntEnum of the techniques, simplest first, named as numgrid.v1.Technique; the one
    # named TRIAL is the last resort.
    techniques: type[enum.IntEnum]

    def sniff(self, text: str) -> str | None:
        """The format ``text`` is in if it is a puzzle of this kind, else None (cheap)."""
        ...

    def read(self, text: str, fmt: str | None, max_cells: int) -> Board:
        """A board; ``fmt`` None detects the format. Raises PuzzleError (every finding)."""
        ...

    def write(self, board: Board, fmt: str) -> str: ...

    def check(self, puzzle: Any, entries: Grid | None, max_cells: int | None) -> list[Finding]:
        """Every structural error and warning of a puzzle and its entries, at once."""
        ...

    def validate(self, board: Board, solution: Grid | None) -> BoardReport:
        """How every group and cell of a board stands; with a solution, wrong entries."""
        ...

    def cpsat_model(self, puzzle: Any, fixed: Grid | None) -> tuple[Any, dict]:
        """(CpModel, {cell: IntVar}) for the cells to fill, ``fixed`` digits held."""
        ...

    def native_search(
        self, puzzle: Any, *, limit: int, fixed: Grid | None, budget: Budget
    ) -> SearchResult: ...

    def solution_text(self, puzzle: Any, grid: Grid) -> str:
        """The solution as the kind publishes it."""
        ...

    def picture(self, puzzle: Any, contents: Contents) -> Picture:
        """The puzzle drawn as printed (SVG), with ``contents`` over it: entries, the
        solution, highlighted cells (the kind's ``picture.py``; the basics are in
        :mod:`numgrid.server.pictures`)."""
        ...

    def value_text(self, value: int) -> str:
        """A cell's value in a sentence: the digit, ``empty`` for -1
        (:func:`~numgrid.server.core.value_text`), or the kind's own word (Kakurasu:
        ``shaded``, ``white``)."""
        ...

    # The logical solver, for hints, explanations and grades. Every function takes
    # budget= and raises SearchTimeout past it.
    def next_step(
        self,
        puzzle: Any,
        entries: Grid | Mapping | None,
        max_technique: enum.IntEnum,
        placements_only: bool,
        *,
        budget: Budget | None,
    ) -> Step | None: ...

    def explain(
        self,
        puzzle: Any,
        entries: Grid | Mapping | None,
        max_technique: enum.IntEnum,
        *,
        budget: Budget | None,
    ) -> Explanation: ...

    def last_resort(
        self, puzzle: Any, candidates: Grid | Mapping | None, *, budget: Budget | None
    ) -> Step | None:
        """The TRIAL step from a position, or None."""
        ...
