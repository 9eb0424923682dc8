"""The games that are over or left alone: counted, expired, and purged with their records."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import and_, delete, func, or_, select, update
from sqlalchemy.orm import Session

from meeple.server.store.database import Database
from meeple.server.store.rows import (
    ACTIVE,
    DONE,
    EXPIRED,
    WAITING,
    ActionRow,
    ChatRow,
    GameRow,
    LeaseRow,
    SeatRow,
    last_change,
    live_games,
)


class Sweeps(Database):
    """What the hub's sweep asks of the database: how many games are live, which expire, and
    which records of games over are deleted."""

    def count_live(self, waiting_since: dt.datetime | None = None) -> int:
        """How many games are waiting or in play (those waiting unchanged since
        ``waiting_since`` left out)."""
        with Session(self.engine) as s:
            return int(s.scalar(select(func.count()).where(live_games(waiting_since))) or 0)

    def expire_idle(
        self, before: dt.datetime | None, waiting_before: dt.datetime | None = None
    ) -> list[str]:
        """Mark every game waiting or in play that has not changed since ``before``, and every
        game waiting that has not changed since ``waiting_before``, as expired; returns their
        ids. ``None``: no such bound."""
        stale = []
        if before is not None:
            stale.append(and_(GameRow.status.in_([WAITING, ACTIVE]), last_change() < before))
        if waiting_before is not None:
            stale.append(and_(GameRow.status == WAITING, last_change() < waiting_before))
        if not stale:
            return []
        with self.engine.begin() as c:
            ids = list(c.execute(select(GameRow.id).where(or_(*stale))).scalars())
            for chunk in range(0, len(ids), 500):  # bounded IN lists
                part = ids[chunk : chunk + 500]
                c.execute(
                    update(GameRow)
                    .where(GameRow.id.in_(part))
                    .values(status=EXPIRED, maker=None, maker_net=None)
                )
        return ids

    def purge(self, before: dt.datetime) -> int:
        """Delete the finished, cancelled and expired games not changed since ``before``, with
        their seats, actions and chat; returns how many games went."""
        return len(self.purge_games(before=before))

    def purge_games(
        self, *, before: dt.datetime | None = None, game: str | None = None
    ) -> list[str]:
        """Delete the finished, cancelled and expired games not changed since ``before`` (or
        game ``game`` alone, if it is one of them), with their seats, actions and chat; returns
        the ids of the games that went. A game waiting or in play is never deleted: the status
        is checked in the same transaction as the delete."""
        last = func.coalesce(GameRow.updated, GameRow.created)
        q = select(GameRow.id).where(GameRow.status.in_(DONE))
        if before is not None:
            q = q.where(last < before)
        if game is not None:
            q = q.where(GameRow.id == game)
        with self.engine.begin() as c:
            ids = list(c.execute(q).scalars())
            for chunk in range(0, len(ids), 500):  # bounded IN lists
                part = ids[chunk : chunk + 500]
                for table in (ChatRow, ActionRow, SeatRow, LeaseRow):
                    c.execute(delete(table).where(table.game.in_(part)))
                c.execute(delete(GameRow).where(GameRow.id.in_(part)))
        return ids
