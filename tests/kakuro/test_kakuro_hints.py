"""Logical hints, explanations and grades through a real ``numgrid-server`` (raw stubs):
mistakes first (a broken rule, then an entry that differs from the unique solution), then
the simplest step with the techniques allowed, or NO_STEP with a labelled trial and a
reveal; the region sum that unlocks a puzzle; Explain checked against a published
solution; the difficulty of Solve and CheckUniqueness; and the bounds on the time spent.
"""

from __future__ import annotations

import time

import grpc
import pytest
from numgrid.server import operations
from numgrid.server.core import Budget
from numgrid.server.core import SearchTimeout
from numgrid.server.core import Verdict
from numgrid.server.engines import Answer
from numgrid.server.kinds import KINDS
from numgrid.v1 import numgrid_service_pb2 as service_pb2
from numgrid.v1 import puzzle_pb2 as pb
from support.kakuro import NECK  # seed 001's neck, with clues that stall techniques 1-6
from test_service import MULTIPLE
from test_service import NO_SOLUTION
from test_service import grid_of
from test_service import open_grid
from test_service import white_cells
from test_service import with_entries

KAKURO = KINDS["kakuro"]
TWELVE = "162_12x12"
TRIAL_PUZZLE = "226_14x24"  # the one corpus puzzle that needs a trial
T = service_pb2  # Technique and Grade values, e.g. T.TECHNIQUE_REGION_SUM


# ---------------------------------------------------------------- helpers


@pytest.fixture(scope="module")
def twelve(corpus_puzzle):
    problem, solution = corpus_puzzle(TWELVE)
    return problem, grid_of(solution)


def source(text: str) -> pb.PuzzleInput:
    return pb.PuzzleInput(text=pb.PuzzleText(content=text))


def hint(stub, board: str, **fields) -> service_pb2.HintResponse:
    return stub.Hint(service_pb2.HintRequest(puzzle=source(board), **fields), timeout=30)


def explain(stub, board: str, **fields) -> service_pb2.ExplainResponse:
    return stub.Explain(service_pb2.ExplainRequest(puzzle=source(board), **fields), timeout=60)


def cells_of(refs) -> list[tuple[int, int]]:
    return [(ref.row, ref.column) for ref in refs]


def placements_of(items) -> list[tuple[int, int, int]]:
    return [(p.cell.row, p.cell.column, p.digit) for p in items]


def assert_sound(steps, solution) -> None:
    """Every placement is the solution's digit; no elimination removes it."""
    for step in steps:
        for r, c, d in placements_of(step.placements):
            assert solution[r][c] == d, step.explanation
        for r, c, d in placements_of(step.eliminations):
            assert solution[r][c] != d, step.explanation


def placed(problem: str, steps) -> str:
    """``problem`` with the digits the steps placed entered, as a player would have them."""
    return with_entries(
        problem, {(r, c): d for s in steps for r, c, d in placements_of(s.placements)}
    )


def neck_stalled(stub) -> str:
    """NECK as a player stuck with techniques 1-6 has it: they only rule digits out
    (checked through Explain), so no digit is entered, and only a region sum places one."""
    stalled = explain(stub, NECK, max_technique=T.TECHNIQUE_COMBINATION_ELIMINATION)
    assert not stalled.solved and stalled.steps
    assert stalled.difficulty.grade == T.GRADE_UNSPECIFIED
    assert placed(NECK, stalled.steps) == NECK  # nothing placed
    return NECK


def neck_solution(stub) -> list[list[int]]:
    reply = stub.Solve(service_pb2.SolveRequest(puzzle=source(NECK)), timeout=30)
    assert reply.verdict == pb.VERDICT_UNIQUE
    return [list(row.values) for row in reply.solution.rows]


# ---------------------------------------------------------------- mistakes first


