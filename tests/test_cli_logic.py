"""``numgrid hint`` and ``numgrid explain`` (and the grade shown by ``solve`` and ``unique``),
run as a user runs them: a subprocess of the console script, embedded and against a real
``numgrid-server``."""

from __future__ import annotations

import json

import pytest
from support.client import filled
from support.client import numgrid
from support.client import parse_solution
from support.client import sample
from test_cli import TEN
from test_cli import fits
from test_cli import one_line_error

STEP_KEYS = {"source", "step", "technique", "placements", "eliminations", "explanation"}
SUMMARY_KEYS = {"source", "summary", "solved", "grade", "steps", "techniques"}
SOLUTION = parse_solution(sample("kakuro-10x12.solution.txt"))


def lines(done) -> list[dict]:
    return [json.loads(line) for line in done.stdout.splitlines()]


def flat(text: str) -> str:
    """Human output with its line wrapping undone."""
    return " ".join(text.split())


def explained(done) -> tuple[list[dict], dict]:
    """The step lines and the summary line of ``explain --json`` for one file."""
    *steps, summary = lines(done)
    for i, step in enumerate(steps, 1):
        assert set(step) == STEP_KEYS and step["step"] == i, step
    assert set(summary) >= SUMMARY_KEYS and summary["summary"] is True
    assert summary["steps"] == len(steps)
    assert sum(summary["techniques"].values()) == len(steps)
    return steps, summary


NECK_FILE = "tests/data/region-sum-neck.txt"


@pytest.fixture(scope="module")
def neck(server_process) -> str:
    """NECK (tests/data/region-sum-neck.txt): techniques 1-6 only rule digits out and stall,
    so a player with no digit entered is stuck there; a region sum places r4c5 = 8."""
    target = server_process.target
    stalled = numgrid(
        "explain",
        "--server",
        target,
        "--json",
        "--max-technique",
        "combination-elimination",
        NECK_FILE,
    )
    assert stalled.returncode == 1  # the chain stalls
    steps, summary = explained(stalled)
    assert summary["solved"] is False and summary["grade"] is None
    assert not any(step["placements"] for step in steps)
    return NECK_FILE


# ---------------------------------------------------------------- hint


def test_hint_gives_the_next_step(mode):
    done = numgrid("hint", *mode, "--json", TEN)
    assert done.returncode == 0
    (record,) = lines(done)
    assert (record["status"], record["verdict"]) == ("STEP", "UNIQUE")
    step = record["hint"]["step"]
    assert step["technique"] == "COMBINATIONS" and step["placements"] == []
    assert step["explanation"] == record["hint"]["explanation"]
    assert step["explanation"].startswith("Across 11 at r2c0 in four cells can only be 1+2+3+5")
    assert {tuple(c[:2]) for c in step["eliminations"]} == {
        tuple(c) for c in record["hint"]["cells"]
    }
    for r, c, d in step["eliminations"]:
        assert SOLUTION[r][c] != d
    assert step["groups"] == [{"type": "across", "clue": 11, "clue_cell": [2, 0]}]


def test_hint_in_words_with_the_cells_marked(server):
    done = numgrid("hint", *server, TEN)
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.startswith(f"{TEN}: STEP (native ")
    assert "combinations: Across 11 at r2c0 in four cells can only be 1+2+3+5" in flat(done.stdout)
    assert "▓▓\\11  [.]   [.]   [.]   [.]   6\\34" in done.stdout  # the four cells marked
    assert fits(done.stdout)
    placed = numgrid("hint", *server, "--placements-only", TEN)
    assert placed.stdout.splitlines()[1].startswith("crossing: Across 24 at r1c6")
    assert "12\\24   .     .    [7]  24\\" in placed.stdout  # the digit placed and marked


