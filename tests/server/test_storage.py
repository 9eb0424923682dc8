"""Storage, the same tests against SQLite and PostgreSQL.

PostgreSQL: ``MEEPLE_TEST_POSTGRES_URL`` (default ``postgresql+psycopg://postgres@127.0.0.1:5432/
test``); each test gets a fresh schema, dropped afterwards. Without a reachable server these
tests skip and say why.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import sqlalchemy
from fastapi.testclient import TestClient
from sqlalchemy.exc import IntegrityError

from meeple.server.app import create_app
from meeple.server.hub import rebuild
from meeple.server.storage import (
    FINISHED,
    ActionWrite,
    Base,
    Storage,
    StoredSeat,
    hash_token,
    new_token,
    normalise_url,
)
from tests.server.conftest import TEST_HOSTS

PG_URL = os.environ.get(
    "MEEPLE_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)


def _pg_reason() -> str | None:
    try:
        eng = sqlalchemy.create_engine(PG_URL, connect_args={"connect_timeout": 3})
        with eng.connect() as c:
            c.execute(sqlalchemy.text("select 1"))
        eng.dispose()
    except Exception as exc:
        return f"no PostgreSQL server at {PG_URL}: {type(exc).__name__}: {str(exc)[:120]}"
    return None


_PG_REASON: str | bool | None = False


def pg_reason() -> str | None:
    global _PG_REASON
    if _PG_REASON is False:
        _PG_REASON = _pg_reason()
    assert _PG_REASON is not True
    return _PG_REASON


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str | None]]:
    """``(database url, schema)`` of an empty database."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'games.sqlite'}", None
        return
    reason = pg_reason()
    if reason is not None:
        pytest.skip(reason)
    schema = f"meeple_test_{uuid.uuid4().hex[:12]}"
    eng = sqlalchemy.create_engine(PG_URL)
    with eng.begin() as c:
        c.execute(sqlalchemy.text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield PG_URL, schema
    finally:
        with eng.begin() as c:
            c.execute(sqlalchemy.text(f'DROP SCHEMA "{schema}" CASCADE'))
        eng.dispose()


@pytest.fixture
def storage(backend: tuple[str, str | None]) -> Iterator[Storage]:
    st = Storage(backend[0], schema=backend[1])
    st.create_tables()
    yield st
    st.close()


def seats(token: str) -> list[StoredSeat]:
    return [
        StoredSeat(0, "human", "Ann", "", hash_token(token)),
        StoredSeat(1, "bot", "random bot", "random", ""),
    ]


def test_create_and_load(storage: Storage) -> None:
    token = new_token()
    gid = storage.create_game("classic", 2, 2**62 + 5, {}, seats(token))
    g = storage.load_game(gid)
    assert g is not None
    assert (g.game_id, g.players, g.seed, g.status) == ("classic", 2, 2**62 + 5, "active")
    assert [s.kind for s in g.seats] == ["human", "bot"]
    assert g.seats[0].token_hash == hash_token(token) != token
    assert storage.load_game("missing") is None


def test_tokens_are_never_stored(storage: Storage) -> None:
    token = new_token()
    gid = storage.create_game("classic", 2, 1, {}, seats(token))
    with storage.engine.connect() as c:
        assert c.execute(sqlalchemy.select(Base.metadata.tables["seats"])).all()
        for table in ("games", "seats", "actions"):
            rows = c.execute(sqlalchemy.select(Base.metadata.tables[table])).all()
            assert token not in repr(rows)
    assert storage.load_game(gid) is not None


def test_actions_are_ordered_and_never_stored_twice(storage: Storage) -> None:
    gid = storage.create_game("classic", 2, 1, {}, seats(new_token()))
    for i, text in enumerate(["roll", "buy", "end_turn"]):
        storage.append_action(gid, i, text)
    with pytest.raises(IntegrityError):
        storage.append_action(gid, 1, "roll")
    assert storage.actions(gid) == ["roll", "buy", "end_turn"]
    storage.append_action(gid, 3, "roll", FINISHED)
    loaded = storage.load_game(gid)
    assert loaded is not None and loaded.status == FINISHED


def test_load_unfinished(storage: Storage) -> None:
    a = storage.create_game("classic", 2, 1, {}, seats(new_token()))
    b = storage.create_game("monopolis", 2, 2, {}, seats(new_token()))
    storage.append_action(b, 0, "pass", FINISHED)
    storage.append_action(a, 0, "roll")
    unfinished = storage.load_unfinished()
    assert [g.id for g in unfinished] == [a]
    assert unfinished[0].actions == ["roll"]
    assert [g["id"] for g in storage.list_games("finished")] == [b]
    assert {g["id"]: g["state_id"] for g in storage.list_games()} == {a: 1, b: 1}


def test_server_resumes_a_game_from_storage(backend: tuple[str, str | None]) -> None:
    """A server over this database plays, stops, and a new one resumes at the same action."""
    url, schema = backend
    seats_ = [{"type": "human", "name": "Ann"}, {"type": "bot", "bot": "random"}]
    with TestClient(create_app(url, 0.0, schema=schema, allowed_hosts=TEST_HOSTS)) as c:
        g = c.post("/api/games", json={"game": "classic", "seats": seats_, "seed": 9}).json()
        gid, tok = g["id"], g["seats"][0]["token"]
        end = time.monotonic() + 60
        while True:  # until position 10 (the bot moves at the machine's pace, not the loop's)
            v = c.get(f"/api/games/{gid}/view", params={"token": tok}).json()
            if v["state_id"] >= 10:
                break
            assert time.monotonic() < end, "the game did not reach position 10"
            if v["legal_actions"]:
                c.post(
                    f"/api/games/{gid}/actions",
                    json={
                        "token": tok,
                        "state_id": v["state_id"],
                        "action": v["legal_actions"][0]["action"],
                    },
                )
            else:
                time.sleep(0.01)
    st = Storage(url, schema=schema)  # the first server has stopped: this is what it kept
    stored = st.actions(gid)
    st.close()
    assert len(stored) >= 10
    # bots slow enough not to move during the checks: the resumed game is exactly the stored one
    with TestClient(create_app(url, 60.0, schema=schema, allowed_hosts=TEST_HOSTS)) as c:
        after = c.get(f"/api/games/{gid}").json()
        assert after["state_id"] == len(stored)
        assert after["status"] == "active"
        assert c.get(f"/api/games/{gid}/view", params={"token": tok}).status_code == 200


def test_rebuild_matches_the_live_state(storage: Storage) -> None:
    gid = storage.create_game("classic", 2, 4, {}, seats(new_token()))
    for i, text in enumerate(["roll"]):
        storage.append_action(gid, i, text)
    loaded = storage.load_game(gid)
    assert loaded is not None
    live = rebuild(loaded)
    assert live.state_id == 1 and live.state.history[0].kind == "roll"


def test_a_stand_in_is_stored_with_where_it_began_and_older_databases_gain_the_column(
    storage: Storage,
) -> None:
    """``seats.stand_in_at`` (where a stand-in began: it is seeded and replayed from there)
    is stored and loaded; a database made before it gains it in place, its seats keeping
    what they held, with no position (a stand-in taken as begun at the start)."""
    gid = storage.create_game("classic", 2, 4, {}, seats(new_token()))
    seat = StoredSeat(0, "human", "Ann", "", hash_token(new_token()), stand_in=True, stand_in_at=7)
    storage.set_seat(gid, seat)
    loaded = storage.load_game(gid)
    assert loaded is not None and loaded.seats[0].stand_in_at == 7
    table = "seats" if storage.schema is None else f'"{storage.schema}".seats'
    with storage.engine.begin() as c:  # as an older meeple made it
        c.execute(sqlalchemy.text(f"ALTER TABLE {table} DROP COLUMN stand_in_at"))
    storage.create_tables()
    loaded = storage.load_game(gid)
    assert loaded is not None
    assert (loaded.seats[0].stand_in, loaded.seats[0].stand_in_at) == (True, None)
    assert rebuild(loaded).seats[0].stand_in_at == 0


def test_plain_postgresql_urls_use_psycopg() -> None:
    assert normalise_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalise_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalise_url("sqlite:///x.sqlite") == "sqlite:///x.sqlite"


def test_leases_one_owner_at_a_time(storage: Storage) -> None:
    """A game's lease (meeple.server.cluster): taken when free, refused while another process
    holds it, taken over once it expires, renewed, given up; none for a game that is not."""
    gid = storage.create_game("classic", 2, 7, {}, seats(new_token()))
    assert storage.acquire_lease("nosuchgame", "p1", 5.0) == ""
    assert storage.lease("nosuchgame") is None
    assert storage.acquire_lease(gid, "p1", 5.0) == "p1"
    assert storage.acquire_lease(gid, "p2", 5.0) == "p1"  # held: p2 is told who holds it
    assert storage.acquire_lease(gid, "p1", 5.0) == "p1"  # the holder again: renewed
    assert storage.renew_leases("p1", 5.0) == {gid}
    assert storage.renew_leases("p2", 5.0) == set()
    assert storage.acquire_lease(gid, "p1", -1.0) == "p1"  # now expired
    assert storage.acquire_lease(gid, "p2", 5.0) == "p2"  # taken over
    assert storage.renew_leases("p1", 5.0) == set()  # p1 learns it lost the game
    storage.release_lease(gid, "p1")  # not p1's: nothing happens
    assert storage.leases([gid])[gid][0] == "p2"
    storage.release_lease(gid, "p2")
    assert storage.lease(gid) is None
    assert storage.acquire_lease(gid, "p3", 5.0) == "p3"


def test_a_lease_race_has_one_winner(storage: Storage) -> None:
    gid = storage.create_game("classic", 2, 7, {}, seats(new_token()))
    with ThreadPoolExecutor(8) as pool:
        owners = list(pool.map(lambda i: storage.acquire_lease(gid, f"p{i}", 5.0), range(8)))
    assert len(set(owners)) == 1 and owners[0] in {f"p{i}" for i in range(8)}


def test_a_game_stored_before_rulesets_resumes_as_it_was_played(
    backend: tuple[str, str | None],
) -> None:
    """A game an older meeple stored has no ruleset in its options: it is ruleset 1, in which
    Player 1 started (docs/RULES.md, "Who starts"), and resumes as it was played."""
    from meeple.kernel.family import new_game

    url, schema = backend
    st = Storage(url, schema=schema)
    st.create_tables()
    old = new_game("classic", 2, 11, {"ruleset": 1})  # as the older meeple played it
    today = new_game("classic", 2, 11)
    assert today.current_player() != 0  # (seed 11: the roll-off starts Player 2 today)
    for _ in range(12):
        old.apply(old.legal_actions()[0])
    gid = st.create_game("classic", 2, 11, {}, seats(new_token()))  # no ruleset, as then
    st.append_actions([ActionWrite(gid, i, str(a), "active") for i, a in enumerate(old.history)])
    st.close()
    with TestClient(create_app(url, 60.0, schema=schema, allowed_hosts=TEST_HOSTS)) as c:
        g = c.get(f"/api/games/{gid}")
        assert g.status_code == 200, g.text
        assert g.json()["state_id"] == 12 and g.json()["view"] == json.loads(
            json.dumps(old.view(None))
        )