def test_a_broken_rule_is_a_mistake(stub, twelve):
    problem, _ = twelve
    reply = hint(stub, with_entries(problem, {(1, 2): 5, (1, 3): 5}), placements_only=True)
    assert reply.kind == T.HINT_KIND_MISTAKE
    assert sorted(cells_of(reply.cells)) == [(1, 2), (1, 3)]
    assert [f.code for f in reply.findings] == ["duplicate"]
    assert "Fix r1c2 and r1c3" in reply.explanation
    assert not reply.placements and not reply.HasField("step")
    assert reply.verdict == pb.VERDICT_UNSPECIFIED  # no search was needed


def test_an_entry_that_differs_from_the_solution_is_a_mistake(stub, twelve):
    problem, solution = twelve
    wrong = solution[2][1] % 9 + 1
    reply = hint(stub, with_entries(problem, {(1, 2): solution[1][2], (2, 1): wrong}))
    assert reply.kind == T.HINT_KIND_MISTAKE
    assert cells_of(reply.cells) == [(2, 1)]
    assert [f.code for f in reply.findings] == ["wrong_entry"]
    assert "differs from the puzzle's unique solution" in reply.explanation
    assert reply.verdict == pb.VERDICT_UNIQUE
    assert not reply.placements and not reply.HasField("step")


# ---------------------------------------------------------------- steps


def test_the_first_step_on_an_empty_grid(stub, twelve):
    problem, solution = twelve
    reply = hint(stub, problem)
    assert reply.kind == T.HINT_KIND_STEP and reply.verdict == pb.VERDICT_UNIQUE
    step = reply.step
    assert step.technique == T.TECHNIQUE_COMBINATIONS
    assert not step.placements and not reply.placements and step.eliminations
    # The explanation names the run, its clue and what it can be, with the numbers.
    (run,) = step.groups
    direction = "Across" if run.type == T.GROUP_TYPE_ACROSS else "Down"
    where = f"r{run.clue_cell.row}c{run.clue_cell.column}"
    assert step.explanation.startswith(f"{direction} {run.clue} at {where} in ")
    assert "can only be" in step.explanation or "cannot hold" in step.explanation
    assert reply.explanation == step.explanation
    # The cells of the hint are those that lose digits.
    assert set(cells_of(reply.cells)) == {(r, c) for r, c, _ in placements_of(step.eliminations)}
    assert_sound([step], solution)


def test_placements_only(stub, twelve):
    problem, solution = twelve
    reply = hint(stub, problem, placements_only=True)
    assert reply.kind == T.HINT_KIND_STEP
    step = reply.step
    assert step.placements and placements_of(reply.placements) == placements_of(step.placements)
    assert cells_of(reply.cells) == [(r, c) for r, c, _ in placements_of(step.placements)]
    (r, c, d) = placements_of(step.placements)[0]
    assert step.explanation.endswith(f"r{r}c{c} = {d}.")
    assert_sound([step], solution)


def test_a_placement_from_a_mid_solve_position(stub, twelve):
    problem, solution = twelve
    cells = white_cells(solution)
    entries = {cell: solution[cell[0]][cell[1]] for cell in cells[::2]}
    reply = hint(stub, with_entries(problem, entries), placements_only=True)
    assert reply.kind == T.HINT_KIND_STEP
    assert reply.step.technique != T.TECHNIQUE_TRIAL
    for r, c, d in placements_of(reply.placements):
        assert (r, c) not in entries and solution[r][c] == d
    assert_sound([reply.step], solution)


