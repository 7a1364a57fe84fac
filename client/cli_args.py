"""What the ``numgrid`` CLI takes from a user besides puzzles: its arguments and its
environment variables, and how it refuses them. The parser (:mod:`.cli`) and every
command module use these; this module imports no other CLI module.

The global options and the variables behind them are declared once, in :data:`GLOBALS`
(:class:`Setting`): the parser adds them from it, :func:`from_environment` fills in the
ones not given from their variables, and the messages name where a value came from.

Every refusal is one line and exit 2, never argparse's usage dump or a traceback: a
mistyped command, ``--kind``, ``--format`` or ``--engine`` gets the closest names
(difflib) and the list; a bad environment variable is named with its value
(``NUMGRID_SERVER='x:y:z' is not HOST:PORT``), a secret one without it.
"""

from __future__ import annotations

import argparse
import difflib
import ipaddress
import os
import re
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from typing import Protocol

from .client import ENGINES
from .client import FORMATS
from .client import KINDS
from .client import TECHNIQUES
from .types import Cell

PACKAGE = "numgrid"
TRUE, FALSE = ("1", "true", "yes", "on"), ("", "0", "false", "no", "off")
# gRPC targets with a scheme are taken as they are (dns:///name:port and the like).
SCHEMES = ("dns:", "ipv4:", "ipv6:", "unix:", "unix-abstract:", "vsock:")
_HOST = re.compile(r"^[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_])?$")  # a name or IPv4
ORIGINS = "origins"  # the Namespace attribute: {dest: the variable its value came from}


class BadSetting(Exception):
    """A value the CLI cannot use, from the command line or the environment: its message
    is the one line printed (after ``numgrid: ``); exit 2."""


def version() -> str:
    """The installed package's version (importlib.metadata is imported only when asked:
    it costs every other run of the CLI 30 ms)."""
    from importlib import metadata

    try:
        return metadata.version(PACKAGE)
    except metadata.PackageNotFoundError:  # run from a source tree, not installed
        return "unknown (not installed)"


# ---------------------------------------------------------------- arguments


def _closest(value: str, names: list[str]) -> str:
    """``; did you mean X or Y?`` naming the names closest to ``value``, or ""."""
    close = difflib.get_close_matches(value, names, n=2, cutoff=0.6)
    if not close:
        close = [n for n in names if n.startswith(value[:2].lower())][:2] if value else []
    return f"; did you mean {' or '.join(close)}?" if close else ""


def unknown_command(value: str, names: Sequence[str]) -> str:
    """The sentence for a command word that names no command."""
    close = _closest(value, list(names))
    return f"unknown command {value!r}{close} (the commands: {', '.join(names)})"


def choice(option: str, what: str, names: Sequence[str]) -> Callable[[str], str]:
    """An argument ``type`` taking one of ``names``: anything else is refused in one
    sentence naming the closest ones (BadSetting), not argparse's usage and choices.
    ``option`` and ``what`` name it: ``--engine``, ``engine``."""

    def take(value: str) -> str:
        if value in names:
            return value
        close = _closest(value, list(names))
        if what == "kind" and option.startswith("-"):
            served = sorted(name for name in names if name != "auto")  # as the server lists them
            raise BadSetting(
                f"{option}: unsupported kind {value!r}{close} (numgrid reads "
                f"{', '.join(served)}; auto, the default, detects it)"
            )
        raise BadSetting(f"{option}: unknown {what} {value!r}{close} (known: {', '.join(names)})")

    return take


def braces(names: Sequence[str]) -> str:
    """``{a,b,c}``: how argparse shows a choice's values."""
    return "{" + ",".join(names) + "}"


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be positive, got {text}")
    return value


def positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text}")
    return value  # a huge one (inf included) means "long": the client caps every deadline


def technique_arg(text: str) -> str:
    name = text.upper().replace("-", "_")
    if name not in TECHNIQUES:
        known = ", ".join(t.lower().replace("_", "-") for t in TECHNIQUES)
        raise argparse.ArgumentTypeError(f"unknown technique {text!r} (known: {known})")
    return name


def cells_arg(text: str) -> tuple[Cell, ...]:
    """``r1c2,r3c4`` (commas or spaces) -> the cells."""
    cells = []
    for name in text.replace(",", " ").split():
        row, sep, column = name.lower().removeprefix("r").partition("c")
        digits = row + column
        if not (sep and row and column and digits.isascii() and digits.isdecimal()):
            raise argparse.ArgumentTypeError(f"not a cell like r1c2: {name!r}")
        if max(int(row), int(column)) >= 2**31:
            raise argparse.ArgumentTypeError(f"{name!r}: no grid has a row or column that far")
        cells.append((int(row), int(column)))
    return tuple(cells)


# ---------------------------------------------------------------- the global options


