"""The numgrid client: a thin, typed wrapper over the gRPC stub, and the ``numgrid`` CLI.

>>> from numgrid.client import NumgridClient
>>> with NumgridClient("127.0.0.1:50051", timeout=10) as client:  # doctest: +SKIP
...     client.check_uniqueness(open("puzzle.txt").read()).verdict
'UNIQUE'

:class:`AsyncNumgridClient` (:mod:`numgrid.client.aio`) is the same client for asyncio.
It imports no solver code: only gRPC, protobuf and the generated ``numgrid.v1`` stubs
(``pip install numgrid`` installs no more; the server is the ``server`` extra).
"""

from .aio import AsyncNumgridClient
from .client import NumgridClient
from .types import *  # noqa: F403 - the values the clients answer with, as types.__all__ lists
from .types import __all__ as _values

__all__ = ["AsyncNumgridClient", "NumgridClient", *_values]
