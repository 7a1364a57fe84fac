"""The one interface every puzzle kind implements (in the spirit of Tatham's ``game``).

The engines, the service and the CLI hold a :class:`Kind` and never ask which one.
A kind is a package under :mod:`numgrid.server.kinds` (model, formats, checks, engines,
techniques, its proto message) whose ``__init__`` builds one :class:`Kind` value, listed
once in :data:`numgrid.server.kinds.REGISTRY`. ``Kind`` is a frozen dataclass whose
fields are all required and typed: the type checker tells a new kind what it still
lacks, and that its functions fit (``docs/development.md``, "Adding a kind").

Every kind's board is a :class:`~numgrid.server.core.Board` (its puzzle, with
``.rows``/``.cols``, and the entries), its steps :class:`~numgrid.server.core.Step`,
its board reports :class:`~numgrid.server.core.BoardReport`, its explanations and grades
those of :mod:`numgrid.server.chain`, its formats a
:class:`~numgrid.server.kinds.textformats.Formats`, its pictures
:class:`~numgrid.server.pictures.Picture`.
"""

from __future__ import annotations

import enum
import importlib
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from numgrid.server.chain import Explanation, Grade
from numgrid.server.core import (
    Board,
    BoardReport,
    Budget,
    Cell,
    Finding,
    Grid,
    SearchResult,
    Step,
)
from numgrid.server.pictures import Contents, Picture
from numgrid.v1 import puzzle_pb2


@dataclass(frozen=True)
class Spec:
    """What a caller asks of generated puzzles (:mod:`numgrid.server.generate`)."""

    rows: int
    cols: int  # equal to rows for the square kinds
    grade: Grade | None  # None: any grade
    density: float = 0.0  # kinds with black cells: the share of white ones; 0: default
    single_cell_runs: bool = False  # kinds with runs: white cells in one-cell runs allowed
    diagonals: bool = False  # units kinds: the X variant (both main diagonals count)


