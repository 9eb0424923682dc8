"""Fixtures of the server tests: an app over a temporary SQLite file, with bots at full speed."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meeple.server.app import create_app

TEST_HOSTS = ["testserver"]
"""The ``Host`` FastAPI's TestClient sends: the tests' apps allow it (never the defaults)."""


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.sqlite'}"


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, 0.0, allowed_hosts=TEST_HOSTS)) as c:
        yield c


def new_game(client: TestClient, game: str = "classic", seats: Any = None, seed: int = 7) -> Any:
    """A game made through the API, with Player 1 starting (the tests were written for that:
    who starts is tested in tests/monopoly/test_start.py and the Monopolis setup tests)."""
    if seats is None:
        seats = [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}]
    body: dict[str, Any] = {"game": game, "seats": seats, "seed": seed}
    body["rules"] = {"start_player": "first_seat"}
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def wait_for(predicate: Any, timeout: float = 20.0) -> None:
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:
            raise AssertionError("timed out")
        time.sleep(0.01)


def wake(client: TestClient, live: Any) -> None:
    """Tell ``live``'s table that its timers changed, on the server's event loop: an asyncio
    event set from the test's thread wakes nobody until something else wakes the loop."""
    client.portal.call(live.changed.set)  # type: ignore[union-attr]


def next_message(ws: Any, kind: str) -> dict[str, Any]:
    """The next message of type ``kind`` on socket ``ws``, past the ``seats`` messages that
    presence sends whenever another person's page opens or closes (docs/SERVER.md)."""
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == kind or message["type"] != "seats":
            return message


def game_only(data: Any) -> Any:
    """A game answer (public view, seat view) without what changes with time alone: the
    seats' presence (``connected``, ``away_for``) and the running timer. What is left changes
    only when the game does."""
    if isinstance(data, dict):
        out = {k: game_only(v) for k, v in data.items() if k not in ("timer", "away_for")}
        if "connected" in out and "stand_in" in out:  # a seat: who is here comes and goes
            del out["connected"]
        return out
    if isinstance(data, list):
        return [game_only(v) for v in data]
    return data
