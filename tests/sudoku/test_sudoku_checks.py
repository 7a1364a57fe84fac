"""Bad Sudoku input: one plain sentence each, naming the row, column or box and cells."""

from __future__ import annotations

import json

from numgrid.server import operations
from numgrid.server.core import Board
from numgrid.server.core import Budget
from numgrid.server.core import PuzzleError
from numgrid.server.engines import Engine
from numgrid.server.kinds import KINDS
from support.facts import errors

SUDOKU = KINDS["sudoku"]
LINE = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"


def test_an_80_character_line_says_how_long_a_line_is():
    (message,) = errors(SUDOKU, LINE[:80])
    assert "80 characters" in message and "81" in message and "9x9" in message


def test_a_letter_in_a_9x9_names_its_cell():
    (message,) = errors(SUDOKU, LINE[:5] + "A" + LINE[6:])
    assert message.startswith("r0c5: 'A' is not a digit of a 9x9 Sudoku")


def test_a_7x7_sudoku_is_not_served():
    for text in ("1" + "." * 48, "7 7\n" + "\n".join(["- - - - - - -"] * 7)):
        (message,) = errors(SUDOKU, text)
        assert "7x7 Sudoku is not served" in message and "4x4, 6x6, 9x9 or 16x16" in message


def test_duplicate_givens_name_the_unit_and_both_cells():
    text = LINE[:1] + "4" + LINE[2:]  # a second 4 in row 0 and box 0
    found = errors(SUDOKU, text)
    assert "row 0 holds the given 4 twice: r0c0 and r0c1" in found
    assert "box 0 holds the given 4 twice: r0c0 and r0c1" in found
    board = SUDOKU.formats.read(text, None, None)
    (row,) = [f for f in SUDOKU.checks.check_puzzle(board.puzzle, None, None) if f.group == "row 0"]
    assert row.cells == ((0, 0), (0, 1))


def test_a_given_outside_1_to_n_names_its_cell():
    rows = [[0] * 4 for _ in range(4)]
    rows[2][3] = 5
    text = json.dumps({"sudoku": {"size": 4, "givens": {"rows": [{"values": r} for r in rows]}}})
    assert any(m.startswith("r2c3: the given 5 is outside 1-4") for m in errors(SUDOKU, text))


def test_a_board_with_a_clash_is_reported_by_unit():
    puzzle = SUDOKU.formats.read(LINE, None, None).puzzle
    entries = [list(row) for row in puzzle.empty_grid()]
    entries[0][8] = 4  # row 0 already has a 4 at r0c0
    report = SUDOKU.checks.validate_board(Board(puzzle, tuple(map(tuple, entries))), None)
    assert any(f.group == "row 0" and (0, 8) in f.cells for f in report.findings)
    assert not report.solved


def test_a_mistake_hint_offers_the_entry_to_fix_not_the_given_it_repeats():
    puzzle = SUDOKU.formats.read(LINE, None, None).puzzle
    entries = [list(row) for row in puzzle.empty_grid()]
    entries[0][8] = 4  # row 0 already has the given 4 at r0c0
    board = Board(puzzle, tuple(map(tuple, entries)))
    hint = operations.hint(SUDOKU, board, engine=Engine.NATIVE, budget=Budget.seconds(10))
    assert hint.kind == "MISTAKE" and hint.cells == ((0, 8),)
    assert hint.explanation.startswith("Fix r0c8: row 0: 4 appears 2 times (r0c0 and r0c8)")


def test_a_corpus_text_with_a_given_out_of_range_names_its_cell():
    text = "4 4\n1 - - -\n- - - -\n- - - -\n- - - 5\n"
    (message,) = errors_as_sudoku(text)
    assert "not '5' at r3c3" in message


def errors_as_sudoku(text: str) -> list[str]:
    """As :func:`errors`, the kind named (a text no kind's sniff claims)."""
    try:
        SUDOKU.formats.read(text, None, None)
    except PuzzleError as e:
        return [f.message for f in e.findings]
    return []


def test_an_entry_on_a_given_cell_is_not_the_players_and_reads_back_the_same():
    """Found by the structured fuzz test: the echo of such a puzzle read back otherwise."""
    givens = [[1, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4]
    entries = [[1, 2, 0, 0], [0] * 4, [0] * 4, [0] * 4]
    grid = {"givens": givens, "entries": entries}
    message = {
        "sudoku": {"size": 4, **{k: {"rows": [{"values": r} for r in v]} for k, v in grid.items()}}
    }
    board = SUDOKU.formats.read(json.dumps(message), "json", None)
    assert board.entries[0][:2] == (0, 2)
    assert SUDOKU.formats.read(SUDOKU.formats.write(board, "json"), "json", None) == board
