"""Graceful shutdown that keeps its promise: every call sent before SIGTERM is answered
(within the grace period), every call sent after it is refused.

gRPC Python cannot keep that promise alone. Its server takes calls from gRPC's core one
at a time, in one thread that needs the GIL; while searches keep the GIL busy, calls that
have arrived can wait in the core for a second or more before Python sees them, and
``server.stop(grace)`` cancels those at once (CANCELLED, before any handler ran, so
nothing logs them) while it lets the handlers already running finish.

So stopping has two steps. First the *intake* closes: a marker call is sent to the server
itself, over a Unix socket only this process knows, and with a secret only this process
knows. The core hands over calls that are not bound to a registered method in the order
they arrived (numgrid's methods are deliberately not registered, see
:func:`numgrid.server.service.add_to_server`), so by the time the marker is taken every
call that arrived before it has been taken too and will run; any call taken after it is
refused with UNAVAILABLE (a status clients may retry elsewhere). Then ``server.stop``
closes the listeners and gives the calls in hand the rest of the grace period.
"""

from __future__ import annotations

import hmac
import logging
import secrets
import shutil
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import grpc
from grpc_health.v1 import health
from numgrid.server.security import Handler
from numgrid.server.security import denial

request_log = logging.getLogger("numgrid.server.requests")
MARKER_METHOD = "/numgrid.internal.Shutdown/CloseIntake"
_SECRET_KEY = "numgrid-intake-secret"
SHUTTING_DOWN = "the server is shutting down: retry, on another server if there is one"


def _refusal(handler: Handler, method: str) -> Handler:
    def log() -> None:
        request_log.info("method=%s status=UNAVAILABLE (shutting down)", method)

    return denial(handler, grpc.StatusCode.UNAVAILABLE, SHUTTING_DOWN, log)


def _marked(_request: bytes, _context: grpc.ServicerContext) -> bytes:
    return b""


_MARKER_HANDLER: grpc.RpcMethodHandler[bytes, bytes] = grpc.unary_unary_rpc_method_handler(_marked)


class Intake(grpc.ServerInterceptor):
    """Lets calls in until the marker call is taken, and refuses them after.

    Interceptors run in the thread that takes calls from the core, in arrival order,
    which is what makes "before the marker" mean "arrived before the marker"."""

    def __init__(self) -> None:
        self.closed = threading.Event()
        self._secret = secrets.token_hex(16)
        self._directory = Path(tempfile.mkdtemp(prefix="numgrid-intake-"))  # mode 0700
        self.address = f"unix:{self._directory / 'intake.sock'}"

    def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Handler | None],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> Handler | None:
        if handler_call_details.method == MARKER_METHOD:
            given = dict(handler_call_details.invocation_metadata or ()).get(_SECRET_KEY, "")
            if isinstance(given, str) and hmac.compare_digest(given, self._secret):
                self.closed.set()
                return _MARKER_HANDLER
            return None  # UNIMPLEMENTED, like any unknown method
        handler = continuation(handler_call_details)
        if handler is None or not self.closed.is_set():
            return handler
        if handler_call_details.method.lstrip("/").startswith(health.SERVICE_NAME + "/"):
            return handler  # probes may still ask, and hear NOT_SERVING
        return _refusal(handler, handler_call_details.method.rpartition("/")[2])

    def close(self, timeout: float) -> float:
        """Close the intake (send the marker, wait until it is taken, at most
        ``timeout`` seconds); return the seconds it took."""
        start = time.monotonic()
        with grpc.insecure_channel(self.address) as channel:
            mark: grpc.UnaryUnaryMultiCallable[bytes, bytes] = channel.unary_unary(MARKER_METHOD)
            done = mark.future(b"", timeout=timeout, metadata=((_SECRET_KEY, self._secret),))
            self.closed.wait(timeout)
            done.cancel()
        return time.monotonic() - start

    def remove(self) -> None:
        shutil.rmtree(self._directory, ignore_errors=True)
