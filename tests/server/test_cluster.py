"""Two ``meeple serve`` processes over one PostgreSQL database and one Redis serve the same games.

Each game in play is held by one process (a lease in the database); the other forwards its
requests and relays its sockets through Redis. Killed with SIGKILL mid-game, the owner's games
are taken over by the other process within seconds, with no action lost or applied twice.
PostgreSQL and Redis come from :mod:`tests.server.services` (started there if the machine does
not run them).
"""

from __future__ import annotations

import json
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from meeple.server.storage import Storage
from tests.server.conftest import game_only
from tests.server.process import free_port, start_server
from tests.server.services import postgres_database, redis_server
from tests.server.test_sigkill import BOT, GAME, PLAYERS, SEED, expected_actions

LEASE = 2.0  # seconds: short, so that a takeover comes quickly in a test


@pytest.fixture
def services() -> Iterator[tuple[str, str]]:
    with postgres_database() as db, redis_server() as rds:
        yield db, rds


class Server:
    def __init__(self, db: str, rds: str, log: Path, bot_pace: float = 0.0) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        extra = ("--redis-url", rds, "--lease-seconds", str(LEASE))
        self.proc = start_server(db, self.port, log, bot_pace, extra)

    def ws(self, gid: str) -> ClientConnection:
        """A socket of ``gid`` (use it in a ``with``)."""
        return connect(f"ws://127.0.0.1:{self.port}/api/games/{gid}/ws", open_timeout=10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


@pytest.fixture
def pair(services: tuple[str, str], tmp_path: Path) -> Iterator[tuple[Server, Server, str]]:
    db, rds = services
    a = Server(db, rds, tmp_path / "a.log")
    b = Server(db, rds, tmp_path / "b.log")
    try:
        yield a, b, db
    finally:
        a.stop()
        b.stop()


def receive(ws: ClientConnection, timeout: float = 10.0) -> dict[str, Any]:
    msg: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
    return msg


def until(ws: ClientConnection, state_id: int, timeout: float = 10.0) -> dict[str, Any]:
    """The socket's messages until an update at ``state_id`` (the last one)."""
    end = time.monotonic() + timeout
    while True:
        msg = receive(ws, max(0.1, end - time.monotonic()))
        if msg.get("state_id") == state_id and msg["type"] in ("update", "hello"):
            return msg


def view(base: str, gid: str, token: str) -> dict[str, Any]:
    r = httpx.get(
        f"{base}/api/games/{gid}/view", headers={"Authorization": f"Bearer {token}"}, timeout=30
    )
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def play_one(base: str, gid: str, tokens: list[str]) -> tuple[int, str]:
    """The seat that decides plays its first legal action through ``base``; (state_id, action)."""
    public = httpx.get(f"{base}/api/games/{gid}", timeout=30).json()
    seat = public["current_player"]
    v = view(base, gid, tokens[seat])
    action = v["legal_actions"][0]["action"]
    body = {"token": tokens[seat], "state_id": v["state_id"], "action": action}
    r = httpx.post(f"{base}/api/games/{gid}/actions", json=body, timeout=30)
    assert r.status_code == 200, r.text
    return int(r.json()["state_id"]), action


def stored(db: str, gid: str) -> list[str]:
    st = Storage(db)
    try:
        return st.actions(gid)
    finally:
        st.close()


def people_game(base: str) -> tuple[str, list[str]]:
    seats = [{"type": "human", "name": n} for n in ("Ann", "Bob")]
    r = httpx.post(f"{base}/api/games", json={"game": GAME, "seed": 5, "seats": seats}, timeout=30)
    assert r.status_code == 201, r.text
    made = r.json()
    return made["id"], [s["token"] for s in made["seats"]]


def test_a_game_held_by_one_process_is_played_through_the_other(
    pair: tuple[Server, Server, str],
) -> None:
    a, b, db = pair
    gid, tokens = people_game(a.base)  # made by A: A holds it
    with a.ws(gid) as watch_a, b.ws(gid) as watch_b:
        assert receive(watch_a)["type"] == "hello"
        assert receive(watch_b)["type"] == "hello"  # relayed from A through Redis
        # a socket on B becomes seat 1's with the auth message, as the page does
        watch_b.send(json.dumps({"type": "auth", "token": tokens[1]}))
        hello = receive(watch_b)
        assert (hello["type"], hello["seat"]) == ("hello", 1)
        played: list[tuple[int, str]] = []
        for i in range(12):  # alternate the process each request reaches
            played.append(play_one((a, b)[i % 2].base, gid, tokens))
            state_id = played[-1][0]
            assert until(watch_a, state_id)["state_id"] == state_id
            assert until(watch_b, state_id)["state_id"] == state_id
        assert [p[0] for p in played] == list(range(1, 13))
        log = stored(db, gid)
        assert [log[s - 1] for s, _ in played] == [act for _, act in played]
        assert len(log) == 12
        # both processes tell the same public position
        ga = httpx.get(f"{a.base}/api/games/{gid}", timeout=30).json()
        gb = httpx.get(f"{b.base}/api/games/{gid}", timeout=30).json()
        assert game_only(ga) == game_only(gb)  # (how long someone has been away: a moment apart)
        # a refusal comes back from the owner whole: a stale state_id, with the current one
        stale = {"token": tokens[0], "state_id": 1, "action": "roll"}
        r = httpx.post(f"{b.base}/api/games/{gid}/actions", json=stale, timeout=30)
        assert (r.status_code, r.json()["state_id"]) == (409, 12)
        assert r.headers["x-content-type-options"] == "nosniff"  # B's headers on A's answer
        missing = httpx.get(f"{b.base}/api/games/nosuchgame", timeout=30)
        assert missing.status_code == 404


def test_actions_on_a_socket_of_the_other_process_are_played_by_the_owner(
    pair: tuple[Server, Server, str],
) -> None:
    """A seat's socket on B for a game A holds: its ``act`` messages go to A, which plays them
    once; the update comes back before the answer, and a refusal says A's reason."""
    a, b, db = pair
    gid, tokens = people_game(a.base)
    with b.ws(gid) as seat0, b.ws(gid) as seat1:
        sockets = (seat0, seat1)
        latest = []  # each socket's last hello or update
        for ws, token in zip(sockets, tokens, strict=True):
            assert receive(ws)["seat"] is None
            ws.send(json.dumps({"type": "auth", "token": token}))
            latest.append(until(ws, 0))  # the seat's hello (past a spectator's "seats")
        for i in range(8):
            for s, ws in enumerate(sockets):
                if latest[s]["state_id"] < i:
                    latest[s] = until(ws, i)
            seat = latest[0]["current_player"]
            ws = sockets[seat]
            choices = latest[seat]["legal_actions"]  # the update carries the seat's choices
            ws.send(json.dumps({"type": "act", "action": choices[0]["action"], "state_id": i,
                                "ref": i}))  # fmt: skip
            latest[seat] = until(ws, i + 1)  # the update first
            acted = receive(ws)
            while acted["type"] == "seat":
                acted = receive(ws)
            assert (acted["type"], acted["ref"], acted["state_id"]) == ("acted", i, i + 1)
        assert len(stored(db, gid)) == 8
        ws = sockets[httpx.get(f"{b.base}/api/games/{gid}", timeout=30).json()["current_player"]]
        ws.send(json.dumps({"type": "act", "action": "roll", "state_id": 2, "ref": 99}))
        refused = receive(ws)
        assert (refused["type"], refused["status"], refused["ref"]) == ("refused", 409, 99)
        assert refused["state_id"] == 8 and "stale" in refused["detail"]
        assert len(stored(db, gid)) == 8


def test_sigkill_of_the_owner_loses_and_repeats_nothing(
    pair: tuple[Server, Server, str],
) -> None:
    """A bot-only game made on A and watched through B; A is killed mid-game. B's socket is
    told to reconnect (1012), B takes the game over, and the game ends exactly as a run with
    no kill plays it (bots' random streams are restored on takeover)."""
    a, b, db = pair
    body = {"game": GAME, "seed": SEED, "seats": [{"type": "bot", "bot": BOT}] * PLAYERS}
    r = httpx.post(f"{a.base}/api/games", json=body, timeout=30)
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    with b.ws(gid) as watch:
        seen = receive(watch)["state_id"]
        while seen < 100:  # the bots play at A; B relays their updates
            seen = receive(watch).get("state_id", seen)
        a.proc.send_signal(signal.SIGKILL)
        a.proc.wait(10)
        killed = time.monotonic()
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                receive(watch, timeout=LEASE + 10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012  # reconnect
    moved_on = None
    with b.ws(gid) as watch:  # as the page does: B holds the game now
        hello = receive(watch)
        assert hello["type"] == "hello"
        final = hello
        while final.get("status") != "finished":
            final = receive(watch, timeout=30)
            if moved_on is None and final.get("state_id", 0) > hello["state_id"]:
                moved_on = time.monotonic() - killed
    assert moved_on is not None and moved_on < LEASE + 8, moved_on  # taken over in seconds
    assert stored(db, gid) == expected_actions()  # nothing lost, nothing twice


def test_an_action_sent_to_the_survivor_right_after_the_kill_is_served(
    pair: tuple[Server, Server, str],
) -> None:
    a, b, db = pair
    gid, tokens = people_game(a.base)
    for _ in range(4):
        play_one(b.base, gid, tokens)
    a.proc.send_signal(signal.SIGKILL)
    a.proc.wait(10)
    began = time.monotonic()
    state_id, action = play_one(b.base, gid, tokens)  # waits for A's lease, then B serves it
    assert time.monotonic() - began < LEASE + 8
    assert state_id == 5
    log = stored(db, gid)
    assert len(log) == 5 and log[4] == action


def test_a_process_that_stops_gives_its_games_up_at_once(
    pair: tuple[Server, Server, str],
) -> None:
    a, b, db = pair
    gid, tokens = people_game(a.base)
    st = Storage(db)
    try:
        assert st.lease(gid) is not None  # A holds it
        a.stop()  # SIGTERM: a graceful stop
        assert st.lease(gid) is None  # given up, not left to run out
    finally:
        st.close()
    began = time.monotonic()
    play_one(b.base, gid, tokens)
    assert time.monotonic() - began < LEASE  # B took it without waiting for a lease to end
