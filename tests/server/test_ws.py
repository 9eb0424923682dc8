"""WebSockets: a view on connecting, an update after every committed action, and no secrets."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.server.conftest import new_game, wait_for

FORBIDDEN_KEYS = {"rng", "decks_order", "deck_order", "order", "token", "seed", "snapshot"}


def keys(value: Any) -> set[str]:
    out: set[str] = set()
    if isinstance(value, dict):
        for k, v in value.items():
            out.add(k)
            out |= keys(v)
    elif isinstance(value, list):
        for v in value:
            out |= keys(v)
    return out


def check_clean(msg: dict[str, Any], foreign_tokens: list[str]) -> None:
    """No other seat's token, no random state, no deck order anywhere in a message."""
    text = json.dumps(msg)
    for t in foreign_tokens:
        assert t not in text
    assert not keys(msg) & FORBIDDEN_KEYS, keys(msg) & FORBIDDEN_KEYS
    for deck in msg.get("view", {}).get("decks", []):  # a deck's size, never its cards
        assert set(deck) <= {"id", "name", "cards_left"}, deck


def test_seat_gets_updates_after_an_action(client: TestClient) -> None:
    g = new_game(client)
    gid, t0, t1 = g["id"], g["seats"][0]["token"], g["seats"][1]["token"]
    with client.websocket_connect(f"/api/games/{gid}/ws?token={t1}") as ws:
        hello = ws.receive_json()
        assert hello["type"] == "hello" and hello["seat"] == 1 and hello["state_id"] == 0
        assert hello["view"]["seat"] == 1
        r = client.post(
            f"/api/games/{gid}/actions", json={"token": t0, "state_id": 0, "action": "roll"}
        )
        assert r.status_code == 200
        msg = ws.receive_json()
        assert msg["state_id"] == 1 and msg["events"] == r.json()["events"]
        assert msg["view"]["seat"] == 1
        check_clean(msg, [t0])
        check_clean(hello, [t0])


def test_invalid_token_is_a_policy_violation(client: TestClient) -> None:
    g = new_game(client)
    with client.websocket_connect(f"/api/games/{g['id']}/ws?token=wrong") as ws:
        with pytest.raises(WebSocketDisconnect) as exc:
            ws.receive_json()
        assert exc.value.code == 1008
    with client.websocket_connect("/api/games/nosuchgame/ws") as ws:
        with pytest.raises(WebSocketDisconnect) as exc:
            ws.receive_json()
        assert exc.value.code == 1008


@pytest.mark.parametrize("game", ["classic", "monopolis"])
def test_every_message_of_a_long_game_is_clean(client: TestClient, game: str) -> None:
    """Two humans and a bot play 60 human moves (or to the end); every message is inspected."""
    seats = [
        {"type": "human", "name": "Ann"},
        {"type": "human", "name": "Bob"},
        {"type": "bot", "bot": "random"},
    ]
    # A person starts, so no move is made before the sockets listen (Monopolis draws its start
    # player: seed 7 draws Ann; a classic game of conftest.new_game starts with Player 1).
    g = new_game(client, game=game, seats=seats, seed=5 if game == "classic" else 7)
    gid = g["id"]
    tokens = [s["token"] for s in g["seats"][:2]]
    seen = 0
    with (
        client.websocket_connect(f"/api/games/{gid}/ws") as spectator,
        client.websocket_connect(f"/api/games/{gid}/ws?token={tokens[0]}") as seat0,
    ):
        check_clean(spectator.receive_json(), tokens)
        check_clean(seat0.receive_json(), tokens[1:])
        state_id = 0
        # A generous deadline: the suite runs on two busy cores; the count, not the time, matters.
        moves, deadline = 0, time.monotonic() + 180
        while moves < 60 and time.monotonic() < deadline:
            pub = client.get(f"/api/games/{gid}").json()
            if pub["status"] == "finished":
                break
            cp = pub["current_player"]
            if cp not in (0, 1):
                time.sleep(0.002)  # the bot moves
                continue
            v = client.get(f"/api/games/{gid}/view", params={"token": tokens[cp]}).json()
            if not v["legal_actions"]:
                continue
            r = client.post(
                f"/api/games/{gid}/actions",
                json={
                    "token": tokens[cp],
                    "state_id": v["state_id"],
                    "action": v["legal_actions"][-1]["action"],
                },
            )
            assert r.status_code in (200, 409), r.text
            moves += r.status_code == 200
        state_id = client.get(f"/api/games/{gid}").json()["state_id"]
        # drain both sockets up to the last state: every message in order, every one clean
        for ws, foreign, seat in ((spectator, tokens, None), (seat0, tokens[1:], 0)):
            last = 0
            while last < state_id:
                msg = ws.receive_json()
                check_clean(msg, foreign)
                if msg["type"] == "seats":  # who is here (a seat's page connected)
                    continue
                assert msg["state_id"] == last + 1  # one message per action, none skipped
                assert msg["view"]["seat"] == seat
                check_clean(msg, foreign)
                last = msg["state_id"]
                seen += 1
    assert moves == 60 or pub["status"] == "finished", (moves, state_id)
    assert seen == 2 * state_id
    assert state_id >= 60 or pub["status"] == "finished"


