"""The server's settings: command-line flags, each defaulting to an environment variable.

Every flag has a ``NUMGRID_*`` variable (the flag wins); the defaults admit the largest
published puzzle of any kind served (124x90) and stop any search after 30 s.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NoReturn
from typing import TypeVar

MIB = 1024 * 1024


@dataclass(frozen=True)
class ServerConfig:
    host: str = "127.0.0.1"  # loopback: only this machine; containers set 0.0.0.0
    port: int = 50051  # 0 picks a free port
    threads: int = 8  # calls worked on at once (batch streams: two fewer)
    max_queued: int = 32  # calls waiting for one of those; more: RESOURCE_EXHAUSTED
    # A request stream (a batch, reflection) that sends nothing for this long is ended.
    stream_idle_seconds: float = 10.0
    # Request streams one client (address) may hold open at once; 0: half the batch
    # streams (threads - 2), at least one, so that no client takes them all.
    client_streams: int = 0
    workers: int = 1  # processes checking batch puzzles; 1: in the RPC's own thread
    max_message_bytes: int = 16 * MIB  # requests and responses
    max_cells: int = 20_000  # rows x columns, clue cells included; 124x90 = 11,160
    time_cap_seconds: float = 30.0  # no search runs longer, whatever the request asks
    grace_seconds: float = 10.0  # on SIGTERM/SIGINT, in-flight RPCs get this long to finish
    # A connection older than this is asked to close (GOAWAY): its client connects again,
    # resolving the name again, so replicas started later get calls too. 0: never.
    max_connection_age_seconds: float = 300.0
    # Calls on such a connection may run this much longer; 0: until they end.
    max_connection_age_grace_seconds: float = 0.0
    log_level: str = "INFO"
    tls_cert: str = ""  # PEM certificate chain; with tls_key, the port speaks TLS only
    tls_key: str = ""
    tls_client_ca: str = ""  # PEM CA: clients must present a certificate it signed
    tokens_file: str = ""  # bearer tokens (see numgrid.server.security); also NUMGRID_TOKENS
    metrics_port: int = 0  # Prometheus /metrics over HTTP; 0: none (the image sets 9464)
    metrics_host: str = "127.0.0.1"  # plain HTTP, no tokens: loopback unless set apart

    @property
    def address(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"


_N = TypeVar("_N", int, float)


def _positive(kind: type[_N]) -> Callable[[str], _N]:
    def parse(text: str) -> _N:
        value = kind(text)
        if value <= 0:
            raise argparse.ArgumentTypeError(f"must be positive, got {text}")
        return value

    parse.__name__ = kind.__name__  # argparse names the type in its error messages
    return parse


def _non_negative(kind: type[_N]) -> Callable[[str], _N]:
    def parse(text: str) -> _N:
        value = kind(text)
        if value < 0:
            raise argparse.ArgumentTypeError(f"must be 0 or more, got {text}")
        return value

    parse.__name__ = kind.__name__
    return parse


# (flag, field, env var, type, help)
_FLAGS = (
    ("--host", "host", "NUMGRID_HOST", str, "address to listen on"),
    ("--port", "port", "NUMGRID_PORT", _non_negative(int), "port; 0 picks a free one"),
    ("--threads", "threads", "NUMGRID_THREADS", _positive(int), "calls worked on at once"),
    (
        "--max-queued",
        "max_queued",
        "NUMGRID_MAX_QUEUED",
        _non_negative(int),
        "calls that may wait for a thread; beyond them RESOURCE_EXHAUSTED",
    ),
    (
        "--stream-idle",
        "stream_idle_seconds",
        "NUMGRID_STREAM_IDLE",
        _positive(float),
        "seconds a request stream may send nothing before it is ended",
    ),
    (
        "--client-streams",
        "client_streams",
        "NUMGRID_CLIENT_STREAMS",
        _non_negative(int),
        "request streams one client address may hold at once (0: half the batch streams)",
    ),
    (
        "--workers",
        "workers",
        "NUMGRID_WORKERS",
        _positive(int),
        "processes that check BatchCheckUniqueness puzzles (one per core)",
    ),
    (
        "--max-message-bytes",
        "max_message_bytes",
        "NUMGRID_MAX_MESSAGE_BYTES",
        _positive(int),
        "largest request or response",
    ),
    ("--max-cells", "max_cells", "NUMGRID_MAX_CELLS", _positive(int), "largest grid, in cells"),
    (
        "--time-cap",
        "time_cap_seconds",
        "NUMGRID_TIME_CAP",
        _positive(float),
        "seconds any one search may take (DEADLINE_EXCEEDED past it)",
    ),
    (
        "--grace",
        "grace_seconds",
        "NUMGRID_GRACE",
        _non_negative(float),
        "seconds in-flight RPCs get to finish on SIGTERM/SIGINT",
    ),
    (
        "--max-connection-age",
        "max_connection_age_seconds",
        "NUMGRID_MAX_CONNECTION_AGE",
        _non_negative(float),
        "seconds before a client is asked to connect again (and re-resolve); 0: never",
    ),
    (
        "--max-connection-age-grace",
        "max_connection_age_grace_seconds",
        "NUMGRID_MAX_CONNECTION_AGE_GRACE",
        _non_negative(float),
        "seconds calls on such a connection may still run; 0: until they end",
    ),
    ("--log-level", "log_level", "NUMGRID_LOG_LEVEL", str.upper, "DEBUG, INFO, WARNING, ..."),
    ("--tls-cert", "tls_cert", "NUMGRID_TLS_CERT", str, "PEM certificate chain (TLS on)"),
    ("--tls-key", "tls_key", "NUMGRID_TLS_KEY", str, "PEM private key of --tls-cert"),
    (
        "--tls-client-ca",
        "tls_client_ca",
        "NUMGRID_TLS_CLIENT_CA",
        str,
        "PEM CA file; clients must present a certificate it signed",
    ),
    (
        "--tokens-file",
        "tokens_file",
        "NUMGRID_TOKENS_FILE",
        str,
        "bearer tokens, one per line (calls without one: UNAUTHENTICATED)",
    ),
    (
        "--metrics-port",
        "metrics_port",
        "NUMGRID_METRICS_PORT",
        _non_negative(int),
        "serve Prometheus metrics at http://HOST:PORT/metrics (the image uses 9464); 0: off",
    ),
    (
        "--metrics-host",
        "metrics_host",
        "NUMGRID_METRICS_HOST",
        str,
        "address the metrics listen on (plain HTTP without tokens: keep it private)",
    ),
)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="numgrid-server",
        description="The numgrid gRPC service (with grpc.health.v1 and reflection).",
    )
    defaults = ServerConfig()
    for flag, name, env, kind, text in _FLAGS:
        default = getattr(defaults, name)
        # A variable's value is converted after parsing (from_args), where an error can
        # name the variable: a flag given on the command line wins and leaves it unread.
        value = os.environ.get(env)
        p.add_argument(
            flag,
            dest=name,
            type=kind,
            default=default if value is None else _FromEnv(env, value),
            help=f"{text} (env {env}" + (f", default {default})" if default != "" else ")"),
        )
    return p


@dataclass(frozen=True)
class _FromEnv:
    """A flag's default taken from its environment variable, not converted yet."""

    variable: str
    text: str


LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
_NUMBER_WORDS = {"int": "a whole number", "float": "a number"}


def _bad(p: argparse.ArgumentParser, message: str) -> NoReturn:
    """Exit 2 with one line (no usage: the problem is not the command line's)."""
    p.exit(2, f"{p.prog}: error: {message}\n")


def from_args(argv: Sequence[str] | None = None) -> ServerConfig:
    p = parser()
    args = p.parse_args(argv)
    origin = {}  # field: "NUMGRID_X='value'" for the values the environment gave
    for _, name, env, kind, _ in _FLAGS:
        value = getattr(args, name)
        if not isinstance(value, _FromEnv):
            continue
        origin[name] = f"{env}={value.text!r}"
        try:
            setattr(args, name, kind(value.text))
        except argparse.ArgumentTypeError as e:
            _bad(p, f"{origin[name]}: {e}")
        except ValueError:
            what = _NUMBER_WORDS.get(getattr(kind, "__name__", ""), "a valid value")
            _bad(p, f"{origin[name]} is not {what}")
    for name in ("host", "metrics_host"):
        if not getattr(args, name).strip():
            where = origin.get(name, f"--{name.replace('_', '-')} ''")
            _bad(p, f"{where} is no address to listen on (0.0.0.0: every interface)")
    if args.log_level not in LOG_LEVELS:
        where = origin.get("log_level", "--log-level")
        _bad(p, f"{where} must be one of {', '.join(LOG_LEVELS)}, got {args.log_level}")
    if bool(args.tls_cert) != bool(args.tls_key):
        p.error("--tls-cert and --tls-key go together (env NUMGRID_TLS_CERT, NUMGRID_TLS_KEY)")
    if args.tls_client_ca and not args.tls_cert:
        p.error("--tls-client-ca needs --tls-cert and --tls-key (env NUMGRID_TLS_CLIENT_CA)")
    return ServerConfig(**vars(args))
