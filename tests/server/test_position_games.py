"""Server games from a position (``POST /api/games`` with ``position``): the position is the
data a position file holds (``meeple.kernel.position``), checked by the kernel, carried in the
game's options, stored, replayed after a restart and in the history, and started again, with
a new future, by a rematch. A refused position leaves nothing behind."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meeple.kernel.family import new_game
from meeple.kernel.position import from_position, position_data
from meeple.kernel.protocol import Action
from meeple.server.app import BODY_LIMIT, create_app
from meeple.server.hub import Hub
from meeple.server.storage import Storage
from tests.server.conftest import TEST_HOSTS, game_only, wait_for

ANN = {"type": "human", "name": "Ann"}
BOB = {"type": "human", "name": "Bob"}
PARK_PLACE, BOARDWALK, BALTIC = 37, 39, 3


def board(values: dict[int, int], default: int = 0) -> list[int]:
    return [values.get(sq, default) for sq in range(40)]


def classic_position(seed: int = 5) -> dict[str, Any]:
    """A fresh 2-player classic game's position with Ann's cash changed and her first roll
    scripted (1 and 2: Baltic Avenue), as JSON would carry it."""
    data = position_data(new_game("classic", 2, seed))
    data["position"]["turn"] = 0  # Ann to move (the roll-off may have chosen Bob)
    data["position"]["cash"] = [1234, 1500]
    data["position"]["dice_script"] = [[1, 2]]
    as_json: dict[str, Any] = json.loads(json.dumps(data))
    return as_json


def post(client: TestClient, data: Any, seats: Any = None, **body: Any) -> Any:
    body = {"game": "classic", "seats": seats or [ANN, BOB], "position": data, **body}
    return client.post("/api/games", json=body)


def created(client: TestClient, data: Any, seats: Any = None, **body: Any) -> Any:
    r = post(client, data, seats, **body)
    assert r.status_code == 201, r.text
    return r.json()


def public(client: TestClient, gid: str) -> Any:
    r = client.get(f"/api/games/{gid}")
    assert r.status_code == 200, r.text
    return r.json()


def act(client: TestClient, gid: str, token: str, state_id: int, action: str) -> Any:
    r = client.post(
        f"/api/games/{gid}/actions", json={"token": token, "state_id": state_id, "action": action}
    )
    assert r.status_code == 200, r.text
    return r.json()


def stored_options(db_url: str, gid: str) -> dict[str, Any]:
    storage = Storage(db_url)
    try:
        row = storage.load_game(gid)
    finally:
        storage.close()
    assert row is not None
    return row.options


def test_a_classic_game_starts_at_the_position_and_rolls_its_scripted_dice(
    client: TestClient, db_url: str
) -> None:
    data = classic_position()
    g = created(client, data)
    gid, ann = g["id"], g["seats"][0]["token"]
    pub = public(client, gid)
    assert pub["status"] == "active" and pub["state_id"] == 0
    assert [p["cash"] for p in pub["view"]["players"]] == [1234, 1500]
    # The game is the kernel's from the same data: the one `meeple play --from` plays.
    kernel = from_position(data)
    assert pub["view"] == json.loads(json.dumps(kernel.view(None)))
    # Ann's first roll is the scripted one: 1 and 2, from GO to Baltic Avenue.
    done = act(client, gid, ann, 0, "roll")
    assert any("rolls 1 and 2" in e for e in done["events"]), done["events"]
    view = public(client, gid)["view"]
    assert view["dice"] == [1, 2] and view["players"][0]["position"] == BALTIC
    kernel.apply(Action("roll"))
    assert view == json.loads(json.dumps(kernel.view(None)))
    # Stored as a game from the position: its options carry it, its seed is the position's.
    assert stored_options(db_url, gid) == {"position": data["position"], "ruleset": 3}
    storage = Storage(db_url)
    row = storage.load_game(gid)
    storage.close()
    assert row is not None and row.seed == data["seed"] and row.players == 2


def test_the_position_seed_rules_and_a_request_seed_must_agree(client: TestClient) -> None:
    data = classic_position(seed=11)
    created(client, data, seed=11)  # the same seed: fine
    r = post(client, data, seed=12)
    assert r.status_code == 422 and "its seed is 11, not 12" in r.json()["detail"]


def test_an_inconsistent_position_is_refused_with_its_reasons_and_nothing_is_made(
    client: TestClient, db_url: str
) -> None:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    created(client, classic_position())  # one game before, so "unchanged" is not "empty"
    games_before = client.get("/api/games").json()
    loaded_before = set(hub.games)

    bad = classic_position()
    bad["position"]["owner"] = board({PARK_PLACE: 1, BOARDWALK: 0}, -1)
    bad["position"]["level"] = board({BOARDWALK: 5})
    bad["position"]["cash"] = [-5, 1500]
    r = post(client, bad)
    assert r.status_code == 422
    detail = r.json()["detail"]
    assert "player 1 has a hotel on Boardwalk but does not own all of Dark Blue" in detail
    assert "player 1 has negative cash (-5) and no debt to settle" in detail
    assert detail.startswith("position: ")

    refusals: list[tuple[dict[str, Any], dict[str, Any], str]] = [
        (
            {**classic_position(), "format": "chess"},
            {},
            "format: expected 'meeple-position', got 'chess'",
        ),
        ({**classic_position(), "position": {"cash": [1, 2], "colour": 1}}, {}, "'colour'"),
        (classic_position(), {"game": "friends"}, "a position of 'classic', not 'friends'"),
        (classic_position(), {"seats": [ANN, BOB, {"type": "open"}]}, "not 3 seats"),
        ({**classic_position(), "seed": 2**63}, {}, f"seed {2**63} is not from 0"),
        ({**classic_position(), "options": {"edition": {"id": "x"}}}, {}, "'edition'"),
        # Monopolis's components option names a file on the server: refused unread.
        ({**classic_position(), "options": {"components": "/etc/passwd"}}, {}, "'components'"),
        (
            {**classic_position(), "position": {**classic_position()["position"], "over": True}},
            {},
            "the game is over there",
        ),
    ]
    for data, body, reason in refusals:
        r = post(client, data, **body)
        assert r.status_code == 422, (reason, r.text)
        assert reason in r.json()["detail"], (reason, r.json())
    r = post(client, [1, 2])  # not an object: the schema's own 422
    assert r.status_code == 422
    # A position over the body limit is refused before it is read (an ordinary one is a
    # few KB, well under it).
    assert len(json.dumps(classic_position())) < BODY_LIMIT // 4
    big = classic_position()
    big["position"]["dice_script"] = [[1, 2]] * (BODY_LIMIT // 6)
    assert post(client, big).status_code == 413

    assert client.get("/api/games").json() == games_before
    assert set(hub.games) == loaded_before
    storage = Storage(db_url)
    try:
        assert storage.count_live() == 1
    finally:
        storage.close()


def test_a_monopolis_game_starts_at_its_position(client: TestClient) -> None:
    data = position_data(new_game("monopolis", 2, 7))
    data["position"]["money"] = [9, 3]
    data = json.loads(json.dumps(data))
    g = created(client, data, game="monopolis")
    gid, ann = g["id"], g["seats"][0]["token"]
    kernel = from_position(data)
    pub = public(client, gid)
    assert [s["money"] for s in pub["view"]["seats"]] == [9, 3]
    assert pub["view"] == json.loads(json.dumps(kernel.view(None)))
    first = kernel.legal_actions()[0]
    act(client, gid, ann, 0, str(first))
    kernel.apply(first)
    assert public(client, gid)["view"] == json.loads(json.dumps(kernel.view(None)))

    bad = copy.deepcopy(data)
    bad["position"]["money"] = [-1, 3]
    r = post(client, bad, game="monopolis")
    assert r.status_code == 422 and "player 1 has negative money (-1)" in r.json()["detail"]


def test_a_position_game_survives_a_restart_and_replays_from_the_position(db_url: str) -> None:
    data = classic_position()
    with TestClient(create_app(db_url, 0.0, allowed_hosts=TEST_HOSTS)) as client:
        g = created(client, data)
        gid, ann = g["id"], g["seats"][0]["token"]
        act(client, gid, ann, 0, "roll")
        before = game_only(public(client, gid))
    with TestClient(create_app(db_url, 0.0, allowed_hosts=TEST_HOSTS)) as client:
        after = game_only(public(client, gid))
        assert after == before and after["state_id"] == 1
        assert after["view"]["players"][0]["position"] == BALTIC
        # The replay starts at the position, not at the game's start from its seed.
        at0 = client.get(f"/api/games/{gid}/replay/0").json()
        assert [p["cash"] for p in at0["view"]["players"]] == [1234, 1500]
        at1 = client.get(f"/api/games/{gid}/replay/1").json()
        assert at1["view"] == before["view"] and at1["mover"] == 0
        history = client.get(f"/api/games/{gid}/history")
        assert history.status_code == 200, history.text
        assert history.json()["series"]["points"][0]["values"][0] == 1234
        # Play goes on from the reloaded game exactly as the kernel's copy does.
        kernel = from_position(data)
        kernel.apply(Action("roll"))
        view = client.get(f"/api/games/{gid}/view", params={"token": ann}).json()
        nxt = Action.parse(view["legal_actions"][0]["action"])
        act(client, gid, ann, 1, str(nxt))
        kernel.apply(nxt)
        assert public(client, gid)["view"] == json.loads(json.dumps(kernel.view(None)))
    assert stored_options(db_url, gid) == {"position": data["position"], "ruleset": 3}


def test_a_rematch_starts_at_the_position_with_a_new_future(
    client: TestClient, db_url: str
) -> None:
    # Bob, on Chance with $150, rolls 1 and 2: Boardwalk with Ann's hotel, $2,000. Bankrupt.
    data: dict[str, Any] = {
        "game": "classic",
        "players": 2,
        "seed": 1,
        "position": {
            "cash": [300, 150],
            "pos": [0, 36],
            "turn": 1,
            "owner": board({PARK_PLACE: 0, BOARDWALK: 0}, -1),
            "level": board({PARK_PLACE: 5, BOARDWALK: 5}),
            "dice_script": [[1, 2], [6, 6]],
        },
    }
    ask = {"others_turns": "never", "own_turn": "build", "grace": 0.0}
    g = created(client, data, [{**ANN, "ask": ask}, {"type": "bot", "bot": "standard"}])
    gid, ann = g["id"], g["seats"][0]["token"]
    wait_for(lambda: public(client, gid)["status"] == "finished")
    assert public(client, gid)["result"]["winners"] == [0]
    r = client.post(f"/api/games/{gid}/rematch", json={"token": ann})
    assert r.status_code == 200, r.text
    new = r.json()["id"]
    storage = Storage(db_url)
    row = storage.load_game(new)
    storage.close()
    assert row is not None
    # The same position, its hidden future re-drawn from the rematch's own new seed: the
    # scripted dice (which the position's author wrote, and everyone saw played) are gone.
    assert row.options == {"position": data["position"], "redraw": row.seed, "ruleset": 3}
    assert row.seed != data["seed"]
    again = new_game(row.game_id, row.players, row.seed, row.options)
    assert position_data(again)["position"]["dice_script"] == []
    # The rematch (its bot already playing) started at the position: see its position 0.
    at0 = client.get(f"/api/games/{new}/replay/0").json()["view"]
    assert [p["cash"] for p in at0["players"]] == [300, 150] and at0["turn"] == 1
    assert at0["squares"][BOARDWALK]["level"] == 5


def test_whatever_else_a_position_makes_the_engine_raise_is_a_422(
    client: TestClient, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Anyone may send a position: an error beyond the kernel's checks is still refused with
    the request's 422, never a 500, and stores nothing."""

    def overflowing(data: Any, where: str = "<data>") -> Any:
        raise OverflowError("int too large to convert")

    monkeypatch.setattr("meeple.server.opening.from_position", overflowing)
    r = post(client, classic_position())
    assert r.status_code == 422
    assert r.json()["detail"] == (
        "position: cannot be set up (OverflowError: int too large to convert)"
    )
    storage = Storage(db_url)
    try:
        assert storage.count_live() == 0
    finally:
        storage.close()
