"""Which server process owns a live game, when more than one process serves the database
(:mod:`meeple.server.cluster`); the unique action index is also what keeps a process that lost
its lease from writing over its successor."""

from __future__ import annotations

import time
from collections.abc import Sequence

from sqlalchemy import delete, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from meeple.server.store.database import Database
from meeple.server.store.rows import GameRow, LeaseRow


class LeaseStore(Database):
    """The leases of live games: taken, renewed, read and given up."""

    def acquire_lease(self, game: str, owner: str, seconds: float) -> str:
        """Take ``game``'s lease for ``owner`` for ``seconds`` if it is free, expired or
        already ``owner``'s; returns the owner afterwards (``owner`` itself when taken), or
        ``""`` for a game that does not exist (no lease is made for it).

        One conditional UPDATE (or an INSERT for a game never leased), so two processes racing
        for an expired lease cannot both win.
        """
        now = time.time()
        held = or_(LeaseRow.owner == owner, LeaseRow.expires < now)
        with self.engine.begin() as c:
            took = c.execute(
                update(LeaseRow)
                .where(LeaseRow.game == game, held)
                .values(owner=owner, expires=now + seconds)
            )
            if took.rowcount:
                return owner
            other = c.scalar(select(LeaseRow.owner).where(LeaseRow.game == game))
        if other is not None:
            return str(other)
        with self.engine.connect() as c:
            if c.scalar(select(GameRow.id).where(GameRow.id == game)) is None:
                return ""
        try:
            with self.engine.begin() as c:
                c.execute(insert(LeaseRow).values(game=game, owner=owner, expires=now + seconds))
            return owner
        except IntegrityError:  # another process inserted it first
            with self.engine.connect() as c:
                return str(c.scalar(select(LeaseRow.owner).where(LeaseRow.game == game)))

    def lease(self, game: str) -> tuple[str, float] | None:
        """``game``'s lease: its owner and when it expires (epoch seconds), or ``None``."""
        with self.engine.connect() as c:
            row = c.execute(
                select(LeaseRow.owner, LeaseRow.expires).where(LeaseRow.game == game)
            ).first()
        return None if row is None else (str(row[0]), float(row[1]))

    def leases(self, games: Sequence[str]) -> dict[str, tuple[str, float]]:
        """The leases of ``games`` that exist: each one's owner and expiry."""
        with self.engine.connect() as c:
            rows = c.execute(
                select(LeaseRow.game, LeaseRow.owner, LeaseRow.expires).where(
                    LeaseRow.game.in_(games)
                )
            )
            return {str(g): (str(o), float(e)) for g, o, e in rows}

    def renew_leases(self, owner: str, seconds: float) -> set[str]:
        """Extend every lease ``owner`` still holds by ``seconds`` from now; returns those games
        (a game missing from it was taken over by another process)."""
        with self.engine.begin() as c:
            c.execute(
                update(LeaseRow)
                .where(LeaseRow.owner == owner)
                .values(expires=time.time() + seconds)
            )
            return set(c.scalars(select(LeaseRow.game).where(LeaseRow.owner == owner)))

    def release_lease(self, game: str, owner: str) -> None:
        """Give up ``game``'s lease if ``owner`` holds it (the game was unloaded)."""
        with self.engine.begin() as c:
            c.execute(delete(LeaseRow).where(LeaseRow.game == game, LeaseRow.owner == owner))
