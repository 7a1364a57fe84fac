"""Vocabulary shared by every puzzle kind, both engines and the service.

- *cell*: a ``(row, col)`` pair, 0-based over the whole grid (clue cells included).
- *grid*: a tuple of row tuples of ints; for answers ``0`` means "not a cell you fill".
- *finding*: one problem with a puzzle or a board, tied to the cells it is about.
- *budget*: the time a search may take and a flag that cancels it; engines poll it.
"""

from __future__ import annotations

import enum
import threading
import time
from dataclasses import dataclass, field

Cell = tuple[int, int]
Grid = tuple[tuple[int, ...], ...]


def cell_name(cell: Cell) -> str:
    """The one spelling of a cell in messages: ``r3c5`` (0-based row 3, column 5)."""
    return f"r{cell[0]}c{cell[1]}"


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
    run: str = ""  # e.g. "across r3c0" when the finding is about a run

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


class SearchTimeout(Exception):
    """Raised inside an engine when its budget runs out or the caller cancels."""


@dataclass
class Budget:
    """Wall-clock deadline plus a cancel flag. ``None`` deadline means no limit."""

    deadline: float | None = None
    cancelled: threading.Event = field(default_factory=threading.Event)
    _on_cancel: list = field(default_factory=list, repr=False)

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

    def child(self) -> Budget:
        """A budget with the same deadline, cancelled with this one or on its own."""
        child = Budget(self.deadline)
        self.on_cancel(child.cancel)
        return child

    def on_cancel(self, callback) -> None:
        """Call ``callback`` when cancelled (at once if already): stops engines that block."""
        self._on_cancel.append(callback)
        if self.cancelled.is_set():
            callback()


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


@dataclass(frozen=True)
class SearchResult:
    """What one engine found: up to ``limit`` distinct solutions, or a timeout."""

    solutions: tuple[Grid, ...]
    complete: bool  # True when the search space was exhausted or the limit reached
    stats: Stats

    @property
    def timed_out(self) -> bool:
        return not self.complete

    def verdict(self) -> Verdict:
        if len(self.solutions) >= 2:
            return Verdict.MULTIPLE
        if not self.complete:
            return Verdict.TIMEOUT
        return Verdict.UNIQUE if self.solutions else Verdict.NO_SOLUTION


def differing_cells(a: Grid, b: Grid) -> tuple[Cell, ...]:
    return tuple(
        (r, c)
        for r, (row_a, row_b) in enumerate(zip(a, b, strict=True))
        for c, (x, y) in enumerate(zip(row_a, row_b, strict=True))
        if x != y
    )
