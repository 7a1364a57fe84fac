"""``numgrid validate``: check each puzzle and the digits entered on it (Validate), with
``--solution`` also against its unique solution."""

from __future__ import annotations

import argparse

from ..cli_output import MAX_ERRORS
from ..cli_output import MAX_WARNINGS
from ..cli_output import NOT_HAPPY
from ..cli_output import OK
from ..cli_output import Outcome
from ..cli_output import error
from ..cli_output import error_lines
from ..cli_output import finding_json
from ..cli_output import stats_json
from ..client import PuzzleLike
from ..types import cell_name
from .base import Command
from .base import Connect
from .base import Context
from .base import each_file
from .base import files_argument


def arguments(sub: argparse.ArgumentParser) -> None:
    sub.add_argument(
        "--solution",
        action="store_true",
        help="also solve and list the entries that differ from the unique solution",
    )
    files_argument(sub)


def outcome(ctx: Context, source: str, text: PuzzleLike) -> Outcome:
    """One puzzle's check: VALID, SOLVED, INVALID (what is wrong, and where on the board)."""
    compare = ctx.args.solution
    r = ctx.client.validate(text, compare_with_solution=compare, **ctx.call_options())
    if r.board_findings or r.wrong_entries:
        status = "INVALID"
    elif r.solved:
        status = "SOLVED"
    elif compare and r.verdict != "UNIQUE":
        status = r.verdict or "INVALID"
    else:
        status = "VALID"
    out = Outcome(source, "validate", status, OK if status in ("VALID", "SOLVED") else NOT_HAPPY)
    out.verdict, out.stats = r.verdict, stats_json(r.stats)
    out.errors = [finding_json(f) for f in r.board_findings]
    out.errors += [
        error(
            f"{cell_name(c)}: the entry differs from the unique solution",
            c,
            code="wrong_entry",
            cells=[c],
        )
        for c in r.wrong_entries
    ]
    out.warnings = [finding_json(f) for f in r.warnings]
    out.extra = {"solved": r.solved, "wrong_entries": [list(c) for c in r.wrong_entries]}
    lines = []
    if compare:
        lines.append(f"puzzle: {r.verdict}")
    if out.errors:
        lines += ["errors:", *error_lines(out.errors, ctx.width, MAX_ERRORS)]
    if out.warnings:
        lines += ["warnings:", *error_lines(out.warnings, ctx.width, MAX_WARNINGS, "warnings")]
    marks = [c for f in r.board_findings for c in f.cells] + list(r.wrong_entries)
    if marks:  # the board only when it shows where the errors are
        lines.append(ctx.board(r.puzzle, marks=marks))
    out.text = "\n".join(lines)
    return out


def run(args: argparse.Namespace, connect: Connect, width: int) -> int:
    return each_file(args, connect, width, outcome)


COMMAND = Command("validate", "check puzzles and the digits entered on them", arguments, run)
