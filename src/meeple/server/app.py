"""The web server: the JSON API, a WebSocket per seat or spectator, and the browser app.

See docs/SERVER.md for the API reference, the durability guarantees and the security model.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Annotated, Any, Literal, NamedTuple

from fastapi import Depends, FastAPI, HTTPException, Path, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from starlette.types import Message
from starlette.websockets import WebSocketDisconnect

from meeple.kernel.asking import AskSettings
from meeple.server import admin, history, host, metrics, pages, wire
from meeple.server.feeds import Feed, local_feed
from meeple.server.hub import AWAY_TIMER, Hub, HubError, Lifecycle
from meeple.server.intake import (
    BODY_LIMIT,
    CheckedInput,
    HeadAsGet,
    InternalErrors,
    invalid_request,
)
from meeple.server.limits import Limits, Window, client_of
from meeple.server.schemas import (
    MAX_REF,
    MAX_TOKEN,
    Applied,
    Chat,
    ChatMessage,
    Created,
    CreateGame,
    ErrorBody,
    GameLog,
    GameSummary,
    Hint,
    HostKey,
    Joined,
    PostAction,
    PostChat,
    PostHint,
    PostHold,
    PostJoin,
    PostProxy,
    PostStandIn,
    PostWhy,
    PublicGame,
    PutAsk,
    SeatState,
    SeatView,
    SocketAct,
    Why,
)
from meeple.server.security import (
    AllowedHosts,
    AllowedOrigins,
    Guard,
    content_security_policy,
    resolve_hosts,
    resolve_hsts,
    resolve_origins,
    script_hash,
)
from meeple.server.storage import DEFAULT_DATABASE_URL, Storage
from meeple.server.wire import dumps, join_objects, text_of

WS_POLICY_VIOLATION = 1008
WS_SERVICE_RESTART = 1012  # the game moved to another process: reconnect

LOG_PAGE_MAX = 1000
"""The most actions one page of a game's log covers."""

GameIdPath = Annotated[str, Path(min_length=1, max_length=32)]

SEAT_BEARER = HTTPBearer(
    auto_error=False,
    scheme_name="seat token",
    description="A seat's token as `Authorization: Bearer TOKEN`: a header is in no URL, so "
    "in no access log and no `Referer`.",
)


async def seat_token(
    bearer: Annotated[HTTPAuthorizationCredentials | None, Depends(SEAT_BEARER)],
    token: Annotated[
        str | None,
        Query(
            min_length=1,
            max_length=MAX_TOKEN,
            deprecated=True,
            description="The seat's token, for clients older than the `Authorization` header "
            "(a URL ends up in logs: prefer the header).",
        ),
    ] = None,
) -> str:
    """A GET request's seat token: ``Authorization: Bearer TOKEN``, else ``?token=``."""
    if bearer is not None:
        return bearer.credentials[: MAX_TOKEN + 1]  # longer is no token: 403
    if token is not None:
        return token
    raise HTTPException(
        401,
        "a seat's token is needed: send it as 'Authorization: Bearer TOKEN'",
        headers={"WWW-Authenticate": "Bearer"},
    )


SeatToken = Annotated[str, Depends(seat_token)]


def resolve_database_url(url: str | None = None) -> str:
    """``url``, else ``MEEPLE_DATABASE_URL``, else a SQLite file in the current directory."""
    return url or os.environ.get("MEEPLE_DATABASE_URL") or DEFAULT_DATABASE_URL


DOCS_ASSETS = "/docs-assets"
"""Where Swagger UI's files are served from (the copy the fastapi-offline package ships)."""