def test_region_sum_unlocks_the_puzzle_through_the_rpc(stub):
    solution = neck_solution(stub)
    board = neck_stalled(stub)
    for allowed in (T.TECHNIQUE_UNSPECIFIED, T.TECHNIQUE_REGION_SUM):  # the default: all but trial
        reply = hint(stub, board, placements_only=True, max_technique=allowed)
        assert reply.kind == T.HINT_KIND_STEP
        assert reply.step.technique == T.TECHNIQUE_REGION_SUM
        assert placements_of(reply.placements) == [(4, 5, 8)]
        assert "the across clues 5 + 6 + 14 + 33 = 58" in reply.explanation
        assert "the down clues 10 + 24 + 9 + 7 = 50" in reply.explanation
        assert "58 - 50 = 8, so r4c5 = 8." in reply.explanation
        assert_sound([reply.step], solution)
    # The whole chain: with region sums it completes the grid, graded EXPERT.
    done = explain(stub, NECK, max_technique=T.TECHNIQUE_REGION_SUM)
    assert done.solved and done.difficulty.solved_by_logic
    assert [s.technique for s in done.steps].count(T.TECHNIQUE_REGION_SUM) == 1
    assert done.difficulty.grade == T.GRADE_EXPERT
    assert done.difficulty.hardest == T.TECHNIQUE_REGION_SUM
    assert_sound(done.steps, solution)


def test_below_the_technique_needed_a_labelled_trial_and_reveal(stub):
    solution = neck_solution(stub)
    board = neck_stalled(stub)
    reply = hint(
        stub, board, placements_only=True, max_technique=T.TECHNIQUE_COMBINATION_ELIMINATION
    )
    assert reply.kind == T.HINT_KIND_NO_STEP and reply.verdict == pb.VERDICT_UNIQUE
    assert reply.explanation.startswith(
        "No logical step with the techniques up to combination elimination is left."
    )
    [(r, c, d)] = placements_of(reply.placements)
    assert cells_of(reply.cells) == [(r, c)]
    assert solution[r][c] == d and f"r{r}c{c} is {d}" in reply.explanation
    assert "taken from the puzzle's unique solution, not deduced" in reply.explanation
    # The trial offered is labelled as the last resort, and sound.
    assert reply.step.technique == T.TECHNIQUE_TRIAL
    assert reply.step.explanation.startswith("Trial (a last resort): if ")
    assert reply.step.explanation in reply.explanation
    assert_sound([reply.step], solution)


def test_with_only_the_simplest_technique(stub, twelve):
    problem, solution = twelve
    reply = hint(stub, problem, max_technique=T.TECHNIQUE_LAST_CELL)
    assert reply.kind == T.HINT_KIND_NO_STEP  # an empty grid has no last cell
    assert "techniques up to last cell" in reply.explanation
    [(r, c, d)] = placements_of(reply.placements)
    assert solution[r][c] == d


def test_a_puzzle_that_needs_a_trial(stub, corpus_puzzle):
    problem, solution_text = corpus_puzzle(TRIAL_PUZZLE)
    solution = grid_of(solution_text)
    stalled = explain(stub, problem, max_technique=T.TECHNIQUE_REGION_SUM)
    assert not stalled.solved
    board = placed(problem, stalled.steps)
    offered = hint(stub, board, placements_only=True)  # the default stops before trial
    assert offered.kind == T.HINT_KIND_NO_STEP
    assert "techniques up to region sum" in offered.explanation
    assert offered.step.technique == T.TECHNIQUE_TRIAL
    assert_sound([offered.step], solution)
    allowed = hint(stub, board, placements_only=True, max_technique=T.TECHNIQUE_TRIAL)
    assert allowed.kind == T.HINT_KIND_STEP
    assert allowed.step.technique == T.TECHNIQUE_TRIAL and allowed.placements
    assert "Trial (a last resort)" in allowed.explanation
    assert_sound([allowed.step], solution)


# ---------------------------------------------------------------- no hint to give


@pytest.mark.parametrize(
    ("puzzle", "verdict"), [(MULTIPLE, "MULTIPLE"), (NO_SOLUTION, "NO_SOLUTION")]
)
def test_not_unique(stub, puzzle, verdict):
    reply = hint(stub, puzzle, placements_only=True)
    assert reply.kind == T.HINT_KIND_NOT_UNIQUE
    assert reply.verdict == pb.Verdict.Value(f"VERDICT_{verdict}")
    assert not reply.placements and not reply.HasField("step")


