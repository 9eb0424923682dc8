"""The table moves on by itself: a person is asked only for real decisions (docs/SERVER.md)."""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from meeple.bots.base import make_bot
from meeple.kernel.asking import AskSettings, auto_move
from meeple.kernel.family import new_game as engine_game
from meeple.kernel.protocol import Action
from meeple.kernel.rng import derive_seed
from meeple.server.app import create_app
from meeple.server.storage import Storage
from tests.server.conftest import TEST_HOSTS, new_game, wait_for

BOTS = [{"type": "bot", "bot": "standard", "name": n} for n in ("Bolt", "Cog", "Dex")]


def human(ask: dict[str, Any] | None) -> dict[str, Any]:
    seat: dict[str, Any] = {"type": "human", "name": "Ann"}
    if ask is not None:
        seat["ask"] = ask
    return seat


@contextlib.contextmanager
def present(client: TestClient, gid: str, token: str) -> Iterator[None]:
    """The person's page is open: a socket connected, its updates read as they come."""
    with client.websocket_connect(f"/api/games/{gid}/ws?token={token}") as ws:

        def read() -> None:
            with contextlib.suppress(Exception):
                while True:
                    ws.receive_json()

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        yield


def view(client: TestClient, gid: str, token: str) -> dict[str, Any]:
    r = client.get(f"/api/games/{gid}/view", params={"token": token})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def next_question(client: TestClient, gid: str, token: str) -> dict[str, Any]:
    """The view once the person is asked something (legal actions and nothing automatic)."""
    box: dict[str, Any] = {}

    def asked() -> bool:
        v = view(client, gid, token)
        box["v"] = v
        return v["status"] == "finished" or (bool(v["legal_actions"]) and v["auto"] is None)

    wait_for(asked, 30)
    return box["v"]


def stored_actions(client: TestClient, gid: str) -> list[str]:
    storage: Storage = client.app.state.hub.storage  # type: ignore[attr-defined]
    return storage.actions(gid)


def answer_questions(
    client: TestClient, gid: str, token: str, settings: AskSettings, count: int, seed: int
) -> int:
    """Answer the person's next ``count`` questions (buy when it can, else the first choice),
    checking that each is one the asking rule asks; returns how many were answered."""
    asked = 0
    while asked < count:
        v = next_question(client, gid, token)
        if v["status"] == "finished":
            break
        # Rebuild the position from the stored actions: the person is asked here.
        s = engine_game("classic", 4, seed, {"rules": {"start_player": "first_seat"}})
        for text in stored_actions(client, gid):
            s.apply(Action.parse(text))
        assert len(s.history) == v["state_id"]
        assert s.current_player() == 0
        assert auto_move(s, 0, settings) is None
        legal = [a["action"] for a in v["legal_actions"]]
        assert legal == [str(a) for a in s.legal_actions()]
        choice = "buy" if "buy" in legal else legal[0]
        r = client.post(
            f"/api/games/{gid}/actions",
            json={"token": token, "state_id": v["state_id"], "action": choice},
        )
        assert r.status_code in (200, 409), r.text  # 409: the table moved on meanwhile
        asked += r.status_code == 200
    return asked


def test_a_person_is_asked_only_for_real_decisions(client: TestClient) -> None:
    """One person (never asked in others' turns, grace 0) and three standard bots: the person
    answers 40 questions; every one of them is a decision the asking rule asks, and the
    server played each pass, roll and end of turn in between. The game replayed from its
    stored actions is the server's game."""
    ask = {"others_turns": "never", "own_turn": "build", "grace": 0}
    g = new_game(client, seats=[human(ask), *BOTS], seed=11)
    gid, token = g["id"], g["seats"][0]["token"]
    settings = AskSettings.from_dict(ask)
    with present(client, gid, token):
        asked = answer_questions(client, gid, token, settings, 40, 11)
    # Every human move the person did not make was a move-on the rule allowed.
    s = engine_game("classic", 4, 11, {"rules": {"start_player": "first_seat"}})
    bots = [None] + [make_bot("standard", "monopoly", derive_seed(11, 1 + p)) for p in (1, 2, 3)]
    autos = 0
    for text in stored_actions(client, gid):
        a = Action.parse(text)
        p = s.current_player()
        bot = bots[p]
        if bot is not None:
            assert bot.choose(s) == a  # the bots played as the simulator would
        else:
            move = auto_move(s, 0, settings)
            if move is not None and move.action == a:
                autos += 1
        s.apply(a)
    assert asked >= 20 and autos > asked / 2


def test_without_settings_every_decision_is_asked(client: TestClient) -> None:
    """The API's default (no ``ask``): nothing is played for the person, as in API v1."""
    g = new_game(client, seats=[human(None), *BOTS], seed=3)
    gid, token = g["id"], g["seats"][0]["token"]
    v = view(client, gid, token)
    assert v["legal_actions"][0]["action"] == "roll" and v["auto"] is None and v["ask"] is None
    time.sleep(0.3)
    assert view(client, gid, token)["state_id"] == 0


