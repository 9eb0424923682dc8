"""The lists of games: the lobby's (listed games, a few of each maker) and the operator's."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from meeple.server.store.database import Database
from meeple.server.store.rows import WAITING, ActionRow, GameRow, SeatRow, last_change

LOBBY_PER_CLIENT = 2
"""The most games of one client (its address or /64) in the lobby's list, their newest."""
LOBBY_PER_NETWORK = 4
"""The most games of one network (a /24 or /48) in the lobby's list, their newest."""


class Listings(Database):
    """The games listed: for the lobby (no tokens, no private games) and for the operator."""

    def list_games(
        self,
        status: str | None = None,
        limit: int = 100,
        waiting_since: dt.datetime | None = None,
    ) -> list[dict[str, Any]]:
        """A summary of the newest listed games (optionally of one status): no tokens, no
        actions. Private games are never listed, nor games waiting unchanged since
        ``waiting_since`` (as good as expired).

        The lobby's list is shared (docs/SERVER.md, "Limits"): of the games one client made,
        only its newest :data:`LOBBY_PER_CLIENT` are listed, and of one network's its newest
        :data:`LOBBY_PER_NETWORK`, so a few addresses cannot fill the list. Games made
        before makers were kept count each as its own maker."""
        listed = or_(GameRow.listed.is_(None), GameRow.listed.is_(True))
        q = select(GameRow.id).where(listed)
        if status is not None:
            q = q.where(GameRow.status == status)
        if waiting_since is not None:
            q = q.where(or_(GameRow.status != WAITING, last_change() >= waiting_since))
        newest = (GameRow.created.desc(), GameRow.id.desc())
        rank = q.add_columns(
            func.row_number()
            .over(partition_by=func.coalesce(GameRow.maker, GameRow.id), order_by=newest)
            .label("of_client"),
            func.row_number()
            .over(partition_by=func.coalesce(GameRow.maker_net, GameRow.id), order_by=newest)
            .label("of_network"),
        ).subquery()
        shown = select(rank.c.id).where(
            rank.c.of_client <= LOBBY_PER_CLIENT, rank.c.of_network <= LOBBY_PER_NETWORK
        )
        with Session(self.engine) as s:
            rows = s.scalars(
                select(GameRow).where(GameRow.id.in_(shown)).order_by(*newest).limit(limit)
            ).all()
            counts = dict(
                s.execute(
                    select(ActionRow.game, func.count())
                    .where(ActionRow.game.in_([r.id for r in rows]))
                    .group_by(ActionRow.game)
                ).all()
            )
            return [
                {
                    "id": r.id,
                    "game": r.game_id,
                    "players": r.players,
                    "status": r.status,
                    "state_id": int(counts.get(r.id, 0)),
                    "created": r.created.isoformat(),
                }
                for r in rows
            ]

    def admin_games(
        self,
        status: str | None = None,
        limit: int = 100,
        *,
        created_after: dt.datetime | None = None,
        created_before: dt.datetime | None = None,
        updated_after: dt.datetime | None = None,
        updated_before: dt.datetime | None = None,
        game: str | None = None,
    ) -> list[dict[str, Any]]:
        """The operator's list (:mod:`meeple.server.admin`): the newest games, private ones
        too, optionally of one status and made or changed within bounds, each with its seats
        (name, kind, bot, stand-in, ask settings) and action count; ``game`` alone if given.
        Never a token's hash, the host's key's or the invite code's. A bound without a time
        zone is UTC (SQLite compares the stored UTC times as text, so every bound is made
        UTC first)."""
        last = func.coalesce(GameRow.updated, GameRow.created)
        q = select(GameRow).order_by(GameRow.created.desc(), GameRow.id).limit(limit)
        if game is not None:
            q = q.where(GameRow.id == game)
        if status is not None:
            q = q.where(GameRow.status == status)
        if created_after is not None:
            q = q.where(GameRow.created >= _utc(created_after))
        if created_before is not None:
            q = q.where(GameRow.created < _utc(created_before))
        if updated_after is not None:
            q = q.where(last >= _utc(updated_after))
        if updated_before is not None:
            q = q.where(last < _utc(updated_before))
        with Session(self.engine) as s:
            rows = s.scalars(q).all()
            ids = [r.id for r in rows]
            counts: dict[str, int] = {}
            seats: dict[str, list[dict[str, Any]]] = {gid: [] for gid in ids}
            for chunk in range(0, len(ids), 500):  # bounded IN lists
                part = ids[chunk : chunk + 500]
                for gid, n in s.execute(
                    select(ActionRow.game, func.count())
                    .where(ActionRow.game.in_(part))
                    .group_by(ActionRow.game)
                ):
                    counts[gid] = int(n)
                for x in s.scalars(
                    select(SeatRow).where(SeatRow.game.in_(part)).order_by(SeatRow.seat)
                ):
                    seats[x.game].append(
                        {
                            "seat": x.seat,
                            "kind": x.kind,
                            "name": x.name,
                            "bot": x.bot or None,
                            "stand_in": bool(x.stand_in),
                            "ask": x.ask,
                        }
                    )
            return [
                {
                    "id": r.id,
                    "game": r.game_id,
                    "players": r.players,
                    "status": r.status,
                    "listed": r.listed is not False,
                    "actions": counts.get(r.id, 0),
                    "created": _utc(r.created).isoformat(),
                    "updated": _utc(r.updated or r.created).isoformat(),
                    "turn_timer": r.turn_timer,
                    "rematch": r.rematch,
                    "seats": seats[r.id],
                }
                for r in rows
            ]


def _utc(when: dt.datetime) -> dt.datetime:
    """``when`` as an aware UTC time: SQLite gives back the naive UTC time that was stored."""
    return when.replace(tzinfo=dt.UTC) if when.tzinfo is None else when.astimezone(dt.UTC)
