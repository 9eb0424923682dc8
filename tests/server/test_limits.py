"""The server's limits (docs/SERVER.md, "Limits"): each reached limit gets a 429 or a socket
closed with 1008, with the reason, and leaves every game as it was."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from meeple.server.app import create_app
from meeple.server.limits import Limits
from tests.server.conftest import TEST_HOSTS

SEATS = [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}]


def app(db_url: str, **limits: Any) -> TestClient:
    base = {"games_per_client_hour": None, "live_games": None, "sockets_per_game": None,
            "sockets_per_client": None, "socket_messages": None}  # fmt: skip
    return TestClient(
        create_app(db_url, 0.0, allowed_hosts=TEST_HOSTS, limits=Limits(**{**base, **limits}))
    )


def make(client: TestClient) -> Any:
    return client.post("/api/games", json={"game": "classic", "seats": SEATS})


def test_games_per_client_and_live_games(db_url: str) -> None:
    with app(db_url, games_per_client_hour=2) as client:
        assert make(client).status_code == 201 and make(client).status_code == 201
        r = make(client)
        assert r.status_code == 429 and "at most 2 an hour" in r.json()["detail"]
        assert len(client.get("/api/games").json()) == 2  # nothing made
        assert client.app.state.hub.limit_hits["games_per_client_hour"] == 1  # type: ignore[attr-defined]
    with app(db_url, live_games=3) as client:  # two stored already, from the same file
        assert make(client).status_code == 201
        r = make(client)
        assert r.status_code == 429 and "3 games waiting or in play" in r.json()["detail"]


def test_sockets_per_game_and_per_client(db_url: str) -> None:
    with app(db_url, sockets_per_game=2, sockets_per_client=3) as client:
        g1, g2 = make(client).json()["id"], make(client).json()["id"]
        with (
            client.websocket_connect(f"/api/games/{g1}/ws") as a,
            client.websocket_connect(f"/api/games/{g1}/ws") as b,
        ):
            a.receive_json(), b.receive_json()
            with client.websocket_connect(f"/api/games/{g1}/ws") as c:
                with pytest.raises(WebSocketDisconnect) as closed:
                    c.receive_json()
                assert closed.value.code == 1008 and "the most it takes" in closed.value.reason
            with client.websocket_connect(f"/api/games/{g2}/ws") as d:
                d.receive_json()  # a third socket for this client: allowed
                with client.websocket_connect(f"/api/games/{g2}/ws") as e:
                    with pytest.raises(WebSocketDisconnect) as closed:
                        e.receive_json()
                    assert "your address" in closed.value.reason
        # All closed: the counts went back down.
        with client.websocket_connect(f"/api/games/{g1}/ws") as f:
            assert f.receive_json()["type"] == "hello"


def test_messages_per_socket(db_url: str) -> None:
    with app(db_url, socket_messages=3, socket_window=60.0) as client:
        gid = make(client).json()["id"]
        with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
            ws.receive_json()
            for _ in range(4):
                ws.send_json({"type": "noise"})
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1008 and "too many messages" in closed.value.reason
        assert client.get(f"/api/games/{gid}").json()["state_id"] == 0
