"""Making Skyscraper puzzles as Tatham's Towers does: a random latin square of heights,
its clues, and clues taken away while the puzzle stays solvable within the target grade.

Why this way: Towers (``towers.c``, ``new_game_desc``) draws a latin square, computes
every clue, removes grid numbers and then clues in random order while its solver still
solves the puzzle at the difficulty asked. Here that solver is the chain of :mod:`.logic`
graded fast (:mod:`.grading`: its techniques 1-8 on masks, without the sentences), and
the maker tries as few removals as it can:

1. a random latin square (:func:`latin_square`, as Towers' ``latin_generate``);
2. a random share of its clues (:data:`START_SHARE`; every clue for EASY), completed
   where the chain stalls by a clue through a cell it left open, or that cell's height;
3. the givens, then the clues, left out one by one while the chain still solves the
   puzzle within the grade (a puzzle the chain solves is unique);
4. a puzzle graded below the target is drawn again, at most :data:`REDRAWS` times.

For EXTREME the clues go while the puzzle stays unique (:func:`_solutions`, the native
engine's search), until the chain stalls short of a trial. ``pressure`` leans within a
grade (below 0 more clues, above 0 fewer).
Only the plain puzzle is made: heights 1..N, no empty lots, no diagonals.
:meth:`Maker.repair` adds a clue the second solution does not show, or else a height.
Each step in full: docs/generate.md, "Each kind's maker".
"""

from __future__ import annotations

import random

from numgrid.server.chain import Grade
from numgrid.server.core import Budget
from numgrid.server.core import Grid
from numgrid.server.core import SearchTimeout
from numgrid.server.kinds import latin
from numgrid.server.kinds.base import Spec
from numgrid.server.kinds.making import unreachable

from . import native
from .grading import Broken
from .grading import Graded
from .grading import Grading
from .grading import allowance
from .grading import quiet_grade
from .model import MAX_SIZE
from .model import SIDES
from .model import Puzzle
from .model import visible

MIN_SIZE = 3  # a 1x1 or 2x2 grid has nothing to deduce
REDRAWS = 6  # squares drawn within one candidate before one graded off target is returned
START_SHARE = 0.35  # the share of the clues a candidate starts from (more where it stalls)
SKIP_SHARE = 0.5  # at pressure -1, the share of clues kept without being tried
# At pressure 1, how many more sequence steps than the grade allows (the chain's
# THRESHOLDS) the maker may allow at the grade's upper end.
STRETCH = {Grade.MEDIUM: 1, Grade.HARD: 3, Grade.EXPERT: 0}
POLL_EVERY = 16  # removals tried, or search branches, between budget checks
SEARCH_NODES = 40  # branches of a search for a second solution before a removal is not made
TABLE_SIZE = 6  # up to this size EXTREME starts from a share of the clues, beyond from all


# ---------------------------------------------------------------- the latin square


def latin_square(n: int, rng: random.Random) -> Grid:
    """A random N x N latin square of heights 1..N, as Towers' ``latin_generate``: the
    heights tried in a fresh random order at every column (:func:`.latin.latin_square`)."""
    return latin.latin_square(n, rng, reshuffle=True)


def clues_of(grid: Grid) -> tuple[int, ...]:
    """Every clue of a full grid, side by side (top, bottom, left, right; see
    :data:`.model.SIDES`), each side's by index."""
    n = len(grid)
    return tuple(
        visible(grid[r][c] for r, c in side.cells(i, n)) for side in SIDES for i in range(n)
    )


def _puzzle(n: int, clues, givens) -> Puzzle:
    """A plain puzzle from the clues side by side and the givens by cell (0: none)."""
    sides = [tuple(clues[k * n : k * n + n]) for k in range(len(SIDES))]
    rows = tuple(tuple(givens[r * n : r * n + n]) for r in range(n))
    top, bottom, left, right = sides
    return Puzzle(n, n, False, top, bottom, left, right, rows)


# ---------------------------------------------------------------- the maker


