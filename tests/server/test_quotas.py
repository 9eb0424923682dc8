"""A few addresses cannot lock every new visitor out (issue 39, finding 1; docs/SERVER.md,
"Limits"): games waiting to start are capped per client (an IPv4 address, an IPv6 /64) and per
network (a /24, a /48), as are all the games they made; a game nobody joins expires within the
hour; the cap on games is counted and taken in one step, in one process or many, on SQLite and
PostgreSQL; at the cap an idle game of the network that made the most makes room; and the
lobby's list holds a few games of each address.

Requests come through uvicorn's proxy-headers middleware trusting everyone, so each names its
client address in ``X-Forwarded-For`` as a proxy's would (docs/DEPLOY.md); the addresses are
the documentation ranges' and private ones, and no traffic goes anywhere.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import pytest
import sqlalchemy
from fastapi.testclient import TestClient
from sqlalchemy import update
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from meeple.server.app import create_app
from meeple.server.hub import Hub, HubError, Lifecycle
from meeple.server.limits import Client, Limits
from meeple.server.storage import GameRow, Storage
from tests.server.conftest import TEST_HOSTS
from tests.server.test_storage import backend  # noqa: F401  (the fixture: SQLite, PostgreSQL)

WAITING = [{"type": "human", "name": "Ann"}, {"type": "open"}]
PLAYING = [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}]  # nobody moves
NO_HOURLY = {"games_per_client_hour": None}  # the hourly allowance is tested elsewhere


class Site:
    """A server as visitors reach it, each request from the address it names."""

    def __init__(self, client: TestClient, hub: Hub) -> None:
        self.client = client
        self.hub = hub

    def make(self, addr: str, seats: Any = WAITING, listed: bool = True) -> Any:
        return self.client.post(
            "/api/games",
            json={"game": "classic", "seats": seats, "listed": listed},
            headers={"X-Forwarded-For": addr},
        )

    def flood(self, addrs: list[str], tries: int, seats: Any = WAITING) -> int:
        """Each address makes ``tries`` games; how many were made."""
        made = 0
        for addr in addrs:
            for _ in range(tries):
                r = self.make(addr, seats)
                assert r.status_code in (201, 429), r.text
                made += r.status_code == 201
        return made

    def listed(self, status: str = "waiting") -> list[str]:
        return [g["id"] for g in self.client.get(f"/api/games?status={status}").json()]


@contextmanager
def site(db_url: str, lifecycle: Lifecycle | None = None, **limits: Any) -> Iterator[Site]:
    app = create_app(
        db_url,
        0.0,
        allowed_hosts=TEST_HOSTS,
        limits=Limits(**{**NO_HOURLY, **limits}),
        lifecycle=lifecycle or Lifecycle(sweep_every=0),
    )
    with TestClient(ProxyHeadersMiddleware(app, trusted_hosts="*")) as client:  # type: ignore[arg-type]
        yield Site(client, app.state.hub)


def test_clients_and_networks() -> None:
    assert Client.of("198.51.100.7") == Client("198.51.100.7", "198.51.100.0/24")
    # Every address of one /64 is one client; a /48 is one network.
    a, b = Client.of("2001:db8:1:2::1"), Client.of("2001:db8:1:2:ffff:1:2:3")
    assert a == b == Client("2001:db8:1:2::/64", "2001:db8:1::/48")
    c = Client.of("2001:db8:1:3::1")
    assert c.key != a.key and c.network == a.network
    assert Client.of("[2001:db8:1:2::9]") == a
    assert Client.of("::ffff:198.51.100.7") == Client.of("198.51.100.7")  # dual-stack socket
    assert Client.of("testclient") == Client("testclient", "testclient")
    assert Client.of(None) == Client("unknown", "unknown")
    assert len(Client.of("x" * 500).key) == 64  # (the games table keeps 64 characters)


def test_many_loopback_addresses_do_not_lock_out_a_new_visitor(db_url: str) -> None:
    """The issue's flood: 88 loopback addresses making listed games that never start. Each
    makes 5, their /24 20 in all; the next visitor, from anywhere else, makes a game."""
    with site(db_url) as s:
        flood = [f"127.0.0.{i}" for i in range(1, 89)]
        assert s.flood(flood, 10) == 20
        r = s.make("127.0.0.200")
        assert r.status_code == 429 and "your network has 20 games waiting" in r.json()["detail"]
        r = s.make(flood[0], PLAYING)  # a game in play from one of them: within its share
        assert r.status_code == 201, r.text
        assert s.make("198.51.100.7").status_code == 201
        assert s.make("198.51.100.7", PLAYING).status_code == 201
        assert s.hub.limit_hits["waiting_per_network"] > 0


def test_one_ipv6_subnet_is_one_client(db_url: str) -> None:
    """Each IPv6 address of a /64 counted apart, one /64 would be 2^64 visitors: it is one.
    A /48's 65,536 /64s are one network."""
    with site(db_url) as s:
        one_64 = [f"2001:db8:1:2::{i:x}" for i in range(1, 41)]
        assert s.flood(one_64, 3) == 5
        r = s.make("2001:db8:1:2::abcd")
        assert r.status_code == 429 and "your address has 5 games waiting" in r.json()["detail"]
        one_48 = [f"2001:db8:1:{i:x}::1" for i in range(3, 60)]
        assert s.flood(one_48, 3) == 20 - 5
        assert s.make("2001:db8:2::1").status_code == 201  # another /48
        assert s.make("198.51.100.7").status_code == 201


