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
import os
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily
from prometheus_client.registry import Collector
from sqlalchemy import text

if TYPE_CHECKING:
    from meeple.server.hub import Hub

ADMIN_ENV = "MEEPLE_ADMIN_TOKEN"
"""When set, ``/metrics`` asks for ``Authorization: Bearer`` this token, and the operator's
endpoints (:mod:`meeple.server.admin`) are on, behind it."""

LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
GC_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)


def admin_token() -> str | None:
    """The admin token the server was started with (``$MEEPLE_ADMIN_TOKEN``), or ``None``.

    Read on every request, not once at start-up, so tests can set it per test."""
    return os.environ.get(ADMIN_ENV) or None


def bears_admin_token(request: Request, wanted: str) -> bool:
    """Whether ``request`` carries ``Authorization: Bearer <wanted>`` (compared in constant
    time, like every other key of the server)."""
    sent = request.headers.get("authorization", "").encode("utf-8", "surrogateescape")
    return hmac.compare_digest(sent, f"Bearer {wanted}".encode("utf-8", "surrogateescape"))


class GcPauses(Collector):
    """How long the cyclic garbage collector stopped the process, per generation.

    A collection stops the event loop and so delays every answer waiting behind it: the
    figure that explains a latency tail the CPU time does not (benchmarks/README.md). One
    ``gc.callbacks`` hook per process, shared by every app's registry (tests make many)."""

    _installed: GcPauses | None = None

    def __init__(self) -> None:
        self.buckets = [[0] * (len(GC_BUCKETS) + 1) for _ in range(3)]
        self.sums = [0.0, 0.0, 0.0]
        self.longest = [0.0, 0.0, 0.0]
        self._began = 0.0
        gc.callbacks.append(self._hook)

    @classmethod
    def process(cls) -> GcPauses:
        """The process's one collector (made, and hooked into ``gc``, on first use)."""
        if cls._installed is None:
            cls._installed = cls()
        return cls._installed

    def _hook(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
            return
        took, gen = time.perf_counter() - self._began, info["generation"]
        self.sums[gen] += took
        self.longest[gen] = max(self.longest[gen], took)
        row = self.buckets[gen]
        for i, bound in enumerate(GC_BUCKETS):
            if took <= bound:
                row[i] += 1
                break
        else:
            row[-1] += 1

    def collect(self) -> Iterator[HistogramMetricFamily | GaugeMetricFamily]:
        family = HistogramMetricFamily(
            "meeple_gc_pause_seconds",
            "Seconds the cyclic garbage collector stopped the process, by generation",
            labels=["generation"],
        )
        longest = GaugeMetricFamily(
            "meeple_gc_pause_max_seconds",
            "The longest stop of the cyclic garbage collector so far, by generation",
            labels=["generation"],
        )
        for gen in range(3):
            cumulative, total = [], 0
            for bound, n in zip((*GC_BUCKETS, "+Inf"), self.buckets[gen], strict=True):
                total += n
                cumulative.append((str(bound), total))
            family.add_metric([str(gen)], cumulative, self.sums[gen])
            longest.add_metric([str(gen)], self.longest[gen])
        yield family
        yield longest


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


def install(app: FastAPI, hub: Hub) -> Histogram:
    """Add ``/healthz`` and ``/metrics``; returns the action latency histogram to observe."""
    registry = CollectorRegistry()
    registry.register(HubCollector(hub))
    registry.register(GcPauses.process())
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
        ``Authorization: Bearer`` that token (401 otherwise)."""
        wanted = admin_token()
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
