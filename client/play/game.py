"""A game in progress, without a screen or a server: the board, the player's entries
and pencil marks, the cursor, the undo/redo history of every move, the counters (time,
hints, checks) and the game file (JSON) that saves and resumes it.

Every kind is played through its :class:`~numgrid.client.kinds.cells.Layout`: which
cells are played and with what values (digits, or a kind's own codes: an empty lot,
a shaded or white cell). Nothing here judges the board: that is the server's (Validate, Hint;
see :mod:`.referee`).
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path

from google.protobuf import json_format
from numgrid.v1 import puzzle_pb2

from ..kinds.cells import Layout
from ..render import entries
from ..render import layout
from ..render import with_entries
from ..types import Cell
from ..types import Grid
from ..types import cell_name
from ..types import parse_cell

FORMAT = "numgrid-game"  # the game file's "format" key
VERSION = 1
DIRECTIONS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}


class GameFileError(Exception):
    """A game file that cannot be resumed: its message says why, in one sentence."""


@dataclass(frozen=True)
class Change:
    """One cell's value and pencil marks before and after a move."""

    cell: Cell
    before: int
    after: int
    marks_before: frozenset[int] = frozenset()
    marks_after: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Move:
    """What one key did to the board, undone and redone as one."""

    what: str  # in words: "r1c2 = 7", "r1c2: pencil 3", "r1c2 cleared"
    changes: tuple[Change, ...]


