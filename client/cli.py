"""``numgrid``: solve, validate, hint, check and render puzzles from the command line.

Every command goes through :class:`NumgridClient`. With ``--server HOST:PORT`` (or
``NUMGRID_SERVER``) it talks to a running server; without, it starts the same servicer
in-process (embedded) once per run, on loopback, and stops it at exit. ``solve``,
``unique`` and ``explain`` over any number of puzzles (directories, datasets) are in
:mod:`~numgrid.client.batch_cli`; the other commands make one call per file here.

Exit codes: 0 success (unique / valid / solved / serving / a hint given / explained to
the end), 1 the puzzle's answer is not the happy one (multiple, none, invalid, timeout,
the logical chain stalls), 2 usage, unreadable input, no server.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import textwrap
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from . import cli_args
from .channels import PLAINTEXT, Credentials, CredentialsError
from .cli_args import BadSetting
from .client import ENGINES, FORMATS, KINDS, TECHNIQUES, NumgridClient
from .render import entries, render, terminal_width, with_entries
from .types import (
    Cell,
    Difficulty,
    EngineStat,
    Finding,
    GroupRef,
    NumgridError,
    Step,
    cell_name,
)

PROG = "numgrid"
OK, NOT_HAPPY, FAILURE = 0, 1, 2
DEFAULT_DEADLINE = 300.0  # seconds; the server's own time cap usually stops a search first
HEALTH_DEADLINE = 2.0
MAX_ERRORS, MAX_WARNINGS = 20, 5  # lines of human output per puzzle; --json has them all
STDIN = "-"
STDIN_SOURCE = "<stdin>"


class UsageError(Exception):
    """Input the CLI cannot send: a missing or unreadable file. Exit 2."""


class NoServer(Exception):
    """The server cannot be reached (or the embedded one cannot start). Exit 2."""


# ---------------------------------------------------------------- one puzzle's outcome


@dataclass
class Outcome:
    """What one command found for one puzzle: a JSON line, human text and an exit code."""

    source: str
    command: str
    status: str
    code: int
    verdict: str | None = None
    solutions: list[str] = field(default_factory=list)
    differing_cells: list[Cell] = field(default_factory=list)
    errors: list[dict] = field(default_factory=list)
    warnings: list[dict] = field(default_factory=list)
    stats: list[dict] = field(default_factory=list)
    extra: dict = field(default_factory=dict)
    text: str = ""  # the human output below the status line
    records: list[dict] = field(default_factory=list)  # --json lines in place of as_json()

    def as_json(self) -> dict:
        out = {
            "source": self.source,
            "command": self.command,
            "status": self.status,
            "verdict": self.verdict,
            "solutions": self.solutions,
            "differing_cells": [list(c) for c in self.differing_cells],
            "errors": self.errors,
            "warnings": self.warnings,
            "stats": self.stats,
        }
        out.update(self.extra)
        return out


def _error(
    message: str,
    cell: tuple[int, int | None] | None = None,
    *,
    code: str | None = None,
    group: str = "",
    cells: Sequence[Cell] = (),
    field: str = "",
) -> dict:
    """One entry of ``errors`` or ``warnings``: the same keys whatever its origin."""
    row, column = cell if cell else (None, None)
    return {
        "row": row,
        "column": column,
        "message": message,
        "code": code,
        "group": group,
        "cells": [list(c) for c in cells],
        "field": field,
    }


def _finding_json(f: Finding) -> dict:
    return _error(
        f.message, f.cells[0] if f.cells else None, code=f.code, group=f.group, cells=f.cells
    )


def _stats_json(stats: Sequence[EngineStat]) -> list[dict]:
    return [{"engine": s.engine, "ms": round(s.seconds * 1000, 3), "nodes": s.nodes} for s in stats]


def _wrap(prefix: str, message: str, width: int) -> str:
    """``prefix message`` wrapped to ``width``, continuation lines under the message."""
    return textwrap.fill(
        message,
        width=max(width, 40),
        initial_indent=prefix,
        subsequent_indent=" " * len(prefix),
        break_long_words=False,
        break_on_hyphens=False,
    )


def _error_lines(errors: list[dict], width: int, limit: int, what: str = "errors") -> list[str]:
    """One line (wrapped) per error, ``r3c5: message``; past ``limit``, a count."""
    lines, unlisted = [], 0
    if errors and errors[-1]["code"] == UNLISTED:
        *errors, last = errors
        unlisted = int(last["message"].split()[2])  # "... and N more not listed"
    for e in errors[:limit]:
        message = e["message"]
        where = ""
        if e.get("row") is not None and e.get("column") is not None:
            where = cell_name((e["row"], e["column"]))
            message = message.removeprefix(f"{where}: ")
        lines.append(_wrap(f"  {where}: " if where else "  ", message, width))
    hidden = len(errors[limit:]) + unlisted
    if hidden:
        where = "" if unlisted else " (--json lists them all)"
        lines.append(f"  ... and {hidden} more {what}{where}")
    return lines


def _cells_text(cells: Sequence[Cell]) -> str:
    return " ".join(cell_name(c) for c in cells)


# ---------------------------------------------------------------- the commands


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


_NO_ANSWER = {
    "NO_SOLUTION": "the puzzle has no solution",
    "TIMEOUT": "the time limit ran out before an answer",
}


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
    out.verdict, out.stats = r.verdict, _stats_json(r.stats)
    out.errors = [_finding_json(f) for f in r.board_findings]
    out.errors += [
        _error(
            f"{cell_name(c)}: the entry differs from the unique solution",
            c,
            code="wrong_entry",
            cells=[c],
        )
        for c in r.wrong_entries
    ]
    out.warnings = [_finding_json(f) for f in r.warnings]
    out.extra = {"solved": r.solved, "wrong_entries": [list(c) for c in r.wrong_entries]}
    lines = []
    if compare:
        lines.append(f"puzzle: {r.verdict}")
    if out.errors:
        lines += ["errors:", *_error_lines(out.errors, ctx.width, MAX_ERRORS)]
    if out.warnings:
        lines += ["warnings:", *_error_lines(out.warnings, ctx.width, MAX_WARNINGS, "warnings")]
    marks = [c for f in r.board_findings for c in f.cells] + list(r.wrong_entries)
    if marks:  # the board only when it shows where the errors are
        lines.append(ctx.board(r.puzzle, marks=marks))
    out.text = "\n".join(lines)
    return out


def _words(technique: str | None) -> str:
    """``"REGION_SUM"`` -> ``"region sum"``."""
    return (technique or "none").lower().replace("_", " ")


def _difficulty_json(d: Difficulty | None) -> dict | None:
    if d is None:
        return None
    return {
        "grade": d.grade,
        "hardest": d.hardest,
        "techniques": dict(d.counts),
        "solved_by_logic": d.solved_by_logic,
    }


def _grade(out: Outcome, d: Difficulty | None) -> str:
    """Put the grade in the JSON line (``grade``, ``difficulty``); the human line, or ""."""
    out.extra["grade"] = d.grade if d else None
    out.extra["difficulty"] = _difficulty_json(d)
    if d is None:
        return ""
    if d.grade is None:
        return "grade: none (the logical techniques do not complete the grid)\n"
    return f"grade: {d.grade} (hardest technique: {_words(d.hardest)})\n"


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


def _technique_arg(text: str) -> str:
    name = text.upper().replace("-", "_")
    if name not in TECHNIQUES:
        known = ", ".join(t.lower().replace("_", "-") for t in TECHNIQUES)
        raise argparse.ArgumentTypeError(f"unknown technique {text!r} (known: {known})")
    return name


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
    out.verdict, out.stats = r.verdict, _stats_json(r.stats)
    out.errors = [_finding_json(f) for f in r.findings]
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
    lead = f"{_words(r.step.technique)}: " if r.kind == "STEP" and r.step else ""
    out.text = _wrap(lead, r.explanation, ctx.width)
    if r.cells:  # the board with the cells of the hint marked
        out.text += "\n" + ctx.board(r.puzzle, tuple(map(tuple, values)), r.cells)
    return out


def _explain(ctx: Context, source: str, text: str) -> Outcome:
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
        _wrap(f"{i:>{width}}. {_words(step.technique)}: ", step.explanation, ctx.width)
        for i, step in enumerate(r.steps, 1)
    ]
    used = ", ".join(f"{_words(t)} {n}" for t, n in d.counts.items() if n)
    grade = d.grade or "none (the chain stalls)"
    lines.append(f"{len(r.steps)} steps, grade {grade}")
    if used:
        lines.append(_wrap("techniques: ", used, ctx.width))
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


def _render(ctx: Context, source: str, text: str) -> Outcome:
    if ctx.args.svg is not None:
        return _render_svg(ctx, source, text)
    r = ctx.client.validate(
        text, format=ctx.args.format, kind=ctx.args.kind, timeout=DEFAULT_DEADLINE
    )
    board = ctx.board(r.puzzle)
    out = Outcome(source, "render", "RENDERED", OK, text=board.rstrip("\n"))
    out.warnings = [_finding_json(f) for f in r.warnings]
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


# The commands run one call per file; solve, unique and explain run in batch_cli.
COMMANDS: dict[str, Callable[[Context, str, str], Outcome]] = {
    "validate": _validate,
    "hint": _hint,
    "render": _render,
}


UNLISTED = "more_not_listed"  # code of the entry that counts what the server left out


def _listed_errors(error: NumgridError) -> list[dict]:
    """The findings the server listed, and a last entry counting those it could not."""
    errors = [_finding_json(f) for f in error.findings]
    unlisted = error.problems - len(errors)
    if errors and unlisted > 0:
        errors.append(_error(f"... and {unlisted} more not listed", code=UNLISTED))
    return errors


def _rejected(command: str, source: str, error: NumgridError, width: int) -> Outcome:
    """What the server's refusal of one puzzle means for that puzzle."""
    if error.code in ("UNAVAILABLE",):
        raise NoServer(error.message)
    if error.code == "DEADLINE_EXCEEDED":
        out = Outcome(source, command, "TIMEOUT", NOT_HAPPY)
        out.text = "the deadline passed before an answer"
        return out
    if error.code in ("INVALID_ARGUMENT", "RESOURCE_EXHAUSTED"):
        out = Outcome(source, command, "INVALID", NOT_HAPPY)
        out.errors = (
            _listed_errors(error)
            or [
                _error(
                    v.description,
                    None if v.row is None else (v.row, v.column),
                    cells=[v.cell] if v.cell else [],
                    field=v.field,
                )
                for v in error.violations
            ]
            or [_error(error.message)]
        )
    else:
        out = Outcome(source, command, "ERROR", FAILURE)
        out.errors = [_error(f"{source}: server error {error.code}: {error.message}")]
    out.text = "\n".join(_error_lines(out.errors, width, MAX_ERRORS))
    return out


