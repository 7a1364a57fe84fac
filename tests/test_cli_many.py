"""``numgrid solve``, ``unique`` and ``explain`` over any number of puzzles, run as a user
runs them (a subprocess of the console script, embedded and against real servers): one
file, many files, a directory, a dataset, JSONL and stdin give each puzzle the same JSON
line and the same text; the output follows the order of the inputs; ``--grade`` grades a
whole collection in one command, server-side (in the worker processes too), with the
grade one CheckUniqueness call gives; ``solve`` and ``explain`` read directories and
datasets."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from numgrid.client import NumgridClient
from support.client import HARD
from support.client import LINE_KEYS
from support.client import PUZZLES
from support.client import numgrid
from support.client import sample
from support.corpus import corpus

KEYS = LINE_KEYS | {"grade", "difficulty"}
# Janko text, so that a dataset can hold them too: unique, multiple, none, invalid, KenKen.
FILES = [
    "puzzles/kakuro-10x12.txt",
    "puzzles/multiple-4x4.txt",
    "puzzles/no-solution.txt",
    "puzzles/broken-clues.txt",
    "puzzles/kenken-4x4.txt",
]


def records(done) -> list[dict]:
    """stdout: one JSON object per line, with exactly the keys of ``solve``/``unique``."""
    out = [json.loads(line) for line in done.stdout.splitlines()]
    for record in out:
        assert set(record) == KEYS, record
    return out


def summary_of(text: str) -> str:
    """The summary that ends ``text`` (wrapped to the width, its lines after the first
    indented) as one line."""
    lines = text.rstrip("\n").splitlines()
    first = max(i for i, line in enumerate(lines) if not line.startswith("  "))
    return " ".join(" ".join(lines[first:]).split())


def comparable(record: dict) -> dict:
    """A JSON line without what differs by run (the engines' times) or by how the puzzle
    was named (``source``)."""
    out = {k: v for k, v in record.items() if k != "source"}
    out["stats"] = [{**s, "ms": None} for s in record["stats"]]
    return out


def by_name(lines: list[dict]) -> dict[str, dict]:
    """The lines by the file name their source ends with (a path or a dataset key)."""
    return {Path(r["source"]).name: comparable(r) for r in lines}


def inputs(tmp_path: Path) -> dict[str, list[str]]:
    """FILES as a directory, a dataset, a JSONL file, and as arguments."""
    directory = tmp_path / "dir"
    directory.mkdir()
    for f in FILES:
        shutil.copy(PUZZLES / Path(f).name, directory)
    names = [Path(f).name for f in FILES]
    dataset = tmp_path / "set.json"
    data = {name: {"problem": sample(name)} for name in names}
    dataset.write_text(json.dumps({"name": "set", "count": len(data), "data": data}))
    lines = tmp_path / "lines.jsonl"
    lines.write_text("".join(json.dumps({"id": n, "puzzle": sample(n)}) + "\n" for n in names))
    return {
        "files": FILES,
        "directory": [str(directory)],
        "dataset": [str(dataset)],
        "jsonl": [str(lines)],
        "mixed": [FILES[0], str(directory / names[1]), str(lines)],
    }


def same_for_one_and_many(command: str, flags: list[str], tmp_path: Path) -> dict[str, dict]:
    """Run ``command`` on each file alone and on every form of many: the same lines."""
    alone = {}
    for f in FILES:
        done = numgrid(command, *flags, "--json", f)
        (line,) = records(done)
        assert line["source"] == f and done.stderr == ""  # one puzzle: no summary
        alone[Path(f).name] = comparable(line)
    piped = records(numgrid(command, *flags, "--json", "-", stdin=sample("multiple-4x4.txt")))
    assert comparable(piped[0]) == alone["multiple-4x4.txt"]
    for how, args in inputs(tmp_path).items():
        done = numgrid(command, *flags, "--json", *args)
        lines = records(done)
        assert done.returncode == 1, (how, done.stderr)  # the worst: multiple, none, invalid
        if how == "files":
            assert [r["source"] for r in lines] == FILES  # the order given
        expected = {n: alone[n] for n in by_name(lines)}
        assert by_name(lines) == expected, how
        assert len(lines) == len(FILES) + 2 * (how == "mixed"), how
        assert "puzzles in" in done.stderr  # the summary, on stderr with --json
    return alone


@pytest.mark.slow
def test_unique_gives_one_json_line_per_puzzle_whatever_the_inputs(mode, tmp_path):
    alone = same_for_one_and_many("unique", [*mode, "--grade"], tmp_path)
    unique = alone["kakuro-10x12.txt"]
    assert (unique["status"], unique["grade"], len(unique["solutions"])) == ("UNIQUE", "MEDIUM", 1)
    assert unique["difficulty"]["hardest"] == "COMBINATION_ELIMINATION"
    multiple = alone["multiple-4x4.txt"]
    assert len(multiple["solutions"]) == 2 and len(multiple["differing_cells"]) == 4
    assert multiple["grade"] is None
    assert alone["broken-clues.txt"]["status"] == "INVALID"
    assert alone["broken-clues.txt"]["errors"][0]["code"] == "impossible_clue"
    assert alone["kenken-4x4.txt"]["grade"] == "EASY"


@pytest.mark.slow
def test_solve_gives_one_json_line_per_puzzle_whatever_the_inputs(server, tmp_path):
    alone = same_for_one_and_many("solve", server, tmp_path)
    unique = alone["kakuro-10x12.txt"]
    assert unique["solutions"][0].split() == sample("kakuro-10x12.solution.txt").split()
    assert unique["grade"] is unique["difficulty"] is None  # no --grade: not graded
    assert len(alone["multiple-4x4.txt"]["solutions"]) == 1  # one of several
    assert alone["no-solution.txt"]["solutions"] == []


def test_the_same_text_for_a_puzzle_alone_or_among_others(server):
    alone = [numgrid("unique", *server, "--grade", f).stdout for f in FILES]
    many = numgrid("unique", *server, "--grade", *FILES)
    summary = summary_of(many.stdout)
    text, _ = many.stdout.split("\n\n5 of 5 puzzles in ")  # after a blank line
    body = text.splitlines()
    assert all(len(line) <= 80 for line in many.stdout.splitlines())
    assert summary.startswith("5 of 5 puzzles in ")
    assert summary.endswith(
        "unique 2, multiple 1, none 1, invalid 1, timeout 0, error 0; "
        "grades: easy 1, medium 1, hard 0, expert 0, extreme 0"
    )

    def no_times(text: str) -> str:
        return re.sub(r" \(native \d+ ms, [\d,]+ nodes?\)", "", text)

    assert no_times("\n".join(body)) == no_times("\n\n".join(t.rstrip("\n") for t in alone))
    assert body[1] == "grade: MEDIUM (hardest technique: combination elimination), score 3350"
    assert body[0].startswith("puzzles/kakuro-10x12.txt: UNIQUE (native ")
    assert "solution 2:" in many.stdout  # a MULTIPLE's two solutions drawn


def test_the_output_follows_the_order_of_the_inputs(server, tmp_path):
    """A puzzle that runs out of time first: the others finish before it on other
    streams, yet are printed after it."""
    hard = tmp_path / "hard.txt"
    hard.write_text(HARD)
    files = [str(hard), *FILES[:2], FILES[4]]
    flags = ["--engine", "native", "--timeout", "1", "--streams", "4", "--json"]
    lines = records(numgrid("unique", *server, *flags, *files))
    assert [r["source"] for r in lines] == files
    assert [r["status"] for r in lines] == ["TIMEOUT", "UNIQUE", "MULTIPLE", "UNIQUE"]


def test_exit_codes(server, tmp_path):
    happy = tmp_path / "happy"
    happy.mkdir()
    for name in ("kakuro-10x12.txt", "kenken-4x4.txt", "kakurasu-5x5.txt"):
        shutil.copy(PUZZLES / name, happy)
    assert numgrid("unique", *server, str(happy)).returncode == 0  # every puzzle UNIQUE
    assert numgrid("solve", *server, str(happy)).returncode == 0
    assert numgrid("explain", *server, str(happy)).returncode == 0  # every one SOLVED
    (happy / "broken.txt").write_text(sample("broken-clues.txt"))
    assert numgrid("unique", *server, str(happy)).returncode == 1  # one is INVALID
    missing = numgrid("solve", *server, str(happy), "puzzles/nope.txt")
    assert missing.returncode == 2  # one could not be read


# ---------------------------------------------------------------- a graded collection


@pytest.fixture(scope="module")
def workers2(launch_server):
    server = launch_server("--workers", "2")
    yield server
    assert server.stop() == 0


def small(kind: str, most_cells: int, count: int) -> dict[str, dict]:
    """``count`` corpus puzzles of ``kind`` of at most ``most_cells`` (graded in well under
    the 2 s a grade may take), spread over the corpus."""
    data = corpus(kind)
    rows_cols = {k: k.split("_")[1].split("x") for k in data}
    fit = [k for k in sorted(data) if int(rows_cols[k][0]) * int(rows_cols[k][1]) <= most_cells]
    return {k: data[k] for k in fit[:: max(1, len(fit) // count)][:count]}


def test_a_graded_collection_has_the_grades_of_single_calls(workers2, tmp_path):
    """``unique --grade`` over two datasets through ``--workers 2`` (the worker processes
    grade): each grade is the one a CheckUniqueness call on the puzzle alone gives."""
    paths, puzzles = [], {}
    for kind, most in (("kakuro", 120), ("kenken", 36)):
        data = small(kind, most, 10)
        assert not set(data) & set(puzzles)
        puzzles.update(data)
        path = tmp_path / f"{kind}.json"
        path.write_text(json.dumps({"name": kind, "count": len(data), "data": data}))
        paths.append(str(path))
    done = numgrid("unique", "--server", workers2.target, "--grade", "--json", *paths)
    assert done.returncode == 0, done.stderr
    lines = records(done)
    assert [r["source"] for r in lines] == list(puzzles)  # the datasets' order
    with NumgridClient(workers2.target) as client:
        for line in lines:
            one = client.check_uniqueness(puzzles[line["source"]]["problem"], timeout=60)
            assert one.difficulty is not None and line["grade"] is not None
            assert line["grade"] == one.difficulty.grade, line["source"]
            assert line["difficulty"] == {
                "grade": one.difficulty.grade,
                "hardest": one.difficulty.hardest,
                "techniques": dict(one.difficulty.counts),
                "solved_by_logic": one.difficulty.solved_by_logic,
                "score": one.difficulty.score,
            }
    grades = {g: sum(r["grade"] == g for r in lines) for g in ("EASY", "MEDIUM", "HARD")}
    assert len([g for g in grades.values() if g]) >= 2  # a spread, not one grade for all
    summary = summary_of(done.stderr)
    assert summary.startswith("20 of 20 puzzles in ") and "unique 20," in summary
    named = ", ".join(f"{g.lower()} {n}" for g, n in grades.items())
    assert f"; grades: {named}, expert 0, extreme 0" in summary
    quiet = numgrid("unique", "--server", workers2.target, "--grade", "--quiet", *paths)
    assert summary_of(quiet.stdout).split("/s): ")[1] == summary.split("/s): ")[1]
    ungraded = numgrid("unique", "--server", workers2.target, "--json", *paths)
    assert all(r["grade"] is r["difficulty"] is None for r in records(ungraded))
    assert "grades:" not in ungraded.stderr


# ---------------------------------------------------------------- solve and explain


def test_solve_over_a_directory(server, tmp_path):
    directory = tmp_path / "puzzles"
    directory.mkdir()
    names = ["kakuro-10x12", "kenken-4x4", "kakurasu-5x5", "skyscraper-5x5"]
    for name in names:  # the published solutions beside them are not puzzles: skipped
        shutil.copy(PUZZLES / f"{name}.txt", directory)
        shutil.copy(PUZZLES / f"{name}.solution.txt", directory)
    shutil.copy(PUZZLES / "no-solution.txt", directory)
    done = numgrid("solve", *server, "--json", str(directory))
    assert done.returncode == 1  # one has no solution
    lines = {Path(r["source"]).stem: r for r in records(done)}
    assert sorted(lines) == sorted([*names, "no-solution"])
    for name in names:  # each kind's own solution text
        assert lines[name]["solutions"] == [sample(f"{name}.solution.txt")], name
    assert lines["no-solution"]["solutions"] == []
    human = numgrid("solve", *server, str(directory))
    assert human.stdout.count("the solution:") == 4
    assert human.stdout.count(": UNIQUE\n  (native ") == 4  # the long paths: stats below
    assert "no-solution.txt: NO_SOLUTION" in human.stdout
    assert summary_of(human.stdout).startswith("5 of 5 puzzles in ")


@pytest.mark.parametrize("kind", ["kakuro", "kenken", "kakurasu", "skyscraper"])
def test_solve_over_a_dataset(server, tmp_path, kind):
    data = small(kind, 100, 6)
    path = tmp_path / f"{kind}.json"
    path.write_text(json.dumps({"name": kind, "count": len(data), "data": data}))
    done = numgrid("solve", *server, "--json", str(path))
    assert done.returncode == 0, done.stderr
    lines = records(done)
    assert [r["source"] for r in lines] == list(data)
    for line in lines:  # the corpus's text, but for its trailing spaces
        (solution,) = line["solutions"]
        published = data[line["source"]]["solution"]
        assert solution.splitlines() == [row.rstrip() for row in published.splitlines()]


def explain_lines(done) -> list[dict]:
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_explain_over_a_directory_and_a_dataset(server, tmp_path):
    directory = tmp_path / "dir"
    directory.mkdir()
    names = ["kakuro-10x12.txt", "kenken-4x4.txt", "multiple-4x4.txt", "Game03.csv"]
    for name in names:
        shutil.copy(PUZZLES / name, directory)
    done = numgrid("explain", *server, "--json", str(directory))
    assert done.returncode == 1  # one stalls, one is invalid
    many = explain_lines(done)
    for name in names:  # the lines of each puzzle: those of the puzzle alone
        path = str(directory / name)
        alone = explain_lines(numgrid("explain", *server, "--json", path))
        assert [r for r in many if r["source"] == path] == alone, name
    summaries = [r for r in many if r.get("summary")]
    assert [(Path(r["source"]).name, r["status"], r["grade"]) for r in summaries] == [
        ("kakuro-10x12.txt", "SOLVED", "MEDIUM"),
        ("kenken-4x4.txt", "SOLVED", "EASY"),
        ("multiple-4x4.txt", "STALLED", None),
    ]
    (invalid,) = [r for r in many if r.get("status") == "INVALID"]
    assert Path(invalid["source"]).name == "Game03.csv"
    summary = summary_of(done.stderr)
    assert summary.startswith("4 of 4 puzzles in ")
    assert summary.endswith(
        "solved 2, stalled 1, invalid 1, timeout 0, error 0; "
        "grades: easy 1, medium 1, hard 0, expert 0, extreme 0"
    )

    data = small("kenken", 36, 5)
    dataset = tmp_path / "kenken.json"
    dataset.write_text(json.dumps({"name": "k", "count": len(data), "data": data}))
    human = numgrid("explain", *server, "--progress", "--quiet", str(dataset))
    assert human.returncode == 0, human.stderr
    assert human.stdout.startswith("5 of 5 puzzles in ")  # --quiet: the summary alone
    assert summary_of(human.stdout) == " ".join(human.stdout.split())
    assert "solved 5," in summary_of(human.stdout)
    assert "5/5" in human.stderr  # the progress bar


# ---------------------------------------------------------------- puzzles one a line


def by_line(server, lines: Path) -> tuple[dict[str, dict], subprocess.CompletedProcess]:
    """``numgrid unique --json`` of a file of puzzles one a line: each record by its line
    number (each named ``FILE:LINE``), and the finished command."""
    done = numgrid("unique", *server, "--json", str(lines))
    found = {}
    for record in records(done):
        name, _, number = record["source"].rpartition(":")
        assert name == str(lines), record["source"]
        found[number] = record
    return found, done


def statuses(found: dict[str, dict]) -> dict[str, str]:
    return {number: record["status"] for number, record in found.items()}


def test_a_bad_line_among_puzzles_one_a_line_is_answered_by_its_number(server, tmp_path):
    """The benchmark files' shape: a line of the wrong length is INVALID by its line
    number, and the lines around it are answered (not the whole file refused)."""
    good = sample("sudoku-9x9.sdk").strip()
    lines = tmp_path / "lines.txt"
    lines.write_text(f"# three puzzles\n{good}\n{good[:-2]}\n{good}\n")
    found, done = by_line(server, lines)
    assert statuses(found) == {"2": "UNIQUE", "3": "INVALID", "4": "UNIQUE"}
    assert done.returncode == 1


def test_puzzles_one_a_line_of_mixed_sizes_and_mostly_bad_lines_are_each_answered(server, tmp_path):
    """Lines of 4x4, 9x9 and 16x16 Sudokus (and Killer cage maps of 9x9, 6x6, 4x4) are
    one puzzle each, and so are the good lines of a file whose lines are mostly bad:
    either was read as one text and refused whole."""
    nine = sample("sudoku-9x9.sdk").strip()
    four, sixteen = "2....3.11.3....2", "." * 256
    lines = tmp_path / "mixed.txt"
    lines.write_text(f"{four}\n{nine}\n{sixteen}\nnot a puzzle\n{nine[:-1]}\nxyz\n")
    found, _ = by_line(server, lines)
    assert statuses(found) == {
        "1": "UNIQUE",
        "2": "UNIQUE",
        "3": "MULTIPLE",
        "4": "INVALID",
        "5": "INVALID",
        "6": "INVALID",
    }
    killers = [line for line in sample("killer.lines").splitlines() if not line.startswith("#")]
    sizes = tmp_path / "sizes.lines"
    sizes.write_text("\n".join(killers) + "\n")
    done = numgrid("unique", *server, "--json", str(sizes))
    assert [record["status"] for record in records(done)] == ["UNIQUE"] * len(killers)


def test_a_bad_line_among_game_ids_is_answered_by_its_number(server, tmp_path):
    """Game IDs and links one a line: a line that is none is INVALID by its number, and
    the IDs around it are answered (the whole file was once refused, blaming line 1)."""
    towers = "3:3/2/1/1/2/2/3/2/1/1/2/2"
    keen = "6:a_a_17a_aa__aa_a4_aa__bbaa,d3a9m60a6m6m6m8a9a9d3s2s3d3d2s1s1d2"
    lines = tmp_path / "ids.txt"
    lines.write_text(f"{towers}\nthis is no puzzle\n{keen}\n")
    found, done = by_line(server, lines)
    assert statuses(found) == {"1": "UNIQUE", "2": "INVALID", "3": "UNIQUE"}
    assert "'this is no puzzle'" in found["2"]["errors"][0]["message"]
    assert done.returncode == 1


def test_killer_cage_map_lines_are_puzzles_one_a_line_and_a_bad_one_is_named(server, tmp_path):
    """A Killer's cage map and sums, one a line: a short line and a line missing a sum
    are INVALID by their numbers (the missing sum's cage named), the others answered."""
    good = [line for line in sample("killer.lines").splitlines() if not line.startswith("#")]
    lines = tmp_path / "killers.lines"
    missing = good[0].rsplit(",", 1)[0]
    lines.write_text(f"{good[0]}\naabb 3 4\n{missing}\n{good[3]}\n")
    found, done = by_line(server, lines)
    assert statuses(found) == {"1": "UNIQUE", "2": "INVALID", "3": "INVALID", "4": "UNIQUE"}
    message = found["3"]["errors"][0]["message"]
    assert "34 cages and 33 sums: no sum for cage H (r8c4 and r8c5)" in message
    assert done.returncode == 1


def test_a_square_grid_a_row_a_line_is_one_puzzle(server, tmp_path):
    """16 rows of 16 cells are one 16x16 grid, not 16 lines of 4x4 puzzles."""
    grid = tmp_path / "grid.txt"
    grid.write_text("\n".join(["." * 16] * 16) + "\n")
    done = numgrid("unique", *server, "--json", str(grid))
    assert [record["source"] for record in records(done)] == [str(grid)]
    # nor when most rows are spaced by boxes and two are not (two lines of 16 alone)
    spaced = tmp_path / "spaced.txt"
    spaced.write_text("\n".join(["." * 16] * 2 + [" ".join(["...."] * 4)] * 14) + "\n")
    done = numgrid("unique", *server, "--json", str(spaced))
    assert [record["source"] for record in records(done)] == [str(spaced)]
