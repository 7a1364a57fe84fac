"""What the client hands back: frozen dataclasses of plain Python values.

- *cell*: a ``(row, column)`` pair, 0-based over the whole grid (clue cells included).
- *grid*: a tuple of row tuples of ints; ``0`` where there is no digit (black cells too).
- verdicts, severities, hint kinds, engines, techniques and grades are plain strings:
  ``"UNIQUE"``, ``"error"``, ``"STEP"``, ``"native"``, ``"REGION_SUM"``, ``"EXPERT"``.

The one structured value kept as protobuf is the puzzle itself (``puzzle_pb2.Puzzle``):
it is what the server read, a oneof over puzzle kinds, and it is what the renderer reads.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from dataclasses import field

from numgrid.v1 import puzzle_pb2

# What ``numgrid.client`` exports of this module (besides the two clients).
__all__ = [
    "Cell",
    "Converted",
    "Difficulty",
    "EngineStat",
    "Explanation",
    "Finding",
    "GeneratedPuzzle",
    "Grid",
    "GroupRef",
    "GroupStatus",
    "Hint",
    "NumgridError",
    "Picture",
    "Solution",
    "SolveResult",
    "Step",
    "Uniqueness",
    "Validation",
    "Violation",
]

Cell = tuple[int, int]
Grid = tuple[tuple[int, ...], ...]


def cell_name(cell: Cell) -> str:
    """The spelling of a cell in messages, as the server writes it: ``r3c5``."""
    return f"r{cell[0]}c{cell[1]}"


def plural(n: int, word: str, words: str | None = None) -> str:
    """``n`` and ``word``, or ``words`` (by default ``word`` + s) when n is not 1."""
    return f"{n} {word if n == 1 else words or word + 's'}"


@dataclass(frozen=True)
class Finding:
    """One problem with a puzzle or a board, with the cells (and group) at fault."""

    code: str
    message: str
    cells: tuple[Cell, ...] = ()
    severity: str = "error"  # "error" or "warning"
    group: str = ""  # e.g. "across 16 at r4c0", "cage 12x at r0c0"; empty when not about one


@dataclass(frozen=True)
class EngineStat:
    """What one engine spent: wall-clock seconds and search nodes (or CP-SAT branches)."""

    engine: str  # "native" or "cpsat"
    seconds: float
    nodes: int = 0


@dataclass(frozen=True)
class GroupRef:
    """A group of cells under one rule: a run under a sum clue, a row, a column, a cage."""

    type: str  # "across", "down", "row", "column", "box", "region", "diagonal", "cage", ...
    clue_cell: Cell | None  # where the clue is written; None for a row or column
    clue: int  # a run's sum, a cage's target; 0 for a row or column
    operation: str = ""  # a cage's "+", "-", "x", "/"; "" otherwise
    index: int = 0  # a row's, column's, box's, region's or cage's number (0-based)


@dataclass(frozen=True)
class GroupStatus:
    """One group of a board and how it stands."""

    group: GroupRef
    cells: tuple[Cell, ...]
    state: str  # INCOMPLETE, DUPLICATE, OVER, WRONG, CORRECT
    total: int
    duplicates: tuple[Cell, ...] = ()


@dataclass(frozen=True)
class Validation:
    """Answer of Validate: the puzzle's oddities and how the player's board stands."""

    warnings: tuple[Finding, ...]
    board_findings: tuple[Finding, ...]
    groups: tuple[GroupStatus, ...]
    cells: tuple[tuple[Cell, str], ...]  # (cell, BLANK | DUPLICATE | GROUP_* status)
    solved: bool
    verdict: str | None  # only with compare_with_solution
    wrong_entries: tuple[Cell, ...]
    stats: tuple[EngineStat, ...]
    puzzle: puzzle_pb2.Puzzle = field(repr=False, compare=False)

    @property
    def ok(self) -> bool:
        """No rule broken and no entry that differs from the unique solution."""
        return not self.board_findings and not self.wrong_entries


@dataclass(frozen=True)
class Step:
    """One logical step: what it places or rules out, and why (one sentence, with numbers)."""

    technique: str  # LAST_CELL, COMBINATIONS, ..., REGION_SUM, TRIAL
    placements: tuple[tuple[Cell, int], ...]  # cell = digit
    eliminations: tuple[tuple[Cell, int], ...]  # cell != digit
    groups: tuple[GroupRef, ...]  # the groups that justify it
    cells: tuple[Cell, ...]  # the cells that justify it
    explanation: str


@dataclass(frozen=True)
class Difficulty:
    """How hard a puzzle is for a person, from the techniques its logical solution needs."""

    grade: str | None  # EASY, MEDIUM, HARD, EXPERT, EXTREME; None unless solved by logic
    hardest: str | None  # the hardest technique used
    counts: dict[str, int] = field(default_factory=dict, hash=False)  # steps per technique
    solved_by_logic: bool = False
    score: int = 0  # the sum of its steps' weights: higher is harder, within a grade too


@dataclass(frozen=True)
class SolveResult:
    """Answer of Solve: the verdict and the solution found (None when none was)."""

    verdict: str
    solution: Grid | None
    stats: tuple[EngineStat, ...]
    puzzle: puzzle_pb2.Puzzle = field(repr=False, compare=False)
    difficulty: Difficulty | None = None  # for UNIQUE, when the server had time to grade


Solution = SolveResult


@dataclass(frozen=True)
class Hint:
    """Answer of Hint: a mistake to fix, the next logical step, or why there is none.

    ``kind`` is MISTAKE (fix ``cells``), STEP (``step``; its digits are in ``placements``),
    NO_STEP (no step within the techniques allowed: ``placements`` holds one cell revealed
    from the solution, and ``step`` a trial offered as a last resort, if one exists),
    SOLVED, NOT_UNIQUE, or "" when the search ran out of time.
    """

    kind: str
    cells: tuple[Cell, ...]
    placements: tuple[tuple[Cell, int], ...]
    explanation: str
    findings: tuple[Finding, ...]
    verdict: str | None
    stats: tuple[EngineStat, ...]
    puzzle: puzzle_pb2.Puzzle = field(repr=False, compare=False)
    step: Step | None = None


@dataclass(frozen=True)
class Uniqueness:
    """Answer of CheckUniqueness: one solution, two that differ, none, or a timeout."""

    verdict: str  # UNIQUE, MULTIPLE, NO_SOLUTION, TIMEOUT
    solutions: tuple[Grid, ...]
    differing_cells: tuple[Cell, ...]
    stats: tuple[EngineStat, ...]
    puzzle: puzzle_pb2.Puzzle = field(repr=False, compare=False)
    difficulty: Difficulty | None = None  # for UNIQUE, when the server had time to grade


@dataclass(frozen=True)
class Explanation:
    """Answer of Explain: every logical step from the starting position, in order."""

    steps: tuple[Step, ...]
    solved: bool  # the steps complete the grid
    difficulty: Difficulty
    puzzle: puzzle_pb2.Puzzle = field(repr=False, compare=False)


@dataclass(frozen=True)
class Picture:
    """Answer of Render: the puzzle drawn as an SVG document, its size in pixels."""

    svg: str
    width: int
    height: int
    puzzle: puzzle_pb2.Puzzle = field(repr=False, compare=False)
    solution: Grid | None = None  # with show_solution: the solution drawn


@dataclass(frozen=True)
class Converted:
    """A puzzle written in another format (ConvertPuzzle)."""

    text: str  # the puzzle in ``format``: a link, a game ID or a text
    format: str  # "puzzlink", "penpa", "janko", ...
    kind: str  # the kind the server read it as
    puzzle: puzzle_pb2.Puzzle = field(repr=False, compare=False)


@dataclass(frozen=True)
class GeneratedPuzzle:
    """One puzzle of Generate: unique (both engines agree), graded, and reproducible
    from its seed alone."""

    index: int  # its place in the stream, from 0
    seed: int  # generating with this seed and count 1 makes it again
    texts: dict[str, str] = field(hash=False)  # format ("janko", "csv", ...) -> the text
    solution: Grid
    solution_text: str  # the solution as its kind publishes it
    difficulty: Difficulty
    attempts: int  # candidates drawn until this one was accepted
    repairs: int  # repairs of candidates on the way
    seconds: float  # time the server spent making it
    stats: tuple[EngineStat, ...]  # what each engine spent proving it unique
    puzzle: puzzle_pb2.Puzzle = field(repr=False, compare=False)

    @property
    def kind(self) -> str:
        return self.puzzle.WhichOneof("kind") or ""


# A cell named in a field path or a message: "r11c2", "rows[11].cells[2]",
# "row 11 ... column 2", "row=11, column=2".
_CELL_PATTERNS = (
    re.compile(r"\br(\d+)c(\d+)\b"),
    re.compile(r"rows\[(\d+)\]\.cells\[(\d+)\]"),
    re.compile(r"\brow\D{0,3}(\d+)\W+col(?:umn)?\D{0,3}(\d+)", re.IGNORECASE),
)


_ROW = re.compile(r"^row (\d+)\b")


def parse_cell(text: str) -> Cell | None:
    """The first cell named in ``text``, in any of the spellings above, or None."""
    for pattern in _CELL_PATTERNS:
        m = pattern.search(text)
        if m:
            return int(m.group(1)), int(m.group(2))
    return None


@dataclass(frozen=True)
class Violation:
    """One ``google.rpc.BadRequest`` field violation: a cell or run at fault."""

    field: str
    description: str
    row: int | None = None
    column: int | None = None

    @property
    def cell(self) -> Cell | None:
        return None if self.row is None or self.column is None else (self.row, self.column)

    @classmethod
    def parse(cls, field_path: str, description: str) -> Violation:
        """Read the cell from the field path, or failing that from the description
        (a message about a whole row, e.g. a ragged one, gives the row alone)."""
        cell = parse_cell(field_path) or parse_cell(description)
        if cell:
            return cls(field_path, description, *cell)
        row = _ROW.search(description)
        return cls(field_path, description, int(row.group(1)) if row else None)

    def __iter__(self):
        """Unpacks as ``(field, description)``."""
        return iter((self.field, self.description))


class NumgridError(Exception):
    """A call that failed: ``code`` is the gRPC status code's name.

    For INVALID_ARGUMENT, ``violations`` holds one entry per cell or run at fault,
    read from the ``google.rpc.BadRequest`` detail of the status, and ``findings`` the
    structured ``numgrid.v1.Finding`` details (with codes and cells) when the server
    sends them. For RESOURCE_EXHAUSTED from a busy server, ``retry_after`` is the
    seconds it asked the client to wait (its ``google.rpc.RetryInfo``).
    """

    def __init__(
        self,
        code: str,
        message: str,
        violations=(),
        findings=(),
        problems=None,
        retry_after: float | None = None,
    ):
        self.code = code
        self.message = message
        self.violations: list[Violation] = list(violations)
        # The same problems as ``numgrid.v1.Finding`` details: code, cells and run.
        self.findings: list[Finding] = list(findings)
        # How many problems there are in all; the server lists only as many as fit.
        self.problems: int = len(self.findings) if problems is None else problems
        self.retry_after = retry_after
        super().__init__(f"{code}: {message}" if message else code)