# ---------------------------------------------------------------- input and output


def read_input(path: str, stdin_cache: dict) -> tuple[str, str]:
    """``(source, text)`` of a file, or of stdin for ``-``; UsageError if unreadable."""
    if path == STDIN:
        if "text" not in stdin_cache:
            try:
                stdin_cache["text"] = sys.stdin.read()
            except (OSError, UnicodeDecodeError) as e:
                raise UsageError(f"cannot read stdin: {e}") from None
        return STDIN_SOURCE, stdin_cache["text"]
    try:
        with open(path, encoding="utf-8") as f:
            return path, f.read()
    except UnicodeDecodeError:
        raise UsageError(f"cannot read {path}: not UTF-8 text") from None
    except OSError as e:
        raise UsageError(f"cannot read {path}: {e.strerror or e}") from None


def _print_human(out: Outcome, width: int) -> None:
    head = f"{out.source}: {out.status}"
    if out.stats:  # on the same line if it fits, else on the next
        stats = f"({_stats_text(out.stats)})"
        head += f" {stats}" if len(head) + 1 + len(stats) <= width else f"\n  {stats}"
    print(head)
    if out.text:
        print(out.text.rstrip("\n"))


def _stats_text(stats: list[dict]) -> str:
    def one(s: dict) -> str:
        nodes = f"{s['nodes']:,} node{'' if s['nodes'] == 1 else 's'}"
        return f"{s['engine']} {s['ms']:.0f} ms, {nodes}"

    return "; ".join(one(s) for s in stats)


