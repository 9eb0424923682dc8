"""The games store: a game's record, its seats and its actions, made, changed and loaded.

A game is rebuilt by replaying its actions (:func:`meeple.kernel.saves.replay`), so nothing
else needs storing. :meth:`GameStore.append_actions` stores the actions of many games in one
transaction: the hub's group commit.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import bindparam, func, insert, select, update
from sqlalchemy.orm import Session

from meeple.kernel.family import stored_options
from meeple.server.store.database import Database
from meeple.server.store.quotas import CREATE_LOCK, Quota, fit
from meeple.server.store.rows import ACTIVE, DONE, WAITING, ActionRow, GameRow, SeatRow

# An action's statements, built once: storing actions is on the path of every move, and
# building a statement costs more than running it (benchmarks/README.md, server section).
_INSERT_ACTIONS = insert(ActionRow)
_SET_STATUS = (  # a status an action sets is an end (finished): who made it is forgotten
    update(GameRow)
    .where(GameRow.id.in_(bindparam("games", expanding=True)))
    .values(status=bindparam("new_status"), maker=None, maker_net=None)
)
_TOUCH = (
    update(GameRow)
    .where(GameRow.id.in_(bindparam("games", expanding=True)))
    .values(updated=bindparam("now"))
)


def hash_token(token: str) -> str:
    """The stored form of a seat token: its SHA-256 in hex."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_token() -> str:
    """A fresh seat token (192 random bits, URL-safe)."""
    return secrets.token_urlsafe(24)


@dataclass(frozen=True)
class ActionWrite:
    """Action number ``index`` of ``game`` as text, and the game's status once it is applied."""

    game: str
    index: int
    text: str
    status: str = ACTIVE


@dataclass
class StoredSeat:
    seat: int
    kind: str  # "human", "bot" or "open" (a person invited, not yet there)
    name: str
    bot: str
    token_hash: str
    ask: dict[str, Any] | None = None
    stand_in: bool = False
    chat: str | None = None  # MUTED, REMOVED or None (the host's word on their chat)
    stand_in_at: int | None = None  # where the stand-in began (SeatRow.stand_in_at)
    stand_in_idle: bool = False  # it goes when the person is back (SeatRow.stand_in_idle)


@dataclass
class StoredGame:
    id: str
    game_id: str
    players: int
    seed: int
    options: dict[str, Any]
    status: str
    created: dt.datetime
    seats: list[StoredSeat]
    actions: list[str] = field(default_factory=list)
    host_hash: str | None = None
    invite_hash: str | None = None
    listed: bool = True
    turn_timer: float | None = None
    rematch: str | None = None
    hints: bool = True


