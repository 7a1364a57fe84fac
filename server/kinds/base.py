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
import random
from collections.abc import Mapping
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Spec:
    """What a caller asks of generated puzzles (:mod:`numgrid.server.generate`)."""

    rows: int
    cols: int  # equal to rows for the square kinds
    grade: enum.IntEnum | None  # numgrid.server.chain.Grade; None: any grade
    density: float = 0.0  # Kakuro: the share of white cells; 0: the kind's default
    single_cell_runs: bool = False  # Kakuro: white cells in one-cell runs allowed


class Maker(Protocol):
    """How a kind makes puzzles: random candidates, and repairs where a second solution
    shows the clues are too weak. :mod:`numgrid.server.generate` drives it (proves each
    puzzle unique with both engines, grades it with the kind's chain, steers the grade),
    so a maker only knows its kind's shapes, never the engines."""

    def problems(self, spec: Spec) -> list[tuple[str, str]]:
        """Why this kind cannot make ``spec``: (the Spec field at fault, one plain
        sentence) each, e.g. ("rows", "a KenKen is 3 to 9 cells wide, not 12") or
        ("grade", "no 4x4 KenKen needs a trial"); empty when it can."""
        ...

    def candidate(
        self, spec: Spec, rng: random.Random, pressure: float, budget: Budget
    ) -> tuple[Any, Grid]:
        """A well-formed puzzle and one solution of it (not yet known to be unique).

        ``pressure`` in [-1, 1] leans the choices toward harder (> 0) or easier (< 0)
        puzzles than the target grade's default; the driver moves it after each graded
        candidate. Every random choice comes from ``rng``: the same seed, the same
        puzzle. Raises SearchTimeout past ``budget``."""
        ...

    def repair(
        self, puzzle: Any, solution: Grid, other: Grid, rng: random.Random
    ) -> Any | tuple[Any, Grid] | None:
        """``puzzle`` changed where ``other`` (a second solution) differs from
        ``solution``, so that ``solution`` still fits and ``other`` does not; or
        ``(puzzle, solution)`` when the repair changes the solution too (a Kakuro's
        clues are its fill's sums); None when this maker cannot."""
        ...


class Kind(Protocol):
    """A puzzle kind: how it is read, checked, solved by both engines and explained."""

    name: str  # also its field in numgrid.v1.Puzzle and its PuzzleKind
    formats: tuple[str, ...]  # named as numgrid.v1.PuzzleFormat, without the prefix
    # IntEnum of the techniques, simplest first, named as numgrid.v1.Technique; the one
    # named TRIAL is the last resort.
    techniques: type[enum.IntEnum]
    # Per grade: the hardest technique allowed and step limits (the kind's THRESHOLDS).
    thresholds: Mapping[enum.IntEnum, tuple[enum.IntEnum, Mapping[enum.IntEnum, int]]]
    maker: Maker  # how its puzzles are generated

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
