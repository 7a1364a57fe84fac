"""``numgrid render``: each puzzle drawn as text, or with ``--svg OUT`` also as the
server's picture (the Render RPC) written to a file."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from ..cli_args import cells_arg
from ..cli_output import DEFAULT_DEADLINE
from ..cli_output import OK
from ..cli_output import STDIN_SOURCE
from ..cli_output import Outcome
from ..cli_output import UsageError
from ..cli_output import finding_json
from ..client import PuzzleLike
from .base import Command
from .base import Connect
from .base import Context
from .base import each_file
from .base import files_argument


def arguments(sub: argparse.ArgumentParser) -> None:
    """A picture besides the text."""
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
    files_argument(sub)


def usage(args: argparse.Namespace) -> str | None:
    if args.svg is None and (args.solution or args.hint or args.mistake):
        return "--solution, --hint and --mistake go with --svg OUT"
    return None


def outcome(ctx: Context, source: str, text: PuzzleLike) -> Outcome:
    """One puzzle drawn: the text board, and the picture with ``--svg``."""
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


def _render_svg(ctx: Context, source: str, text: PuzzleLike) -> Outcome:
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


def run(args: argparse.Namespace, connect: Connect, width: int) -> int:
    return each_file(args, connect, width, outcome)


HELP = "draw puzzles (with their digits) as text, or as SVG pictures (--svg)"
COMMAND = Command("render", HELP, arguments, run, usage=usage)