def test_hint_with_entries_from_another_file(mode, tmp_path):
    keep = {(r, c) for r, row in enumerate(SOLUTION) for c, d in enumerate(row) if d and r < 5}
    entries = tmp_path / "entries.txt"
    entries.write_text(
        filled(
            sample("kakuro-10x12.txt"),
            sample("kakuro-10x12.solution.txt"),
            lambda r, c: (r, c) in keep,
        )
    )
    # FILE in CSV, the entries in janko: any format, the same puzzle.
    args = ("hint", *mode, "--json", "--placements-only", "puzzles/kakuro-10x12.csv")
    done = numgrid(*args, "--entries", str(entries))
    assert done.returncode == 0
    (record,) = lines(done)
    assert record["status"] == "STEP"
    [placement] = record["hint"]["placements"]
    cell = (placement["row"], placement["column"])
    assert cell not in keep and placement["digit"] == SOLUTION[cell[0]][cell[1]]
    # A wrong digit among the entries is the mistake to fix.
    r, c = sorted(keep)[3]
    wrong = entries.read_text().splitlines()
    tokens = wrong[r + 1].split()
    tokens[c] = str(SOLUTION[r][c] % 9 + 1)
    wrong[r + 1] = " ".join(tokens)
    entries.write_text("\n".join(wrong) + "\n")
    (record,) = lines(numgrid(*args, "--entries", str(entries)))
    assert record["status"] == "MISTAKE" and [r, c] in record["hint"]["cells"]


def test_entries_of_another_puzzle_are_refused(server):
    done = numgrid("hint", *server, TEN, "--entries", "puzzles/Game03-nearly-solved.csv")
    assert done.returncode == 2
    one_line_error(done, "puzzles/Game03-nearly-solved.csv is not the same puzzle as")
    two = numgrid("hint", *server, TEN, TEN, "--entries", TEN)
    assert two.returncode == 2 and "--entries goes with one FILE" in two.stderr
    unknown = numgrid("hint", *server, "--max-technique", "guessing", TEN)
    assert unknown.returncode == 2 and "unknown technique 'guessing'" in unknown.stderr


def test_entries_in_a_format_of_givens_alone_are_refused_with_the_cells(server, tmp_path):
    line = sample("sudoku-9x9.sdk").strip()
    more = tmp_path / "more.sdk"
    more.write_text(line[:1] + "6" + line[2:] + "\n")  # r0c1 filled: a given in a line
    done = numgrid("hint", *server, "puzzles/sudoku-9x9.sdk", "--entries", str(more))
    assert done.returncode == 2
    one_line_error(done, f"{more} has puzzles/sudoku-9x9.sdk's givens and more, at r0c1")
    other = numgrid("hint", *server, "puzzles/kenken-4x4.txt", "--entries", str(more))
    one_line_error(other, f"{more} is not the same puzzle as puzzles/kenken-4x4.txt")


def test_hint_region_sum_and_below_it(mode, neck):
    done = numgrid("hint", *mode, "--json", "--placements-only", neck)
    assert done.returncode == 0
    (record,) = lines(done)
    assert record["status"] == "STEP"
    assert record["hint"]["step"]["technique"] == "REGION_SUM"
    assert record["hint"]["placements"] == [{"row": 4, "column": 5, "digit": 8}]
    assert "58 - 50 = 8, so r4c5 = 8." in record["hint"]["explanation"]

    below = numgrid(
        "hint",
        *mode,
        "--placements-only",
        "--max-technique",
        "combination-elimination",
        neck,
    )
    assert below.returncode == 0  # a reveal is still a hint
    text = flat(below.stdout)
    assert f"{neck}: NO_STEP" in text
    assert "No logical step with the techniques up to combination elimination" in text
    assert "Trial (a last resort): if " in text
    assert "taken from the puzzle's unique solution, not deduced" in text
    assert "[" in below.stdout  # the revealed cell marked on the board


# ---------------------------------------------------------------- explain


