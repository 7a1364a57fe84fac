"""``numgrid``: solve, validate, hint, check and render puzzles from the command line.

Every command goes through :class:`NumgridClient`. With ``--server HOST:PORT`` (or
``NUMGRID_SERVER``) it talks to a running server; without, it starts the same servicer
in-process (embedded) once per run, on loopback, and stops it at exit.

Exit codes: 0 success (unique / valid / solved / serving), 1 the puzzle's answer is not
the happy one (multiple, none, invalid, timeout), 2 usage, unreadable input, no server.
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

from .client import ENGINES, NumgridClient
from .render import entries, render, solution_text, terminal_width
from .types import Cell, EngineStat, Finding, NumgridError, cell_name

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
    run: str = "",
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
        "run": run,
        "cells": [list(c) for c in cells],
        "field": field,
    }


def _finding_json(f: Finding) -> dict:
    return _error(f.message, f.cells[0] if f.cells else None, code=f.code, run=f.run, cells=f.cells)


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


def _solve(ctx: Context, source: str, text: str) -> Outcome:
    r = ctx.client.solve(text, **ctx.call_options())
    out = Outcome(source, "solve", r.verdict, OK if r.verdict == "UNIQUE" else NOT_HAPPY)
    out.verdict, out.stats = r.verdict, _stats_json(r.stats)
    if r.solution is not None:
        out.solutions = [solution_text(r.puzzle, r.solution)]
        lead = {"UNIQUE": "the solution", "MULTIPLE": "one of several solutions"}
        out.text = f"{lead.get(r.verdict, 'a solution')}:\n" + ctx.board(r.puzzle, r.solution)
    else:
        out.text = _NO_ANSWER.get(r.verdict, "")
    return out


def _unique(ctx: Context, source: str, text: str) -> Outcome:
    r = ctx.client.check_uniqueness(text, **ctx.call_options())
    out = Outcome(source, "unique", r.verdict, OK if r.verdict == "UNIQUE" else NOT_HAPPY)
    out.verdict, out.stats = r.verdict, _stats_json(r.stats)
    out.solutions = [solution_text(r.puzzle, s) for s in r.solutions]
    out.differing_cells = list(r.differing_cells)
    if r.verdict == "MULTIPLE" and len(r.solutions) >= 2:
        cells = _cells_text(r.differing_cells)
        parts = [
            _wrap("", f"two solutions differ at {len(r.differing_cells)} cells: {cells}", ctx.width)
        ]
        for i, grid in enumerate(r.solutions[:2], 1):
            parts.append(f"solution {i}:\n" + ctx.board(r.puzzle, grid, r.differing_cells))
        out.text = "\n".join(parts)
    else:
        out.text = _NO_ANSWER.get(r.verdict, "")
    return out


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


_HINT_EXIT = {"MISTAKE": OK, "REVEAL": OK, "SOLVED": OK}


def _hint(ctx: Context, source: str, text: str) -> Outcome:
    r = ctx.client.hint(text, **ctx.call_options())
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
        }
    }
    values = [list(row) for row in entries(r.puzzle)]
    for (row, col), digit in r.placements:
        values[row][col] = digit
    out.text = _wrap("", r.explanation, ctx.width)
    if r.cells:  # the board with the cells of the hint marked
        out.text += "\n" + ctx.board(r.puzzle, tuple(map(tuple, values)), r.cells)
    return out


def _render(ctx: Context, source: str, text: str) -> Outcome:
    r = ctx.client.validate(text, format=ctx.args.format, timeout=DEFAULT_DEADLINE)
    board = ctx.board(r.puzzle)
    out = Outcome(source, "render", "RENDERED", OK, text=board.rstrip("\n"))
    out.warnings = [_finding_json(f) for f in r.warnings]
    out.extra = {"board": board}
    return out


COMMANDS: dict[str, Callable[[Context, str, str], Outcome]] = {
    "solve": _solve,
    "validate": _validate,
    "hint": _hint,
    "unique": _unique,
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
def connection(server: str | None, retries: int | None = None) -> Iterator[Callable]:
    """A function returning the client: to ``server``, or to an embedded server that is
    started on first use (once) and stopped on exit."""
    state: dict = {}

    def connect() -> NumgridClient:
        if "client" not in state:
            if server:
                state["client"] = NumgridClient(server, **_retries(retries))
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


def _retries(retries: int | None) -> dict:
    return {} if retries is None else {"retries": retries}


def _start_embedded():
    """The same servicer, in-process: imported here so the client never needs it."""
    try:
        from numgrid.server.main import start_embedded
    except ImportError as e:  # pragma: no cover - a broken install
        raise NoServer(f"it is not installed ({e}); use --server") from None
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
        help="a running numgrid server (env NUMGRID_SERVER); default: an embedded one",
    )
    parser.add_argument(
        "--engine",
        choices=list(ENGINES),
        default=default("auto"),
        help="which engine answers (default auto)",
    )
    parser.add_argument(
        "--format",
        choices=["auto", "janko", "csv", "json"],
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
    "hint": "the next step for the digits entered: a mistake or a cell",
    "unique": "check that each puzzle has exactly one solution",
    "render": "draw puzzles (with their digits) as text",
    "health": "ask the server whether it is serving",
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Solve, validate, hint and check Kakuro puzzles through a numgrid server.",
        epilog="Files: janko text, 1VVHH CSV or JSON; '-' reads stdin. Exit codes: "
        "0 success, 1 the answer is not the happy one (multiple, none, invalid, "
        "timeout), 2 usage, unreadable input or no server.",
    )
    _common(parser, suppress=False)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, text in _HELP.items():
        sub = commands.add_parser(name, help=text, description=text[0].upper() + text[1:] + ".")
        _common(sub, suppress=True)
        if name == "validate":
            sub.add_argument(
                "--solution",
                action="store_true",
                help="also solve and list the entries that differ from the unique solution",
            )
        if name != "health":
            sub.add_argument("files", nargs="+", metavar="FILE", help="puzzle files, - for stdin")
    return parser


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


def run(args: argparse.Namespace) -> int:
    width = terminal_width()
    retries = 1 if args.command == "health" else None
    with connection(args.server, retries) as connect:
        if args.command == "health":
            return _health(args, connect)
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
                print(json.dumps(out.as_json()), flush=True)
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
    except SystemExit as e:  # argparse: --help (0) or a usage error (2, message printed)
        return e.code if isinstance(e.code, int) else FAILURE
    try:
        return run(args)
    except NoServer as e:
        print(f"{PROG}: cannot reach {_where(args)}: {e}", file=sys.stderr)
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