def install_docs(app: FastAPI) -> None:
    """The API docs at ``/docs`` (Swagger UI), FastAPI's self-hosting recipe with files that
    ship with a package: nothing is fetched from a CDN. Swagger UI's page has one inline
    script; its answer's Content-Security-Policy allows that script by its hash. No ``/redoc``:
    ReDoc loads a logo from its CDN and runs its search in a worker made from a blob."""
    app.mount(
        DOCS_ASSETS, StaticFiles(packages=[("fastapi_offline", "static")]), name="docs-assets"
    )

    @app.get("/docs", include_in_schema=False)
    async def swagger_ui(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        page = get_swagger_ui_html(
            openapi_url=f"{root}/openapi.json",
            title="meeple API",
            swagger_js_url=f"{root}{DOCS_ASSETS}/swagger-ui-bundle.js",
            swagger_css_url=f"{root}{DOCS_ASSETS}/swagger-ui.css",
            swagger_favicon_url=f"{root}/static/favicon.svg",
            swagger_ui_parameters={"validatorUrl": None},  # no badge from validator.swagger.io
        )
        scripts = re.findall(r"<script>(.*?)</script>", bytes(page.body).decode(), re.DOTALL)
        hashes = tuple(script_hash(s) for s in scripts)
        host = request.headers.get("host")
        page.headers["content-security-policy"] = content_security_policy(host, hashes)
        return page


ERRORS: dict[int | str, dict[str, Any]] = {
    403: {"model": ErrorBody, "description": "The token is not a seat's of this game"},
    404: {"model": ErrorBody, "description": "No such game"},
    429: {"model": ErrorBody, "description": "A limit was reached (the reason says which)"},
    409: {"model": ErrorBody, "description": "Stale state_id (the current one is included)"},
    413: {"model": ErrorBody, "description": "Request body too large"},
    422: {"description": "Malformed request, or an illegal action with the engine's reason"},
}


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
    redis_url = redis_url or os.environ.get("MEEPLE_REDIS_URL") or None
    cluster = None
    open_feed: Callable[[str, str | None], Awaitable[Feed]] = functools.partial(local_feed, hub)
    if redis_url is not None:
        from meeple.server.cluster import LEASE_SECONDS, Cluster

        cluster = Cluster(hub, redis_url, lease_seconds or LEASE_SECONDS)
        open_feed = cluster.open_feed

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

    app = FastAPI(
        title="meeple",
        summary="Play the Monopoly family and Monopolis over HTTP and WebSocket.",
        version="1",
        lifespan=lifespan,
        docs_url=None,  # served below from files that ship with fastapi-offline, no CDN
        redoc_url=None,
    )
    app.state.hub = hub
    if cluster is not None:
        from meeple.server.cluster import ClusterRoutes

        cluster.fastapi = app
        app.add_middleware(ClusterRoutes, cluster=cluster)  # under the checks: runs last
    app.add_middleware(HeadAsGet)
    app.add_middleware(CheckedInput, limit=BODY_LIMIT)
    app.add_middleware(Guard, hosts=hosts, origins=origins, hsts=resolve_hsts(hsts))
    app.add_middleware(InternalErrors)  # added last: runs first, around everything else
    app.exception_handler(RequestValidationError)(invalid_request)

    @app.exception_handler(HubError)
    async def hub_error(request: Request, exc: HubError) -> JSONResponse:
        body: dict[str, Any] = {"detail": exc.detail}
        if exc.state_id is not None:
            body["state_id"] = exc.state_id
        return JSONResponse(body, status_code=exc.status)

    pages.install(app)  # the lobby, the game page and their static files
    history.install(app)  # the end of a game: its history, replay, save file and rematch
    latency = metrics.install(app, hub, listen)  # /healthz and /metrics, for the operator
    admin.install(app, hub)  # /api/admin/: list, inspect, cancel and purge games (admin token)
    host.install(app)  # the host's: a seat's new token, the chat's moderation
    install_docs(app)

    @app.get("/api/games", response_model=list[GameSummary])
    async def list_games(
        status: Literal["waiting", "active", "finished", "cancelled"] | None = None,
    ) -> list[dict[str, Any]]:
        """The newest listed games (at most 100, a few of each address: docs/SERVER.md,
        "Limits"): no tokens, no views; private games never."""
        return await hub.lobby(status)

    @app.post("/api/games", response_model=Created, status_code=201, responses=ERRORS)
    async def create_game(body: CreateGame, request: Request) -> dict[str, Any]:
        """Make a game, from its start or from a ``position``; returns each person's token and
        page, the host's key and, when seats are open, the invite code and page (the game then
        waits for the host to start it)."""
        seats = [s.model_dump() for s in body.seats]  # a person's ask: a dict or None
        client = client_of(request)
        hub.check_new_game(client)
        made = await hub.create(
            body.game,
            seats,
            body.seed,
            body.listed,
            body.turn_timer,
            body.position,
            body.rules,
            body.hints,
            client,
        )
        gid = made.live.id
        return {
            "id": gid,
            "seats": [
                {"seat": i, "token": t, "url": None if t is None else f"/play/{gid}#token={t}"}
                for i, t in enumerate(made.tokens)
            ],
            "host_token": made.host,
            "invite": made.invite,
            "invite_url": None if made.invite is None else f"/join/{gid}#code={made.invite}",
        }

    @app.post("/api/games/{gid}/join", response_model=Joined, responses=ERRORS)
    async def join_game(gid: GameIdPath, body: PostJoin) -> dict[str, Any]:
        """Take an open seat with the invite code and a name; returns the seat's token."""
        live = await hub.get(gid)
        token = await hub.join(live, body.code, body.seat, body.name)
        return {"seat": body.seat, "token": token, "url": f"/play/{gid}#token={token}"}

    @app.post("/api/games/{gid}/start", response_model=PublicGame, responses=ERRORS)
    async def start_game(gid: GameIdPath, body: HostKey) -> dict[str, Any]:
        """The host starts a waiting game; seats still open are given to standard bots."""
        live = await hub.get(gid)
        await hub.start_game(live, body.host_token)
        return live.public()

    @app.post("/api/games/{gid}/cancel", response_model=PublicGame, responses=ERRORS)
    async def cancel_game(gid: GameIdPath, body: HostKey) -> dict[str, Any]:
        """The host cancels the game (kept as a record; nobody can act in it any more)."""
        live = await hub.get(gid)
        await hub.cancel(live, body.host_token)
        return live.public()

    @app.post("/api/games/{gid}/stand-in", response_model=PublicGame, responses=ERRORS)
    async def stand_in(gid: GameIdPath, body: PostStandIn) -> dict[str, Any]:
        """Hand a person's seat to the standard bot, or back (the host: any person's seat; a
        person: their own)."""
        live = await hub.get(gid)
        await hub.stand_in(live, body.token, body.seat, body.on)
        return live.public()

    @app.get("/api/games/{gid}", response_model=PublicGame, responses=ERRORS)
    async def get_game(gid: GameIdPath) -> dict[str, Any]:
        """The public view (what a spectator sees), with ``status`` and ``state_id``."""
        return (await hub.get(gid)).public()

    @app.get(
        "/api/games/{gid}/view",
        response_model=SeatView,
        responses={
            **ERRORS,
            401: {"model": ErrorBody, "description": "No token (send Authorization: Bearer)"},
        },
    )
    async def get_view(gid: GameIdPath, token: SeatToken) -> dict[str, Any]:
        """A seat's view, with its legal actions when it decides now. The seat's token goes in
        the ``Authorization: Bearer TOKEN`` header (``?token=`` is still read, for older
        clients, but a URL ends up in logs)."""
        live = await hub.get(gid)
        return live.seat_view(live.seat_of(token))

    @app.get("/api/games/{gid}/log", response_model=GameLog, responses=ERRORS)
    async def get_log(
        gid: GameIdPath,
        before: Annotated[int | None, Query(ge=1, le=2**31)] = None,
        limit: Annotated[int, Query(ge=1, le=LOG_PAGE_MAX)] = 200,
    ) -> dict[str, Any]:
        """The game's log from the first move, a page at a time: the events in words of the
        ``limit`` actions before position ``before`` (default: the newest). The same for
        everyone: it says only what every seat saw happen."""
        live = await hub.get(gid)
        log = await hub.log_of(live)
        end = len(log) if before is None else min(before - 1, len(log))
        start = max(0, end - limit)
        entries = [{"state_id": i + 1, "events": log[i]} for i in range(start, end) if log[i]]
        setup = [live.state.describe(e) for e in live.state.setup_events()]
        if start == 0 and setup:  # the page that begins the game: who starts, first
            entries.insert(0, {"state_id": 0, "events": setup})
        return {"state_id": len(log), "first": start + 1, "entries": entries}

    @app.post("/api/games/{gid}/actions", response_model=Applied, responses=ERRORS)
    async def post_action(gid: GameIdPath, body: PostAction) -> Response:
        """Apply an action for the token's seat at position ``state_id``."""
        began = time.perf_counter()
        live = await hub.get(gid)
        seat = live.seat_of(body.token)
        answer = await hub.act_answer(live, seat, body.state_id, body.action)
        latency.observe(time.perf_counter() - began)
        # Applied, with the view its update carried, encoded once for both.
        text = join_objects(dumps(answer), f'{{"view":{live.view_text(seat)}}}')
        return Response(text, media_type="application/json")

    @app.put("/api/games/{gid}/ask", response_model=SeatState, responses=ERRORS)
    async def put_ask(gid: GameIdPath, body: PutAsk) -> dict[str, Any]:
        """Set when the token's person wants to be asked; the rest moves on by itself."""
        live = await hub.get(gid)
        seat = live.seat_of(body.token)
        ask = AskSettings(body.others_turns, body.own_turn, body.grace)
        await hub.set_ask(live, seat, ask)
        return live.seat_answer(seat)

    @app.post("/api/games/{gid}/hold", response_model=SeatState, responses=ERRORS)
    async def post_hold(gid: GameIdPath, body: PostHold) -> dict[str, Any]:
        """Hold the table for the token's person (asked at its next decision, whatever its
        settings, to act first), or release it. A hold lasts while the seat's WebSocket is
        open, and ends when the seat moves on (passes, rolls or ends its turn)."""
        live = await hub.get(gid)
        seat = live.seat_of(body.token)
        if body.hold and live.seats[seat].sockets <= 0:
            raise HubError(422, "a hold lasts while the seat's WebSocket is open: connect it first")
        hub.hold(live, seat, body.hold)
        return live.seat_answer(seat)

    @app.post("/api/games/{gid}/proxy", response_model=SeatState, responses=ERRORS)
    async def post_proxy(gid: GameIdPath, body: PostProxy) -> dict[str, Any]:
        """Bid for the token's person up to ``limit`` in the open auction (the smallest raise
        each time it is their turn, dropping out past the limit), or stop (``null``)."""
        live = await hub.get(gid)
        seat = live.seat_of(body.token)
        hub.set_proxy(live, seat, body.limit)
        return live.seat_answer(seat)

    @app.post("/api/games/{gid}/why", response_model=Why, responses=ERRORS)
    async def post_why(gid: GameIdPath, body: PostWhy) -> dict[str, Any]:
        """Why each of these actions is refused now, in the engine's words (a page says so on
        a disabled control); ``null`` for one that is legal."""
        live = await hub.get(gid)
        return {
            "state_id": live.state_id,
            "reasons": live.why(live.seat_of(body.token), body.actions),
        }

    @app.post("/api/games/{gid}/hint", response_model=Hint, responses=ERRORS)
    async def post_hint(gid: GameIdPath, body: PostHint) -> dict[str, Any]:
        """The advisor's answer at the token's person's decision: each option with its chance
        of winning against standard play and a 95% interval, the best marked (about two
        seconds). Worked out from what that seat may see only. 403 when the host turned hints
        off; 409 when ``state_id`` is not the seat's decision now; 429 when the advisor is
        busy."""
        live = await hub.get(gid)
        return await hub.hint(live, live.seat_of(body.token), body.state_id)

    @app.post(
        "/api/games/{gid}/chat", response_model=ChatMessage, status_code=201, responses=ERRORS
    )
    async def post_chat(gid: GameIdPath, body: PostChat) -> dict[str, Any]:
        """Say something at the table (people only): stored with the game and sent to every
        socket as ``{"type": "chat", ...}``. Limited in length and rate (429 beyond)."""
        live = await hub.get(gid)
        return await hub.chat(live, live.seat_of(body.token), body.text)

    @app.get("/api/games/{gid}/chat", response_model=Chat, responses=ERRORS)
    async def get_chat(
        gid: GameIdPath,
        after: Annotated[int, Query(ge=-1, le=2**62)] = -1,
        limit: Annotated[int, Query(ge=1, le=500)] = 100,
    ) -> dict[str, Any]:
        """The game's chat, oldest first: messages after id ``after`` (-1: the newest)."""
        live = await hub.get(gid)
        return {"messages": await asyncio.to_thread(storage.chat, live.id, after, limit)}

    @app.websocket("/api/games/{gid}/ws")
    async def game_socket(websocket: WebSocket, gid: str, token: str | None = None) -> None:
        """A spectator's socket until the client sends ``{"type": "auth", "token": ...}``,
        answered by the seat's hello (``?token=``, for older clients, makes it the seat's from
        the start). Anything else a client sends is ignored."""
        await websocket.accept()
        client = client_of(websocket).key
        try:
            if len(gid) > 32:
                raise HubError(404, "no such game")
            feed = await open_feed(gid, None if token is None else token[: MAX_TOKEN + 1])
        except HubError as exc:
            await websocket.close(code=_close_code(exc), reason=exc.detail[:120])
            return
        refused = hub.enter_socket(gid, client)
        if refused:
            feed.close()
            await websocket.close(code=WS_POLICY_VIOLATION, reason=refused[:120])
            return
        rate = Window(hub.limits.socket_window)
        limits = hub.limits

        def counted(kind: str, most: int | None) -> None:
            """Count one message of ``kind``; 429 (the socket closes) beyond ``most``."""
            if not rate.allow(kind, most):
                hub.limit_hits[f"socket_{kind}"] += 1
                raise HubError(
                    429, f"too many {kind}: at most {most} in {limits.socket_window:g} s"
                )

        async def act(message: ClientMessage) -> None:
            """Play a seat's action sent on the socket. Its ``acted`` answer is queued behind
            the updates (so after the action's own update); a ``refused`` one is sent at once
            (it follows no update, and a spectator's would be dropped with its queue when it
            authenticates)."""
            began = time.perf_counter()
            ref = message.data.get("ref")
            try:
                if message.refused is not None:  # bad bytes: the reason says where
                    raise HubError(message.refused.status, message.refused.reason)
                try:
                    sent = SocketAct.model_validate(message.data)
                except ValidationError as exc:
                    raise HubError(422, _first_error(exc)) from None
                ref = sent.ref
                done = await feed.act(sent.state_id, sent.action)
            except HubError as exc:
                refused = {
                    "type": "refused",
                    "ref": ref if _a_ref(ref) else None,
                    "status": exc.status,
                    "detail": exc.detail,
                    "state_id": exc.state_id,
                }
                await websocket.send_text(dumps(refused))
                return
            latency.observe(time.perf_counter() - began)
            with contextlib.suppress(asyncio.QueueFull):  # a client that does not read
                feed.queue.put_nowait({"type": "acted", "ref": ref, **done})

        async def relay() -> str | None:
            """Send the feed's messages until the client leaves, or reads too slowly, or the
            game moves to another process (``None``), or the client authenticates with a
            seat's token (that token). Actions sent meanwhile are played in order."""

            async def pump() -> None:
                while (msg := await feed.queue.get()) is not None:
                    await websocket.send_text(text_of(msg))

            async def read() -> str | None:
                while True:
                    received = await websocket.receive()
                    if received["type"] == "websocket.disconnect":
                        return None
                    message = _client_message(received)
                    if message.type == "act":
                        counted("actions", limits.socket_actions)
                        await act(message)
                        continue
                    counted("messages", limits.socket_messages)
                    claimed = _auth_token(message)
                    if claimed is None:
                        continue  # anything else a client sends is ignored
                    if feed.seat is not None:
                        raise HubError(403, f"this socket is already Player {feed.seat + 1}'s")
                    return claimed

            sending, reading = asyncio.create_task(pump()), asyncio.create_task(read())
            try:
                await asyncio.wait((sending, reading), return_when=asyncio.FIRST_COMPLETED)
            finally:
                # A frame is written whole or not at all, so stopping a send drops at most a
                # spectator's message that the seat's hello supersedes.
                for task in (sending, reading):
                    task.cancel()
                for task in (sending, reading):
                    with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, HubError):
                        await task
            return reading.result() if reading.done() and not reading.cancelled() else None

        try:
            await websocket.send_text(text_of(feed.hello))
            while (claimed := await relay()) is not None:
                await websocket.send_text(text_of(await feed.auth(claimed)))
            with contextlib.suppress(Exception):
                if feed.moved:  # the client reconnects, and is served by the game's new owner
                    await websocket.close(code=WS_SERVICE_RESTART, reason="the game moved")
                else:
                    await websocket.close()
        except HubError as exc:
            with contextlib.suppress(Exception):
                await websocket.close(code=_close_code(exc), reason=exc.detail[:120])
        except WebSocketDisconnect:
            pass
        finally:
            feed.close()
            hub.leave_socket(gid, client)

    return app


