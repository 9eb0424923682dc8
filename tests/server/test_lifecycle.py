"""How long games live (docs/SERVER.md, "Operating"): loaded when asked for, all-bot games
played only while watched and only so many at once, idle games expired, old records purged,
loaded games let go from memory."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from meeple.server import live as hub_module
from meeple.server.app import create_app
from meeple.server.hub import Lifecycle
from meeple.server.limits import Limits
from meeple.server.storage import Storage
from tests.server.conftest import TEST_HOSTS, game_only, wait_for

BOTS = [{"type": "bot", "bot": "random"} for _ in range(3)]
QUIET = Lifecycle(sweep_every=0)  # no sweeper: the tests sweep when they choose


def make(client: TestClient, seats: Any = None, seed: int = 5) -> str:
    r = client.post(
        "/api/games",
        json={
            "game": "classic",
            "seats": seats or BOTS,
            "seed": seed,
            "rules": {"start_player": "first_seat"},
        },
    )
    assert r.status_code == 201, r.text
    gid: str = r.json()["id"]
    return gid


def stored_moves(client: TestClient, gid: str) -> int:
    storage: Storage = client.app.state.hub.storage  # type: ignore[attr-defined]
    return len(storage.actions(gid))


def sweep(client: TestClient) -> None:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    client.portal.call(hub.sweep)  # type: ignore[union-attr]


def test_games_load_when_asked_for_not_at_start(db_url: str) -> None:
    with TestClient(create_app(db_url, 0.0, lifecycle=QUIET, allowed_hosts=TEST_HOSTS)) as client:
        human = [{"type": "human", "name": "Ann"}, *BOTS]
        gids = [make(client, human, seed) for seed in range(3)]
    with TestClient(create_app(db_url, 0.0, lifecycle=QUIET, allowed_hosts=TEST_HOSTS)) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert hub.games == {}  # nothing loaded at start-up
        assert client.get(f"/api/games/{gids[1]}").json()["state_id"] == 0
        assert set(hub.games) == {gids[1]}


def test_an_all_bot_game_plays_only_while_watched(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hub_module, "WATCH_SECONDS", 0.3)
    gid = make(client)
    time.sleep(0.4)
    assert stored_moves(client, gid) == 0  # made, but nobody watches: it waits
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        ws.receive_json()
        wait_for(lambda: stored_moves(client, gid) > 20)  # a spectator: it plays
    time.sleep(0.5)  # the socket closed and the watch lapsed
    paused_at = stored_moves(client, gid)
    time.sleep(0.4)
    assert stored_moves(client, gid) == paused_at
    client.get(f"/api/games/{gid}")  # a request counts as watching for a while
    wait_for(lambda: stored_moves(client, gid) > paused_at)


def test_only_so_many_all_bot_games_play_at_once(db_url: str) -> None:
    life = Lifecycle(sweep_every=0, max_bot_games=1)
    with TestClient(create_app(db_url, 0.05, lifecycle=life, allowed_hosts=TEST_HOSTS)) as client:
        first, second = make(client, seed=1), make(client, seed=2)
        with client.websocket_connect(f"/api/games/{first}/ws") as a:
            a.receive_json()
            wait_for(lambda: stored_moves(client, first) > 0)
            with client.websocket_connect(f"/api/games/{second}/ws") as b:
                b.receive_json()
                time.sleep(0.5)
                assert stored_moves(client, second) == 0  # waits for a slot
                assert stored_moves(client, first) > 3


def test_idle_games_expire_and_old_records_are_purged(db_url: str) -> None:
    life = Lifecycle(sweep_every=0, expire_after=0.0, purge_after=None)
    with TestClient(create_app(db_url, 0.0, lifecycle=life, allowed_hosts=TEST_HOSTS)) as client:
        human = [{"type": "human", "name": "Ann"}, *BOTS]
        r = client.post(
            "/api/games",
            json={
                "game": "classic",
                "seats": human,
                "seed": 3,
                "rules": {"start_player": "first_seat"},
            },
        )
        gid, ann = r.json()["id"], r.json()["seats"][0]["token"]
        time.sleep(0.05)
        sweep(client)
        assert client.get(f"/api/games/{gid}").json()["status"] == "expired"
        r = client.post(
            f"/api/games/{gid}/actions", json={"token": ann, "state_id": 0, "action": "roll"}
        )
        assert r.status_code == 422 and "expired" in r.json()["detail"]
    life = Lifecycle(sweep_every=0, expire_after=None, purge_after=0.0)
    with TestClient(create_app(db_url, 0.0, lifecycle=life, allowed_hosts=TEST_HOSTS)) as client:
        keep = make(client, [{"type": "human", "name": "Bo"}, *BOTS])  # in play: kept
        time.sleep(0.05)
        sweep(client)
        assert client.get(f"/api/games/{gid}").status_code == 404  # expired, then purged
        assert client.get(f"/api/games/{keep}").status_code == 200


def test_loaded_games_are_let_go_and_load_again(db_url: str) -> None:
    life = Lifecycle(sweep_every=0, unload_after=0.0)
    with TestClient(create_app(db_url, 0.0, lifecycle=life, allowed_hosts=TEST_HOSTS)) as client:
        human = [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}]
        r = client.post(
            "/api/games",
            json={
                "game": "classic",
                "seats": human,
                "seed": 3,
                "rules": {"start_player": "first_seat"},
            },
        )
        gid, ann = r.json()["id"], r.json()["seats"][0]["token"]
        client.post(
            f"/api/games/{gid}/actions", json={"token": ann, "state_id": 0, "action": "roll"}
        )
        before = game_only(client.get(f"/api/games/{gid}").json())
        hub = client.app.state.hub  # type: ignore[attr-defined]
        time.sleep(0.01)
        sweep(client)
        assert gid not in hub.games
        assert game_only(client.get(f"/api/games/{gid}").json()) == before  # the same game


def test_startup_time_does_not_grow_with_stored_games(tmp_path: Path) -> None:
    """Start-up loads nothing: with many stored games it is as quick as with none (the
    timing itself is a benchmark: benchmarks/bench_startup.py)."""
    url = f"sqlite:///{tmp_path / 'games.sqlite'}"
    many = Limits(live_per_client=None, live_per_network=None)  # 30 from one test client
    app = create_app(url, 0.0, lifecycle=QUIET, allowed_hosts=TEST_HOSTS, limits=many)
    with TestClient(app) as client:
        for seed in range(30):
            make(client, [{"type": "human", "name": "Ann"}, *BOTS], seed)
    app = create_app(url, 0.0, lifecycle=QUIET, allowed_hosts=TEST_HOSTS)
    with TestClient(app) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert hub.games == {}
        assert hub.storage.count_live() == 30  # in the database
        assert len(client.get("/api/games").json()) == 2  # the lobby: one address's newest


def test_a_purged_game_is_not_served_from_memory(db_url: str) -> None:
    """The sweep's purge lets go of a purged game this process has loaded: its open socket
    closes, and the game answers 404 at once (not only once it would have been unloaded)."""
    life = Lifecycle(sweep_every=0, expire_after=None, purge_after=0.0)
    with TestClient(create_app(db_url, 0.0, lifecycle=life, allowed_hosts=TEST_HOSTS)) as client:
        seats = [{"type": "human", "name": "Ann"}, *BOTS]
        made = client.post(
            "/api/games",
            json={
                "game": "classic",
                "seats": seats,
                "seed": 3,
                "rules": {"start_player": "first_seat"},
            },
        ).json()
        gid = made["id"]
        r = client.post(f"/api/games/{gid}/cancel", json={"host_token": made["host_token"]})
        assert r.json()["status"] == "cancelled"
        with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
            assert ws.receive_json()["type"] == "hello"
            time.sleep(0.05)
            sweep(client)
            assert gid not in client.app.state.hub.games  # let go (else the socket stays open)
            with pytest.raises(WebSocketDisconnect):
                ws.receive_json()
        assert client.get(f"/api/games/{gid}").status_code == 404
