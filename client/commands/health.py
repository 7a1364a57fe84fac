"""``numgrid health``: whether the server answers SERVING (exit 0) or something else
(1); no server at all is exit 2, after one retry rather than the client's usual four."""

from __future__ import annotations

import argparse
import json

from ..cli_output import NOT_HAPPY
from ..cli_output import OK
from ..cli_output import NoServer
from ..types import NumgridError
from .base import Command
from .base import Connect

HEALTH_DEADLINE = 2.0


def arguments(sub: argparse.ArgumentParser) -> None:
    """No arguments of its own."""


def run(args: argparse.Namespace, connect: Connect, width: int) -> int:
    timeout = args.timeout or HEALTH_DEADLINE
    try:
        status = connect().health(timeout=timeout)
    except NumgridError as e:
        if e.code in ("UNAVAILABLE", "DEADLINE_EXCEEDED"):
            raise NoServer(e.message) from None
        status = f"{e.code}: {e.message}"
    code = OK if status == "SERVING" else NOT_HAPPY
    target = args.server or "embedded"
    if args.json:
        print(json.dumps({"source": target, "command": "health", "status": status}))
    else:
        print(f"{target}: {status}")
    return code


COMMAND = Command("health", "ask the server whether it is serving", arguments, run, retries=1)