def test_solved(stub, twelve):
    problem, solution = twelve
    board = with_entries(
        problem, {cell: solution[cell[0]][cell[1]] for cell in white_cells(solution)}
    )
    reply = hint(stub, board)
    assert reply.kind == T.HINT_KIND_SOLVED
    assert not reply.cells and not reply.placements and not reply.HasField("step")


def test_an_unknown_technique_is_refused(stub, twelve):
    problem, _ = twelve
    for call in (
        lambda: hint(stub, problem, max_technique=99),
        lambda: explain(stub, problem, max_technique=99),
    ):
        with pytest.raises(grpc.RpcError) as caught:
            call()
        assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert "unknown technique 99" in caught.value.details()


# ---------------------------------------------------------------- Explain


def test_explain_a_corpus_puzzle(stub, twelve):
    problem, solution = twelve
    reply = explain(stub, problem)
    assert reply.solved and len(reply.steps) > 50
    assert_sound(reply.steps, solution)
    filled = {(r, c): d for s in reply.steps for r, c, d in placements_of(s.placements)}
    assert filled == {cell: solution[cell[0]][cell[1]] for cell in white_cells(solution)}
    assert all(s.explanation and s.technique != T.TECHNIQUE_UNSPECIFIED for s in reply.steps)
    difficulty = reply.difficulty
    assert difficulty.solved_by_logic and difficulty.grade != T.GRADE_UNSPECIFIED
    counts = {c.technique: c.count for c in difficulty.counts}
    assert len(counts) == 8 and sum(counts.values()) == len(reply.steps)
    assert difficulty.hardest == max(t for t, n in counts.items() if n)
    assert reply.puzzle.kakuro.rows  # for rendering


def test_explain_from_entries(stub, twelve):
    problem, solution = twelve
    entries = {cell: solution[cell[0]][cell[1]] for cell in white_cells(solution)[:20]}
    reply = explain(stub, with_entries(problem, entries))
    assert reply.solved
    placed_cells = {(r, c) for s in reply.steps for r, c, _ in placements_of(s.placements)}
    assert not placed_cells & set(entries)  # the entries are the starting position
    assert_sound(reply.steps, solution)


def test_explain_refuses_entries_that_break_a_rule(stub, twelve):
    problem, _ = twelve
    with pytest.raises(grpc.RpcError) as caught:
        explain(stub, with_entries(problem, {(1, 2): 5, (1, 3): 5}))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "appears 2 times" in caught.value.details()


def test_explain_stops_at_the_deadline(stub):
    # 124x90 with many solutions: region sums and trials over ~10,000 open cells take
    # minutes; the budget stops them, and the server answers the next call at once.
    start = time.monotonic()
    with pytest.raises(grpc.RpcError) as caught:
        stub.Explain(service_pb2.ExplainRequest(puzzle=source(open_grid(124, 90))), timeout=2)
    assert caught.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert time.monotonic() - start < 3
    reply = stub.Explain(service_pb2.ExplainRequest(puzzle=source(MULTIPLE)), timeout=5)
    assert not reply.solved


def test_explain_keeps_its_budget_between_the_runs_of_a_large_grid():
    """Issue 29, item 2: one technique over the 3,528 runs of a 140x140 grid, a run at a
    time, took 4 s without looking at the budget (Explain ended 3 s past its deadline);
    the chain looks at it before each run."""
    board, _ = operations.read_board(KAKURO, open_grid(140, 140), None, 20_000)
    start = time.monotonic()
    with pytest.raises(SearchTimeout):
        operations.explain(KAKURO, board, budget=Budget.seconds(0.5))
    assert time.monotonic() - start < 0.5 + 0.4


# ---------------------------------------------------------------- difficulty