def test_auth_message_makes_the_socket_a_seats(client: TestClient) -> None:
    """The token in the first message, not the URL: a spectator's hello, then the seat's."""
    g = new_game(client)
    gid, t0, t1 = g["id"], g["seats"][0]["token"], g["seats"][1]["token"]
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        watching = ws.receive_json()
        assert watching["type"] == "hello" and watching["seat"] is None
        # a seat's hold needs its socket: this one is a spectator's until it authenticates
        assert "connect it first" in hold(client, gid, t1).text
        ws.send_text("not json")  # anything but an auth message is ignored
        ws.send_json({"type": "something-later"})
        ws.send_json({"type": "auth", "token": t1})
        hello = ws.receive_json()
        assert hello["type"] == "hello" and hello["seat"] == 1 and hello["state_id"] == 0
        assert hello["view"]["seat"] == 1 and "ask" in hello
        check_clean(hello, [t0])
        assert hold(client, gid, t1).status_code == 200
        r = client.post(
            f"/api/games/{gid}/actions", json={"token": t0, "state_id": 0, "action": "roll"}
        )
        assert r.status_code == 200
        msg = ws.receive_json()
        while msg["type"] != "update":  # the hold's own "seat" message may come first
            msg = ws.receive_json()
        assert msg["state_id"] == 1 and msg["view"]["seat"] == 1
        check_clean(msg, [t0])

    # the socket closed: the seat has none left, so it cannot hold
    wait_for(lambda: hold(client, gid, t1).status_code == 422)


def hold(client: TestClient, gid: str, token: str) -> Any:
    return client.post(f"/api/games/{gid}/hold", json={"token": token, "hold": True})


@pytest.mark.parametrize(
    "auth",
    [
        {"type": "auth", "token": "wrong"},
        {"type": "auth", "token": None},
        {"type": "auth"},
        {"type": "auth", "token": "x" * 10_000},
    ],
)
def test_bad_auth_message_is_a_policy_violation(client: TestClient, auth: Any) -> None:
    g = new_game(client)
    with client.websocket_connect(f"/api/games/{g['id']}/ws") as ws:
        assert ws.receive_json()["seat"] is None
        ws.send_json(auth)
        with pytest.raises(WebSocketDisconnect) as exc:
            ws.receive_json()
        assert exc.value.code == 1008 and exc.value.reason


def test_a_socket_authenticates_once(client: TestClient) -> None:
    g = new_game(client)
    gid, t0, t1 = g["id"], g["seats"][0]["token"], g["seats"][1]["token"]
    with client.websocket_connect(f"/api/games/{gid}/ws?token={t0}") as ws:  # the old way
        assert ws.receive_json()["seat"] == 0
        ws.send_json({"type": "auth", "token": t1})
        with pytest.raises(WebSocketDisconnect) as exc:
            ws.receive_json()
        assert exc.value.code == 1008 and "already" in exc.value.reason
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:  # the new way
        assert ws.receive_json()["seat"] is None
        ws.send_json({"type": "auth", "token": t1})
        assert ws.receive_json()["seat"] == 1
        ws.send_json({"type": "auth", "token": t0})
        with pytest.raises(WebSocketDisconnect) as exc:
            ws.receive_json()
        assert exc.value.code == 1008
