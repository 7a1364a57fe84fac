"""``numgrid play``: the full-screen game (textual).

The screen shows the board (:mod:`.board`), a message line (the hint's sentence, the
check's finding, what a key did), a status line (time, moves, hints, checks, pencil
mode, the colours) and the keys in the footer. Every move is judged by the server at
once (Validate: each cell's status); ``h`` asks it for a hint (its cells highlighted),
``c`` checks the entries against the unique solution. When the board is solved the
end screen shows the time, the hints and the checks used.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar
from typing import TypeVar
from typing import cast

from rich.text import Text
from textual import events
from textual.app import App
from textual.app import ComposeResult
from textual.binding import Binding
from textual.binding import BindingType
from textual.containers import ScrollableContainer
from textual.containers import Vertical
from textual.geometry import Region
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets import Header
from textual.widgets import Static

from ..types import Cell
from ..types import NumgridError
from ..types import cell_name
from ..types import plural
from . import board
from .game import Game
from .referee import Referee

T = TypeVar("T")


def clock(seconds: float) -> str:
    """``m:ss``, or ``h:mm:ss`` past an hour."""
    seconds = int(seconds)
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


@dataclass(frozen=True)
class Outcome:
    """How the game ended: solved or left, and where it was saved (None: not saved)."""

    solved: bool
    elapsed: float
    hints: int
    checks: int
    moves: int
    saved: Path | None

    def summary(self) -> str:
        used = f"{plural(self.hints, 'hint')}, {plural(self.checks, 'check')}"
        if self.solved:
            return f"solved in {clock(self.elapsed)} with {used} and {plural(self.moves, 'move')}"
        return f"left after {clock(self.elapsed)} ({used}, {plural(self.moves, 'move')})"


class BoardView(Widget):
    """The board; a click puts the cursor on a cell."""

    def __init__(self, game: Game, **kwargs):
        super().__init__(**kwargs)
        self.game = game
        self.view = board.View({})
        self.geometry = board.Geometry(game.layout)

    def on_mount(self) -> None:
        self.styles.width = self.geometry.width
        self.styles.height = self.geometry.height

    def render(self) -> Text:
        return board.draw(self.game, self.view)

    def on_click(self, event: events.Click) -> None:
        cell = self.geometry.cell_at(event.x, event.y)
        if cell is not None:
            cast("PlayApp", self.app).select(cell)


class EndScreen(ModalScreen[None]):
    """The end: solved, the time, the hints and checks used."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q,enter,escape", "app.quit_game", "quit"),
        Binding("b", "dismiss", "look at the board"),
    ]
    CSS = """
    EndScreen { align: center middle; }
    #end { width: auto; height: auto; padding: 1 4; border: heavy $success; }
    """

    def __init__(self, text: str):
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        yield Static(self.text, id="end")
        yield Footer()


