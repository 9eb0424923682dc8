"""A table that never stalls (issue 38; docs/SERVER.md, "A table that never stalls"): everyone
sees who is here and who is away; a decision that waits on someone away goes to the standard
bot after the away timer (on in every game, private ones too), a present person has the longer
turn timer; another person may hand an away seat to the bot after a short wait, never a
present one; the seat is its person's again when they come back; and the table counts down
only where the person could want to act."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meeple.server import hub as hub_module
from meeple.server.hub import AWAY_TIMER, HANDOVER_AFTER, TURN_BEAT, pause_before
from meeple.server.schemas import TURN_TIMER
from tests.server.conftest import new_game, wait_for, wake

ANN, BOB = {"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}
BOTS = [{"type": "bot", "bot": "standard", "name": n} for n in ("Bolt", "Cog", "Dex")]


def public(client: TestClient, gid: str) -> dict[str, Any]:
    r = client.get(f"/api/games/{gid}")
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def view(client: TestClient, gid: str, token: str) -> dict[str, Any]:
    r = client.get(f"/api/games/{gid}/view", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


@contextlib.contextmanager
def page(client: TestClient, gid: str, token: str) -> Iterator[list[dict[str, Any]]]:
    """A person's page open: their seat's socket, every message it hears kept in order."""
    heard: list[dict[str, Any]] = []
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        ws.receive_json()
        ws.send_json({"type": "auth", "token": token})
        heard.append(ws.receive_json())

        def read() -> None:
            with contextlib.suppress(Exception):
                while True:
                    heard.append(ws.receive_json())

        threading.Thread(target=read, daemon=True).start()
        yield heard


def stand_in(client: TestClient, gid: str, token: str, seat: int, on: bool = True) -> Any:
    return client.post(f"/api/games/{gid}/stand-in", json={"token": token, "seat": seat, "on": on})


def live_game(client: TestClient, gid: str) -> Any:
    return client.app.state.hub.games[gid]  # type: ignore[attr-defined]


def test_everyone_sees_who_is_here_and_who_is_away(client: TestClient) -> None:
    g = new_game(client, seats=[ANN, BOB])
    gid, ann, bob = g["id"], g["seats"][0]["token"], g["seats"][1]["token"]
    seats = public(client, gid)["seats"]
    assert [s["connected"] for s in seats] == [False, False]  # nobody has opened a page yet
    assert all(s["away_for"] >= 0 for s in seats)
    with page(client, gid, bob) as bobs:
        assert bobs[0]["type"] == "hello" and bobs[0]["seats"][1]["connected"] is True
        with page(client, gid, ann):
            # Bob's page hears that Ann is here; the public view (a spectator's) says so too.
            wait_for(lambda: any(m["type"] == "seats" for m in bobs))
            told = next(m for m in bobs if m["type"] == "seats")["seats"]
            assert [(s["connected"], s["away_for"]) for s in told] == [(True, None)] * 2
            assert [s["connected"] for s in public(client, gid)["seats"]] == [True, True]
            assert view(client, gid, bob)["seats"][0]["connected"] is True
        # Ann closed her tab: Bob's page is told at once, and sees how long she has been away.
        wait_for(lambda: sum(m["type"] == "seats" for m in bobs) == 2)
        gone = [m for m in bobs if m["type"] == "seats"][-1]["seats"][0]
        assert gone["connected"] is False and 0 <= gone["away_for"] < 5
        # The timer running on Ann's decision (she starts) is the away timer now.
        timer = public(client, gid)["timer"]
        assert timer["seat"] == 0 and timer["away"] is True and timer["left"] <= AWAY_TIMER
    bots = public(client, new_game(client, seats=[ANN, *BOTS[:1]])["id"])["seats"]
    assert (bots[1]["connected"], bots[1]["away_for"]) == (None, None)  # a bot has no presence


def test_every_game_has_timers_by_default_private_ones_too(client: TestClient) -> None:
    r = client.post(
        "/api/games", json={"game": "classic", "seats": [ANN, BOB, *BOTS[:1]], "listed": False}
    )
    gid = r.json()["id"]
    live = live_game(client, gid)
    assert (live.turn_timer, live.away_timer) == (TURN_TIMER, AWAY_TIMER) == (300, 30)
    timers = {"turn": TURN_TIMER, "away": AWAY_TIMER, "handover": HANDOVER_AFTER}
    assert public(client, gid)["timers"] == timers
    assert client.get("/api/timers").json() == {
        "turn_timer": TURN_TIMER, "away_timer": AWAY_TIMER, "handover_after": HANDOVER_AFTER,
    }  # fmt: skip


def test_a_decision_waiting_on_someone_away_goes_to_the_bot_until_they_are_back(
    client: TestClient,
) -> None:
    """The issue's stall: two people in a private game, the one whose turn it is has gone.
    The away timer (shortened here; the default path is the one above) gives her seat to the
    standard bot, the game moves on, and her page opening again gives it back."""
    body = {"game": "classic", "seats": [ANN, BOB], "listed": False, "seed": 5}
    g = client.post("/api/games", json={**body, "rules": {"start_player": "first_seat"}}).json()
    gid, ann, bob = g["id"], g["seats"][0]["token"], g["seats"][1]["token"]
    live = live_game(client, gid)
    with page(client, gid, bob) as bobs:
        live.away_timer = 0.3
        wake(client, live)
        wait_for(lambda: public(client, gid)["seats"][0]["stand_in"] is True)
        wait_for(lambda: public(client, gid)["state_id"] > 0)  # the bot played Ann's turn
        assert any(m["type"] == "seats" and m["seats"][0]["stand_in"] for m in bobs)
        with page(client, gid, ann):
            wait_for(lambda: public(client, gid)["seats"][0]["stand_in"] is False)
            assert view(client, gid, ann)["seats"][0]["connected"] is True


def test_a_seat_the_timer_gave_to_the_bot_comes_back_by_itself_after_a_restart(
    client: TestClient,
) -> None:
    """Which stand-in goes when its person is back (the timer's, a hand-over's) is stored with
    the seat: a game rebuilt from storage (a restart, a takeover) still hands the seat back when
    the person's page opens, and a stand-in the person asked for stays until they take it."""
    body = {"game": "classic", "seats": [ANN, BOB], "listed": False, "seed": 5}
    g = client.post("/api/games", json={**body, "rules": {"start_player": "first_seat"}}).json()
    gid, bob = g["id"], g["seats"][1]["token"]
    hub = client.app.state.hub  # type: ignore[attr-defined]
    live = live_game(client, gid)
    with page(client, gid, bob):
        live.away_timer = 0.3
        wake(client, live)
        # (stored just after the seat shows it: the page sees the change first)
        wait_for(lambda: hub.storage.load_game(gid).seats[0].stand_in)
    stored = hub.storage.load_game(gid)
    assert stored.seats[0].stand_in and stored.seats[0].stand_in_idle
    assert hub_module.rebuild(stored).seats[0].idle
    assert stand_in(client, gid, bob, 1).status_code == 200  # Bob's own: not idle
    stored = hub.storage.load_game(gid)
    assert stored.seats[1].stand_in and not stored.seats[1].stand_in_idle
    assert not hub_module.rebuild(stored).seats[1].idle


