"""The units ladder: every step of every explanation agrees with the known solution,
on corpus puzzles and on grids of other shapes; grades and points are monotone."""

from __future__ import annotations

import re

import pytest
from numgrid.server.chain import Grade
from numgrid.server.kinds.units import ladder
from numgrid.server.kinds.units.ladder import Technique
from numgrid.server.kinds.units.shape import shape
from numgrid.server.kinds.units.techniques_chains import solve
from units_support import SEVENTEEN
from units_support import TOP
from units_support import Puzzle
from units_support import lines
from units_support import puzzle
from units_support import solution
from units_support import wrong

CELL = re.compile(r"r\d+c\d+")


def _check_explanation(p: Puzzle) -> ladder.Explanation:
    sol = solution(p)
    found = ladder.explain(p)
    assert found.solved, found.contradiction
    n = p.shape.size
    for step in found.steps:
        assert not wrong(step, sol, n)
        assert step.placements or step.eliminations, step.explanation
        assert CELL.search(step.explanation), step.explanation
        assert step.explanation.endswith("."), step.explanation
    assert [v for row in found.final for v in row] == sol
    return found


@pytest.mark.parametrize("k", range(0, 1004, 100))
def test_17_clue_explained_without_trial(k: int) -> None:
    found = _check_explanation(puzzle(lines(SEVENTEEN)[k]))
    assert found.technique_counts[Technique.TRIAL] == 0


@pytest.mark.parametrize("k", range(0, 1465, 150))
def test_top1465_steps_are_right(k: int) -> None:
    found = _check_explanation(puzzle(lines(TOP)[k]))
    assert found.grade is not None
    assert ladder.difficulty(found) > 0


