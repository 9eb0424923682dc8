"""The web server: the JSON API, a WebSocket per seat or spectator, and the browser app.

See docs/SERVER.md for the API reference, the durability guarantees and the security model.
:func:`create_app` assembles the app from its parts: the routers by resource
(:mod:`meeple.server.routes`, and the pages, history, host, admin and metrics modules), the
middleware that checks every request, and the hub (and cluster) that serve them.
"""

from __future__ import annotations

import functools
import os
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from meeple.server import admin, history, host, metrics, pages
from meeple.server.feeds import local_feed
from meeple.server.hub import AWAY_TIMER, Hub, HubError, Lifecycle
from meeple.server.intake import (
    BODY_LIMIT,
    CheckedInput,
    HeadAsGet,
    InternalErrors,
    invalid_request,
)
from meeple.server.limits import Limits
from meeple.server.routes import chat, games, play, seats, sockets
from meeple.server.routes.docs import DOCS_ASSETS, install_docs
from meeple.server.routes.games import LOG_PAGE_MAX
from meeple.server.routes.params import ERRORS, SEAT_BEARER, GameIdPath, SeatToken, seat_token
from meeple.server.routes.sockets import (
    WS_POLICY_VIOLATION,
    WS_SERVICE_RESTART,
    ClientMessage,
)
from meeple.server.security import (
    AllowedHosts,
    AllowedOrigins,
    Guard,
    resolve_hosts,
    resolve_hsts,
    resolve_origins,
)
from meeple.server.storage import DEFAULT_DATABASE_URL, Storage

if TYPE_CHECKING:
    from meeple.server.cluster import Cluster

__all__ = [  # the names other modules and the tests take from here
    "BODY_LIMIT",
    "DOCS_ASSETS",
    "ERRORS",
    "LOG_PAGE_MAX",
    "SEAT_BEARER",
    "WS_POLICY_VIOLATION",
    "WS_SERVICE_RESTART",
    "ClientMessage",
    "GameIdPath",
    "SeatToken",
    "create_app",
    "install_docs",
    "resolve_database_url",
    "seat_token",
]


def resolve_database_url(url: str | None = None) -> str:
    """``url``, else ``MEEPLE_DATABASE_URL``, else a SQLite file in the current directory."""
    return url or os.environ.get("MEEPLE_DATABASE_URL") or DEFAULT_DATABASE_URL


def create_app(
    database_url: str | None = None,
    bot_pace: float = 0.5,
    *,
    schema: str | None = None,
    allowed_hosts: Sequence[str] | None = None,
    allowed_origins: Sequence[str] | None = None,
    lifecycle: Lifecycle | None = None,
    limits: Limits | None = None,
    redis_url: str | None = None,
    lease_seconds: float | None = None,
    listen: str = "127.0.0.1",
    hsts: bool | None = None,
    away_timer: float | None = AWAY_TIMER,
) -> FastAPI:
    """The server app over the database at ``database_url`` (see :func:`resolve_database_url`).

    ``bot_pace`` is the pause in seconds before each bot move; ``schema`` puts the tables in a
    PostgreSQL schema (tests). ``allowed_hosts`` are the ``Host`` values served (default:
    ``$MEEPLE_ALLOWED_HOSTS``, else the loopback names at any port) and ``allowed_origins`` the
    origins besides the server's own that may change state (default:
    ``$MEEPLE_ALLOWED_ORIGINS``): see :mod:`meeple.server.security`. ``ValueError`` for a
    malformed one. ``lifecycle`` says how long games are kept and how many all-bot games play
    at once (:class:`meeple.server.hub.Lifecycle`); ``limits`` what one client, game and socket
    may ask for (:class:`meeple.server.limits.Limits`). ``redis_url`` (default:
    ``$MEEPLE_REDIS_URL``) makes this process one of several over the same database, each game
    in play held by one of them (:mod:`meeple.server.cluster`); ``lease_seconds`` is how long
    a game waits for a process that died. ``listen`` is the address the server listens on:
    beyond loopback, ``/metrics`` needs the admin token (:mod:`meeple.server.metrics`).
    ``hsts`` (default: ``$MEEPLE_HSTS``) puts ``Strict-Transport-Security`` on every answer.
    ``away_timer`` is how long a decision waits on a
    person who is away before the standard bot plays their seat (``None``: never).
    """
    hosts = AllowedHosts(resolve_hosts(allowed_hosts))
    origins = AllowedOrigins(resolve_origins(allowed_origins))
    storage = Storage(resolve_database_url(database_url), schema=schema)
    hub = Hub(storage, bot_pace, lifecycle, limits, away_timer)
    cluster = _cluster(hub, redis_url, lease_seconds)
    app = FastAPI(
        title="meeple",
        summary="Play the Monopoly family and Monopolis over HTTP and WebSocket.",
        version="1",
        lifespan=_lifespan(hub, cluster, storage),
        docs_url=None,  # served by install_docs from files that ship with fastapi-offline, no CDN
        redoc_url=None,
    )
    app.state.hub = hub
    # How a socket opens its game's feed (meeple.server.routes.sockets.OpenFeed).
    app.state.open_feed = (
        functools.partial(local_feed, hub) if cluster is None else cluster.open_feed
    )
    _add_middleware(app, cluster, hosts, origins, hsts)
    app.exception_handler(RequestValidationError)(invalid_request)
    app.exception_handler(HubError)(hub_error)
    _add_routes(app, hub, listen)
    return app


