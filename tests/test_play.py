"""``numgrid play`` for real: textual's pilot drives the app with keys through whole
games of a small puzzle of each kind (the corpus's or ``puzzles/``'s, with its published
solution), judged by the embedded servicer and once by a real ``numgrid-server``: a
hint (its sentence and cells), a wrong entry shown wrong after a check, undo and redo
on the way, pencil marks, every cell's status from Validate, the end screen with the
time, the hints and the checks; the game file saved and resumed. Then the command
itself: its refusals, and a game in a real terminal (tmux).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import subprocess
import time
from collections import deque
from pathlib import Path

import pytest
from numgrid.client.cli_connection import connection
from numgrid.client.play.app import BoardView
from numgrid.client.play.app import EndScreen
from numgrid.client.play.app import PlayApp
from numgrid.client.play.board import STYLES
from numgrid.client.play.board import Geometry
from numgrid.client.play.board import H
from numgrid.client.play.board import View
from numgrid.client.play.board import W
from numgrid.client.play.board import draw
from numgrid.client.play.game import Game
from numgrid.client.play.referee import Referee
from numgrid.client.types import Cell
from support import PUZZLES
from support import REPO
from support.client import NUMGRID
from support.client import numgrid
from support.corpus import corpus
from textual import events

SIZE = (120, 60)


def _published(kind: str) -> tuple[str, str]:
    """A small puzzle of ``kind`` and its published solution text."""
    if kind == "kakuro":
        entry = corpus("kakuro")["92_6x6"]
        return entry["problem"], entry["solution"]
    if kind == "killer":  # the corpus text, its header marked: it fits a KenKen too
        entry = corpus("killer")["2_4x4"]
        return entry["problem"].replace("4 4\n", "4 4 K\n", 1), entry["solution"]
    name = {
        "kenken": "kenken-4x4",
        "skyscraper": "skyscraper-5x5-empty-lots",
        "kakurasu": "kakurasu-5x5",
    }[kind]
    return (PUZZLES / f"{name}.txt").read_text(), (PUZZLES / f"{name}.solution.txt").read_text()


def solution_values(kind: str, text: str) -> list[list[int]]:
    """A published solution as the kind's values: Kakurasu ``x`` shaded (1) and ``-``
    white (-1), Skyscraper's 0 an empty lot (-1), Kakuro's ``-`` no value."""
    rows = [line.split() for line in text.strip().splitlines()[1:]]
    code = {
        "kakurasu": lambda t: 1 if t == "x" else -1,
        "skyscraper": lambda t: int(t) or -1,
    }.get(kind, lambda t: 0 if t == "-" else int(t))
    return [[code(t) for t in row] for row in rows]


@pytest.fixture(scope="module")
def embedded():
    """A client of the embedded servicer, as ``numgrid`` without ``--server`` starts it."""
    with connection(None) as connect:
        yield connect()


def new_game(client, kind: str) -> tuple[Game, Referee, dict[Cell, int]]:
    problem, solution = _published(kind)
    referee = Referee(client)
    game = Game(referee.read(problem), source=f"{kind}-small")
    assert referee.uniqueness(game.puzzle).verdict == "UNIQUE"  # as `numgrid play` asks
    grid = solution_values(kind, solution)
    wanted = {cell: grid[cell[0]][cell[1]] for cell in game.layout.playable}
    return game, referee, wanted


def path_to(game: Game, target: Cell) -> list[str]:
    """The arrow keys that take the cursor to ``target`` (a scratch game finds them)."""
    scratch = Game(game.puzzle)
    start = game.cursor
    seen, queue = {start: []}, deque([start])
    while queue:
        cell = queue.popleft()
        if cell == target:
            return seen[cell]
        for direction in ("up", "down", "left", "right"):
            scratch.cursor = cell
            nxt = scratch.move_cursor(direction)
            if nxt not in seen:
                seen[nxt] = [*seen[cell], direction]
                queue.append(nxt)
    raise AssertionError(f"no way to {target}")


class Player:
    """Keys for a pilot, and what they must have done."""

    def __init__(self, app: PlayApp, pilot):
        self.app, self.pilot, self.game = app, pilot, app.game
        self.key = {value: key for key, value in self.game.layout.keys.items()}

    async def go(self, cell: Cell) -> None:
        await self.pilot.press(*path_to(self.game, cell))
        assert self.game.cursor == cell

    async def put(self, cell: Cell, value: int) -> None:
        await self.go(cell)
        await self.pilot.press(self.key[value])
        assert self.game.values[cell] == value, (cell, value, self.app.message)


def wrong_value(game: Game, right: int) -> int:
    return next(v for v in game.layout.values if v != right)


async def whole_game(client, kind: str, save: Path) -> PlayApp:
    """Play ``kind``'s small puzzle to the end with the keys; returns the app."""
    game, referee, wanted = new_game(client, kind)
    app = PlayApp(game, referee, save)
    async with app.run_test(size=SIZE) as pilot:
        p = Player(app, pilot)
        lay = game.layout
        assert app.statuses == {} and "keys:" in app.message
        # Last a cell that must be filled (Kakurasu is solved by its shaded cells alone).
        last = max(c for c in lay.playable if wanted[c] == lay.values[0])
        order = [*sorted(lay.playable - {last}), last]

        # A hint: the server's sentence on the message line, its cells highlighted.
        await pilot.press("h")
        assert game.hints == 1 and app.message.startswith("hint (")
        assert len(app.message) > 40 and app.hinted and app.hinted <= lay.playable
        assert app.query_one(BoardView).view.hinted == app.hinted

        # A wrong entry: a check marks it; undo takes it out, redo puts it back.
        first = order[0]
        await p.put(first, wrong_value(game, wanted[first]))
        assert not app.hinted  # a move ends the hint
        await pilot.press("c")
        assert game.checks == 1 and app.mistakes == {first}
        assert "1 entry differs from the solution" in app.message
        assert app.query_one(BoardView).view.mistakes == {first}
        await pilot.press("u")
        assert game.values[first] == 0 and not app.mistakes and app.message.startswith("undo")
        await pilot.press("r")
        assert game.values[first] == wanted[first] or game.values[first] != 0
        await pilot.press("u")
        assert game.values[first] == 0

        # Pencil marks, where the kind has them.
        if lay.pencil:
            await p.go(order[1])
            await pilot.press("p", p.key[lay.values[0]], p.key[lay.values[1]], "p")
            assert game.marks[order[1]] == {lay.values[0], lay.values[1]}
            assert not app.pencil_mode

        # The solution, cell by cell; undo and redo twice on the way.
        for i, cell in enumerate(order[:-1]):
            await p.put(cell, wanted[cell])
            if i == 3:
                await pilot.press("u", "u")
                assert game.values[cell] == game.values[order[i - 1]] == 0
                await pilot.press("r", "r")
                assert game.values[cell] == wanted[cell]
                assert game.values[order[i - 1]] == wanted[order[i - 1]]
        statuses = set(app.statuses.values())
        assert statuses <= {"incomplete", "right"} and "incomplete" in statuses
        assert not isinstance(app.screen, EndScreen)

        # The last cell ends the game.
        await p.put(order[-1], wanted[order[-1]])
        await pilot.pause()
        assert game.solved and isinstance(app.screen, EndScreen)
        assert set(app.statuses.values()) == {"right"}
        end = str(app.screen.query_one("#end").render())
        assert "Solved!" in end and "hints   1" in end and "checks  1" in end
        assert f"saved to {save}" in end
        await pilot.press("q")
    return app


