"""``numgrid``: solve, validate, hint, check and render puzzles from the command line.

Every command goes through :class:`NumgridClient`. With ``--server HOST:PORT`` (or
``NUMGRID_SERVER``) it talks to a running server; without, it starts the same servicer
in-process (embedded) once per run, on loopback, and stops it at exit
(:mod:`.cli_connection`). ``solve``, ``unique`` and ``explain`` over any number of
puzzles (directories, datasets) are in :mod:`.batch_cli`, ``print`` in
:mod:`.print_cli`, ``generate`` in :mod:`.generate_cli`, ``play`` in
:mod:`.play.command`; the commands that make one call per file in :mod:`.cli_commands`.
All of them print through :mod:`.cli_output` and take their argument types from
:mod:`.cli_args`.

This module only builds the parser, dispatches to the command's module and turns what
escapes into an exit code: it imports the command modules, and none of them imports it.

Exit codes: 0 success (unique / valid / solved / serving / a hint given / explained to
the end), 1 the puzzle's answer is not the happy one (multiple, none, invalid, timeout,
the logical chain stalls), 2 usage, unreadable input, no server.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence

from . import batch_cli, cli_args, cli_commands, generate_cli, print_cli
from .channels import CredentialsError
from .cli_args import BadSetting, positive_seconds
from .cli_connection import connection, credentials
from .cli_output import FAILURE, PROG, NoServer, UsageError
from .client import ENGINES, FORMATS, KINDS
from .kinds import DRAWINGS
from .play import command as play_command
from .render import terminal_width

# ---------------------------------------------------------------- the parser


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
        type=positive_seconds,
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
    "generate": "make new unique puzzles of a kind, size and grade (files with --out DIR)",
    "health": "ask the server whether it is serving",
    "play": "play a puzzle in the terminal: keys, pencil marks, undo, hints, checks",
}


def _and(names: list[str]) -> str:
    """``a, b and c``."""
    return " and ".join(filter(None, [", ".join(names[:-1]), names[-1]]))


def build_parser() -> argparse.ArgumentParser:
    files = [k.files for k in DRAWINGS.values() if k.files]  # formats of one kind's own
    parser = cli_args.Parser(
        prog=PROG,
        usage="%(prog)s [OPTIONS] COMMAND [COMMAND OPTIONS] FILE...",
        description="Solve, validate, hint, explain and check "
        f"{_and([k.title for k in DRAWINGS.values()])} puzzles through a numgrid server.",
        epilog=f"Files: {', '.join(['janko text', *files])} or JSON; the kind and format are "
        "detected; '-' reads stdin; solve, unique and explain also read directories, JSONL "
        "and datasets. Exit codes: "
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
        cli_commands.add_options(sub, name)  # validate, hint, explain, render
        if name in ("solve", "unique", "explain"):  # any number of puzzles, in one way
            batch_cli.add_options(sub, name)
        if name == "print":
            print_cli.add_options(sub)
        if name == "play":  # one FILE, or a game to resume
            play_command.add_arguments(sub)
        elif name == "generate":  # a kind, no FILE
            generate_cli.add_arguments(sub)
        elif name != "health":
            sub.add_argument("files", nargs="+", metavar="FILE", help="puzzle files, - for stdin")
    return parser


# ---------------------------------------------------------------- running


def run(args: argparse.Namespace) -> int:
    """Run the parsed command in its module, connected as the options say."""
    width = terminal_width()
    retries = 1 if args.command == "health" else None
    with connection(args.server, retries, credentials(args)) as connect:
        if args.command == "health":
            return cli_commands.health(args, connect)
        if args.command == "play":
            return play_command.run(args, connect, width)
        if args.command == "print":
            return print_cli.run(args, connect, width)
        if args.command == "generate":
            return generate_cli.run(args, connect, width)
        if args.command in ("solve", "unique", "explain"):
            try:
                return batch_cli.run(args, connect, width)
            except UsageError as e:
                print(f"{PROG}: {e}", file=sys.stderr)
                return FAILURE
        return cli_commands.run(args, connect, width)


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