def _stdout_ascii_only() -> bool:
    try:
        "▓\\".encode(sys.stdout.encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return True
    return False


@contextlib.contextmanager
def connection(
    server: str | None, retries: int | None = None, credentials: Credentials = PLAINTEXT
) -> Iterator[Callable]:
    """A function returning the client: to ``server`` with ``credentials``, or to an
    embedded server that is started on first use (once) and stopped on exit."""
    state: dict = {}

    def connect() -> NumgridClient:
        if "client" not in state:
            if server:
                state["client"] = NumgridClient(
                    _dial(server), credentials=credentials, **_retries(retries)
                )
            else:
                state["embedded"] = _start_embedded()
                state["client"] = NumgridClient(state["embedded"].target, **_retries(retries))
        return state["client"]

    try:
        yield connect
    finally:
        if "client" in state:
            state["client"].close()
        if "embedded" in state:
            state["embedded"].stop(grace=1.0)


def _dial(server: str) -> str:
    """A list ``host1:port,host2:port`` as one gRPC target (see ``batch.batch_target``)."""
    if "," not in server or "://" in server:
        return server
    from .batch import batch_target

    try:
        return batch_target(server)[0]
    except ValueError as e:
        raise NoServer(str(e)) from None


def _retries(retries: int | None) -> dict:
    return {} if retries is None else {"retries": retries}


def _start_embedded():
    """The same servicer, in-process: imported here so the client never needs it. A
    client-only install (no ``server`` extra) gets one sentence naming both fixes."""
    use_server = "or pass --server HOST:PORT (or set NUMGRID_SERVER)"
    try:
        from numgrid.server.launch import missing, not_installed

        gone = missing()
        if gone:
            raise NoServer(f"{not_installed(gone)}, {use_server}")
        from numgrid.server.main import start_embedded
    except ImportError as e:  # pragma: no cover - a broken install
        raise NoServer(
            f"the numgrid server cannot be imported ({e}): pip install 'numgrid[server]', "
            f"{use_server}"
        ) from None
    try:
        return start_embedded()
    except (OSError, RuntimeError) as e:
        raise NoServer(f"it did not start ({e}); use --server") from None


# ---------------------------------------------------------------- arguments


def _positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text}")
    return value