def test_a_cage_board_draws_its_boxes_and_an_x_board_shades_its_diagonals(embedded):
    game, _, _ = new_game(embedded, "killer")  # a 4x4: boxes of 2x2 under its cages
    text = draw(game, View({}))
    geo = Geometry(game.layout)
    lines = text.plain.splitlines()
    middle = lines[geo.head + 2 * (H + 1)]  # the wall line between rows 1 and 2
    assert middle.strip() == "├" + "─" * W + "┼" + "─" * W + "┼" + "─" * W + "┼" + "─" * W + "┤"
    offset = sum(len(line) + 1 for line in lines[: geo.head + 2 * (H + 1)])
    styles = {str(span.style) for span in text.spans if span.start == offset + 1}
    assert styles == {STYLES["outer"]}
    x = "3x3x:l8a4b9b2b1b7_2a5e3_6a9c4a2_4e8a6_1b9b5b8b2a5l"  # sgt-solo's, X
    crossed = Game(Referee(embedded).read(x))
    assert crossed.layout.shaded == {(i, i) for i in range(9)} | {(i, 8 - i) for i in range(9)}
    assert crossed.layout.note.startswith("X: ")


def test_a_16x16_takes_a_to_g_for_10_to_16_and_k_checks(embedded):
    """The letters the help line promises enter 10-16 (c too: C is 12 there), and ``k``
    checks; where C is no value (a KenKen), ``c`` checks as ``k`` does."""

    async def go(problem: str, source: str):
        referee = Referee(embedded)
        game = Game(referee.read(problem), source=source)
        app = PlayApp(game, referee)
        async with app.run_test(size=SIZE) as pilot:
            p = Player(app, pilot)
            open_cells = sorted(game.layout.playable)
            if len(game.layout.values) == 16:
                assert "1-9 enter a digit; a-g enter 10-16;" in app.message  # the help line
                for cell, key in zip(open_cells, "abcdefg", strict=False):
                    await p.go(cell)
                    await pilot.press(key)
                    assert game.values[cell] == "abcdefg".index(key) + 10, app.message
                assert game.checks == 0
                # typed fast: a letter and an arrow in one burst, taken in that order
                cell = next(c for c in open_cells[7:] if (c[0], c[1] + 1) in open_cells[7:])
                await p.go(cell)
                app.post_message(events.Key("g", "g"))
                app.post_message(events.Key("right", None))
                await pilot.pause()
                await pilot.pause()
                assert game.values[cell] == 16 and game.values[(cell[0], cell[1] + 1)] == 0
            await pilot.press("k")
            assert game.checks == 1
            assert re.match(
                r"check: (\d+ entries differ|1 entry differs|all \d+ entries agree)", app.message
            )
            await pilot.press("c")
            await pilot.press("q")
        return app

    sixteen = next(e["problem"] for e in corpus("sudoku").values() if e["problem"][:2] == "16")
    app = asyncio.run(go(sixteen, "sixteen"))
    assert app.game.checks == 1  # c entered a C
    app = asyncio.run(go(_published("kenken")[0], "kenken"))
    assert app.game.checks == 2


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["kakuro", "kenken", "skyscraper", "kakurasu", "killer"])
def test_a_whole_game_of_each_kind(embedded, kind, tmp_path):
    save = tmp_path / "game.json"
    app = asyncio.run(whole_game(embedded, kind, save))
    outcome = app.return_value
    assert outcome.solved and (outcome.hints, outcome.checks) == (1, 1)
    assert outcome.saved == save
    assert re.fullmatch(r"solved in \d+:\d\d with 1 hint, 1 check and \d+ moves", outcome.summary())
    saved = Game.load(save)
    assert saved.solved and saved.hints == 1 and saved.checks == 1
    assert saved.grid() == app.game.grid()


