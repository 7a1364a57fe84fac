"""Property tests on random small Kakuro grids: the engines agree with each other and with an
independent rule checker; the three formats round-trip; the readers never crash."""

from __future__ import annotations

from itertools import combinations

from hypothesis import assume
from hypothesis import event
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from numgrid.server import engines
from numgrid.server.core import Board
from numgrid.server.core import Budget
from numgrid.server.core import PuzzleError
from numgrid.server.core import Verdict
from numgrid.server.core import differing_cells
from numgrid.server.kinds.kakuro import formats
from numgrid.server.kinds.kakuro.checks import check_puzzle
from numgrid.server.kinds.kakuro.checks import validate_board
from numgrid.server.kinds.kakuro.model import WHITE
from numgrid.server.kinds.kakuro.model import Clue
from numgrid.server.kinds.kakuro.model import Puzzle
from support.kakuro import KAKURO
from support.kakuro import clued_runs
from support.kakuro import rule_violations

MAX_SIZE = 6  # rows and columns, the clue row and column included


def _possible(clue: int, length: int) -> bool:
    """Can ``length`` different digits 1-9 add up to ``clue``? (by brute force)"""
    return any(sum(c) == clue for c in combinations(range(1, 10), length))


def _runs_from(white: list[list[bool]]):
    """``{(black cell, direction): [cells]}`` for every run, found by walking the layout."""
    rows, cols = len(white), len(white[0])
    runs = {}
    for r in range(rows):
        for c in range(cols):
            if white[r][c]:
                continue
            for direction, (dr, dc) in (("across", (0, 1)), ("down", (1, 0))):
                cells, rr, cc = [], r + dr, c + dc
                while rr < rows and cc < cols and white[rr][cc]:
                    cells.append((rr, cc))
                    rr, cc = rr + dr, cc + dc
                if cells:
                    runs[(r, c), direction] = cells
    return runs


def _puzzle(white, clues) -> Puzzle:
    squares = []
    for r, row in enumerate(white):
        squares.append(
            tuple(
                WHITE
                if is_white
                else Clue(down=clues.get(((r, c), "down")), across=clues.get(((r, c), "across")))
                for c, is_white in enumerate(row)
            )
        )
    return Puzzle(tuple(squares))


@st.composite
def layouts(draw, max_size=MAX_SIZE):
    """A random black/white layout with row 0 and column 0 black."""
    rows = draw(st.integers(2, max_size))
    cols = draw(st.integers(2, max_size))
    return [
        [r > 0 and c > 0 and draw(st.sampled_from([True, True, True, False])) for c in range(cols)]
        for r in range(rows)
    ]


@st.composite
def kakuros(draw):
    """``(puzzle, filling, mode)``: a random layout, a random filling of its white cells with
    digits that never repeat in a run, and clues that are the filling's sums ("filling"),
    random possible sums ("random"), or a mix run by run ("mixed")."""
    white = draw(layouts())
    runs = _runs_from(white)
    runs_of: dict = {}
    for key, cells in runs.items():
        for cell in cells:
            runs_of.setdefault(cell, []).append(key)
    filling = [[0] * len(white[0]) for _ in white]
    for r, row in enumerate(white):
        for c, is_white in enumerate(row):
            if is_white:
                used = {filling[x][y] for key in runs_of[r, c] for x, y in runs[key]}
                filling[r][c] = draw(st.sampled_from([d for d in range(1, 10) if d not in used]))
    mode = draw(st.sampled_from(["filling", "random", "mixed"]))
    clues = {}
    for key, cells in sorted(runs.items()):
        n = len(cells)
        from_filling = mode == "filling" or (mode == "mixed" and draw(st.booleans()))
        if from_filling:
            clues[key] = sum(filling[r][c] for r, c in cells)
        else:
            low, high = n * (n + 1) // 2, sum(range(10 - n, 10))
            clues[key] = draw(st.integers(low, high))
    grid = tuple(tuple(row) for row in filling)
    return _puzzle(white, clues), grid, mode


def _search(name: str, puzzle: Puzzle, **kwargs):
    search = engines.cpsat_search if name == "cpsat" else engines.native_search
    kwargs.setdefault("fixed", None)
    return search(KAKURO, puzzle, limit=2, budget=Budget.seconds(30), **kwargs)


# ---------------------------------------------------------------- engines


@settings(deadline=None, max_examples=300)
@given(kakuros())
def test_engines_agree_and_every_solution_keeps_every_rule(example):
    puzzle, filling, mode = example
    assume(not [f for f in check_puzzle(puzzle) if f.is_error])
    cpsat, native = _search("cpsat", puzzle), _search("native", puzzle)
    assert cpsat.complete and native.complete
    assert cpsat.verdict() is native.verdict()
    assert len(cpsat.solutions) == len(native.solutions)
    verdict = cpsat.verdict()
    event(f"{mode}: {verdict.value}")  # see pytest --hypothesis-show-statistics
    if verdict is Verdict.UNIQUE:
        assert cpsat.solutions == native.solutions
    for result in (cpsat, native):
        assert len(set(result.solutions)) == len(result.solutions)
        for solution in result.solutions:
            assert rule_violations(puzzle, solution) == [], result.stats.engine
            report = validate_board(Board(puzzle, solution))
            assert report.solved and report.findings == ()
    if verdict is Verdict.MULTIPLE:
        for result in (cpsat, native):
            assert differing_cells(*result.solutions)
    if mode == "filling":  # the filling is a solution, so there is one
        assert rule_violations(puzzle, filling) == []
        assert verdict is not Verdict.NO_SOLUTION
        if verdict is Verdict.UNIQUE:
            assert cpsat.solutions == (filling,)


