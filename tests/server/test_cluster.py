"""Two ``meeple serve`` processes over one PostgreSQL database and one Redis serve the same games.

Each game in play is held by one process (a lease in the database); the other forwards its
requests and relays its sockets through Redis. Killed with SIGKILL mid-game, the owner's games
are taken over by the other process within seconds, with no action lost or applied twice.
PostgreSQL and Redis come from :mod:`tests.server.services` (started there if the machine does
not run them).
"""

from __future__ import annotations

import contextlib
import json
import re
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
import sqlalchemy
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from meeple.server.storage import Storage
from tests.server.conftest import game_only
from tests.server.process import free_port, start_server
from tests.server.services import postgres_database, private_redis, redis_server
from tests.server.test_sigkill import BOT, GAME, PLAYERS, SEED, expected_actions

LEASE = 2.0  # seconds: short, so that a takeover comes quickly in a test


@pytest.fixture
def services() -> Iterator[tuple[str, str]]:
    with postgres_database() as db, redis_server() as rds:
        yield db, rds


class Server:
    def __init__(self, db: str, rds: str, log: Path, bot_pace: float = 0.0) -> None:
        self.log = log
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

    def kill(self) -> None:
        """SIGKILL: the process ends at once, its connections closed by the kernel."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)


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


def next_move(base: str, gid: str, tokens: list[str]) -> dict[str, Any]:
    """The body of the action the deciding seat plays next: its first legal one."""
    public = httpx.get(f"{base}/api/games/{gid}", timeout=30).json()
    seat = public["current_player"]
    v = view(base, gid, tokens[seat])
    return {
        "token": tokens[seat],
        "state_id": v["state_id"],
        "action": v["legal_actions"][0]["action"],
    }


def play_one(base: str, gid: str, tokens: list[str]) -> tuple[int, str]:
    """The seat that decides plays its first legal action through ``base``; (state_id, action)."""
    body = next_move(base, gid, tokens)
    r = httpx.post(f"{base}/api/games/{gid}/actions", json=body, timeout=30)
    assert r.status_code == 200, r.text
    return int(r.json()["state_id"]), str(body["action"])


def stored(db: str, gid: str) -> list[str]:
    st = Storage(db)
    try:
        return st.actions(gid)
    finally:
        st.close()


def people_game(base: str) -> tuple[str, list[str]]:
    """A game of two people made through ``base``, and held there (asked about there first)."""
    seats = [{"type": "human", "name": n} for n in ("Ann", "Bob")]
    r = httpx.post(f"{base}/api/games", json={"game": GAME, "seed": 5, "seats": seats}, timeout=30)
    assert r.status_code == 201, r.text
    made = r.json()
    assert httpx.get(f"{base}/api/games/{made['id']}", timeout=30).status_code == 200
    return made["id"], [s["token"] for s in made["seats"]]


def process_id(server: Server) -> str:
    """The id a process goes by in the leases table, from its log."""
    found = re.search(r"process ([0-9a-f]{32}) serves games", server.log.read_text())
    assert found is not None, server.log.read_text()
    return found.group(1)


def owner(db: str, gid: str) -> str | None:
    st = Storage(db)
    try:
        lease = st.lease(gid)
    finally:
        st.close()
    return None if lease is None else lease[0]


def test_a_game_held_by_one_process_is_played_through_the_other(
    pair: tuple[Server, Server, str],
) -> None:
    a, b, db = pair
    gid, tokens = people_game(a.base)  # made and first asked about through A: A holds it
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
    assert httpx.get(f"{a.base}/api/games/{gid}", timeout=30).status_code == 200  # A holds it
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


def test_a_new_game_is_held_by_the_process_first_asked_about_it(
    pair: tuple[Server, Server, str],
) -> None:
    """Not by its maker: a proxy that sends each game's requests to one process by its id has
    them served there, not forwarded, wherever the game was made (issue 39)."""
    a, b, db = pair
    seats = [{"type": "human", "name": n} for n in ("Ann", "Bob")]
    r = httpx.post(f"{a.base}/api/games", json={"game": GAME, "seats": seats}, timeout=30)
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    assert owner(db, gid) is None  # made, held by nobody yet
    assert httpx.get(f"{b.base}/api/games/{gid}", timeout=30).json()["state_id"] == 0
    assert owner(db, gid) == process_id(b) != process_id(a)
    assert httpx.get(f"{a.base}/api/games/{gid}", timeout=30).json()["state_id"] == 0
    assert owner(db, gid) == process_id(b)  # A forwards to B


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


# -- a request in flight when its owner dies (issue 39) ----------------------------------------


@pytest.fixture
def paused_pair(tmp_path: Path) -> Iterator[tuple[Server, Server, str, str]]:
    """Two processes on a Redis of the test's own (its clients are paused)."""
    with postgres_database() as db, private_redis() as rds:
        a = Server(db, rds, tmp_path / "a.log")
        b = Server(db, rds, tmp_path / "b.log")
        try:
            yield a, b, db, rds
        finally:
            a.stop()
            b.stop()


