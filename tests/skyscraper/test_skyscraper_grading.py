"""The fast grading the maker uses (:mod:`numgrid.server.kinds.skyscraper.grading`)
against the chain it drives: on every plain corpus puzzle and on seeded random ones, the
same grade, the same count of sequence steps and the same cells left open where it
stalls, with the grade limits the maker asks; and what it removes is never the
solution's height."""

from __future__ import annotations

import random
from collections import Counter

from numgrid.server.chain import Grade
from numgrid.server.kinds.skyscraper import formats
from numgrid.server.kinds.skyscraper import logic
from numgrid.server.kinds.skyscraper.generator import clues_of
from numgrid.server.kinds.skyscraper.generator import latin_square
from numgrid.server.kinds.skyscraper.grading import UNLIMITED
from numgrid.server.kinds.skyscraper.grading import Grading
from numgrid.server.kinds.skyscraper.grading import allowance
from numgrid.server.kinds.skyscraper.grading import quiet_grade
from numgrid.server.kinds.skyscraper.model import SIDES
from numgrid.server.kinds.skyscraper.model import Puzzle
from numgrid.server.kinds.skyscraper.techniques import Technique
from support.skyscraper import corpus


def plain(n: int, clues, givens) -> Puzzle:
    """A plain puzzle from its clues side by side and its givens by cell (0: none)."""
    top, bottom, left, right = (tuple(clues[k * n : k * n + n]) for k in range(len(SIDES)))
    rows = tuple(tuple(givens[r * n : r * n + n]) for r in range(n))
    return Puzzle(n, n, False, top, bottom, left, right, rows)


def chains(puzzle: Puzzle, up_to: Technique = Technique.SEQUENCES, most: int = UNLIMITED):
    """What the chain makes of a puzzle, as a grading says it: (grade, sequence steps,
    the cells left open)."""
    chain = logic.ladder(puzzle)
    told = chain.explain(puzzle, None, up_to, quiet=True, most={Technique.SEQUENCES: most})
    n = puzzle.size
    open_cells = tuple(r * n + c for (r, c), values in told.candidates.items() if len(values) > 1)
    sequences = told.technique_counts[Technique.SEQUENCES]
    return (told.grade, sequences, () if told.solved else open_cells)


def graded(n: int, clues, givens, up_to=Technique.SEQUENCES, most=UNLIMITED):
    found = quiet_grade(n, clues, givens, up_to, most)
    return (found.grade, found.sequences, found.stalled)


def test_the_corpus_is_graded_as_the_chain_grades_it():
    checked = 0
    published = corpus()
    for key in sorted(published, key=lambda key: int(key.split("_")[0])):
        puzzle = formats.read_janko(published[key]["problem"]).puzzle
        if puzzle.height != puzzle.size or puzzle.diagonals:
            continue
        n = puzzle.size
        clues = [c for side in SIDES for c in puzzle.clues(side)]
        givens = [v for row in puzzle.givens for v in row]
        assert graded(n, clues, givens) == chains(puzzle), key
        checked += 1
    assert checked > 100


def random_puzzles(count: int, seed: int):
    """(size, solution by cell, clues, givens): random squares of 4 to 7 (a line of seven
    open cells has hidden subsets that are no naked ones of two to four), a random share
    of their clues and a few heights given."""
    rng = random.Random(seed)
    for _ in range(count):
        n = rng.randint(4, 7)
        square = latin_square(n, rng)
        share = rng.choice([0.5, 0.7, 0.85, 1.0])
        clues = [c if rng.random() < share else 0 for c in clues_of(square)]
        values = [v for row in square for v in row]
        givens = [v if rng.random() < 0.08 else 0 for v in values]
        yield n, values, clues, givens


def test_random_puzzles_are_graded_as_the_chain_grades_them_within_each_allowance():
    """On 240 seeded puzzles, for every grade's allowance the maker asks (the hardest
    technique and the most sequence steps, one more than MEDIUM's too): the chain's
    verdict. The grades and steps summed are pinned too (as the chain gave them before
    its techniques' cores were shared with the grading): a core that changes what it
    finds changes them."""
    allowances = [allowance(g) for g in (Grade.EASY, Grade.MEDIUM, Grade.HARD, Grade.EXPERT)]
    allowances.append((Technique.SEQUENCES, allowance(Grade.MEDIUM)[1] + 1))
    grades: Counter[Grade | None] = Counter()
    steps = 0
    for n, values, clues, givens in random_puzzles(240, seed=25):
        puzzle = plain(n, clues, givens)
        for up_to, most in allowances:
            found = graded(n, clues, givens, up_to, most)
            assert found == chains(puzzle, up_to, most), (n, clues, givens, up_to, most)
        grading = Grading(n, clues, givens)
        found = grading.verdict()
        assert all(m >> (v - 1) & 1 for m, v in zip(grading.masks, values, strict=True))
        grades[found.grade] += 1
        steps += found.sequences
    assert dict(grades) == PINNED_GRADES and steps == PINNED_STEPS


# The chain's grades of random_puzzles(240, seed=25) without limits, and its sequence
# steps summed (logic.explain before its cores were shared, 2026-11-29).
PINNED_GRADES: dict[Grade | None, int] = {None: 177, Grade.EASY: 52, Grade.MEDIUM: 7, Grade.HARD: 4}
PINNED_STEPS = 792
