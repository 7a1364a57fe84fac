"""How a ``numgrid`` command reaches a server: :func:`connection` dials ``--server``
(one target, or a list spread as one gRPC target) with the TLS and token settings of
:func:`credentials`, or starts the embedded server in-process on first use (once per
run, on loopback) and stops it at exit.

A module of its own so that every command module can take a connection without
importing :mod:`.cli`; it imports no CLI module but :mod:`.cli_args` and
:mod:`.cli_output`. The embedded server is imported only when it is started: the
client never needs the server extra otherwise.
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Callable
from collections.abc import Iterator
from pathlib import Path

from . import cli_args
from .batch import batch_target
from .channels import PLAINTEXT
from .channels import Credentials
from .channels import CredentialsError
from .cli_output import NoServer
from .client import NumgridClient


def credentials(args: argparse.Namespace) -> Credentials:
    """TLS and token settings from the options and the environment (NUMGRID_TOKEN, in
    ``args.token``: checked by :func:`.cli_args.check`)."""
    token = (args.token or "").strip() or None
    if args.token_file:
        try:
            token = Path(args.token_file).read_text().strip()
        except (OSError, UnicodeDecodeError) as e:
            reason = getattr(e, "strerror", None) or e
            message = f"cannot read the token file {args.token_file}: {reason}"
            raise CredentialsError(message) from None
        if not token:
            raise CredentialsError(f"the token file {args.token_file} is empty")
        token = cli_args.check_token(token, f"the token file {args.token_file}")
    return Credentials(tls=args.tls, ca=args.ca, cert=args.cert, key=args.key, token=token)


@contextlib.contextmanager
def connection(
    server: str | None,
    retries: int | None = None,
    credentials: Credentials = PLAINTEXT,
    time_limit: float | None = None,
) -> Iterator[Callable]:
    """A function returning the client: to ``server`` with ``credentials``, or to an
    embedded server that is started on first use (once) and stopped on exit, its time
    cap ``time_limit`` when given (the CLI's ``--timeout``)."""
    state: dict = {}

    def connect() -> NumgridClient:
        if "client" not in state:
            if server:
                state["client"] = NumgridClient(
                    _dial(server), credentials=credentials, **_retries(retries)
                )
            else:
                state["embedded"] = _start_embedded(time_limit)
                state["client"] = NumgridClient(state["embedded"].target, **_retries(retries))
        return state["client"]

    try:
        yield connect
    finally:
        if "client" in state:
            state["client"].close()
        if "embedded" in state:
            state["embedded"].stop(grace=1.0)


def _dial(server: str) -> str:
    """A list ``host1:port,host2:port`` as one gRPC target (see ``batch.batch_target``)."""
    if "," not in server or "://" in server:
        return server
    try:
        return batch_target(server)[0]
    except ValueError as e:
        raise NoServer(str(e)) from None


def _retries(retries: int | None) -> dict:
    return {} if retries is None else {"retries": retries}


def _start_embedded(time_limit: float | None):
    """The same servicer, in-process: imported here so the client never needs it. A
    client-only install (no ``server`` extra) gets one sentence naming both fixes."""
    use_server = "or pass --server HOST:PORT (or set NUMGRID_SERVER)"
    try:
        from numgrid.server.launch import missing
        from numgrid.server.launch import not_installed

        gone = missing()
        if gone:
            raise NoServer(f"{not_installed(gone)}, {use_server}")
        from numgrid.server.main import embedded_for
    except ImportError as e:  # pragma: no cover - a broken install
        raise NoServer(
            f"the numgrid server cannot be imported ({e}): pip install 'numgrid[server]', "
            f"{use_server}"
        ) from None
    try:
        return embedded_for(time_limit)
    except (OSError, RuntimeError) as e:
        raise NoServer(f"it did not start ({e}); use --server") from None