def _common(parser: argparse.ArgumentParser, suppress: bool) -> None:
    """The options every command takes, before or after the command name."""

    def default(value):
        return argparse.SUPPRESS if suppress else value

    parser.add_argument(
        "--server",
        metavar="HOST:PORT",
        default=default(os.environ.get("NUMGRID_SERVER") or None),
        help="a running numgrid server (env NUMGRID_SERVER); several: HOST:PORT,HOST:PORT "
        "or dns:///NAME:PORT (unique spreads its batch over them); default: an embedded one",
    )
    env = os.environ.get
    parser.add_argument(
        "--tls",
        action="store_true",
        default=default(env("NUMGRID_TLS") or False),  # on or off: cli_args.check
        help="talk TLS to --server (env NUMGRID_TLS=1; implied by --ca and --cert)",
    )
    parser.add_argument(
        "--ca",
        metavar="FILE",
        default=default(env("NUMGRID_CA") or None),
        help="PEM CA certificate to trust (env NUMGRID_CA; default: the system's)",
    )
    parser.add_argument(
        "--cert",
        metavar="FILE",
        default=default(env("NUMGRID_CERT") or None),
        help="PEM client certificate, for servers that ask for one (env NUMGRID_CERT)",
    )
    parser.add_argument(
        "--key",
        metavar="FILE",
        default=default(env("NUMGRID_KEY") or None),
        help="PEM private key of --cert (env NUMGRID_KEY)",
    )
    parser.add_argument(
        "--token-file",
        metavar="FILE",
        default=default(env("NUMGRID_TOKEN_FILE") or None),
        help="file holding a bearer token for the server (env NUMGRID_TOKEN_FILE, or the "
        "token itself in NUMGRID_TOKEN); sent only over TLS or loopback",
    )
    parser.add_argument(
        "--engine",
        choices=list(ENGINES),
        default=default("auto"),
        help="which engine answers (default auto)",
    )
    parser.add_argument(
        "--kind",
        choices=[k for k in KINDS if k],
        default=default("auto"),
        help="the puzzles' kind (default: detected)",
    )
    parser.add_argument(
        "--format",
        choices=[f for f in FORMATS if f],
        default=default("auto"),
        help="the files' format (default: detected)",
    )
    parser.add_argument(
        "--timeout",
        metavar="SECONDS",
        type=_positive_seconds,
        default=default(None),
        help="time limit of each search (answer TIMEOUT past it)",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        default=default(False),
        help="one JSON object per puzzle per line (JSONL)",
    )


