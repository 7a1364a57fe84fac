"""penpa-edit links (server/kinds/links/penpa.py and each kind's penpa.py): real links
read as documented (UNIQUE under both engines, or the error their content earns), the
links numgrid writes read back and carry what penpa itself writes (its centre point,
cell list, box lines and cage outlines), every form of a link people paste is read,
and bad input gives one plain finding."""

from __future__ import annotations

import base64
import json
import re
import zlib
from pathlib import Path

import pytest
from numgrid.server.core import Board
from numgrid.server.core import PuzzleError
from numgrid.server.core import Verdict
from numgrid.server.kinds import KINDS
from numgrid.server.kinds import detect_format
from numgrid.server.kinds.links import penpa
from support.engines import searches
from support.facts import MAX_CELLS
from support.facts import sample

FIXTURES = Path(__file__).resolve().parents[1] / "data" / "links" / "penpa.txt"


def fixtures() -> list[tuple[str, str]]:
    """(source, link) of every link of the fixture file, in order."""
    out, source = [], ""
    for line in FIXTURES.read_text().splitlines():
        if line.startswith("# source:"):
            source = line.removeprefix("# source:").strip()
        elif line.startswith("http"):
            out.append((source, line))
    return out


def read_link(text: str) -> Board:
    kind, fmt = detect_format(text)
    return kind.formats.read(text, fmt, MAX_CELLS)


def text_of(link: str) -> list[str]:
    """The lines of a link's text, as penpa's ``load`` splits them."""
    p = link.strip().split("p=", 1)[1].split("&")[0]
    return penpa.expand(penpa.inflate(base64.b64decode(p))).split("\n")


def link_of(text: str, mode: str = "solve") -> str:
    data = base64.b64encode(penpa.deflate(penpa.abbreviate(text))).decode()
    return f"{penpa.ADDRESS}#m={mode}&p={data}"


# In the fixture file's order: the kind read and UNIQUE, or the words of the error. The
# Kakuro links with runs that have no clue (penpa's decoder tests, a GMPuzzles puzzle
# drawn without its edge clues) are INVALID for numgrid (docs/links-formats.md 7.1).
EXPECTED = [
    "kenken",
    "kakurasu",
    "has no clue",
    "has no across run",
    "skyscraper",
    "sudoku",
    "jigsaw",
    "killer",
    *["sudoku"] * 7,
    "kakuro",
    "kakuro",
    "has no down run",
    "has no across run",
    "has no clue",
    "1x2: a Skyscraper is square",
    "skyscraper",
    "skyscraper",
    "5x3: a Skyscraper is square",
]


@pytest.mark.parametrize(
    ("source", "link", "expected"),
    [(*fixture, expected) for fixture, expected in zip(fixtures(), EXPECTED, strict=True)],
    ids=[f"{k}-{expected.split()[0]}" for k, expected in enumerate(EXPECTED)],
)
def test_every_real_link_reads_as_documented(source, link, expected):
    if expected not in KINDS:
        with pytest.raises(PuzzleError) as caught:
            kind, fmt = detect_format(link)
            board = kind.formats.read(link, fmt, MAX_CELLS)
            found = kind.checks.check_puzzle(board.puzzle, None, None)
            raise PuzzleError([f for f in found if f.is_error])
        assert expected in str(caught.value), source
        return
    kind, fmt = detect_format(link)
    assert (kind.name, fmt) == (expected, "penpa"), source
    puzzle = kind.formats.read(link, fmt, MAX_CELLS).puzzle
    native, cpsat, _ = searches(kind)
    for search in (native, cpsat):
        assert search(puzzle).verdict() is Verdict.UNIQUE, source


@pytest.mark.parametrize("kind", KINDS.values(), ids=list(KINDS))
def test_a_written_link_reads_back_the_same_puzzle_and_is_detected(kind):
    board, solution = sample(kind)
    link = kind.formats.write(Board(board.puzzle, solution), "penpa")
    assert link.startswith(penpa.ADDRESS + "#m=solve&p=") and link.endswith("\n")
    assert detect_format(link) == (kind, "penpa")
    assert kind.formats.read(link, "penpa", MAX_CELLS) == Board.empty(board.puzzle)


@pytest.mark.parametrize(("source", "link"), fixtures(), ids=lambda v: str(v)[-12:])
def test_the_centre_and_cell_list_are_penpas_own(source, link):
    """Where penpa centres its view and the cells it lists (line 5), as numgrid
    computes them, are what penpa wrote in every real link."""
    lines = text_of(link)
    header = lines[0].split(",")
    frame = penpa.Frame(int(header[1]), int(header[2]), tuple(json.loads(lines[1])))
    assert frame.centre() == int(header[9]), source
    if "snapshots" not in source:  # the rebuilt links' cell lists are numgrid's own
        assert frame.centerlist() == json.loads(lines[5]), source


