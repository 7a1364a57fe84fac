"""``numgrid generate``: new puzzles of a kind, size and grade, written as files.

One Generate call (a server stream): each puzzle arrives when the server has made it,
proven unique by both engines and graded by the kind's chain. With ``--out DIR`` each is
written in every format of its kind (or the one ``--format`` names), with its solution
beside it, under a name that says how to make it again: ``KIND-6x6-hard-s42.txt`` is
``numgrid generate KIND --size 6 --grade hard --seed 42``. Without ``--out`` the boards
are drawn on stdout; ``--json`` prints one line per puzzle with its texts.

Exit codes: 0 every puzzle made, 1 fewer (the time ran out), 2 parameters no puzzle can
meet (the server's sentence says which), an unwritable folder or no server.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..cli_args import choice
from ..cli_args import positive_int
from ..cli_output import FAILURE
from ..cli_output import NOT_HAPPY
from ..cli_output import OK
from ..cli_output import PROG
from ..cli_output import NoServer
from ..cli_output import deadline
from ..client import GRADES
from ..kinds import DRAWINGS
from ..progress import ProgressBar
from ..render import render
from ..types import GeneratedPuzzle
from ..types import NumgridError
from .base import Command
from .base import Connect

SIZES = {name: kind.default_size for name, kind in DRAWINGS.items()}  # without --size
EXTENSIONS = {"janko": ".txt", "csv": ".csv", "json": ".json", "tatham": ".tatham"}


def _size(text: str) -> tuple[int, int]:
    """``6`` -> (6, 6); ``12x10`` -> (12, 10)."""
    rows, _, cols = text.lower().partition("x")
    try:
        size = int(rows), int(cols or rows)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a size like 6 or 12x10: {text!r}") from None
    if min(size) <= 0:
        raise argparse.ArgumentTypeError(f"the size must be positive: {text!r}")
    return size


def _grade(text: str) -> str:
    if text.upper() not in GRADES:
        known = ", ".join(g.lower() for g in GRADES)
        raise argparse.ArgumentTypeError(f"unknown grade {text!r}; known: {known}, any")
    return text.upper()


def _density(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"the share of white cells is above 0 and below 1: {text}")
    return value


def _either(names: list[str]) -> str:
    """``a, b or c``."""
    return " or ".join(filter(None, [", ".join(names[:-1]), names[-1]]))


def _for(option: str) -> str:
    """``Title: `` naming the kinds that read GenerateRequest's ``option``."""
    titles = [k.title for k in DRAWINGS.values() if option in k.generate_options]
    return f"{', '.join(titles)}: " if titles else ""


def arguments(sub: argparse.ArgumentParser) -> None:
    notes = "".join(f" ({k.size_note})" for k in DRAWINGS.values() if k.size_note)
    sub.add_argument(
        "generate_kind",
        metavar="KIND",
        type=choice("KIND", "kind", list(DRAWINGS)),
        help=_either(list(DRAWINGS)),
    )
    sub.add_argument(
        "--size",
        type=_size,
        metavar="N|RxC",
        help=f"grid size: N for N x N, or ROWSxCOLUMNS{notes}; default "
        f"{', '.join(f'{k} {v}' for k, v in SIZES.items())}",
    )
    sub.add_argument(
        "--grade",
        type=lambda t: None if t.lower() == "any" else _grade(t),
        metavar="GRADE",
        help="easy, medium, hard, expert, extreme, or any (the default)",
    )
    sub.add_argument("--count", type=positive_int, default=1, help="how many (default 1)")
    sub.add_argument(
        "--seed",
        type=int,
        help="seed of the first puzzle (puzzle i: seed + i); default: the server picks one",
    )
    sub.add_argument(
        "--out",
        metavar="DIR",
        type=Path,
        help="write each puzzle (every format of its kind, or --format's) and its solution "
        "into DIR",
    )
    sub.add_argument(
        "--density", type=_density, default=0.0, help=f"{_for('density')}the share of white cells"
    )
    sub.add_argument(
        "--single-cell-runs",
        action="store_true",
        help=f"{_for('single_cell_runs')}allow white cells in runs of one cell",
    )
    sub.add_argument(
        "--diagonals",
        action="store_true",
        help=f"{_for('diagonals')}the X variant: both main diagonals hold each digit once",
    )
    sub.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        help="a progress bar on stderr (default: with --count over 1 on a terminal)",
    )


def variant(args: argparse.Namespace, options: tuple[str, ...]) -> str:
    """The options besides size, grade and seed that make another puzzle of one seed, as
    a file name writes them (``-x`` the X variant, ``-d0.6`` a density, ``-singles``
    single-cell runs): each set of options has files of its own. Only the ``options``
    the kind reads (its ``generate_options``) count: the others change nothing."""
    parts = ["x"] if args.diagonals and "diagonals" in options else []
    if args.density and "density" in options:
        parts.append(f"d{args.density:g}")
    if args.single_cell_runs and "single_cell_runs" in options:
        parts.append("singles")
    return "".join(f"-{part}" for part in parts)


