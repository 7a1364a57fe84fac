"""TLS and bearer tokens: who may talk to the server, and which methods they may call.

TLS comes from ``--tls-cert``/``--tls-key`` (and ``--tls-client-ca`` to require client
certificates). Tokens come from ``--tokens-file`` and the ``NUMGRID_TOKENS`` variable
(comma-separated, for secrets handed over as environment); a line of the file is a
token, optionally followed by the methods it may call::

    # token               methods (all when none are listed)
    publisher-7f3a9c      CheckUniqueness,BatchCheckUniqueness
    admin-1b2c3d

With tokens set, every call but the health check (which load balancers and Kubernetes
probes make without credentials) needs ``authorization: Bearer <token>`` metadata: none
or an unknown one is UNAUTHENTICATED, a known one outside its methods PERMISSION_DENIED.
"""

from __future__ import annotations

import hmac
import os
from collections.abc import Callable
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from typing import NoReturn
from typing import TypeAlias

import grpc
from grpc_health.v1 import health

TOKENS_VARIABLE = "NUMGRID_TOKENS"
OPEN_SERVICES = (health.SERVICE_NAME,)  # callable without a token


class SecurityError(OSError):
    """A TLS or token file that cannot be used; the message names the file."""


@dataclass(frozen=True)
class Grant:
    token: bytes
    methods: frozenset[str] | None  # None: every method


def _read(path: str, what: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as e:
        raise SecurityError(f"cannot read the {what} {path}: {e.strerror or e}") from None


def read_grants(tokens_file: str, environ: Mapping[str, str] = os.environ) -> tuple[Grant, ...]:
    """The tokens of ``tokens_file`` (if any) and of ``NUMGRID_TOKENS``."""
    grants = [
        Grant(token.strip().encode(), None)
        for token in environ.get(TOKENS_VARIABLE, "").split(",")
        if token.strip()
    ]
    if tokens_file:
        text = _read(tokens_file, "tokens file").decode("utf-8", "replace")
        for number, line in enumerate(text.splitlines(), 1):
            fields = line.split("#", 1)[0].split()
            if not fields:
                continue
            if len(fields) > 2:
                raise SecurityError(
                    f"{tokens_file} line {number}: a token and at most one list of methods"
                    " (comma-separated, no spaces)"
                )
            methods = frozenset(fields[1].split(",")) - {""} if len(fields) == 2 else None
            grants.append(Grant(fields[0].encode(), methods or None))
        if not grants:
            raise SecurityError(f"the tokens file {tokens_file} holds no token")
    return tuple(grants)


def server_credentials(cert: str, key: str, client_ca: str) -> grpc.ServerCredentials:
    pair = (_read(key, "TLS key"), _read(cert, "TLS certificate"))
    if not client_ca:
        return grpc.ssl_server_credentials([pair])
    return grpc.ssl_server_credentials(
        [pair], root_certificates=_read(client_ca, "client CA"), require_client_auth=True
    )


Handler: TypeAlias = "grpc.RpcMethodHandler[Any, Any]"  # generic in the stubs only
Metadata: TypeAlias = tuple[tuple[str, str | bytes], ...]


def denial(
    handler: Handler, code: grpc.StatusCode, message: str, log: Callable[[], None] = lambda: None
) -> Handler:
    """A handler of ``handler``'s shape that ends the call with ``code`` (after ``log``)."""

    def deny(_request: object, context: grpc.ServicerContext) -> NoReturn:
        log()
        context.abort(code, message)

    if handler.request_streaming and handler.response_streaming:
        return grpc.stream_stream_rpc_method_handler(deny)
    if handler.request_streaming:
        return grpc.stream_unary_rpc_method_handler(deny)
    if handler.response_streaming:
        return grpc.unary_stream_rpc_method_handler(deny)
    return grpc.unary_unary_rpc_method_handler(deny)


class TokenCheck(grpc.ServerInterceptor):
    """Let a call through only with a bearer token that may call its method."""

    def __init__(self, grants: tuple[Grant, ...]) -> None:
        self.grants = grants

    def _grant(self, metadata: Metadata | None) -> Grant | None:
        for key, value in metadata or ():
            if key == "authorization" and isinstance(value, str):
                scheme, _, token = value.partition(" ")
                if scheme.lower() != "bearer":
                    return None
                given = token.strip().encode()
                found = None
                for grant in self.grants:  # no early exit: the time says nothing
                    if hmac.compare_digest(grant.token, given):
                        found = grant
                return found
        return None

    def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Handler | None],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> Handler | None:
        handler = continuation(handler_call_details)
        service, _, method = handler_call_details.method.lstrip("/").partition("/")
        if handler is None or service in OPEN_SERVICES:
            return handler
        metadata = handler_call_details.invocation_metadata
        if not any(key == "authorization" for key, _ in metadata or ()):
            return denial(
                handler,
                grpc.StatusCode.UNAUTHENTICATED,
                "this server needs a token: send 'authorization: Bearer <token>' metadata",
            )
        grant = self._grant(metadata)
        if grant is None:
            return denial(handler, grpc.StatusCode.UNAUTHENTICATED, "unknown bearer token")
        if grant.methods is not None and method not in grant.methods:
            return denial(
                handler, grpc.StatusCode.PERMISSION_DENIED, f"this token may not call {method}"
            )
        return handler