def test_games_in_play_are_capped_per_client_and_network(db_url: str) -> None:
    with site(db_url, live_per_client=3, live_per_network=5) as s:
        assert s.flood(["198.51.100.1"], 5, PLAYING) == 3
        r = s.make("198.51.100.1", PLAYING)
        assert r.status_code == 429 and "your address has 3 games waiting or in play" in r.text
        assert s.flood(["198.51.100.2", "198.51.100.3"], 5, PLAYING) == 2
        assert s.make("203.0.113.1", PLAYING).status_code == 201


def test_games_left_behind_make_room_for_their_maker(db_url: str) -> None:
    """At its share, a client's own least recently changed game that nobody touched for ten
    minutes makes room: someone who left games behind is never locked out, and a flood of
    fresh games stops at the share."""
    with site(db_url, live_per_client=3) as s:
        gids = [s.make("198.51.100.1", PLAYING).json()["id"] for _ in range(3)]
        r = s.make("198.51.100.1", PLAYING)
        assert r.status_code == 429 and "all of them played or joined lately" in r.text
        age(db_url, gids[2], 650)
        age(db_url, gids[1], 700)
        assert s.make("198.51.100.1", PLAYING).status_code == 201
        status = [s.client.get(f"/api/games/{g}").json()["status"] for g in gids]
        assert status == ["active", "expired", "active"]
        assert s.hub.storage.count_live() == 3


def test_at_the_cap_the_busiest_network_makes_room(db_url: str) -> None:
    """Past the cap on games, a new visitor's game takes the place of the least recently
    changed idle game of the network that made the most; when no network made more than the
    visitor's, the cap holds."""
    now_idle = Lifecycle(sweep_every=0, evict_after=0.0)
    with site(db_url, now_idle, live_games=13) as s:
        busiest = [s.make("10.0.0.1", PLAYING).json()["id"] for _ in range(4)]
        assert s.flood([f"10.{i}.0.1" for i in range(1, 4)], 3, PLAYING) == 9
        assert s.hub.storage.count_live() == 13
        r = s.make("198.51.100.7", PLAYING)
        assert r.status_code == 201, r.text
        assert s.hub.storage.count_live() == 13
        status = [s.client.get(f"/api/games/{g}").json()["status"] for g in busiest]
        assert status == ["expired", "active", "active", "active"]
        assert s.hub.limit_hits["expired_to_make_room"] == 1
        # More visitors: each takes the place of a game of a network with 3.
        for i in range(3):
            assert s.make(f"203.0.{113 + i}.1", PLAYING).status_code == 201
        assert s.hub.storage.count_live() == 13
        # No network holds more than 3 now, and 10.1's would: it is refused.
        r = s.make("10.1.0.1", PLAYING)
        assert r.status_code == 429 and "13 games waiting or in play" in r.json()["detail"]
        assert s.hub.storage.count_live() == 13


def test_an_evicted_game_that_is_loaded_stops(db_url: str) -> None:
    with site(db_url, Lifecycle(sweep_every=0, evict_after=0.0), live_games=2) as s:
        gids = [s.make("10.0.0.1", PLAYING).json()["id"] for _ in range(2)]
        with s.client.websocket_connect(f"/api/games/{gids[0]}/ws") as ws:
            assert ws.receive_json()["type"] == "hello"
            assert s.make("198.51.100.7", PLAYING).status_code == 201
            seats = ws.receive_json()
            assert seats["type"] == "seats" and seats["status"] == "expired"
        assert s.hub.games[gids[0]].status == "expired"


def age(db_url: str, gid: str, seconds: float) -> None:
    """Make game ``gid`` look unchanged for ``seconds``."""
    eng = sqlalchemy.create_engine(db_url)
    when = dt.datetime.now(dt.UTC) - dt.timedelta(seconds=seconds)
    with eng.begin() as c:
        c.execute(update(GameRow).where(GameRow.id == gid).values(updated=when))
    eng.dispose()


def test_a_game_nobody_joins_expires_within_the_hour(db_url: str) -> None:
    with site(db_url) as s:
        three = [{"type": "human", "name": "Ann"}, {"type": "open"}, {"type": "open"}]
        listed = s.make("198.51.100.7").json()
        private = s.make("198.51.100.7", listed=False).json()
        joined = s.make("198.51.100.7", three).json()
        for g in (listed, private, joined):
            age(db_url, g["id"], 3500)
        # A join is a change: that game waits another hour from it.
        body = {"code": joined["invite"], "seat": 1, "name": "Bob"}
        assert s.client.post(f"/api/games/{joined['id']}/join", json=body).status_code == 200
        for g in (listed, private):
            age(db_url, g["id"], 3601)
        # Past the hour: out of the lobby and of every count at once, expired by the sweep.
        assert s.listed() == [joined["id"]]
        an_hour_ago = dt.datetime.now(dt.UTC) - dt.timedelta(hours=1)
        assert s.hub.storage.count_live(an_hour_ago) == 1
        s.client.portal.call(s.hub.sweep)  # type: ignore[union-attr]
        for g in (listed, private):
            assert s.client.get(f"/api/games/{g['id']}").json()["status"] == "expired"
        assert s.client.get(f"/api/games/{joined['id']}").json()["status"] == "waiting"
        assert s.hub.storage.count_live() == 1


