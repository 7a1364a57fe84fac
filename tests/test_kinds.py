"""Every registered kind keeps the one interface (``Kind``) and the proto's names, so
the service, the engines and the CLI can hold any kind without asking which."""

from __future__ import annotations

import enum
import inspect

import pytest
from numgrid.server.kinds import KINDS, detect
from numgrid.server.kinds.base import Kind
from numgrid.v1 import numgrid_service_pb2 as service_pb2
from numgrid.v1 import puzzle_pb2

METHODS = [
    name
    for name, member in vars(Kind).items()
    if inspect.isfunction(member) and not name.startswith("_")
]


def _call_shape(function) -> tuple[list[str], list[str]]:
    """The positional and keyword-only parameter names of a protocol method (no self)."""
    params = list(inspect.signature(function).parameters.values())[1:]
    positional = [p.name for p in params if p.kind is p.POSITIONAL_OR_KEYWORD]
    keywords = [p.name for p in params if p.kind is p.KEYWORD_ONLY]
    return positional, keywords


@pytest.mark.parametrize("name", sorted(KINDS))
def test_every_method_accepts_the_protocols_call(name):
    kind = KINDS[name]
    assert METHODS, "the protocol lists its methods"
    for method in METHODS:
        positional, keywords = _call_shape(getattr(Kind, method))
        implementation = getattr(kind, method)
        assert callable(implementation), f"{name}.{method} is missing"
        # Binding raises TypeError if the kind cannot be called as the protocol says.
        inspect.signature(implementation).bind(*positional, **dict.fromkeys(keywords))


@pytest.mark.parametrize("name", sorted(KINDS))
def test_names_match_the_proto(name):
    kind = KINDS[name]
    assert kind.name == name
    oneof = puzzle_pb2.Puzzle.DESCRIPTOR.oneofs_by_name["kind"]
    assert name in {field.name for field in oneof.fields}
    assert f"PUZZLE_KIND_{name.upper()}" in set(puzzle_pb2.PuzzleKind.keys())
    for fmt in kind.formats:
        assert f"PUZZLE_FORMAT_{fmt.upper()}" in set(puzzle_pb2.PuzzleFormat.keys())
    assert issubclass(kind.techniques, enum.IntEnum)
    assert "TRIAL" in kind.techniques.__members__
    for technique in kind.techniques:
        assert f"TECHNIQUE_{technique.name}" in set(service_pb2.Technique.keys())


def test_detection_gives_each_kind_its_own_texts():
    kenken = "4 4\n3 16* . 2/\n2/ 1- . .\n. . 5+ 12*\n3- . . .\n8 6 6 7\n4 5 6 7\n4 5 2 3\n1 1 2 3"
    kakuro = "3 3\n- 4, 4,\n,4 0 0\n,4 0 0\n"
    assert detect(kenken) is KINDS["kenken"]
    assert detect("4:_a__b3__a_3a__,a7m4a5m24s2d2s1") is KINDS["kenken"]
    assert detect(kakuro) is KINDS["kakuro"]
    assert detect(KINDS["kakuro"].write(KINDS["kakuro"].read(kakuro, None, 100), "json")).name == (
        "kakuro"
    )
    assert detect(KINDS["kenken"].write(KINDS["kenken"].read(kenken, None, 100), "json")).name == (
        "kenken"
    )