def test_a_written_link_has_the_lines_penpa_loads():
    board, _ = sample(KINDS["killer"])
    lines = text_of(KINDS["killer"].formats.write(board, "penpa"))
    assert len(lines) == 19
    header = lines[0].split(",")
    assert len(header) == 21 and header[15].startswith("Title: ")
    assert lines[2].split("~")[0] == '["1","2","1"]'
    for k in (1, 3, 5, 6, 7, 10, 16, 17):
        json.loads(lines[k])
    assert lines[11] == "" and lines[14] == ""  # penpa keeps its own modes and colours
    layers = json.loads(lines[3])
    assert layers["killercages"] and layers["cage"] and layers["numberS"]


def _fixture(words: str) -> str:
    return next(link for source, link in fixtures() if words in source)


def test_cage_outlines_and_box_lines_are_drawn_as_penpa_draws_them():
    """The Killer sample's dashed cage outlines, and the box lines of penpa's own
    import of a puzz.link Sudoku, are exactly what numgrid writes for the same puzzle."""
    killer = _fixture("Sudoku (killer)")
    written = KINDS["killer"].formats.write(read_link(killer), "penpa")
    assert json.loads(text_of(written)[3])["cage"] == json.loads(text_of(killer)[3])["cage"]
    for size in ("4x4", "6x6", "9x9"):
        theirs = _fixture(f"puzzlink_sudoku_{size}_1")
        ours = KINDS["sudoku"].formats.write(read_link(theirs), "penpa")
        assert json.loads(text_of(ours)[3])["lineE"] == json.loads(text_of(theirs)[3])["lineE"]


def test_every_form_of_a_pasted_link_is_read():
    kind = KINDS["sudoku"]
    board, _ = sample(kind)
    link = kind.formats.write(board, "penpa").strip()
    p = link.split("p=", 1)[1]
    forms = [
        link.replace("#m=solve", "?m=solve"),
        link.replace("#m=solve", "#m=edit"),
        f"m=solve&p={p}",
        f"<{link}>",
        f'"{link}"',
        f"{link}&a=abc&l=solvedup",
        f"https://opt-pan.github.io/penpa-edit/#m=solve&p={p.rstrip('=')}",
        f"https://logicmastersindia.com/penpa-edit/?m=solve&p={p.replace('+', '%2B')}",
    ]
    for form in forms:
        assert read_link(form) == board, form


def test_seven_sniffs_decode_a_link_once(monkeypatch):
    board, _ = sample(KINDS["kenken"])
    link = KINDS["kenken"].formats.write(board, "penpa")
    calls = []
    inflate = penpa.inflate
    monkeypatch.setattr(penpa, "inflate", lambda data: calls.append(1) or inflate(data))
    penpa.sheet.cache_clear()
    assert read_link(link) == board
    assert len(calls) == 1


def _good() -> str:
    board, _ = sample(KINDS["sudoku"])
    return KINDS["sudoku"].formats.write(board, "penpa").strip()


def _with_line(k: int, line: str) -> str:
    lines = text_of(_good())
    lines[k] = line
    return link_of("\n".join(lines))


def _bad_inputs() -> list[tuple[str, str, str]]:
    good = _good()
    p = good.split("p=", 1)[1]
    bomb = base64.b64encode(penpa.deflate("a" * (penpa.MAX_TEXT + 1))).decode()
    garbage = base64.b64encode(b"\xff\xfe\xfd\xfc" * 8).decode()
    return [
        ("truncated", good[: len(good) - len(p) + 40], "cut short"),
        ("truncated mid-base64", good[: len(good) - len(p) + 41], "not base64"),
        ("corrupted base64", good.replace(p[10:14], "!*!*"), "not base64"),
        ("corrupt deflate", f"{penpa.ADDRESS}#m=solve&p={garbage}", "does not inflate"),
        ("deflate bomb", f"{penpa.ADDRESS}#m=solve&p={bomb}", "inflates to more than"),
        ("empty p", f"{penpa.ADDRESS}#m=edit&p=", "p= parameter is empty"),
        ("hex grid", _with_line(0, "hex,5,5,38,0,1,1,228,228,40,40"), "not a square grid"),
        ("no size", _with_line(0, "square,x,9"), "no grid size"),
        ("huge size", _with_line(0, "square,9,1000"), "not 1 to 100"),
        # past Python's 4,300 digits int() raises ValueError: never read as a number
        ("size of 4,301 digits", _with_line(0, f"square,{'1' * 4301},1"), "not 1 to 100"),
        ("margin of 4,300 digits", _with_line(1, f"[{'1' * 4300},0,0,0]"), "does not match"),
        ("margins", _with_line(1, "[5,5,0,0]"), "the size does not match"),
        ("margins shape", _with_line(1, "[1,1]"), "four whole numbers"),
        ("old link", link_of("9,9,38\nx\nx\nx"), "old (version 1) penpa link"),
        ("cut text", link_of("square,9,9"), "cut short"),
        ("puzzle not JSON", _with_line(3, "{nope"), "puzzle is not JSON"),
        ("puzzle not object", _with_line(3, "[]"), "not a JSON object"),
        ("bad point", _with_line(3, '{"number":{"x1":["1",1,"1"]}}'), "the point 'x1'"),
        ("bad number", _with_line(3, '{"number":{"28":7}}'), "not [text, style]"),
        ("thermo", _with_line(3, '{"thermo":[[28,29]]}'), "draws thermo"),
        # penpa's Sudoku mode writes centre marks as a Medium (or Small) number: not a given
        ("centre marks", _with_line(3, '{"number":{"28":["12",1,"6"]}}'), "a medium number"),
        ("small number", _with_line(3, '{"number":{"28":["5",1,"5"]}}'), "Normal style"),
        # a given at a point no cell has was dropped, and the puzzle read without it
        ("number off the grid", _with_line(3, '{"number":{"99999999":["4",1,"1"]}}'), "not where"),
        ("corner off the grid", _with_line(3, '{"numberS":{"28":["4",1]}}'), "a quarter of a cell"),
        ("import", f"{penpa.ADDRESS}#m=edit&p=https://puzz.link/p?sudoku/4/4/g", "import"),
        ("too long", f"m=solve&p={'A' * penpa.MAX_LINK}", "over"),
    ]


