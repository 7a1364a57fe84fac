"""``numgrid explain``: each puzzle's whole logical solution, step by step, and its grade
(one Explain call per puzzle, over any number of puzzles as :mod:`..batch_cli` reads
them)."""

from __future__ import annotations

import argparse
from typing import Any

from ..batch_cli import explain_each
from ..batch_cli import many_options
from ..cli_output import NOT_HAPPY
from ..cli_output import OK
from ..cli_output import Outcome
from ..cli_output import step_json
from ..cli_output import words
from ..cli_output import wrap
from ..client import PuzzleLike
from ..render import entries
from ..render import with_entries
from ..types import Cell
from .base import Command
from .base import Connect
from .base import Context
from .base import files_argument
from .base import technique_option


def arguments(sub: argparse.ArgumentParser) -> None:
    technique_option(sub, "all")
    many_options(sub, "explain")
    files_argument(sub)


def outcome(ctx: Context, source: str, text: PuzzleLike) -> Outcome:
    """One puzzle's whole logical solution (Explain): a JSON line per step and a summary
    line, the steps and the board where the chain stops as text."""
    timeout = ctx.call_options()["timeout"]
    r = ctx.client.explain(
        text,
        format=ctx.args.format,
        kind=ctx.args.kind,
        max_technique=ctx.args.max_technique,
        timeout=timeout,
    )
    d = r.difficulty
    if r.solved:
        out = Outcome(source, "explain", "SOLVED", OK)
    else:
        out = Outcome(source, "explain", "STALLED", NOT_HAPPY)
    for i, step in enumerate(r.steps, 1):
        line = step_json(step)
        del line["cells"], line["groups"]
        out.records.append({"source": source, "step": i, **line})
    out.records.append(
        {
            "source": source,
            "command": "explain",
            "summary": True,
            "status": out.status,
            "solved": r.solved,
            "grade": d.grade,
            "hardest": d.hardest,
            "score": d.score,
            "steps": len(r.steps),
            "techniques": dict(d.counts),
        }
    )
    width = len(str(len(r.steps)))
    lines = [
        wrap(f"{i:>{width}}. {words(step.technique)}: ", step.explanation, ctx.width)
        for i, step in enumerate(r.steps, 1)
    ]
    used = ", ".join(f"{words(t)} {n}" for t, n in d.counts.items() if n)
    grade = d.grade or "none (the chain stalls)"
    lines.append(f"{len(r.steps)} steps, grade {grade}, score {d.score}")
    if used:
        lines.append(wrap("techniques: ", used, ctx.width))
    values = [list(row) for row in entries(r.puzzle)]
    for step in r.steps:
        for (row, col), digit in step.placements:
            values[row][col] = digit
    if not r.solved:
        lines.append("where the chain stops (open cells are marked):")
    open_cells = [(row, col) for row, col in sorted(_white(r.puzzle)) if not values[row][col]]
    lines.append(ctx.board(r.puzzle, tuple(map(tuple, values)), open_cells))
    out.text = "\n".join(lines)
    return out


def _white(puzzle: Any) -> set[Cell]:
    """The white cells: those the player's digits can go in (the bare puzzle read back)."""
    full = tuple(tuple(1 for _ in row) for row in entries(puzzle))
    return {
        (r, c)
        for r, row in enumerate(entries(with_entries(puzzle, full)))
        for c, digit in enumerate(row)
        if digit
    }


def run(args: argparse.Namespace, connect: Connect, width: int) -> int:
    return explain_each(args, connect, width, outcome)


HELP = "the whole logical solution step by step, and the puzzle's grade"
COMMAND = Command("explain", HELP, arguments, run)
