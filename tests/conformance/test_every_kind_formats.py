"""Every kind's formats: each corpus puzzle (and the kind's sample, which fits formats
no published puzzle fits: SudokuWiki's 9x9 beside a 16x16 corpus) written in each format
reads back the same, is detected as that format and that kind, and holds its solution as
entries (but in a format that holds the puzzle only); the published solution's text
reads back; a format that cannot hold a puzzle refuses it with a finding; a text a kind
cannot read is refused with findings that say why."""

from __future__ import annotations

import pytest
from numgrid.server.core import Board
from numgrid.server.core import PuzzleError
from numgrid.server.kinds import KINDS as KINDS_BY_NAME
from numgrid.server.kinds import detect
from numgrid.server.operations import read_board
from support.corpus import corpus_ids
from support.corpus import corpus_puzzle
from support.facts import KINDS
from support.facts import MAX_CELLS
from support.facts import entered
from support.facts import facts
from support.facts import sample

CASES = [
    pytest.param(kind, fmt, id=f"{kind.name}-{fmt}")
    for kind in KINDS
    for fmt in kind.formats.FORMATS
]


@pytest.mark.slow
@pytest.mark.parametrize(("kind", "fmt"), CASES)
def test_every_corpus_puzzle_round_trips_through_the_format(kind, fmt):
    written = 0
    published = ((key, *corpus_puzzle(kind.name, key)) for key in corpus_ids(kind.name))
    own, own_solution = sample(kind)
    for key, puzzle, solution in [*published, ("the sample", own.puzzle, own_solution)]:
        board = Board.empty(puzzle)
        try:
            text = kind.formats.write(board, fmt)
        except PuzzleError as e:  # a puzzle the format cannot hold, e.g. a variant
            assert e.findings and all(f.message for f in e.findings), key
            continue
        written += 1
        assert kind.formats.sniff(text) == fmt, key
        assert detect(text) is kind, key
        assert kind.formats.read(text, fmt, MAX_CELLS) == board, key
        assert kind.formats.read(text, None, MAX_CELLS) == board, key
        if fmt in facts(kind).formats_without_entries:
            assert (
                kind.formats.read(kind.formats.write(Board(puzzle, solution), fmt), fmt, MAX_CELLS)
                == board
            )
        else:
            assert entered(kind, puzzle, solution, fmt) == entered(kind, puzzle, solution), key
    assert written > 0, f"no corpus puzzle fits {fmt}"


def test_every_published_solution_reads_back_from_its_text(kind):
    read_solution = kind.formats.read_solution
    for key in corpus_ids(kind.name):
        puzzle, solution = corpus_puzzle(kind.name, key)
        assert read_solution(kind.formats.write_solution(puzzle, solution)) == solution, key


