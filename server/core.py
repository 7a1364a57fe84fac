"""Vocabulary shared by every puzzle kind, both engines and the service.

- *cell*: a ``(row, col)`` pair, 0-based over the whole grid (clue cells included).
- *grid*: a tuple of row tuples of ints; for answers ``0`` means "not a cell you fill",
  in entries "undecided"; :data:`EMPTY` (-1) is a cell decided to hold nothing.
- *group*: cells under one rule (a run with a sum clue, a row or column of a latin
  square, a cage), named in findings, board reports and logical steps.
- *finding*: one problem with a puzzle or a board, tied to the cells it is about.
- *board report*: how every group and cell of a player's board stands.
- *budget*: the time a search may take and a flag that cancels it; engines poll it.
"""

from __future__ import annotations

import contextlib
import contextvars
import enum
import threading
import time
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from dataclasses import field
from typing import Any
from typing import NamedTuple
from typing import Protocol
from typing import TypedDict

Cell = tuple[int, int]
Grid = tuple[tuple[int, ...], ...]


def cell_name(cell: Cell) -> str:
    """The one spelling of a cell in messages: ``r3c5`` (0-based row 3, column 5)."""
    return f"r{cell[0]}c{cell[1]}"


def quoted(text: str, limit: int = 24) -> str:
    """A piece of the input in a message, quoted and cut short (input may be huge)."""
    return repr(text if len(text) <= limit else text[:limit] + "...")


# A grid value: a cell decided to hold nothing (an unshaded cell, an empty
# lot without a tower), where 0 is a cell not decided yet.
EMPTY = -1


def value_text(value: int) -> str:
    """A cell's value in a sentence (``r1c2 = 7``): the digit, ``empty`` for EMPTY. A kind
    whose values are not digits has its own words (``Kind.logic.value_text``)."""
    return "empty" if value == EMPTY else str(value)


class GroupType(enum.Enum):
    """Named as numgrid.v1.GroupType without its prefix."""

    ACROSS = "across"
    DOWN = "down"
    ROW = "row"
    COLUMN = "column"
    CAGE = "cage"
    DIAGONAL = "diagonal"
    VIEW = "view"  # the heights seen from one edge of the grid
    BOX = "box"  # a rectangle of a grid cut into equal boxes: each digit once
    REGION = "region"  # an irregular region of N connected cells: each digit once


class Group(Protocol):
    """What reports and steps need of a group; each kind has its own class (a
    ``Run``, a ``Cage``, a ``Line``)."""

    @property
    def type(self) -> GroupType: ...
    @property
    def cells(self) -> tuple[Cell, ...]: ...
    @property
    def clue(self) -> int | None: ...  # a run's sum, a cage's target; None for a line
    @property
    def clue_cell(self) -> Cell | None: ...  # where the clue is written
    @property
    def operation(self) -> str: ...  # a cage's "+", "-", "x", "/"; "" otherwise
    @property
    def index(self) -> int: ...  # a row's or column's index; 0 otherwise
    @property
    def name(self) -> str: ...  # in messages: "across 16 at r4c0", "cage 12x at r0c0"


@dataclass(frozen=True)
class Board:
    """A puzzle of any kind and the player's entries (a grid of the puzzle's shape,
    ``0`` where empty or not a cell to fill)."""

    puzzle: Any  # the kind's puzzle: has .rows, .cols and .empty_grid()
    entries: Grid

    @classmethod
    def empty(cls, puzzle: Any) -> Board:
        return cls(puzzle, puzzle.empty_grid())

    def entry(self, cell: Cell) -> int:
        return self.entries[cell[0]][cell[1]]

    @property
    def has_entries(self) -> bool:
        return any(any(row) for row in self.entries)


class Severity(enum.Enum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True)
class Finding:
    """A problem found in a puzzle description or a board, with the cells at fault."""

    code: str
    message: str
    cells: tuple[Cell, ...] = ()
    severity: Severity = Severity.ERROR
    group: str = ""  # the group's name when the finding is about one, e.g. "across 16 at r3c0"

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR


class PuzzleError(ValueError):
    """A puzzle or board that cannot be used; carries every finding, not just the first."""

    def __init__(self, findings: list[Finding] | tuple[Finding, ...], summary: str = ""):
        self.findings = tuple(findings)
        first = self.findings[0].message if self.findings else "invalid puzzle"
        more = f" (and {len(self.findings) - 1} more)" if len(self.findings) > 1 else ""
        super().__init__(summary or f"{first}{more}")