def test_the_countdown_hold_and_release(client: TestClient) -> None:
    ask = {"others_turns": "never", "own_turn": "build", "grace": 30}
    g = new_game(client, seats=[human(ask), *BOTS], seed=3)
    gid, token = g["id"], g["seats"][0]["token"]
    assert view(client, gid, token)["auto"] is None  # the turn waits for the person's page
    r = client.post(f"/api/games/{gid}/hold", json={"token": token, "hold": True})
    assert r.status_code == 422 and "WebSocket" in r.json()["detail"]
    with client.websocket_connect(f"/api/games/{gid}/ws?token={token}") as ws:
        hello = ws.receive_json()
        auto = {"action": "roll", "text": "Roll the dice", "moment": "roll", "grace": 30}
        assert hello["auto"] == auto and hello["held"] is False
        assert view(client, gid, token)["auto"] == auto
        r = client.post(f"/api/games/{gid}/hold", json={"token": token, "hold": True})
        assert r.status_code == 200 and r.json()["held"] is True and r.json()["auto"] is None
        msg = ws.receive_json()
        assert msg == {"type": "seat", "state_id": 0, "seat": 0, "ask": ask, "held": True,
                       "auto": None, "proxy": None}  # fmt: skip
        # Holding, then rolling: moving on ends the hold.
        r = client.post(
            f"/api/games/{gid}/actions", json={"token": token, "state_id": 0, "action": "roll"}
        )
        assert r.status_code == 200
        assert view(client, gid, token)["held"] is False
        client.post(f"/api/games/{gid}/hold", json={"token": token, "hold": True})
        assert view(client, gid, token)["held"] is True
    # The page closed: the hold goes with it, so the table cannot stall on it.
    wait_for(lambda: view(client, gid, token)["held"] is False)


def test_settings_are_checked_stored_and_applied(db_url: str) -> None:
    with TestClient(create_app(db_url, 0.0, allowed_hosts=TEST_HOSTS)) as client:
        g = new_game(client, seats=[human(None), *BOTS], seed=3)
        gid, token = g["id"], g["seats"][0]["token"]
        bad = client.put(f"/api/games/{gid}/ask", json={"token": token, "own_turn": "never"})
        assert bad.status_code == 422 and "own_turn" in bad.text
        bad = client.put(f"/api/games/{gid}/ask", json={"token": token, "grace": 99})
        assert bad.status_code == 422 and "grace" in bad.text
        assert view(client, gid, token)["state_id"] == 0  # nothing moved
        wrong = client.put(f"/api/games/{gid}/ask", json={"token": "nope", "grace": 1})
        assert wrong.status_code == 403
        r = client.put(f"/api/games/{gid}/ask", json={"token": token, "grace": 30})
        assert r.status_code == 200
        assert r.json()["ask"]["grace"] == 30 and r.json()["auto"] is None  # nobody there
        assert r.json()["state_id"] == 0  # the position the answer's seat state belongs to
    # a restart keeps them
    with TestClient(create_app(db_url, 0.0, allowed_hosts=TEST_HOSTS)) as client:
        v = view(client, gid, token)
        assert v["ask"] == {"others_turns": "never", "own_turn": "build", "grace": 30.0}
        client.put(f"/api/games/{gid}/ask", json={"token": token, "grace": 0})
        time.sleep(0.2)
        assert view(client, gid, token)["state_id"] == 0  # a turn starts with the person there
        with present(client, gid, token):
            wait_for(lambda: view(client, gid, token)["state_id"] > 0)  # it rolled by itself


def test_an_older_database_gains_the_new_column(tmp_path: Path) -> None:
    """A database made before the columns added since keeps its games and gets them."""
    path = tmp_path / "old.sqlite"
    url = f"sqlite:///{path}"
    with TestClient(create_app(url, 0.0, allowed_hosts=TEST_HOSTS)) as client:
        g = new_game(client, seats=[human(None), human(None) | {"name": "Bob"}], seed=5)
    con = sqlite3.connect(path)
    added = {
        "seats": ["ask", "stand_in"],
        "games": ["host_hash", "invite_hash", "listed", "rematch", "turn_timer"],
    }
    for table, columns in added.items():
        for column in columns:
            con.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
    con.commit()
    con.close()
    with TestClient(create_app(url, 0.0, allowed_hosts=TEST_HOSTS)) as client:
        assert view(client, g["id"], g["seats"][1]["token"])["seat"] == 1
        assert g["id"] in {x["id"] for x in client.get("/api/games").json()}  # NULL: listed
    con = sqlite3.connect(path)
    for table, columns in added.items():
        have = {row[1] for row in con.execute(f"PRAGMA table_info({table})")}
        assert set(columns) <= have
    con.close()