def test_a_person_who_is_here_has_the_turn_timer_not_the_away_timer(client: TestClient) -> None:
    g = new_game(client, seats=[ANN, BOB])
    gid, ann = g["id"], g["seats"][0]["token"]
    live = live_game(client, gid)
    with page(client, gid, ann):
        live.away_timer = 0.2
        wake(client, live)
        time.sleep(1.0)  # five away timers: none applies to someone who is here
        pub = public(client, gid)
        assert pub["seats"][0]["stand_in"] is False and pub["state_id"] == 0
        assert pub["timer"]["seat"] == 0 and pub["timer"]["away"] is False
        assert pub["timer"]["left"] > 200  # the turn timer's 300 s
        live.turn_timer = 0.2  # her turn timer runs out: a bot plays for her after all
        wake(client, live)
        wait_for(lambda: public(client, gid)["seats"][0]["stand_in"] is True)


def test_another_person_may_hand_an_away_seat_to_the_bot_after_a_short_wait(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    g = new_game(client, seats=[ANN, BOB, *BOTS[:1]])
    gid, ann, bob = g["id"], g["seats"][0]["token"], g["seats"][1]["token"]
    with page(client, gid, ann):
        r = stand_in(client, gid, bob, 0)
        assert r.status_code == 409 and "Ann is here" in r.json()["detail"]  # never a present seat
    r = stand_in(client, gid, bob, 0)  # she has only just left
    assert r.status_code == 409 and "has been away 0 s" in r.json()["detail"], r.text
    assert public(client, gid)["seats"][0]["stand_in"] is False
    monkeypatch.setattr(hub_module, "HANDOVER_AFTER", 0.3)
    time.sleep(0.4)
    r = client.post(f"/api/games/{gid}/stand-in", json={"token": "nope", "seat": 0, "on": True})
    assert r.status_code == 403  # not a seat of the game
    r = stand_in(client, gid, bob, 0)
    assert r.status_code == 200 and r.json()["seats"][0]["stand_in"] is True, r.text
    wait_for(lambda: public(client, gid)["state_id"] > 0)  # the bot plays her turn
    r = stand_in(client, gid, bob, 0, on=False)
    assert r.status_code == 403  # only Ann (or the host) takes her seat back
    with page(client, gid, ann):  # Ann is back: her seat is hers again, by itself
        wait_for(lambda: public(client, gid)["seats"][0]["stand_in"] is False)


def test_no_countdown_where_the_person_has_nothing_to_decide(client: TestClient) -> None:
    """A person with a 30 s countdown set: it is offered at their own roll and end of turn
    only; in others' turns and for forced moves the table moves on at once (with the game at
    30 s a window, reaching Ann's next turn within the wait below would be impossible)."""
    ask = {"others_turns": "never", "own_turn": "build", "grace": 30}
    g = new_game(client, seats=[{**ANN, "ask": ask}, *BOTS], seed=11)
    gid, ann = g["id"], g["seats"][0]["token"]
    with page(client, gid, ann) as heard:
        assert view(client, gid, ann)["auto"] == {
            "action": "roll", "text": "Roll the dice", "moment": "roll", "grace": 30,
        }  # fmt: skip
        turns, end = 0, time.monotonic() + 60  # (a bound, not a timing: 30 s a window hangs)
        while turns < 3:  # Ann plays three turns herself; the table passes for her between
            assert time.monotonic() < end, "the table waited in others' turns"
            v = view(client, gid, ann)
            if v["current_player"] != 0 or not v["legal_actions"]:
                time.sleep(0.01)
                continue
            auto = v["auto"]
            own = auto is not None and auto["moment"] in ("roll", "end_turn")
            if auto is not None and not own:
                continue  # the table moves on at once
            choice = auto["action"] if own else v["legal_actions"][0]["action"]
            if "buy" in [a["action"] for a in v["legal_actions"]]:
                choice = "buy"
            r = client.post(
                f"/api/games/{gid}/actions",
                json={"token": ann, "state_id": v["state_id"], "action": choice},
            )
            assert r.status_code in (200, 409), r.text
            turns += r.status_code == 200 and choice == "end_turn"
        offered = [m["auto"] for m in heard if m.get("auto")]
    moments = {a["moment"]: a["grace"] for a in offered}
    assert moments.get("others_turn") == 0.0 and moments["roll"] == 30 and moments["end_turn"] == 30
    assert all(a["grace"] == 0 for a in offered if a["moment"] in ("others_turn", "forced"))


def test_the_lobby_settings_count_down_nowhere(client: TestClient) -> None:
    """The lobby's settings for a game (the catalog's ``ask``) have no countdown: the roll
    with nothing to weigh is played at the table's pace."""
    catalog = {g["game"]: g["ask"] for g in client.get("/api/catalog").json()}
    assert catalog["classic"] == {"others_turns": "never", "own_turn": "build", "grace": 0.0}
    assert catalog["my-first-monopoly-1"]["own_turn"] == "roll"  # the child rolls
    g = new_game(client, seats=[{**ANN, "ask": catalog["classic"]}, *BOTS], seed=3)
    gid, ann = g["id"], g["seats"][0]["token"]
    with page(client, gid, ann) as heard:
        wait_for(lambda: public(client, gid)["state_id"] > 0)  # rolled for her at once
        offered = [m["auto"] for m in heard if m.get("auto")]
    assert offered and all(a["grace"] == 0 for a in offered)
    kids = new_game(
        client, "my-first-monopoly-1", [{**ANN, "ask": catalog["my-first-monopoly-1"]}, *BOTS]
    )
    v = view(client, kids["id"], kids["seats"][0]["token"])
    assert v["auto"] is None and [a["action"] for a in v["legal_actions"]] == ["roll"]


def test_the_tables_pace() -> None:
    """Moves that show nothing go at once; a turn's first roll waits longest."""
    from meeple.kernel.family import new_game as engine_game
    from meeple.kernel.protocol import Action

    s = engine_game("classic", 3, 1, {"rules": {"start_player": "first_seat"}})
    roll = Action("roll")
    assert pause_before(0.5, s, roll, shown=True) == TURN_BEAT * 0.5
    assert pause_before(0.5, s, roll, shown=False) == 0.0
    assert pause_before(0.0, s, roll, shown=True) == 0.0
    s.apply(roll)
    legal = s.legal_actions()
    assert pause_before(0.5, s, legal[0], shown=True) == 0.5
