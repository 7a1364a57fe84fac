"""Every registered kind keeps the one interface (``Kind``) and the proto's names, so
the service, the engines and the CLI can hold any kind without asking which."""

from __future__ import annotations

import enum
import inspect
import typing

import pytest
from numgrid.server.kinds import KINDS
from numgrid.server.kinds import detect
from numgrid.server.kinds.base import Kind
from numgrid.v1 import numgrid_service_pb2 as service_pb2
from numgrid.v1 import puzzle_pb2


def _calls() -> dict[tuple[str, str], tuple[list[str], list[str]] | None]:
    """Each member of the module protocols ``Kind``'s fields are typed by, as (field,
    member): for a function, the fullest call its protocol allows (positional-only
    parameters by position, the others by name, no self); None for a property."""
    calls: dict[tuple[str, str], tuple[list[str], list[str]] | None] = {}
    for field, hint in typing.get_type_hints(Kind).items():
        protocol = typing.get_origin(hint) or hint
        if getattr(protocol, "_is_protocol", False) and protocol.__module__ == Kind.__module__:
            for member, value in vars(protocol).items():
                if isinstance(value, property):
                    calls[field, member] = None
                elif inspect.isfunction(value) and not member.startswith("_"):
                    params = list(inspect.signature(value).parameters.values())[1:]
                    positional = [p.name for p in params if p.kind is p.POSITIONAL_ONLY]
                    keywords = [p.name for p in params if p.kind is not p.POSITIONAL_ONLY]
                    calls[field, member] = (positional, keywords)
    return calls


CALLS = _calls()


@pytest.mark.parametrize("name", sorted(KINDS))
def test_every_module_has_what_its_protocol_asks(name):
    """What the type checker proves statically, seen at run time too."""
    kind = KINDS[name]
    assert len(CALLS) >= 17, "the Kind's modules list their members"
    for (field, member), call in CALLS.items():
        assert hasattr(getattr(kind, field), member), f"{name}.{field} lacks {member}"
        if call is not None:
            positional, keywords = call
            implementation = getattr(getattr(kind, field), member)
            # Binding raises TypeError if the kind cannot be called as the protocol says.
            inspect.signature(implementation).bind(*positional, **dict.fromkeys(keywords))
    assert callable(kind.maker.candidate) and kind.wire.to_proto


@pytest.mark.parametrize("name", sorted(KINDS))
def test_names_match_the_proto(name):
    kind = KINDS[name]
    assert kind.name == name
    oneof = puzzle_pb2.Puzzle.DESCRIPTOR.oneofs_by_name["kind"]
    assert name in {field.name for field in oneof.fields}
    assert f"PUZZLE_KIND_{name.upper()}" in set(puzzle_pb2.PuzzleKind.keys())
    for fmt in kind.formats.FORMATS:
        assert f"PUZZLE_FORMAT_{fmt.upper()}" in set(puzzle_pb2.PuzzleFormat.keys())
    assert issubclass(kind.logic.Technique, enum.IntEnum)
    assert "TRIAL" in kind.logic.Technique.__members__
    for technique in kind.logic.Technique:
        assert f"TECHNIQUE_{technique.name}" in set(service_pb2.Technique.keys())


def test_detection_gives_each_kind_its_own_texts():
    kenken = "4 4\n3 16* . 2/\n2/ 1- . .\n. . 5+ 12*\n3- . . .\n8 6 6 7\n4 5 6 7\n4 5 2 3\n1 1 2 3"
    kakuro = "3 3\n- 4, 4,\n,4 0 0\n,4 0 0\n"
    assert detect(kenken) is KINDS["kenken"]
    assert detect("4:_a__b3__a_3a__,a7m4a5m24s2d2s1") is KINDS["kenken"]
    assert detect(kakuro) is KINDS["kakuro"]
    assert detect(
        KINDS["kakuro"].formats.write(KINDS["kakuro"].formats.read(kakuro, None, 100), "json")
    ).name == ("kakuro")
    assert detect(
        KINDS["kenken"].formats.write(KINDS["kenken"].formats.read(kenken, None, 100), "json")
    ).name == ("kenken")


def test_detection_tells_kakurasu_from_kakuro_and_kenken():
    """A Kakurasu text is "R C" and two lines of numbers (column clues, row clues; "-" for
    one not given), optionally a line of marks per row: a square one with marks has more
    lines than rows, as a KenKen does, and a two-row Kakuro has two lines too."""
    kakurasu = KINDS["kakurasu"]
    texts = {
        "5 5\n8 8 9 13 6\n4 5 7 12 10": kakurasu,
        "7 7\n10 12 10 - - 3 13\n5 1 16 12 2 7 6": kakurasu,  # clues not given
        "2 2\n3 3\n3 3\nx x\n. -": kakurasu,  # square, with marks
        "2 3\n1 2 3\n6 6\n": kakurasu,
        "2 3\n- 3, 4,\n,7 0 0\n": KINDS["kakuro"],  # two rows, with clues
        "2 2\n- -\n- -\n": KINDS["kakuro"],  # no number: not a Kakurasu
        "2 2\n3+ .\n3+ .\n1 1\n2 2": KINDS["kenken"],
        "4 4\n3 16* . 2/\n2/ 1- . .\n. . 5+ 12*\n3- . . .\n8 6 6 7\n4 5 6 7\n4 5 2 3\n1 1 2 3": (
            KINDS["kenken"]
        ),
    }
    for text, kind in texts.items():
        assert detect(text) is kind, text
    board = kakurasu.formats.read("5 5\n8 8 9 13 6\n4 5 7 12 10", None, 100)
    assert detect(kakurasu.formats.write(board, "json")) is kakurasu


def test_detection_gives_skyscraper_its_texts_and_no_other_kinds():
    """A Skyscraper text's header has three numbers ("N N H", "N N H D"), its Towers IDs
    hold "/": neither is claimed by another kind, nor does it claim theirs."""
    sky = KINDS["skyscraper"]
    corpus_text = "4 4 3 D\n2 - 1 -\n- - - -\n- - - 1\n- - - -\n- - - -\n- - - -\n- - - -\n- - - -"
    texts = {
        corpus_text: sky,
        "5 5 5\n1 3 2 2 3\n3 2 2 1 2\n1 3 3 2 3\n3 2 1 3 2\n- - - - -\n- - - - -": sky,  # short
        "5:2/3/1/2/4/2/3/4/2/1/2/4/2/1/4/3/2/2/5/1": sky,
        "6dh:3//1//4/3/3//4////2//4//3////2///,i3u3d": sky,
        "4:_a__b3__a_3a__,a7m4a5m24s2d2s1": KINDS["kenken"],
        "3 3\n- 4, 4,\n,4 0 0\n,4 0 0\n": KINDS["kakuro"],
        "5 5\n8 8 9 13 6\n4 5 7 12 10": KINDS["kakurasu"],
    }
    for text, kind in texts.items():
        assert detect(text) is kind, text
    board = sky.formats.read(corpus_text, None, 100)
    assert detect(sky.formats.write(board, "json")) is sky
    for other in ("kakuro", "kenken", "kakurasu"):
        assert all(
            KINDS[other].formats.sniff(text) is None for text, kind in texts.items() if kind is sky
        )
