"""Tatham game IDs both ways (Keen, Towers, and Solo: plain, X, jigsaw, killer): every
fixture ID (tests/data/links/tatham.txt, each with its source) reads as a puzzle UNIQUE
under both engines and is written back to the same description; random-seed IDs are
refused in one sentence; and, when sgt-puzzles is installed, the IDs numgrid writes
(corpus puzzles of every kind Tatham plays, generated ones, long runs of joined cells)
are taken by the game's own program: ``sgt-GAME --generate 1 ID`` parses and validates
an ID and prints it back (docs/links-formats.md, section 5.3), and ``--test-solve``
also solves it, where Tatham's solver can (not Killers with cages over 4 cells)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from numgrid.server.core import Board
from numgrid.server.core import Budget
from numgrid.server.core import PuzzleError
from numgrid.server.generate import generate_one
from numgrid.server.kinds import KINDS
from numgrid.server.kinds import detect_format
from numgrid.server.kinds.base import Spec
from numgrid.server.operations import read_board
from support import DATA
from support.corpus import corpus_ids
from support.corpus import corpus_puzzle
from support.engines import searches

# The game of Tatham's that plays each kind
GAMES = {
    "kenken": "keen",
    "skyscraper": "towers",
    "sudoku": "solo",
    "jigsaw": "solo",
    "killer": "solo",
}


def _binary(game: str) -> str | None:
    found = shutil.which(f"sgt-{game}")
    path = Path(f"/usr/games/sgt-{game}")
    return found or (str(path) if path.exists() else None)


SGT = {game: _binary(game) for game in set(GAMES.values())}


def _needs(kind: str):
    game = GAMES[kind]
    return pytest.mark.skipif(SGT[game] is None, reason=f"sgt-{game} is not installed")


def _lines() -> list[str]:
    text = (DATA / "links" / "tatham.txt").read_text()
    return [line.strip() for line in text.splitlines() if line.strip() and line[0] != "#"]


IDS = [line for line in _lines() if "#" not in line]
# Each random-seed ID and the descriptive ID written after it (its expansion by sgt-puzzles)
SEEDS = [(line, _lines()[k + 1]) for k, line in enumerate(_lines()) if "#" in line]


def sgt(kind: str, game_id: str, solve: bool = False) -> subprocess.CompletedProcess[str]:
    """The game's program on ``game_id``: parsed and validated, and with ``solve`` solved."""
    game = SGT[GAMES[kind]]
    assert game is not None
    command = [game, *(["--test-solve"] if solve else []), "--generate", "1", game_id]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def _solvable_by_tatham(kind: str, puzzle) -> bool:
    """Does Tatham's own solver settle this puzzle? Solo's killer reasoning takes cages of
    2-4 cells only, and calls bigger-caged unique puzzles ambiguous (section 5.3)."""
    return kind != "killer" or all(len(cage.cells) <= 4 for cage in puzzle.cages)


def assert_taken(kind: str, game_id: str, puzzle) -> None:
    """Tatham's program takes ``game_id`` as it is (and solves it where it can)."""
    done = sgt(kind, game_id)
    assert done.returncode == 0 and done.stdout.strip() == game_id, (game_id, done.stderr)
    if _solvable_by_tatham(kind, puzzle):
        solved = sgt(kind, game_id, solve=True)
        assert solved.returncode == 0, (game_id, solved.stdout, solved.stderr)


# ---------------------------------------------------------------- the fixtures


@pytest.mark.parametrize("game_id", IDS)
@pytest.mark.parametrize("engine", ["native", "cpsat"])
def test_every_fixture_id_is_a_unique_puzzle_under_both_engines(game_id, engine):
    kind, fmt = detect_format(game_id)
    assert fmt == "tatham"
    board, _ = read_board(kind, game_id, None, 10_000)
    run_native, run_cpsat, _ = searches(kind)
    answer = (run_native if engine == "native" else run_cpsat)(board.puzzle)
    assert answer.verdict().value == "UNIQUE"


@pytest.mark.parametrize("game_id", IDS)
def test_every_fixture_id_is_written_back_to_the_same_description(game_id):
    kind, _ = detect_format(game_id)
    board = kind.formats.read(game_id, "tatham")
    written = kind.formats.write(board, "tatham").strip()
    # params as numgrid writes them: no difficulty ('4x4db' is written '4x4')
    assert written.split(":", 1)[1] == game_id.split(":", 1)[1]
    assert kind.formats.read(written) == board


PAGE = "https://www.chiark.greenend.org.uk/~sgtatham/puzzles/js/{}.html#{}"