class PlayApp(App[Outcome]):
    """One game of ``game``, judged by ``referee``; saved to ``save_path`` on ``s``, on
    quitting and at the end."""

    TITLE = "numgrid play"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    #scroll { height: 1fr; }
    #message { height: auto; max-height: 8; padding: 0 1; }
    #status { height: auto; padding: 0 1; background: $boost; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        # Every key is a priority binding: handled as it comes, in the order typed.
        # 1-9, then a-g for 10-16 (c below: it also checks); on the end screen a letter
        # is the screen's own (check_action)
        *(
            Binding(k, f"value('{k}')", "value", show=False, priority=True)
            for k in "123456789abdefg"
        ),
        Binding("x", "value('x')", "value", show=False, priority=True),
        Binding("minus", "value('-')", "value", show=False, priority=True),
        Binding("up", "move('up')", "move", show=False, priority=True),
        Binding("down", "move('down')", "move", show=False, priority=True),
        Binding("left", "move('left')", "move", show=False, priority=True),
        Binding("right", "move('right')", "move", show=False, priority=True),
        Binding("space", "cycle", "next value", priority=True),
        Binding("backspace,delete,0", "clear", "clear", priority=True),
        Binding("p", "pencil", "pencil", priority=True),
        Binding("u,ctrl+z", "undo", "undo", priority=True),
        Binding("r,ctrl+y", "redo", "redo", priority=True),
        Binding("h", "hint", "hint", priority=True),
        Binding("k", "check", "check", priority=True),
        Binding("c", "value_or_check", "check", show=False, priority=True),
        Binding("s", "save", "save", priority=True),
        Binding("q", "quit_game", "quit", priority=True),
    ]

    def __init__(self, game: Game, referee: Referee, save_path: str | Path | None = None):
        super().__init__()
        self.game = game
        self.referee = referee
        self.save_path = Path(save_path) if save_path else None
        self.pencil_mode = False
        self.statuses: dict[Cell, str] = {}
        self.mistakes: set[Cell] = set()
        self.hinted: set[Cell] = set()
        self.message = ""
        self.changes = 0  # moves, hints and checks made on this screen
        self.saved_at = 0  # self.changes when last saved
        self.saved: Path | None = None  # where the game was last saved
        self._base = game.elapsed
        self._started: float | None = None
        self._timer: Timer | None = None

    # ------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical():
            with ScrollableContainer(id="scroll", can_focus=False):
                yield BoardView(self.game, id="board")
            yield Static(id="message")
            yield Static(id="status")
        yield Footer()

    def on_mount(self) -> None:
        name = Path(self.game.source).name if self.game.source else "puzzle"
        self.sub_title = f"{name} ({self.game.kind})"
        self._started = time.monotonic()
        self.judge()
        if self.game.solved:
            self.finish()
        else:
            self.say(self._keys_help())
            self._timer = self.set_interval(1.0, self.refresh_status)

    def _keys_help(self) -> str:
        lay = self.game.layout
        digits = [key for key in lay.keys if key.isdigit()]
        parts = [f"{digits[0]}-{digits[-1]} enter a digit"] if digits else []
        past_nine = [key for key, value in lay.keys.items() if not key.isdigit() and value > 9]
        if past_nine:  # a 16x16's letters
            first, last = past_nine[0], past_nine[-1]
            parts.append(f"{first}-{last} enter {lay.keys[first]}-{lay.keys[last]}")
        parts += [
            f"{key} {lay.names.get(value, lay.symbols[value])}"
            for key, value in lay.keys.items()
            if not key.isdigit() and key not in past_nine
        ]
        parts.append("space steps through the values")
        if lay.pencil:
            parts.append("p pencil marks")
        return "keys: " + "; ".join(parts)

    # ------------------------------------------------------------ showing

    @property
    def elapsed(self) -> float:
        if self._started is None or self.game.solved:
            return self.game.elapsed
        return self._base + time.monotonic() - self._started

    def say(self, text: str) -> None:
        self.message = text
        self.query_one("#message", Static).update(text)

    def refresh_board(self) -> None:
        view = self.query_one(BoardView)
        view.view = board.View(self.statuses, frozenset(self.mistakes), frozenset(self.hinted))
        view.refresh()
        self.refresh_status()
        cursor = self.game.cursor
        if cursor is not None:
            x, y = view.geometry.origin(cursor)
            self.query_one("#scroll").scroll_to_region(
                Region(x - 1, y - 1, board.W + 2, board.H + 2), animate=False
            )

    def refresh_status(self) -> None:
        g = self.game
        status = Text()
        status.append(
            f"time {clock(self.elapsed)} · moves {g.moves} · hints {g.hints} · checks "
            f"{g.checks} · filled {g.filled()}/{len(g.layout.playable)}"
        )
        if g.cursor is not None:
            status.append(f" · {cell_name(g.cursor)}")
        if self.pencil_mode:
            status.append(" · PENCIL", "bold yellow")
        status.append("\n")
        for key, words in board.LEGEND:
            status.append(f" {words} ", board.STYLES[key] or "")
            status.append(" ")
        self.query_one("#status", Static).update(status)

    # ------------------------------------------------------------ the server

    def _ask(self, call, *args):
        """A call to the server; its failure is said on the message line, not raised."""
        try:
            return call(*args)
        except NumgridError as e:
            self.say(f"the server failed: {e.code}: {e.message}")
            return None

    def _consult(self, call: Callable[[Game], T]) -> T | None:
        """The referee's answer about the game (counted as a change), or None when the
        game is solved or the call failed."""
        if self.game.solved:
            return None
        answer = self._ask(call, self.game)
        if answer is not None:
            self.changes += 1
        return answer

    def judge(self) -> None:
        """Each cell's status, from Validate; the end when the board is solved."""
        judgement = self._ask(self.referee.judge, self.game)
        if judgement is not None:
            self.statuses = dict(judgement.statuses)
            if judgement.solved and not self.game.solved:
                self.game.elapsed = self.elapsed
                self.game.solved = True
        self.refresh_board()

    # ------------------------------------------------------------ moves

    def played(self, move, verb: str = "") -> None:
        if move is None:
            self.say("nothing to change" if not verb else f"nothing to {verb}")
            self.refresh_board()
            return
        self.changes += 1
        for change in move.changes:
            self.mistakes.discard(change.cell)
        self.hinted.clear()
        self.say(f"{verb} {move.what}".strip())
        self.judge()
        if self.game.solved:
            self.finish()

    def _playing(self) -> bool:
        return not self.game.solved and self.game.cursor is not None

    def action_value(self, key: str) -> None:
        """A value key: a digit, or a kind's own (x for an empty lot or a shaded cell,
        - for a white one)."""
        if not self._playing():
            return
        lay = self.game.layout
        if key in lay.keys:
            value = lay.keys[key]
            if self.pencil_mode and lay.pencil:
                self.played(self.game.pencil(value))
            else:
                self.played(self.game.enter(value))
        else:
            allowed = ", ".join(lay.symbols[v] for v in lay.values)
            self.say(f"{key} is not a value of this puzzle ({allowed})")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The value keys are the board's: on the end screen they go to the screen (its
        ``b`` goes back to the board)."""
        return not (action in ("value", "value_or_check") and isinstance(self.screen, EndScreen))

    def action_value_or_check(self) -> None:
        """``c``: the value C (12) where the puzzle has one, else a check (as ``k``)."""
        if "c" in self.game.layout.keys:
            self.action_value("c")
        else:
            self.action_check()

    def select(self, cell: Cell) -> None:
        if self._playing() and self.game.go(cell):
            self.refresh_board()

    def action_move(self, direction: str) -> None:
        if self._playing():
            self.game.move_cursor(direction)
            self.refresh_board()

    def action_cycle(self) -> None:
        if self._playing():
            self.played(self.game.cycle())

    def action_clear(self) -> None:
        if self._playing():
            self.played(self.game.clear())

    def action_pencil(self) -> None:
        if not self.game.layout.pencil:
            self.say("no pencil marks in this puzzle: each cell is shaded or white")
            return
        self.pencil_mode = not self.pencil_mode
        state = "on: the value keys toggle marks" if self.pencil_mode else "off"
        self.say(f"pencil marks {state}")
        self.refresh_status()

    def action_undo(self) -> None:
        if not self.game.solved:
            self.played(self.game.undo(), "undo")

    def action_redo(self) -> None:
        if not self.game.solved:
            self.played(self.game.redo(), "redo")

    # ------------------------------------------------------------ hint, check, save

    def action_hint(self) -> None:
        hint = self._consult(self.referee.hint)
        if hint is None:
            return
        self.game.hints += 1
        if hint.kind == "STEP" and hint.step is not None:
            lead = hint.step.technique.lower().replace("_", " ")
        else:
            lead = {"MISTAKE": "mistake", "NO_STEP": "no logical step"}.get(hint.kind, "hint")
        self.hinted = set(hint.cells) or {cell for cell, _ in hint.placements}
        if not hint.kind:
            self.say("hint: the server ran out of time")
        else:
            self.say(f"hint ({lead}): {hint.explanation}")
        if self.hinted:
            self.game.go(min(self.hinted))
        self.refresh_board()

    def action_check(self) -> None:
        check = self._consult(self.referee.check)
        if check is None:
            return
        self.game.checks += 1
        if check.verdict != "UNIQUE":
            self.say(f"check: no unique solution to compare with ({check.verdict})")
        elif check.wrong:
            self.mistakes = set(check.wrong)
            cells = " ".join(cell_name(c) for c in check.wrong)
            self.say(
                f"check: {plural(len(check.wrong), 'entry', 'entries')} differ from the solution: "
                f"{cells}"
                if len(check.wrong) > 1
                else f"check: 1 entry differs from the solution: {cells}"
            )
        else:
            g = self.game
            self.say(
                f"check: all {g.filled()} entries agree with the solution "
                f"({len(g.layout.playable) - g.filled()} cells to go)"
            )
        self.refresh_board()

    def save(self) -> Path | None:
        if self.save_path is None:
            return None
        if not self.game.solved:
            self.game.elapsed = self.elapsed
        self.game.save(self.save_path)
        self.saved_at, self.saved = self.changes, self.save_path
        return self.save_path

    def action_save(self) -> None:
        try:
            path = self.save()
        except OSError as e:
            self.say(f"cannot save: {e.strerror or e}")
            return
        self.say(f"saved to {path}" if path else "no game file to save to (--save FILE)")

    def action_quit_game(self) -> None:
        """Leave, saving the game first if it changed (and there is a file for it)."""
        if self.save_path is not None and self.saved_at != self.changes:
            try:
                self.save()
            except OSError as e:
                self.say(f"cannot save: {e.strerror or e}")
                return
        g = self.game
        self.exit(Outcome(g.solved, self.elapsed, g.hints, g.checks, g.moves, self.saved))

    async def action_quit(self) -> None:  # ctrl+q, textual's own quit key
        self.action_quit_game()

    def finish(self) -> None:
        """The end screen."""
        if self._timer is not None:
            self._timer.stop()
        g = self.game
        lines = [
            "Solved!",
            "",
            f"time    {clock(g.elapsed)}",
            f"hints   {g.hints}",
            f"checks  {g.checks}",
            f"moves   {g.moves}",
        ]
        try:
            saved = self.save()
        except OSError:
            saved = None
        if saved:
            lines += ["", f"saved to {saved}"]
        self.say("solved: " + Outcome(True, g.elapsed, g.hints, g.checks, g.moves, None).summary())
        self.refresh_board()
        self.push_screen(EndScreen("\n".join(lines)))