def _close_code(exc: HubError) -> int:
    """How a socket refused with ``exc`` closes: 1012 (the page reconnects) when the game's
    server process is not answering (503, 504: it died, and another takes the game over
    within a lease), else 1008 (the page says why and stops)."""
    return WS_SERVICE_RESTART if exc.status in (503, 504) else WS_POLICY_VIOLATION


class ClientMessage(NamedTuple):
    """A client's message on a game's socket: its ``type`` (``None`` for a message that is
    no JSON object, or has no type: ignored, as types this server does not know), the object
    and, when the strict reader refused it (:func:`meeple.server.wire.loads`: ``NaN``, a lone
    surrogate, a control character in a string), why: the object is then as ``json.loads``
    reads it, enough to tell an action (refused with the reason) from the rest."""

    type: str | None
    data: dict[str, Any]
    refused: wire.BadJSON | None = None


def _client_message(received: Message) -> ClientMessage:
    """A client's frame, text or binary, as a :class:`ClientMessage`."""
    raw = received.get("text") or received.get("bytes")
    if not raw:
        return ClientMessage(None, {})
    refused = None
    try:
        data = wire.loads(raw, root="message")
    except wire.BadJSON as exc:
        refused = exc
        try:
            data = wire.loads(raw, strict=False)
        except (ValueError, RecursionError):
            return ClientMessage(None, {})
    if not isinstance(data, dict):
        return ClientMessage(None, {})
    kind = data.get("type")
    return ClientMessage(kind if isinstance(kind, str) else None, data, refused)


def _a_ref(ref: object) -> bool:
    """Whether ``ref`` is one a refusal repeats: a whole number from 0 to 2^53 (what
    ``SocketAct`` takes; a refused message's ``ref`` was not checked)."""
    return isinstance(ref, int) and not isinstance(ref, bool) and 0 <= ref <= MAX_REF


def _first_error(exc: ValidationError) -> str:
    """The first thing wrong with a message, in words: ``state_id: Input should be ...``."""
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"])
    return f"{where}: {err['msg']}" if where else str(err["msg"])


def _auth_token(message: ClientMessage) -> str | None:
    """The token of a client's ``{"type": "auth", "token": "..."}`` message; ``None`` for any
    other message (ignored: clients may send types a later server understands); 403 for an
    auth message without a token, and the strict reader's refusal for one with bad bytes."""
    if message.type != "auth":
        return None
    if message.refused is not None:
        raise HubError(message.refused.status, message.refused.reason)
    token = message.data.get("token")
    if not isinstance(token, str) or not token:
        raise HubError(403, "an auth message carries a seat's token as a string")
    return token[: MAX_TOKEN + 1]  # longer is no token: 403
