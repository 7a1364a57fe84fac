"""``numgrid hint``: the next step for the digits entered on each puzzle (Hint): a
mistake, or the simplest logical step; ``--entries`` takes the digits from another file
of the same puzzle."""

from __future__ import annotations

import argparse
from typing import Any

from ..cli_output import DEFAULT_DEADLINE
from ..cli_output import NOT_HAPPY
from ..cli_output import OK
from ..cli_output import STDIN
from ..cli_output import STDIN_SOURCE
from ..cli_output import Outcome
from ..cli_output import UsageError
from ..cli_output import finding_json
from ..cli_output import read_input
from ..cli_output import stats_json
from ..cli_output import step_json
from ..cli_output import words
from ..cli_output import wrap
from ..client import PuzzleLike
from ..render import entries
from ..render import layout
from ..render import with_entries
from ..types import NumgridError
from ..types import cell_name
from .base import Command
from .base import Connect
from .base import Context
from .base import each_file
from .base import files_argument
from .base import technique_option

# A hint was given (MISTAKE, STEP, NO_STEP with a reveal, SOLVED; REVEAL: older servers).
_HINT_EXIT = {"MISTAKE": OK, "STEP": OK, "NO_STEP": OK, "REVEAL": OK, "SOLVED": OK}


def arguments(sub: argparse.ArgumentParser) -> None:
    technique_option(sub, "all but trial")
    sub.add_argument(
        "--placements-only",
        action="store_true",
        help="only a step that places a digit (the eliminations on the way summarised)",
    )
    sub.add_argument(
        "--entries",
        metavar="ENTRIES",
        help="a file of the same puzzle (a format that holds entries, e.g. JSON) whose "
        "digits are the player's entries, over those of FILE (one FILE only)",
    )
    files_argument(sub)


def usage(args: argparse.Namespace) -> str | None:
    if args.entries is not None and len(args.files) > 1:
        return "--entries goes with one FILE"
    return None


def _bare(puzzle: Any) -> Any:
    """The puzzle without the player's digits."""
    return with_entries(puzzle, tuple(tuple(0 for _ in row) for row in entries(puzzle)))


def _merge_entries(ctx: Context, source: str, text: PuzzleLike) -> Any:
    """With ``--entries PATH``: the structured puzzle of ``text`` with the digits of the
    file at PATH (the same puzzle, in any format) entered over its own. Both are read by
    the server (Validate), so the client parses no format itself."""
    path = ctx.args.entries
    if path is None:
        return text
    if path == STDIN and source == STDIN_SOURCE:
        raise UsageError("FILE and --entries cannot both be stdin")
    _, entries_text = read_input(path, {})
    puzzle = ctx.client.validate(
        text, format=ctx.args.format, kind=ctx.args.kind, timeout=DEFAULT_DEADLINE
    ).puzzle
    try:
        given = ctx.client.validate(entries_text, timeout=DEFAULT_DEADLINE).puzzle
    except NumgridError as e:
        if e.code != "INVALID_ARGUMENT":
            raise
        raise UsageError(f"cannot read {path}: {e.message}") from None
    if _bare(given) != _bare(puzzle):
        raise UsageError(_not_the_same(path, source, puzzle, given))
    merged = tuple(
        tuple(new or old for old, new in zip(mine, theirs, strict=True))
        for mine, theirs in zip(entries(puzzle), entries(given), strict=True)
    )
    return with_entries(puzzle, merged)


def _not_the_same(path: str, source: str, puzzle: Any, other: Any) -> str:
    """Why ``--entries``' puzzle is not FILE's: its grid or clues differ, or it is FILE
    with more givens (the digits of a format that holds givens alone)."""
    mine, theirs = layout(puzzle), layout(other)
    more = sorted(set(theirs.givens.items()) - set(mine.givens.items()))
    same_but_givens = (
        puzzle.WhichOneof("kind") == other.WhichOneof("kind")
        and mine.givens.items() <= theirs.givens.items()
        and mine.playable - theirs.playable == {cell for cell, _ in more}
        and mine.regions == theirs.regions
        and mine.labels == theirs.labels
    )
    if more and same_but_givens:
        cells = ", ".join(cell_name(cell) for cell, _ in more[:4])
        cells += f" and {len(more) - 4} more" if len(more) > 4 else ""
        return (
            f"{path} has {source}'s givens and more, at {cells}: a player's digits are "
            "entries, which a format of givens alone (a line or a grid of digits) cannot "
            "hold (JSON can: `numgrid convert --to json`, then its entries)"
        )
    return f"{path} is not the same puzzle as {source}: the grid or clues differ"


def outcome(ctx: Context, source: str, text: PuzzleLike) -> Outcome:
    """One puzzle's hint: its explanation, and the board with the hint's cells marked."""
    r = ctx.client.hint(
        _merge_entries(ctx, source, text),
        **ctx.call_options(),
        max_technique=ctx.args.max_technique,
        placements_only=ctx.args.placements_only,
    )
    status = r.kind or "TIMEOUT"  # no kind: the search ran out of time
    out = Outcome(source, "hint", status, _HINT_EXIT.get(status, NOT_HAPPY))
    out.verdict, out.stats = r.verdict, stats_json(r.stats)
    out.errors = [finding_json(f) for f in r.findings]
    out.extra = {
        "hint": {
            "kind": r.kind or None,
            "explanation": r.explanation,
            "cells": [list(c) for c in r.cells],
            "placements": [{"row": c[0], "column": c[1], "digit": d} for c, d in r.placements],
            "step": None if r.step is None else step_json(r.step),
        }
    }
    values = [list(row) for row in entries(r.puzzle)]
    for (row, col), digit in r.placements:
        values[row][col] = digit
    lead = f"{words(r.step.technique)}: " if r.kind == "STEP" and r.step else ""
    out.text = wrap(lead, r.explanation, ctx.width)
    if r.cells:  # the board with the cells of the hint marked
        out.text += "\n" + ctx.board(r.puzzle, tuple(map(tuple, values)), r.cells)
    return out


def run(args: argparse.Namespace, connect: Connect, width: int) -> int:
    return each_file(args, connect, width, outcome)


HELP = "the next step for the digits entered: a mistake or a logical step"
COMMAND = Command("hint", HELP, arguments, run, usage=usage)
