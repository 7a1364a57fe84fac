"""``numgrid convert``: puzzles written in another format (ConvertPuzzle): a link people
paste (puzz.link, penpa-edit, f-puzzles, SudokuWiki), a Tatham game ID, or one of the
kind's text formats.

The inputs are read as ``solve`` reads them (files, stdin, a file of one puzzle or link a
line, JSONL, datasets); each puzzle's output is printed in the order of the inputs, so
that links come out one a line, a file ``numgrid`` reads back. A puzzle the format cannot
hold (a kind the site lacks, a variant, a size) is named on stderr with the reason, and
the others are written. Exit codes: 0 every puzzle written, 1 some could not be, 2 an
unreadable input or no server.
"""

from __future__ import annotations

import argparse
import json
import sys

from ..batch_cli import Order
from ..batch_cli import expand
from ..batch_cli import items
from ..cli_args import choice
from ..cli_output import OK
from ..cli_output import PROG
from ..cli_output import Outcome
from ..cli_output import deadline
from ..cli_output import rejected
from ..client import FORMATS
from ..types import NumgridError
from .base import Command
from .base import Connect
from .base import files_argument

TARGETS = [name for name in FORMATS if name not in (None, "auto")]


def arguments(sub: argparse.ArgumentParser) -> None:
    sub.add_argument(
        "--to",
        required=True,
        metavar="FORMAT",
        type=choice("--to", "format", [str(name) for name in TARGETS]),
        help="the format to write: " + ", ".join(str(name) for name in TARGETS),
    )
    files_argument(sub)


def _failed(out: Outcome, as_json: bool) -> None:
    """A puzzle not written: its JSON line, or its reasons on stderr."""
    if as_json:
        print(json.dumps(out.as_json()), flush=True)
        return
    for e in out.errors or [{"message": out.text or out.status}]:
        print(f"{PROG}: {out.source}: {e['message']}", file=sys.stderr)


def run(args: argparse.Namespace, connect: Connect, width: int) -> int:
    fmt = None if args.format == "auto" else args.format
    kind = None if args.kind == "auto" else args.kind
    order = Order("convert")
    worst, written = OK, 0
    sources = expand(args.files)
    several = sum(s.count for s in sources) > 1

    def unreadable() -> None:
        nonlocal worst
        for _, out in order.drain():
            worst = max(worst, out.code)
            _failed(out, args.json)

    for item in items(sources, fmt, kind, set(), order):
        unreadable()
        try:
            converted = connect().convert(
                item.puzzle,
                args.to,
                format=item.format,
                kind=item.kind,
                timeout=deadline(args.timeout),
            )
        except NumgridError as e:
            out = rejected("convert", item.id, e, width)
            worst = max(worst, out.code)
            _failed(out, args.json)
            continue
        text = converted.text.rstrip("\n")
        if args.json:
            out = Outcome(item.id, "convert", "CONVERTED", OK)
            out.extra = {"kind": converted.kind, "format": converted.format, "text": text}
            print(json.dumps(out.as_json()), flush=True)
        elif several and "\n" in text:  # a text of many lines: each under its source
            print(f"{'' if written == 0 else chr(10)}# {item.id}\n{text}", flush=True)
        else:
            print(text, flush=True)
        written += 1
    unreadable()
    return worst


HELP = "write puzzles in another format: a link (puzz.link, penpa-edit, ...) or a text"
COMMAND = Command(
    "convert",
    HELP,
    arguments,
    run,
    more="Links are printed one a line; a puzzle a format cannot hold is named on stderr.",
)