@contextlib.contextmanager
def stores_held(db: str) -> Iterator[Callable[[], None]]:
    """Hold the ``actions`` table locked, so that every process's store of an action waits;
    yields the function that lets them go on."""
    engine = sqlalchemy.create_engine(db)
    try:
        with engine.connect() as c:
            held = c.begin()
            c.execute(sqlalchemy.text("LOCK TABLE actions IN EXCLUSIVE MODE"))
            yield held.commit
            if held.is_active:
                held.commit()
    finally:
        engine.dispose()


def wait_until_a_store_waits(db: str) -> None:
    engine = sqlalchemy.create_engine(db)
    query = sqlalchemy.text(
        "select count(*) from pg_stat_activity where datname = current_database() "
        "and wait_event_type = 'Lock' and query ilike 'insert into actions%'"
    )
    try:
        end = time.monotonic() + 20
        while True:
            with engine.connect() as c:
                if c.scalar(query):
                    return
            assert time.monotonic() < end, "the owner never began to store the action"
            time.sleep(0.02)
    finally:
        engine.dispose()


def post_action(base: str, gid: str, body: dict[str, Any]) -> tuple[httpx.Response, float]:
    """The answer to ``POST /actions`` and when it came (monotonic seconds)."""
    r = httpx.post(f"{base}/api/games/{gid}/actions", json=body, timeout=60)
    return r, time.monotonic()


RETRIED = "is gone while answering a request; sending it to the game's new owner"


def test_an_action_in_flight_when_its_owner_is_killed_is_applied_once_by_the_next_owner(
    pair: tuple[Server, Server, str],
) -> None:
    """An action sent to B reaches A, the game's owner, which is killed while storing it: B
    sees A gone, waits for A's lease to run out, takes the game and applies the action, and
    answers within about one lease of the kill (not after the 15 s a forwarded request may
    wait for a living owner); the action is stored once."""
    a, b, db = pair
    gid, tokens = people_game(a.base)  # A holds it
    for _ in range(3):
        play_one(b.base, gid, tokens)
    body = next_move(b.base, gid, tokens)
    with stores_held(db) as go_on, ThreadPoolExecutor(1) as pool:
        sent = pool.submit(post_action, b.base, gid, body)
        wait_until_a_store_waits(db)  # at A: the request is in flight
        a.kill()
        killed = time.monotonic()
        go_on()  # A's store dies with A's connection: nothing of it is committed
        answer, answered = sent.result(timeout=60)
    assert answer.status_code == 200, answer.text
    assert answered - killed < LEASE + 3, answered - killed  # about one lease, not 15 s
    assert answer.json()["state_id"] == body["state_id"] + 1
    log = stored(db, gid)
    assert len(log) == body["state_id"] + 1 and log[-1] == body["action"]  # once
    assert RETRIED in b.log.read_text()


