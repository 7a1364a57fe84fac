"""puzz.link URLs (pzprjs) for Kakuro, Sudoku and Skyscraper: the real links of
tests/data/links/puzzlink.txt read as the service reads them (the broken ones refused
with findings that say why, the others UNIQUE under both engines), pzprjs' own examples
decoded as pzprjs' tests spell them out, written links read back, bad input refused
with one clear finding, and random puzzles round-tripping."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from numgrid.server.core import EMPTY
from numgrid.server.core import Board
from numgrid.server.core import PuzzleError
from numgrid.server.core import Verdict
from numgrid.server.kinds import KINDS
from numgrid.server.kinds import detect
from numgrid.server.kinds import detect_format
from numgrid.server.kinds.kakuro.model import BLACK
from numgrid.server.kinds.kakuro.model import WHITE
from numgrid.server.kinds.kakuro.model import Clue
from numgrid.server.kinds.kakuro.model import Puzzle as KakuroPuzzle
from numgrid.server.kinds.links import pzpr
from numgrid.server.kinds.skyscraper.model import Puzzle as SkyscraperPuzzle
from numgrid.server.kinds.units.model import Puzzle as UnitsPuzzle
from numgrid.server.kinds.units.shape import box_shape
from numgrid.server.operations import read_board
from support.engines import searches
from support.facts import MAX_CELLS

FIXTURES = Path(__file__).resolve().parents[1] / "data" / "links" / "puzzlink.txt"
KIND_OF_TYPE = {
    "kakuro": "kakuro",
    "sudoku": "sudoku",
    "skyscrapers": "skyscraper",
    "building": "skyscraper",
    "skyscraper": "skyscraper",
}

# The fixtures the service refuses (marked in the file): the codes of the findings,
# and words of their messages. Penpa's decoder tests have runs without clues; pzprjs
# allows rectangular Skyscrapers, numgrid's grid is square.
REFUSED = {
    "https://puzz.link/p?kakuro/2/2/k...-5": (
        ["cell_without_run"],
        "white cell r1c1 has no down run",
    ),
    "https://puzz.link/p?kakuro/5/5/kC-e-c-z..-8lff-giO": (
        ["cell_without_run"] * 2,
        "white cell r1c1 has no across run",
    ),
    "https://puzz.link/p?kakuro/6/6/m-eoI5lD-t.l-co-bm8-e-i97ggc": (
        ["run_without_clue"] * 4,
        "across run of 5 cells from r3c2 has no clue",
    ),
    "https://puzz.link/p?skyscrapers/2/1/j1g": (["bad_size"], "2x1"),
    "https://puzz.link/p?skyscrapers/3/5/1235433212312321": (["bad_size"], "3x5"),
}


def fixture_links() -> list[str]:
    lines = FIXTURES.read_text().splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def kind_of(link: str):
    return KINDS[KIND_OF_TYPE[pzpr.link_type(link) or ""]]


def codes(caught: pytest.ExceptionInfo) -> list[str]:
    return [f.code for f in caught.value.findings]


def messages(caught: pytest.ExceptionInfo) -> str:
    return " | ".join(f.message for f in caught.value.findings)


# ---------------------------------------------------------------- the real links


def test_the_fixtures_hold_the_links_of_the_spec():
    links = fixture_links()
    assert len(links) == 21
    assert set(REFUSED) <= set(links)
    counts = {name: sum(kind_of(link).name == name for link in links) for name in KIND_OF_TYPE}
    assert (counts["kakuro"], counts["sudoku"], counts["skyscraper"]) == (8, 8, 5)


@pytest.mark.parametrize("link", fixture_links())
def test_every_real_link_is_detected_and_read_or_refused_with_its_findings(link):
    kind = kind_of(link)
    assert detect_format(link) == (kind, "puzzlink")
    if link in REFUSED:
        found, words = REFUSED[link]
        with pytest.raises(PuzzleError) as caught:
            read_board(kind, link, None, MAX_CELLS)
        assert codes(caught) == found
        assert words in messages(caught)
        return
    board, _warnings = read_board(kind, link, None, MAX_CELLS)
    run_native, run_cpsat, _both = searches(kind)
    for search in (run_native, run_cpsat):
        answer = search(board.puzzle)
        assert answer.verdict() is Verdict.UNIQUE, search.__name__
        report = kind.checks.validate_board(Board(board.puzzle, answer.solutions[0]), None)
        assert report.solved and report.ok


@pytest.mark.parametrize("link", [link for link in fixture_links() if link not in REFUSED])
def test_a_real_link_written_back_reads_the_same(link):
    """Sudoku and Skyscraper links come back as they were (under pzprjs' own type name);
    Kakuro's write a missing half of a pair as today's editor does (``-``, where older
    links have ``0``)."""
    kind = kind_of(link)
    board = kind.formats.read(link, "puzzlink", MAX_CELLS)
    written = kind.formats.write(board, "puzzlink")
    assert written.endswith("\n") and written.count("\n") == 1
    assert kind.formats.read(written, None, MAX_CELLS) == board
    if kind.name != "kakuro":
        canonical = link.replace("p?building/", "p?skyscrapers/")
        assert written.strip() == canonical.replace("p?skyscraper/", "p?skyscrapers/")


# ---------------------------------------------------------------- pzprjs' own examples


def test_pzprjs_kakuro_example_is_its_janko_grid():
    """test/script/kakuro.js: down sums 12 and 4 above the grid, across 10 and 3 left of
    it; pairs inside are down then across."""
    link = "https://puzz.link/p?kakuro/5/5/48la0.na0lh3l0Bn.0cl.c4a3"
    janko = (
        "6 6\n- - 12, 4, - -\n- 4,8 0 0 10, -\n,10 0 0 0 0 10,\n,3 0 0 17,3 0 0\n"
        "- ,21 0 0 0 0\n- - ,12 0 0 -\n"
    )
    formats = KINDS["kakuro"].formats
    assert formats.read(link) == formats.read(janko)
    assert formats.write(formats.read(janko), "puzzlink") == (
        "https://puzz.link/p?kakuro/5/5/48la-.na-lh3l-Bn.-cl.c4a3\n"
    )


def test_cspuz_kakuro_example_has_the_clues_its_test_spells_out():
    """semiexp/cspuz_core's serializer test: 6 columns, 5 rows inside the frame."""
    board = KINDS["kakuro"].formats.read("https://puzz.link/p?kakuro/6/5/Dclh4t9fl3-p-gl-alJeC3BgG")
    squares = board.puzzle.squares
    assert (board.puzzle.rows, board.puzzle.cols) == (6, 7)
    assert [sq.down for sq in squares[0] if sq is not WHITE and sq.down] == [29, 14, 22, 3]
    assert squares[1][1] == Clue(23, 12) and squares[1][4] == Clue(17, 4)


def test_pzprjs_sudoku_example_is_its_grid():
    puzzle = KINDS["sudoku"].formats.read("https://puzz.link/p?sudoku/4/4/g1k23k3g").puzzle
    assert puzzle.givens == ((0, 1, 0, 0), (0, 0, 0, 2), (3, 0, 0, 0), (0, 0, 3, 0))
    assert puzzle.boxes == (2, 2)


def test_a_6x6_sudoku_link_has_boxes_of_2_rows_and_3_columns():
    link = "https://puzz.link/p?sudoku/6/6/61j3g2j4g3j5g4j6g5j12"
    puzzle = KINDS["sudoku"].formats.read(link).puzzle
    assert puzzle.boxes == (2, 3)


def test_pzprjs_skyscrapers_example_is_its_towers_id():
    """The clues go top, bottom, left, right; no givens part when there are none."""
    formats = KINDS["skyscraper"].formats
    board = formats.read("https://puzz.link/p?skyscrapers/4/4/k13h4j3g")
    assert formats.write(board, "tatham") == "4://///1/3///4/////3/\n"


@pytest.mark.parametrize(
    "link",
    [
        "http://pzv.jp/p.html?sudoku/4/4/g1k23k3g",
        "https://pzprxs.vercel.app/p?sudoku/4/4/g1k23k3g",
        "puzz.link/p?sudoku/4/4/g1k23k3g",
        "https://www.puzz.link/p?sudoku_play/4/4/g1k23k3g/",
        "https://puzz.link/p?type=player&sudoku/4/4/g1k23k3g",
        "https://puzz.link/p?sudoku/v:/4/4/g1k23k3g",
        "https://puzz.link/p?sudoku%2F4%2F4%2Fg1k23k3g",
        "  <https://puzz.link/p?sudoku/4/4/g1k23k3g>\n",
        "\ufeff'https://puzz.link/p?sudoku/4/4/g1k23k3g'",
        "https://puzz.link/p?sudoku/4/4/g1k23k3g#shared",  # a fragment stays in the browser
    ],
)
def test_a_link_is_read_on_every_host_and_as_pasted(link):
    sudoku = KINDS["sudoku"]
    assert detect(link) is sudoku
    assert sudoku.formats.read(link) == sudoku.formats.read(
        "https://puzz.link/p?sudoku/4/4/g1k23k3g"
    )


# ---------------------------------------------------------------- bad input

SUDOKU_9 = "https://puzz.link/p?sudoku/9/9/15i96l17i7g65i42k1g5368h2i7g2p3h5g48g2g9k3h7i6"

BAD = [
    # truncated bodies
    ("sudoku", SUDOKU_9[:-8], ["bad_puzzlink"], "r7c3: the puzz.link body ends after 66 of its 81"),
    (
        "kakuro",
        "https://puzz.link/p?kakuro/5/5/48la0.na0lh3l0Bn.0cl.c4",
        ["bad_puzzlink"],
        "r2c0: the puzz.link body ends before the across sum left of the row",
    ),
    (
        "kakuro",
        "https://puzz.link/p?kakuro/5/5/48la0.na0l",
        ["bad_puzzlink"],
        "r3c3: the puzz.link body ends before cell 13 of the 25 inside the frame",
    ),
    (
        "kakuro",
        "https://puzz.link/p?kakuro/5/5/48la0.na0lh",
        ["bad_puzzlink"],
        "r3c3: the puzz.link body ends before its across sum",
    ),
    (
        "skyscraper",
        "https://puzz.link/p?skyscrapers/5/5/k13h4j3g",
        ["bad_puzzlink"],
        "the clue right of row 1: the puzz.link body ends after 16 of its 20 clues",
    ),
    # size and body disagree
    (
        "sudoku",
        "https://puzz.link/p?sudoku/4/4/g1k23k3g5",
        ["bad_puzzlink"],
        "goes on after the 16 cells: 1 more character ('5')",
    ),
    (
        "sudoku",
        "https://puzz.link/p?sudoku/4/4/g1k23k3z",
        ["bad_puzzlink"],
        "r3c3: 'z' at character 8 of the puzz.link body says 20 empty, past the last of the 16",
    ),
    (
        "kakuro",
        "https://puzz.link/p?kakuro/5/5/48la0.na0lh3l0Bn.0cl.c4a3bb",
        ["bad_puzzlink"],
        "goes on after the cells and the frame's sums",
    ),
    (
        "kakuro",
        "https://puzz.link/p?kakuro/2/2/z",
        ["bad_puzzlink"],
        "r1c1: 'z' at character 1 of the puzz.link body says 16 white cells, past the last",
    ),
    (
        "skyscraper",
        "https://puzz.link/p?skyscrapers/4/4/k13h4j3gzz",
        ["bad_puzzlink"],
        "r0c0: 'z' at character 9 of the puzz.link body says 20 empty",
    ),
    # garbage characters
    (
        "sudoku",
        "https://puzz.link/p?sudoku/4/4/g1k2!k3g",
        ["bad_puzzlink"],
        "r2c0: '!' at character 5 of the puzz.link body is not a number nor a run of empty cells",
    ),
    (
        "sudoku",
        "https://puzz.link/p?sudoku/4/4/g.k23k3g",
        ["bad_puzzlink"],
        "r0c1: '.' at character 2 of the puzz.link body is a '?' (a number left hidden)",
    ),
    (
        "sudoku",
        "https://puzz.link/p?sudoku/16/16/-1x",
        ["bad_puzzlink"],
        "r0c0: '-1x' at character 1 of the puzz.link body is not '-' and 2 hex digits",
    ),
    (
        "sudoku",
        "https://puzz.link/p?sudoku/4/4/g0k23k3g",
        ["bad_puzzlink"],
        "r0c1: a given 0 is no digit",
    ),
    (
        "sudoku",
        "https://puzz.link/p?sudoku/4/4/g5k23k3g",
        ["bad_digit"],
        "r0c1: the given 5 is outside 1-4",
    ),
    (
        "kakuro",
        "https://puzz.link/p?kakuro/5/5/4!la0.na0lh3l0Bn.0cl.c4a3",
        ["bad_puzzlink"],
        "r1c1: '!' at character 2 of the puzz.link body is no across sum",
    ),
    (
        "kakuro",
        "https://puzz.link/p?kakuro/5/5/48la0.na0lh3l0Bn.0cl.c4a!",
        ["bad_puzzlink"],
        "r3c0: '!' at character 25 of the puzz.link body is no across sum",
    ),
    (
        "skyscraper",
        "https://puzz.link/p?skyscrapers/4/4/+13h4j3g",
        ["bad_puzzlink"],
        "the clue above column 0: '+' at character 1",
    ),
    (
        "skyscraper",
        "https://puzz.link/p?skyscrapers/4/4/0j13h4j3g",
        ["bad_puzzlink"],
        "the clue above column 0: 0 is no clue",
    ),
    # types, variants, files
    (
        "kakuro",
        "https://puzz.link/p?sudoku/4/4/g1k23k3g",
        ["wrong_type"],
        "the puzz.link type 'sudoku' is not 'kakuro'",
    ),
    ("sudoku", "https://puzz.link/p?sudoku/v:x/4/4/g1k23k3g", ["bad_puzzlink"], "variant 'x'"),
    (
        "kakuro",
        "https://puzz.link/p?pzprv3/kakuro/5/5/0 0 12 4 0 0 /",
        ["bad_puzzlink"],
        "a puzz.link file link (p?pzprv3/...) holds a saved game",
    ),
    ("kakuro", "https://puzz.link/p?kakuro", ["bad_puzzlink"], "the puzz.link URL has no size"),
    (
        "sudoku",
        "https://puzz.link/p?sudoku/4/4/g1k2 3k3g",
        ["bad_puzzlink"],
        "one line without spaces",
    ),
    (
        "kakuro",
        "https://example.com/p?kakuro/5/5/48",
        ["not_puzzlink"],
        "not a puzz.link URL",
    ),
    # sizes
    (
        "sudoku",
        "https://puzz.link/p?sudoku/8/8/g1",
        ["bad_size"],
        "the puzz.link sudoku is 8x8: numgrid reads the 4x4, 6x6, 9x9 and 16x16 grids",
    ),
    ("sudoku", "https://puzz.link/p?sudoku/0/0/", ["bad_size"], "number of columns '0'"),
    (
        "kakuro",
        "https://puzz.link/p?kakuro/9999999/5/",
        ["bad_size"],
        "number of columns '9999999' is not a number from 1 to 999999",
    ),
    (
        "kakuro",
        "https://puzz.link/p?kakuro/999999/999999/zzz",
        ["grid_too_large"],
        "grid of 1000000x1000000 = 1000000000000 cells",
    ),
    ("skyscraper", "https://puzz.link/p?skyscrapers/12/12/g", ["bad_size"], "size 12 is not 1"),
    ("skyscraper", "https://puzz.link/p?skyscrapers/4/x/g", ["bad_size"], "number of rows 'x'"),
    # over-long, or long where a reader could be slow
    (
        "sudoku",
        "https://puzz.link/p?" + "a=b&" * 200_000 + "/4/4/",
        ["wrong_type"],
        "the puzz.link type '' is not 'sudoku'",
    ),
    (
        "sudoku",
        "https://puzz.link/p?sudoku/9/9/" + "g" * pzpr.MAX_CHARS,
        ["too_long"],
        f"over the {pzpr.MAX_CHARS} of the longest puzz.link URL read",
    ),
]


@pytest.mark.parametrize(("name", "text", "found", "words"), BAD, ids=range(len(BAD)))
def test_bad_input_is_refused_with_one_clear_finding(name, text, found, words):
    with pytest.raises(PuzzleError) as caught:
        read_board(KINDS[name], text, "puzzlink", MAX_CELLS)
    assert codes(caught) == found
    assert words is None or words in messages(caught)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("https://puzz.link/p?nurikabe/5/5/abc", "a puzz.link URL of type 'nurikabe'"),
        ("https://puzz.link/p?kakur/5/5/abc", "type 'kakur', and this server reads puzz.link's"),
    ],
)
def test_a_link_of_a_type_no_kind_reads_names_the_types_read(text, words):
    with pytest.raises(PuzzleError) as caught:
        detect(text)
    assert codes(caught) == ["unsupported_kind"]
    assert words in messages(caught)
    assert "building, kakuro, skyscraper, skyscrapers, sudoku" in messages(caught)


