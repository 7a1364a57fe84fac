"""SudokuWiki solver links (``sudoku.htm?bd=`` and ``killersudoku.htm?bd=``): every
fixture link (tests/data/links/sudokuwiki.txt, each with its source) reads as a puzzle
UNIQUE under both engines and is written back as the same board; what the pages cannot
hold is refused in one sentence; bad links are refused with findings, never another
exception."""

from __future__ import annotations

import json
import random

import pytest
from numgrid.server.core import Board
from numgrid.server.core import PuzzleError
from numgrid.server.kinds import KINDS
from numgrid.server.kinds import detect_format
from numgrid.server.operations import read_board
from support import DATA
from support.client import numgrid
from support.corpus import corpus_ids
from support.corpus import corpus_puzzle
from support.engines import searches

SUDOKU, KILLER = KINDS["sudoku"], KINDS["killer"]
FIXTURES = [
    line.strip()
    for line in (DATA / "links" / "sudokuwiki.txt").read_text().splitlines()
    if line.strip() and not line.startswith("#")
]
PLAIN = "https://www.sudokuwiki.org/sudoku.htm?bd="
KILLER_PAGE = "https://www.sudokuwiki.org/killersudoku.htm?bd="
# The killer fixture's one solution, found by CP-SAT when the link was researched
# (docs/links-formats.md, section 4.2)
KILLER_SOLUTION = (
    "143697825928135467657824931284753196395216748716948253439571682561482379872369514"
)


@pytest.mark.parametrize("link", FIXTURES, ids=lambda link: link.split("?")[0].rsplit("/")[-1])
@pytest.mark.parametrize("engine", ["native", "cpsat"])
def test_every_fixture_link_is_a_unique_puzzle_under_both_engines(link, engine):
    kind, fmt = detect_format(link)
    assert fmt == "sudokuwiki"
    assert kind is (KILLER if "killersudoku" in link else SUDOKU)
    board, warnings = read_board(kind, link, None, 81)
    assert not warnings
    run_native, run_cpsat, _ = searches(kind)
    answer = (run_native if engine == "native" else run_cpsat)(board.puzzle)
    assert answer.verdict().value == "UNIQUE"
    solution = "".join(str(v) for row in answer.solutions[0] for v in row)
    if kind is KILLER:
        assert solution == KILLER_SOLUTION
    else:
        bd = link.split("bd=")[1]
        assert all(given in ("0", digit) for given, digit in zip(bd, solution, strict=True))


@pytest.mark.parametrize("link", FIXTURES, ids=lambda link: link.split("?")[0].rsplit("/")[-1])
def test_every_fixture_link_is_written_back_as_the_same_board(link):
    kind, _ = detect_format(link)
    board = kind.formats.read(link, "sudokuwiki")
    written = kind.formats.write(board, "sudokuwiki")
    assert written.endswith("\n") and kind.formats.read(written) == board
    if kind is SUDOKU:  # the plain board is written as the site writes it
        assert written.strip() == link.replace("http://", "https://")


def test_a_link_as_people_paste_it():
    bd = FIXTURES[0].split("bd=")[1]
    board = SUDOKU.formats.read(PLAIN + bd)
    for pasted in (
        f"<{PLAIN}{bd}>",
        f'  "{PLAIN}{bd}"\n',
        f"www.sudokuwiki.org/sudoku.htm?bd={bd}",
        f"http://sudokuwiki.org/Sudoku.htm?bd={bd}&maxsteps=10#top",
        PLAIN + bd.replace("0", "."),
        f"{PLAIN}%3{bd[0]}{bd[1:]}",  # percent-encoded
    ):
        assert SUDOKU.formats.sniff(pasted) == "sudokuwiki", pasted
        assert SUDOKU.formats.read(pasted) == board, pasted