@dataclass
class Game:
    """A puzzle being played. ``puzzle`` is the structured puzzle as the server read it,
    without the player's entries (those are ``values``, the starting ones included)."""

    puzzle: puzzle_pb2.Puzzle
    source: str = ""
    values: dict[Cell, int] = field(default_factory=dict)
    marks: dict[Cell, frozenset[int]] = field(default_factory=dict)
    cursor: Cell | None = None
    done: list[Move] = field(default_factory=list)  # the undo history, oldest first
    undone: list[Move] = field(default_factory=list)  # the redo history, next last
    elapsed: float = 0.0  # seconds played
    hints: int = 0
    checks: int = 0
    solved: bool = False

    def __post_init__(self) -> None:
        self.layout: Layout = layout(self.puzzle)
        self.kind: str = self.puzzle.WhichOneof("kind") or ""
        start = entries(self.puzzle)  # a file's own entries are the player's to change
        self.puzzle = with_entries(self.puzzle, tuple((0,) * len(row) for row in start))
        for cell in self.layout.playable:
            r, c = cell
            self.values.setdefault(cell, start[r][c] if start[r][c] in self.layout.values else 0)
        if self.cursor not in self.layout.playable:
            self.cursor = min(self.layout.playable, default=None)

    # ------------------------------------------------------------ the board

    def value(self, cell: Cell) -> int:
        """What stands in a cell: the player's value, a given, or 0."""
        return self.values.get(cell) or self.layout.givens.get(cell, 0)

    def grid(self) -> Grid:
        """The board as the kind's grid (givens included), for the server."""
        lay = self.layout
        return tuple(tuple(self.value((r, c)) for c in range(lay.columns)) for r in range(lay.rows))

    def board(self) -> puzzle_pb2.Puzzle:
        """The puzzle with the player's entries, as the server judges it."""
        return with_entries(self.puzzle, self.grid())

    @property
    def moves(self) -> int:
        return len(self.done)

    def filled(self) -> int:
        return sum(1 for v in self.values.values() if v)

    # ------------------------------------------------------------ the cursor

    def move_cursor(self, direction: str) -> Cell | None:
        """To the next playable cell that way (clue and given cells are stepped over);
        it stays at the edge."""
        dr, dc = DIRECTIONS[direction]
        if self.cursor is None:
            return None
        r, c = self.cursor
        while True:
            r, c = r + dr, c + dc
            if not (0 <= r < self.layout.rows and 0 <= c < self.layout.columns):
                return self.cursor
            if (r, c) in self.layout.playable:
                self.cursor = (r, c)
                return self.cursor

    def go(self, cell: Cell) -> bool:
        """Put the cursor on ``cell`` if it is played."""
        if cell in self.layout.playable:
            self.cursor = cell
            return True
        return False

    # ------------------------------------------------------------ moves

    def _apply(self, move: Move, forward: bool) -> Move:
        for ch in move.changes:
            value, marks = (ch.after, ch.marks_after) if forward else (ch.before, ch.marks_before)
            self.values[ch.cell] = value
            if marks:
                self.marks[ch.cell] = marks
            else:
                self.marks.pop(ch.cell, None)
        self.cursor = move.changes[-1].cell
        return move

    def _play(self, what: str, changes: list[Change]) -> Move | None:
        changes = [
            ch for ch in changes if (ch.before, ch.marks_before) != (ch.after, ch.marks_after)
        ]
        if not changes:
            return None
        move = self._apply(Move(what, tuple(changes)), True)
        self.done.append(move)
        self.undone.clear()
        return move

    def _change(self, cell: Cell, value: int, marks: frozenset[int] | None = None) -> Change:
        old = self.marks.get(cell, frozenset())
        return Change(cell, self.values[cell], value, old, old if marks is None else marks)

    def _target(self, cell: Cell | None) -> Cell:
        cell = self.cursor if cell is None else cell
        if cell not in self.layout.playable:
            raise ValueError(f"{cell_name(cell) if cell else 'no cell'} is not played")
        return cell

    def enter(self, value: int, cell: Cell | None = None) -> Move | None:
        """Put ``value`` (one of the layout's values) in the cursor's cell; the same
        value again takes it out. None when nothing changed."""
        cell = self._target(cell)
        if value not in self.layout.values:
            raise ValueError(f"{value} is not a value of this puzzle")
        if self.values[cell] == value:
            return self.clear(cell)
        return self._play(
            f"{cell_name(cell)} = {self.layout.symbols[value]}", [self._change(cell, value)]
        )

    def cycle(self, cell: Cell | None = None) -> Move | None:
        """Step the cell through the values and back to open (e.g. shaded, white)."""
        cell = self._target(cell)
        order = (*self.layout.values, 0)
        current = self.values[cell]
        nxt = order[(order.index(current) + 1) % len(order)] if current in order else 0
        return self.clear(cell) if nxt == 0 else self.enter(nxt, cell)

    def clear(self, cell: Cell | None = None) -> Move | None:
        """Take the value out; an open cell loses its pencil marks instead."""
        cell = self._target(cell)
        if self.values[cell]:
            return self._play(f"{cell_name(cell)} cleared", [self._change(cell, 0)])
        return self._play(
            f"{cell_name(cell)}: pencil marks cleared", [self._change(cell, 0, frozenset())]
        )

    def pencil(self, value: int, cell: Cell | None = None) -> Move | None:
        """Toggle the pencil mark ``value`` in the cell."""
        cell = self._target(cell)
        if not self.layout.pencil:
            raise ValueError("this puzzle has no pencil marks")
        if value not in self.layout.values:
            raise ValueError(f"{value} is not a value of this puzzle")
        marks = self.marks.get(cell, frozenset()) ^ {value}
        sign = "+" if value in marks else "-"
        symbol = self.layout.symbols[value]
        return self._play(
            f"{cell_name(cell)}: pencil {sign}{symbol}",
            [self._change(cell, self.values[cell], marks)],
        )

    def undo(self) -> Move | None:
        return self._replay(self.done, self.undone, False)

    def redo(self) -> Move | None:
        return self._replay(self.undone, self.done, True)

    def _replay(self, source: list[Move], target: list[Move], forward: bool) -> Move | None:
        """The last move of ``source`` undone (or done again, ``forward``), kept in
        ``target``; None when there is none."""
        if not source:
            return None
        move = self._apply(source.pop(), forward)
        target.append(move)
        return move

    # ------------------------------------------------------------ the game file

    def to_json(self) -> dict:
        def cells(d: dict) -> dict:
            return {cell_name(cell): v for cell, v in sorted(d.items())}

        return {
            "format": FORMAT,
            "version": VERSION,
            "source": self.source,
            "kind": self.kind,
            "puzzle": json_format.MessageToDict(self.puzzle),
            "values": cells({c: v for c, v in self.values.items() if v}),
            "marks": cells({c: sorted(m) for c, m in self.marks.items() if m}),
            "cursor": list(self.cursor) if self.cursor else None,
            "done": [_move_json(m) for m in self.done],
            "undone": [_move_json(m) for m in self.undone],
            "elapsed": round(self.elapsed, 3),
            "hints": self.hints,
            "checks": self.checks,
            "solved": self.solved,
        }

    @classmethod
    def from_json(cls, data: dict) -> Game:
        """The game a file saved; GameFileError if it is no numgrid game or is damaged."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise GameFileError(f'not a numgrid game file (no "format": "{FORMAT}")')
        if data.get("version") != VERSION:
            raise GameFileError(f"game file version {data.get('version')!r}, not {VERSION}")
        try:
            puzzle = json_format.ParseDict(data["puzzle"], puzzle_pb2.Puzzle())
            if not puzzle.WhichOneof("kind"):
                raise GameFileError("the game file's puzzle is empty")
            game = cls(puzzle, source=str(data.get("source", "")))
            lay = game.layout

            def cell(name: str) -> Cell:
                found = parse_cell(name)
                if found is None or found not in lay.playable:
                    raise GameFileError(f"{name!r} is not a cell played in this puzzle")
                return found

            def value(v) -> int:
                if v != 0 and v not in lay.values:
                    raise GameFileError(f"{v!r} is not a value of this puzzle")
                return int(v)

            for name, v in data.get("values", {}).items():
                game.values[cell(name)] = value(v)
            for name, ms in data.get("marks", {}).items():
                game.marks[cell(name)] = frozenset(value(v) for v in ms)
            game.done = [_move_from(m, cell, value) for m in data.get("done", [])]
            game.undone = [_move_from(m, cell, value) for m in data.get("undone", [])]
            if data.get("cursor"):
                game.go(tuple(data["cursor"]))
            game.elapsed = float(data.get("elapsed", 0.0))
            game.hints = int(data.get("hints", 0))
            game.checks = int(data.get("checks", 0))
            game.solved = bool(data.get("solved", False))
        except GameFileError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise GameFileError(f"the game file is damaged: {type(e).__name__}: {e}") from None
        except json_format.ParseError as e:
            raise GameFileError(f"the game file's puzzle cannot be read: {e}") from None
        return game

    def save(self, path: str | os.PathLike) -> None:
        """Write the game file (atomically: a crash never leaves half a file)."""
        path = Path(path)
        text = json.dumps(self.to_json(), indent=1) + "\n"
        fd, tmp = tempfile.mkstemp(dir=path.parent or ".", prefix=f".{path.name}.")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    @classmethod
    def load(cls, path: str | os.PathLike) -> Game:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except OSError as e:
            raise GameFileError(f"cannot read it: {e.strerror or e}") from None
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            raise GameFileError(f"not JSON: {e}") from None
        return cls.from_json(data)


def _move_json(move: Move) -> dict:
    return {
        "what": move.what,
        "changes": [
            [
                cell_name(ch.cell),
                ch.before,
                ch.after,
                sorted(ch.marks_before),
                sorted(ch.marks_after),
            ]
            for ch in move.changes
        ],
    }


def _move_from(data: dict, cell, value) -> Move:
    changes = tuple(
        Change(
            cell(name),
            value(before),
            value(after),
            frozenset(value(v) for v in marks_before),
            frozenset(value(v) for v in marks_after),
        )
        for name, before, after, marks_before, marks_after in data["changes"]
    )
    if not changes:
        raise GameFileError("a move in the game file changes nothing")
    return Move(str(data.get("what", "")), changes)