_HELP = {
    "solve": "solve puzzles and show the solution",
    "validate": "check puzzles and the digits entered on them",
    "hint": "the next step for the digits entered: a mistake or a logical step",
    "explain": "the whole logical solution step by step, and the puzzle's grade",
    "unique": "check that each puzzle has exactly one solution",
    "render": "draw puzzles (with their digits) as text, or as SVG pictures (--svg)",
    "print": "a print sheet (PDF or SVG pages): puzzles, then their solutions on later pages",
    "health": "ask the server whether it is serving",
    "play": "play a puzzle in the terminal: keys, pencil marks, undo, hints, checks",
}


def build_parser() -> argparse.ArgumentParser:
    parser = cli_args.Parser(
        prog=PROG,
        usage="%(prog)s [OPTIONS] COMMAND [COMMAND OPTIONS] FILE...",
        description="Solve, validate, hint, explain and check Kakuro, KenKen, Kakurasu and "
        "Skyscraper puzzles through a numgrid server.",
        epilog="Files: janko text, Kakuro's 1VVHH CSV, Tatham game IDs (KenKen) or JSON; the "
        "kind and format are detected; '-' reads stdin; solve, unique and explain also "
        "read directories, JSONL and datasets. Exit codes: "
        "0 success, 1 the answer is not the happy one (multiple, none, invalid, "
        "timeout), 2 usage, unreadable input or no server.",
    )
    _common(parser, suppress=False)
    parser._optionals.title = "global options (before or after the command)"
    common = {a.dest for a in parser._actions} - {"help"}
    shown_once = ", ".join(o for a in parser._actions if a.dest in common for o in a.option_strings)
    parser.add_argument("--version", action="version", version=f"%(prog)s {cli_args.version()}")
    commands = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", prog=PROG, title="commands"
    )
    for name, text in _HELP.items():
        sub = commands.add_parser(
            name,
            help=text,
            description=text[0].upper() + text[1:] + ".",
            epilog=f"The global options ({shown_once}) go before or after the command; "
            f"{PROG} --help describes them.",
        )
        _common(sub, suppress=True)
        cli_args.hide(sub, common)  # taken after the command too, described once
        if name == "validate":
            sub.add_argument(
                "--solution",
                action="store_true",
                help="also solve and list the entries that differ from the unique solution",
            )
        if name in ("hint", "explain"):
            _logic_options(sub, name)
        if name in ("solve", "unique", "explain"):  # any number of puzzles, in one way
            from .batch_cli import add_options

            add_options(sub, name)
        if name == "render":
            _render_options(sub)
        if name == "print":
            from .print_cli import add_options as add_print_options

            add_print_options(sub)
        if name == "play":  # one FILE, or a game to resume
            from .play.command import add_arguments as add_play_arguments

            add_play_arguments(sub)
        elif name != "health":
            sub.add_argument("files", nargs="+", metavar="FILE", help="puzzle files, - for stdin")
    return parser


