"""``numgrid play``'s game state without a screen or a server: every kind's layout, the
moves (values, pencil marks, Kakurasu's shading, Skyscraper's empty lots), undo/redo,
the cursor, the game file's round trip and its refusals, and the board as drawn.

Puzzles are read by the server's own reader (no server runs: ``convert.read_input``).
"""

from __future__ import annotations

import pytest
from numgrid.client.kinds.cells import Layout
from numgrid.client.play import board
from numgrid.client.play.game import Game
from numgrid.client.play.game import GameFileError
from numgrid.client.render import entries
from numgrid.server import convert
from numgrid.v1 import puzzle_pb2
from support import PUZZLES
from support.corpus import corpus

KAKURO = "92_6x6"  # the corpus's smallest Kakuro: 17 white cells


def parse(text: str) -> puzzle_pb2.Puzzle:
    source = puzzle_pb2.PuzzleInput(text=puzzle_pb2.PuzzleText(content=text))
    return convert.puzzle(convert.read_input(source, 100_000))


def sample(name: str) -> str:
    return (PUZZLES / name).read_text()


def kakuro_text() -> str:
    return corpus("kakuro")[KAKURO]["problem"]


@pytest.fixture
def kenken() -> Game:
    return Game(parse(sample("kenken-4x4.txt")), source="kenken-4x4.txt")


@pytest.fixture
def kakuro() -> Game:
    return Game(parse(kakuro_text()), source=KAKURO)


@pytest.fixture
def kakurasu() -> Game:
    return Game(parse(sample("kakurasu-5x5.txt")))


@pytest.fixture
def towers() -> Game:
    return Game(parse(sample("skyscraper-5x5-empty-lots.txt")))


# ---------------------------------------------------------------- each kind's layout


def test_kakuro_layout_plays_the_white_cells_with_digits(kakuro):
    lay: Layout = kakuro.layout
    assert (lay.rows, lay.columns) == (6, 6)
    assert len(lay.playable) == 17 and (1, 3) in lay.playable and (1, 2) not in lay.playable
    assert lay.values == tuple(range(1, 10)) and lay.keys["7"] == 7 and "x" not in lay.keys
    assert lay.blocks[(1, 2)] == "28\\10" and lay.blocks[(3, 0)] == "▓▓\\12"
    assert lay.blocks[(0, 0)] == ""  # black, no clue
    assert lay.pencil and lay.regions is None and kakuro.cursor == (1, 3)


def test_kenken_layout_has_cages_and_labels(kenken):
    lay = kenken.layout
    assert len(lay.playable) == 16 and lay.values == (1, 2, 3, 4) and "5" not in lay.keys
    assert lay.labels[(0, 0)] == "3" and lay.labels[(0, 1)] == "16x"
    assert lay.regions[(0, 1)] == lay.regions[(1, 2)] != lay.regions[(1, 1)]


def test_skyscraper_layout_has_clues_empty_lots_and_givens(towers):
    lay = towers.layout
    assert lay.values == (1, 2, 3, 4, -1) and lay.keys["x"] == -1 and lay.symbols[-1] == "x"
    assert lay.top == ("2", "3", "2", "3", "1") and lay.right[1] == "3"
    assert "empty lot" in lay.note and lay.names == {-1: "empty lot"}
    diagonal = Game(parse(sample("skyscraper-4x4-diagonal.txt")))
    assert diagonal.layout.givens == {(3, 0): 2} and (3, 0) not in diagonal.layout.playable
    assert diagonal.value((3, 0)) == 2 and diagonal.grid()[3][0] == 2
    assert "x" not in diagonal.layout.keys  # heights 1-4 on 4 lots: no empty lot


def test_kakurasu_layout_shades_instead_of_digits(kakurasu):
    lay = kakurasu.layout
    assert lay.values == (1, -1) and lay.keys == {"x": 1, "-": -1}
    assert lay.names == {1: "shaded", -1: "white"} and lay.symbols[1] == "▓▓"
    assert lay.top == ("1", "2", "3", "4", "5") and lay.right[3] == "12"
    assert lay.bottom[3] == "13" and not lay.pencil


# ---------------------------------------------------------------- moves, undo and redo


