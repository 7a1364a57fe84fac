"""Fuzz inputs for every way a puzzle reaches the service: random garbage and mutations of
real puzzles, as text in each kind's formats, as structured ``numgrid.v1.Puzzle``
messages, as whole requests of every RPC, and as raw request bytes.

Everything is drawn from a ``random.Random``: ``tests/test_fuzz.py`` hands in
Hypothesis's (``st.randoms(use_true_random=False)``, so failures shrink and replay),
``benchmarks/fuzz.py`` a seeded one (reproducible by ``--seed`` on the same checkout:
the seeds are the files of ``puzzles/`` and ``tests/data/``). Each draw makes a bounded
number of calls on the generator: long texts are built by repetition, not char by char.
"""

from __future__ import annotations

import functools
import json
import math
import random
import re
from dataclasses import dataclass
from pathlib import Path

from google.protobuf import json_format
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.duration_pb2 import Duration
from numgrid.server import convert
from numgrid.server import engines
from numgrid.server.core import Board
from numgrid.server.core import Budget
from numgrid.server.core import Grid
from numgrid.server.core import PuzzleError
from numgrid.server.engines import Engine
from numgrid.server.kinds import KINDS
from numgrid.v1 import numgrid_service_pb2 as service_pb2
from numgrid.v1 import puzzle_pb2 as pb

REPO = Path(__file__).resolve().parents[1]
PUZZLES = REPO / "puzzles"
DATA = REPO / "tests" / "data"

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
INT64_MAX = 2**63 - 1
HUGE = "1" * 4301  # one digit past Python's int() limit for decimal text


def _and_unknown(enum) -> tuple[int, ...]:
    """An enum's values, then some it does not have (proto3 enums are open: they pass)."""
    known = tuple(enum.values())
    return (*known, max(known) + 1, 99, -1)


FORMAT_VALUES = _and_unknown(pb.PuzzleFormat)
KIND_VALUES = _and_unknown(pb.PuzzleKind)
ENGINE_VALUES = _and_unknown(pb.Engine)
TECHNIQUE_VALUES = _and_unknown(service_pb2.Technique)
OPERATION_VALUES = _and_unknown(pb.CageOperation)
METHODS = ("Validate", "Solve", "Hint", "CheckUniqueness", "Explain", "Render")
# Growth stays bounded, whatever the mutations pile up: a text is cut to MAX_TEXT
# characters, and a copy adds no more than GROWTH characters or bytes.
MAX_TEXT = 300_000
GROWTH = 1_000_000
SIDE = 20  # the most rows or values a mutation fills in from a size it read