def test_an_action_stored_by_an_owner_killed_before_answering_is_answered_not_repeated(
    paused_pair: tuple[Server, Server, str, str],
) -> None:
    """As above, but A stores the action and is killed before its answer leaves (Redis holds
    A's reply back): B sends the request to the game's next owner, which finds the action
    stored at that state_id by that seat and answers it as applied, without applying it
    again, within about one lease of the kill."""
    a, b, db, rds = paused_pair
    gid, tokens = people_game(a.base)
    for _ in range(3):
        play_one(b.base, gid, tokens)
    body = next_move(b.base, gid, tokens)
    pauser = redis.Redis.from_url(rds)
    with stores_held(db) as go_on, ThreadPoolExecutor(1) as pool:
        sent = pool.submit(post_action, b.base, gid, body)
        wait_until_a_store_waits(db)
        pauser.execute_command("CLIENT", "PAUSE", "30000", "WRITE")  # replies wait in Redis
        try:
            go_on()  # A commits the action...
            end = time.monotonic() + 20
            while len(stored(db, gid)) <= body["state_id"]:
                assert time.monotonic() < end, "A did not store the action"
                time.sleep(0.02)
            a.kill()  # ... and dies before its answer is published
            killed = time.monotonic()
        finally:
            pauser.execute_command("CLIENT", "UNPAUSE")
        answer, answered = sent.result(timeout=60)
    assert answer.status_code == 200, answer.text
    assert answered - killed < LEASE + 3, answered - killed
    entries = httpx.get(f"{b.base}/api/games/{gid}/log", timeout=30).json()["entries"]
    told = [e["events"] for e in entries if e["state_id"] == body["state_id"] + 1]
    assert answer.json()["events"] == (told[0] if told else [])  # the action's own, again
    log = stored(db, gid)
    assert len(log) == body["state_id"] + 1 and log[-1] == body["action"]  # not twice
    assert RETRIED in b.log.read_text()


def test_an_action_on_a_socket_in_flight_when_its_owner_is_killed_is_told_and_sent_again(
    pair: tuple[Server, Server, str],
) -> None:
    """A seat's socket on B, its action played by A, which is killed while storing it: the
    socket is answered at once (refused, 503: look and try again) and closes with 1012; the
    page reconnects to B, which holds the game within about a lease, and the action sent again
    at its state_id is played once."""
    a, b, db = pair
    gid, tokens = people_game(a.base)
    for _ in range(3):
        play_one(b.base, gid, tokens)
    body = next_move(b.base, gid, tokens)
    act = {"type": "act", "state_id": body["state_id"], "action": body["action"], "ref": 7}
    with stores_held(db) as go_on, b.ws(gid) as ws:
        assert receive(ws)["type"] == "hello"
        ws.send(json.dumps({"type": "auth", "token": body["token"]}))
        assert receive(ws)["type"] == "hello"
        ws.send(json.dumps(act))
        wait_until_a_store_waits(db)
        a.kill()
        killed = time.monotonic()
        go_on()
        refused = receive(ws, timeout=LEASE + 10)
        assert (refused["type"], refused["status"], refused["ref"]) == ("refused", 503, 7)
        assert time.monotonic() - killed < LEASE + 3
        with pytest.raises(ConnectionClosed) as closed:
            receive(ws, timeout=LEASE + 10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
    with b.ws(gid) as ws:  # as the page does
        hello = receive(ws, timeout=LEASE + 10)
        assert hello["state_id"] == body["state_id"]  # nothing stored by the dead owner
        assert time.monotonic() - killed < LEASE + 3
        ws.send(json.dumps({"type": "auth", "token": body["token"]}))
        receive(ws)
        ws.send(json.dumps(act))
        acted = receive(ws)
        while acted["type"] not in ("acted", "refused"):
            acted = receive(ws)
        assert (acted["type"], acted["state_id"]) == ("acted", body["state_id"] + 1)
    log = stored(db, gid)
    assert len(log) == body["state_id"] + 1 and log[-1] == body["action"]