def test_enter_undo_redo(kenken):
    assert kenken.enter(3).what == "r0c0 = 3"
    kenken.move_cursor("right")
    kenken.enter(4)
    kenken.enter(2)  # over the 4
    assert kenken.values[(0, 1)] == 2 and kenken.moves == 3
    assert kenken.undo().what == "r0c1 = 2" and kenken.values[(0, 1)] == 4
    kenken.undo()
    assert kenken.values[(0, 1)] == 0 and kenken.values[(0, 0)] == 3
    kenken.undo()
    assert kenken.values[(0, 0)] == 0 and kenken.undo() is None
    assert kenken.redo().what == "r0c0 = 3" and kenken.cursor == (0, 0)
    kenken.redo()
    assert kenken.values[(0, 1)] == 4 and len(kenken.undone) == 1
    kenken.enter(1, (3, 3))  # a new move forgets what was undone
    assert kenken.redo() is None and kenken.moves == 3


def test_same_value_again_clears_and_clear_then_drops_pencil_marks(kenken):
    kenken.pencil(1)
    kenken.pencil(2)
    kenken.pencil(1)
    assert kenken.marks[(0, 0)] == {2}
    kenken.enter(3)
    assert kenken.marks[(0, 0)] == {2}  # kept under the value
    kenken.enter(3)  # again: out
    assert kenken.values[(0, 0)] == 0
    kenken.enter(3)
    kenken.clear()
    assert kenken.values[(0, 0)] == 0 and kenken.marks[(0, 0)] == {2}
    kenken.clear()
    assert (0, 0) not in kenken.marks
    assert kenken.clear() is None  # nothing left to clear: no move
    for _ in range(6):
        kenken.undo()
    assert kenken.marks[(0, 0)] == {1, 2} and kenken.values[(0, 0)] == 0


def test_values_outside_the_puzzle_are_refused(kenken, kakurasu):
    with pytest.raises(ValueError, match="5 is not a value"):
        kenken.enter(5)
    with pytest.raises(ValueError, match="no pencil marks"):
        kakurasu.pencil(1)
    assert kenken.moves == 0


def test_kakurasu_cycles_shaded_white_open(kakurasu):
    kakurasu.cycle()
    assert kakurasu.values[(0, 0)] == 1
    kakurasu.cycle()
    assert kakurasu.values[(0, 0)] == -1
    kakurasu.cycle()
    assert kakurasu.values[(0, 0)] == 0
    kakurasu.enter(-1, (4, 4))
    assert entries(kakurasu.board())[4][4] == -1
    assert kakurasu.undo().what == "r4c4 = -" and kakurasu.moves == 3


def test_skyscraper_empty_lot(towers):
    towers.enter(-1)
    assert towers.grid()[0][0] == -1 and entries(towers.board())[0][0] == -1


def test_cursor_steps_over_clue_cells_and_stops_at_the_edge(kakuro):
    assert kakuro.cursor == (1, 3)
    assert kakuro.move_cursor("up") == (1, 3)  # row 0 is all clues: stays
    assert kakuro.move_cursor("down") == (2, 3)
    assert kakuro.move_cursor("down") == (4, 3)  # over the clue at r3c3
    assert kakuro.move_cursor("left") == (4, 2)
    assert kakuro.move_cursor("left") == (4, 1)
    assert kakuro.move_cursor("left") == (4, 1)  # r4c0 is a clue and then the edge
    assert not kakuro.go((0, 0)) and kakuro.go((5, 3)) and kakuro.cursor == (5, 3)


def test_a_files_entries_are_the_players_to_change():
    game = Game(parse(sample("Game03-nearly-solved.csv")))
    assert game.values[(1, 1)] == 7 and game.filled() > 40
    game.clear((1, 1))
    assert game.values[(1, 1)] == 0
    assert not any(any(row) for row in entries(game.puzzle))  # the bare puzzle


# ---------------------------------------------------------------- the game file


