"""The ``numgrid`` commands that make one call per FILE: ``validate``, ``hint`` and
``render`` (text, or the server's SVG picture with ``--svg``), their options, and
``health``; also :func:`explain`, one puzzle's Explain, which :mod:`.batch_cli` runs
for each puzzle of ``explain``.

:class:`Context` is what such a command needs (the connection, the options, the width);
:mod:`.batch_cli` uses it too. The commands print through :mod:`.cli_output` and take
their argument types from :mod:`.cli_args`; this module imports no other CLI module, so
:mod:`.cli` (the parser and the dispatch) imports it without a circle.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .cli_args import cells_arg, technique_arg
from .cli_output import (
    DEFAULT_DEADLINE,
    FAILURE,
    MAX_ERRORS,
    MAX_WARNINGS,
    NOT_HAPPY,
    OK,
    PROG,
    STDIN,
    STDIN_SOURCE,
    NoServer,
    Outcome,
    UsageError,
    error,
    error_lines,
    finding_json,
    print_human,
    read_input,
    rejected,
    stats_json,
    stdout_ascii_only,
    words,
    wrap,
)
from .client import TECHNIQUES, NumgridClient
from .render import entries, render, with_entries
from .types import Cell, GroupRef, NumgridError, Step, cell_name

HEALTH_DEADLINE = 2.0


@dataclass
class Context:
    """What every command needs: the client (started on first use), options, output."""

    args: argparse.Namespace
    connect: Callable[[], NumgridClient]
    width: int
    ascii_only: bool

    @property
    def client(self) -> NumgridClient:
        return self.connect()

    def call_options(self) -> dict:
        limit = self.args.timeout
        return {
            "format": self.args.format,
            "kind": self.args.kind,
            "engine": self.args.engine,
            "time_limit": limit,
            "timeout": DEFAULT_DEADLINE if limit is None else limit * 1.1 + 1.0,
        }

    def board(self, puzzle, values=None, marks=()) -> str:
        return render(puzzle, values, marks=marks, width=self.width, ascii_only=self.ascii_only)


# ---------------------------------------------------------------- options


def add_options(sub: argparse.ArgumentParser, name: str) -> None:
    """The options of command ``name`` that this module reads (none for most)."""
    if name == "validate":
        sub.add_argument(
            "--solution",
            action="store_true",
            help="also solve and list the entries that differ from the unique solution",
        )
    if name in ("hint", "explain"):
        _logic_options(sub, name)
    if name == "render":
        _render_options(sub)


def _logic_options(sub: argparse.ArgumentParser, name: str) -> None:
    """``hint`` and ``explain``: the techniques allowed, and what a hint may be."""
    default = "all but trial" if name == "hint" else "all"
    sub.add_argument(
        "--max-technique",
        metavar="NAME",
        type=technique_arg,
        help=f"the hardest technique allowed (default: {default}): "
        + ", ".join(t.lower().replace("_", "-") for t in TECHNIQUES),
    )
    if name == "hint":
        sub.add_argument(
            "--placements-only",
            action="store_true",
            help="only a step that places a digit (the eliminations on the way summarised)",
        )
        sub.add_argument(
            "--entries",
            metavar="ENTRIES",
            help="a file of the same puzzle (any format) whose digits are the player's "
            "entries, over those of FILE (one FILE only)",
        )


def _render_options(sub: argparse.ArgumentParser) -> None:
    """``render``: a picture besides the text."""
    group = sub.add_argument_group(
        "pictures", "the server draws each puzzle as printed (the Render RPC)"
    )
    group.add_argument(
        "--svg",
        metavar="OUT",
        help="also write the puzzle as an SVG picture to OUT (with several FILEs, OUT is "
        "a folder: FILE's name with .svg)",
    )
    group.add_argument(
        "--solution",
        action="store_true",
        help="with --svg: draw the unique solution too (in a lighter ink than the entries)",
    )
    group.add_argument(
        "--hint",
        metavar="CELLS",
        type=cells_arg,
        help="with --svg: highlight these cells as a hint (r1c2,r3c4)",
    )
    group.add_argument(
        "--mistake",
        metavar="CELLS",
        type=cells_arg,
        help="with --svg: highlight these cells as mistakes (r1c2,r3c4)",
    )


# ---------------------------------------------------------------- validate


def _validate(ctx: Context, source: str, text: str) -> Outcome:
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


# ---------------------------------------------------------------- hint and explain


def _group_json(group: GroupRef) -> dict:
    out = {"type": group.type, "clue": group.clue}
    if group.clue_cell is not None:
        out["clue_cell"] = list(group.clue_cell)
    if group.operation:
        out["operation"] = group.operation
    if group.type in ("row", "column"):
        out["index"] = group.index
    return out


def _step_json(step: Step | None) -> dict | None:
    if step is None:
        return None
    return {
        "technique": step.technique,
        "placements": [[c[0], c[1], d] for c, d in step.placements],
        "eliminations": [[c[0], c[1], d] for c, d in step.eliminations],
        "cells": [list(c) for c in step.cells],
        "groups": [_group_json(g) for g in step.groups],
        "explanation": step.explanation,
    }


def _bare(puzzle):
    """The puzzle without the player's digits."""
    return with_entries(puzzle, tuple(tuple(0 for _ in row) for row in entries(puzzle)))