# ---------------------------------------------------------------- what a link cannot hold


def kakuro_board(text: str) -> Board:
    return KINDS["kakuro"].formats.read(text, "janko")


@pytest.mark.parametrize(
    ("name", "board", "words"),
    [
        (
            "sudoku",
            Board.empty(UnitsPuzzle(4, (2, 2), None, True, ((0,) * 4,) * 4)),
            "no X variant",
        ),
        (
            "skyscraper",
            Board.empty(SkyscraperPuzzle(4, 3, False, *[(0,) * 4] * 4, ((0,) * 4,) * 4)),
            "no empty lots (the tallest height is 3, not 4)",
        ),
        (
            "skyscraper",
            Board.empty(SkyscraperPuzzle(4, 4, True, *[(0,) * 4] * 4, ((0,) * 4,) * 4)),
            "no diagonal rule",
        ),
        (
            "skyscraper",
            Board.empty(
                SkyscraperPuzzle(4, 4, False, *[(0,) * 4] * 4, ((EMPTY, 0, 0, 0), *((0,) * 4,) * 3))
            ),
            "r0c0: a given empty lot is not 1 to 4",
        ),
        (
            "kakuro",
            kakuro_board("2 3\n- ,3 0\n,3 0 0\n"),
            "r0c2 is white: a puzz.link Kakuro's top row and left column are clue cells",
        ),
        (
            "kakuro",
            kakuro_board("3 3\n- 3,4 3,\n,4 0 0\n,3 0 0\n"),
            "r0c1: a puzz.link Kakuro has no place for the across sum 4 here",
        ),
        (
            "kakuro",
            kakuro_board("3 3\n- 3, 3,\n,3 0 -\n- 0 -\n"),
            "r0c2: a puzz.link Kakuro has no place for the down sum 3 here",
        ),
        (
            "kakuro",
            kakuro_board("3 3\n- 3, 46,\n,4 0 0\n,3 0 0\n"),
            "r0c2: the down sum 46 is not 1 to 45",
        ),
        ("kakuro", kakuro_board("1 3\n- - -\n"), "a frame and at least one cell"),
    ],
)
def test_a_puzzle_a_link_cannot_hold_is_refused_on_write(name, board, words):
    with pytest.raises(PuzzleError) as caught:
        KINDS[name].formats.write(board, "puzzlink")
    assert set(codes(caught)) == {"not_puzzlink"}
    assert words in messages(caught)


