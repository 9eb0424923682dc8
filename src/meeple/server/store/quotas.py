"""What a new game must fit in (docs/SERVER.md, "Limits"): the quota checked in the
transaction that adds the game, and the idle games expired to make room for it."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import and_, func, select, update
from sqlalchemy.engine import Connection

from meeple.server.store.rows import EXPIRED, WAITING, GameRow, LeaseRow, last_change, live_games

CREATE_LOCK = 0x6D65_6570_6C65
"""The PostgreSQL advisory lock every quota-checked new game takes for its transaction, so that
counting the games and adding one is one step across processes (``Storage.create_game``)."""


@dataclass
class Quota:
    """What a new game must fit in (docs/SERVER.md, "Limits"), checked by
    :meth:`Storage.create_game` in the transaction that adds it; ``None`` turns one off.

    ``client`` and ``network`` are its maker's (:class:`meeple.server.limits.Client`);
    ``live`` is the most games waiting or in play on the server, ``client_*`` and
    ``network_*`` the most that one client or network made. A game waiting that has not changed
    since ``waiting_since`` counts for nothing (it is expired by the next sweep). Beyond
    ``live``, the least recently changed game (not changed since ``idle_since``, not held by a
    server process) of the network that made the most games, if it made more than the maker's,
    is expired to make room; its id is added to ``evicted``.
    """

    client: str
    network: str
    live: int | None = None
    client_live: int | None = None
    client_waiting: int | None = None
    network_live: int | None = None
    network_waiting: int | None = None
    waiting_since: dt.datetime | None = None
    idle_since: dt.datetime | None = None
    evicted: list[str] = field(default_factory=list)


class QuotaError(Exception):
    """A new game the :class:`Quota` refused: which limit (``Limits``' field) and why."""

    def __init__(self, limit: str, reason: str) -> None:
        super().__init__(reason)
        self.limit = limit
        self.reason = reason


def fit(c: Connection, quota: Quota, gid: str, now: dt.datetime) -> None:
    """Make the new game ``gid`` (added, not committed) fit in ``quota``, expiring idle
    games to make room, or raise :class:`QuotaError`.

    Over one of its maker's shares, the maker's own least recently changed idle game of
    that kind (waiting, or any) makes room: someone who left games behind can always make
    a new one, and a flood of fresh games stops at the share. Over the cap on games, the
    busiest network's makes room (:func:`_busiest`)."""
    live = live_games(quota.waiting_since)
    waits = c.scalar(select(GameRow.status).where(GameRow.id == gid)) == WAITING
    mine, ours = GameRow.maker == quota.client, GameRow.maker_net == quota.network
    waiting = GameRow.status == WAITING
    shares = [
        ("waiting_per_client", and_(mine, waiting), quota.client_waiting, "your address"),
        ("waiting_per_network", and_(ours, waiting), quota.network_waiting, "your network"),
        ("live_per_client", mine, quota.client_live, "your address"),
        ("live_per_network", ours, quota.network_live, "your network"),
    ]
    for limit, whose, most, who in shares:
        if most is None or (not waits and limit.startswith("waiting")):
            continue
        count = c.scalar(select(func.count()).where(live, whose)) or 0
        if count <= most:
            continue
        victim = _idle_game(c, quota, and_(whose, GameRow.id != gid), now)
        if victim is None:
            what = "waiting to start" if limit.startswith("waiting") else "waiting or in play"
            raise QuotaError(
                limit,
                f"{who} has {most} games {what}, the most it may, all of them played or "
                "joined lately: finish, start or cancel one (a game left alone makes room "
                "for a new one after a while)",
            )
        _expire_for(c, victim, quota, now)
    if quota.live is None:
        return
    total = c.scalar(select(func.count()).where(live)) or 0
    if total <= quota.live:
        return
    ours_now = c.scalar(select(func.count()).where(live, ours)) or 0
    victim = _busiest(c, quota, int(ours_now), now)
    if victim is None:
        raise QuotaError(
            "live_games", f"the server has {quota.live} games waiting or in play, its most"
        )
    _expire_for(c, victim, quota, now)


def _expire_for(c: Connection, victim: str, quota: Quota, now: dt.datetime) -> None:
    c.execute(
        update(GameRow)
        .where(GameRow.id == victim)
        .values(status=EXPIRED, maker=None, maker_net=None, updated=now)
    )
    quota.evicted.append(victim)


def _idle_game(c: Connection, quota: Quota, where: Any, now: dt.datetime) -> str | None:
    """The least recently changed game waiting or in play ``where`` holds, unchanged since
    ``quota.idle_since`` and held by no server process (a game loaded somewhere is left
    alone: that process would go on playing it); ``None`` if there is none."""
    held = select(LeaseRow.game).where(LeaseRow.expires >= now.timestamp())
    q = select(GameRow.id).where(live_games(quota.waiting_since), where, GameRow.id.not_in(held))
    if quota.idle_since is not None:
        q = q.where(last_change() < quota.idle_since)
    found = c.scalar(q.order_by(last_change(), GameRow.id).limit(1))
    return None if found is None else str(found)


def _busiest(c: Connection, quota: Quota, ours: int, now: dt.datetime) -> str | None:
    """The game to expire so that a game of ``quota.network`` (which holds ``ours`` now,
    the new one included) fits under the cap: an idle one (:func:`_idle_game`) of the
    network that made the most games waiting or in play, if it made more than ``ours``;
    ``None`` if there is none."""
    n = func.count().label("n")
    top = c.execute(
        select(GameRow.maker_net, n)
        .where(live_games(quota.waiting_since), GameRow.maker_net.is_not(None))
        .group_by(GameRow.maker_net)
        .order_by(n.desc())
        .limit(1)
    ).first()
    if top is None or top[0] == quota.network or int(top[1]) <= ours:
        return None
    return _idle_game(c, quota, GameRow.maker_net == top[0], now)