def base_name(made: GeneratedPuzzle, size: tuple[int, int], options: str = "") -> str:
    grade = (made.difficulty.grade or "ungraded").lower()
    return f"{made.kind}{options}-{size[0]}x{size[1]}-{grade}-s{made.seed}"


def write_files(
    folder: Path, made: GeneratedPuzzle, size, fmt: str | None, options: str = ""
) -> list[Path]:
    """The puzzle in each format (or ``fmt`` alone) and its solution; the paths."""
    name = base_name(made, size, options)
    written = []
    for form, text in made.texts.items():
        if fmt is not None and form != fmt:
            continue
        path = folder / f"{name}{EXTENSIONS.get(form, '.' + form)}"
        path.write_text(text if text.endswith("\n") else text + "\n")
        written.append(path)
    path = folder / f"{name}.solution.txt"
    path.write_text(
        made.solution_text if made.solution_text.endswith("\n") else made.solution_text + "\n"
    )
    written.append(path)
    return written


def _record(made: GeneratedPuzzle, size, files: list[Path]) -> dict:
    d = made.difficulty
    return {
        "command": "generate",
        "kind": made.kind,
        "size": f"{size[0]}x{size[1]}",
        "index": made.index,
        "seed": made.seed,
        "grade": d.grade,
        "hardest": d.hardest,
        "score": d.score,
        "counts": {t: n for t, n in d.counts.items() if n},
        "attempts": made.attempts,
        "repairs": made.repairs,
        "seconds": round(made.seconds, 4),
        "texts": made.texts,
        "solution": [list(row) for row in made.solution],
        "files": [str(p) for p in files],
    }


def _line(made: GeneratedPuzzle, size) -> str:
    tries = "1 candidate" if made.attempts == 1 else f"{made.attempts} candidates"
    plural = "" if made.repairs == 1 else "s"
    repairs = f", {made.repairs} repair{plural}" if made.repairs else ""
    return (
        f"{made.kind} {size[0]}x{size[1]} {made.difficulty.grade or 'ungraded'}, seed "
        f"{made.seed}, score {made.difficulty.score}: {tries}{repairs}, {made.seconds:.2f} s"
    )


def run(args: argparse.Namespace, connect: Connect, width: int) -> int:
    kind = args.generate_kind
    size = args.size or _size(SIZES[kind])
    fmt = None if args.format == "auto" else args.format
    if args.out is not None:
        try:
            args.out.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            print(f"{PROG}: cannot write into {args.out}: {e.strerror or e}", file=sys.stderr)
            return FAILURE
    show = args.progress if args.progress is not None else args.count > 1 and sys.stderr.isatty()
    made_count = 0
    with ProgressBar(args.count, show, f"generating {kind}") as progress:
        try:
            stream = connect().generate(
                kind,
                size[0],
                size[1],
                grade=args.grade,
                count=args.count,
                seed=args.seed,
                density=args.density,
                single_cell_runs=args.single_cell_runs,
                diagonals=args.diagonals,
                formats=() if fmt is None else (fmt,),
                # --timeout is each puzzle's limit; the call's deadline is past them all,
                # so the server's sentence comes before gRPC's
                time_limit=args.timeout,
                timeout=None if args.timeout is None else args.count * deadline(args.timeout),
            )
            for made in stream:
                options = variant(args, DRAWINGS[made.kind].generate_options)
                files = write_files(args.out, made, size, fmt, options) if args.out else []
                made_count += 1
                if args.json:
                    print(json.dumps(_record(made, size, files)), flush=True)
                elif args.out is not None:
                    shown = next((p for p in files if p.suffixes == [".txt"]), files[0])
                    progress.print(f"{_line(made, size)} -> {shown}")
                else:
                    board = render(made.puzzle, width=width)
                    text = made.texts.get(fmt or "janko", "")
                    progress.print(f"{_line(made, size)}\n{board.rstrip()}\n\n{text.rstrip()}\n")
                progress.advance()
        except NumgridError as e:
            if e.code == "UNAVAILABLE":
                raise NoServer(e.message) from None
            if e.code == "INVALID_ARGUMENT":
                for line in [v.description for v in e.violations] or [e.message]:
                    print(f"{PROG}: {line}", file=sys.stderr)
                return FAILURE
            progress.error(f"{PROG}: {e.code}: {e.message}")
            if e.code == "DEADLINE_EXCEEDED" and not args.server and args.timeout is None:
                progress.error(f"{PROG}: {EMBEDDED_LONGER}")
        except OSError as e:
            print(f"{PROG}: cannot write into {args.out}: {e.strerror or e}", file=sys.stderr)
            return FAILURE
    if made_count < args.count:
        print(f"{PROG}: made {made_count} of {args.count} puzzles", file=sys.stderr)
        return NOT_HAPPY
    return OK


# The embedded server's time cap is --timeout when given (cli_connection.connection).
EMBEDDED_LONGER = "--timeout SECONDS gives each puzzle longer (e.g. --timeout 120)"
HELP = "make new unique puzzles of a kind, size and grade (files with --out DIR)"
COMMAND = Command("generate", HELP, arguments, run)