def _cluster(hub: Hub, redis_url: str | None, lease_seconds: float | None) -> Cluster | None:
    """The cluster this process joins over ``redis_url`` (default: ``$MEEPLE_REDIS_URL``), or
    ``None`` when it serves the database alone."""
    redis_url = redis_url or os.environ.get("MEEPLE_REDIS_URL") or None
    if redis_url is None:
        return None
    from meeple.server.cluster import LEASE_SECONDS, Cluster

    return Cluster(hub, redis_url, lease_seconds or LEASE_SECONDS)


def _lifespan(
    hub: Hub, cluster: Cluster | None, storage: Storage
) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """The app's lifespan: the hub (and cluster) started, and stopped in the order that keeps
    every commit safe."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        if cluster is not None:
            await cluster.start()
        try:
            yield
        finally:
            await hub.stop()  # first: no table may commit once the leases are given up
            if cluster is not None:
                await cluster.stop()
            storage.close()

    return lifespan


def _add_middleware(
    app: FastAPI,
    cluster: Cluster | None,
    hosts: AllowedHosts,
    origins: AllowedOrigins,
    hsts: bool | None,
) -> None:
    """The checks around every request, the last added running first."""
    if cluster is not None:
        from meeple.server.cluster import ClusterRoutes

        cluster.fastapi = app
        app.add_middleware(ClusterRoutes, cluster=cluster)  # under the checks: runs last
    app.add_middleware(HeadAsGet)
    app.add_middleware(CheckedInput, limit=BODY_LIMIT)
    app.add_middleware(Guard, hosts=hosts, origins=origins, hsts=resolve_hsts(hsts))
    app.add_middleware(InternalErrors)  # added last: runs first, around everything else


async def hub_error(request: Request, exc: HubError) -> JSONResponse:
    """A :class:`HubError` as its status and ``{"detail", "state_id"?}``."""
    body: dict[str, Any] = {"detail": exc.detail}
    if exc.state_id is not None:
        body["state_id"] = exc.state_id
    return JSONResponse(body, status_code=exc.status)


def _add_routes(app: FastAPI, hub: Hub, listen: str) -> None:
    """Every route: the pages', the end of a game's, the operator's, the host's, the docs,
    then the API's by resource."""
    pages.install(app)  # the lobby, the game page and their static files
    history.install(app)  # the end of a game: its history, replay, save file and rematch
    app.state.latency = metrics.install(app, hub, listen)  # /healthz and /metrics, for the operator
    admin.install(app)  # /api/admin/: list, inspect, cancel and purge games (admin token)
    host.install(app)  # the host's: a seat's new token, the chat's moderation
    install_docs(app)
    for router in (games.router, seats.router, play.router, chat.router, sockets.router):
        app.include_router(router)