def test_solve_and_check_uniqueness_grade_a_unique_puzzle(stub, twelve):
    problem, _ = twelve
    graded = explain(stub, problem).difficulty
    solved = stub.Solve(service_pb2.SolveRequest(puzzle=source(problem)), timeout=30)
    checked = stub.CheckUniqueness(
        service_pb2.CheckUniquenessRequest(puzzle=source(problem)), timeout=30
    )
    for reply in (solved, checked):
        assert reply.verdict == pb.VERDICT_UNIQUE
        assert reply.HasField("difficulty")
        assert reply.difficulty == graded
    assert graded.grade == T.GRADE_HARD  # the corpus split: see logic.py


@pytest.mark.parametrize("puzzle", [MULTIPLE, NO_SOLUTION])
def test_no_difficulty_without_a_unique_solution(stub, puzzle):
    solved = stub.Solve(service_pb2.SolveRequest(puzzle=source(puzzle)), timeout=30)
    checked = stub.CheckUniqueness(
        service_pb2.CheckUniquenessRequest(puzzle=source(puzzle)), timeout=30
    )
    assert not solved.HasField("difficulty") and not checked.HasField("difficulty")


def test_a_grade_that_runs_out_of_time_is_left_out(corpus_puzzle):
    problem, _ = corpus_puzzle(TRIAL_PUZZLE)  # its chain takes about half a second
    board, _ = operations.read_board(KAKURO, problem, None, 1000)
    unique = Answer(Verdict.UNIQUE, ((),), (), ())
    hurried = Budget.seconds(0.02)  # half of it for the grade: far too little
    assert operations.difficulty(KAKURO, board, unique, budget=hurried, hold_entries=False) is None
    graded = operations.difficulty(
        KAKURO, board, unique, budget=Budget.seconds(30), hold_entries=False
    )
    assert graded.grade.name == "EXTREME" and graded.hardest.name == "TRIAL"
    assert graded.solved_by_logic


def test_a_remembered_grade_does_not_keep_its_puzzle_alive(twelve):
    # the grades cache is keyed by a digest: it keeps no puzzle object (nor what the
    # engines derived from it), yet the grade of the same puzzle read again is remembered
    problem, _ = twelve
    board, _ = operations.read_board(KAKURO, problem, None, 1000)
    unique = Answer(Verdict.UNIQUE, ((),), (), ())
    graded = operations.difficulty(
        KAKURO, board, unique, budget=Budget.seconds(30), hold_entries=False
    )
    keys = list(operations._difficulties.items)
    assert keys and all(isinstance(key, bytes) for key in keys)  # digests, no puzzles
    again, _ = operations.read_board(KAKURO, problem, None, 1000)
    expired = Budget.seconds(0)  # too little to grade anew: only the cache can answer
    remembered = operations.difficulty(KAKURO, again, unique, budget=expired, hold_entries=False)
    assert remembered == graded


# ---------------------------------------------------------------- the Python client


def test_the_client_returns_plain_values(server_process, twelve):
    from numgrid.client import Difficulty
    from numgrid.client import Explanation
    from numgrid.client import NumgridClient
    from numgrid.client import Step

    problem, solution = twelve
    with NumgridClient(server_process.target, timeout=30) as client:
        result = client.hint(problem, max_technique="crossing", placements_only=True)
        assert result.kind == "STEP" and isinstance(result.step, Step)
        assert result.step.technique in ("LAST_CELL", "COMBINATIONS", "CROSSING")
        ((r, c), d) = result.placements[0]
        assert solution[r][c] == d
        with pytest.raises(ValueError, match="unknown technique"):
            client.hint(problem, max_technique="guessing")
        explanation = client.explain(problem)
        assert isinstance(explanation, Explanation) and explanation.solved
        assert isinstance(explanation.difficulty, Difficulty)
        assert explanation.difficulty.grade == "HARD"
        assert sum(explanation.difficulty.counts.values()) == len(explanation.steps)
        assert explanation.steps[0].groups[0].type in ("across", "down")
        assert client.solve(problem).difficulty == explanation.difficulty
        assert client.check_uniqueness(problem).difficulty == explanation.difficulty
        assert client.check_uniqueness(MULTIPLE).difficulty is None
