"""A game's WebSocket, per seat or spectator: the feed's messages relayed to the client, and
the client's actions and auth messages played, within the socket's limits (docs/SERVER.md)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from fastapi import APIRouter, WebSocket
from pydantic import ValidationError
from starlette.types import Message
from starlette.websockets import WebSocketDisconnect

from meeple.server import wire
from meeple.server.feeds import Feed
from meeple.server.hub import HubError
from meeple.server.limits import Window, client_of
from meeple.server.routes.params import hub_of
from meeple.server.schemas import MAX_REF, MAX_TOKEN, SocketAct
from meeple.server.wire import dumps, text_of

if TYPE_CHECKING:
    from prometheus_client import Histogram

    from meeple.server.hub import Hub

WS_POLICY_VIOLATION = 1008
WS_SERVICE_RESTART = 1012  # the game moved to another process: reconnect

OpenFeed = Callable[[str, str | None], Awaitable[Feed]]
"""How a socket opens its game's feed: the hub's own, or the cluster's (``app.state.open_feed``)."""

router = APIRouter()


@router.websocket("/api/games/{gid}/ws")
async def game_socket(websocket: WebSocket, gid: str, token: str | None = None) -> None:
    """A spectator's socket until the client sends ``{"type": "auth", "token": ...}``,
    answered by the seat's hello (``?token=``, for older clients, makes it the seat's from
    the start). Anything else a client sends is ignored."""
    await websocket.accept()
    hub = hub_of(websocket)
    client = client_of(websocket).key
    try:
        if len(gid) > 32:
            raise HubError(404, "no such game")
        open_feed: OpenFeed = websocket.app.state.open_feed
        feed = await open_feed(gid, None if token is None else token[: MAX_TOKEN + 1])
    except HubError as exc:
        await websocket.close(code=_close_code(exc), reason=exc.detail[:120])
        return
    refused = hub.enter_socket(gid, client)
    if refused:
        feed.close()
        await websocket.close(code=WS_POLICY_VIOLATION, reason=refused[:120])
        return
    try:
        await GameSocket(websocket, feed, hub, websocket.app.state.latency).serve()
    finally:
        feed.close()
        hub.leave_socket(gid, client)


class GameSocket:
    """One open socket on a game, with its feed: what it sends and what it reads."""

    def __init__(self, websocket: WebSocket, feed: Feed, hub: Hub, latency: Histogram) -> None:
        self.websocket = websocket
        self.feed = feed
        self.hub = hub
        self.limits = hub.limits
        self.rate = Window(hub.limits.socket_window)
        self.latency = latency

    async def serve(self) -> None:
        """The hello, then the feed's messages until the client leaves (a seat's hello each
        time it authenticates), and the socket closed as the end calls for."""
        websocket, feed = self.websocket, self.feed
        try:
            await websocket.send_text(text_of(feed.hello))
            while (claimed := await self.relay()) is not None:
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

    def counted(self, kind: str, most: int | None) -> None:
        """Count one message of ``kind``; 429 (the socket closes) beyond ``most``."""
        if not self.rate.allow(kind, most):
            self.hub.limit_hits[f"socket_{kind}"] += 1
            raise HubError(
                429, f"too many {kind}: at most {most} in {self.limits.socket_window:g} s"
            )

    async def act(self, message: ClientMessage) -> None:
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
            done = await self.feed.act(sent.state_id, sent.action)
        except HubError as exc:
            refused = {
                "type": "refused",
                "ref": ref if _a_ref(ref) else None,
                "status": exc.status,
                "detail": exc.detail,
                "state_id": exc.state_id,
            }
            await self.websocket.send_text(dumps(refused))
            return
        self.latency.observe(time.perf_counter() - began)
        with contextlib.suppress(asyncio.QueueFull):  # a client that does not read
            self.feed.queue.put_nowait({"type": "acted", "ref": ref, **done})

    async def relay(self) -> str | None:
        """Send the feed's messages until the client leaves, or reads too slowly, or the
        game moves to another process (``None``), or the client authenticates with a
        seat's token (that token). Actions sent meanwhile are played in order."""
        sending, reading = asyncio.create_task(self._pump()), asyncio.create_task(self._read())
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

    async def _pump(self) -> None:
        while (msg := await self.feed.queue.get()) is not None:
            await self.websocket.send_text(text_of(msg))

    async def _read(self) -> str | None:
        while True:
            received = await self.websocket.receive()
            if received["type"] == "websocket.disconnect":
                return None
            message = _client_message(received)
            if message.type == "act":
                self.counted("actions", self.limits.socket_actions)
                await self.act(message)
                continue
            self.counted("messages", self.limits.socket_messages)
            claimed = _auth_token(message)
            if claimed is None:
                continue  # anything else a client sends is ignored
            if self.feed.seat is not None:
                raise HubError(403, f"this socket is already Player {self.feed.seat + 1}'s")
            return claimed


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