def _merge_entries(ctx: Context, source: str, text: str):
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
        raise UsageError(f"{path} is not the same puzzle as {source}: the grid or clues differ")
    merged = tuple(
        tuple(new or old for old, new in zip(mine, theirs, strict=True))
        for mine, theirs in zip(entries(puzzle), entries(given), strict=True)
    )
    return with_entries(puzzle, merged)


# A hint was given (MISTAKE, STEP, NO_STEP with a reveal, SOLVED; REVEAL: older servers).
_HINT_EXIT = {"MISTAKE": OK, "STEP": OK, "NO_STEP": OK, "REVEAL": OK, "SOLVED": OK}


def _hint(ctx: Context, source: str, text: str) -> Outcome:
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
            "step": _step_json(r.step),
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


def explain(ctx: Context, source: str, text: str) -> Outcome:
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
        line = _step_json(step)
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
    lines.append(f"{len(r.steps)} steps, grade {grade}")
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


def _white(puzzle) -> set[Cell]:
    """The white cells: those the player's digits can go in (the bare puzzle read back)."""
    full = tuple(tuple(1 for _ in row) for row in entries(puzzle))
    return {
        (r, c)
        for r, row in enumerate(entries(with_entries(puzzle, full)))
        for c, digit in enumerate(row)
        if digit
    }


# ---------------------------------------------------------------- render


def _render(ctx: Context, source: str, text: str) -> Outcome:
    if ctx.args.svg is not None:
        return _render_svg(ctx, source, text)
    r = ctx.client.validate(
        text, format=ctx.args.format, kind=ctx.args.kind, timeout=DEFAULT_DEADLINE
    )
    board = ctx.board(r.puzzle)
    out = Outcome(source, "render", "RENDERED", OK, text=board.rstrip("\n"))
    out.warnings = [finding_json(f) for f in r.warnings]
    out.extra = {"board": board}
    return out


def _svg_path(args: argparse.Namespace, source: str) -> Path:
    """Where ``render --svg OUT`` writes a FILE's picture: OUT, or with several FILEs (or
    OUT a folder) FILE's name with ``.svg`` in the folder OUT."""
    out = Path(args.svg)
    if len(args.files) == 1 and not out.is_dir() and not args.svg.endswith(os.sep):
        return out
    name = "stdin" if source == STDIN_SOURCE else Path(source).stem
    return out / f"{name}.svg"


def _render_svg(ctx: Context, source: str, text: str) -> Outcome:
    """``render --svg OUT``: the server's picture (Render) written to a file; the text
    board as without --svg, drawn from the puzzle the server sent back."""
    args = ctx.args
    highlights = {cell: "hint" for cell in args.hint or ()}
    highlights.update({cell: "mistake" for cell in args.mistake or ()})
    options = ctx.call_options()
    picture = ctx.client.render(
        text, show_entries=True, show_solution=args.solution, highlights=highlights, **options
    )
    path = _svg_path(args, source)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(picture.svg, encoding="utf-8")
    except OSError as e:
        raise UsageError(f"cannot write {path}: {e.strerror or e}") from None
    board = ctx.board(picture.puzzle, picture.solution, marks=highlights)
    size = f"{picture.width}x{picture.height} px"
    out = Outcome(
        source, "render", "RENDERED", OK, text=f"{board.rstrip()}\npicture: {path} ({size})"
    )
    out.extra = {
        "board": board,
        "svg": str(path),
        "width": picture.width,
        "height": picture.height,
    }
    return out


# ---------------------------------------------------------------- running


# The commands run one call per file; solve, unique and explain run in batch_cli.
COMMANDS: dict[str, Callable[[Context, str, str], Outcome]] = {
    "validate": _validate,
    "hint": _hint,
    "render": _render,
}


def run(args: argparse.Namespace, connect: Callable[[], NumgridClient], width: int) -> int:
    """One of :data:`COMMANDS` on each FILE in turn, printed as it comes; the exit code
    is the worst of the puzzles'."""
    ctx = Context(args, connect, width, stdout_ascii_only())
    command = COMMANDS[args.command]
    stdin_cache: dict = {}
    worst, printed = OK, 0
    for path in args.files:
        try:
            source, text = read_input(path, stdin_cache)
            out = command(ctx, source, text)
        except UsageError as e:
            out = Outcome(path, args.command, "UNREADABLE", FAILURE, errors=[error(str(e))])
        except NumgridError as e:
            out = rejected(args.command, source, e, width)
        worst = max(worst, out.code)
        if out.code == FAILURE:  # no answer at all: say so on stderr
            print(f"{PROG}: {out.errors[0]['message']}", file=sys.stderr)
        if args.json:
            for record in out.records or [out.as_json()]:
                print(json.dumps(record))
            sys.stdout.flush()
        elif out.code != FAILURE:
            if printed:
                print()
            print_human(out, width)
            sys.stdout.flush()
            printed += 1
    return worst


def health(args: argparse.Namespace, connect: Callable[[], NumgridClient]) -> int:
    """``health``: whether the server answers SERVING (exit 0) or something else (1)."""
    timeout = args.timeout or HEALTH_DEADLINE
    try:
        status = connect().health(timeout=timeout)
    except NumgridError as e:
        if e.code in ("UNAVAILABLE", "DEADLINE_EXCEEDED"):
            raise NoServer(e.message) from None
        status = f"{e.code}: {e.message}"
    code = OK if status == "SERVING" else NOT_HAPPY
    target = args.server or "embedded"
    if args.json:
        print(json.dumps({"source": target, "command": "health", "status": status}))
    else:
        print(f"{target}: {status}")
    return code
