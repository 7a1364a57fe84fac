"""What the server needs beyond the client (the ``server`` extra), and the
``numgrid-server`` console script, which says so in one sentence when it is missing
and sets glibc's allocator up for a long-running threaded server.

``pip install numgrid`` installs the client and the ``numgrid`` CLI only; OR-Tools and
gRPC reflection come with ``pip install 'numgrid[server]'``. This module imports the
standard library only, so that a client-only install gets a sentence naming the fix
instead of an ImportError's traceback, from ``numgrid-server`` and from the CLI's
embedded server alike.
"""

from __future__ import annotations

import ctypes
import importlib.metadata
import importlib.util
import os
import re
import sys
from collections.abc import Sequence

# The modules the server imports that the client does not, and their distributions.
SERVER_MODULES = {
    "ortools": "ortools",
    "grpc_reflection": "grpcio-reflection",
    "prometheus_client": "prometheus-client",
}
INSTALL = "pip install 'numgrid[server]'"
_SERVER_EXTRA = re.compile(r"""extra\s*==\s*["']server["']""")


def extra_distributions() -> list[str]:
    """The distributions of the ``server`` extra, as installed numgrid's metadata lists
    them (pyproject.toml's ``[project.optional-dependencies]``); none if not installed."""
    try:
        requires = importlib.metadata.requires("numgrid") or []
    except importlib.metadata.PackageNotFoundError:
        return []
    names = []
    for line in requires:
        requirement, _, marker = line.partition(";")
        if _SERVER_EXTRA.search(marker):
            names.append(re.split(r"[\s<>=!~;\[(]", requirement.strip(), maxsplit=1)[0])
    return names


def missing() -> list[str]:
    """The server extra's distributions missing here: not installed, or their modules
    cannot be imported. Empty when the server can run."""
    gone = []
    for name in extra_distributions():
        try:
            importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            gone.append(name)
    for module, distribution in SERVER_MODULES.items():
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):  # a broken install, or an import hook saying no
            found = False
        if not found and distribution not in gone:
            gone.append(distribution)
    return gone


def not_installed(gone: Sequence[str]) -> str:
    """The sentence for a server that cannot run here (without the program's name)."""
    return (
        f"the numgrid server needs the 'server' extra, which is not installed here "
        f"(missing: {', '.join(gone)}): {INSTALL}"
    )


# glibc's allocator, which the server's ~60 threads share. It gives threads their own
# arenas (up to 8 per core) and keeps what is freed in them: under 32 clients a minute
# (benchmarks/load.py), 55 of the 92 MiB it held were free but kept; with two arenas, 7
# of 38. Each thread also keeps a cache of freed blocks (the tcache, up to ~240 kB): on
# the same code and seeds, a minute ended at 160-164 MiB with it and 150-157 without,
# and the growth over the RSS 6 s into the load was +14-18 % with it, +10-13 % without,
# at the same rate of calls (2026-11-27).
ARENAS = 2
MMAP_THRESHOLD = 128 * 1024  # bytes: larger blocks are mapped, and unmapped when freed
TUNABLES = "glibc.malloc.tcache_count=0"  # the tcache can only be set before start-up


def on_glibc() -> bool:
    """Whether the C library is glibc, the one these settings are for."""
    try:
        version = os.confstr("CS_GNU_LIBC_VERSION")
        return version is not None and version.startswith("glibc")
    except (ValueError, OSError, AttributeError):
        return False


def bound_malloc() -> None:
    """Two malloc arenas and a fixed mmap threshold (glibc only; elsewhere nothing)."""
    if not on_glibc():
        return
    libc = ctypes.CDLL("libc.so.6")
    m_arena_max, m_mmap_threshold = -8, -3  # from glibc's malloc.h
    libc.mallopt(m_arena_max, ARENAS)
    libc.mallopt(m_mmap_threshold, MMAP_THRESHOLD)


def restart_with_tunables() -> None:
    """Run this command again (same process id) with :data:`TUNABLES` in the
    environment, unless GLIBC_TUNABLES already sets the tcache (the operator's choice
    wins) or the C library is not glibc. Returns only if it did not run again."""
    current = os.environ.get("GLIBC_TUNABLES", "")
    if "glibc.malloc.tcache" in current or not on_glibc() or not sys.orig_argv:
        return
    os.environ["GLIBC_TUNABLES"] = f"{current}:{TUNABLES}" if current else TUNABLES
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execv(sys.executable, sys.orig_argv)
    except OSError:  # cannot run again: serve as we are, with the tcache on
        if current:
            os.environ["GLIBC_TUNABLES"] = current
        else:
            del os.environ["GLIBC_TUNABLES"]


def main(argv: Sequence[str] | None = None) -> int:
    """``numgrid-server``: run :func:`numgrid.server.main.main`, or say what is missing.

    From the command line (``argv`` None), first :func:`restart_with_tunables`."""
    if argv is None:
        restart_with_tunables()
    gone = missing()
    if gone:
        print(f"numgrid-server: {not_installed(gone)}", file=sys.stderr)
        return 1
    from numgrid.server.main import main as serve

    return serve(argv)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
