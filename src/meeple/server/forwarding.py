"""An HTTP request carried between ``meeple serve`` processes (:mod:`meeple.server.cluster`).

The process a client reached sends the request whole to the game's owner
(:func:`forwarded_request`), which runs it through its own app (:func:`run_forwarded`) and
sends back the response, relayed to the client as the owner gave it.
"""

from __future__ import annotations

import asyncio
import base64
import json
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope


async def run_forwarded(app: ASGIApp, fastapi: Any, msg: dict[str, Any]) -> dict[str, Any]:
    """Run a forwarded request (``msg["request"]``) through this process's ``app`` (the whole
    app, ``fastapi``, named in its scope) and return its response."""
    req = msg["request"]
    body = base64.b64decode(req["body"])
    scope: Scope = {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "method": req["method"],
        "scheme": req["scheme"],
        "path": req["path"],
        "raw_path": req["path"].encode(),
        "root_path": "",
        "query_string": req["query"].encode("latin-1"),
        "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in req["headers"]],
        "client": tuple(req["client"]) if req["client"] else None,
        "server": tuple(req["server"]) if req["server"] else None,
        "app": fastapi,
        "state": {},
    }
    status = 500
    headers: list[tuple[str, str]] = []
    chunks: list[bytes] = []

    async def send(message: Message) -> None:
        nonlocal status, headers
        if message["type"] == "http.response.start":
            status = int(message["status"])
            headers = text_headers(message["headers"])
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await app(scope, replay(body), send)
    return {
        "status": status,
        "headers": headers,
        "body": base64.b64encode(b"".join(chunks)).decode("ascii"),
    }


def forwarded_request(scope: Scope, body: bytes) -> dict[str, Any]:
    """The parts of a request another process needs to run it."""
    return {
        "request": {
            "method": scope["method"],
            "scheme": scope.get("scheme", "http"),
            "path": scope["path"],
            "query": scope.get("query_string", b"").decode("latin-1"),
            "headers": text_headers(scope["headers"]),
            "client": list(scope["client"]) if scope.get("client") else None,
            "server": list(scope["server"]) if scope.get("server") else None,
            "body": base64.b64encode(body).decode("ascii"),
        }
    }


def text_headers(headers: Any) -> list[tuple[str, str]]:
    """ASGI headers as JSON-able text (HTTP headers are Latin-1)."""
    return [(k.decode("latin-1"), v.decode("latin-1")) for k, v in headers]


def names_position(body: bytes) -> bool:
    """Whether a request's JSON body names the position it acts on (``state_id``)."""
    try:
        data = json.loads(body)
    except ValueError:
        return False
    return isinstance(data, dict) and isinstance(data.get("state_id"), int)


async def read_body(receive: Receive) -> bytes:
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def replay(body: bytes) -> Receive:
    """A request's ``receive`` that gives ``body`` again (it was read to forward it)."""
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if sent:
            await asyncio.Event().wait()  # nothing more: the request was read whole
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return receive