def test_explain_json(mode):
    done = numgrid("explain", *mode, "--json", TEN)
    assert done.returncode == 0 and done.stderr == ""
    steps, summary = explained(done)
    assert summary["source"] == TEN and all(s["source"] == TEN for s in steps)
    assert (summary["solved"], summary["grade"]) == (True, "MEDIUM")
    assert summary["techniques"]["COMBINATION_ELIMINATION"] == 1
    assert set(summary["techniques"]) >= {"LAST_CELL", "REGION_SUM", "TRIAL"}
    grid = {}
    for step in steps:
        for r, c, d in step["placements"]:
            grid[(r, c)] = d
        for r, c, d in step["eliminations"]:
            assert SOLUTION[r][c] != d, step
    assert grid == {(r, c): d for r, row in enumerate(SOLUTION) for c, d in enumerate(row) if d}
    assert steps[0]["technique"] == "COMBINATIONS" and "1+2+3+5" in steps[0]["explanation"]


def test_explain_walkthrough(server):
    done = numgrid("explain", *server, TEN)
    assert done.returncode == 0
    out = done.stdout.splitlines()
    assert out[0] == f"{TEN}: SOLVED"
    assert out[1].startswith("  1. combinations: Across 11 at r2c0 in four cells")
    assert "146 steps, grade MEDIUM, score 3350" in out
    assert "\\23   6     9     8" in done.stdout  # the grid the steps complete
    assert fits(done.stdout)


def test_explain_a_region_sum_unlock(mode, neck):
    full = numgrid("explain", *mode, "--json", neck)
    assert full.returncode == 0
    steps, summary = explained(full)
    assert summary["solved"] and summary["grade"] == "EXPERT"
    assert summary["hardest"] == "REGION_SUM" and summary["techniques"]["REGION_SUM"] == 1
    (region,) = [s for s in steps if s["technique"] == "REGION_SUM"]
    assert region["placements"] == [[4, 5, 8]] and "58 - 50 = 8" in region["explanation"]
    args = ("--json", "--max-technique", "combination-elimination", neck)
    stalled = numgrid("explain", *mode, *args)
    assert stalled.returncode == 1
    assert explained(stalled)[1]["solved"] is False


def test_explain_a_puzzle_logic_cannot_finish(server):
    done = numgrid("explain", *server, "puzzles/multiple-4x4.txt")
    assert done.returncode == 1
    assert done.stdout.startswith("puzzles/multiple-4x4.txt: STALLED")
    assert "grade none (the chain stalls)" in done.stdout
    assert "where the chain stops (open cells are marked):" in done.stdout
    broken = numgrid("explain", *server, "--json", "puzzles/Game03-nearly-solved.csv")
    assert broken.returncode == 1
    (record,) = lines(broken)  # the usual record of a refused puzzle
    assert record["status"] == "INVALID" and "appears 2 times" in record["errors"][0]["message"]


# ---------------------------------------------------------------- solve and unique


def test_solve_and_unique_show_the_grade(mode):
    for command in ("solve", "unique"):
        done = numgrid(command, *mode, "--grade", "--json", TEN, "puzzles/multiple-4x4.txt")
        graded, multiple = lines(done)
        assert graded["grade"] == "MEDIUM"
        assert graded["difficulty"]["hardest"] == "COMBINATION_ELIMINATION"
        assert graded["difficulty"]["solved_by_logic"] is True
        assert graded["difficulty"]["techniques"]["CROSSING"] == 27
        assert multiple["grade"] is None and multiple["difficulty"] is None
        (fast,) = lines(numgrid(command, *mode, "--json", TEN))  # a grade only on request
        assert fast["status"] == "UNIQUE" and fast["grade"] is fast["difficulty"] is None


def test_the_grade_in_human_output(server):
    for command in ("solve", "unique"):
        done = numgrid(command, *server, "--grade", TEN)
        assert done.returncode == 0
        assert done.stdout.splitlines()[1] == (
            "grade: MEDIUM (hardest technique: combination elimination), score 3350"
        )
        assert "grade" not in numgrid(command, *server, TEN).stdout
