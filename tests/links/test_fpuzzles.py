"""f-puzzles links (``https://www.f-puzzles.com/?load=``, lz-string base64 of the JSON):
the lz-string codec against lz-string's own outputs and its cap, the real links of
``tests/data/links/fpuzzles.txt`` read as their sources say, each kind's link written
and read back, and bad links refused with one clear finding each."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from numgrid.server.core import Board
from numgrid.server.core import PuzzleError
from numgrid.server.kinds import KINDS
from numgrid.server.kinds import detect_format
from numgrid.server.kinds.links import fpuzzles
from numgrid.server.kinds.links import lzstring
from numgrid.server.kinds.links.lzstring import LzStringError
from numgrid.server.kinds.links.lzstring import compress_to_base64
from numgrid.server.kinds.links.lzstring import decompress_from_base64
from numgrid.server.operations import read_board
from support.corpus import corpus_ids
from support.corpus import corpus_puzzle
from support.engines import searches

FIXTURES = Path(__file__).resolve().parents[1] / "data" / "links" / "fpuzzles.txt"
MAX_CELLS = 100_000
SUDOKU, JIGSAW, KILLER = KINDS["sudoku"], KINDS["jigsaw"], KINDS["killer"]


def fixture_links() -> list[tuple[str, str]]:
    """Each link of the fixture file with the source line before it."""
    out, source = [], ""
    for line in FIXTURES.read_text().splitlines():
        if line.startswith("# source:"):
            source = line
        elif line.strip() and not line.startswith("#"):
            out.append((source, line.strip()))
    return out


def link_of(data: object) -> str:
    """A link holding ``data`` as its JSON."""
    return fpuzzles.LINK + compress_to_base64(json.dumps(data))


def empty_grid(n: int) -> list[list[dict]]:
    return [[{} for _ in range(n)] for _ in range(n)]


# ---------------------------------------------------------------- lz-string


# JavaScript's lz-string 1.5.0 compressToBase64 of a text with an astral character (two
# UTF-16 code units in JavaScript), checked against it (docs/links-formats.md, 3.2).
JS_ASTRAL = ('{"t":"\U0001f600"}', "N4IgLiBcKLwbgAeyAvkA")


def test_the_codec_gives_back_lz_strings_own_base64_for_every_real_link():
    for _, link in fixture_links():
        data = link.partition("load=")[2]
        assert compress_to_base64(decompress_from_base64(data)) == data


def test_a_character_outside_the_bmp_is_two_code_units_as_in_javascript():
    text, data = JS_ASTRAL
    assert compress_to_base64(text) == data
    assert decompress_from_base64(data) == text


def test_the_empty_text_is_lz_strings_end_mark_alone():
    assert compress_to_base64("") == "Q==="
    assert decompress_from_base64("Q===") == ""


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_any_text_round_trips(text):
    assert decompress_from_base64(compress_to_base64(text)) == text


@settings(max_examples=50, deadline=None)
@given(st.text(alphabet='ab{}:,"[]0123456789RC', min_size=1, max_size=3000))
def test_repetitive_text_round_trips(text):
    assert decompress_from_base64(compress_to_base64(text)) == text


def test_data_that_would_expand_past_the_cap_is_refused_quickly():
    data = compress_to_base64("a" * (lzstring.MAX_TEXT + 1))
    assert len(data) < 5_000  # a few KB of link, two million characters of text
    start = time.monotonic()
    with pytest.raises(LzStringError, match="expands past 2000000 characters"):
        decompress_from_base64(data)
    assert time.monotonic() - start < 2
    with pytest.raises(PuzzleError, match="expands past"):
        SUDOKU.formats.read(fpuzzles.LINK + data, "fpuzzles", MAX_CELLS)


def test_the_data_itself_is_capped():
    with pytest.raises(LzStringError, match="over the limit"):
        decompress_from_base64("A" * (lzstring.MAX_DATA + 1))


# ---------------------------------------------------------------- the real links


# Per fixture link, in file order: the kind it is detected as, and the verdict of both
# engines or the codes of the findings it is refused with (as its source line says).
EXPECTED = [
    ("sudoku", "UNIQUE"),  # an X-Sudoku, 22 givens
    ("killer", "UNIQUE"),  # 17 cages, no givens, not every cell caged
    ("killer", "MULTIPLE"),  # 2 cages only: a decoder test
    ("sudoku", "MULTIPLE"),  # 2 givens only: a decoder test
    ("jigsaw", ["bad_fpuzzles"] * 9),  # two cells swap regions; nine constraints not served
    ("sudoku", "UNIQUE"),  # "Ripples", 25 givens
    ("sudoku", "UNIQUE"),  # untitled, 23 givens
    ("sudoku", "UNIQUE"),  # untitled, 27 givens
    ("sudoku", "UNIQUE"),  # "Valtari", 25 givens
    ("sudoku", "UNIQUE"),  # "Classic Sudoku #4", 24 givens
]

# The solutions dclamage/SudokuSolver's SudokuTests/Puzzles.cs pairs with its five
# uniqueClassicFPuzzles (fixture links 5 to 9), row by row.
CLASSIC_SOLUTIONS = [
    "913548762678192435452637189137965248295874316864213597749326851521489673386751924",
    "823915674741362958569874213657438129138296745492157386385729461216543897974681532",
    "392785146146932587785461392518294673473516829269873451654327918937158264821649735",
    "483971652675382941129645837948517326561293478732468519814739265296154783357826194",
    "765189243182437695934256178857623914346591827291748356679814532518372469423965781",
]


def test_every_fixture_link_has_its_expectation():
    assert len(fixture_links()) == len(EXPECTED)


@pytest.mark.parametrize(
    ("index", "kind_name", "expected"),
    [(k, name, expected) for k, (name, expected) in enumerate(EXPECTED)],
)
def test_every_real_link_reads_as_its_source_says(index, kind_name, expected):
    source, link = fixture_links()[index]
    kind, fmt = detect_format(link)
    assert (kind.name, fmt) == (kind_name, "fpuzzles"), source
    if isinstance(expected, list):
        with pytest.raises(PuzzleError) as caught:
            read_board(kind, link, fmt, MAX_CELLS)
        assert [f.code for f in caught.value.findings] == expected, source
        return
    board, _ = read_board(kind, link, fmt, MAX_CELLS)
    run_native, run_cpsat, _ = searches(kind)
    for search in (run_native, run_cpsat):
        assert search(board.puzzle).verdict().value == expected, (source, search.__name__)


@pytest.mark.parametrize("index", range(len(CLASSIC_SOLUTIONS)))
def test_the_classic_links_solve_to_the_solutions_their_source_gives(index):
    source, link = fixture_links()[5 + index]
    assert "uniqueClassicFPuzzles" in source
    puzzle = SUDOKU.formats.read(link, None, MAX_CELLS).puzzle
    run_native, run_cpsat, _ = searches(SUDOKU)
    for search in (run_native, run_cpsat):
        (solution,) = search(puzzle).solutions
        assert "".join(str(v) for row in solution for v in row) == CLASSIC_SOLUTIONS[index]


def test_the_x_link_holds_the_givens_and_diagonals_its_source_asserts():
    puzzle = SUDOKU.formats.read(fixture_links()[0][1], None, MAX_CELLS).puzzle
    rows = ["".join(str(v or "-") for v in row) for row in puzzle.givens]
    assert rows[:3] == ["--7----35", "8-----9--", "-2-67----"]
    assert puzzle.diagonals


def test_the_refused_link_names_each_constraint_it_sets():
    with pytest.raises(PuzzleError) as caught:
        JIGSAW.formats.read(fixture_links()[4][1], "fpuzzles", MAX_CELLS)
    text = " | ".join(f.message for f in caught.value.findings)
    for key in ("thermometer", "arrow", "antiknight", "extraregion", "ratio", "difference"):
        assert f"'{key}'" in text


def test_the_killer_link_reads_its_cages_sums_as_numbers():
    puzzle = KILLER.formats.read(fixture_links()[1][1], None, MAX_CELLS).puzzle
    assert len(puzzle.cages) == 17
    assert puzzle.cages[0].cells == ((0, 0), (0, 1), (1, 0), (1, 1)) and puzzle.cages[0].sum == 18


# ---------------------------------------------------------------- writing


def test_a_written_link_is_f_puzzles_json_with_givens_entries_and_diagonals():
    puzzle, solution = corpus_puzzle("sudoku", corpus_ids("sudoku")[0])
    board = Board(puzzle, solution)
    link = SUDOKU.formats.write(board, "fpuzzles")
    assert link.startswith("https://www.f-puzzles.com/?load=") and link.endswith("\n")
    data = json.loads(decompress_from_base64(link.strip().partition("load=")[2]))
    assert list(data) == ["size", "grid"]
    cells = [cell for row in data["grid"] for cell in row]
    assert all(set(cell) in ({"value", "given"}, {"value"}) for cell in cells)
    assert all(cell.get("given") is not False for cell in cells)
    again = SUDOKU.formats.read(link, None, MAX_CELLS)
    assert again.puzzle == puzzle and again.entries == puzzle.entered(solution)


def test_a_jigsaw_link_names_only_the_cells_off_their_boxes():
    key = next(k for k in corpus_ids("jigsaw") if k.endswith("9x9"))
    puzzle, _ = corpus_puzzle("jigsaw", key)
    link = JIGSAW.formats.write(Board.empty(puzzle), "fpuzzles")
    data = json.loads(decompress_from_base64(link.strip().partition("load=")[2]))
    named = sum("region" in cell for row in data["grid"] for cell in row)
    assert 0 < named < 81
    assert detect_format(link) == (JIGSAW, "fpuzzles")
    assert JIGSAW.formats.read(link, None, MAX_CELLS).puzzle == puzzle


def test_a_jigsaw_whose_regions_are_boxes_is_refused_with_a_finding():
    puzzle, _ = corpus_puzzle("jigsaw", "2_4x4")
    with pytest.raises(PuzzleError, match="regions are the grid's boxes"):
        JIGSAW.formats.write(Board.empty(puzzle), "fpuzzles")


def test_a_killer_link_writes_its_sums_as_strings_and_the_x_rule():
    puzzle, _ = corpus_puzzle("killer", "196_9x9")  # a Killer-X
    assert puzzle.diagonals
    link = KILLER.formats.write(Board.empty(puzzle), "fpuzzles")
    data = json.loads(decompress_from_base64(link.strip().partition("load=")[2]))
    assert data["diagonal+"] is data["diagonal-"] is True
    assert all(isinstance(cage["value"], str) for cage in data["killercage"])
    assert detect_format(link) == (KILLER, "fpuzzles")
    assert KILLER.formats.read(link, None, MAX_CELLS).puzzle == puzzle


def test_the_link_is_read_however_it_was_pasted():
    link = fixture_links()[0][1]
    board = SUDOKU.formats.read(link, None, MAX_CELLS)
    data = link.partition("load=")[2]
    for pasted in (
        f"<{link}>",
        f'  "{link}"\n',
        "http://f-puzzles.com/?load=" + data,
        "f-puzzles.com/?load=" + data,
        "https://www.f-puzzles.com/?load=" + data.replace("+", "%2B").replace("/", "%2F"),
        "https://www.f-puzzles.com/?load=" + data.replace("+", " "),
    ):
        assert SUDOKU.formats.read(pasted, None, MAX_CELLS) == board, pasted


def test_three_kinds_sniffing_a_link_decode_it_once(monkeypatch):
    calls = []

    def counted(data: str, max_text: int = lzstring.MAX_TEXT) -> str:
        calls.append(data)
        return decompress_from_base64(data, max_text)

    monkeypatch.setattr(fpuzzles, "decompress_from_base64", counted)
    link = link_of({"size": 4, "grid": empty_grid(4)}) + "   "  # a text not read before
    assert [kind.formats.sniff(link) for kind in (SUDOKU, JIGSAW, KILLER)] == [
        "fpuzzles",
        None,
        None,
    ]
    assert len(calls) == 1


def test_each_kind_claims_its_own_links_only():
    plain = link_of({"size": 4, "grid": empty_grid(4)})
    swapped = empty_grid(4)
    swapped[0][1]["region"], swapped[0][2]["region"] = 1, 0
    irregular = link_of({"size": 4, "grid": swapped})
    caged = link_of(
        {"size": 4, "grid": empty_grid(4), "killercage": [{"cells": ["R1C1"], "value": "1"}]}
    )
    claims = {
        link: [kind.name for kind in (SUDOKU, JIGSAW, KILLER) if kind.formats.sniff(link)]
        for link in (plain, irregular, caged)
    }
    assert claims == {plain: ["sudoku"], irregular: ["jigsaw"], caged: ["killer"]}


# ---------------------------------------------------------------- bad links


def first_row(*cells: dict) -> dict:
    """A 4x4 link's JSON whose first row is ``cells``."""
    return {**SIZE_4, "grid": [list(cells), *empty_grid(4)[1:]]}


