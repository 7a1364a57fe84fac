"""Channels to a numgrid server: plaintext, TLS (optionally with a client certificate),
and a bearer token on every call.

A token is sent only over TLS, or over a loopback connection (gRPC's *local*
credentials): never in clear text across a network.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
from grpc_health.v1 import health_pb2
from grpc_health.v1 import health_pb2_grpc


class CredentialsError(ValueError):
    """Credentials that cannot be used; the message names the file or the option."""


@dataclass(frozen=True)
class Credentials:
    """How to reach a server: ``tls`` on (with ``ca`` as the trusted root, the system's
    roots if None, and ``cert``/``key`` as this client's certificate), and ``token``."""

    tls: bool = False
    ca: str | None = None
    cert: str | None = None
    key: str | None = None
    token: str | None = None

    def __post_init__(self) -> None:
        if (self.cert is None) != (self.key is None):
            raise CredentialsError("a client certificate needs its key: give --cert and --key")
        if (self.ca or self.cert) and not self.tls:
            object.__setattr__(self, "tls", True)  # a CA or certificate means TLS


PLAINTEXT = Credentials()


def _read(path: str, what: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as e:
        raise CredentialsError(f"cannot read the {what} {path}: {e.strerror or e}") from None


def _loopback(target: str) -> bool:
    host = target.removeprefix("ipv4:").removeprefix("ipv6:").removeprefix("dns:///")
    if host.startswith("unix:"):
        return True
    host = host.rsplit(":", 1)[0].strip("[]") if ":" in host else host
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def channel_credentials(
    target: str, credentials: Credentials = PLAINTEXT
) -> grpc.ChannelCredentials | None:
    """The gRPC credentials of a channel to ``target`` (None: plaintext)."""
    if not credentials.tls and not credentials.token:
        return None
    if credentials.tls:
        result = grpc.ssl_channel_credentials(
            root_certificates=_read(credentials.ca, "CA file") if credentials.ca else None,
            private_key=_read(credentials.key, "key file") if credentials.key else None,
            certificate_chain=_read(credentials.cert, "certificate file")
            if credentials.cert
            else None,
        )
    elif all(_loopback(t) for t in target.split(",")):
        result = grpc.local_channel_credentials(grpc.LocalConnectionType.LOCAL_TCP)
    else:
        raise CredentialsError(
            f"a token is sent only over TLS or to a loopback address, not to {target}:"
            " add --tls (and --ca if the server's certificate is your own CA's)"
        )
    if credentials.token:
        result = grpc.composite_channel_credentials(
            result, grpc.access_token_call_credentials(credentials.token)
        )
    return result


def open_channel(target: str, options, credentials: Credentials = PLAINTEXT) -> grpc.Channel:
    """A channel to ``target`` with ``options`` and ``credentials``."""
    secure = channel_credentials(target, credentials)
    if secure is None:
        return grpc.insecure_channel(target, options=options)
    return grpc.secure_channel(target, secure, options=options)


def answers(channel: grpc.Channel, timeout: float) -> bool:
    """Whether a server answers on ``channel`` within ``timeout`` seconds: a health check
    that waits for the connection (any answer, a refusal too, is a server's). Not
    ``grpc.channel_ready_future``: the connectivity watch it leaves behind makes the
    channel's ``close()`` wait for up to 200 ms (every CLI command paid it)."""
    health: Any = health_pb2_grpc.HealthStub(channel)  # its stubs declare no methods
    try:
        health.Check(health_pb2.HealthCheckRequest(), timeout=timeout, wait_for_ready=True)
    except grpc.RpcError as error:
        return error.code() not in (grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.UNAVAILABLE)
    return True


def open_aio_channel(
    target: str, options, credentials: Credentials = PLAINTEXT
) -> grpc.aio.Channel:
    """The same channel for asyncio (``grpc.aio``); open it inside the event loop."""
    secure = channel_credentials(target, credentials)
    if secure is None:
        return grpc.aio.insecure_channel(target, options=options)
    return grpc.aio.secure_channel(target, secure, options=options)