@settings(deadline=None, max_examples=60)
@given(kakuros().filter(lambda example: example[2] == "filling"))
def test_holding_a_solution_makes_it_the_only_one(example):
    puzzle, filling, _ = example
    assume(not [f for f in check_puzzle(puzzle) if f.is_error])
    for name in ("cpsat", "native"):
        result = _search(name, puzzle, fixed=filling)
        assert result.verdict() is Verdict.UNIQUE, name
        assert result.solutions == (filling,), name


@settings(deadline=None, max_examples=60)
@given(kakuros())
def test_a_transposed_puzzle_has_the_transposed_answer(example):
    puzzle, _, _ = example
    assume(not [f for f in check_puzzle(puzzle) if f.is_error])
    answer = engines.find(KAKURO, puzzle, engine=engines.Engine.CROSS_CHECK)
    turned = engines.find(KAKURO, puzzle.transposed(), engine=engines.Engine.CROSS_CHECK)
    assert turned.verdict is answer.verdict
    if answer.verdict is Verdict.UNIQUE:
        assert turned.solutions == (tuple(zip(*answer.solutions[0], strict=True)),)


# ---------------------------------------------------------------- structural checks


@settings(deadline=None, max_examples=200)
@given(layouts(max_size=8), st.data())
def test_impossible_clues_are_exactly_the_ones_no_digits_can_make(white, data):
    runs = _runs_from(white)
    clues = {key: data.draw(st.integers(1, 50)) for key in sorted(runs)}
    puzzle = _puzzle(white, clues)
    found = {f.cells for f in check_puzzle(puzzle) if f.code == "impossible_clue"}
    expected = {
        (clue_cell, *runs[clue_cell, direction])
        for (clue_cell, direction), clue in clues.items()
        if not _possible(clue, len(runs[clue_cell, direction]))
    }
    assert found == expected
    # and the independent checker reads the same runs the puzzle has
    assert sorted(map(tuple, (cells for _, cells in clued_runs(puzzle.squares)))) == sorted(
        tuple(run.cells) for run in puzzle.runs
    )


# ---------------------------------------------------------------- formats


@st.composite
def boards(draw):
    """Any grid of black cells (clues 1-45 or none) and white cells (digits 0-9)."""
    rows = draw(st.integers(1, MAX_SIZE))
    cols = draw(st.integers(2, MAX_SIZE))  # one column is no CSV: it has no commas
    clue = st.none() | st.integers(1, 45)
    squares, entries = [], []
    for _ in range(rows):
        sq_row, digit_row = [], []
        for _ in range(cols):
            if draw(st.booleans()):
                sq_row.append(WHITE)
                digit_row.append(draw(st.integers(0, 9)))
            else:
                sq_row.append(Clue(draw(clue), draw(clue)))
                digit_row.append(0)
        squares.append(tuple(sq_row))
        entries.append(tuple(digit_row))
    return Board(Puzzle(tuple(squares)), tuple(entries))


@settings(deadline=None, max_examples=200)
@given(boards(), st.sampled_from(["janko", "csv", "json"]))
def test_every_format_round_trips(b, fmt):
    text = formats.write(b, fmt)
    assert formats.detect(text).name == fmt
    again = formats.read(text)
    assert again == b
    assert formats.write(again, fmt) == text


@settings(deadline=None, max_examples=100)
@given(boards())
def test_conversion_through_all_formats_keeps_the_board(b):
    current = b
    for fmt in ("janko", "csv", "json", "janko"):
        current = formats.read(formats.write(current, fmt), fmt)
    assert current == b


_TOKENS = st.sampled_from(
    [
        *("0", "5", "-", "3,", "4,7", ",9", "10000", "11716", "100017", "²", "٣"),
        *("{", "}", "[", "]", '"kakuro"', '"rows"', '"cells"', '"digit"', ":", ","),
        *("\n", " ", "x", "-1", "1.5", "null"),
    ]
)


@settings(deadline=None, max_examples=300)
@given(st.lists(_TOKENS, max_size=40).map("".join), st.sampled_from([None, "janko", "csv", "json"]))
def test_readers_raise_only_puzzle_errors(text, fmt):
    try:
        board = formats.read(text, fmt)
    except PuzzleError as error:
        assert error.findings and all(f.code and f.message for f in error.findings)
    else:
        assert board.puzzle.rows > 0 and board.puzzle.cols > 0
