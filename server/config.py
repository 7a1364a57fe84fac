"""The server's settings: command-line flags, each defaulting to an environment variable.

Every flag has a ``NUMGRID_*`` variable (the flag wins); the defaults admit the largest
published Kakuro (124x90) and stop any search after 30 s.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from dataclasses import dataclass

MIB = 1024 * 1024


@dataclass(frozen=True)
class ServerConfig:
    host: str = "0.0.0.0"
    port: int = 50051  # 0 picks a free port
    threads: int = 8  # worker threads, i.e. RPCs served at once
    workers: int = 1  # processes checking batch puzzles; 1: in the RPC's own thread
    max_message_bytes: int = 16 * MIB  # requests and responses
    max_cells: int = 20_000  # rows x columns, clue cells included; 124x90 = 11,160
    time_cap_seconds: float = 30.0  # no search runs longer, whatever the request asks
    grace_seconds: float = 10.0  # on SIGTERM/SIGINT, in-flight RPCs get this long to finish
    log_level: str = "INFO"

    @property
    def address(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"


def _positive(kind):
    def parse(text: str):
        value = kind(text)
        if value <= 0:
            raise argparse.ArgumentTypeError(f"must be positive, got {text}")
        return value

    parse.__name__ = kind.__name__  # argparse names the type in its error messages
    return parse


def _non_negative(kind):
    def parse(text: str):
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
    ("--threads", "threads", "NUMGRID_THREADS", _positive(int), "worker threads"),
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
    ("--log-level", "log_level", "NUMGRID_LOG_LEVEL", str.upper, "DEBUG, INFO, WARNING, ..."),
)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="numgrid-server",
        description="The numgrid gRPC service (with grpc.health.v1 and reflection).",
    )
    defaults = ServerConfig()
    for flag, name, env, kind, text in _FLAGS:
        default = getattr(defaults, name)
        # A string default goes through `type` like a typed flag, so a bad env var is
        # reported as clearly as a bad flag.
        p.add_argument(
            flag,
            dest=name,
            type=kind,
            default=os.environ.get(env, str(default)),
            help=f"{text} (env {env}, default {default})",
        )
    return p


LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def from_args(argv: Sequence[str] | None = None) -> ServerConfig:
    p = parser()
    args = p.parse_args(argv)
    if args.log_level not in LOG_LEVELS:
        p.error(f"--log-level must be one of {', '.join(LOG_LEVELS)}, got {args.log_level}")
    return ServerConfig(**vars(args))