@pytest.mark.parametrize("name", ["kenken", "kakurasu", "jigsaw", "killer"])
def test_kinds_pzprjs_lacks_have_no_puzzlink_format(name):
    assert "puzzlink" not in KINDS[name].formats.FORMATS


# ---------------------------------------------------------------- random puzzles


@st.composite
def sudokus(draw) -> UnitsPuzzle:
    n = draw(st.sampled_from((4, 6, 9, 16)))
    values = draw(st.lists(st.integers(0, n), min_size=n * n, max_size=n * n))
    givens = tuple(tuple(values[r * n : r * n + n]) for r in range(n))
    return UnitsPuzzle(n, box_shape(n), None, False, givens)


@st.composite
def skyscrapers(draw) -> SkyscraperPuzzle:
    n = draw(st.integers(1, 9))
    clues = [tuple(draw(st.lists(st.integers(0, n), min_size=n, max_size=n))) for _ in range(4)]
    values = draw(st.lists(st.integers(0, n), min_size=n * n, max_size=n * n))
    givens = tuple(tuple(values[r * n : r * n + n]) for r in range(n))
    return SkyscraperPuzzle(n, n, False, *clues, givens)


SUMS = st.one_of(st.none(), st.integers(1, 45))


@st.composite
def kakuros(draw) -> KakuroPuzzle:
    """A grid with its frame: white and black cells at random, a sum wherever a link holds
    one (inside the frame anywhere; in the frame where it heads a white line)."""
    rows, cols = draw(st.integers(2, 9)), draw(st.integers(2, 24))
    white = [[r > 0 and c > 0 and draw(st.booleans()) for c in range(cols)] for r in range(rows)]
    squares = []
    for r in range(rows):
        row = []
        for c in range(cols):
            if white[r][c]:
                row.append(WHITE)
                continue
            down = draw(SUMS) if c > 0 and (r > 0 or white[1][c]) else None
            across = draw(SUMS) if r > 0 and (c > 0 or white[r][1]) else None
            row.append(BLACK if (down, across) == (None, None) else Clue(down, across))
        squares.append(tuple(row))
    return KakuroPuzzle(tuple(squares))


@settings(max_examples=150, deadline=None)
@given(st.one_of(sudokus(), skyscrapers(), kakuros()))
def test_random_puzzles_round_trip_through_a_link(puzzle):
    name = {UnitsPuzzle: "sudoku", SkyscraperPuzzle: "skyscraper", KakuroPuzzle: "kakuro"}
    kind = KINDS[name[type(puzzle)]]
    board = Board.empty(puzzle)
    written = kind.formats.write(board, "puzzlink")
    assert kind.formats.sniff(written) == "puzzlink"
    assert kind.formats.read(written, "puzzlink", MAX_CELLS) == board
