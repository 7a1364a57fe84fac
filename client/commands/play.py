"""``numgrid play FILE [--save GAME.json]`` and ``numgrid play --resume GAME.json``:
the puzzle is read by the server (as every command reads it), checked to have one
solution (CheckUniqueness), and played on the full screen (:class:`.app.PlayApp`), with
the client and the connection (embedded, or ``--server``) the other commands use.

Exit 0 when the game ran (solved or left, saved); 1 when the puzzle cannot be played
(INVALID, several solutions or none); 2 for usage errors, an unreadable file or game
file, no terminal, or no server.

Its exit codes and messages are :mod:`numgrid.client.cli_output`'s, as every command's.
textual is imported only when a game is played (:mod:`..play.app`), so that the other
commands start without it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..cli_output import FAILURE
from ..cli_output import NOT_HAPPY
from ..cli_output import OK
from ..cli_output import PROG
from ..cli_output import STDIN
from ..cli_output import UsageError
from ..cli_output import deadline
from ..cli_output import print_human
from ..cli_output import read_input
from ..cli_output import rejected
from ..play.game import Game
from ..play.game import GameFileError
from ..play.referee import Referee
from ..types import NumgridError
from .base import Command
from .base import Connect

SUFFIX = ".game.json"


def arguments(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("file", nargs="?", metavar="FILE", help="the puzzle to play")
    sub.add_argument(
        "--save",
        metavar="GAME.json",
        help=f"the game file, written by s, on quitting and at the end (default: FILE's "
        f"name + {SUFFIX} in the current directory; with --resume, the file resumed)",
    )
    sub.add_argument(
        "--resume", metavar="GAME.json", help="go on with a game saved before (instead of FILE)"
    )


def default_save(source: str) -> Path:
    return Path(Path(source).stem + SUFFIX)


def new_game(args: argparse.Namespace, referee: Referee, width: int) -> tuple[Game | None, int]:
    """The game of ``args.file`` (and 0), or None and the exit code after saying why."""
    source, text = read_input(args.file, {})
    try:
        puzzle = referee.read(text, format=args.format, kind=args.kind)
        unique = referee.uniqueness(puzzle)
    except NumgridError as e:
        out = rejected("play", source, e, width)
        if out.code == FAILURE:
            print(f"{PROG}: {out.errors[0]['message']}", file=sys.stderr)
        else:
            print_human(out, width)
        return None, out.code
    if unique.verdict in ("MULTIPLE", "NO_SOLUTION"):
        what = "several solutions" if unique.verdict == "MULTIPLE" else "no solution"
        print(f"{source}: {unique.verdict}: the puzzle has {what}; a game needs exactly one")
        return None, NOT_HAPPY
    return Game(puzzle, source=source), OK


def run(args: argparse.Namespace, connect: Connect, width: int) -> int:
    if bool(args.file) == bool(args.resume):
        print(f"{PROG}: play: give FILE or --resume GAME.json (one of them)", file=sys.stderr)
        return FAILURE
    if args.file == STDIN:
        print(f"{PROG}: play: the keys come from stdin, so FILE cannot", file=sys.stderr)
        return FAILURE
    if args.resume:
        try:
            game = Game.load(args.resume)
        except GameFileError as e:
            print(f"{PROG}: cannot resume {args.resume}: {e}", file=sys.stderr)
            return FAILURE
        save = Path(args.save or args.resume)
    limit = args.timeout
    referee = Referee(
        connect(),
        engine=args.engine,
        time_limit=limit,
        timeout=deadline(limit),
    )
    if not args.resume:
        try:
            made, code = new_game(args, referee, width)
        except UsageError as e:
            print(f"{PROG}: {e}", file=sys.stderr)
            return FAILURE
        if made is None:
            return code
        game = made
        save = Path(args.save) if args.save else default_save(game.source)
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        print(f"{PROG}: play needs a terminal (stdin and stdout)", file=sys.stderr)
        return FAILURE

    from ..play.app import PlayApp  # textual (heavy) only when a game is played

    outcome = PlayApp(game, referee, save).run()
    if outcome is None:
        return OK
    print(f"{game.source or 'the puzzle'}: {outcome.summary()}")
    if outcome.saved and not outcome.solved:
        print(f"game saved to {outcome.saved}: {PROG} play --resume {outcome.saved}")
    return OK


HELP = "play a puzzle in the terminal: keys, pencil marks, undo, hints, checks"
COMMAND = Command("play", HELP, arguments, run)
