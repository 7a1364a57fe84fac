"""What the server needs beyond the client (the ``server`` extra), and the
``numgrid-server`` console script, which says so in one sentence when it is missing.

``pip install numgrid`` installs the client and the ``numgrid`` CLI only; OR-Tools and
gRPC reflection come with ``pip install 'numgrid[server]'``. This module imports the
standard library only, so that a client-only install gets a sentence naming the fix
instead of an ImportError's traceback, from ``numgrid-server`` and from the CLI's
embedded server alike.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
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


def main(argv: Sequence[str] | None = None) -> int:
    """``numgrid-server``: run :func:`numgrid.server.main.main`, or say what is missing."""
    gone = missing()
    if gone:
        print(f"numgrid-server: {not_installed(gone)}", file=sys.stderr)
        return 1
    from numgrid.server.main import main as serve

    return serve(argv)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