def test_the_killer_colours_touching_cages_apart_with_four_colours():
    for key in corpus_ids("killer"):
        puzzle, _ = corpus_puzzle("killer", key)
        if puzzle.size != 9 or puzzle.diagonals:
            continue
        written = KILLER.formats.write(Board.empty(puzzle), "sudokuwiki").strip()
        colours, totals = written.split("bd=")[1].split(",")
        assert set(colours) <= set("1234"), key
        assert len(totals) == 162 and sum(int(totals[i : i + 2]) for i in range(0, 162, 2)) == 405
        cage = {cell: k for k, c in enumerate(puzzle.cages) for cell in c.cells}
        for r in range(9):
            for c in range(9):
                for y, x in ((r + 1, c), (r, c + 1)):
                    if y < 9 and x < 9 and cage[(r, c)] != cage[(y, x)]:
                        assert colours[r * 9 + c] != colours[y * 9 + x], (key, r, c)


# ---------------------------------------------------------------- what the pages cannot hold


def _killer_json(size=9, diagonals=False, givens=None, cages=None) -> str:
    if cages is None:
        cages = [
            {"sum": 45, "cells": [{"row": r, "column": c} for c in range(size)]}
            for r in range(size)
        ]
    body = {"size": size, "cages": cages, "diagonals": diagonals}
    if givens:
        body["givens"] = {"rows": [{"values": row} for row in givens]}
    return json.dumps({"killer": body})


ROW_GIVEN = [[1] + [0] * 8] + [[0] * 9] * 8
SPLIT = [
    {"sum": 3, "cells": [{"row": 0, "column": 0}, {"row": 0, "column": 2}]},
    {"sum": 42, "cells": [{"row": 0, "column": c} for c in (1, 3, 4, 5, 6, 7, 8)]},
    *({"sum": 45, "cells": [{"row": r, "column": c} for c in range(9)]} for r in range(1, 9)),
]

NO_SUM = [{"cells": [{"column": c} for c in range(9)]}, *SPLIT[2:]]


@pytest.mark.parametrize(
    ("kind", "text", "code", "words"),
    [
        (SUDOKU, "4 4\n1 - - -\n- - - -\n- - - -\n- - - -\n", "sudokuwiki_size", "not a 4x4"),
        (SUDOKU, "9 9 X\n" + "- " * 9 + "\n" + ("- " * 9 + "\n") * 8, "sudokuwiki_x", "no X"),
        (KILLER, _killer_json(size=6), "sudokuwiki_size", "not a 6x6"),
        (KILLER, _killer_json(diagonals=True), "sudokuwiki_x", "no X rule"),
        (KILLER, _killer_json(givens=ROW_GIVEN), "no_givens_here", "no place for givens"),
        (KILLER, _killer_json(cages=[]), "not_covered", "in no cage"),
        (KILLER, _killer_json(cages=SPLIT), "sudokuwiki_cage", "is not connected"),
        (KILLER, _killer_json(cages=NO_SUM), "sudokuwiki_total", "in two digits, 01-99"),
    ],
    ids=["6x6", "sudoku-x", "killer-6x6", "killer-x", "givens", "uncaged", "split", "no-sum"],
)
def test_what_a_page_cannot_hold_is_refused_in_one_sentence(kind, text, code, words):
    board = kind.formats.read(text, None, 10_000)
    with pytest.raises(PuzzleError) as caught:
        kind.formats.write(board, "sudokuwiki")
    (finding,) = caught.value.findings
    assert finding.code == code and words in finding.message, finding.message


# ---------------------------------------------------------------- bad links

GOOD = FIXTURES[0].split("bd=")[1]
COLOURS, TOTALS = FIXTURES[-1].split("bd=")[1].split(",")


