"""What the ``numgrid`` CLI takes from a user besides puzzles: its arguments and its
environment variables, and how it refuses them. The parser (:mod:`.cli`) and every
command module use these; this module imports no other CLI module.

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
from importlib import metadata
from pathlib import Path

from .client import TECHNIQUES
from .types import Cell

PACKAGE = "numgrid"
TRUE, FALSE = ("1", "true", "yes", "on"), ("", "0", "false", "no", "off")
# gRPC targets with a scheme are taken as they are (dns:///name:port and the like).
SCHEMES = ("dns:", "ipv4:", "ipv6:", "unix:", "unix-abstract:", "vsock:")
_HOST = re.compile(r"^[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_])?$")  # a name or IPv4
# The files the CLI reads, by option (argparse dest) and variable.
FILES = {
    "ca": ("NUMGRID_CA", "CA file"),
    "cert": ("NUMGRID_CERT", "certificate file"),
    "key": ("NUMGRID_KEY", "key file"),
    "token_file": ("NUMGRID_TOKEN_FILE", "token file"),
}


class BadSetting(Exception):
    """A value the CLI cannot use, from the command line or the environment: its message
    is the one line printed (after ``numgrid: ``); exit 2."""


def version() -> str:
    """The installed package's version."""
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


def not_a_choice(action: argparse.Action, value: str) -> str:
    """The sentence for a ``value`` not among ``action``'s choices."""
    names = [str(name) for name in action.choices if name]
    close = _closest(value, names)
    if isinstance(action, argparse._SubParsersAction):
        return f"unknown command {value!r}{close} (the commands: {', '.join(names)})"
    positional = action.metavar if isinstance(action.metavar, str) else action.dest
    option = action.option_strings[-1] if action.option_strings else positional
    if action.dest == "kind":
        served = sorted(name for name in names if name != "auto")  # as the server lists them
        return (
            f"{option}: unsupported kind {value!r}{close} (numgrid reads "
            f"{', '.join(served)}; auto, the default, detects it)"
        )
    what = (action.dest if action.option_strings else positional.lower()).replace("_", " ")
    return f"{option}: unknown {what} {value!r}{close} (known: {', '.join(names)})"


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
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text}")
    return value


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
        if not (sep and row.isdecimal() and column.isdecimal()):
            raise argparse.ArgumentTypeError(f"not a cell like r1c2: {name!r}")
        cells.append((int(row), int(column)))
    return tuple(cells)


class Parser(argparse.ArgumentParser):
    """argparse, but a value not among its choices is refused in one sentence naming the
    closest ones (BadSetting), not with the usage and every choice quoted."""

    def _check_value(self, action, value):  # argparse's hook for ``choices``
        if action.choices is not None and value not in action.choices:
            raise BadSetting(not_a_choice(action, value))


def hide(parser: argparse.ArgumentParser, dests: set[str]) -> None:
    """Leave the options ``dests`` out of ``parser``'s help and usage (still taken)."""
    for action in parser._actions:
        if action.dest in dests:
            action.help = argparse.SUPPRESS


# ---------------------------------------------------------------- environment


def _origin(value: str, option: str, variable: str) -> str:
    """``NUMGRID_X='value'`` when the value is the variable's, else ``--x 'value'``."""
    if os.environ.get(variable) == value:
        return f"{variable}={value!r}"
    return f"{option} {value!r}"


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
    """Check (and convert) what the options and the environment variables gave, before
    anything is dialled; BadSetting names the option or the variable and its value."""
    if isinstance(args.tls, str):  # NUMGRID_TLS, not --tls
        args.tls = flag("NUMGRID_TLS", args.tls)
    if args.server is not None:
        problem = target_problem(args.server)
        if problem:
            where = _origin(args.server, "--server", "NUMGRID_SERVER")
            raise BadSetting(f"{where} is not HOST:PORT: {problem}")
    # A file named by a variable is checked where it will be read (the TLS files only
    # for a --server), so that the message can name the variable.
    used = set(FILES) if args.server else {"token_file"}
    for dest in sorted(used):
        variable, what = FILES[dest]
        path = getattr(args, dest)
        if path and os.environ.get(variable) == path:
            try:
                with Path(path).open("rb"):
                    pass
            except OSError as e:
                reason = e.strerror or str(e)
                raise BadSetting(f"{variable}={path!r}: cannot read the {what}: {reason}") from None
    token = os.environ.get("NUMGRID_TOKEN")
    if token and not args.token_file:
        check_token(token, "NUMGRID_TOKEN")