class Adds(Protocol):
    """A parser or an argument group: what options are added to."""

    def add_argument(self, *names: str, **options: Any) -> Any: ...


@dataclass(frozen=True)
class Setting:
    """A global option (taken before or after the command) and the environment variable
    that gives it when the option is not: declared once, in :data:`GLOBALS`. The option
    is ``--dest`` (``_`` as ``-``), the variable ``NUMGRID_DEST``."""

    dest: str  # the Namespace attribute
    help: str = ""  # "": no option, only the variable gives it
    env: bool = False  # whether NUMGRID_<DEST> gives it
    metavar: str | None = None
    switch: bool = False  # on when given (the variable: on or off, see flag())
    choices: Sequence[str] = ()  # its values, refused in one sentence (choice())
    default: Any = None
    type: Callable[[str], Any] | None = None
    what: str = ""  # the file it names, in messages: "CA file"

    @property
    def flag(self) -> str:
        return f"--{self.dest.replace('_', '-')}" if self.help else ""

    @property
    def variable(self) -> str:
        return f"NUMGRID_{self.dest.upper()}" if self.env else ""

    def add_to(self, parser: Adds, shown: bool) -> None:
        """Add the option to ``parser`` (a parser or an argument group); not ``shown``:
        taken, but described only once (in the top parser's help), with no default, so
        that a value given before the command stands."""
        if not self.flag:
            return
        options: dict[str, Any] = {
            "help": self.help if shown else argparse.SUPPRESS,
            "default": (None if self.switch else self.default) if shown else argparse.SUPPRESS,
        }
        if self.switch:
            options["action"] = "store_true"
        else:
            options["metavar"] = self.metavar or (braces(self.choices) if self.choices else None)
            if self.choices:
                options["type"] = choice(self.flag, self.dest, self.choices)
            elif self.type is not None:
                options["type"] = self.type
        parser.add_argument(self.flag, dest=self.dest, **options)


def _named(table: Iterable[str | None]) -> list[str]:
    """The names of a client table (``ENGINES``, ...) but None."""
    return [name for name in table if name]


GLOBALS: tuple[Setting, ...] = (
    Setting(
        "server",
        "a running numgrid server (env NUMGRID_SERVER); several: HOST:PORT,HOST:PORT "
        "or dns:///NAME:PORT (unique spreads its batch over them); default: an embedded one",
        env=True,
        metavar="HOST:PORT",
    ),
    Setting(
        "tls",
        "talk TLS to --server (env NUMGRID_TLS=1; implied by --ca and --cert)",
        env=True,
        switch=True,
    ),
    Setting(
        "ca",
        "PEM CA certificate to trust (env NUMGRID_CA; default: the system's)",
        env=True,
        metavar="FILE",
        what="CA file",
    ),
    Setting(
        "cert",
        "PEM client certificate, for servers that ask for one (env NUMGRID_CERT)",
        True,
        "FILE",
        what="certificate file",
    ),
    Setting("key", "PEM private key of --cert (env NUMGRID_KEY)", True, "FILE", what="key file"),
    Setting(
        "token_file",
        "file holding a bearer token for the server (env NUMGRID_TOKEN_FILE, or the "
        "token itself in NUMGRID_TOKEN); sent only over TLS or loopback",
        env=True,
        metavar="FILE",
        what="token file",
    ),
    Setting("token", env=True),  # the token itself; checked, never shown
    Setting(
        "engine", "which engine answers (default auto)", choices=_named(ENGINES), default="auto"
    ),
    Setting("kind", "the puzzles' kind (default: detected)", choices=_named(KINDS), default="auto"),
    Setting(
        "format",
        "the files' format (default: auto, detected): " + ", ".join(_named(FORMATS)[1:]),
        choices=_named(FORMATS),
        default="auto",
        metavar="FORMAT",
    ),
    Setting(
        "timeout",
        "time limit of each search (answer TIMEOUT past it)",
        metavar="SECONDS",
        type=positive_seconds,
    ),
    Setting("json", "one JSON object per puzzle per line (JSONL)", switch=True),
    Setting("debug", env=True),  # a bug's traceback, not one line
)
FILES = ("ca", "cert", "key", "token_file")  # the settings that name a file the CLI reads
_BY_DEST = {setting.dest: setting for setting in GLOBALS}


def flags() -> list[str]:
    """The global options' names: ``--server``, ..."""
    return [setting.flag for setting in GLOBALS if setting.flag]


class _Unparsed(Exception):
    """What argparse refuses in :func:`command_word`: left for the real parser to say."""


