"""What every ``numgrid`` command is made of: a :class:`Command` (its name, help,
arguments and run function), registered once in :data:`numgrid.client.cli.COMMANDS`;
:class:`Context`, what a command needs for one puzzle (the connection, the options, the
width); and :func:`each_file`, the run of the commands that make one call per FILE.

The command modules print through :mod:`..cli_output` and take their argument types
from :mod:`..cli_args`; none imports :mod:`..cli` (which imports them).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..cli_args import technique_arg
from ..cli_output import FAILURE
from ..cli_output import OK
from ..cli_output import PROG
from ..cli_output import Outcome
from ..cli_output import UsageError
from ..cli_output import deadline
from ..cli_output import error
from ..cli_output import print_human
from ..cli_output import read_input
from ..cli_output import rejected
from ..cli_output import stdout_ascii_only
from ..client import TECHNIQUES
from ..client import NumgridClient
from ..client import PuzzleLike
from ..render import render
from ..types import Grid
from ..types import NumgridError

Connect = Callable[[], NumgridClient]  # the client, connected on first use
Run = Callable[[argparse.Namespace, Connect, int], int]  # (options, connect, width) -> exit


def _no_problem(args: argparse.Namespace) -> str | None:
    return None


@dataclass(frozen=True)
class Command:
    """One ``numgrid`` command: what the parser shows and takes, and what runs it."""

    name: str
    help: str  # one line in ``numgrid --help``; its own help's description, capitalised
    arguments: Callable[[argparse.ArgumentParser], None]  # its options and FILE arguments
    run: Run
    more: str = ""  # its own help's description after the line
    retries: int | None = None  # of a call that found no server (None: the client's own)
    usage: Callable[[argparse.Namespace], str | None] = _no_problem  # options that clash

    @property
    def description(self) -> str:
        return " ".join(filter(None, [self.help[0].upper() + self.help[1:] + ".", self.more]))


def files_argument(sub: argparse.ArgumentParser) -> None:
    """``FILE...``: the puzzles of a command that reads them."""
    sub.add_argument("files", nargs="+", metavar="FILE", help="puzzle files, - for stdin")


def technique_option(sub: argparse.ArgumentParser, default: str) -> None:
    """``--max-technique``: the hardest technique allowed (``hint``, ``explain``)."""
    sub.add_argument(
        "--max-technique",
        metavar="NAME",
        type=technique_arg,
        help=f"the hardest technique allowed (default: {default}): "
        + ", ".join(t.lower().replace("_", "-") for t in TECHNIQUES),
    )


@dataclass
class Context:
    """What every command needs: the client (started on first use), options, output."""

    args: argparse.Namespace
    connect: Connect
    width: int
    ascii_only: bool

    @property
    def client(self) -> NumgridClient:
        return self.connect()

    def call_options(self) -> dict[str, Any]:
        limit = self.args.timeout
        return {
            "format": self.args.format,
            "kind": self.args.kind,
            "engine": self.args.engine,
            "time_limit": limit,
            "timeout": deadline(limit),
        }

    def board(self, puzzle: Any, values: Grid | None = None, marks: Any = ()) -> str:
        return render(puzzle, values, marks=marks, width=self.width, ascii_only=self.ascii_only)


OneFile = Callable[[Context, str, PuzzleLike], Outcome]  # (context, source, puzzle) -> outcome


def each_file(args: argparse.Namespace, connect: Connect, width: int, one: OneFile) -> int:
    """``one`` on each FILE in turn, printed as it comes; the exit code is the worst of
    the puzzles'."""
    ctx = Context(args, connect, width, stdout_ascii_only())
    stdin_cache: dict[str, str] = {}
    worst, printed = OK, 0
    for path in args.files:
        source = path
        try:
            source, text = read_input(path, stdin_cache)
            out = one(ctx, source, text)
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