class GroupState(enum.Enum):
    INCOMPLETE = "INCOMPLETE"
    DUPLICATE = "DUPLICATE"
    OVER = "OVER"  # not complete, yet its entries already pass (or cannot reach) the clue
    WRONG = "WRONG"  # complete, clue not met
    CORRECT = "CORRECT"


class CellStatus(enum.Enum):
    BLANK = "BLANK"
    DUPLICATE = "DUPLICATE"
    GROUP_INCOMPLETE = "GROUP_INCOMPLETE"
    GROUP_WRONG = "GROUP_WRONG"
    GROUP_CORRECT = "GROUP_CORRECT"


@dataclass(frozen=True)
class GroupReport:
    group: Group
    state: GroupState
    total: int  # a run's sum so far; a cage's result once complete (0 before)
    duplicates: tuple[Cell, ...]


@dataclass(frozen=True)
class BoardReport:
    """How a player's board stands, per group and per cell: what an app shows after
    every move."""

    groups: tuple[GroupReport, ...]
    cells: dict[Cell, CellStatus]
    findings: tuple[Finding, ...]
    solved: bool
    wrong_entries: tuple[Cell, ...] = ()  # only when a solution was given

    @property
    def ok(self) -> bool:
        """No broken rule and no entry that differs from the solution."""
        return not self.findings and not self.wrong_entries


_BAD = (GroupState.WRONG, GroupState.OVER, GroupState.DUPLICATE)
# A cell's status from the worst of its groups, worst last (blank cells aside).
_BY_RANK = (
    CellStatus.GROUP_CORRECT,
    CellStatus.GROUP_INCOMPLETE,
    CellStatus.GROUP_WRONG,
    CellStatus.DUPLICATE,
)


def cell_statuses(
    cells: Iterable[Cell], entries: Grid, groups: tuple[GroupReport, ...]
) -> dict[Cell, CellStatus]:
    """Each cell's status from the reports of the groups it is in (seed 003's statuses):
    a duplicate in one of them, else one of them wrong, else one incomplete, else correct."""
    rank: dict[Cell, int] = {}
    for report in groups:
        level = 2 if report.state in _BAD else 1 if report.state is GroupState.INCOMPLETE else 0
        duplicates = report.duplicates
        for cell in report.group.cells:
            mine = 3 if duplicates and cell in duplicates else level
            if mine > rank.get(cell, 0):
                rank[cell] = mine
    return {
        cell: _BY_RANK[rank.get(cell, 0)] if entries[cell[0]][cell[1]] else CellStatus.BLANK
        for cell in cells
    }


def wrong_entries(cells: Iterable[Cell], entries: Grid, solution: Grid | None) -> tuple[Cell, ...]:
    """The entered cells whose digit differs from ``solution`` (none without one)."""
    if solution is None:
        return ()
    return tuple((r, c) for r, c in cells if entries[r][c] and entries[r][c] != solution[r][c])


@dataclass(frozen=True)
class Step:
    """One logical step a person can follow, in every kind: what it places or rules
    out, the groups and cells that justify it, and one sentence with the numbers."""

    technique: enum.IntEnum  # the kind's technique, named as numgrid.v1.Technique
    placements: tuple[tuple[Cell, int], ...]  # cell = digit
    eliminations: tuple[tuple[Cell, int], ...]  # cell != digit (cells not placed here)
    groups: tuple[Group, ...]  # the groups that justify it
    cells: tuple[Cell, ...]  # the cells that justify it
    explanation: str
    chain: tuple[Step, ...] = ()  # with placements_only: the steps applied before this one


class SearchTimeout(Exception):
    """Raised inside an engine when its budget runs out or the caller cancels."""


class BeyondLogic(Exception):
    """A puzzle the kind's logical techniques cannot take on (its message says why, in
    one sentence): the engines still solve it, but a hint reveals a cell instead of a
    step, it gets no grade, and Explain refuses it."""