def test_a_whole_game_against_a_real_server(server_process, tmp_path):
    with connection(server_process.target) as connect:
        mark = server_process.log_mark()
        app = asyncio.run(whole_game(connect(), "kenken", tmp_path / "game.json"))
    assert app.return_value.solved
    log = server_process.log_since(mark)
    calls = {rpc: sum(rpc in line for line in log) for rpc in ("CheckUniqueness", "Hint")}
    assert calls == {"CheckUniqueness": 1, "Hint": 1}, log
    assert sum("Validate" in line for line in log) > app.return_value.moves  # one a move


def test_statuses_duplicate_wrong_right_and_the_legend(embedded):
    """Seed 003's statuses, from Validate after each key."""

    async def go():
        game, referee, wanted = new_game(embedded, "kenken")
        app = PlayApp(game, referee)
        async with app.run_test(size=SIZE) as pilot:
            p = Player(app, pilot)
            await p.put((0, 0), 1)  # cage "3" in one cell, complete and not 3
            assert app.statuses == {(0, 0): "wrong"}
            await p.put((1, 0), 1)  # the same digit twice in column 0
            assert app.statuses[(0, 0)] == app.statuses[(1, 0)] == "duplicate"
            await pilot.press("backspace")
            assert app.statuses == {(0, 0): "wrong"} and game.values[(1, 0)] == 0
            await p.put((0, 0), 3)
            assert app.statuses == {(0, 0): "incomplete"}
            for c in range(4):  # row 3, and column 3: r3c3's groups complete
                await p.put((3, c), wanted[(3, c)])
            for r in range(3):
                await p.put((r, 3), wanted[(r, 3)])
            assert app.statuses[(3, 3)] == "right" and app.statuses[(3, 2)] == "incomplete"
            status = str(app.query_one("#status").render())
            for words in ("right", "incomplete", "duplicate", "wrong", "hint"):
                assert words in status
            assert "moves 11" in status and "filled 8/16" in status
            await pilot.press("7")
            assert app.message.startswith("7 is not a value of this puzzle (1, 2, 3, 4)")
            await pilot.press("q")
        return app

    app = asyncio.run(go())
    assert not app.return_value.solved and app.return_value.saved is None