class _Words(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # argparse's documented hook: raise, not exit
        raise _Unparsed(message)


def command_word(argv: Sequence[str]) -> str | None:
    """The first word of ``argv`` that is neither a global option nor its value: the
    name of the command, found the way the parser finds it (abbreviations, ``--x=v``),
    so that a mistyped one can be refused in one sentence (:func:`unknown_command`).
    None when there is none, when help or the version is asked for first, or when the
    options before it are refused (the parser says why)."""
    words = _Words(prog=PACKAGE, add_help=False)
    for setting in GLOBALS:  # their values taken as the parser takes them, in order
        setting.add_to(words, shown=True)
    words.add_argument("-h", "--help", "--version", dest="asks", action="store_true")
    words.add_argument("words", nargs=argparse.REMAINDER)
    try:
        found, _ = words.parse_known_args(list(argv))
    except _Unparsed:
        return None
    return None if found.asks or not found.words else str(found.words[0])


def from_environment(args: argparse.Namespace, environ: Mapping[str, str] = os.environ) -> None:
    """Each setting not given on the command line from its variable (an empty variable
    is not given), the variable's name kept in ``args.origins`` for the messages; an
    on/off variable read as such (BadSetting if it is neither)."""
    origins: dict[str, str] = {}
    for setting in GLOBALS:
        value = getattr(args, setting.dest, None)
        if value is None and setting.variable and environ.get(setting.variable):
            text = environ[setting.variable]
            value = flag(setting.variable, text) if setting.switch else text
            origins[setting.dest] = setting.variable
        if value is None and setting.switch:
            value = False
        setattr(args, setting.dest, value)
    setattr(args, ORIGINS, origins)


def _origin(args: argparse.Namespace, dest: str) -> str:
    """``NUMGRID_X='value'`` when the value is the variable's, else ``--x 'value'``."""
    value = getattr(args, dest)
    variable = getattr(args, ORIGINS, {}).get(dest)
    return f"{variable}={value!r}" if variable else f"{_BY_DEST[dest].flag} {value!r}"


# ---------------------------------------------------------------- checks


def target_problem(target: str) -> str | None:
    """Why ``target`` is not a server the CLI can dial (HOST:PORT, a comma-separated list
    of them, or a gRPC target with a scheme such as ``dns:///NAME:PORT``), or None."""
    target = target.strip()
    if target.startswith(SCHEMES):
        return None if target.partition(":")[2].strip("/") else "nothing after the scheme"
    if "://" in target:
        scheme = target.split("://", 1)[0]
        return f"no {scheme}:// before it: give HOST:PORT, or dns:///HOST:PORT"
    for address in target.split(","):
        address = address.strip()
        host, colon, port = address.rpartition(":")
        if not address:
            return "an empty address in the list"
        if not colon:
            return f"{address!r} has no :PORT"
        if not (port.isascii() and port.isdecimal() and 0 < int(port) < 65536):
            return f"the port {port!r} is not a number 1-65535"
        if not host:
            return f"no host before :{port}"
        if host.startswith("[") and host.endswith("]"):
            try:
                ipaddress.IPv6Address(host[1:-1])
            except ValueError:
                return f"{host!r} is not an IPv6 address"
        elif not _HOST.match(host):
            try:
                ipaddress.IPv6Address(host)
            except ValueError:
                return f"{host!r} is not a host name or address"
            return f"an IPv6 address goes in brackets: [{host}]:{port}"
    return None


def flag(variable: str, text: str) -> bool:
    """An on/off environment variable (``NUMGRID_TLS``)."""
    if text.strip().lower() in TRUE:
        return True
    if text.strip().lower() in FALSE:
        return False
    raise BadSetting(f"{variable}={text!r} is not on or off: use 1 or 0 (or true/false, yes/no)")


def check_token(token: str, where: str) -> str:
    """A bearer token as gRPC can send it; ``where`` names its origin (never the token)."""
    token = token.strip()
    if not token:
        raise BadSetting(f"{where} is empty")
    if not all("!" <= c <= "~" for c in token):
        raise BadSetting(
            f"{where} is not a bearer token: it holds a space, a control or a non-ASCII "
            "character (the value is not shown)"
        )
    return token


def check(args: argparse.Namespace) -> None:
    """Check what the options and the environment variables gave (after
    :func:`from_environment`), before anything is dialled; BadSetting names the option
    or the variable and its value."""
    if args.server is not None:
        problem = target_problem(args.server)
        if problem:
            raise BadSetting(f"{_origin(args, 'server')} is not HOST:PORT: {problem}")
    # A file named by a variable is checked where it will be read (the TLS files only
    # for a --server), so that the message can name the variable.
    origins = getattr(args, ORIGINS, {})
    for dest in FILES if args.server else ("token_file",):
        path = getattr(args, dest)
        if path and dest in origins:
            try:
                with Path(path).open("rb"):
                    pass
            except OSError as e:
                reason = e.strerror or str(e)
                raise BadSetting(
                    f"{origins[dest]}={path!r}: cannot read the {_BY_DEST[dest].what}: {reason}"
                ) from None
    if args.token and not args.token_file:
        check_token(args.token, _BY_DEST["token"].variable)
