"""Starting a ``numgrid-server`` for a benchmark: one place for every script."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import IO
from typing import Any

SERVER = Path(sys.executable).parent / "numgrid-server"


def start_server(
    *flags: str, stderr: int | IO[Any] = subprocess.DEVNULL
) -> tuple[subprocess.Popen[str], str]:
    """A server on a free loopback port, and its target once it listens. Its log goes to
    ``stderr`` (by default dropped: one line per request would be written, then lost)."""
    process = subprocess.Popen(
        [str(SERVER), "--host", "127.0.0.1", "--port", "0", *flags],
        stdout=subprocess.PIPE,
        stderr=stderr,
        text=True,
    )
    assert process.stdout is not None  # stdout=PIPE
    line = process.stdout.readline()
    if "listening on" not in line:
        process.kill()
        sys.exit(f"numgrid-server did not start: {line!r}")
    return process, line.split()[-1]
