"""The Kakuro maker (``server/kinds/kakuro/generator.py``) through the generation driver:
unique by CP-SAT alone, graded as the full chain grades it, reproducible from a seed,
shaped as published Kakuros are, and readable back from every format."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from numgrid.server import engines
from numgrid.server.chain import Grade
from numgrid.server.core import Board
from numgrid.server.core import Budget
from numgrid.server.core import Verdict
from numgrid.server.engines import Engine
from numgrid.server.generate import generate_one
from numgrid.server.kinds import KINDS
from numgrid.server.kinds.base import Spec
from numgrid.server.kinds.kakuro import generator
from numgrid.server.kinds.kakuro import native
from numgrid.server.kinds.kakuro.checks import MAX_RUN
from numgrid.server.kinds.kakuro.model import WHITE
from numgrid.server.kinds.kakuro.model import Clue
from numgrid.server.kinds.kakuro.model import Puzzle
from numgrid.server.kinds.kakuro.sums import ALL_DIGITS
from numgrid.server.kinds.kakuro.techniques import Technique

KAKURO = KINDS["kakuro"]
BUDGET = 60.0  # seconds: far above what these sizes take (well under a second each)


def layout_problems(puzzle: Puzzle, single_cell_runs: bool = False) -> list[str]:
    """What is wrong with a generated layout, read off the puzzle alone."""
    rows, cols = puzzle.rows, puzzle.cols
    white = [[sq is WHITE for sq in row] for row in puzzle.squares]
    found = []
    if any(white[0]) or any(row[0] for row in white):
        found.append("a white cell in the first row or column")
    for r in range(1, rows):
        for c in range(1, cols):
            if white[r][c] != white[rows - r][cols - c]:
                found.append(f"r{r}c{c} breaks the 180-degree symmetry")
    shortest = 1 if single_cell_runs else 2
    for run in puzzle.runs:
        if not shortest <= len(run.cells) <= MAX_RUN:
            found.append(f"{run.name}: {len(run.cells)} cells")
        if run.clue is None:
            found.append(f"{run.name}: no clue")
    cells = puzzle.white_cells
    seen, stack = {cells[0]}, [cells[0]]
    while stack:
        r, c = stack.pop()
        for near in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if near in set(cells) and near not in seen:
                seen.add(near)
                stack.append(near)
    if len(seen) != len(cells):
        found.append("white cells not connected")
    return found


def solves(puzzle: Puzzle, grid) -> bool:
    """Every run of ``grid`` adds up to its clue with no digit twice (read directly)."""
    for run in puzzle.runs:
        digits = [grid[r][c] for r, c in run.cells]
        if sum(digits) != run.clue or len(set(digits)) != len(digits) or 0 in digits:
            return False
    return True


CASES = [  # (grade, size, seed): sizes counting the clue row and column
    (Grade.EASY, 8, 1),
    (Grade.MEDIUM, 10, 2),
    (Grade.HARD, 12, 3),
    (Grade.EXPERT, 10, 4),
    (Grade.EXTREME, 12, 5),
    (None, 9, 6),
]


@pytest.fixture(scope="module", params=CASES, ids=lambda case: f"{case[0]}-{case[1]}")
def made(request):
    grade, size, seed = request.param
    return grade, generate_one(KAKURO, Spec(size, size, grade), seed, Budget.seconds(BUDGET))


def test_made_has_the_grade_the_full_chain_gives(made):
    grade, g = made
    full = KAKURO.logic.explain(g.puzzle, None, max(KAKURO.logic.Technique), budget=None)
    assert full.solved
    assert g.difficulty.grade == full.grade
    if grade is not None:
        assert full.grade == grade


def test_made_is_unique_by_cpsat_alone(made):
    _, g = made
    answer = engines.find(KAKURO, g.puzzle, engine=Engine.CPSAT, limit=2)
    assert answer.verdict is Verdict.UNIQUE
    assert answer.solutions == (g.solution,)
    assert solves(g.puzzle, g.solution)


def test_made_is_shaped_as_published(made):
    _, g = made
    assert layout_problems(g.puzzle) == []
    assert not [f for f in KAKURO.checks.check_puzzle(g.puzzle, None, None) if f.is_error]


@pytest.mark.parametrize("fmt", KAKURO.formats.FORMATS)
def test_made_reads_back_from_every_format(made, fmt):
    _, g = made
    text = KAKURO.formats.write(Board(g.puzzle, g.puzzle.empty_grid()), fmt)
    back = KAKURO.formats.read(text, fmt, 20_000)
    assert back.puzzle == g.puzzle
    assert back.entries == g.puzzle.empty_grid()


def test_same_seed_same_puzzle():
    spec = Spec(10, 10, Grade.HARD)
    first = generate_one(KAKURO, spec, 77, Budget.seconds(BUDGET))
    again = generate_one(KAKURO, spec, 77, Budget.seconds(BUDGET))
    assert (again.puzzle, again.solution, again.attempts) == (
        first.puzzle,
        first.solution,
        first.attempts,
    )
    other = generate_one(KAKURO, spec, 78, Budget.seconds(BUDGET))
    assert other.puzzle != first.puzzle


def test_density_is_followed():
    spec = Spec(14, 14, None, density=0.66)
    puzzle, _ = generator.MAKER.candidate(spec, random.Random(3), 0.0, Budget())
    share = len(puzzle.white_cells) / (13 * 13)
    assert 0.6 <= share <= 0.67


def test_single_cell_runs_only_when_asked():
    spec = Spec(12, 12, None, density=0.6)
    shortest = set()
    for seed in range(6):
        puzzle, solution = generator.MAKER.candidate(spec, random.Random(seed), 0.0, Budget())
        assert solves(puzzle, solution)
        shortest.add(min(len(run.cells) for run in puzzle.runs))
    assert shortest == {2}
    spec = Spec(12, 12, None, density=0.6, single_cell_runs=True)
    for seed in range(3):
        puzzle, solution = generator.MAKER.candidate(spec, random.Random(seed), 0.0, Budget())
        assert layout_problems(puzzle, single_cell_runs=True) == []
        assert solves(puzzle, solution)


@pytest.mark.parametrize(
    ("spec", "field", "words"),
    [
        (Spec(2, 12, None), "rows", "not 2"),
        (Spec(12, 200, None), "cols", "not 200"),
        (Spec(12, 12, None, density=0.2), "density", "not 0.2"),
        (Spec(12, 12, None, density=0.95), "density", "not 0.95"),
        (Spec(4, 4, Grade.EXTREME), "grade", "4x4"),
    ],
)
def test_problems_say_what_cannot_be_made(spec, field, words):
    found = generator.MAKER.problems(spec)
    assert [f for f, _ in found] == [field]
    sentence = found[0][1]
    assert words in sentence and sentence[0].islower() and not sentence.endswith(".")


def test_no_problems_for_what_can_be_made():
    for spec in (Spec(3, 3, None), Spec(12, 12, Grade.EXTREME), Spec(30, 30, Grade.HARD)):
        assert generator.MAKER.problems(spec) == []


def _tiny(rows):
    """A puzzle with the clues of the given digits (rows of the inner grid, 0 black)."""
    size = len(rows) + 1
    grid = [[0] * size] + [[0, *row] for row in rows]
    squares = [[WHITE if grid[r][c] else Clue() for c in range(size)] for r in range(size)]
    for r in range(size):
        for c in range(size):
            if grid[r][c]:
                continue
            across = down = None
            if c + 1 < size and grid[r][c + 1]:
                k = c + 1
                across = 0
                while k < size and grid[r][k]:
                    across += grid[r][k]
                    k += 1
            if r + 1 < size and grid[r + 1][c]:
                k = r + 1
                down = 0
                while k < size and grid[k][c]:
                    down += grid[k][c]
                    k += 1
            squares[r][c] = Clue(down, across)
    puzzle = Puzzle(tuple(tuple(row) for row in squares))
    return puzzle, tuple(tuple(row) for row in grid)


def test_repair_removes_the_second_solution():
    puzzle, solution = _tiny([[1, 2, 4], [2, 4, 1], [4, 1, 2]])  # rows/cols of 7: many ways
    found = KAKURO.native.search(puzzle, limit=2, fixed=None, budget=None)
    other = next(s for s in found.solutions if s != solution)
    assert solves(puzzle, other)
    for seed in range(5):
        repaired = generator.MAKER.repair(puzzle, solution, other, random.Random(seed))
        assert repaired is not None
        fixed, new = repaired
        assert solves(fixed, new)  # the repaired puzzle comes with its solution
        assert not solves(fixed, other)  # and the second solution is gone
        assert [sq is WHITE for row in fixed.squares for sq in row] == [
            sq is WHITE for row in puzzle.squares for sq in row
        ]
        changed = [(r, c) for r, c in puzzle.white_cells if new[r][c] != solution[r][c]]
        assert (
            len(changed) == 1
            and other[changed[0][0]][changed[0][1]] != solution[changed[0][0]][changed[0][1]]
        )


@settings(deadline=None, max_examples=8)
@given(
    seed=st.integers(0, 2**32),
    size=st.integers(5, 11),
    pressure=st.sampled_from([-1.0, 0.0, 1.0]),
    grade=st.sampled_from([None, *Grade]),
)
def test_candidates_are_well_formed(seed, size, pressure, grade):
    spec = Spec(size, size, grade)
    assert generator.MAKER.problems(spec) == [] or grade is not None
    puzzle, solution = generator.MAKER.candidate(spec, random.Random(seed), pressure, Budget())
    assert (puzzle.rows, puzzle.cols) == (size, size)
    assert layout_problems(puzzle) == []
    assert solves(puzzle, solution)
    found = KAKURO.native.search(puzzle, limit=2, fixed=None, budget=None)
    assert solution in found.solutions or len(found.solutions) == 2


def _annealed_fills(count: int, size: int = 12):
    """Fills a maker works on: a layout and a fill annealed a little, then more."""
    rng = random.Random(size)
    spec = Spec(size, size, Grade.HARD)
    style = generator._style(spec, 0.0)
    layout = generator.make_layout(size, size, style, False, rng, Budget())
    frame = generator.Frame(layout)
    fill = generator.Fill(frame, generator.fill(frame, rng, Budget()), generator.WEIGHT)
    cells = list(range(len(frame.cells)))
    for _ in range(count):
        generator.anneal(fill, cells, 3 * len(cells), (1.5, 0.3), rng, Budget())
        yield frame, list(fill.digits)


def test_memoised_propagation_reaches_the_native_fixpoint():
    rng = random.Random(0)
    for frame, digits in _annealed_fills(8):
        compiled = frame.compiled(digits)
        ours, theirs = [ALL_DIGITS] * len(digits), [ALL_DIGITS] * len(digits)
        assert generator._narrowed(compiled, ours)
        assert native.propagate(compiled, theirs, set(range(len(frame.runs))))
        assert ours == theirs
        start = [m if rng.random() < 0.5 else ALL_DIGITS for m in ours]
        ours, theirs = list(start), list(start)
        assert generator._narrowed(compiled, ours) == native.propagate(
            compiled, theirs, set(range(len(frame.runs)))
        )
        assert ours == theirs


def test_needs_trial_is_the_chain_up_to_region_sums():
    for seed in range(3):
        rng = random.Random(seed)
        style = generator._style(Spec(10, 10, Grade.EXTREME), 0.0)
        layout = generator.make_layout(10, 10, style, False, rng, Budget())
        frame = generator.Frame(layout)
        fill = generator.Fill(frame, generator.fill(frame, rng, Budget()), generator.WEIGHT)
        cells = list(range(len(frame.cells)))
        generator.anneal(fill, cells, 10 * len(cells), (1.5, 0.6), rng, Budget())
        _, cand, _ = generator._propagated(frame, fill.digits)
        puzzle = frame.puzzle(fill.digits)[0]
        chain = KAKURO.logic.explain(puzzle, None, Technique.REGION_SUM, budget=None)
        assert generator._needs_trial(frame, fill.digits, cand, Budget()) == (not chain.solved)


def test_only_targets_past_propagation_are_loosened():
    for size in (12, 30):
        for pressure in (-1.0, 0.0, 0.5, 1.0):
            for grade in (Grade.EASY, Grade.MEDIUM, Grade.HARD):
                assert not generator._style(Spec(size, size, grade), pressure).loosen
            assert not generator._style(Spec(size, size, Grade.EXPERT), pressure).past_regions
        assert generator._style(Spec(size, size, Grade.EXTREME), 0.0).past_regions
