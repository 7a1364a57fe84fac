"""The server's Prometheus metrics: every metric is defined here, and what it counts.

``numgrid-server --metrics-port 9464`` (env ``NUMGRID_METRICS_PORT``; 0, the default,
serves none) serves them at ``http://HOST:9464/metrics`` in Prometheus' text format:

- ``numgrid_requests_total{method,code,kind}``: calls answered, by gRPC method, status
  code (``OK``, ``INVALID_ARGUMENT``, ...) and puzzle kind;
- ``numgrid_request_duration_seconds{method,kind}``: how long calls took (histogram);
- ``numgrid_requests_in_flight{method}``: calls being handled now;
- ``numgrid_requests_shed_total{method}``: calls refused at once with
  RESOURCE_EXHAUSTED because the server was full (:mod:`.admission`, and batch streams
  beyond their bound);
- ``numgrid_engine_seconds{engine,kind}``: each engine's search time (histogram; one
  observation per engine per search, batch puzzles included);
- ``numgrid_batch_puzzles_total{kind,verdict}``: puzzles BatchCheckUniqueness checked
  (``UNIQUE``, ``MULTIPLE``, ``NO_SOLUTION``, ``TIMEOUT``, or ``REJECTED``/``FAILED``);
- the process' own (``process_*``: CPU, memory, open files) and ``python_info``.

``kind`` is the puzzle's kind (its name in the registry, :data:`numgrid.server.kinds.KINDS`),
``unknown`` when the puzzle was not read (a bad request, a call shed), and for a batch
call the kind of all its puzzles, or ``mixed``.

They live in :data:`REGISTRY`, not in prometheus_client's global registry. Batch worker
processes record nothing: the server's process counts their results as they arrive.
"""

from __future__ import annotations

from collections.abc import Iterable
from wsgiref.simple_server import WSGIServer

from numgrid.v1 import numgrid_service_pb2 as service_pb2
from numgrid.v1 import puzzle_pb2
from prometheus_client import CollectorRegistry
from prometheus_client import Counter
from prometheus_client import Gauge
from prometheus_client import Histogram
from prometheus_client import PlatformCollector
from prometheus_client import ProcessCollector
from prometheus_client import disable_created_metrics
from prometheus_client import start_http_server

REGISTRY = CollectorRegistry()
ProcessCollector(registry=REGISTRY)
PlatformCollector(registry=REGISTRY)

UNKNOWN = "unknown"  # the kind of a puzzle that was not read
MIXED = "mixed"  # the kind of a batch call with puzzles of several kinds
# Seconds, 1 ms to a minute (the default time cap is 30 s).
BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60)

REQUESTS = Counter(
    "numgrid_requests",
    "Calls answered, by method, status code and puzzle kind.",
    ("method", "code", "kind"),
    registry=REGISTRY,
)
DURATION = Histogram(
    "numgrid_request_duration_seconds",
    "How long calls took, by method and puzzle kind.",
    ("method", "kind"),
    buckets=BUCKETS,
    registry=REGISTRY,
)
IN_FLIGHT = Gauge(
    "numgrid_requests_in_flight",
    "Calls being handled now, by method.",
    ("method",),
    registry=REGISTRY,
)
SHED = Counter(
    "numgrid_requests_shed",
    "Calls refused at once with RESOURCE_EXHAUSTED because the server was full.",
    ("method",),
    registry=REGISTRY,
)
ENGINE_SECONDS = Histogram(
    "numgrid_engine_seconds",
    "Search time of each engine that ran, per search, by engine and puzzle kind.",
    ("engine", "kind"),
    buckets=BUCKETS,
    registry=REGISTRY,
)
BATCH_PUZZLES = Counter(
    "numgrid_batch_puzzles",
    "Puzzles checked by BatchCheckUniqueness, by kind and verdict (REJECTED, FAILED).",
    ("kind", "verdict"),
    registry=REGISTRY,
)

# What a batch worker tells the server's process about each puzzle: its kind, its
# verdict, and each engine's (name, seconds).
Note = tuple[str, str, tuple[tuple[str, float], ...]]


def engine_name(value: int) -> str:
    """``native``, ``cpsat``, ... for a ``numgrid.v1.Engine``."""
    return puzzle_pb2.Engine.Name(value).removeprefix("ENGINE_").lower()


def verdict_name(value: int) -> str:
    """``UNIQUE``, ``MULTIPLE``, ... for a ``numgrid.v1.Verdict``; ``-`` when not set."""
    if value == puzzle_pb2.VERDICT_UNSPECIFIED:
        return "-"
    return puzzle_pb2.Verdict.Name(value).removeprefix("VERDICT_")


def engines(stats: Iterable[puzzle_pb2.EngineStats]) -> tuple[tuple[str, float], ...]:
    return tuple((engine_name(s.engine), s.elapsed.ToNanoseconds() / 1e9) for s in stats)


def observe_engines(kind: str, spent: Iterable[tuple[str, float]]) -> None:
    for engine, seconds in spent:
        ENGINE_SECONDS.labels(engine, kind).observe(seconds)


def observe_call(method: str, code: str, kind: str, seconds: float) -> None:
    """One call answered with status ``code`` after ``seconds``."""
    REQUESTS.labels(method, code, kind).inc()
    DURATION.labels(method, kind).observe(seconds)
    # The servicer ends a call RESOURCE_EXHAUSTED only when it has no room for it.
    if code == "RESOURCE_EXHAUSTED":
        SHED.labels(method).inc()


def puzzle_note(result: service_pb2.BatchPuzzleResult, kind: str) -> Note:
    """What :func:`observe_puzzle` needs of one batch result (``kind``: the puzzle's)."""
    outcome = result.WhichOneof("outcome")
    if outcome == "result":
        return kind, verdict_name(result.result.verdict), engines(result.result.stats)
    return kind, "REJECTED" if outcome == "rejection" else "FAILED", ()


def observe_puzzle(note: Note) -> None:
    kind, verdict, spent = note
    BATCH_PUZZLES.labels(kind, verdict).inc()
    observe_engines(kind, spent)


def serve(host: str, port: int) -> WSGIServer:
    """Serve :data:`REGISTRY` over HTTP on ``host:port`` (in a daemon thread); return
    the HTTP server (``.shutdown()`` stops it). OSError when it cannot listen."""
    disable_created_metrics()  # no ``*_created`` series beside every counter (this process)
    server, _thread = start_http_server(port, addr=host, registry=REGISTRY)
    return server