@pytest.mark.slow
def test_mouse_kakurasu_toggle_and_the_end_screen_back_to_the_board(embedded, tmp_path):
    async def go():
        game, referee, wanted = new_game(embedded, "kakurasu")
        app = PlayApp(game, referee, tmp_path / "g.json")
        async with app.run_test(size=SIZE) as pilot:
            assert app.message == "keys: x shaded; - white; space steps through the values"
            view = app.query_one(BoardView)
            x, y = view.geometry.origin((2, 3))
            await pilot.click(BoardView, offset=(x + 2, y + 1))
            assert game.cursor == (2, 3)
            await pilot.press("space")  # open -> shaded
            assert game.values[(2, 3)] == 1
            assert app.statuses[(2, 3)] == "incomplete"
            await pilot.press("space")  # -> white: column 3 can no longer make 13
            assert game.values[(2, 3)] == -1 and app.statuses[(2, 3)] == "wrong"
            await pilot.press("space")  # -> open
            assert game.values[(2, 3)] == 0 and (2, 3) not in app.statuses
            await pilot.press("p")
            assert "no pencil marks" in app.message and not app.pencil_mode
            # Kakurasu is solved by its shaded cells alone.
            for cell in sorted(c for c, v in wanted.items() if v == 1):
                await pilot.click(BoardView, offset=view.geometry.origin(cell))
                await pilot.press("x")
            await pilot.pause()
            assert isinstance(app.screen, EndScreen)
            await pilot.press("b")  # back to look at the board: no more moves
            assert not isinstance(app.screen, EndScreen)
            await pilot.press("u")
            assert game.solved and game.moves == len([v for v in wanted.values() if v == 1]) + 3
            await pilot.press("q")
        return app

    app = asyncio.run(go())
    assert app.return_value.solved and Game.load(tmp_path / "g.json").solved


def test_save_quit_and_resume_the_game(embedded, tmp_path):
    """``s`` saves; quitting saves; the resumed game has its entries, marks, history,
    counters and time."""
    save = tmp_path / "kenken.game.json"

    async def first():
        game, referee, _ = new_game(embedded, "kenken")
        app = PlayApp(game, referee, save)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("3", "right", "4", "p", "1", "2", "p", "down", "h")
            assert game.cursor == min(app.hinted)  # the hint takes the cursor to its cells
            await pilot.press("s")
            assert app.message == f"saved to {save}" and save.exists()
            await pilot.press("c", *path_to(game, (0, 1)), "2", "u")
            await pilot.press("q")
        return app

    app = asyncio.run(first())
    assert app.return_value.saved == save and not app.return_value.solved
    data = json.loads(save.read_text())
    assert data["values"] == {"r0c0": 3, "r0c1": 4} and data["marks"] == {"r0c1": [1, 2]}
    assert (data["hints"], data["checks"]) == (1, 1) and len(data["undone"]) == 1

    async def second():
        game = Game.load(save)
        referee = Referee(embedded)
        app = PlayApp(game, referee, save)
        async with app.run_test(size=SIZE) as pilot:
            assert app.statuses == {(0, 0): "incomplete", (0, 1): "incomplete"}
            await pilot.press("r")  # the move undone before quitting
            assert game.values[(0, 1)] == 2
            await pilot.press("u", "u", "u", "u", "u", "u")
            assert not any(game.values.values()) and not game.marks
            assert (game.hints, game.checks) == (1, 1)
            await pilot.press("q")
        return app

    app = asyncio.run(second())
    assert Game.load(save).moves == 0