def _pattern_solution(n: int, bh: int, bw: int) -> list[int]:
    """A valid filled grid with boxes of bh rows x bw columns (the shifted pattern)."""
    return [((r % bh) * bw + r // bh + c) % n + 1 for r in range(n) for c in range(n)]


def _minimal(grid, sol: list[int]) -> Puzzle:
    """Remove givens one by one while the puzzle keeps one solution."""
    givens = list(sol)
    for i in range(len(givens)):
        keep, givens[i] = givens[i], 0
        p = Puzzle(grid, tuple(givens))
        pos = ladder.position(p)
        if len(solve(pos, list(pos.masks), 2)) != 1:
            givens[i] = keep
    return Puzzle(grid, tuple(givens))


@pytest.mark.parametrize(("n", "bh", "bw"), [(4, 2, 2), (6, 2, 3), (9, 3, 3)])
def test_other_sizes(n: int, bh: int, bw: int) -> None:
    grid = shape(n, (bh, bw))
    sol = _pattern_solution(n, bh, bw)
    _check_explanation(_minimal(grid, sol))


def test_regions_and_diagonals() -> None:
    # regions: the boxes of a 6x6 read as irregular regions; diagonals: a 9x9 X grid
    regions = tuple(
        tuple((r, c) for r in range(6) for c in range(6) if (r // 2) * 2 + c // 3 == k)
        for k in range(6)
    )
    grid = shape(6, None, regions)
    _check_explanation(_minimal(grid, _pattern_solution(6, 2, 3)))
    x = shape(9, (3, 3), None, True)
    solved = solve(ladder.position(Puzzle(x, (0,) * 81)), [511] * 81, 1)
    assert solved
    _check_explanation(_minimal(x, solved[0]))


def test_grades_follow_hardest_technique_and_points() -> None:
    easy = {Technique.NAKED_SINGLE: 20, Technique.HIDDEN_SINGLE: 30}
    assert ladder.grade(easy) is Grade.EASY
    assert ladder.difficulty(easy) == 20 * 4 + 30 * 14
    many = {Technique.HIDDEN_SINGLE: 60}  # 840 points: past Easy's 800
    assert ladder.grade(many) is Grade.MEDIUM
    assert ladder.grade({Technique.POINTING: 1}) is Grade.MEDIUM
    assert ladder.grade({Technique.X_WING: 1}) is Grade.HARD
    assert ladder.grade({Technique.AIC: 1}) is Grade.EXPERT
    assert ladder.grade({Technique.FORCING_CHAIN: 9}) is Grade.EXPERT
    assert ladder.grade({Technique.TRIAL: 1}) is Grade.EXTREME
    # the point limits are for 81 cells: a 16x16 of singles has more of them
    singles = {Technique.HIDDEN_SINGLE: 100}
    assert ladder.grade(singles) is Grade.HARD
    assert ladder.grade(singles, cells=256) is Grade.EASY


def test_unique_rectangles_only_when_known_unique() -> None:
    p = puzzle(lines(TOP)[0])
    plain = Puzzle(p.shape, p.givens, unique=False)
    assert not ladder.explain(plain).technique_counts[Technique.UNIQUE_RECTANGLE]


def test_next_step_and_last_resort_from_entries() -> None:
    p = puzzle(lines(TOP)[3])
    sol = solution(p)
    step = ladder.next_step(p, placements_only=True)
    assert step is not None and step.placements
    assert not wrong(step, sol, 9)
    trial = ladder.last_resort(p)
    assert trial is not None and trial.technique is Technique.TRIAL
    assert not wrong(trial, sol, 9)
    half = [
        [sol[r * 9 + c] if (r + c) % 2 else p.givens[r * 9 + c] for c in range(9)] for r in range(9)
    ]
    step = ladder.next_step(p, half)
    assert step is not None and not wrong(step, sol, 9)


def test_a_ladder_can_add_techniques_on_top() -> None:
    """Another ladder's enum names these techniques and adds its own (here one that
    never finds anything, tried first): its steps and counts come in its enum."""
    import enum
    from functools import partial

    from numgrid.server.chain import WHOLE
    from numgrid.server.chain import Ladder

    names = ["EXTRA", *(t.name for t in Technique)]
    Wider = enum.IntEnum("Wider", [(name, k + 1) for k, name in enumerate(names)])  # type: ignore[misc]
    table = {Wider["EXTRA"]: (WHOLE, lambda pos: None)}
    table.update({Wider[t.name]: ladder.TABLE[t] for t in Technique})

    def position(puzzle: Puzzle, given: object) -> ladder.Position:
        pos = ladder.position(puzzle, given, unique=True)
        pos.techniques = Wider
        return pos

    wider = Ladder(
        techniques=Wider,
        table=table,
        keys=ladder.keys,
        position=partial(position),
        thresholds={},
        relevant=ladder.relevant,
    )
    p = puzzle(lines(TOP)[5])
    found = wider.explain(p)
    assert found.solved
    assert all(type(step.technique) is Wider for step in found.steps)
    assert sum(found.technique_counts.values()) == len(found.steps)
    assert not wrong_steps(found, solution(p))


def wrong_steps(found: ladder.Explanation, sol: list[int]) -> list[str]:
    return [w for step in found.steps for w in wrong(step, sol, 9)]


def test_relevant_steps_reach_box_peers() -> None:
    """A placement's digit leaves its box too: a hint's summary keeps it for a cell of
    the same box in another row and column."""
    from numgrid.server.core import Step

    placed = Step(Technique.HIDDEN_SINGLE, (((0, 0), 5),), (), (), ((0, 0),), "r0c0 = 5.")
    far = Step(Technique.HIDDEN_SINGLE, (((8, 8), 5),), (), (), ((8, 8),), "r8c8 = 5.")
    grid = shape(9, (3, 3))
    assert ladder.relevant([placed, far], (), ((1, 1),), grid) == [placed]
    assert ladder.relevant([placed, far], (), ((1, 1),)) == []


def test_every_technique_is_named_in_the_proto() -> None:
    from numgrid.v1 import numgrid_service_pb2 as service_pb2

    names = set(service_pb2.Technique.keys())
    assert {f"TECHNIQUE_{t.name}" for t in Technique} <= names


@pytest.mark.parametrize("n", [9, 16])
def test_a_trial_on_a_grid_of_many_solutions_searches_a_few_times(n, monkeypatch):
    """With no candidate refuted by singles, the trial searches for a filling without
    each candidate; each filling found holds many candidates no search need try again.
    An empty grid has none to refute: a few dozen searches say so (an empty 16x16 had
    taken 3,840, past the 30 s cap)."""
    from numgrid.server.kinds.units import techniques_chains

    searches = []
    real = techniques_chains.solve

    def counted(*args, **keywords):
        searches.append(args)
        return real(*args, **keywords)

    monkeypatch.setattr(techniques_chains, "solve", counted)
    empty = puzzle("." * (n * n), shape(n, (3, 3) if n == 9 else (4, 4)))
    assert techniques_chains.trial(ladder.position(empty)) is None
    assert len(searches) <= 60


def test_the_forcing_chain_screen_admits_exactly_the_options_that_agree(monkeypatch) -> None:
    """The native engine's singles screen the options of a forcing chain; an option it
    turns away must be one that following singles step by step would not agree on, and
    one it admits one that would (so the chain takes the same steps with or without it)."""
    from numgrid.server.kinds.units import techniques_chains as chains

    screened = chains._may_agree
    asked = []

    def both(pos, branches, placing):
        admitted = screened(pos, branches, placing)
        agreed = chains._agreed(pos, branches)
        asked.append(admitted == (agreed is not None and (not placing or bool(agreed[0]))))
        return admitted

    monkeypatch.setattr(chains, "_may_agree", both)
    for line in lines(TOP)[:400:20]:  # 20 of the hardest, forcing chains among their steps
        ladder.explain(puzzle(line))
    assert len(asked) > 1000 and all(asked)