@pytest.mark.parametrize(("name", "text", "words"), _bad_inputs(), ids=lambda v: str(v)[:20])
def test_bad_input_is_one_plain_finding(name, text, words):
    with pytest.raises(PuzzleError) as caught:
        read_link(text)
    findings = caught.value.findings
    assert len(findings) == 1 and findings[0].code == "bad_penpa_link", name
    message = findings[0].message
    assert words in message and "\n" not in message and len(message) < 200, message
    for kind in KINDS.values():  # and asked as that format, each kind says the same
        with pytest.raises(PuzzleError) as again:
            kind.formats.read(text, "penpa", MAX_CELLS)
        assert again.value.findings == findings


def _changed(kind: str, layer: str, change) -> str:
    """The sample of ``kind`` as a penpa link, its puzzle layer ``layer`` changed."""
    board, _ = sample(KINDS[kind])
    lines = text_of(KINDS[kind].formats.write(board, "penpa"))
    puzzle = json.loads(lines[3])
    puzzle[layer] = change(puzzle[layer])
    lines[3] = json.dumps(puzzle)
    return link_of("\n".join(lines))


@pytest.mark.parametrize(
    ("kind", "layer", "change", "words"),
    [
        (  # a number of over 4,300 digits in a given's cell: a finding, not int()'s ValueError
            "sudoku",
            "number",
            lambda numbers: {**numbers, "28": ["1" * 4301, 1, "1"]},
            "the given '111111111111111111111111...' is not 1-9",
        ),
        (  # a number of four digits is out of range, not read as its first digit
            "sudoku",
            "number",
            lambda numbers: {**numbers, "28": ["1234", 1, "1"]},
            "the given '1234' is not 1-9",
        ),
        ("sudoku", "number", lambda numbers: {**numbers, "28": ["9A", 1, "1"]}, "'9A' is not 1-9"),
        (  # a point of 4,300 digits is shown cut short
            "killer",
            "killercages",
            lambda cages: [[int("1" * 4300)], *cages[1:]],
            "a cage holds the point '111111111111...', not a cell",
        ),
        (  # more cages than cells, as the f-puzzles reader refuses them
            "killer",
            "killercages",
            lambda cages: cages * 100,
            "the link draws 3700 cages for 81 cells",
        ),
    ],
)
def test_huge_numbers_and_counts_in_a_link_are_short_findings(kind, layer, change, words):
    with pytest.raises(PuzzleError) as caught:
        KINDS[kind].formats.read(_changed(kind, layer, change), "penpa", MAX_CELLS)
    messages = [f.message for f in caught.value.findings]
    assert any(words in m for m in messages), messages[:3]
    assert all(len(m) < 200 for m in messages), messages[:3]


def test_a_link_of_the_wrong_size_or_shape_for_the_kind_asked_is_refused():
    skyscraper = KINDS["skyscraper"].formats.write(sample(KINDS["skyscraper"])[0], "penpa")
    with pytest.raises(PuzzleError, match="clues outside the grid"):
        KINDS["sudoku"].formats.read(skyscraper, "penpa", MAX_CELLS)
    jigsaw = _fixture("Sudoku (jigsaw)")  # 5x5
    with pytest.raises(PuzzleError, match="not one of the sizes served"):
        KINDS["sudoku"].formats.read(jigsaw, "penpa", MAX_CELLS)


def test_written_layers_keep_the_abbreviations_penpa_undoes():
    """A title with ``z`` in it and the cage layer survive penpa's abbreviations."""
    text = 'Title: zz "zN" z6\n{"killercages":[],"number":{}}'
    packed = penpa.abbreviate(text)
    assert "killercages" not in packed and '"number"' not in packed
    assert penpa.expand(packed) == text
    assert re.fullmatch(r"[^z]*(z.[^z]*)*", packed)
    assert zlib.decompressobj(-15).decompress(penpa.deflate(text)).decode() == text
