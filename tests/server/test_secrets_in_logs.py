"""Credentials stay out of URLs and out of the server's log.

A seat's token travels in the ``Authorization`` header (GET /view), the request body (actions)
or the WebSocket's first message (``{"type": "auth"}``); links carry secrets in the
``#fragment``. An old client may still put one in a URL (``?token=``), so ``meeple serve``
redacts secret query parameters in what it logs (``meeple.server.logs``). The last test plays a
whole game on a real server with its access log on, both ways, and greps the log for every
secret.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from pathlib import Path
from typing import Any

import httpx
from fastapi.testclient import TestClient
from uvicorn.logging import AccessFormatter
from websockets.asyncio.client import ClientConnection, connect

from meeple.server.logs import REDACTED, RedactSecrets, redact
from tests.server.conftest import new_game
from tests.server.process import free_port, start_server

ASKED = {"others_turns": "always", "own_turn": "always", "grace": 0}


# ---- the header ----


def test_view_takes_the_token_in_a_header(client: TestClient) -> None:
    g = new_game(client)
    gid, t1 = g["id"], g["seats"][1]["token"]
    url = f"/api/games/{gid}/view"
    for auth in (f"Bearer {t1}", f"bearer {t1}"):
        r = client.get(url, headers={"Authorization": auth})
        assert r.status_code == 200, r.text
        assert r.json()["seat"] == 1
    r = client.get(url, params={"token": t1})  # older clients: still read
    assert r.status_code == 200 and r.json()["seat"] == 1
    for headers in ({}, {"Authorization": f"Basic {t1}"}, {"Authorization": "Bearer"}):
        r = client.get(url, headers=headers)
        assert r.status_code == 401, (headers, r.text)
        assert r.headers["www-authenticate"] == "Bearer"
        assert "Authorization: Bearer" in r.json()["detail"]
    for bad in ("wrong", "x" * 5000):
        r = client.get(url, headers={"Authorization": f"Bearer {bad}"})
        assert r.status_code == 403, r.text


def test_the_header_is_documented(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    schemes = spec["components"]["securitySchemes"]
    assert {"type": "http", "scheme": "bearer"}.items() <= schemes["seat token"].items()
    op = spec["paths"]["/api/games/{gid}/view"]["get"]
    assert op["security"] == [{"seat token": []}]
    (query,) = [p for p in op["parameters"] if p["name"] == "token"]
    assert query["deprecated"] is True and not query["required"]


# ---- the filter ----


def test_redact_secret_query_parameters() -> None:
    cases = {
        "GET /a/view?token=Ab-_9 HTTP/1.1": "GET /a/view?token=[redacted] HTTP/1.1",
        "/ws?x=1&token=T&y=2": "/ws?x=1&token=[redacted]&y=2",
        "/join/a?code=C#frag": "/join/a?code=[redacted]#frag",
        "/a?host_token=H&invite=I": "/a?host_token=[redacted]&invite=[redacted]",
        "/a?tok%65n=T&TOKEN=U": "/a?tok%65n=[redacted]&TOKEN=[redacted]",
        "/a?tokens=keep&mytoken=keep&token=": "/a?tokens=keep&mytoken=keep&token=",
        "no secret here": "no secret here",
    }
    for text, want in cases.items():
        assert redact(text) == want


def test_the_filter_keeps_uvicorns_records_whole() -> None:
    """uvicorn's access formatter unpacks the record's arguments: they stay five, redacted."""
    record = logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        __file__,
        1,
        '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5", "GET", "/api/games/a/view?token=SECRET", "1.1", 200),
        None,
    )
    assert RedactSecrets().filter(record)
    line = AccessFormatter("%(client_addr)s %(request_line)s %(status_code)s").format(record)
    assert "SECRET" not in line and f"view?token={REDACTED}" in line
    ws = logging.LogRecord(
        "uvicorn.error",
        logging.INFO,
        __file__,
        1,
        '%s - "WebSocket %s" [accepted]',
        ("127.0.0.1:5", "/api/games/a/ws?token=SECRET"),
        None,
    )
    RedactSecrets().filter(ws)
    assert "SECRET" not in ws.getMessage()


# ---- a whole game on a real server, its log grepped ----


async def _reader(ws: ClientConnection, seen: list[dict[str, Any]]) -> None:
    with contextlib.suppress(Exception):
        async for raw in ws:
            seen.append(json.loads(raw))


async def _play(port: int) -> tuple[str, dict[str, str], dict[str, list[dict[str, Any]]]]:
    """A game of three people and a bot: Ann and Cat (invited) the page's way, Bob an old
    client's way, a spectator; played to its end. Returns the game id, every secret and what
    each socket heard."""
    base = f"http://127.0.0.1:{port}"
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        seats = [
            {"type": "human", "name": "Ann", "ask": ASKED},
            {"type": "human", "name": "Bob", "ask": ASKED},
            {"type": "open"},
            {"type": "bot", "bot": "random"},
        ]
        r = await http.post("/api/games", json={"game": "my-first-monopoly-1", "seats": seats})
        assert r.status_code == 201, r.text
        made = r.json()
        gid = made["id"]
        secrets = {
            "Ann": made["seats"][0]["token"],
            "Bob": made["seats"][1]["token"],
            "host": made["host_token"],
            "invite": made["invite"],
        }
        # Old links put the secret in the query; a careless client may send the host's key too.
        for path in (
            f"/play/{gid}?token={secrets['Bob']}",
            f"/join/{gid}?code={secrets['invite']}",
            f"/api/games/{gid}?host_token={secrets['host']}",
        ):
            assert (await http.get(path)).status_code == 200, path
        r = await http.post(
            f"/api/games/{gid}/join", json={"code": secrets["invite"], "seat": 2, "name": "Cat"}
        )
        assert r.status_code == 200, r.text
        secrets["Cat"] = r.json()["token"]
        r = await http.put(f"/api/games/{gid}/ask", json={"token": secrets["Cat"], **ASKED})
        assert r.status_code == 200, r.text
        people = {0: "Ann", 1: "Bob", 2: "Cat"}
        old_way = {"Bob"}

        async def view(name: str) -> dict[str, Any]:
            token = secrets[name]
            if name in old_way:
                r = await http.get(f"/api/games/{gid}/view", params={"token": token})
            else:
                r = await http.get(
                    f"/api/games/{gid}/view", headers={"Authorization": f"Bearer {token}"}
                )
            assert r.status_code == 200, r.text
            data: dict[str, Any] = r.json()
            return data

        ws_url = f"ws://127.0.0.1:{port}/api/games/{gid}/ws"
        heard: dict[str, list[dict[str, Any]]] = {}
        async with contextlib.AsyncExitStack() as stack:
            tasks = []
            for name in ("Ann", "Bob", "Cat", "spectator"):
                url = f"{ws_url}?token={secrets[name]}" if name in old_way else ws_url
                ws = await stack.enter_async_context(connect(url))
                if name in secrets and name not in old_way:
                    await ws.send(json.dumps({"type": "auth", "token": secrets[name]}))
                heard[name] = []
                tasks.append(asyncio.create_task(_reader(ws, heard[name])))
            r = await http.post(f"/api/games/{gid}/start", json={"host_token": secrets["host"]})
            assert r.status_code == 200, r.text

            deadline = time.monotonic() + 120
            while True:
                assert time.monotonic() < deadline, "the game did not end in time"
                pub = (await http.get(f"/api/games/{gid}")).json()
                if pub["status"] == "finished":
                    break
                name = people.get(pub["current_player"])
                v = await view(name) if name else None
                if not v or not v["legal_actions"]:
                    await asyncio.sleep(0.01)  # a bot, or the table, moves
                    continue
                body = {
                    "token": secrets[name],
                    "state_id": v["state_id"],
                    "action": v["legal_actions"][0]["action"],
                }
                r = await http.post(f"/api/games/{gid}/actions", json=body)
                assert r.status_code in (200, 409), r.text
            final = pub["state_id"]
            end = time.monotonic() + 20
            while any(not any(m.get("state_id") == final for m in h) for h in heard.values()):
                assert time.monotonic() < end, "a socket did not hear the end"
                await asyncio.sleep(0.02)
            for task in tasks:
                task.cancel()
        return gid, secrets, heard


def test_no_secret_in_the_servers_log(tmp_path: Path) -> None:
    port = free_port()
    log = tmp_path / "server.log"
    proc = start_server(tmp_path / "games.sqlite", port, log, 0.0, ("--access-log",))
    try:
        gid, secrets, heard = asyncio.run(_play(port))
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    # each socket was the seat it asked for, the new way and the old
    for seat, name in enumerate(("Ann", "Bob", "Cat")):
        hellos = [m["seat"] for m in heard[name] if m["type"] == "hello"]
        assert hellos[-1] == seat, (name, hellos)
        assert heard[name][-1]["status"] == "finished"
    assert [m["seat"] for m in heard["spectator"] if m["type"] == "hello"] == [None]

    text = log.read_text()
    # The requests were logged, so the grep can fail: the page's way and an old client's way.
    view, ws = f"/api/games/{gid}/view", f"/api/games/{gid}/ws"
    assert f'"GET {view} HTTP/1.1" 200' in text
    assert f'"WebSocket {ws}" [accepted]' in text
    assert f'"GET {view}?token=' in text and f'"WebSocket {ws}?token=' in text
    assert f"/join/{gid}?code=" in text and f"/api/games/{gid}?host_token=" in text
    assert f"POST /api/games/{gid}/join" in text and f"POST /api/games/{gid}/start" in text
    for name, secret in secrets.items():
        assert secret not in text, f"{name}'s secret is in the server's log"
    assert f'"GET {view}?token={REDACTED} HTTP/1.1" 200' in text
    assert f'"WebSocket {ws}?token={REDACTED}" [accepted]' in text
    assert f"/join/{gid}?code={REDACTED}" in text
    assert f"/api/games/{gid}?host_token={REDACTED}" in text