def caged(*cages: dict) -> dict:
    """An empty 9x9 link's JSON with ``cages``."""
    return {"size": 9, "grid": empty_grid(9), "killercage": list(cages)}


def cut(link: str) -> str:
    return link[: len(link) // 2]


def corrupted(link: str) -> str:
    head, _, data = link.partition("load=")
    return f"{head}load={data[:10]}!{data[11:]}"


X_LINK = fixture_links()[0][1]
SIZE_4 = {"size": 4, "grid": empty_grid(4)}

# (kind, text, the codes of the findings in order, words of their messages)
BAD = [
    ("sudoku", cut(X_LINK), ["bad_fpuzzles"], "ends before its end mark"),
    ("sudoku", corrupted(X_LINK), ["bad_fpuzzles"], "'!', is not base64"),
    ("sudoku", fpuzzles.LINK, ["bad_fpuzzles"], "the data is empty"),
    ("sudoku", fpuzzles.LINK + compress_to_base64("[1, 2]"), ["bad_fpuzzles"], "a list, not"),
    ("sudoku", fpuzzles.LINK + compress_to_base64("size 9"), ["bad_fpuzzles"], "is not JSON"),
    ("sudoku", "https://f-puzzles.com/?id=abc123", ["bad_fpuzzles"], "paste the long ?load="),
    ("sudoku", "https://f-puzzles.com/?puzzle=1", ["bad_fpuzzles"], "after ?load="),
    ("sudoku", link_of({"grid": []}), ["bad_fpuzzles"], "size is missing"),
    ("sudoku", link_of({"size": 99, "grid": []}), ["bad_fpuzzles"], "not a number 1 to 16"),
    (
        "sudoku",
        link_of({"size": 9, "grid": empty_grid(4)}),
        ["bad_fpuzzles"] * 5,
        "has 4 rows, but its size is 9",
    ),
    (
        "sudoku",
        link_of({"size": 4, "grid": [*empty_grid(4)[:3], [{}, {}, 7, {}]]}),
        ["bad_fpuzzles"],
        "r3c2: the cell is a number, not an object",
    ),
    ("sudoku", link_of({"size": 5, "grid": empty_grid(5)}), ["bad_size"], "5x5 Sudoku"),
    (
        "sudoku",
        link_of(
            {**SIZE_4, "grid": [[{"value": 5, "given": True}, {}, {}, {}], *empty_grid(4)[1:]]}
        ),
        ["bad_fpuzzles"],
        "r0c0: the value '5' is not a digit 1 to 4",
    ),
    ("sudoku", link_of({**SIZE_4, "diagonal+": True}), ["bad_fpuzzles"], "'diagonal-'"),
    (
        "sudoku",
        link_of({**SIZE_4, "thermometer": [{"lines": []}]}),
        ["bad_fpuzzles"],
        "'thermometer'",
    ),
    (
        "sudoku",
        link_of({**SIZE_4, "killercage": [{"cells": ["R1C1"], "value": "1"}]}),
        ["bad_fpuzzles"],
        "it is a Killer Sudoku",
    ),
    (
        "sudoku",
        link_of(first_row({}, {"region": 1}, {"region": 0}, {})),
        ["bad_fpuzzles"],
        "r0c1 and r0c2 are off their boxes",
    ),
    (
        "jigsaw",
        link_of(first_row({}, {}, {"region": 0}, {})),
        ["region_size", "region_size"],
        "region 1 has 5 cells",
    ),
    (
        "jigsaw",
        link_of(first_row({"region": None}, {}, {}, {})),
        ["bad_fpuzzles"],
        "r0c0: the cell is in no region",
    ),
    (
        "killer",
        link_of(
            {"size": 9, "grid": empty_grid(9), "killercage": [{"cells": ["R10C1"], "value": "3"}]}
        ),
        ["bad_fpuzzles"],
        "cage 1 of the link lists 'R10C1': not a cell of the 9x9 grid",
    ),
    (
        "killer",
        link_of(caged({"cells": ["R1C1", "R1C2"]})),
        ["bad_fpuzzles"],
        "cage 1 of the link (r0c0 and r0c1) has no sum",
    ),
    (
        "killer",
        link_of(
            {
                "size": 9,
                "grid": empty_grid(9),
                "killercage": [{"cells": ["R1C1", "R1C1"], "value": "3"}],
            }
        ),
        ["bad_fpuzzles"],
        "lists r0c0 twice",
    ),
    (
        "killer",
        link_of(
            {
                "size": 9,
                "grid": empty_grid(9),
                "killercage": [{"cells": ["R1C1", "R1C2"], "value": "30"}],
            }
        ),
        ["impossible_sum"],
        "add up to 30",
    ),
]


@pytest.mark.parametrize(("name", "text", "codes", "words"), BAD)
def test_a_bad_link_is_refused_with_findings_that_say_why(name, text, codes, words):
    with pytest.raises(PuzzleError) as caught:
        read_board(KINDS[name], text, "fpuzzles", MAX_CELLS)
    assert [f.code for f in caught.value.findings] == codes
    assert words in " | ".join(f.message for f in caught.value.findings)


@pytest.mark.parametrize("text", [cut(X_LINK), corrupted(X_LINK), "https://f-puzzles.com/?id=x"])
def test_a_bad_link_is_still_detected_as_a_link_so_its_reader_says_why(text):
    kind, fmt = detect_format(text)
    assert fmt == "fpuzzles"
    with pytest.raises(PuzzleError):
        read_board(kind, text, fmt, MAX_CELLS)