@pytest.mark.parametrize("game_id", IDS)
def test_a_link_to_the_games_web_page_reads_as_its_id(game_id):
    """The address of Tatham's page once a puzzle is chosen carries the ID after '#'
    (a '#' in it may be written %23); a link to another game's page is no such ID."""
    kind, _ = detect_format(game_id)
    board = kind.formats.read(game_id, "tatham")
    game = GAMES[kind.name]
    assert kind.formats.read(PAGE.format(game, game_id), "tatham") == board
    assert detect_format(f"<{PAGE.format(game, game_id)}>") == (kind, "tatham")
    other = "towers" if game != "towers" else "keen"
    with pytest.raises(PuzzleError):
        kind.formats.read(PAGE.format(other, game_id), "tatham")


def test_a_random_seed_in_a_web_link_is_refused_in_one_sentence():
    link = PAGE.format("keen", "9dn%23388677227852840")
    kind, fmt = detect_format(link)
    assert (kind.name, fmt) == ("kenken", "tatham")
    with pytest.raises(PuzzleError) as caught:
        kind.formats.read(link)
    assert [f.code for f in caught.value.findings] == ["random_seed_id"]


def test_a_killer_jigsaw_id_is_refused_by_name():
    """Solo's killer jigsaw (``9jk``: givens, regions, cages, sums) is no kind numgrid
    serves: read as a Killer, refused naming its regions (it was 'no header')."""
    for game_id in ("9jk:zzzc,zzt,a_a,3a", "9jk#123"):
        kind, fmt = detect_format(game_id)
        assert (kind.name, fmt) == ("killer", "tatham")
        with pytest.raises(PuzzleError) as caught:
            kind.formats.read(game_id)
        (finding,) = caught.value.findings
        assert "Killer with irregular regions ('j')" in finding.message


@pytest.mark.parametrize(("seed", "expanded"), SEEDS)
def test_a_random_seed_id_is_refused_in_one_sentence(seed, expanded):
    kind, _ = detect_format(expanded)
    assert detect_format(seed)[0] is kind
    with pytest.raises(PuzzleError) as caught:
        kind.formats.read(seed)
    (finding,) = caught.value.findings
    assert finding.code == "random_seed_id"
    assert finding.message.startswith("a random-seed ID cannot be read: paste the game ID")


@pytest.mark.parametrize(
    ("name", "seed"),
    [
        ("sudoku", "3x3#1"),
        ("sudoku", "2x3dt#77"),
        ("jigsaw", "9j#5"),
        ("jigsaw", "3x3j#5"),
        ("killer", "3x3k#5"),
        ("kenken", "6dh#12"),
        ("skyscraper", "5#12"),
    ],
)
def test_random_seed_ids_of_every_game_are_refused(name, seed):
    with pytest.raises(PuzzleError) as caught:
        KINDS[name].formats.read(seed, "tatham")
    assert [f.code for f in caught.value.findings] == ["random_seed_id"]


@pytest.mark.parametrize(("seed", "expanded"), SEEDS)
def test_sgt_expands_each_fixture_seed_to_the_id_beside_it(seed, expanded):
    kind, _ = detect_format(expanded)
    if SGT[GAMES[kind.name]] is None:
        pytest.skip(f"sgt-{GAMES[kind.name]} is not installed")
    done = sgt(kind.name, seed)
    assert done.returncode == 0 and done.stdout.strip() == expanded, done.stderr


@pytest.mark.skipif(SGT["solo"] is None, reason="sgt-solo is not installed")
@pytest.mark.parametrize(
    ("name", "params", "x"),
    [
        ("sudoku", "2x2", False),
        ("sudoku", "2x3", False),
        ("sudoku", "3x3x", True),
        ("sudoku", "4x4dt", False),
        ("jigsaw", "6j", False),
        ("jigsaw", "9jx", True),
        ("killer", "2x3xk", True),
        ("killer", "3x3xk", True),
    ],
)
def test_solo_ids_of_every_shape_are_read_and_written_back_byte_for_byte(name, params, x):
    """What sgt-solo makes: a UNIQUE puzzle of the kind, written back as the same ID (its
    params as Solo writes them: size, ``j``, ``x``, ``k``; no difficulty)."""
    game = SGT["solo"]
    assert game is not None
    done = subprocess.run([game, "--generate", "2", params], capture_output=True, text=True)
    ids = done.stdout.split()
    assert len(ids) == 2, done.stderr
    run_native, _, _ = searches(KINDS[name])
    for game_id in ids:
        kind, fmt = detect_format(game_id)
        assert (kind.name, fmt) == (name, "tatham")
        board = kind.formats.read(game_id)
        assert board.puzzle.diagonals == x
        assert run_native(board.puzzle).verdict().value == "UNIQUE"
        assert kind.formats.write(board, "tatham").strip() == game_id


