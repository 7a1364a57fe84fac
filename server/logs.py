"""Request ids, and the server's log format that carries them.

Every call gets a request id: the caller's ``x-request-id`` metadata when it sends a
usable one (up to 128 letters, digits and ``._:/+=@-``), else a new one (16 hex
digits). The id goes back to the caller in the call's initial metadata
(``x-request-id``), and every line logged while the call is handled carries it::

    2025-06-01 12:00:00,123 INFO numgrid.server.requests [4f1c2a9e0b7d3e58]: method=Solve ...

Lines logged outside a call show ``[-]``. The id lives in a context variable set by the
thread that handles the call (:func:`begin`, :func:`end`); :class:`RequestIdFilter`,
on the handler, puts it in each record as ``request_id``.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import re
import sys
import uuid
from collections.abc import Iterable

import grpc

HEADER = "x-request-id"
FORMAT = "%(asctime)s %(levelname)s %(name)s [%(request_id)s]: %(message)s"
_USABLE = re.compile(r"[\w.:/+=@-]{1,128}", re.ASCII)  # nothing that could forge a log field
_current: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "numgrid_request_id", default=None
)


def new_id() -> str:
    return uuid.uuid4().hex[:16]


def given_id(metadata: Iterable[tuple[str, str | bytes]] | None) -> str | None:
    """The caller's ``x-request-id``, if it sent a usable one."""
    for key, value in metadata or ():
        if key == HEADER and isinstance(value, str) and _USABLE.fullmatch(value):
            return value
    return None


def current() -> str | None:
    """The id of the call this thread is handling; None outside a call."""
    return _current.get()


def begin(context: grpc.ServicerContext) -> str:
    """Take the call's request id (given or new), make it this thread's, and send it
    back in the initial metadata; return it."""
    request_id = given_id(context.invocation_metadata()) or new_id()
    _current.set(request_id)
    with contextlib.suppress(grpc.RpcError, ValueError):  # the call has already ended
        context.send_initial_metadata(((HEADER, request_id),))
    return request_id


def end() -> None:
    """The call is over: lines this thread logs from now on belong to no call."""
    _current.set(None)


class RequestIdFilter(logging.Filter):
    """Set ``record.request_id``: the current call's id, or ``-`` outside a call."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = _current.get() or "-"
        return True


def configure(level: str) -> None:
    """Log to stderr in :data:`FORMAT`, every line with its request id."""
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(RequestIdFilter())
    logging.basicConfig(level=level, format=FORMAT, handlers=[handler])
