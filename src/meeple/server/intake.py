"""What the server takes in, checked before a route sees it, and what it says when a route
fails (docs/SERVER.md, "Bad bytes").

- :class:`CheckedInput`: a path and query without a control character, a body of at most 16
  KiB that is JSON text by :func:`meeple.server.wire.loads`' strict reading (no ``NaN``, no
  ``1e400``, no lone surrogate, no NUL or other control character in a string). Refused with
  ``400`` (or ``422`` for a string's character, ``413`` for the size), with the reason and
  where, never what was sent.
- :func:`invalid_request`: FastAPI's ``422`` for a body that does not fit its model, without
  the ``input`` FastAPI's own answer repeats (which made it fail on a lone surrogate or
  ``NaN``, 500, and log the request in its traceback).
- :class:`HeadAsGet`: ``HEAD`` answered wherever ``GET`` is (RFC 9110, 9.3.2).
- :class:`InternalErrors`: a route that fails anyway is a ``500`` that says so, and a log line
  with the traceback but without the exceptions' messages (they may hold what the client
  sent: a database error quotes its statement's parameters).
"""

from __future__ import annotations

import contextlib
import logging
import re
from typing import Any
from urllib.parse import quote, unquote_plus

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from meeple.server import wire
from meeple.server.logs import withheld_traceback
from meeple.server.security import close_socket, send_detail

BODY_LIMIT = 16 * 1024
"""The largest request body accepted, in bytes (413 beyond)."""

WS_INTERNAL_ERROR = 1011

log = logging.getLogger("meeple.server")


def bad_url(scope: Scope) -> str | None:
    """Why a request's path or query is refused (a control character or a lone surrogate,
    once percent-decoded as the routes read them: ``/api/games/%00`` would reach the database
    with a NUL, which PostgreSQL refuses); ``None`` when it may go on."""
    if wire.NOT_TEXT.search(scope.get("path", "")):
        return "the path holds a control character"
    query = unquote_plus(scope.get("query_string", b"").decode("latin-1"), errors="replace")
    if wire.NOT_TEXT.search(query):
        return "the query holds a control character"
    return None


class CheckedInput:
    """The checks of :func:`bad_url` on every request and socket (a socket is closed with
    ``1008`` and the reason), and on an HTTP request's body: at most ``limit`` bytes, declared
    or streamed (``413``), and strict JSON text (``400``/``422`` with the reason). Every route
    takes JSON or nothing, so every body is read so, whatever its ``Content-Type``; the route
    parses it again (microseconds, for the bodies this API takes)."""

    def __init__(self, app: ASGIApp, limit: int = BODY_LIMIT) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        refused = bad_url(scope)
        if refused is not None:
            if kind == "websocket":
                await close_socket(receive, send, refused)
            else:
                await send_detail(send, 400, refused)
            return
        if kind == "websocket":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    await send_detail(send, 400, "bad Content-Length")
                    return
                if declared > self.limit:
                    await send_detail(send, 413, f"request body over {self.limit} bytes")
                    return
        chunks: list[bytes] = []
        total = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            body = message.get("body", b"")
            total += len(body)
            if total > self.limit:
                await send_detail(send, 413, f"request body over {self.limit} bytes")
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        whole = b"".join(chunks)
        if whole:
            try:
                wire.loads(whole)
            except wire.BadJSON as exc:
                await send_detail(send, exc.status, exc.reason)
                return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": whole, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,39}")
MSG_MAX = 300


def problem(error: dict[str, Any]) -> dict[str, Any]:
    """One of FastAPI's validation errors as answered: its ``type``, ``loc`` and ``msg``, not
    its ``input`` and ``ctx``. A key of ``loc`` that is not a short identifier (a field name)
    is shown as ``…``, a union's tag is left out of ``msg``, and what is left of ``msg`` is
    printable and at most 300 characters: nothing repeats what the client sent."""
    loc = [p if isinstance(p, int) or _KEY.fullmatch(str(p)) else "…" for p in error["loc"]]
    msg = str(error["msg"])
    ctx = error.get("ctx") or {}
    if error["type"] == "union_tag_invalid":  # "Input tag 'xyz' found using 'type' ..."
        msg = (
            f"Input tag found using {ctx.get('discriminator', 'the tag')} does not match any "
            f"of the expected tags: {ctx.get('expected_tags', '')}"
        )
    msg = "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in msg[:MSG_MAX])
    return {"type": error["type"], "loc": loc, "msg": msg}


async def invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
    """FastAPI's ``422`` (``{"detail": [{"type", "loc", "msg"}, ...]}``), each error as
    :func:`problem` makes it."""
    return JSONResponse({"detail": [problem(e) for e in exc.errors()]}, status_code=422)


class HeadAsGet:
    """``HEAD`` answered wherever ``GET`` is, pages and API alike (RFC 9110, 9.3.2: the same
    status and headers, no body). The request reaches the routes as a ``GET`` and its answer's
    body is dropped. FastAPI routes ``HEAD`` to a ``GET`` route to 405; listing ``HEAD`` on
    every route instead would double every operation in the API's docs."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def headers_only(message: Message) -> None:
            if message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, headers_only)


class InternalErrors:
    """A request or socket whose route fails: a ``500`` (a socket: closed with ``1011``) when
    nothing was answered yet, and one log line on ``meeple.server`` with the method, the path
    and the traceback, each exception's message withheld (:func:`withheld_traceback`). The
    exception goes no further, so uvicorn does not log it again, with its messages."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        started = False

        async def watched(message: Message) -> None:
            nonlocal started
            if message["type"] in ("http.response.start", "websocket.accept", "websocket.close"):
                started = True
            await send(message)

        try:
            await self.app(scope, receive, watched)
        except Exception as exc:
            what = "WebSocket" if scope["type"] == "websocket" else scope["method"]
            log.error(
                "%s %s failed (messages withheld: they may hold what the client sent)\n%s",
                what,
                quote(scope.get("path", ""), safe="/"),
                withheld_traceback(exc),
            )
            if scope["type"] == "websocket":
                with contextlib.suppress(Exception):  # unless the client is gone
                    await send({"type": "websocket.close", "code": WS_INTERNAL_ERROR})
            elif not started:
                await send_detail(send, 500, "internal error: the server's log has the traceback")