# ---------------------------------------------------------------- what numgrid writes


def _corpus_sample(name: str, step: int = 5):
    for key in corpus_ids(name)[::step]:
        yield key, corpus_puzzle(name, key)[0]


@pytest.mark.parametrize("name", [pytest.param(name, marks=_needs(name)) for name in GAMES])
def test_ids_numgrid_writes_of_corpus_puzzles_are_taken_by_tatham(name):
    kind = KINDS[name]
    taken = 0
    for key, puzzle in _corpus_sample(name):
        try:
            game_id = kind.formats.write(Board.empty(puzzle), "tatham").strip()
        except PuzzleError as e:  # a variant the game has no rule for: said why
            assert e.findings and all(f.message for f in e.findings), key
            continue
        assert_taken(name, game_id, puzzle)
        taken += 1
    assert taken >= 10


GENERATED = [
    ("sudoku", 4, 1),
    ("sudoku", 6, 2),
    ("sudoku", 9, 3),
    ("jigsaw", 5, 1),
    ("jigsaw", 7, 2),
    ("killer", 4, 1),
    ("killer", 6, 2),
    ("kenken", 3, 1),
    ("kenken", 6, 2),
    ("skyscraper", 4, 1),
    ("skyscraper", 6, 2),
]


@pytest.mark.parametrize(
    ("name", "size", "seed"),
    [pytest.param(*case, marks=_needs(case[0])) for case in GENERATED],
    ids=[f"{name}-{size}x{size}" for name, size, _ in GENERATED],
)
def test_ids_numgrid_writes_of_generated_puzzles_are_taken_by_tatham(name, size, seed):
    kind = KINDS[name]
    made = generate_one(kind, Spec(size, size, None), seed, Budget.seconds(60))
    game_id = kind.formats.write(Board.empty(made.puzzle), "tatham").strip()
    assert kind.formats.read(game_id).puzzle == made.puzzle
    assert_taken(name, game_id, made.puzzle)


# ---------------------------------------------------------------- long runs, sizes


def _rows_as_regions() -> str:
    """A 9x9 jigsaw whose regions are its rows: 72 cells joined in a run (Solo's ``z``)."""
    regions = [{"values": [r + 1] * 9} for r in range(9)]
    givens = [{"values": [(r + c) % 9 + 1 if c < 8 else 0 for c in range(9)]} for r in range(9)]
    return json.dumps(
        {"jigsaw": {"size": 9, "regions": {"rows": regions}, "givens": {"rows": givens}}}
    )


def _rows_as_cages() -> str:
    """A 9x9 Killer whose cages are its rows (45 each)."""
    cages = [{"sum": 45, "cells": [{"row": r, "column": c} for c in range(9)]} for r in range(9)]
    return json.dumps({"killer": {"size": 9, "cages": cages}})


@pytest.mark.parametrize(
    ("name", "text", "walls"),
    [("jigsaw", _rows_as_regions(), "zzt"), ("killer", _rows_as_cages(), "zzt")],
)
def test_runs_of_26_joined_cells_and_more_are_written_as_solo_reads_them(name, text, walls):
    """72 joined cells: ``z`` is 26 and no wall as solo.c's parser reads it, so ``zzt``
    (26 + 26 + 20, then a wall); solo.c's own encoder would write 25s, which it misreads."""
    kind = KINDS[name]
    board = kind.formats.read(text, "json")
    game_id = kind.formats.write(board, "tatham").strip()
    assert walls in game_id.split(",")[1]
    assert kind.formats.read(game_id).puzzle == board.puzzle
    if SGT["solo"] is not None:
        done = sgt(name, game_id)
        assert done.returncode == 0 and done.stdout.strip() == game_id, done.stderr


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("skyscraper", json.dumps({"skyscraper": {"size": 2, "top": [1, 2]}})),
        ("kenken", json.dumps({"kenken": {"size": 10}})),
    ],
)
def test_keen_and_towers_ids_are_written_for_3x3_to_9x9_only(name, text):
    kind = KINDS[name]
    board = kind.formats.read(text, "json", 10_000)
    with pytest.raises(PuzzleError) as caught:
        kind.formats.write(board, "tatham")
    assert caught.value.findings[0].code == "tatham_size"
    assert "3x3 to 9x9" in caught.value.findings[0].message
