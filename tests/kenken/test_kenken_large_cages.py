"""Cages too large to list (issue 29, item 1): a 9x9 whose one cage is all 81 cells
(``405+``), three 27-cell ``135+`` cages, rows as 9-cell ``362880x`` cages, an 11x11 of
eleven ``66+`` rows. Such cages are legal arithmetic; listing their layouts never ends.
Past :data:`arith.MAX_LAYOUTS` (or :data:`arith.MAX_STEPS` of listing) a cage is applied
by arithmetic instead: the checks by what its target allows, CP-SAT by its sum or its
primes' exponents, the native engine by partial sums or divisors; the techniques refuse
it in one sentence (a hint reveals a cell instead, no grade, Explain INVALID_ARGUMENT).
The arithmetic is checked against the layouts on the corpus: with no cage listed, both
engines still find each published solution, alone."""

from __future__ import annotations

import dataclasses
import time

import grpc
import pytest
from numgrid.client import NumgridClient
from numgrid.client import NumgridError
from numgrid.server import batch
from numgrid.server import convert
from numgrid.server.core import BeyondLogic
from numgrid.server.core import Board
from numgrid.server.core import Budget
from numgrid.server.core import SearchTimeout
from numgrid.server.core import call_budget
from numgrid.server.kinds.kenken import arith
from numgrid.server.kinds.kenken import native
from numgrid.server.kinds.kenken import techniques
from numgrid.server.kinds.kenken.model import ADD
from numgrid.server.kinds.kenken.model import MULTIPLY
from numgrid.server.kinds.kenken.model import Cage
from numgrid.server.kinds.kenken.model import Puzzle
from numgrid.v1 import numgrid_service_pb2 as service_pb2
from numgrid.v1 import puzzle_pb2 as pb
from support import DATA
from support.client import numgrid
from support.corpus import corpus_ids
from support.corpus import corpus_puzzle
from support.engines import searches
from support.kenken import KENKEN

run_native, run_cpsat, BOTH = searches(KENKEN)


def _janko(n: int, clues: dict[tuple[int, int], str], cage_of) -> str:
    rows = [" ".join(clues.get((r, c), ".") for c in range(n)) for r in range(n)]
    cages = [" ".join(str(cage_of(r, c) + 1) for c in range(n)) for r in range(n)]
    return f"{n} {n}\n" + "\n".join(rows + cages) + "\n"


