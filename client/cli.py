"""``numgrid``: solve, validate, hint, check and render puzzles from the command line.

Every command goes through :class:`NumgridClient`. With ``--server HOST:PORT`` (or
``NUMGRID_SERVER``) it talks to a running server; without, it starts the same servicer
in-process (embedded) once per run, on loopback, and stops it at exit
(:mod:`.cli_connection`). Each command is a module of :mod:`.commands` that builds its
:class:`~.commands.base.Command`; :data:`COMMANDS` lists them once, and the parser and
the dispatch are built from that list. The global options and their environment
variables are declared once too (:data:`.cli_args.GLOBALS`).

This module only builds the parser, runs the command named and turns what escapes into
an exit code: it imports the command modules, and none of them imports it.

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
from typing import Any

from . import cli_args
from .channels import CredentialsError
from .cli_args import GLOBALS
from .cli_args import BadSetting
from .cli_connection import connection
from .cli_connection import credentials
from .cli_output import FAILURE
from .cli_output import PROG
from .cli_output import NoServer
from .cli_output import UsageError
from .commands import convert
from .commands import explain
from .commands import generate
from .commands import health
from .commands import hint
from .commands import play
from .commands import print_sheet
from .commands import render
from .commands import solve
from .commands import unique
from .commands import validate
from .commands.base import Command
from .kinds import DRAWINGS
from .render import terminal_width

# The commands, in the order ``numgrid --help`` lists them.
COMMANDS: dict[str, Command] = {
    command.name: command
    for command in (
        solve.COMMAND,
        validate.COMMAND,
        hint.COMMAND,
        explain.COMMAND,
        unique.COMMAND,
        render.COMMAND,
        print_sheet.COMMAND,
        generate.COMMAND,
        convert.COMMAND,
        health.COMMAND,
        play.COMMAND,
    )
}

# ---------------------------------------------------------------- the parser


def _and(names: list[str]) -> str:
    """``a, b and c``."""
    return " and ".join(filter(None, [", ".join(names[:-1]), names[-1]]))


class _Version(argparse.Action):
    """``--version``: the installed version, looked up only when asked for."""

    def __init__(self, option_strings: Sequence[str], dest: str, **_: Any) -> None:
        super().__init__(
            option_strings,
            argparse.SUPPRESS,
            nargs=0,
            default=argparse.SUPPRESS,
            help="show program's version number and exit",
        )

    def __call__(self, parser: argparse.ArgumentParser, *_: Any) -> None:
        print(parser.prog, cli_args.version())
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    files = [k.files for k in DRAWINGS.values() if k.files]  # formats of one kind's own
    parser = argparse.ArgumentParser(
        prog=PROG,
        usage="%(prog)s [OPTIONS] COMMAND [COMMAND OPTIONS] FILE...",
        description="Solve, validate, hint, explain and check "
        f"{_and([k.title for k in DRAWINGS.values()])} puzzles through a numgrid server.",
        epilog=f"Files: {', '.join(['janko text', *files])} or JSON; the kind and format are "
        "detected; '-' reads stdin; solve, unique and explain also read directories, JSONL "
        "and datasets. Exit codes: "
        "0 success, 1 the answer is not the happy one (multiple, none, invalid, "
        "timeout), 2 usage, unreadable input or no server.",
        add_help=False,
    )
    options = parser.add_argument_group("global options (before or after the command)")
    options.add_argument("-h", "--help", action="help", help="show this help message and exit")
    for setting in GLOBALS:
        setting.add_to(options, shown=True)
    options.add_argument("--version", action=_Version)
    subparsers = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", prog=PROG, title="commands"
    )
    for command in COMMANDS.values():
        sub = subparsers.add_parser(
            command.name,
            help=command.help,
            description=command.description,
            epilog=f"The global options ({', '.join(cli_args.flags())}) go before or after the "
            f"command; {PROG} --help describes them.",
        )
        for setting in GLOBALS:  # taken after the command too, described once
            setting.add_to(sub, shown=False)
        command.arguments(sub)
    return parser


def parse(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
    """The options of ``argv``, the environment's variables for those not given, checked;
    BadSetting or (from argparse) SystemExit for what cannot be taken."""
    argv = sys.argv[1:] if argv is None else list(argv)
    word = cli_args.command_word(argv)
    if word is not None and word not in COMMANDS:
        raise BadSetting(cli_args.unknown_command(word, list(COMMANDS)))
    args = parser.parse_args(argv)
    problem = COMMANDS[args.command].usage(args)
    if problem:
        parser.error(problem)
    cli_args.from_environment(args)
    cli_args.check(args)  # the values of the environment's variables too
    return args


# ---------------------------------------------------------------- running


def run(args: argparse.Namespace) -> int:
    """Run the parsed command, connected as the options say."""
    command = COMMANDS[args.command]
    with connection(args.server, command.retries, credentials(args), args.timeout) as connect:
        return command.run(args, connect, terminal_width())


def _where(args: argparse.Namespace) -> str:
    return f"the server at {args.server}" if args.server else "the embedded server"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code (the console script exits with it)."""
    parser = build_parser()
    try:
        args = parse(parser, argv)
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
    except (CredentialsError, BadSetting, UsageError) as e:
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
        if args.debug:
            raise
        print(f"{PROG}: internal error: {type(e).__name__}: {e}", file=sys.stderr)
        return FAILURE


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