# Texts a kind refuses to read in a format (read, then checked, as the service reads):
# per kind and format, each text with the codes of its findings, in order, and words of
# their messages (None: any).
REFUSED = {
    ("kenken", "tatham"): [
        ("4:_a__b3__a_3a__", ["bad_keen_id"], "expected ','"),
        ("4:_a__b3__A_3a__,a7m4a5m24s2d2s1", ["bad_keen_id"], "unexpected 'A'"),
        ("4:_a__b3__a_3a_,a7m4a5m24s2d2s1", ["bad_keen_id"], "too short"),
        ("4:_a__b3__a_3a___,a7m4a5m24s2d2s1", ["bad_keen_id"], "too long"),
        ("4:_a__b3__a_3a__,a7m4a5m24s2d2", ["bad_keen_id"], "r3c2: the game ID has no clue"),
        ("4:_a__b3__a_3a__,a7m4a5m24s2d2s1a1", ["bad_keen_id"], "more clues"),
        ("4:_a__b3__a_3a__,a7q4a5m24s2d2s1", ["bad_keen_id"], "r0c1: clue 'q4'"),
        ("4:_a__b3__a_3a__,a7ma5m24s2d2s1", ["bad_keen_id"], "r0c1: clue 'm' needs a target"),
        ("4:_a__b99999999999__a_3a__,a7", ["bad_keen_id"], "too long"),
        ("4:_a__b3__a_3a__,a7m4a5m24s2d2s1234567890", ["bad_keen_id"], "r3c2: clue 's1234567890'"),
    ],
    ("skyscraper", "tatham"): [
        ("4:1/2/3/4/1/2/3/4/1/2/3/4/1/2/3", ["clue_count", *["clues_clash"] * 5], "15 clues"),
        ("4:0/////////////////,p", ["clue_count", "bad_clue"], "clue 0 above column 0"),
        ("4:///////////////,e", ["bad_tatham_id"], "5 cells"),
        ("4:5///////////////", ["clue_too_large"], "clue 5 above column 0"),
    ],
    ("skyscraper", "json"): [
        ('{"skyscraper": {"size": 4, "colour": 1}}', ["bad_shape"], "unknown field"),
        ('{"skyscraper": {"size": 4, "diagonals": 1}}', ["bad_shape"], "true or false"),
        ('{"skyscraper": {"size": 40}}', ["bad_size"], "size 40 is not 1 to 9"),
        (
            '{"skyscraper": {"size": 2, "givens": {"rows": [{"values": [1]}, {}]}}}',
            ["ragged_row", "ragged_row"],
            "has 1 values",
        ),
        ('{"skyscraper": {"size": 2, "top": [1, "x"]}}', ["bad_value"], "must be an integer"),
    ],
    ("killer", "line"): [
        ("aabbccdd 3 7 7 3", ["bad_length"], "the cage map has 8 letters"),
        ("aabbccddeeffgghh 3 7 7 3 3 7 7", ["no_sum"], "no sum for cage h (r3c2 and r3c3)"),
        ("aabbccddeeffgghh 3 7 7 3 3 7 7 3 9", ["extra_sums"], "after the 8th (9)"),
        (
            "aabb.cddeeffgghh 3 7 7 3 3 7 7 3",
            ["bad_label", "impossible_sum"],
            "r1c0: '.' is no cage letter",
        ),
        ("abbaccddeeffgghh 3 7 7 3 3 7 7 3", ["cage_split"], "cage 1 (3: r0c0 and r0c3)"),
        ("aabbccddeeffgghh 9 1 7 3 3 7 7 3", ["impossible_sum"] * 2, "they make 3 to 7"),
        ("aabbccddeeffgghh:3 7 7 3 3 7 7 3\n" * 2, ["many_puzzles"], "2 puzzles"),
        ("aabbccddeeffgghh 3 7 7 3 3 7 7 " + "9" * 5000, ["bad_sum"], "1 to 3 digits"),
        ("0000000000000000:0,", ["cage_too_large", "sums_total"], "has 16 cells"),
    ],
    ("kakurasu", "janko"): [
        ("5\n1 2 3 4 5\n1 2 3 4 5\n", ["bad_header"], None),
        ("0 5\n1 2 3 4 5\n\n", ["bad_size"], None),
        ("17 17\n" + "1 " * 17 + "\n" + "1 " * 17 + "\n", ["bad_size"], None),
        ("5 5\n1 2 3 4 5\n", ["line_count"], None),
        ("5 5\n1 2 3 4 5\n1 2 3 4 5\nx x\n", ["line_count"], None),
        ("2 2\n1 a\n1 2\n", ["unknown_token"], None),
        ("2 2\n1 1234567\n1 2\n", ["unknown_token"], None),
        ("2 2\n1 2\n1 2\nx o\n- .\n", ["unknown_token"], None),
    ],
}


@pytest.mark.parametrize(
    ("name", "fmt", "text", "found", "words"),
    [(name, fmt, *case) for (name, fmt), cases in REFUSED.items() for case in cases],
)
def test_a_text_the_kind_cannot_read_is_refused_with_findings_that_say_why(
    name, fmt, text, found, words
):
    with pytest.raises(PuzzleError) as caught:
        read_board(KINDS_BY_NAME[name], text, fmt, MAX_CELLS)
    assert [f.code for f in caught.value.findings] == found
    assert words is None or words in " | ".join(f.message for f in caught.value.findings)


def test_every_corpus_puzzle_reads_back_from_its_structured_message(kind):
    """The message an answer carries (``wire.to_proto``) holds the board: read as a
    request's structured puzzle is read (its JSON through the kind's reader), it is the
    same board, entries included."""
    keys = corpus_ids(kind.name)
    for key in keys[:: max(1, len(keys) // 60)]:
        puzzle, solution = corpus_puzzle(kind.name, key)
        board = entered(kind, puzzle, solution)
        half = tuple(
            tuple(v if (r + c) % 2 else 0 for c, v in enumerate(row))
            for r, row in enumerate(board.entries)
        )
        for entries in (board.entries, half, puzzle.empty_grid()):
            wanted = Board(puzzle, entries)
            message = kind.wire.to_proto(wanted)
            inner = getattr(message, message.WhichOneof("kind"))
            assert kind.formats.read(kind.wire.to_json(inner), "json", MAX_CELLS) == wanted, key