WHOLE = _janko(9, {(0, 0): "405+"}, lambda r, c: 0)
THIRDS = _janko(9, {(3 * k, 0): "135+" for k in range(3)}, lambda r, c: r // 3)
PRODUCT_ROWS = _janko(9, {(r, 0): "362880*" for r in range(9)}, lambda r, c: r)
SUM_ROWS_11 = _janko(11, {(r, 0): "66+" for r in range(11)}, lambda r, c: r)
LARGE = {"whole": WHOLE, "thirds": THIRDS, "product_rows": PRODUCT_ROWS, "sum_rows": SUM_ROWS_11}


def _read(text: str) -> Puzzle:
    return KENKEN.formats.read(text, "janko", 20_000).puzzle


def _last_row_as_one_cage(key: str) -> tuple[Puzzle, tuple]:
    """A corpus 9x9's solution as a puzzle whose last row is one 9-cell ``362880x``
    cage (9! layouts: too many) and whose other cells are one-cell cages (givens): the
    columns fix the last row, so it is unique."""
    puzzle, solution = corpus_puzzle("kenken", key)
    n = puzzle.size
    givens = [Cage(solution[r][c], "", ((r, c),)) for r in range(n - 1) for c in range(n)]
    row = Cage(362880, MULTIPLY, tuple((n - 1, c) for c in range(n)))
    return dataclasses.replace(puzzle, cages=(*givens, row)), solution


UNIQUE_KEY = next(k for k in corpus_ids("kenken") if k.endswith("_9x9"))


def test_a_cage_with_too_many_layouts_says_so_and_is_not_listed_again(monkeypatch):
    cage = Cage(405, ADD, tuple((r, c) for r in range(9) for c in range(9)))
    with pytest.raises(arith.TooManyLayouts):
        arith.count(cage, 9)
    listed = []
    monkeypatch.setattr(arith, "_layouts", lambda *a: listed.append(a))
    with pytest.raises(arith.TooManyLayouts):
        arith.count(cage, 9)
    assert listed == []


@pytest.mark.parametrize("name", sorted(LARGE))
def test_a_large_cage_is_checked_by_its_target(name):
    puzzle = _read(LARGE[name])
    assert KENKEN.checks.check_puzzle(puzzle, None, 20_000) == []
    impossible = dataclasses.replace(
        puzzle, cages=(dataclasses.replace(puzzle.cages[0], target=7), *puzzle.cages[1:])
    )
    [finding] = KENKEN.checks.check_puzzle(impossible, None, 20_000)
    assert finding.code == "impossible_target"


def test_a_board_of_a_large_cage_is_judged_by_what_its_target_leaves():
    puzzle = _read(PRODUCT_ROWS)
    row = [[0] * 9 for _ in range(9)]
    row[0][:3] = [7, 7, 7]  # 343 does not divide 9!
    report = KENKEN.checks.validate_board(Board(puzzle, tuple(map(tuple, row))), None)
    assert "cage_impossible" in {f.code for f in report.findings}


@pytest.mark.parametrize("name", sorted(LARGE))
@BOTH
def test_both_engines_decide_a_puzzle_of_large_cages(name, search):
    result = search(_read(LARGE[name]), limit=2)
    assert result.complete and len(result.solutions) == 2


@BOTH
def test_a_unique_puzzle_with_a_large_cage_keeps_its_one_solution(search):
    puzzle, solution = _last_row_as_one_cage(UNIQUE_KEY)
    result = search(puzzle, limit=2)
    assert result.complete and result.solutions == (solution,)


def test_the_techniques_refuse_a_large_cage_in_one_sentence():
    puzzle, _ = _last_row_as_one_cage(UNIQUE_KEY)
    with pytest.raises(BeyondLogic) as caught:
        techniques.layout_of(puzzle)
    assert "cage 362880x at r8c0: its 9 cells have more than 262,144 layouts" in str(caught.value)


@pytest.fixture
def nothing_listed(monkeypatch):
    """Every cage of two cells or more too large to list: the arithmetic alone."""

    def clear():
        arith._recent.cache_clear()
        arith._packed.clear()
        arith._too_many.clear()
        native._tables.clear()
        native.compiled.cache_clear()

    clear()
    monkeypatch.setattr(arith, "MAX_LAYOUTS", 0)
    yield
    monkeypatch.undo()
    clear()


@BOTH
def test_the_arithmetic_alone_finds_each_corpus_solution(nothing_listed, search):
    keys = [k for k in corpus_ids("kenken") if int(k.split("_")[1].split("x")[0]) <= 6][:40]
    assert len(keys) == 40
    for key in keys:
        puzzle, solution = corpus_puzzle("kenken", key)
        result = search(puzzle, limit=2)
        assert result.complete and result.solutions == (solution,), key


# ---------------------------------------------------------------- over the wire


@pytest.fixture(scope="module")
def client(server_process):
    with NumgridClient(server_process.target, timeout=30) as c:
        yield c


@pytest.mark.parametrize("name", sorted(LARGE))
def test_every_call_on_large_cages_answers(client, name):
    text = LARGE[name]
    assert client.validate(text, kind="kenken").board_findings == ()
    assert client.solve(text, kind="kenken").verdict == "MULTIPLE"
    assert client.hint(text, kind="kenken").kind == "NOT_UNIQUE"
    with pytest.raises(NumgridError) as caught:
        client.explain(text, kind="kenken")
    assert caught.value.code == grpc.StatusCode.INVALID_ARGUMENT.name
    assert "too many for the logical techniques" in caught.value.message


def test_a_hint_on_a_unique_puzzle_with_a_large_cage_reveals_a_cell(client):
    puzzle, solution = _last_row_as_one_cage(UNIQUE_KEY)
    text = KENKEN.formats.write(Board.empty(puzzle), "janko")
    hint = client.hint(text, kind="kenken")
    assert hint.kind == "NO_STEP"
    assert "too many for the logical techniques" in hint.explanation
    (r, c), digit = hint.placements[0]
    assert digit == solution[r][c]
    answer = client.solve(text, kind="kenken")
    assert answer.verdict == "UNIQUE" and answer.difficulty is None


def test_the_cli_answers_an_11x11_of_row_cages_within_its_timeout(tmp_path):
    path = tmp_path / "k11.txt"
    path.write_text(SUM_ROWS_11)
    done = numgrid("--timeout", "2", "validate", str(path), timeout=30)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"{path}: VALID")


@pytest.mark.parametrize("sample", ["kenken-product-rows.txt", "kenken-27-cell-cages.txt"])
def test_reading_large_cages_keeps_the_calls_budget(sample):
    """Issue 29, item 2: listing a large cage's layouts to check it takes up to
    :data:`.arith.MAX_STEPS` steps (0.1-0.2 s, ten times that beside seven other calls);
    the call's budget is looked at along the way, so reading stops when it runs out."""
    text = (DATA / sample).read_text()
    arith._recent.cache_clear()
    arith._packed.clear()
    source = pb.PuzzleInput(text=pb.PuzzleText(content=text))
    with call_budget(Budget.seconds(0.0)), pytest.raises(SearchTimeout):
        convert.read_input(source, 20_000)
    assert convert.read_input(source, 20_000).kind is KENKEN  # no budget: read in full


def test_a_batch_puzzle_still_being_read_at_the_calls_deadline_is_given_up():
    """The same in a batch stream: its puzzles are read under the call's deadline."""
    arith._recent.cache_clear()
    arith._packed.clear()
    text = (DATA / "kenken-product-rows.txt").read_text()
    request = service_pb2.BatchPuzzle(
        id="rows", puzzle=pb.PuzzleInput(text=pb.PuzzleText(content=text))
    )
    result = batch.check_one(request, batch.Limits(20_000, 30.0), deadline=time.monotonic())
    assert result.WhichOneof("outcome") == "failure"
    assert "deadline" in result.failure.message
    result = batch.check_one(request, batch.Limits(20_000, 30.0))
    assert result.WhichOneof("outcome") == "result"
