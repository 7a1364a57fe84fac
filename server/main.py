"""``numgrid-server``: the service with gRPC health and reflection, and graceful shutdown.

:func:`start_embedded` runs the same server in-process on a free loopback port, quietly;
the CLI starts it through :func:`embedded_for` (its time cap the CLI's ``--timeout``)
when no ``--server`` is given.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from dataclasses import replace
from types import FrameType
from wsgiref.simple_server import WSGIServer

import grpc
from grpc_health.v1 import health
from grpc_health.v1 import health_pb2
from grpc_health.v1 import health_pb2_grpc
from grpc_reflection.v1alpha import reflection
from numgrid.server import admission
from numgrid.server import config as config_module
from numgrid.server import kinds
from numgrid.server import launch
from numgrid.server import logs
from numgrid.server import metrics
from numgrid.server import security
from numgrid.server import shutdown
from numgrid.server.config import ServerConfig
from numgrid.server.service import NumgridServicer
from numgrid.server.service import add_to_server
from numgrid.v1 import numgrid_service_pb2

SERVICE_NAME = numgrid_service_pb2.DESCRIPTOR.services_by_name["NumgridService"].full_name

log = logging.getLogger("numgrid.server")
MIN_PING_INTERVAL_MS = 4000  # the most often a client may ping while no data flows
SWITCH_INTERVAL = 0.001  # seconds a thread may hold the GIL while others wait
STOP_MARGIN = 2.0  # seconds past the grace before a stop stops waiting for handlers
# How often the main thread wakes: a signal taken by another thread has its handler run
# only then.
POLL_SECONDS = 0.1
# An embedded server's longest time cap: a month, as a client's longest deadline.
LONGEST_CAP = 30 * 24 * 3600.0


@dataclass
class Built:
    """A server (not started), the port it is bound to, and what stopping it needs."""

    server: grpc.Server
    port: int
    health: health.HealthServicer
    servicer: NumgridServicer
    executor: ThreadPoolExecutor
    intake: shutdown.Intake
    tokens: int  # bearer tokens known; 0: calls need none

    def stop(self, grace: float | None) -> None:
        """Refuse calls sent from now on (health NOT_SERVING, then the intake closes:
        see :mod:`~numgrid.server.shutdown`), give those in hand what is left of
        ``grace`` seconds, cancel the rest, and wait for every handler to return, so
        that each call is answered and logged before the process ends."""
        self.health.enter_graceful_shutdown()
        if grace:
            took = self.intake.close(grace)
            log.info("intake closed in %.3fs", took)
            grace = max(0.0, grace - took)
        self.server.stop(grace).wait()
        self.executor.shutdown(wait=True)
        self.intake.remove()


def _ms(seconds: float) -> int:
    """Seconds as the milliseconds of a gRPC option (an int32: at most about 24 days)."""
    return min(round(seconds * 1000), 2**31 - 1)


def build_server(
    config: ServerConfig, *, log_requests: bool = True, reuseport: bool = False
) -> Built:
    """The server, bound but not started. ``reuseport``: share the port with other
    processes (SO_REUSEPORT; benchmarks only). Raises OSError when it cannot listen or
    read its TLS or token files."""
    options = [
        ("grpc.max_send_message_length", config.max_message_bytes),
        ("grpc.max_receive_message_length", config.max_message_bytes),
        # A port in use is an error, not a silent second listener.
        ("grpc.so_reuseport", int(reuseport)),
        # Batch clients ping every 20 s to notice a frozen server; accept that (gRPC's
        # default, one ping in 5 minutes without data, would end their calls).
        ("grpc.http2.min_ping_interval_without_data_ms", MIN_PING_INTERVAL_MS),
    ]
    if config.max_connection_age_seconds:
        # Clients reconnect (and re-resolve) now and then, so that new replicas get calls.
        options.append(("grpc.max_connection_age_ms", _ms(config.max_connection_age_seconds)))
        if config.max_connection_age_grace_seconds:
            grace = _ms(config.max_connection_age_grace_seconds)
            options.append(("grpc.max_connection_age_grace_ms", grace))
    servicer = NumgridServicer(config, log_requests=log_requests)
    # A thread for every call admitted, and gRPC refuses the rest at the door: no call
    # ever waits in the pool's queue, where shutdown would cancel it (see admission).
    threads = admission.thread_count(config.threads, config.max_queued, servicer.batch_streams)
    executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="numgrid-rpc")
    grants = security.read_grants(config.tokens_file)
    intake = shutdown.Intake()
    per_client = config.client_streams or max(1, servicer.batch_streams // 2)
    guard = admission.StreamGuard(config.stream_idle_seconds, per_client)
    interceptors: list[grpc.ServerInterceptor] = [intake, guard]
    if grants:
        interceptors.append(security.TokenCheck(grants))
    server = grpc.server(
        executor, options=options, interceptors=interceptors, maximum_concurrent_rpcs=threads
    )
    add_to_server(servicer, server)
    health_servicer = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    for name in ("", SERVICE_NAME):
        health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)

    def broken(reason: str) -> None:
        log.critical("the server's code is broken (%s): health says NOT_SERVING", reason)
        for name in ("", SERVICE_NAME):
            health_servicer.set(name, health_pb2.HealthCheckResponse.NOT_SERVING)

    servicer.broken = broken
    reflection.enable_server_reflection(
        (SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME), server
    )
    try:
        if config.tls_cert:
            credentials = security.server_credentials(
                config.tls_cert, config.tls_key, config.tls_client_ca
            )
            port = server.add_secure_port(config.address, credentials)
        else:
            port = server.add_insecure_port(config.address)
    except RuntimeError as e:  # grpcio raises when it cannot bind
        raise OSError(f"cannot listen on {config.address}: {e}") from e
    if port == 0:
        raise OSError(f"cannot listen on {config.address}")
    server.add_insecure_port(intake.address)
    return Built(server, port, health_servicer, servicer, executor, intake, len(grants))


@dataclass
class Embedded:
    """An in-process server on loopback; ``target`` is what a channel dials."""

    built: Built

    @property
    def port(self) -> int:
        return self.built.port

    @property
    def target(self) -> str:
        return f"127.0.0.1:{self.port}"

    def stop(self, grace: float | None = None) -> None:
        self.built.stop(grace)

    def __enter__(self) -> Embedded:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def start_embedded(config: ServerConfig | None = None) -> Embedded:
    """Start the server in this process on 127.0.0.1 and a free port; logs nothing."""
    config = replace(config or ServerConfig(), host="127.0.0.1", port=0)
    built = build_server(config, log_requests=False)
    built.server.start()
    return Embedded(built)


def embedded_for(time_limit: float | None) -> Embedded:
    """The CLI's embedded server: its time cap the caller's own time limit
    (``--timeout``) when one is given. A shared server's cap guards it from any one
    client; this one serves its own process only, so the search runs as long as the user
    asks, and it is the server that stops it, with its sentence, before the call's
    deadline (set past the limit by the CLI) ends the call without one."""
    config = ServerConfig()
    if time_limit is not None:
        config = replace(config, time_cap_seconds=min(time_limit, LONGEST_CAP))
    return start_embedded(config)


def start_metrics(config: ServerConfig) -> WSGIServer | None:
    """Serve the metrics on ``--metrics-port`` (None when 0); OSError if it cannot."""
    if not config.metrics_port:
        return None
    host = config.metrics_host
    try:
        server = metrics.serve(host, config.metrics_port)
    except OSError as e:
        raise OSError(f"cannot serve metrics on {host}:{config.metrics_port}: {e}") from e
    shown = f"[{host}]" if ":" in host else host
    log.info("metrics on http://%s:%d/metrics", shown, config.metrics_port)
    return server


def main(argv: Sequence[str] | None = None) -> int:
    config = config_module.from_args(argv)
    launch.bound_malloc()  # before any RPC thread allocates
    logs.configure(config.log_level)  # every line logged in a call carries its request id
    # A long-running server loads OR-Tools and every kind's CP-SAT model now (the CLI's
    # embedded server keeps them lazy: most calls never need them).
    import numgrid.server.cpsat_runner  # noqa: F401

    kinds.load_engines()

    # Searches hold the GIL; the thread that takes calls from gRPC's core needs it for
    # every call. At Python's default 5 ms a turn, with 8 searches running it waited
    # 0.1-0.3 s per call (2.4 s to take 20); at 1 ms, 0.2 s for 20, at no cost in
    # throughput measured (tests/test_shutdown.py has the scenario).
    sys.setswitchinterval(SWITCH_INTERVAL)

    try:
        built = build_server(config)
        metrics_server = start_metrics(config)
    except OSError as e:
        print(f"numgrid-server: {e}", file=sys.stderr)
        return 1
    # The signals received. A handler runs in the main thread between two of its steps,
    # maybe while that thread holds a lock: it appends to a list, and sets no Event.
    signals: list[int] = []

    def on_signal(signum: int, _frame: FrameType | None) -> None:
        signals.append(signum)
        if len(signals) > 1:  # a second signal: stop now (the main thread holds none of
            built.server.stop(0)  # these locks once it is waiting for the stopper)
            built.intake.closed.set()  # no need to wait for the marker any more

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    built.server.start()
    address = replace(config, port=built.port).address
    print(f"numgrid-server listening on {address}", flush=True)
    log.info(
        "serving on %s (%s, %s; threads=%d max_queued=%d workers=%d max_cells=%d"
        " time_cap=%gs grace=%gs)",
        address,
        "TLS with client certificates"
        if config.tls_client_ca
        else "TLS"
        if config.tls_cert
        else "plaintext",
        "bearer tokens" if built.tokens else "no tokens",
        config.threads,
        config.max_queued,
        config.workers,
        config.max_cells,
        config.time_cap_seconds,
        config.grace_seconds,
    )
    while not signals:
        time.sleep(POLL_SECONDS)
    log.info("shutting down: in-flight calls get up to %gs", config.grace_seconds)
    # A handler that never returns (a search that stopped checking its budget) must not
    # keep the process alive: past the grace and a margin, it ends without waiting.
    stopper = threading.Thread(target=built.stop, args=(config.grace_seconds,), daemon=True)
    stopper.start()
    give_up = time.monotonic() + config.grace_seconds + STOP_MARGIN
    while stopper.is_alive() and time.monotonic() < give_up:
        stopper.join(POLL_SECONDS)
    if stopper.is_alive():
        log.error("calls still running %gs after the grace: stopping without them", STOP_MARGIN)
        logging.shutdown()
        os._exit(1)  # the executor's threads would be joined at exit, for ever
    if metrics_server is not None:  # scraped until the last call is counted
        metrics_server.shutdown()
    log.info("stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
