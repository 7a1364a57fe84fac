"""``numgrid-server``: the service with gRPC health and reflection, and graceful shutdown.

:func:`start_embedded` runs the same server in-process on a free loopback port, quietly:
the CLI uses it when no ``--server`` is given.
"""

from __future__ import annotations

import logging
import signal
import sys
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection
from numgrid.server import config as config_module
from numgrid.server.config import ServerConfig
from numgrid.server.service import NumgridServicer, add_to_server
from numgrid.v1 import numgrid_service_pb2

SERVICE_NAME = numgrid_service_pb2.DESCRIPTOR.services_by_name["NumgridService"].full_name

log = logging.getLogger("numgrid.server")
MIN_PING_INTERVAL_MS = 4000  # the most often a client may ping while no data flows


def build_server(
    config: ServerConfig, *, log_requests: bool = True, reuseport: bool = False
) -> tuple[grpc.Server, int, health.HealthServicer]:
    """The server (not started), the port it is bound to, and its health servicer.
    ``reuseport``: share the port with other processes (SO_REUSEPORT; benchmarks only)."""
    options = [
        ("grpc.max_send_message_length", config.max_message_bytes),
        ("grpc.max_receive_message_length", config.max_message_bytes),
        # A port in use is an error, not a silent second listener.
        ("grpc.so_reuseport", int(reuseport)),
        # Batch clients ping every 20 s to notice a frozen server; accept that (gRPC's
        # default, one ping in 5 minutes without data, would end their calls).
        ("grpc.http2.min_ping_interval_without_data_ms", MIN_PING_INTERVAL_MS),
    ]
    executor = ThreadPoolExecutor(max_workers=config.threads, thread_name_prefix="numgrid-rpc")
    server = grpc.server(executor, options=options)
    add_to_server(NumgridServicer(config, log_requests=log_requests), server)
    health_servicer = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    for name in ("", SERVICE_NAME):
        health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    reflection.enable_server_reflection(
        (SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME), server
    )
    try:
        port = server.add_insecure_port(config.address)
    except RuntimeError as e:  # grpcio raises when it cannot bind
        raise OSError(f"cannot listen on {config.address}: {e}") from e
    if port == 0:
        raise OSError(f"cannot listen on {config.address}")
    return server, port, health_servicer


@dataclass
class Embedded:
    """An in-process server on loopback; ``target`` is what a channel dials."""

    server: grpc.Server
    port: int
    health: health.HealthServicer

    @property
    def target(self) -> str:
        return f"127.0.0.1:{self.port}"

    def stop(self, grace: float | None = None) -> None:
        self.health.enter_graceful_shutdown()
        self.server.stop(grace).wait()

    def __enter__(self) -> Embedded:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def start_embedded(config: ServerConfig | None = None) -> Embedded:
    """Start the server in this process on 127.0.0.1 and a free port; logs nothing."""
    config = replace(config or ServerConfig(), host="127.0.0.1", port=0)
    server, port, health_servicer = build_server(config, log_requests=False)
    server.start()
    return Embedded(server, port, health_servicer)


def main(argv: Sequence[str] | None = None) -> int:
    config = config_module.from_args(argv)
    logging.basicConfig(
        level=config.log_level,
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    # A long-running server loads OR-Tools now, not inside the first CP-SAT request's
    # deadline (the CLI's embedded server keeps it lazy: most calls never need it).
    import numgrid.server.cpsat_runner  # noqa: F401

    try:
        server, port, health_servicer = build_server(config)
    except OSError as e:
        print(f"numgrid-server: {e}", file=sys.stderr)
        return 1
    stopping = threading.Event()

    def on_signal(signum, _frame) -> None:
        if stopping.is_set():  # a second signal: stop now
            server.stop(0)
        stopping.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    server.start()
    address = replace(config, port=port).address
    print(f"numgrid-server listening on {address}", flush=True)
    log.info(
        "serving on %s (threads=%d workers=%d max_cells=%d time_cap=%gs grace=%gs)",
        address,
        config.threads,
        config.workers,
        config.max_cells,
        config.time_cap_seconds,
        config.grace_seconds,
    )
    while not stopping.wait(1.0):
        pass
    log.info("shutting down: in-flight calls get up to %gs", config.grace_seconds)
    health_servicer.enter_graceful_shutdown()
    server.stop(config.grace_seconds).wait()
    log.info("stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