@pytest.mark.parametrize(
    ("kind", "text", "code", "words"),
    [
        (SUDOKU, PLAIN + GOOD[:50], "bad_length", "hold 50 characters, not 81"),
        (SUDOKU, PLAIN + GOOD + "1", "bad_length", "hold 82 characters"),
        (SUDOKU, PLAIN + "x" + GOOD[1:], "bad_digit", "r0c0: 'x' in the givens"),
        (SUDOKU, PLAIN, "bad_length", "hold 0 characters"),
        (SUDOKU, PLAIN.replace("?bd=", "?"), "no_board", "no 'bd=' parameter"),
        (SUDOKU, f"{PLAIN}{GOOD}&bd={GOOD}", "no_board", "2 'bd=' parameters"),
        (SUDOKU, PLAIN + "S9B" + GOOD, "candidate_board", "S9B candidate format"),
        (SUDOKU, KILLER_PAGE + GOOD, "wrong_page", "'killersudoku.htm'"),
        (SUDOKU, "https://www.sudokuwiki.org/jigsaw.htm?bd=" + GOOD, "wrong_page", "jigsaw.htm"),
        (SUDOKU, "https://example.org/sudoku.htm?bd=" + GOOD, "not_sudokuwiki", "not a"),
        (SUDOKU, PLAIN + "0" * 100_000, "not_sudokuwiki", "over 4096 characters"),
        (KILLER, KILLER_PAGE + COLOURS, "bad_board", "81 cage colours, a comma"),
        (KILLER, KILLER_PAGE + f"{COLOURS},{TOTALS},1", "bad_board", "a comma"),
        (KILLER, KILLER_PAGE + f"{COLOURS[:80]},{TOTALS}", "bad_length", "80 characters, not 81"),
        (KILLER, KILLER_PAGE + f"{COLOURS},{TOTALS[:161]}", "bad_length", "not 162"),
        (KILLER, KILLER_PAGE + f"{COLOURS},x{TOTALS[1:]}", "bad_digit", "r0c0: 'x8'"),
        (KILLER, KILLER_PAGE + f"0{COLOURS[1:]},{TOTALS}", "bad_colour", "r0c0: colour 0"),
        # r0c3 given its row neighbours' colour: one patch holds three cages' totals
        (
            KILLER,
            KILLER_PAGE + f"{COLOURS[:3]}1{COLOURS[4:]},{TOTALS}",
            "cage_totals",
            "has totals 8 at r0c0, 17 at r0c3, 12 at r0c4",
        ),
        (KILLER, KILLER_PAGE + f"{COLOURS},00{TOTALS[2:]}", "cage_totals", "has no total"),
        (KILLER, PLAIN + GOOD, "wrong_page", "'sudoku.htm'"),
    ],
)
def test_a_bad_link_is_refused_with_a_clear_finding(kind, text, code, words):
    with pytest.raises(PuzzleError) as caught:
        kind.formats.read(text, "sudokuwiki", 81)
    codes = [f.code for f in caught.value.findings]
    assert code in codes, caught.value.findings
    assert any(words in f.message for f in caught.value.findings), caught.value.findings


def test_a_link_to_a_page_no_kind_reads_is_said_so():
    with pytest.raises(PuzzleError) as caught:
        detect_format("https://www.sudokuwiki.org/jigsaw.htm?bd=" + GOOD)
    (finding,) = caught.value.findings
    assert finding.code == "unsupported_kind"
    assert "numgrid reads SudokuWiki's" in finding.message and "sudoku.htm" in finding.message


def test_any_damage_to_a_link_is_a_finding_never_another_exception():
    rng = random.Random(28)
    alphabet = "0123456789.,=&?%/:#xS"
    for link in (FIXTURES[0], FIXTURES[-1]):
        kind = KILLER if "killersudoku" in link else SUDOKU
        damaged = [link[:cut] for cut in range(len(link))]
        for _ in range(300):
            chars = list(link)
            for _ in range(rng.randint(1, 4)):
                chars[rng.randrange(len(chars))] = rng.choice(alphabet)
            damaged.append("".join(chars))
        for text in damaged:
            for fmt in ("sudokuwiki", None):
                try:
                    read_board(kind, text, fmt, 81)
                except PuzzleError as e:
                    assert e.findings and all(f.message for f in e.findings), text


def test_the_cli_reads_a_link_and_exits_1_on_a_bad_one(tmp_path):
    good, bad = tmp_path / "good.txt", tmp_path / "bad.txt"
    good.write_text(FIXTURES[-1] + "\n")
    bad.write_text(PLAIN + GOOD[:80] + "\n")
    done = numgrid("unique", str(good))
    assert done.returncode == 0 and "UNIQUE" in done.stdout, done.stdout + done.stderr
    done = numgrid("unique", str(bad))
    assert done.returncode == 1 and "hold 80 characters, not 81" in done.stdout + done.stderr
