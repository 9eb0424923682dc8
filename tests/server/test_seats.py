"""Seats that come back (docs/SERVER.md, "Seats, invites and the host"): open seats filled
through one invite code, the host's start, cancel and hand-over to a bot, names people can
tell apart, private games."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

from meeple.server.app import create_app
from tests.server.conftest import TEST_HOSTS, wait_for, wake

ANN = {"type": "human", "name": "Ann"}
OPEN = {"type": "open"}
BOT = {"type": "bot", "bot": "standard"}


def make(client: TestClient, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    r = client.post("/api/games", json={"game": "classic", "seats": seats, "seed": 4, **extra})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def public(client: TestClient, gid: str) -> dict[str, Any]:
    r = client.get(f"/api/games/{gid}")
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def join(client: TestClient, gid: str, code: str, seat: int, name: str) -> Any:
    return client.post(f"/api/games/{gid}/join", json={"code": code, "seat": seat, "name": name})


def test_an_invite_fills_open_seats_then_the_host_starts(client: TestClient) -> None:
    g = make(client, [ANN, OPEN, OPEN, BOT])
    gid, host, code = g["id"], g["host_token"], g["invite"]
    assert g["invite_url"] == f"/join/{gid}#code={code}"  # the code never reaches a log
    assert g["seats"][0]["url"] == f"/play/{gid}#token={g['seats'][0]['token']}"
    assert [s["token"] for s in g["seats"][1:]] == [None, None, None]
    p = public(client, gid)
    assert p["status"] == "waiting"
    assert [(s["type"], s["name"]) for s in p["seats"]][:3] == [
        ("human", "Ann"), ("open", "Seat 2"), ("open", "Seat 3"),
    ]  # fmt: skip
    assert p["seats"][3]["type"] == "bot" and p["seats"][3]["name"].endswith(" (bot)")
    ann = g["seats"][0]["token"]
    r = client.post(
        f"/api/games/{gid}/actions", json={"token": ann, "state_id": 0, "action": "roll"}
    )
    assert r.status_code == 422 and "host starts it" in r.json()["detail"]

    assert join(client, gid, "wrong", 1, "Bob").status_code == 403
    assert join(client, gid, code, 3, "Bob").status_code == 409  # a bot's seat
    for name, why in (("ann", "taken"), ("Player 2", "reserved"), ("Standard bot 9", "reserved")):
        r = join(client, gid, code, 1, name)
        assert r.status_code == 422 and why in r.json()["detail"], r.text
    r = join(client, gid, code, 1, "  Bob  ")
    assert r.status_code == 200, r.text
    bob = r.json()["token"]
    assert r.json()["url"] == f"/play/{gid}#token={bob}"
    assert join(client, gid, code, 1, "Cleo").status_code == 409  # taken meanwhile
    v = client.get(f"/api/games/{gid}/view", params={"token": bob}).json()
    assert v["seat"] == 1 and v["seats"][1]["name"] == "Bob" and v["legal_actions"] == []
    assert v["ask"] == {"others_turns": "never", "own_turn": "build", "grace": 0.0}

    assert client.post(f"/api/games/{gid}/start", json={"host_token": ann}).status_code == 403
    r = client.post(f"/api/games/{gid}/start", json={"host_token": host})
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "active"
    names = [s["name"] for s in r.json()["seats"]]
    assert names[:2] == ["Ann", "Bob"] and names[3] == p["seats"][3]["name"]
    assert names[2].endswith(" (bot)") and r.json()["seats"][2]["bot"] == "standard"
    assert len({n[0] for n in names}) == 4  # bots' names have initials of their own
    assert join(client, gid, code, 2, "Dan").status_code == 409  # started: no more joining
    r = client.post(
        f"/api/games/{gid}/actions", json={"token": ann, "state_id": 0, "action": "roll"}
    )
    assert r.status_code == 200, r.text


def test_the_host_cancels_and_a_restart_keeps_every_status(db_url: str) -> None:
    with TestClient(create_app(db_url, 0.0, allowed_hosts=TEST_HOSTS)) as client:
        waiting = make(client, [ANN, OPEN])
        cancelled = make(client, [ANN, BOT])
        r = client.post(
            f"/api/games/{cancelled['id']}/cancel", json={"host_token": waiting["host_token"]}
        )
        assert r.status_code == 403  # another game's host
        r = client.post(
            f"/api/games/{cancelled['id']}/cancel", json={"host_token": cancelled["host_token"]}
        )
        assert r.status_code == 200 and r.json()["status"] == "cancelled"
        stopped_at = r.json()["state_id"]
        ann = cancelled["seats"][0]["token"]
        r = client.post(
            f"/api/games/{cancelled['id']}/actions",
            json={"token": ann, "state_id": stopped_at, "action": "roll"},
        )
        assert r.status_code == 422 and "cancelled" in r.json()["detail"]
    with TestClient(create_app(db_url, 0.0, allowed_hosts=TEST_HOSTS)) as client:
        assert public(client, waiting["id"])["status"] == "waiting"
        assert public(client, cancelled["id"])["status"] == "cancelled"
        assert public(client, cancelled["id"])["state_id"] == stopped_at  # nothing moved on
        code = waiting["invite"]
        assert join(client, waiting["id"], code, 1, "Bob").status_code == 200


def test_a_bot_plays_a_seat_for_its_person_and_gives_it_back(client: TestClient) -> None:
    bob = {"type": "human", "name": "Bob"}
    g = make(client, [ANN, bob])
    gid, host = g["id"], g["host_token"]
    ann, bob_token = g["seats"][0]["token"], g["seats"][1]["token"]
    r = client.post(f"/api/games/{gid}/stand-in", json={"token": bob_token, "seat": 0, "on": True})
    assert r.status_code == 409  # Bob cannot hand Ann's seat over: she left only just now
    assert "has been away" in r.json()["detail"]
    r = client.post(f"/api/games/{gid}/stand-in", json={"token": host, "seat": 0, "on": True})
    assert r.status_code == 200 and r.json()["seats"][0]["stand_in"] is True
    # The bot plays Ann's turn; Ann herself is refused while it does.
    wait_for(lambda: public(client, gid)["state_id"] > 0)
    v = client.get(f"/api/games/{gid}/view", params={"token": ann}).json()
    assert v["legal_actions"] == []
    # Ann takes her seat back with her own token; then only people move.
    r = client.post(f"/api/games/{gid}/stand-in", json={"token": ann, "seat": 0, "on": False})
    assert r.status_code == 200 and r.json()["seats"][0]["stand_in"] is False

    # Two people asked at every decision (no ask settings): nothing moves by itself now.
    still = public(client, gid)["state_id"]
    time.sleep(0.3)
    assert public(client, gid)["state_id"] == still
    r = client.post(f"/api/games/{gid}/stand-in", json={"token": host, "seat": 5, "on": True})
    assert r.status_code == 422 and "not a person's seat" in r.json()["detail"]


def test_private_games_are_not_listed(client: TestClient) -> None:
    private = make(client, [ANN, BOT], listed=False)
    listed = make(client, [ANN, BOT])
    ids = {g["id"] for g in client.get("/api/games").json()}
    assert listed["id"] in ids and private["id"] not in ids
    assert public(client, private["id"])["id"] == private["id"]  # reachable by its id


def test_names_are_checked_when_a_game_is_made(client: TestClient) -> None:
    seats = [ANN, {"type": "human", "name": "ANN"}]
    r = client.post("/api/games", json={"game": "classic", "seats": seats})
    assert r.status_code == 422 and "taken" in r.json()["detail"]
    seats = [ANN, {"type": "human", "name": "player 1"}]
    r = client.post("/api/games", json={"game": "classic", "seats": seats})
    assert r.status_code == 422 and "reserved" in r.json()["detail"]
    assert client.get("/api/games").json() == []  # nothing was made


def test_the_turn_timer_hands_an_idle_seat_to_a_bot_until_its_person_is_back(
    client: TestClient,
) -> None:
    """With a turn timer, a person who lets a decision wait too long is played by the standard
    bot; opening their page gives the seat back."""
    g = make(client, [ANN, BOT], turn_timer=10)
    gid, ann = g["id"], g["seats"][0]["token"]
    live = client.app.state.hub.games[gid]  # type: ignore[attr-defined]
    live.turn_timer = 0.2  # the API's floor is 10 s; the test shortens the wait
    wake(client, live)
    wait_for(lambda: public(client, gid)["seats"][0]["stand_in"] is True)
    wait_for(lambda: public(client, gid)["state_id"] > 0)  # the bot played Ann's turn
    with client.websocket_connect(f"/api/games/{gid}/ws?token={ann}") as ws:
        ws.receive_json()
        wait_for(lambda: public(client, gid)["seats"][0]["stand_in"] is False)
    r = client.post("/api/games", json={"game": "classic", "seats": [ANN, BOT], "turn_timer": 5})
    assert r.status_code == 422  # under 10 s


def test_the_turn_timer_is_on_unless_turned_off(client: TestClient) -> None:
    """Every game has a turn timer by default, private ones too (issue 38); ``null`` turns it
    off. The public view says which timers run."""
    hub = client.app.state.hub  # type: ignore[attr-defined]
    private = make(client, [ANN, BOT], listed=False)
    assert hub.games[private["id"]].turn_timer == 300
    assert public(client, private["id"])["timers"] == {"turn": 300, "away": 30, "handover": 10}
    off = make(client, [ANN, BOT], turn_timer=None)
    assert hub.games[off["id"]].turn_timer is None
    assert public(client, off["id"])["timers"]["turn"] is None