def _copies(rng: random.Random, choices: tuple[int, ...], size: int) -> int:
    """How many copies of a thing of ``size`` characters or bytes to add: one of
    ``choices``, no more than GROWTH allows."""
    return min(rng.choice(choices), max(1, GROWTH // max(size, 1)))


# ---------------------------------------------------------------- valid seeds


@dataclass(frozen=True)
class Seed:
    kind: str  # a name of KINDS: "kakuro", "kenken", ...
    fmt: str  # one of the kind's formats: "janko", "csv", "json", "tatham"
    name: str  # where it came from
    text: str
    valid: bool  # the kind reads it as it is (a few samples are broken on purpose)


def _sample_files() -> list[tuple[str, str]]:
    """(name, text) of every puzzle text in the repository, as written by people."""
    found = []
    for path in sorted(PUZZLES.iterdir()):
        if path.is_file() and path.suffix != ".md":
            found.append((path.name, path.read_text()))
    for path in sorted(DATA.glob("*.txt")):
        if path.name == "keen-ids.txt":
            for line in path.read_text().splitlines():
                if line and not line.startswith("#"):
                    found.append((f"keen {line.split()[0]}", line.split()[1]))
        else:
            found.append((path.name, path.read_text()))
    return found


@functools.cache
def seeds() -> tuple[Seed, ...]:
    """Every sample as written, then every board the library reads rewritten in each
    format of its kind: valid puzzles in every format, to mutate."""
    out, seen = [], set()

    def add(kind, fmt, name, text, valid=True):
        if text not in seen:
            seen.add(text)
            out.append(Seed(kind, fmt, name, text, valid))

    for name, text in _sample_files():
        kind = next((k for k in KINDS.values() if k.formats.sniff(text)), None)
        if kind is None:
            continue
        try:
            board = kind.formats.read(text, None, 20_000)
        except PuzzleError:  # broken-clues.txt and the like: mutated as written
            add(kind.name, kind.formats.sniff(text), name, text, valid=False)
            continue
        add(kind.name, kind.formats.sniff(text), name, text)
        for fmt in kind.formats.FORMATS:
            try:
                written = kind.formats.write(board, fmt)
            except PuzzleError:  # a format that cannot say everything the puzzle does
                continue
            if fmt == "csv" and "," in written and not _has_clue_square(written):
                continue  # digits alone (a solution read as a Kakuro): no Kakuro's CSV
            add(kind.name, fmt, f"{name} as {fmt}", written)
    return tuple(out)


def _has_clue_square(csv_text: str) -> bool:
    return any(len(t.strip()) == 5 for line in csv_text.splitlines() for t in line.split(","))


@functools.cache
def _seeds_by_format() -> tuple[tuple[Seed, ...], ...]:
    groups: dict[tuple[str, str], list[Seed]] = {}
    for seed in seeds():
        groups.setdefault((seed.kind, seed.fmt), []).append(seed)
    return tuple(tuple(group) for _, group in sorted(groups.items()))


def any_seed(rng: random.Random) -> Seed:
    """A seed of a kind and format drawn alike (the Keen IDs are most of the seeds)."""
    return rng.choice(rng.choice(_seeds_by_format()))


@functools.cache
def structured_seeds() -> dict[str, tuple[pb.Puzzle, ...]]:
    """The JSON seeds as structured messages, by kind: those the service reads as they
    are (the oneof field of every kind it serves structured)."""
    out: dict[str, list[pb.Puzzle]] = {}
    for seed in seeds():
        if seed.fmt != "json":
            continue
        message = pb.Puzzle()
        try:
            json_format.Parse(seed.text, message)
            convert.read_input(pb.PuzzleInput(puzzle=message), 20_000)
        except (json_format.ParseError, convert.InvalidRequest):
            continue
        out.setdefault(message.WhichOneof("kind"), []).append(message)
    return {kind: tuple(messages) for kind, messages in sorted(out.items())}


# ---------------------------------------------------------------- text mutations

# Pieces that mean something to one of the readers, and pieces that hurt.
TOKENS = (
    *("0", "1", "5", "9", "10", "-", ".", ",", "3,", ",7", "4,7", "16,", ",", ",,", "1,2,3"),
    *("10000", "11716", "100017", "1VVHH", "12*", "3-", "2/", "7+", "6x", "2:", "12X"),
    *("\N{MULTIPLICATION SIGN}", "\N{DIVISION SIGN}", "_", "a", "z", "y", "b3", "m12", "s1"),
    *("d2", "a5", "m", "#", "4:", "6dh:", "16:", "17:", "0:", ":", "4#123"),
    *("{", "}", "[", "]", '"', '"kakuro"', '"kenken"', '"rows"', '"cells"', '"digit"'),
    *('"size"', '"cages"', '"target"', '"operation"', '"entries"', '"values"', '"black"'),
    *(":", "null", "true", "false", "1.5", "1e9", "-1", "-0", "NaN", "Infinity", "[]", "{}"),
    *("\n", "\r\n", "\r", " ", "\t", "  ", "\n\n", ";", "\x00", "\ufeff", "\u200b", "\u00a0"),
    *("\u0663", "\u00b2", "\uff15", "\u202e", "\u0301", "é", "漢", "🧩", "\x7f", "\x1b[2J"),
    *(HUGE, str(INT32_MAX + 1), str(INT32_MIN - 1), str(INT64_MAX + 1), "9" * 30),
)
NUMBERS = (
    *("0", "-0", "-1", "-9", "1", "2", "9", "10", "16", "17", "45", "46", "99", "100"),
    *("255", "1000", "65536", str(INT32_MAX), str(INT32_MAX + 1), str(INT32_MIN)),
    *(str(INT64_MAX + 1), "9" * 30, HUGE, "1.5", "1e3", "0x10", "\u0663", "\uff15", ""),
)
_NUMBER = re.compile(r"\d+")
_PIECE = re.compile(r"\s+|[^\s,:]+|[,:]")


def _position(rng: random.Random, text: str) -> int:
    return rng.randint(0, len(text))


def _delete(rng, text, _):
    if not text:
        return text
    i = rng.randrange(len(text))
    return text[:i] + text[i + rng.choice((1, 1, 2, 5, 40)) :]


def _insert(rng, text, _):
    i = _position(rng, text)
    return text[:i] + rng.choice(TOKENS) + text[i:]


def _replace(rng, text, _):
    if not text:
        return rng.choice(TOKENS)
    i = rng.randrange(len(text))
    return text[:i] + rng.choice(TOKENS) + text[i + 1 :]


def _swap_tokens(rng, text, _):
    pieces = _PIECE.findall(text)
    if len(pieces) < 2:
        return text
    i, j = rng.randrange(len(pieces)), rng.randrange(len(pieces))
    pieces[i], pieces[j] = pieces[j], pieces[i]
    return "".join(pieces)


def _number(rng, text, _):
    """A number of the text made huge, negative, zero, non-ASCII or not an integer."""
    found = list(_NUMBER.finditer(text))
    if not found:
        return _insert(rng, text, _)
    m = rng.choice(found)
    return text[: m.start()] + rng.choice(NUMBERS) + text[m.end() :]


def _lines(rng, text, _):
    lines = text.split("\n")
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    how = rng.randrange(5)
    if how == 0:
        del lines[i]
    elif how == 1:
        lines.insert(i, lines[j])
    elif how == 2:
        lines[i], lines[j] = lines[j], lines[i]
    elif how == 3:
        lines[i:i] = [lines[j]] * _copies(rng, (2, 10, 100), len(lines[j]))
    else:
        lines[i] = lines[i][::-1]
    return "\n".join(lines)


def _long_line(rng, text, _):
    i = _position(rng, text)
    piece = rng.choice(("0 ", "- ", "9,", "a", "_", "1", "x ", "[", '{"a":', " ", "\x00"))
    return text[:i] + piece * rng.choice((500, 5_000, 50_000)) + text[i:]


def _truncate(rng, text, _):
    return text[: _position(rng, text)] if rng.random() < 0.7 else text[_position(rng, text) :]


def _blank(rng, text, _):
    return rng.choice(("", " ", "\n", "\ufeff", "\x00", "\ufeff\ufeff", "\t\n \r", "0", "-"))


def _bom_nul(rng, text, _):
    i = rng.choice((0, 0, _position(rng, text)))
    return text[:i] + rng.choice(("\ufeff", "\x00", "\ufeff\ufeff", "\x00" * 64)) + text[i:]


def _newlines(rng, text, _):
    return text.replace("\n", rng.choice(("\r\n", "\r", "\n\n", " ", "", "\u2028", "\x85")))


def _separators(rng, text, _):
    a, b = rng.choice(((" ", "\t"), (" ", ","), (",", ";"), (",", " "), (" ", "  "), (",", "")))
    return text.replace(a, b)


def _case(rng, text, _):
    return text.swapcase() if rng.random() < 0.5 else text.upper()


def _header(rng, text, _):
    """The leading size (``R C``, ``N:``) made to disagree with the grid."""
    size = rng.choice(("0", "1", "2", "16", "17", "124 90", "200 200", "-3", HUGE, "4 4 4", ""))
    return re.sub(r"^\ufeff?\s*\d+(\s+\d+)?", size, text, count=1)


def _splice(rng, text, _):
    other = any_seed(rng).text
    a = rng.randrange(len(other) + 1)
    piece = other[a : a + rng.choice((1, 10, 100, 1000))]
    i = _position(rng, text)
    return text[:i] + piece + text[i:]


def _json(rng, text, depth):
    """A value of the JSON tree replaced: another type, a huge or negative number, deep
    nesting; or an element duplicated or dropped."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return _replace(rng, text, depth)
    holders = []

    def walk(node):
        if isinstance(node, dict):
            holders.extend((node, k) for k in node)
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            holders.extend((node, i) for i in range(len(node)))
            for v in node:
                walk(v)

    walk(data)
    if not holders:
        return json.dumps(json_value(rng, 2))
    node, key = holders[rng.randrange(len(holders))]
    how = rng.randrange(4)
    if how == 0 or not isinstance(node, list):
        node[key] = json_value(rng, 2)
    elif how == 1:
        node.insert(key, node[key])
    elif how == 2:
        del node[key]
    else:
        size = len(json.dumps(node[key]))
        node.extend([node[key]] * _copies(rng, (10, 1000), size))
    if rng.random() < 0.3 and isinstance(data, dict):
        data[rng.choice(("kakuro", "kenken", "sudoku", "", "rows"))] = json_value(rng, 2)
    return json.dumps(data, ensure_ascii=rng.random() < 0.5)


def json_value(rng: random.Random, depth: int):
    """A random JSON value, a few levels deep."""
    how = rng.randrange(9 if depth > 0 else 6)
    if how == 0:
        return None
    if how == 1:
        return rng.choice((True, False))
    if how == 2:
        return rng.choice((0, 1, -1, 9, 17, 45, INT32_MAX + 1, INT64_MAX + 1, 10**30, -(10**20)))
    if how == 3:
        return rng.choice((0.5, -0.0, 1e308, 2.0))
    if how == 4:
        return rng.choice(("", "x", "CAGE_OPERATION_ADD", "ADD", "7", HUGE, "\x00", "\ufeff"))
    if how == 5:
        return rng.choice(([], {}, [[]], {"cells": []}))
    if how == 6:
        return [json_value(rng, depth - 1) for _ in range(rng.randrange(4))]
    if how == 7:
        keys = ("rows", "cells", "digit", "down", "across", "black", "size", "cages", "target")
        keys += ("operation", "row", "column", "entries", "values", "kakuro", "kenken", "zzz")
        return {rng.choice(keys): json_value(rng, depth - 1) for _ in range(rng.randrange(4))}
    n = rng.choice((10, 1000, 100_000))
    return json.loads("[" * n + "]" * n) if n < 500 else "[" * n  # too deep: a string


def _deep_json(rng, text, _):
    n = rng.choice((100, 1000, 10_000, 200_000))
    inner = rng.choice(("[", '{"kakuro":', '{"kenken":', '{"a":'))
    return inner * n + rng.choice(("", "1", "]" * n, "}" * n))


MUTATIONS = (
    _delete,
    _insert,
    _replace,
    _swap_tokens,
    _number,
    _number,
    _lines,
    _long_line,
    _truncate,
    _blank,
    _bom_nul,
    _newlines,
    _separators,
    _case,
    _header,
    _splice,
    _json,
    _json,
    _deep_json,
)


def mutate_text(rng: random.Random, text: str, rounds: int | None = None) -> str:
    """``text`` after 1 to 4 random mutations (``rounds`` of them if given)."""
    for _ in range(rng.choice((1, 1, 1, 2, 3, 4)) if rounds is None else rounds):
        text = rng.choice(MUTATIONS)(rng, text, 0)[:MAX_TEXT]
    return text


def garbage_text(rng: random.Random) -> str:
    """Text from no puzzle: a jumble of tokens, random code points, or random bytes read
    as Latin-1."""
    how = rng.randrange(3)
    if how == 0:
        return "".join(rng.choice(TOKENS) for _ in range(rng.randrange(60)))
    if how == 1:
        planes = (0x7F, 0x2FF, 0xD7FF, 0x10FFFF)
        out = []
        for _ in range(rng.randrange(80)):
            c = rng.randint(0, rng.choice(planes))
            out.append(chr(c) if not 0xD800 <= c <= 0xDFFF else "?")  # no lone surrogates
        return "".join(out)
    return rng.randbytes(rng.randrange(200)).decode("latin-1")


@functools.cache
def _solution(kind_name: str, puzzle) -> Grid | None:
    """A solution of a seed's puzzle, if the native engine finds one at once."""
    found = engines.find(
        KINDS[kind_name], puzzle, engine=Engine.NATIVE, limit=1, budget=Budget.seconds(0.3)
    )
    return found.solutions[0] if found.solutions else None


def with_entries(rng: random.Random, kind_name: str, board: Board) -> Board:
    """The board with a player's entries: some of the solution's values, sometimes all,
    sometimes one of them wrong or out of range."""
    solution = _solution(kind_name, board.puzzle)
    if solution is None:
        return board
    cells = [(r, c) for r, row in enumerate(solution) for c, v in enumerate(row) if v]
    if not cells:
        return board
    entries = [list(row) for row in board.entries]
    share = rng.choice((0.1, 0.5, 0.9, 1.0))
    for r, c in rng.sample(cells, max(1, round(share * len(cells)))):
        entries[r][c] = solution[r][c]
    if rng.random() < 0.3:
        r, c = rng.choice(cells)
        entries[r][c] = rng.choice((-1, 0, 1, 2, 5, 9, 10, 17))
    return Board(board.puzzle, tuple(tuple(row) for row in entries))


def puzzle_text(rng: random.Random, intact: float = 0.1) -> tuple[str, Seed | None]:
    """A seed, a third of the time with a player's entries, mutated but for ``intact`` of
    the time; or garbage. (text, its seed)"""
    if rng.random() < 0.1:
        return garbage_text(rng), None
    seed = any_seed(rng)
    text = seed.text
    if seed.valid and rng.random() < 0.35:
        kind = KINDS[seed.kind]
        board = with_entries(rng, seed.kind, kind.formats.read(text, seed.fmt, 20_000))
        text = kind.formats.write(board, seed.fmt)
    if rng.random() >= intact:
        text = mutate_text(rng, text)
    return text, seed


def text_message(rng: random.Random, intact: float = 0.1) -> pb.PuzzleText:
    """A PuzzleText: a fuzzed text, its format and kind mostly as given or unspecified,
    sometimes wrong or unknown enum values."""
    text, seed = puzzle_text(rng, intact)
    message = pb.PuzzleText(content=text)
    roll = rng.random()
    if seed is not None and roll < 0.35:
        message.format = pb.PuzzleFormat.Value(f"PUZZLE_FORMAT_{seed.fmt.upper()}")
        message.kind = pb.PuzzleKind.Value(f"PUZZLE_KIND_{seed.kind.upper()}")
    elif roll < 0.55:
        message.format = rng.choice(FORMAT_VALUES)
        message.kind = rng.choice(KIND_VALUES)
    return message


# ---------------------------------------------------------------- structured puzzles


def _int32(rng: random.Random) -> int:
    return rng.choice((0, 1, 2, 9, 10, 16, 17, 45, 46, -1, -9, 255, INT32_MAX, INT32_MIN))


def _cellref(rng: random.Random, n: int) -> pb.CellRef:
    if rng.random() < 0.8:
        return pb.CellRef(row=rng.randrange(max(n, 1)), column=rng.randrange(max(n, 1)))
    return pb.CellRef(row=_int32(rng), column=_int32(rng))


def _mutate_kakuro(rng: random.Random, k: pb.KakuroPuzzle) -> None:
    how = rng.randrange(8)
    if not k.rows or how == 0:
        k.rows.add().cells.extend([pb.KakuroCell()] * rng.choice((0, 1, 3, 200)))
        return
    row = rng.choice(k.rows)
    if how == 1:
        del k.rows[rng.randrange(len(k.rows))]
    elif how == 2 and row.cells:
        del row.cells[rng.randrange(len(row.cells))]
    elif how == 3:
        k.rows.extend([row] * _copies(rng, (1, 2, 50, 500), row.ByteSize()))
    elif how == 4:
        row.cells.extend([pb.KakuroCell(black=rng.random() < 0.5)] * rng.choice((1, 5, 300)))
    elif row.cells:
        cell = rng.choice(row.cells)
        field = rng.choice(("black", "down", "across", "digit", "clear"))
        if field == "black":
            cell.black = not cell.black
        elif field == "clear":
            cell.Clear()
        else:
            setattr(cell, field, _int32(rng))


def _mutate_kenken(rng: random.Random, k: pb.KenKenPuzzle) -> None:
    how = rng.randrange(11)
    n = k.size
    if how == 10 and 1 <= n <= SIDE:  # bands of rows as single cages: too many layouts
        rows = rng.choice((1, 2, 3, n))
        adding = rng.random() < 0.5
        whole = n * (n + 1) // 2 if adding else math.factorial(n)
        del k.cages[:]
        for top in range(0, n, rows):
            band = range(top, min(top + rows, n))
            k.cages.add(
                target=min(whole * len(band) if adding else whole ** len(band), INT32_MAX),
                operation=pb.CAGE_OPERATION_ADD if adding else pb.CAGE_OPERATION_MULTIPLY,
                cells=[pb.CellRef(row=r, column=c) for r in band for c in range(n)],
            )
    elif how == 0:
        k.size = rng.choice((0, -1, 1, 2, 3, 9, 16, 17, 100, 5000, INT32_MAX, INT32_MIN))
    elif how == 1 or not k.cages:
        k.cages.add(
            target=_int32(rng),
            operation=rng.choice(OPERATION_VALUES),
            cells=[_cellref(rng, n) for _ in range(rng.randrange(4))],
        )
    elif how == 2:
        del k.cages[rng.randrange(len(k.cages))]
    elif how == 3:
        cage = rng.choice(k.cages)
        cage.target = _int32(rng)
    elif how == 4:
        rng.choice(k.cages).operation = rng.choice(OPERATION_VALUES)
    elif how == 5:
        cage = rng.choice(k.cages)
        if cage.cells and rng.random() < 0.5:
            del cage.cells[rng.randrange(len(cage.cells))]
        else:
            cage.cells.append(_cellref(rng, n))
    elif how == 6:
        cage = rng.choice(k.cages)
        k.cages.extend([cage] * _copies(rng, (1, 3, 100), cage.ByteSize()))
    elif how == 7:
        cage = rng.choice(k.cages)
        if cage.cells:
            ref = rng.choice(cage.cells)
            setattr(ref, rng.choice(("row", "column")), _int32(rng))
    elif how == 8:
        side = min(max(0, n), SIDE)  # the size may be huge by now
        if not k.entries.rows:
            k.entries.rows.extend(pb.GridRow(values=[0] * side) for _ in range(side))
        row = rng.choice(k.entries.rows) if k.entries.rows else k.entries.rows.add()
        if row.values and rng.random() < 0.7:
            value = rng.choice((1, 2, n, min(n + 1, INT32_MAX), 0, -1))
            row.values[rng.randrange(len(row.values))] = value
        else:
            row.values.append(_int32(rng))
    else:
        side = min(max(0, n), SIDE)
        width = rng.choice((0, 1, side, side + 1))
        k.entries.rows.extend(
            pb.GridRow(values=[rng.randint(0, 9) for _ in range(width)])
            for _ in range(rng.choice((1, 2)))
        )


def _scalar(rng: random.Random, field: FieldDescriptor):
    """A value for a scalar field: an interesting one of its type (within its range)."""
    if field.type == FieldDescriptor.TYPE_BOOL:
        return rng.random() < 0.5
    if field.type == FieldDescriptor.TYPE_ENUM:
        known = [v.number for v in field.enum_type.values]
        return rng.choice((*known, *known, max(known) + 1, 99, -1))
    if field.type == FieldDescriptor.TYPE_STRING:
        return rng.choice(("", "x", "\x00", "\ufeff", "é", HUGE))
    if field.type in (FieldDescriptor.TYPE_INT64, FieldDescriptor.TYPE_SINT64):
        return rng.choice((_int32(rng), INT64_MAX, -INT64_MAX))
    return _int32(rng) if rng.random() < 0.5 else rng.randint(-1, 10)


def _nodes(message, out: list) -> list:
    """Every message of the tree under ``message``, itself first."""
    out.append(message)
    for field, value in message.ListFields():
        if field.type != FieldDescriptor.TYPE_MESSAGE:
            continue
        if field.is_repeated:
            for item in value[:200]:  # a long list: its first elements are enough
                _nodes(item, out)
        else:
            _nodes(value, out)
    return out


def mutate_message(rng: random.Random, message) -> None:
    """One change anywhere in a message's tree, driven by its descriptor (so a kind added
    to ``Puzzle`` is fuzzed too): a scalar set to an odd value, a repeated field's
    element dropped, repeated or added, a sub-message cleared or filled."""
    nodes = _nodes(message, [])
    node = nodes[rng.randrange(len(nodes))]
    fields = node.DESCRIPTOR.fields
    if not fields:
        return
    field = fields[rng.randrange(len(fields))]
    value = getattr(node, field.name)
    if field.is_repeated:
        how = rng.randrange(5)
        if value and how == 0:
            del value[rng.randrange(len(value))]
        elif value and how == 1:
            item = value[rng.randrange(len(value))]
            size = item.ByteSize() if field.type == FieldDescriptor.TYPE_MESSAGE else 10
            value.extend([item] * _copies(rng, (1, 2, 10, 300), size))
        elif value and how == 2 and field.type != FieldDescriptor.TYPE_MESSAGE:
            value[rng.randrange(len(value))] = _scalar(rng, field)
        elif how == 3:
            del value[:]
        elif field.type == FieldDescriptor.TYPE_MESSAGE:
            mutate_message(rng, value.add())
        else:
            value.append(_scalar(rng, field))
    elif field.type == FieldDescriptor.TYPE_MESSAGE:
        if node.HasField(field.name) and rng.random() < 0.3:
            node.ClearField(field.name)
        else:
            mutate_message(rng, value)
    else:
        setattr(node, field.name, _scalar(rng, field))


def structured_puzzle(rng: random.Random, intact: float = 0.1) -> pb.Puzzle:
    """A valid puzzle of any kind served, a third of the time with a player's entries,
    mutated but for ``intact`` of the time; sometimes one built from nothing or none."""
    roll = rng.random()
    message = pb.Puzzle()
    if roll < 0.04:
        return message
    if roll < 0.16:  # from nothing: any kind of the oneof, even one not served
        kind = rng.choice(pb.Puzzle.DESCRIPTOR.oneofs_by_name["kind"].fields).name
        getattr(message, kind).SetInParent()
        for _ in range(rng.randrange(12)):
            mutate_message(rng, message)
        return message
    kind = rng.choice(list(structured_seeds()))
    message.CopyFrom(rng.choice(structured_seeds()[kind]))
    if rng.random() < 0.35:
        read = convert.read_input(pb.PuzzleInput(puzzle=message), 20_000)
        board = with_entries(rng, kind, read.board)
        message = convert.puzzle(convert.Read(read.kind, board, ()))
    if rng.random() < intact:
        return message
    for _ in range(rng.choice((1, 1, 2, 3))):
        if kind == "kakuro" and rng.random() < 0.5:
            _mutate_kakuro(rng, message.kakuro)
        elif kind == "kenken" and rng.random() < 0.5:
            _mutate_kenken(rng, message.kenken)
        else:
            mutate_message(rng, getattr(message, kind))
    return message


def puzzle_input(rng: random.Random, intact: float = 0.1) -> pb.PuzzleInput:
    """Text (55 %), structured (40 %) or nothing at all; ``intact``: the share of valid
    puzzles left unmutated."""
    roll = rng.random()
    if roll < 0.55:
        return pb.PuzzleInput(text=text_message(rng, intact))
    if roll < 0.95:
        return pb.PuzzleInput(puzzle=structured_puzzle(rng, intact))
    return pb.PuzzleInput()


# ---------------------------------------------------------------- requests


def _rarely_odd(rng: random.Random, values: tuple[int, ...]) -> int:
    """Unset most of the time, any value (unknown ones too) the rest."""
    return 0 if rng.random() < 0.7 else rng.choice(values)


def search_options(rng: random.Random) -> service_pb2.SearchOptions | None:
    """None (unset), or options: mostly sound, sometimes an unknown engine or a time
    limit that is zero, negative, tiny or huge."""
    if rng.random() < 0.3:
        return None
    options = service_pb2.SearchOptions(
        engine=_rarely_odd(rng, ENGINE_VALUES), hold_entries=rng.random() < 0.3
    )
    if rng.random() < 0.4:
        seconds, nanos = rng.choice(
            ((0, 1), (0, 50_000_000), (0, 300_000_000), (1, 0), (0, 0), (-1, 0), (0, -5)),
        )
        if rng.random() < 0.1:
            seconds = rng.choice((10**6, 315_576_000_000, -315_576_000_000))
        options.time_limit.CopyFrom(Duration(seconds=seconds, nanos=nanos))
    return options


def request(rng: random.Random, method: str, intact: float = 0.1):
    """A request of one of the unary RPCs (``METHODS``)."""
    source = puzzle_input(rng, intact)
    if method == "Validate":
        out = service_pb2.ValidateRequest(puzzle=source, compare_with_solution=rng.random() < 0.5)
    elif method == "Explain":
        return service_pb2.ExplainRequest(
            puzzle=source, max_technique=_rarely_odd(rng, TECHNIQUE_VALUES)
        )
    elif method == "Hint":
        out = service_pb2.HintRequest(
            puzzle=source,
            max_technique=_rarely_odd(rng, TECHNIQUE_VALUES),
            placements_only=rng.random() < 0.3,
        )
    elif method == "Solve":
        out = service_pb2.SolveRequest(puzzle=source)
    elif method == "Render":
        out = service_pb2.RenderRequest(
            puzzle=source,
            show_entries=rng.random() < 0.5,
            show_solution=rng.random() < 0.3,
            format=_rarely_odd(rng, (1, 2, -1)),
        )
        for _ in range(rng.choice((0, 0, 1, 3))):  # off the grid, twice or unknown sometimes
            out.highlights.add(cell=_cellref(rng, 9), highlight=_rarely_odd(rng, (1, 2, 7)))
    else:
        out = service_pb2.CheckUniquenessRequest(puzzle=source)
    options = search_options(rng)
    if options is not None:
        out.options.CopyFrom(options)
    return out


GRADE_VALUES = _and_unknown(service_pb2.Grade)


def generate_request(rng: random.Random) -> service_pb2.GenerateRequest:
    """A Generate request: mostly a small puzzle of some kind (so that the server can
    make one in a fuzz call's time), else odd sizes, counts, seeds, grades, densities."""
    sizes = (0, 1, 2, 3, 4, 5, 6, 9, 10, 17, 31, 200, INT32_MAX, INT32_MIN, -3)
    out = service_pb2.GenerateRequest(kind=rng.choice(KIND_VALUES))
    small = rng.random() < 0.6
    out.rows = rng.choice((3, 4, 5) if small else sizes)
    out.columns = rng.choice((0, out.rows) if small else sizes)
    out.grade = _rarely_odd(rng, GRADE_VALUES)
    out.count = rng.choice((0, 1, 2) if small else (0, 1, 3, 10_000, 10_001, -1, INT32_MAX))
    if rng.random() < 0.7:
        out.seed = rng.choice((0, 1, 42, 2**62, 2**63 - 1, -1, -(2**63)))
    if rng.random() < 0.3:
        out.density = rng.choice((0.5, 0.99, 1.0, -0.5, 1e308, float("nan"), float("inf")))
    out.single_cell_runs = rng.random() < 0.2
    return out


def batch_messages(
    rng: random.Random, intact: float = 0.1
) -> list[service_pb2.BatchCheckUniquenessRequest]:
    """The messages of a BatchCheckUniqueness stream: none, empty ones, or a few puzzles
    each (ids repeated, empty, or long)."""
    out = []
    for _ in range(rng.choice((0, 1, 1, 2, 3))):
        message = service_pb2.BatchCheckUniquenessRequest()
        for i in range(rng.choice((0, 1, 2, 4))):
            ident = rng.choice((str(i), "", "same", "\x00", "é" * 10, "x" * 2000))
            puzzle = message.puzzles.add(id=ident, puzzle=puzzle_input(rng, intact))
            options = search_options(rng)
            if options is not None:
                puzzle.options.CopyFrom(options)
        out.append(message)
    return out


# ---------------------------------------------------------------- raw bytes

_MARK = "Zq7MARKZq7"


def _invalid_utf8(rng: random.Random) -> bytes:
    piece = rng.choice((b"\xff", b"\xc0\x80", b"\xed\xa0\x80", b"\xe2\x82", b"\x80", b"\xfe"))
    return (piece * len(_MARK))[: len(_MARK)]


def raw_payload(rng: random.Random, method: str) -> bytes:
    """Bytes sent as a request of ``method`` (a unary RPC, ``BatchCheckUniqueness`` or
    ``Generate``):
    random bytes, a real request cut short or with bytes changed, or one whose string
    field is not UTF-8."""
    how = rng.randrange(4)
    if how == 0 or (how == 1 and method == "Generate"):  # a GenerateRequest has no string
        return rng.randbytes(rng.choice((0, 1, 3, 10, 100, 300)))
    if how == 1:  # invalid UTF-8 where protobuf wants a string: content, or a batch id
        text = pb.PuzzleText(content=_MARK, format=rng.choice(FORMAT_VALUES))
        source = pb.PuzzleInput(text=text)
        if method == "BatchCheckUniqueness":
            ident = _MARK if rng.random() < 0.5 else "ok"
            if ident == _MARK:
                source = pb.PuzzleInput(text=pb.PuzzleText(content="1 1\n-\n"))
            message = service_pb2.BatchCheckUniquenessRequest(
                puzzles=[service_pb2.BatchPuzzle(id=ident, puzzle=source)]
            )
        else:
            message = getattr(service_pb2, f"{method}Request")(puzzle=source)
        return message.SerializeToString().replace(_MARK.encode(), _invalid_utf8(rng))
    if method == "BatchCheckUniqueness":
        messages = batch_messages(rng)
        data = bytearray(messages[0].SerializeToString() if messages else b"")
    elif method == "Generate":
        data = bytearray(generate_request(rng).SerializeToString())
    else:
        data = bytearray(request(rng, method).SerializeToString())
    if how == 2 and data:
        return bytes(data[: rng.randrange(len(data))])
    for _ in range(rng.choice((1, 2, 5))):
        if not data:
            data.extend(rng.randbytes(3))
        i = rng.randrange(len(data))
        data[i] = rng.choice((0x00, 0xFF, 0x80, 0x0A, 0x12, 0x1A, 0x22, 0x08, rng.randrange(256)))
    if rng.random() < 0.2:  # a field number proto3 does not know, or reserved 1-3 of batch
        data.extend(rng.choice((b"\x0a\x00", b"\xf8\x07\x01", b"\x12\x02ab", b"\x1a\x00")))
    return bytes(data)
