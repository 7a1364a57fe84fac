"""Everything that judges a game goes to the server, through :class:`NumgridClient`:
Validate for each cell's status after every move (and, for the check key, against the
unique solution), Hint for the hint key, CheckUniqueness once before a game starts.
"""

from __future__ import annotations

from dataclasses import dataclass

from numgrid.v1 import puzzle_pb2

from ..client import NumgridClient
from ..types import Cell
from ..types import Hint
from ..types import Uniqueness
from .game import Game

# Validate's cell statuses (seed 003's), as the screen names them.
STATUS = {
    "DUPLICATE": "duplicate",  # its digit repeats in one of its groups
    "GROUP_INCOMPLETE": "incomplete",  # a run, cage, row or column of it is not full yet
    "GROUP_WRONG": "wrong",  # one of its groups is full and breaks its clue
    "GROUP_CORRECT": "right",  # all its groups are full and right
}
DEADLINE = 300.0  # seconds, as the other commands' (the server's time cap stops it first)


@dataclass(frozen=True)
class Judgement:
    """How the board stands: each filled cell's status, solved or not, and the rules
    broken (one sentence each)."""

    statuses: dict[Cell, str]
    solved: bool
    problems: tuple[str, ...] = ()


@dataclass(frozen=True)
class Check:
    """The board against the unique solution: the entries that differ from it."""

    wrong: tuple[Cell, ...]
    verdict: str | None  # UNIQUE, or why there is nothing to compare with


class Referee:
    """The server's judgement of a game, through ``client``; ``options``: the CLI's
    ``engine`` and ``time_limit``."""

    def __init__(
        self,
        client: NumgridClient,
        *,
        engine: str = "auto",
        time_limit: float | None = None,
        timeout: float = DEADLINE,
    ):
        self.client = client
        self.engine = engine
        self.time_limit = time_limit
        self.timeout = timeout

    def _options(self) -> dict:
        return {"engine": self.engine, "time_limit": self.time_limit, "timeout": self.timeout}

    def read(self, text: str, *, format: str | None = None, kind: str | None = None):
        """The structured puzzle of a file's text, as the server reads it (NumgridError
        INVALID_ARGUMENT naming the cells at fault when it cannot)."""
        return self.client.validate(text, format=format, kind=kind, timeout=self.timeout).puzzle

    def uniqueness(self, puzzle: puzzle_pb2.Puzzle) -> Uniqueness:
        bare = Game(puzzle).puzzle  # the puzzle alone, not the file's entries
        return self.client.check_uniqueness(bare, **self._options())

    def judge(self, game: Game) -> Judgement:
        """Validate the board: every filled cell's status."""
        r = self.client.validate(game.board(), timeout=self.timeout)
        statuses = {cell: STATUS[s] for cell, s in r.cells if s in STATUS}
        return Judgement(statuses, r.solved, tuple(f.message for f in r.board_findings))

    def check(self, game: Game) -> Check:
        """Validate against the unique solution: the entries that differ from it."""
        r = self.client.validate(game.board(), compare_with_solution=True, **self._options())
        return Check(r.wrong_entries, r.verdict)

    def hint(self, game: Game) -> Hint:
        """The next step for the board: a mistake to fix, or a logical step."""
        return self.client.hint(game.board(), **self._options())
