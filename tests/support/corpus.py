"""The published corpus of every kind (``shared/corpus/<kind>.json``, beside the
repository): ids in their published order, and a puzzle read with its solution by the
kind's own janko reader."""

from __future__ import annotations

import dataclasses
import functools
import json
import re
from pathlib import Path
from typing import Any

from numgrid.server.core import Grid
from numgrid.server.kinds import KINDS

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"
MAX_CELLS = 100_000  # more than the largest published puzzle


@functools.cache
def corpus_path(kind: str) -> Path:
    """A kind's corpus file: ``<name>.json``, else the dataset whose ``name`` is the
    kind's title (``JigsawSudoku`` for "Jigsaw Sudoku")."""
    path = CORPUS / f"{kind}.json"
    if path.is_file():
        return path
    title = KINDS[kind].title.replace(" ", "").lower()
    for other in sorted(CORPUS.glob("*.json")):
        with other.open() as f:
            head = f.read(200)
        named = re.search(r'"name"\s*:\s*"([^"]*)"', head)
        if named and named.group(1).replace(" ", "").lower() == title:
            return other
    return path


@functools.cache
def corpus(kind: str) -> dict[str, dict]:
    """The published corpus of ``kind``: ``{id: {"problem", "solution", ...}}``."""
    return json.loads(corpus_path(kind).read_text())["data"]


def corpus_ids(kind: str) -> list[str]:
    """The ids (e.g. ``"162_12x12"``), by their number."""
    return sorted(corpus(kind), key=lambda key: int(key.split("_")[0]))


def corpus_puzzle(kind: str, key: str) -> tuple[Any, Grid]:
    """The puzzle ``key`` of ``kind``'s corpus and its published solution."""
    item, found = corpus(kind)[key], KINDS[kind]
    puzzle = found.formats.read(item["problem"], "janko", MAX_CELLS).puzzle
    if key in _unmarked_x(kind):  # published with the X rule the data leaves out
        puzzle = dataclasses.replace(puzzle, diagonals=True)
    return puzzle, found.formats.read_solution(item["solution"])


def _unmarked_x(kind: str) -> frozenset[str]:
    from support.facts import facts  # facts are per kind, and read the corpus

    return facts(KINDS[kind]).unmarked_x


def random_latin(size: int, rng) -> tuple[tuple[int, ...], ...]:
    """A cyclic latin square with rows, columns and digits shuffled."""
    rows, cols, digits = list(range(size)), list(range(size)), list(range(1, size + 1))
    rng.shuffle(rows)
    rng.shuffle(cols)
    rng.shuffle(digits)
    return tuple(tuple(digits[(r + c) % size] for c in cols) for r in rows)


def kind_corpus(kind: str):
    """``corpus, corpus_ids, corpus_puzzle`` of one kind, each without the kind's name."""
    return (
        functools.partial(corpus, kind),
        functools.partial(corpus_ids, kind),
        functools.partial(corpus_puzzle, kind),
    )
