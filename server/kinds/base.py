"""The one interface every puzzle kind implements (in the spirit of Tatham's ``game``).

The engines, the service and the CLI hold a :class:`Kind` and never ask which one.
A kind is a package under :mod:`numgrid.server.kinds` (model, formats, checks, engines,
techniques, its proto message) whose ``__init__`` builds one :class:`Kind` value, listed
once in :data:`numgrid.server.kinds.REGISTRY`. ``Kind`` is a frozen dataclass whose
fields are all required and are mostly the kind's own modules, each typed by a protocol
below (a module satisfies a protocol by its functions): the type checker tells a new
kind what it still lacks, and that its functions fit (``docs/development.md``,
"Adding a kind").

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
import json
import random
from collections.abc import Callable
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from typing import Generic
from typing import Protocol
from typing import TypeVar
from typing import Unpack
from typing import runtime_checkable

from google.protobuf import json_format
from numgrid.server.chain import Explanation
from numgrid.server.chain import Grade
from numgrid.server.core import Board
from numgrid.server.core import BoardReport
from numgrid.server.core import Budget
from numgrid.server.core import Cell
from numgrid.server.core import Finding
from numgrid.server.core import Grid
from numgrid.server.core import SearchKeywords
from numgrid.server.core import SearchResult
from numgrid.server.core import Step
from numgrid.server.kinds.textformats import Formats
from numgrid.server.pictures import Contents
from numgrid.server.pictures import Picture
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


@runtime_checkable
class Nudging(Protocol):
    """A maker that can also move a puzzle toward a grade (optional): the driver asks it
    when a candidate comes out off grade, before drawing another."""

    def nudge(self, puzzle: Any, solution: Grid, harder: bool, rng: random.Random) -> Any | None:
        """``puzzle`` changed a little, toward a ``harder`` puzzle (or an easier one),
        ``solution`` still fitting it (not yet known to be unique); None when it cannot."""
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


def message_json(key: str) -> Callable[[Message], str]:
    """A Wire's ``to_json``: the message as ``{"<key>": {...}}`` in protobuf's JSON."""

    def to_json(message: Message) -> str:
        return json.dumps({key: json_format.MessageToDict(message)})

    return to_json


def cell_ref(cell: Cell) -> puzzle_pb2.CellRef:
    return puzzle_pb2.CellRef(row=cell[0], column=cell[1])


def fill_grid(message: puzzle_pb2.Grid, grid: Grid) -> None:
    """A Wire's grid field: its rows, or none when every value is 0 (as protobuf's JSON
    leaves it out)."""
    if any(map(any, grid)):
        message.rows.extend(puzzle_pb2.GridRow(values=row) for row in grid)


def square_shape(message: Message) -> tuple[int, int]:
    """A Wire's ``shape`` for a message with one ``size``."""
    return message.size, message.size


def given_field(message: Message, cell: Cell) -> str | None:
    """A Wire's ``cell_field`` for a cell the message's ``givens`` hold (a digit at that
    row and column, which may lie outside the grid or be negative): its field, else
    None."""
    r, c = cell
    rows = message.givens.rows
    if 0 <= r < len(rows) and 0 <= c < len(rows[r].values) and rows[r].values[c]:
        return f"givens.rows[{r}].values[{c}]"
    return None


def counted(outer: int, inner: Callable[[], int], limit: int) -> int:
    """A Wire's ``parts``: the ``outer`` elements, and the ``inner`` ones too when the
    outer ones are within ``limit`` (so a message is never walked far past it)."""
    return outer if outer > limit else outer + inner()


class FormatsModule(Protocol[PuzzleT_contra]):
    """A kind's ``formats`` module: its text formats, and its solutions as published."""

    @property
    def FORMATS(self) -> Formats: ...  # in detection order

    def sniff(self, text: str, /) -> str | None:
        """The format ``text`` is in if it is a puzzle of this kind, else None (cheap)."""
        ...

    def read(self, text: str, fmt: str | None = ..., max_cells: int | None = ..., /) -> Board:
        """(text, format or None to detect, max cells) -> a board; raises PuzzleError."""
        ...

    def write(self, board: Board, fmt: str, /) -> str: ...

    def write_solution(self, puzzle: PuzzleT_contra, solution: Grid, /) -> str:
        """The solution as the kind publishes it."""
        ...

    def read_solution(self, text: str, /) -> Grid:
        """A published solution's text (the corpus's)."""
        ...