def _logic_options(sub: argparse.ArgumentParser, name: str) -> None:
    """``hint`` and ``explain``: the techniques allowed, and what a hint may be."""
    default = "all but trial" if name == "hint" else "all"
    sub.add_argument(
        "--max-technique",
        metavar="NAME",
        type=_technique_arg,
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


def _cells_arg(text: str) -> tuple[Cell, ...]:
    """``r1c2,r3c4`` (commas or spaces) -> the cells."""
    cells = []
    for name in text.replace(",", " ").split():
        row, sep, column = name.lower().removeprefix("r").partition("c")
        if not (sep and row.isdigit() and column.isdigit()):
            raise argparse.ArgumentTypeError(f"not a cell like r1c2: {name!r}")
        cells.append((int(row), int(column)))
    return tuple(cells)


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
        type=_cells_arg,
        help="with --svg: highlight these cells as a hint (r1c2,r3c4)",
    )
    group.add_argument(
        "--mistake",
        metavar="CELLS",
        type=_cells_arg,
        help="with --svg: highlight these cells as mistakes (r1c2,r3c4)",
    )


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be positive, got {text}")
    return value


# ---------------------------------------------------------------- running


def _health(args: argparse.Namespace, connect: Callable[[], NumgridClient]) -> int:
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


def credentials(args: argparse.Namespace) -> Credentials:
    """TLS and token settings from the options and the environment."""
    token = (os.environ.get("NUMGRID_TOKEN") or "").strip() or None  # checked: cli_args
    if args.token_file:
        try:
            token = Path(args.token_file).read_text().strip()
        except (OSError, UnicodeDecodeError) as e:
            reason = getattr(e, "strerror", None) or e
            message = f"cannot read the token file {args.token_file}: {reason}"
            raise CredentialsError(message) from None
        if not token:
            raise CredentialsError(f"the token file {args.token_file} is empty")
        token = cli_args.check_token(token, f"the token file {args.token_file}")
    return Credentials(tls=args.tls, ca=args.ca, cert=args.cert, key=args.key, token=token)


def run(args: argparse.Namespace) -> int:
    width = terminal_width()
    retries = 1 if args.command == "health" else None
    with connection(args.server, retries, credentials(args)) as connect:
        if args.command == "health":
            return _health(args, connect)
        if args.command == "play":
            from .play.command import run as play

            return play(args, connect, width)
        if args.command == "print":
            from . import print_cli

            return print_cli.run(args, connect, width)
        if args.command in ("solve", "unique", "explain"):
            from . import batch_cli

            try:
                return batch_cli.run(args, connect, width)
            except UsageError as e:
                print(f"{PROG}: {e}", file=sys.stderr)
                return FAILURE
        ctx = Context(args, connect, width, _stdout_ascii_only())
        command = COMMANDS[args.command]
        stdin_cache: dict = {}
        worst, printed = OK, 0
        for path in args.files:
            try:
                source, text = read_input(path, stdin_cache)
                out = command(ctx, source, text)
            except UsageError as e:
                out = Outcome(path, args.command, "UNREADABLE", FAILURE, errors=[_error(str(e))])
            except NumgridError as e:
                out = _rejected(args.command, source, e, width)
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
                _print_human(out, width)
                sys.stdout.flush()
                printed += 1
        return worst


def _where(args: argparse.Namespace) -> str:
    return f"the server at {args.server}" if args.server else "the embedded server"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code (the console script exits with it)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if getattr(args, "entries", None) is not None and len(args.files) > 1:
            parser.error("--entries goes with one FILE")
        unused = args.command == "render" and args.svg is None
        if unused and (args.solution or args.hint or args.mistake):
            parser.error("--solution, --hint and --mistake go with --svg OUT")
        cli_args.check(args)  # the values of the environment's variables too
    except SystemExit as e:  # argparse: --help (0) or a usage error (2, message printed)
        return e.code if isinstance(e.code, int) else FAILURE
    except BadSetting as e:  # a mistyped name, a bad variable: one line
        print(f"{PROG}: {e}", file=sys.stderr)
        return FAILURE
    try:
        return run(args)
    except NoServer as e:
        print(f"{PROG}: cannot reach {_where(args)}: {e}", file=sys.stderr)
        return FAILURE
    except (CredentialsError, BadSetting) as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return FAILURE
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `numgrid unique *.txt | head`): stop quietly.
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return FAILURE
    except Exception as e:  # a bug: say so in one line, never a traceback
        if os.environ.get("NUMGRID_DEBUG"):
            raise
        print(f"{PROG}: internal error: {type(e).__name__}: {e}", file=sys.stderr)
        return FAILURE


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