@dataclass
class Budget:
    """Wall-clock deadline plus a cancel flag. ``None`` deadline means no limit."""

    deadline: float | None = None
    cancelled: threading.Event = field(default_factory=threading.Event)
    _on_cancel: list[Callable[[], None]] = field(default_factory=list, repr=False)

    @classmethod
    def seconds(cls, limit: float | None) -> Budget:
        return cls(None if limit is None else time.monotonic() + limit)

    def remaining(self) -> float | None:
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - time.monotonic())

    def expired(self) -> bool:
        if self.cancelled.is_set():
            return True
        return self.deadline is not None and time.monotonic() >= self.deadline

    def cancel(self) -> None:
        self.cancelled.set()
        for callback in list(self._on_cancel):
            callback()

    def child(self, seconds: float | None = None) -> Budget:
        """A budget ending with this one (or ``seconds`` from now, if sooner), cancelled
        with it or on its own; :meth:`release` it once done."""
        deadline = self.deadline
        if seconds is not None:
            soon = time.monotonic() + seconds
            deadline = soon if deadline is None else min(deadline, soon)
        child = Budget(deadline)
        self.on_cancel(child.cancel)
        return child

    def release(self, child: Budget) -> None:
        """Stop cancelling ``child`` (one of :meth:`child`'s, no longer in use) with this
        budget, so that it, and what it would stop, can be let go."""
        with contextlib.suppress(ValueError):
            self._on_cancel.remove(child.cancel)

    def on_cancel(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` when cancelled (at once if already): stops engines that block."""
        self._on_cancel.append(callback)
        if self.cancelled.is_set():
            callback()


# The budget of the call the current thread is handling (see :func:`call_budget`).
_CALL_BUDGET: contextvars.ContextVar[Budget | None] = contextvars.ContextVar(
    "numgrid_call_budget", default=None
)


@contextmanager
def call_budget(budget: Budget) -> Iterator[None]:
    """``budget`` as the current call's for :func:`poll_call`, in this thread, for the body."""
    token = _CALL_BUDGET.set(budget)
    try:
        yield
    finally:
        _CALL_BUDGET.reset(token)


def poll_call() -> None:
    """Raise :class:`SearchTimeout` if the budget of the call this thread handles has run
    out: for the work no search budget is handed to, reading and checking a puzzle and
    the tables they build, which a large cage can make take seconds."""
    budget = _CALL_BUDGET.get()
    if budget is not None and budget.expired():
        raise SearchTimeout("the call ran out of time")


class Verdict(enum.Enum):
    """How many solutions a puzzle has, as far as the search could tell."""

    UNIQUE = "UNIQUE"
    MULTIPLE = "MULTIPLE"
    NO_SOLUTION = "NO_SOLUTION"
    TIMEOUT = "TIMEOUT"


@dataclass(frozen=True)
class Stats:
    engine: str
    seconds: float
    nodes: int = 0  # branches (native) or CP-SAT branches


class SearchKeywords(TypedDict, total=False):
    """The keywords every native engine's ``search`` takes (their meaning and defaults:
    :class:`Ask`), declared once: ``search(puzzle, /, **keywords:
    Unpack[SearchKeywords])``."""

    limit: int
    fixed: Grid | None
    budget: Budget | None
    other_than: Grid | None
    most_nodes: int | None


class Ask(NamedTuple):
    """What a search is asked: up to ``limit`` solutions, the nonzero values of ``fixed``
    held, within ``budget``, leaving out ``other_than`` (a solution known already: how a
    maker asks for a second one); past ``most_nodes`` search nodes (None: no bound) it
    stops, incomplete, as past its budget. ``Ask(**keywords)`` fills in the defaults."""

    limit: int = 2
    fixed: Grid | None = None
    budget: Budget | None = None
    other_than: Grid | None = None
    most_nodes: int | None = None


@dataclass(frozen=True)
class SearchResult:
    """What one engine found: up to ``limit`` distinct solutions, or a timeout."""

    solutions: tuple[Grid, ...]
    complete: bool  # True when the search space was exhausted or the limit reached
    stats: Stats

    @classmethod
    def out_of_time(cls, engine: str, started: float) -> SearchResult:
        """A search that ran out of time before it found anything; ``started`` is when
        it began, on the ``time.perf_counter()`` clock."""
        return cls((), False, Stats(engine, time.perf_counter() - started, 0))

    @property
    def timed_out(self) -> bool:
        return not self.complete

    def verdict(self) -> Verdict:
        if len(self.solutions) >= 2:
            return Verdict.MULTIPLE
        if not self.complete:
            return Verdict.TIMEOUT
        return Verdict.UNIQUE if self.solutions else Verdict.NO_SOLUTION


def smallest_domain(cand: list[int]) -> int:
    """The open cell (candidates as bits) with the fewest candidates, the first of those;
    -1 when every cell is decided. The native engines branch on it; two is the fewest
    an open cell can have, so the scan stops at the first such cell."""
    best, best_count = -1, 1 << 30
    for i, m in enumerate(cand):
        if m & (m - 1):
            count = m.bit_count()
            if count < best_count:
                best, best_count = i, count
                if count == 2:
                    break
    return best


def differing_cells(a: Grid, b: Grid) -> tuple[Cell, ...]:
    return tuple(
        (r, c)
        for r, (row_a, row_b) in enumerate(zip(a, b, strict=True))
        for c, (x, y) in enumerate(zip(row_a, row_b, strict=True))
        if x != y
    )
