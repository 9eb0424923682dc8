"""The game's log (docs/SERVER.md, "A table that talks"): every action's events in words from
the first move, paged, the same for every reader, and kept up to date as the game goes on."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from meeple.kernel.family import new_game as engine_game
from meeple.kernel.protocol import Action
from meeple.server.storage import Storage
from tests.server.conftest import new_game, wait_for

BOTS = [{"type": "bot", "bot": "random"} for _ in range(3)]


def log(client: TestClient, gid: str, **params: Any) -> dict[str, Any]:
    r = client.get(f"/api/games/{gid}/log", params=params)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def engine_log(client: TestClient, gid: str, upto: int) -> list[tuple[int, list[str]]]:
    storage: Storage = client.app.state.hub.storage  # type: ignore[attr-defined]
    s = engine_game("classic", 3, 5, {"rules": {"start_player": "first_seat"}})
    out = []
    for i, text in enumerate(storage.actions(gid)[:upto]):
        events = [s.describe(e) for e in s.apply(Action.parse(text))]
        if events:
            out.append((i + 1, events))
    return out


def test_the_log_covers_every_move_and_pages_back(client: TestClient) -> None:
    g = new_game(client, seats=BOTS, seed=5)
    gid = g["id"]
    wait_for(lambda: client.get(f"/api/games/{gid}").json()["state_id"] >= 60)
    whole = log(client, gid, limit=1000)
    n = whole["state_id"]
    assert whole["first"] == 1 and n >= 60
    # Who starts comes first (entry 0, the setup), then every move from the very first.
    setup, *moves = whole["entries"]
    assert setup == {"state_id": 0, "events": ["Player 1 starts."]}
    assert [(e["state_id"], e["events"]) for e in moves] == engine_log(client, gid, n)
    assert "rolls" in moves[0]["events"][0]

    page = log(client, gid, before=41, limit=20)  # positions 21..40
    assert page["first"] == 21
    assert [e["state_id"] for e in page["entries"]] == [
        e["state_id"] for e in whole["entries"] if 21 <= e["state_id"] <= 40
    ]
    assert log(client, gid, before=1)["entries"] == [setup]  # before the first move: the setup
    for bad in ({"limit": 0}, {"limit": 5000}, {"before": 0}, {"before": "x"}):
        assert client.get(f"/api/games/{gid}/log", params=bad).status_code == 422
    assert client.get("/api/games/nope/log").status_code == 404

    # Later moves join the same log (kept up to date, not rebuilt).
    wait_for(lambda: client.get(f"/api/games/{gid}").json()["state_id"] >= n + 20)
    later = log(client, gid, limit=1000)
    assert later["entries"][: len(whole["entries"])] == whole["entries"]
    m = later["state_id"]
    assert [(e["state_id"], e["events"]) for e in later["entries"][1:]] == engine_log(
        client, gid, m
    )
