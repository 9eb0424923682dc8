"""The operator's view (docs/SERVER.md, "Operating"): /healthz and /metrics."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from meeple.server.app import create_app
from meeple.server.limits import Limits
from meeple.server.metrics import ADMIN_ENV
from tests.server.conftest import TEST_HOSTS, new_game

LOCAL = ("127.0.0.1", 50000)
"""A scraper on the server's own machine: without an admin token, /metrics answers only a
server on loopback asked from loopback (tests/server/test_operator_defaults.py)."""


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, 0.0, allowed_hosts=TEST_HOSTS), client=LOCAL) as c:
        yield c


def metric(text: str, name: str) -> float:
    """The value of the sample line ``name`` (with its labels) in Prometheus' text format."""
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[-1])
    raise AssertionError(f"{name} not in the metrics")


def test_health_and_metrics(db_url: str) -> None:
    limits = Limits(games_per_client_hour=1)
    app = create_app(db_url, 0.0, allowed_hosts=TEST_HOSTS, limits=limits)
    with TestClient(app, client=LOCAL) as client:
        assert client.get("/healthz").json()["status"] == "ok"
        g = new_game(client)
        gid, ann = g["id"], g["seats"][0]["token"]
        r = client.post(
            f"/api/games/{gid}/actions", json={"token": ann, "state_id": 0, "action": "roll"}
        )
        assert r.status_code == 200
        seats = [{"type": "human", "name": "Cy"}, {"type": "human", "name": "Di"}]
        refused = client.post("/api/games", json={"game": "classic", "seats": seats})
        assert refused.status_code == 429
        with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
            ws.receive_json()
            text = client.get("/metrics").text
        assert metric(text, "meeple_games_loaded") == 1
        assert metric(text, "meeple_sockets") == 1
        assert metric(text, "meeple_actions_total") >= 1
        assert metric(text, "meeple_action_seconds_count") == 1
        assert metric(text, 'meeple_limit_hits_total{limit="games_per_client_hour"}') == 1


def test_metrics_ask_for_the_admin_token_when_one_is_set(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ADMIN_ENV, "s3cret")
    assert client.get("/metrics").status_code == 401
    assert client.get("/metrics", headers={"Authorization": "Bearer nope"}).status_code == 401
    r = client.get("/metrics", headers={"Authorization": "Bearer s3cret"})
    assert r.status_code == 200 and "meeple_games_loaded" in r.text


def test_metrics_count_the_collectors_pauses(client: TestClient) -> None:
    """Each collection is counted in its generation's histogram, and the longest is kept."""

    def counted() -> list[float]:
        text = client.get("/metrics").text
        return [metric(text, f'meeple_gc_pause_seconds_count{{generation="{g}"}}') for g in "012"]

    before = counted()
    gc.collect(1)
    gc.collect(2)
    after = counted()
    assert after[1] >= before[1] + 1 and after[2] >= before[2] + 1
    text = client.get("/metrics").text
    assert metric(text, 'meeple_gc_pause_max_seconds{generation="2"}') > 0
    assert metric(text, 'meeple_gc_pause_seconds_bucket{generation="2",le="+Inf"}') == after[2]