# ---------------------------------------------------------------- the command


def test_play_refusals(tmp_path):
    done = numgrid("play", "puzzles/multiple-4x4.txt")
    assert done.returncode == 1 and "MULTIPLE" in done.stdout and "exactly one" in done.stdout
    done = numgrid("play", "puzzles/Game03.csv")
    assert done.returncode == 1 and "INVALID" in done.stdout and "r11c2" in done.stdout
    done = numgrid("play", "puzzles/kenken-4x4.txt")  # no terminal here
    assert done.returncode == 2 and "play needs a terminal" in done.stderr
    done = numgrid("play")
    assert done.returncode == 2 and "give FILE or --resume" in done.stderr
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    done = numgrid("play", "--resume", str(bad))
    assert done.returncode == 2 and "not a numgrid game file" in done.stderr
    assert "Traceback" not in done.stderr
    done = numgrid("play", "puzzles/nope.txt")
    assert done.returncode == 2 and "cannot read puzzles/nope.txt" in done.stderr


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_play_in_a_real_terminal(tmp_path):
    """The console script in tmux: the board appears, keys play, q saves and says so,
    and --resume goes on from there."""
    session = f"numgrid-play-{os.getpid()}"
    save = tmp_path / "g.json"
    shell = f"{NUMGRID} play --save {save} puzzles/kenken-4x4.txt; echo EXIT=$?; sleep 60"
    tmux = ["tmux", "-L", session]
    window = ["-x", "120", "-y", "50", "-c", str(REPO)]
    subprocess.run(
        [*tmux, "new-session", "-d", "-s", session, *window, "sh", "-c", shell],
        check=True,
        env={**os.environ, "TERM": "xterm-256color"},
    )

    def screen() -> str:
        return subprocess.run(
            [*tmux, "capture-pane", "-p", "-J", "-t", session], capture_output=True, text=True
        ).stdout

    def wait_for(text: str, timeout: float = 30) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            shown = screen()
            if text in shown:
                return shown
            time.sleep(0.2)
        raise AssertionError(f"{text!r} never shown:\n{screen()}")

    try:
        shown = wait_for("16x")
        assert "keys: 1-4 enter a digit" in shown
        # Typed at once: played in that order.
        subprocess.run([*tmux, "send-keys", "-t", session, "3", "Right", "4"], check=True)
        wait_for("r0c1 = 4")
        subprocess.run([*tmux, "send-keys", "-t", session, "u"], check=True)
        wait_for("undo r0c1 = 4")
        subprocess.run([*tmux, "send-keys", "-t", session, "q"], check=True)
        shown = wait_for("EXIT=")
        assert "EXIT=0" in shown and "left after" in shown and f"play --resume {save}" in shown
        assert json.loads(save.read_text())["values"] == {"r0c0": 3}
    finally:
        subprocess.run([*tmux, "kill-server"], check=False)


def test_a_game_resumed_solved_goes_to_the_end_screen(embedded, tmp_path):
    game, referee, wanted = new_game(embedded, "skyscraper")
    game.values.update(wanted)
    game.hints, game.elapsed = 2, 75.0
    game.save(tmp_path / "g.json")

    async def go():
        app = PlayApp(Game.load(tmp_path / "g.json"), referee, tmp_path / "g.json")
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, EndScreen) and app.game.solved
            end = str(app.screen.query_one("#end").render())
            assert "time    1:15" in end and "hints   2" in end and "checks  0" in end
            await pilot.press("1")  # the game is over: no more moves
            assert app.game.values == game.values
            await pilot.press("q")
        return app

    app = asyncio.run(go())
    assert app.return_value.summary() == "solved in 1:15 with 2 hints, 0 checks and 0 moves"