def test_the_lobby_list_holds_a_few_games_of_each_address(db_url: str) -> None:
    """The lobby shows the newest 100 listed games: a flood of them from one network and one
    /48 shows 4 of each, and a game listed before it stays in the list."""
    unlimited = {"waiting_per_client": None, "waiting_per_network": None}
    with site(db_url, **unlimited, live_per_client=None, live_per_network=None) as s:
        before = s.make("198.51.100.7").json()["id"]
        assert s.flood([f"127.0.0.{i}" for i in range(1, 89)], 2) == 176
        assert s.flood([f"2001:db8:1:{i:x}::1" for i in range(1, 60)], 2) == 118
        shown = s.listed()
        assert before in shown
        makers = [Client.of(a) for a in ("127.0.0.1", "2001:db8:1::1")]
        eng = sqlalchemy.create_engine(db_url)
        with eng.connect() as c:
            rows = c.execute(sqlalchemy.select(GameRow.id, GameRow.maker, GameRow.maker_net)).all()
        eng.dispose()
        by_net: dict[str, int] = {}
        by_client: dict[str, int] = {}
        for gid, maker, net in rows:
            if gid in shown and maker is not None and net is not None:
                by_net[net] = by_net.get(net, 0) + 1
                by_client[maker] = by_client.get(maker, 0) + 1
        assert {by_net[m.network] for m in makers} == {4} and max(by_client.values()) <= 2
        assert len(shown) == 9
        # The newest of each: the flood's last games.
        r = s.make("198.51.100.8")
        assert r.json()["id"] == s.listed()[0]


def test_who_made_a_game_is_forgotten_when_it_ends(db_url: str) -> None:
    with site(db_url) as s:
        g = s.make("198.51.100.7", PLAYING).json()
        assert s.client.post(f"/api/games/{g['id']}/cancel", json={"host_token": g["host_token"]})
        eng = sqlalchemy.create_engine(db_url)
        with eng.connect() as c:
            row = c.execute(
                sqlalchemy.select(GameRow.maker, GameRow.maker_net).where(GameRow.id == g["id"])
            ).one()
        eng.dispose()
        assert tuple(row) == (None, None)


def test_the_cap_is_exact_under_concurrent_creates(backend: tuple[str, str | None]) -> None:  # noqa: F811
    """Three server processes' hubs over one database (SQLite or PostgreSQL), 60 games asked
    for at once against a cap of 25: exactly 25 are made. Counting and adding are one step."""
    url, schema = backend
    cap = 25

    async def main() -> list[bool]:
        hubs = [
            Hub(Storage(url, schema=schema), 0.0, Lifecycle(sweep_every=0), Limits(live_games=cap))
            for _ in range(3)
        ]
        for hub in hubs:
            await hub.start()

        async def one(i: int) -> bool:
            try:
                await hubs[i % 3].create("classic", PLAYING, None, client=Client.of(f"10.{i}.0.1"))
            except HubError as exc:
                assert exc.status == 429, exc.detail
                return False
            return True

        try:
            return list(await asyncio.gather(*(one(i) for i in range(60))))
        finally:
            for hub in hubs:
                await hub.stop()
                hub.storage.close()

    with ThreadPoolExecutor(1) as pool:  # (asyncio.run beside a Playwright loop: test_history)
        made = pool.submit(asyncio.run, main()).result()
    assert sum(made) == cap
    storage = Storage(url, schema=schema)
    assert storage.count_live() == cap
    storage.close()


@pytest.mark.parametrize("columns", [("maker", "maker_net"), ()])
def test_an_older_database_gains_the_makers(tmp_path: Any, columns: tuple[str, ...]) -> None:
    """A database from before the makers were kept gets the columns and their indexes; its
    games count as made by nobody (each its own maker in the lobby's list)."""
    url = f"sqlite:///{tmp_path / 'old.sqlite'}"
    storage = Storage(url)
    storage.create_tables()
    with storage.engine.begin() as c:
        for column in columns:
            c.execute(sqlalchemy.text(f"DROP INDEX ix_games_{column}"))
            c.execute(sqlalchemy.text(f"ALTER TABLE games DROP COLUMN {column}"))
    storage.create_tables()
    indexes = {i["name"] for i in sqlalchemy.inspect(storage.engine).get_indexes("games")}
    assert {"ix_games_maker", "ix_games_maker_net"} <= indexes
    storage.close()