class GameStore(Database):
    """Games made, changed and loaded, with their seats and actions."""

    def create_game(
        self,
        game_id: str,
        players: int,
        seed: int,
        options: dict[str, Any],
        seats: list[StoredSeat],
        *,
        status: str = ACTIVE,
        host_hash: str | None = None,
        invite_hash: str | None = None,
        listed: bool = True,
        turn_timer: float | None = None,
        hints: bool = True,
        quota: Quota | None = None,
    ) -> str:
        """Store a new game with its seats; returns its id.

        With a ``quota``, the game is made only if it fits (else :class:`QuotaError`, and
        nothing is stored), counted in the same transaction as it is added, which holds the
        database's write lock from before the count to the commit: on PostgreSQL an advisory
        lock (:data:`CREATE_LOCK`), taken first; on SQLite the insert itself, made before the
        count. So no two new games, in one process or many, are both counted without the
        other, and the cap is exact."""
        gid = secrets.token_hex(8)
        now = dt.datetime.now(dt.UTC)
        with Session(self.engine) as s, s.begin():
            if quota is not None and s.get_bind().dialect.name == "postgresql":
                s.execute(select(func.pg_advisory_xact_lock(CREATE_LOCK)))
            s.add(
                GameRow(
                    id=gid,
                    game_id=game_id,
                    players=players,
                    seed=seed,
                    options=options,
                    created=now,
                    status=status,
                    host_hash=host_hash,
                    invite_hash=invite_hash,
                    listed=listed,
                    turn_timer=turn_timer,
                    hints=hints,
                    updated=now,
                    # (no client: a game no request made, counted by nobody)
                    maker=None if quota is None else quota.client or None,
                    maker_net=None if quota is None else quota.network or None,
                )
            )
            s.flush()
            if quota is not None:
                fit(s.connection(), quota, gid, now)
            for st in seats:
                s.add(
                    SeatRow(
                        game=gid,
                        seat=st.seat,
                        kind=st.kind,
                        name=st.name,
                        bot=st.bot,
                        token_hash=st.token_hash,
                        ask=st.ask,
                        stand_in=st.stand_in,
                        chat=st.chat,
                        stand_in_at=st.stand_in_at,
                        stand_in_idle=st.stand_in_idle,
                    )
                )
        return gid

    def append_action(self, game: str, index: int, text: str, status: str = ACTIVE) -> None:
        """Store action number ``index`` of ``game`` (and its new status) in one transaction.

        Raises ``sqlalchemy.exc.IntegrityError`` if that index is already stored.
        """
        self.append_actions([ActionWrite(game, index, text, status)])

    def append_actions(self, writes: Sequence[ActionWrite]) -> None:
        """Store several actions (of one or many games) and new statuses in one transaction.

        All or nothing: one commit, so one fsync on SQLite however many games it serves. Raises
        ``sqlalchemy.exc.IntegrityError`` if any index is already stored (and stores none).
        """
        if not writes:
            return
        rows = [{"game": w.game, "index": w.index, "text": w.text} for w in writes]
        by_status: dict[str, list[str]] = {}
        for w in writes:
            if w.status != ACTIVE:
                by_status.setdefault(w.status, []).append(w.game)
        now = dt.datetime.now(dt.UTC)
        with self.engine.begin() as c:
            c.execute(_INSERT_ACTIONS, rows)
            for status, games in by_status.items():
                c.execute(_SET_STATUS, {"games": games, "new_status": status})
            c.execute(_TOUCH, {"games": sorted({w.game for w in writes}), "now": now})

    def set_status(self, game: str, status: str) -> None:
        """Set a game's status (the host started or cancelled it)."""
        now = dt.datetime.now(dt.UTC)
        values: dict[str, Any] = {"status": status, "updated": now}
        if status in DONE:  # who made it matters only while it waits or is in play
            values.update(maker=None, maker_net=None)
        with self.engine.begin() as c:
            c.execute(update(GameRow).where(GameRow.id == game).values(**values))

    def set_seat(self, game: str, seat: StoredSeat) -> None:
        """Store who sits in ``seat.seat`` now (an invited person joined, a bot took an open
        seat, the host handed a seat to a bot or back, gave it a new token): a change of the
        game, so its ``updated`` too."""
        with self.engine.begin() as c:
            c.execute(
                update(GameRow).where(GameRow.id == game).values(updated=dt.datetime.now(dt.UTC))
            )
            c.execute(
                update(SeatRow)
                .where(SeatRow.game == game, SeatRow.seat == seat.seat)
                .values(
                    kind=seat.kind,
                    name=seat.name,
                    bot=seat.bot,
                    token_hash=seat.token_hash,
                    ask=seat.ask,
                    stand_in=seat.stand_in,
                    chat=seat.chat,
                    stand_in_at=seat.stand_in_at,
                    stand_in_idle=seat.stand_in_idle,
                )
            )

    def set_rematch(self, game: str, rematch: str) -> str:
        """Record ``rematch`` as the rematch of ``game`` unless one is recorded already;
        returns the one recorded."""
        with self.engine.begin() as c:
            c.execute(
                update(GameRow)
                .where(GameRow.id == game, GameRow.rematch.is_(None))
                .values(rematch=rematch)
            )
            stored = c.execute(select(GameRow.rematch).where(GameRow.id == game)).scalar_one()
        return str(stored)

    def set_ask(self, game: str, seat: int, ask: dict[str, Any] | None) -> None:
        """Store when the person in ``seat`` of ``game`` wants to be asked."""
        with self.engine.begin() as c:
            c.execute(
                update(SeatRow).where(SeatRow.game == game, SeatRow.seat == seat).values(ask=ask)
            )

    def actions(self, game: str) -> list[str]:
        """The stored actions of ``game`` in order."""
        with Session(self.engine) as s:
            rows = s.execute(
                select(ActionRow.index, ActionRow.text)
                .where(ActionRow.game == game)
                .order_by(ActionRow.index)
            ).all()
        return [t for _, t in rows]

    def _load(self, s: Session, row: GameRow) -> StoredGame:
        seats = s.scalars(select(SeatRow).where(SeatRow.game == row.id).order_by(SeatRow.seat))
        actions = s.execute(
            select(ActionRow.text).where(ActionRow.game == row.id).order_by(ActionRow.index)
        ).scalars()
        return StoredGame(
            id=row.id,
            game_id=row.game_id,
            players=row.players,
            seed=row.seed,
            options=stored_options(dict(row.options or {})),
            status=row.status,
            created=row.created,
            seats=[
                StoredSeat(
                    x.seat,
                    x.kind,
                    x.name,
                    x.bot,
                    x.token_hash,
                    x.ask,
                    bool(x.stand_in),
                    x.chat,
                    x.stand_in_at,
                    bool(x.stand_in_idle),
                )
                for x in seats
            ],
            actions=list(actions),
            rematch=row.rematch,
            host_hash=row.host_hash,
            invite_hash=row.invite_hash,
            listed=row.listed is not False,
            turn_timer=row.turn_timer,
            hints=row.hints is not False,
        )

    def load_game(self, game: str) -> StoredGame | None:
        """The stored game ``game`` with its seats and actions, or ``None``."""
        with Session(self.engine) as s:
            row = s.get(GameRow, game)
            return None if row is None else self._load(s, row)

    def load_unfinished(self) -> list[StoredGame]:
        """Every game being played or waiting to start, oldest first, with seats and actions."""
        with Session(self.engine) as s:
            rows = s.scalars(
                select(GameRow)
                .where(GameRow.status.in_([ACTIVE, WAITING]))
                .order_by(GameRow.created)
            ).all()
            return [self._load(s, r) for r in rows]