class ChecksModule(Protocol[PuzzleT_contra]):
    """A kind's ``checks`` module: the rules, as structural checks and board reports."""

    def check_puzzle(
        self, puzzle: PuzzleT_contra, entries: Grid | None, max_cells: int | None, /
    ) -> list[Finding]:
        """Every structural error and warning of a puzzle (and entries), at once."""
        ...

    def validate_board(self, board: Board, solution: Grid | None, /) -> BoardReport:
        """How every group and cell of a board stands; with a solution, wrong entries."""
        ...


class NativeModule(Protocol[PuzzleT_contra]):
    """A kind's ``native`` module: its own depth-first engine."""

    def search(self, puzzle: PuzzleT_contra, /, **keywords: Unpack[SearchKeywords]) -> SearchResult:
        """Up to ``limit`` solutions, as :class:`~numgrid.server.core.Ask` says."""
        ...


class LogicModule(Protocol[PuzzleT_contra]):
    """A kind's logical solver, for hints, explanations and grades; each function raises
    SearchTimeout past its budget."""

    @property
    def Technique(self) -> type[enum.IntEnum]:
        """The techniques, simplest first, named as numgrid.v1.Technique; the one named
        TRIAL is the last resort."""
        ...

    @property
    def THRESHOLDS(self) -> Mapping[Any, tuple[Any, Mapping[Any, int]]]:
        """Per grade: the hardest technique allowed and step limits."""
        ...

    def value_text(self, value: int, /) -> str:
        """A cell's value in a sentence: the digit, ``empty`` for -1, or the kind's word."""
        ...

    def next_step(
        self,
        puzzle: PuzzleT_contra,
        candidates_or_entries: Any = ...,
        max_technique: Any = ...,
        placements_only: bool = ...,
        /,
        budget: Budget | None = ...,
    ) -> Step | None: ...

    def explain(
        self,
        puzzle: PuzzleT_contra,
        entries: Any = ...,
        max_technique: Any = ...,
        /,
        budget: Budget | None = ...,
        quiet: bool = ...,
    ) -> Explanation:
        """Every step until the grid is full, the techniques run out or a contradiction;
        ``quiet``: the same steps without their sentences (a grade's cost alone)."""
        ...

    def last_resort(
        self,
        puzzle: PuzzleT_contra,
        candidates_or_entries: Any = ...,
        /,
        budget: Budget | None = ...,
    ) -> Step | None:
        """The TRIAL step from a position, or None."""
        ...


class PictureModule(Protocol[PuzzleT_contra]):
    """A kind's ``picture`` module."""

    def draw(self, puzzle: PuzzleT_contra, contents: Contents, /) -> Picture:
        """The puzzle drawn as printed (SVG), with entries, the solution or highlights."""
        ...


@dataclass(frozen=True, eq=False)
class Kind(Generic[PuzzleT]):
    """A puzzle kind: how it is named, read, checked, solved by both engines, explained,
    made and drawn. Every field is required; most are the kind's own modules, which the
    type checker holds to the protocols above. ``PuzzleT`` is the kind's puzzle class,
    which all of them agree on. A kind's ``__init__`` builds it in one call::

        KIND: Kind[Puzzle] = Kind(
            __name__, rank, formats, messages.WIRE, checks, native, logic, generator.MAKER, picture
        )
    """

    # Its package, ``__name__`` in its ``__init__``: the last part is the kind's name,
    # and ``<package>.cpsat`` builds its CP-SAT model.
    package: str
    rank: int  # detection order: lower sniffs first (a stricter shape before a looser)
    formats: FormatsModule[PuzzleT]
    wire: Wire  # its proto message
    checks: ChecksModule[PuzzleT]
    native: NativeModule[PuzzleT]
    logic: LogicModule[PuzzleT]
    maker: Maker  # how its puzzles are generated
    picture: PictureModule[PuzzleT]

    @property
    def name(self) -> str:
        """Its field in numgrid.v1.Puzzle, its PuzzleKind (upper case), its JSON key."""
        return self.package.rpartition(".")[2]

    @property
    def title(self) -> str:
        """As people write it, in sentences and headings (its formats' errors name it)."""
        return self.formats.FORMATS.title

    def cpsat_module(self) -> Any:
        """Its ``cpsat`` module, imported on first use: OR-Tools costs half a second to
        import, which a CLI that never asks for CP-SAT should not pay (a long-running
        server imports it at start)."""
        return importlib.import_module(f"{self.package}.cpsat")

    def cpsat_model(
        self, puzzle: PuzzleT, fixed: Grid | None = None, /
    ) -> tuple[Any, dict[Cell, Any]]:
        """(CpModel, {cell: IntVar}) for the cells to fill, the fixed digits held."""
        model: tuple[Any, dict[Cell, Any]] = self.cpsat_module().build(puzzle, fixed)
        return model