def _solutions(n: int, clues, givens, budget: Budget, most: int | None = None):
    """Up to two solutions, by the native engine (tallest heights tried first); None
    when that takes more than ``most`` branches."""
    result = native.search(
        _puzzle(n, clues, givens), limit=2, budget=budget, most_nodes=most, tallest_first=True
    )
    if not result.complete:
        if budget.expired():
            raise SearchTimeout()
        return None
    return result.solutions


def _order(n: int, clues: list[int], givens: list[int], rng: random.Random):
    """What to try leaving out: the givens, then the clues, each in random order, as
    (the list, the index)."""
    given = [i for i, v in enumerate(givens) if v]
    rng.shuffle(given)
    sides = [v for v, clue in enumerate(clues) if clue]
    rng.shuffle(sides)
    return [(givens, i) for i in given] + [(clues, i) for i in sides]


class Maker:
    """Skyscraper's :class:`~numgrid.server.kinds.base.Maker` (plain puzzles)."""

    def problems(self, spec: Spec) -> list[tuple[str, str]]:
        found = []
        if spec.diagonals:  # its puzzles have a diagonal variant, which is not made
            found.append(("diagonals", "the diagonal Skyscraper variant is not generated"))
        if spec.rows != spec.cols:
            found.append(("cols", f"a Skyscraper is square: {spec.rows}x{spec.cols} is not"))
        if not MIN_SIZE <= spec.rows <= MAX_SIZE:
            found.append(
                ("rows", f"a Skyscraper is {MIN_SIZE} to {MAX_SIZE} cells wide, not {spec.rows}")
            )
        else:
            size = f"{spec.rows}x{spec.rows}"
            found += unreachable("Skyscraper", size, spec.grade, reachable(spec.rows))
        return found

    def candidate(
        self, spec: Spec, rng: random.Random, pressure: float, budget: Budget
    ) -> tuple[Puzzle, Grid]:
        n = spec.rows
        target = spec.grade
        if target is None:  # any grade: one of those made fast
            target = rng.choice([g for g in reachable(n) if g <= Grade.HARD])
        for _ in range(REDRAWS):
            solution = latin_square(n, rng)
            if target is Grade.EXTREME:
                clues, givens, grade = self._extreme(n, solution, rng, budget)
            else:
                clues, givens, grade = self._within(n, solution, target, pressure, rng, budget)
            if grade == target:
                break
        return _puzzle(n, clues, givens), solution

    @staticmethod
    def _within(n, solution, target, pressure, rng, budget):
        """Clues and givens left once every one that can go has gone, the chain still
        grading the puzzle at most ``target``; and its grade."""
        values = [v for row in solution for v in row]
        up_to, most = allowance(target)
        most += round(max(pressure, 0.0) * STRETCH.get(target, 0))
        easy = target is Grade.EASY

        def judged(clues, givens) -> Graded:
            try:
                return quiet_grade(n, clues, givens, up_to, most)
            except Broken:  # never from the solution's own clues and heights; but if so,
                open_cells = tuple(i for i, v in enumerate(givens) if not v)
                return Graded(None, 0, open_cells)  # heights given until it is solved

        every = clues_of(solution)
        share = 1.0 if easy else START_SHARE
        clues = [c if rng.random() < share else 0 for c in every]
        givens = [0] * (n * n)
        grading = Grading(n, clues, givens)
        try:
            while (found := grading.verdict(up_to, most)).grade is None:
                # where the chain stalls: a clue of a line through a cell left open, or
                # (when those are all there) the cell's height given; and on from there
                missing = [v for v in grading.views_through(found.stalled) if not clues[v]]
                if missing:
                    v = rng.choice(missing)
                    clues[v] = every[v]
                    grading.clue_added(v)
                else:
                    i = rng.choice(found.stalled)
                    givens[i] = values[i]
                    grading.height_given(i, values[i])
        except Broken:  # as in judged(): never, but not trusted
            pass
        while (found := judged(clues, givens)).grade is None:  # afresh: rarely more
            i = rng.choice(found.stalled)
            givens[i] = values[i]
        grade = found.grade
        skip = SKIP_SHARE * max(-pressure, 0.0)
        order = _order(n, clues, givens, rng)
        if easy:  # every clue stays, as in Towers: only the givens go
            order = [(where, i) for where, i in order if where is givens]
        for k, (where, i) in enumerate(order):
            if not k % POLL_EVERY and budget.expired():
                raise SearchTimeout()
            if skip and rng.random() < skip:
                continue
            kept, where[i] = where[i], 0
            now = judged(clues, givens).grade
            if now is None:
                where[i] = kept
            else:
                grade = now
        return clues, givens, grade

    @staticmethod
    def _extreme(n, solution, rng, budget):
        """Clues and givens left once every one that can go has gone, the puzzle still
        unique; and EXTREME if the chain then stalls short of a trial, else its grade.
        From a random
        share of the clues made unique (up to :data:`TABLE_SIZE`; beyond, a search of a
        puzzle with few clues is slow, so from every clue); a removal whose search takes
        more than :data:`SEARCH_NODES` branches is not made."""
        every = clues_of(solution)
        values = [v for row in solution for v in row]
        share = START_SHARE if n <= TABLE_SIZE else 1.0
        clues = [c if rng.random() < share else 0 for c in every]
        givens = [0] * (n * n)
        while len(found := _solutions(n, clues, givens, budget)) > 1:
            other = next(s for s in found if s != solution)
            telling = _telling(clues, every, clues_of(other))
            if telling:
                v = rng.choice(telling)
                clues[v] = every[v]
            else:
                i = rng.choice(_differing(values, other, givens))
                givens[i] = values[i]
        for where, i in _order(n, clues, givens, rng):
            kept, where[i] = where[i], 0
            found = _solutions(n, clues, givens, budget, SEARCH_NODES)
            if found is None or len(found) > 1:
                where[i] = kept
        try:
            grade = quiet_grade(n, clues, givens).grade
        except Broken:  # never from the solution's own clues and heights
            return clues, givens, None
        return clues, givens, Grade.EXTREME if grade is None else grade

    def repair(self, puzzle: Puzzle, solution: Grid, other: Grid, rng: random.Random):
        """A missing clue of a line where ``other`` differs that counts differently in
        ``solution``; else the height of a differing cell, given."""
        n = puzzle.size
        every = clues_of(solution)
        clues = [c for side in SIDES for c in puzzle.clues(side)]
        givens = [v for row in puzzle.givens for v in row]
        telling = _telling(clues, every, clues_of(other))
        if telling:
            v = rng.choice(telling)
            clues[v] = every[v]
        else:
            cells = _differing([v for row in solution for v in row], other, givens)
            if not cells:
                return None
            i = rng.choice(cells)
            givens[i] = solution[i // n][i % n]
        return _puzzle(n, clues, givens)


def _telling(clues, every, others) -> list[int]:
    """The clues missing from ``clues`` whose count differs in the other grid."""
    return [v for v, clue in enumerate(clues) if not clue and every[v] != others[v]]


def _differing(values, other: Grid, givens) -> list[int]:
    """The cells not given where the other grid differs from ``values``."""
    n = len(other)
    return [i for i, v in enumerate(values) if other[i // n][i % n] != v and not givens[i]]


def reachable(n: int) -> list[Grade]:
    """The grades a puzzle of size ``n`` can be made at (measured)."""
    return REACHABLE.get(n, list(Grade))


# Measured (2026-11, 200 draws of each path at sizes 3 and 4): no 3x3 puzzle needs more
# than 8 sequence steps or a trial (Towers makes none harder than Hard at 3 either), no
# 4x4 one more than 8 sequence steps; from 5x5 on every grade is made.
REACHABLE: dict[int, list[Grade]] = {
    3: [Grade.EASY, Grade.MEDIUM, Grade.HARD],
    4: [Grade.EASY, Grade.MEDIUM, Grade.HARD, Grade.EXTREME],
}

MAKER = Maker()
