"""What an operator watches (docs/SERVER.md, "Operating"): ``GET /healthz`` and ``GET
/metrics`` in Prometheus' text format, made with the standard client library.

Each app has a registry of its own (tests make many apps in one process). The figures of the
moment (games loaded, playing, sockets, limit hits) are read from the hub when scraped; the
actions committed and the latency from an action's request to its answer are counted as they
happen.
"""

from __future__ import annotations

import asyncio
import gc
import hmac
import ipaddress
import os
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector
from sqlalchemy import text

if TYPE_CHECKING:
    from meeple.server.hub import Hub

ADMIN_ENV = "MEEPLE_ADMIN_TOKEN"
"""When set, ``/metrics`` asks for ``Authorization: Bearer`` this token, and the operator's
endpoints (:mod:`meeple.server.admin`) are on, behind it. Unset, ``/metrics`` answers only a
server on loopback asked from loopback (:func:`metrics_need_token`)."""

LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
GC_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)


def admin_token() -> str | None:
    """The admin token the server was started with (``$MEEPLE_ADMIN_TOKEN``), or ``None``.

    Read on every request, not once at start-up, so tests can set it per test."""
    return os.environ.get(ADMIN_ENV) or None


def _loopback(host: str | None) -> bool:
    if host is None:
        return False
    if host.strip("[]").lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def metrics_need_token(listen: str, client: str | None = None) -> bool:
    """Whether ``/metrics`` needs the admin token on a server listening on ``listen``, asked
    by ``client`` (``None``: whoever asks): unless both are loopback.

    The figures say how busy the server is and which limits are hit, worth keeping from
    strangers; so without a token set, a server reachable beyond loopback answers ``403``
    (and ``meeple serve`` says so at start), while one on 127.0.0.1 still answers a scraper on
    the same machine. A client beyond loopback is asked for it even there: behind a proxy
    whose ``X-Forwarded-For`` is trusted, a visitor's request is no local scrape."""
    return not (_loopback(listen) and (client is None or _loopback(client)))


def bears_admin_token(request: Request, wanted: str) -> bool:
    """Whether ``request`` carries ``Authorization: Bearer <wanted>`` (compared in constant
    time, like every other key of the server)."""
    sent = request.headers.get("authorization", "").encode("utf-8", "surrogateescape")
    return hmac.compare_digest(sent, f"Bearer {wanted}".encode("utf-8", "surrogateescape"))


GC_PAUSES = Histogram(
    "meeple_gc_pause_seconds",
    "Seconds the cyclic garbage collector stopped the process, by generation",
    ["generation"],
    buckets=GC_BUCKETS,
    registry=None,
)
"""How long the collector stopped the process: a collection stops the event loop and so
delays every answer waiting behind it, the figure that explains a latency tail the CPU time
does not (benchmarks/README.md). One per process (``gc`` is), in every app's registry."""
GC_LONGEST = Gauge(
    "meeple_gc_pause_max_seconds",
    "The longest stop of the cyclic garbage collector so far, by generation",
    ["generation"],
    registry=None,
)
# Each generation's series made now, so every generation is listed from the start, and so the
# hook below never calls labels(): that takes the metric's lock and allocates under it, and a
# collection triggered there would run the hook into the same (non-reentrant) lock.
_GC_PAUSE_OF = [GC_PAUSES.labels(g) for g in "012"]
_GC_LONGEST_OF = [GC_LONGEST.labels(g) for g in "012"]
_gc_began = [0.0]  # when the collection under way began (perf_counter)
_gc_longest = [0.0, 0.0, 0.0]


def _time_gc(phase: str, info: dict[str, int]) -> None:
    """The ``gc.callbacks`` hook that times each collection (installed once per process)."""
    if phase == "start":
        _gc_began[0] = time.perf_counter()
        return
    took, gen = time.perf_counter() - _gc_began[0], info["generation"]
    _GC_PAUSE_OF[gen].observe(took)
    if took > _gc_longest[gen]:
        _gc_longest[gen] = took
        _GC_LONGEST_OF[gen].set(took)


class HubCollector(Collector):
    """The hub's figures of the moment, read when Prometheus scrapes."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    def collect(self) -> Iterator[GaugeMetricFamily | CounterMetricFamily]:
        hub = self.hub
        loaded = list(hub.games.values())
        yield GaugeMetricFamily("meeple_games_loaded", "Games in memory", value=len(loaded))
        yield GaugeMetricFamily(
            "meeple_games_playing", "Games whose table runs (in play)", value=len(hub.tasks)
        )
        yield GaugeMetricFamily(
            "meeple_bot_games_playing", "All-bot games playing now", value=len(hub.bot_games)
        )
        yield GaugeMetricFamily(
            "meeple_sockets", "WebSockets open", value=sum(len(g.subscribers) for g in loaded)
        )
        yield CounterMetricFamily(
            "meeple_actions", "Actions committed", value=hub.writer.actions_committed
        )
        hits = CounterMetricFamily(
            "meeple_limit_hits", "Requests refused by a limit", labels=["limit"]
        )
        for name, count in sorted(hub.limit_hits.items()):
            hits.add_metric([name], count)
        yield hits


def install(app: FastAPI, hub: Hub, listen: str = "127.0.0.1") -> Histogram:
    """Add ``/healthz`` and ``/metrics`` (for a server listening on ``listen``: see
    :func:`metrics_need_token`); returns the action latency histogram to observe."""
    registry = CollectorRegistry()
    registry.register(HubCollector(hub))
    if _time_gc not in gc.callbacks:
        gc.callbacks.append(_time_gc)
    registry.register(GC_PAUSES)
    registry.register(GC_LONGEST)
    latency = Histogram(
        "meeple_action_seconds",
        "Seconds from an action's request to its answer (applied and committed)",
        buckets=LATENCY_BUCKETS,
        registry=registry,
    )

    @app.get("/healthz", tags=["operating"])
    async def healthz() -> JSONResponse:
        """``200 {"status": "ok"}`` when the database answers, else ``503`` with the reason."""
        try:
            await asyncio.wait_for(asyncio.to_thread(_ping, hub), 5)
        except Exception as exc:
            reason = f"the database does not answer: {type(exc).__name__}"
            return JSONResponse({"status": "failing", "detail": reason}, status_code=503)
        return JSONResponse({"status": "ok", "games_loaded": len(hub.games)})

    @app.get("/metrics", tags=["operating"], response_class=Response)
    async def metrics(request: Request) -> Response:
        """Prometheus' text format. With ``$MEEPLE_ADMIN_TOKEN`` set, the request needs
        ``Authorization: Bearer`` that token (401 otherwise); without it, 403 unless the
        server listens on loopback and is asked from loopback."""
        wanted = admin_token()
        client = request.client.host if request.client else None
        if wanted is None and metrics_need_token(listen, client):
            return JSONResponse(
                {
                    "detail": "the metrics of a server reachable beyond loopback need the admin "
                    "token: the operator sets MEEPLE_ADMIN_TOKEN"
                },
                status_code=403,
            )
        if wanted is not None and not bears_admin_token(request, wanted):
            return JSONResponse(
                {"detail": "the metrics need the admin token (Authorization: Bearer ...)"},
                status_code=401,
                headers={"WWW-Authenticate": "Bearer"},
            )
        return Response(generate_latest(registry), media_type=CONTENT_TYPE_LATEST)

    return latency


def _ping(hub: Hub) -> None:
    with hub.storage.engine.connect() as c:
        c.execute(text("SELECT 1"))