class Maker(Protocol):
    """How a kind makes puzzles: random candidates, and repairs where a second solution
    shows the clues are too weak. :mod:`numgrid.server.generate` drives it (proves each
    puzzle unique with both engines, grades it with the kind's chain, steers the grade),
    so a maker only knows its kind's shapes, never the engines."""

    def problems(self, spec: Spec) -> list[tuple[str, str]]:
        """Why this kind cannot make ``spec``: (the Spec field at fault, one plain
        sentence) each, e.g. ("rows", "a <kind> is 3 to 9 cells wide, not 12") or
        ("grade", "no 4x4 <kind> needs a trial"); empty when it can."""
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
        ``(puzzle, solution)`` when the repair changes the solution too (sum
        clues are its fill's sums); None when this maker cannot."""
        ...


PuzzleT = TypeVar("PuzzleT")
PuzzleT_contra = TypeVar("PuzzleT_contra", contravariant=True)
Message = Any  # the kind's own message of the numgrid.v1.Puzzle oneof


# A group's operation (the sign of a cage's label) as the proto's CageOperation.
CAGE_OPERATIONS = {
    "": puzzle_pb2.CAGE_OPERATION_UNSPECIFIED,
    "+": puzzle_pb2.CAGE_OPERATION_ADD,
    "-": puzzle_pb2.CAGE_OPERATION_SUBTRACT,
    "x": puzzle_pb2.CAGE_OPERATION_MULTIPLY,
    "/": puzzle_pb2.CAGE_OPERATION_DIVIDE,
}


@dataclass(frozen=True)
class Wire:
    """A kind's proto message (its field of the ``numgrid.v1.Puzzle`` oneof, named as the
    kind): read through the kind's own JSON reader, so a structured puzzle passes exactly
    the checks a text one does, sized up before it is read, named field by field in
    errors, and written back."""

    to_json: Callable[[Message], str]  # the message as the kind's JSON puzzle text
    shape: Callable[[Message], tuple[int, int]]  # (rows, columns) it claims
    # (message, limit) -> how many repeated elements it holds, counted no further than
    # needed to pass ``limit``: what reading it would walk through, bounded before it does
    parts: Callable[[Message, int], int]
    cell_field: Callable[[Message, Cell], str]  # the field naming a cell, in errors
    to_proto: Callable[[Board], puzzle_pb2.Puzzle]  # a board as a Puzzle message


class CpsatModel:
    """A kind's CP-SAT model, its module (``<kind>.cpsat``, ``build(puzzle, fixed)``)
    imported on first use: OR-Tools costs half a second to import, which a CLI that never
    asks for CP-SAT should not pay. A long-running server calls :meth:`load` at start."""

    def __init__(self, package: str) -> None:
        self.module = f"{package}.cpsat"

    def load(self) -> Any:
        return importlib.import_module(self.module)

    def __call__(self, puzzle: Any, fixed: Grid | None = None, /) -> tuple[Any, dict[Cell, Any]]:
        model: tuple[Any, dict[Cell, Any]] = self.load().build(puzzle, fixed)
        return model


class Reader(Protocol):
    def __call__(
        self, text: str, fmt: str | None = ..., max_cells: int | None = ..., /
    ) -> Board: ...


class NativeSearch(Protocol[PuzzleT_contra]):
    def __call__(
        self,
        puzzle: PuzzleT_contra,
        /,
        *,
        limit: int = ...,
        fixed: Grid | None = ...,
        budget: Budget | None = ...,
    ) -> SearchResult: ...


class NextStep(Protocol[PuzzleT_contra]):
    def __call__(
        self,
        puzzle: PuzzleT_contra,
        candidates_or_entries: Any = ...,
        max_technique: Any = ...,
        placements_only: bool = ...,
        /,
        budget: Budget | None = ...,
    ) -> Step | None: ...


class Explain(Protocol[PuzzleT_contra]):
    def __call__(
        self,
        puzzle: PuzzleT_contra,
        entries: Any = ...,
        max_technique: Any = ...,
        /,
        budget: Budget | None = ...,
    ) -> Explanation: ...


class LastResort(Protocol[PuzzleT_contra]):
    def __call__(
        self,
        puzzle: PuzzleT_contra,
        candidates_or_entries: Any = ...,
        /,
        budget: Budget | None = ...,
    ) -> Step | None: ...


@dataclass(frozen=True, eq=False)
class Kind(Generic[PuzzleT]):
    """A puzzle kind: how it is named, read, checked, solved by both engines, explained,
    made and drawn. Every field is required; ``PuzzleT`` is the kind's puzzle class,
    which all its functions agree on."""

    name: str  # its field in numgrid.v1.Puzzle, its PuzzleKind (upper case), its JSON key
    title: str  # as people write it, in sentences and headings
    rank: int  # detection order: lower sniffs first (a stricter shape before a looser)
    formats: tuple[str, ...]  # named as numgrid.v1.PuzzleFormat, without the prefix
    wire: Wire  # its proto message
    # IntEnum of the techniques, simplest first, named as numgrid.v1.Technique; the one
    # named TRIAL is the last resort.
    techniques: type[enum.IntEnum]
    # Per grade: the hardest technique allowed and step limits (the kind's THRESHOLDS).
    thresholds: Mapping[Any, tuple[Any, Mapping[Any, int]]]
    maker: Maker  # how its puzzles are generated

    # The format ``text`` is in if it is a puzzle of this kind, else None (cheap).
    sniff: Callable[[str], str | None]
    # (text, format or None to detect, max cells) -> a board; raises PuzzleError.
    read: Reader
    write: Callable[[Board, str], str]  # a board in a format
    # (puzzle, entries, max cells) -> every structural error and warning, at once.
    check: Callable[[PuzzleT, Grid | None, int | None], list[Finding]]
    # How every group and cell of a board stands; with a solution, wrong entries.
    validate: Callable[[Board, Grid | None], BoardReport]
    # (CpModel, {cell: IntVar}) for the cells to fill, the fixed digits held.
    cpsat_model: CpsatModel
    native_search: NativeSearch[PuzzleT]
    solution_text: Callable[[PuzzleT, Grid], str]  # the solution as the kind publishes it
    read_solution: Callable[[str], Grid]  # a published solution's text (the corpus's)
    # A cell's value in a sentence: the digit, ``empty`` for -1, or the kind's own word.
    value_text: Callable[[int], str]
    # The puzzle drawn as printed (SVG), with entries, the solution or highlights over it.
    picture: Callable[[PuzzleT, Contents], Picture]
    # The logical solver, for hints, explanations and grades; each raises SearchTimeout
    # past its budget.
    next_step: NextStep[PuzzleT]
    explain: Explain[PuzzleT]
    last_resort: LastResort[PuzzleT]  # the TRIAL step from a position, or None
