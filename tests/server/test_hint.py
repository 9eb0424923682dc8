"""The advisor in the web app (issue 21): ``POST /api/games/{id}/hint`` answers a person at
their own decision with each option's chance of winning; the host may turn hints off (kept
with the game); a hint for someone else's decision, a stale one or one too many is refused
with the reason, and the game is left as it was."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from meeple.bots.advisor import decided
from meeple.kernel.family import family
from meeple.server.app import create_app
from meeple.server.limits import Limits
from tests.server.conftest import TEST_HOSTS, new_game, wait_for


def _seats(g: dict[str, Any]) -> tuple[str, str]:
    ann, bob = (s["token"] for s in g["seats"])
    return ann, bob


def test_a_hint_at_my_decision(client: TestClient) -> None:
    g = new_game(client)
    ann, bob = _seats(g)
    pub = client.get(f"/api/games/{g['id']}").json()
    assert pub["hints"] is True and pub["current_player"] == 0
    at = pub["state_id"]
    r = client.post(f"/api/games/{g['id']}/hint", json={"token": ann, "state_id": at})
    assert r.status_code == 200, r.text
    hint = r.json()
    assert hint["state_id"] == at and hint["seat"] == 0
    assert hint["options"][0]["action"] == "roll"
    assert sum(o["best"] for o in hint["options"]) == 1
    assert all(0 <= o["low"] <= o["win"] <= o["high"] <= 1 for o in hint["options"])
    assert hint["rollouts"] > 0
    # Nothing moved: the game is where it was.
    assert client.get(f"/api/games/{g['id']}").json()["state_id"] == at
    # Bob's hint at Ann's decision, a stale position, no token.
    r = client.post(f"/api/games/{g['id']}/hint", json={"token": bob, "state_id": at})
    assert r.status_code == 409 and "not yours" in r.json()["detail"]
    r = client.post(f"/api/games/{g['id']}/hint", json={"token": ann, "state_id": at + 5})
    assert r.status_code == 409 and "stale" in r.json()["detail"]
    r = client.post(f"/api/games/{g['id']}/hint", json={"token": "x" * 40, "state_id": at})
    assert r.status_code == 403
    r = client.post(f"/api/games/{g['id']}/hint", json={"token": ann})
    assert r.status_code == 422


def test_the_host_can_turn_hints_off_and_it_is_kept(db_url: str) -> None:
    body = {
        "game": "classic",
        "seats": [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}],
        "seed": 3,
        "hints": False,
        "rules": {"start_player": "first_seat"},
    }
    with TestClient(create_app(db_url, 0.0, allowed_hosts=TEST_HOSTS)) as c:
        g = c.post("/api/games", json=body).json()
        ann = g["seats"][0]["token"]
        at = c.get(f"/api/games/{g['id']}").json()["state_id"]
        r = c.post(f"/api/games/{g['id']}/hint", json={"token": ann, "state_id": at})
        assert r.status_code == 403 and "turned hints off" in r.json()["detail"]
    # A restarted server reads the host's choice back from the database.
    with TestClient(create_app(db_url, 0.0, allowed_hosts=TEST_HOSTS)) as c:
        pub = c.get(f"/api/games/{g['id']}").json()
        assert pub["hints"] is False
        view = c.get(f"/api/games/{g['id']}/view", headers={"authorization": f"Bearer {ann}"})
        assert view.json()["hints"] is False


def test_a_busy_advisor_says_so(db_url: str) -> None:
    with TestClient(
        create_app(db_url, 0.0, allowed_hosts=TEST_HOSTS, limits=Limits(hints_at_once=0))
    ) as c:
        g = new_game(c)
        ann, _ = _seats(g)
        at = c.get(f"/api/games/{g['id']}").json()["state_id"]
        r = c.post(f"/api/games/{g['id']}/hint", json={"token": ann, "state_id": at})
        assert r.status_code == 429 and "busy" in r.json()["detail"]


def test_the_chances_over_a_finished_game(client: TestClient) -> None:
    """GET /chances: each seat's chance of winning from the first position to the last, where
    the winner's is 1, and where the game was decided; not while the game is on."""
    people = new_game(client)
    r = client.get(f"/api/games/{people['id']}/chances")
    assert r.status_code == 422 and "once it is over" in r.json()["detail"]
    bots = [{"type": "bot", "bot": "standard", "name": n} for n in ("Robo", "Tron")]
    g = new_game(client, game="my-first-monopoly-2", seats=bots, seed=5)
    wait_for(lambda: client.get(f"/api/games/{g['id']}").json()["status"] == "finished")
    end = client.get(f"/api/games/{g['id']}").json()
    winner = end["result"]["winners"][0]
    r = client.get(f"/api/games/{g['id']}/chances")
    assert r.status_code == 200, r.text
    c = r.json()
    points = c["points"]
    assert points[0]["state_id"] == 0 and points[-1]["state_id"] == end["state_id"]
    assert [p["state_id"] for p in points] == sorted({p["state_id"] for p in points})
    assert points[-1]["chances"][winner] == 1.0
    assert all(abs(sum(p["chances"]) - 1.0) < 1e-3 for p in points)
    decided = c["decided"]
    assert decided["winner"] == winner
    turning = decided["turning"]
    if turning is not None:  # the last rise of the winner's chance through 50%
        assert turning["before"] < 0.5 <= turning["after"] and turning["from"] < turning["to"]
        after = [p["chances"][winner] for p in points if p["state_id"] >= turning["to"]]
        assert min(after) >= 0.5
    assert client.get(f"/api/games/{g['id']}/chances").json() == c  # the same, from the cache


def test_where_a_game_was_decided() -> None:
    def series(*chances: float) -> list[dict[str, Any]]:
        return [{"state_id": 10 * i, "chances": [c, 1 - c]} for i, c in enumerate(chances)]

    d = decided(series(0.5, 0.3, 0.6, 0.4, 0.55, 0.85, 0.9, 1.0), 0)
    assert d["turning"] == {"from": 30, "to": 40, "before": 0.4, "after": 0.55}
    assert d["settled"] == 50
    assert decided(series(0.6, 0.7, 1.0), 0)["turning"] is None  # the favourite throughout
    assert decided(series(0.5, 0.15, 0.1, 0.0), 1)["settled"] == 10
    assert decided(series(0.5, 0.3, 0.0), 1)["settled"] is None  # only the last point


def test_no_hint_for_a_game_its_bots_cannot_search(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A family without search support (``GameFamily.search`` is None) has no advisor: the
    page is told there are no hints, and a request for one says why."""
    g = new_game(client)
    ann, _ = _seats(g)
    fam = family("monopoly")
    monkeypatch.setattr(type(fam), "search", property(lambda self: None))
    pub = client.get(f"/api/games/{g['id']}").json()
    assert pub["hints"] is False
    r = client.post(f"/api/games/{g['id']}/hint", json={"token": ann, "state_id": pub["state_id"]})
    assert r.status_code == 403 and "has no advisor" in r.json()["detail"]
