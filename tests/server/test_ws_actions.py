"""Actions sent on a seat's WebSocket (docs/SERVER.md, "WebSocket"): played as ``POST
/actions`` plays them, answered ``acted`` after the action's own update, or ``refused`` with
the reason, and a refused action leaves the game as it was and the socket open."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from meeple.server.app import create_app
from meeple.server.limits import NO_LIMITS
from tests.server.conftest import TEST_HOSTS, game_only, new_game


@contextmanager
def seat_socket(client: TestClient, gid: str, token: str) -> Iterator[WebSocketTestSession]:
    """A socket authenticated as ``token``'s seat, past both hellos."""
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        assert ws.receive_json()["seat"] is None
        ws.send_json({"type": "auth", "token": token})
        hello = ws.receive_json()
        assert hello["type"] == "hello" and hello["seat"] is not None
        yield ws


def position(client: TestClient, gid: str, token: str) -> Any:
    """What the seat sees now (its view and legal actions)."""
    return client.get(f"/api/games/{gid}/view", headers={"Authorization": f"Bearer {token}"})


def next_of(ws: WebSocketTestSession, kind: str) -> dict[str, Any]:
    """The next message of type ``kind`` (skipping "seat" messages about settings)."""
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == kind:
            return msg
        assert msg["type"] in ("seat", "update"), msg


def test_an_action_on_the_socket_is_played_then_answered(client: TestClient) -> None:
    g = new_game(client)
    gid, t0 = g["id"], g["seats"][0]["token"]
    with seat_socket(client, gid, t0) as ws:
        ws.send_json({"type": "act", "action": "roll", "state_id": 0, "ref": 7})
        update = ws.receive_json()
        assert update["type"] == "update" and update["state_id"] == 1
        acted = next_of(ws, "acted")  # after the action's own update: the page has the view
        assert acted["ref"] == 7 and acted["state_id"] >= 1 and acted["status"] == "active"
        assert acted["events"] == update["events"] and acted["events"]
    # Stored as an action sent by HTTP is: the same game from the same seed and action.
    other = new_game(client)
    r = client.post(
        f"/api/games/{other['id']}/actions",
        json={"token": other["seats"][0]["token"], "state_id": 0, "action": "roll"},
    )
    assert r.json()["events"] == acted["events"]
    log = client.get(f"/api/games/{gid}/log").json()
    assert log["entries"][0]["state_id"] == 0  # who starts, then the first move
    assert log["entries"][1]["events"] == acted["events"]


@pytest.mark.parametrize(
    ("message", "status", "words"),
    [
        ({"type": "act", "action": "roll", "state_id": 3, "ref": 1}, 409, "stale state_id 3"),
        ({"type": "act", "action": "fly", "state_id": 0, "ref": 1}, 422, "fly"),
        ({"type": "act", "action": "roll", "state_id": -1, "ref": 1}, 422, "state_id"),
        ({"type": "act", "action": 5, "state_id": 0, "ref": 1}, 422, "action"),
        ({"type": "act", "action": "", "state_id": 0, "ref": 1}, 422, "action"),
        ({"type": "act", "action": "r" * 500, "state_id": 0, "ref": 1}, 422, "action"),
        ({"type": "act", "state_id": 0, "ref": 1}, 422, "action: Field required"),
        ({"type": "act", "action": "roll", "state_id": 0, "ref": 1, "x": 1}, 422, "x: Extra"),
        ({"type": "act", "action": "roll", "state_id": 0, "ref": "a"}, 422, "ref"),
    ],
)
def test_a_refused_action_says_why_and_changes_nothing(
    client: TestClient, message: dict[str, Any], status: int, words: str
) -> None:
    g = new_game(client)
    gid, t0 = g["id"], g["seats"][0]["token"]
    before = game_only(position(client, gid, t0).json())
    with seat_socket(client, gid, t0) as ws:
        ws.send_json(message)
        refused = next_of(ws, "refused")
        assert refused["status"] == status and words in refused["detail"], refused
        assert refused["ref"] == (1 if isinstance(message.get("ref"), int) else None)
        assert game_only(position(client, gid, t0).json()) == before
        # The socket stays open and the seat can still play.
        ws.send_json({"type": "act", "action": "roll", "state_id": 0, "ref": 2})
        assert next_of(ws, "acted")["ref"] == 2


def test_a_stale_action_tells_the_position(client: TestClient) -> None:
    g = new_game(client)
    gid, t0 = g["id"], g["seats"][0]["token"]
    with seat_socket(client, gid, t0) as ws:
        ws.send_json({"type": "act", "action": "roll", "state_id": 0, "ref": 1})
        at = next_of(ws, "acted")["state_id"]
        # (The same roll again would be a repeat, answered as applied: test_exactly_once.py.)
        ws.send_json({"type": "act", "action": "end_turn", "state_id": 0, "ref": 2})
        refused = next_of(ws, "refused")
        assert refused["status"] == 409 and refused["state_id"] == at and refused["ref"] == 2


def test_only_the_seat_whose_turn_it_is_acts(client: TestClient) -> None:
    g = new_game(client)
    gid, t1 = g["id"], g["seats"][1]["token"]
    with seat_socket(client, gid, t1) as ws:
        ws.send_json({"type": "act", "action": "roll", "state_id": 0})
        refused = next_of(ws, "refused")
        assert refused["status"] == 422 and "not your turn" in refused["detail"]
        assert refused["ref"] is None
    assert client.get(f"/api/games/{gid}").json()["state_id"] == 0


def test_a_spectator_cannot_act(client: TestClient) -> None:
    g = new_game(client)
    gid = g["id"]
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        assert ws.receive_json()["seat"] is None
        ws.send_json({"type": "act", "action": "roll", "state_id": 0, "ref": 4})
        refused = next_of(ws, "refused")
        assert refused["status"] == 403 and "auth" in refused["detail"] and refused["ref"] == 4
        # and it may still become a seat's socket, and then act
        ws.send_json({"type": "auth", "token": g["seats"][0]["token"]})
        assert ws.receive_json()["seat"] == 0
        ws.send_json({"type": "act", "action": "roll", "state_id": 0, "ref": 5})
        assert next_of(ws, "acted")["ref"] == 5
    assert client.get(f"/api/games/{gid}").json()["state_id"] >= 1


def test_actions_per_socket_are_limited_apart_from_other_messages(db_url: str) -> None:
    limits = replace(NO_LIMITS, socket_messages=2, socket_actions=3)
    app = create_app(db_url, 0.0, allowed_hosts=TEST_HOSTS, limits=limits)
    with TestClient(app, client=("127.0.0.1", 50000)) as client:  # (/metrics: from loopback)
        g = new_game(client)
        gid, t1 = g["id"], g["seats"][1]["token"]
        with seat_socket(client, gid, t1) as ws:  # its auth was one message of two
            ws.send_json({"type": "noise"})  # the second: actions are counted apart
            for _ in range(3):  # not seat 1's turn: refused, but counted
                ws.send_json({"type": "act", "action": "roll", "state_id": 0})
                assert next_of(ws, "refused")["status"] == 422
            ws.send_json({"type": "act", "action": "roll", "state_id": 0})
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    ws.receive_json()
            assert closed.value.code == 1008 and "too many actions" in closed.value.reason
        assert client.get(f"/api/games/{gid}").json()["state_id"] == 0
        assert 'meeple_limit_hits_total{limit="socket_actions"} 1.0' in client.get("/metrics").text