def test_save_and_resume_round_trip(kenken, tmp_path):
    kenken.enter(3)
    kenken.move_cursor("right")
    kenken.pencil(1)
    kenken.pencil(4)
    kenken.move_cursor("down")
    kenken.enter(2)
    kenken.undo()  # one move to redo after resuming
    kenken.elapsed, kenken.hints, kenken.checks = 61.5, 2, 1
    path = tmp_path / "game.json"
    kenken.save(path)
    again = Game.load(path)
    assert again.puzzle == kenken.puzzle and again.source == "kenken-4x4.txt"
    assert again.values == kenken.values and again.marks == {(0, 1): {1, 4}}
    assert (again.elapsed, again.hints, again.checks, again.solved) == (61.5, 2, 1, False)
    assert again.cursor == kenken.cursor == (1, 1)
    assert again.redo().what == "r1c1 = 2" and again.values[(1, 1)] == 2
    for _ in range(4):
        again.undo()
    assert not any(again.values.values()) and not again.marks
    assert again.to_json()["values"] == {}


def test_every_kind_round_trips(kakuro, kakurasu, towers, tmp_path):
    for game in (kakuro, kakurasu, towers):
        game.cycle()
        game.save(tmp_path / "g.json")
        again = Game.load(tmp_path / "g.json")
        assert again.grid() == game.grid() and again.kind == game.kind
        assert again.undo() is not None and not any(again.values.values())


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "not JSON"),
        ("[]", "not a numgrid game file"),
        ('{"format": "numgrid-game", "version": 99}', "version 99"),
        ('{"format": "numgrid-game", "version": 1, "puzzle": {}}', "puzzle is empty"),
    ],
)
def test_a_bad_game_file_is_refused_in_one_sentence(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(GameFileError, match=message):
        Game.load(path)


def test_a_game_file_with_a_cell_or_value_not_of_the_puzzle_is_refused(kakuro, tmp_path):
    data = kakuro.to_json()
    data["values"] = {"r0c0": 3}  # a clue cell
    with pytest.raises(GameFileError, match="'r0c0' is not a cell played"):
        Game.from_json(data)
    data["values"] = {"r1c3": 12}
    with pytest.raises(GameFileError, match="12 is not a value"):
        Game.from_json(data)
    data["values"] = {}
    data["done"] = [{"what": "x", "changes": [["r1c3", 0]]}]
    with pytest.raises(GameFileError, match="damaged"):
        Game.from_json(data)
    with pytest.raises(GameFileError, match="cannot read it"):
        Game.load(tmp_path / "missing.json")


# ---------------------------------------------------------------- the board drawn


def test_board_draws_every_kinds_clues_and_values(kakuro, kenken, kakurasu, towers):
    kakuro.enter(9)
    text = board.draw(kakuro, board.View({})).plain
    assert "28\\10" in text and "▓▓\\13" in text and "  9  " in text
    kenken.pencil(2)
    kenken.pencil(4)
    text = board.draw(kenken, board.View({})).plain
    assert "│16x        │2/   │" in text and " 2 4 " in text
    kakurasu.enter(1)
    text = board.draw(kakurasu, board.View({})).plain
    assert "  ▓▓ " in text and text.rstrip().endswith("8     8     9     13    6")
    towers.enter(-1)
    text = board.draw(towers, board.View({})).plain
    assert text.startswith("heights 1-4 and one empty lot (x) per line")
    assert "2 │  x  │" in text


def test_board_colours_cells_by_status_check_and_hint(kenken):
    kenken.enter(3)
    kenken.enter(3, (0, 1))
    kenken.go((0, 0))
    view = board.View({(0, 0): "duplicate", (0, 1): "duplicate"}, {(0, 1)}, {(2, 2)})
    text = board.draw(kenken, view)
    styles = {str(span.style) for span in text.spans}
    assert board.STYLES["duplicate"] + " " + board.STYLES["cursor"] in styles  # r0c0
    assert board.STYLES["duplicate"] + " " + board.STYLES["mistake"] in styles  # r0c1
    assert board.STYLES["pencil"] + " " + board.STYLES["hint"] in styles  # r2c2, open


def test_geometry_finds_the_cell_under_the_mouse(towers):
    geo = board.Geometry(towers.layout)
    for cell in [(0, 0), (2, 3), (4, 4)]:
        x, y = geo.origin(cell)
        assert geo.cell_at(x, y) == cell and geo.cell_at(x + board.W - 1, y + board.H - 1) == cell
        assert geo.cell_at(x - 1, y) is None  # the wall
    assert geo.cell_at(0, 0) is None
