"""The tables of the games database and the statuses stored in them.

``games`` holds what determines a game besides its actions (game id, players,
seed, options) and its status; ``seats`` holds who sits where, with a SHA-256 of each seat's
token (never the token itself); ``actions`` holds every accepted action as text, numbered from 0,
with a unique ``(game, index)`` so an action can never be stored twice. ``chat`` holds what
people said at the table, and ``leases`` which server process owns a game in play
(:mod:`meeple.server.store.leases`).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    and_,
    func,
    or_,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

WAITING = "waiting"  # seats still open: the host starts the game
ACTIVE = "active"
FINISHED = "finished"
CANCELLED = "cancelled"  # the host cancelled it: kept as a record, never played on
EXPIRED = "expired"  # nobody played it for longer than the server keeps games waiting
STATUSES = (WAITING, ACTIVE, FINISHED, CANCELLED, EXPIRED)
DONE = (FINISHED, CANCELLED, EXPIRED)
"""The statuses of a game that is over: only these are ever purged."""

MUTED = "muted"  # the host muted a person: their chat messages are refused
REMOVED = "removed"  # ... and those they sent are hidden from everyone
CHAT_STANDING = (MUTED, REMOVED)


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game_id: Mapped[str] = mapped_column(String(64))
    players: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    status: Mapped[str] = mapped_column(String(16), index=True)
    # Added after the first version (nullable, so older databases gain them in place): the
    # host's key and the invite code, as SHA-256 hashes; whether the lobby lists the game
    # (NULL, as in older games: listed).
    host_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, default=None)
    invite_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, default=None)
    listed: Mapped[bool | None] = mapped_column(Boolean, nullable=True, default=None)
    # Seconds a person may take over a decision before a bot stands in (NULL: no timer).
    turn_timer: Mapped[float | None] = mapped_column(Float, nullable=True, default=None)
    # Whether people may ask the advisor for hints (NULL, as in older games: they may).
    hints: Mapped[bool | None] = mapped_column(Boolean, nullable=True, default=None)
    # When the game last changed (made, an action, started, cancelled); NULL in older games,
    # which count from ``created``.
    updated: Mapped[dt.datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True, default=None, index=True
    )
    # The game started as this one's rematch (same seats, a new seed), once it is over.
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True, default=None)
    # Who made it, as the limits count (meeple.server.limits.Client): the client's address or
    # /64 and its network; kept only while the game waits or is in play (NULL after, and in
    # older games).
    maker: Mapped[str | None] = mapped_column(String(64), nullable=True, default=None, index=True)
    maker_net: Mapped[str | None] = mapped_column(
        String(64), nullable=True, default=None, index=True
    )


class SeatRow(Base):
    __tablename__ = "seats"

    game: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))  # "human" or "bot"
    name: Mapped[str] = mapped_column(String(64))
    bot: Mapped[str] = mapped_column(String(64), default="")
    token_hash: Mapped[str] = mapped_column(String(64))
    # When a person wants to be asked (meeple.kernel.asking.AskSettings as JSON); NULL: always.
    ask: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True, default=None)
    # The host handed this person's seat to the standard bot until they are back.
    stand_in: Mapped[bool | None] = mapped_column(Boolean, nullable=True, default=None)
    # The host's word on the person's chat: MUTED (their messages refused) or REMOVED (refused,
    # and those they sent hidden from everyone); NULL: they may chat.
    chat: Mapped[str | None] = mapped_column(String(16), nullable=True, default=None)
    # The position (actions played) at which that stand-in began: it is seeded from it and
    # replayed on resume through its own decisions only (NULL: no stand-in, or one stored
    # before this column was added, taken as begun at the start).
    stand_in_at: Mapped[int | None] = mapped_column(Integer, nullable=True, default=None)
    # That stand-in came by a timer or a hand-over while the person was away, and goes when
    # one of their pages opens again (NULL or false: only their "take my seat back").
    stand_in_idle: Mapped[bool | None] = mapped_column(Boolean, nullable=True, default=None)


class ActionRow(Base):
    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("game", "index", name="uq_actions_game_index"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game: Mapped[str] = mapped_column(String(32), ForeignKey("games.id", ondelete="CASCADE"))
    index: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)


class ChatRow(Base):
    """A message of a game's chat (people only; shown to everyone who watches the game)."""

    __tablename__ = "chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), index=True
    )
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(Text)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class LeaseRow(Base):
    """Which server process owns a live game now, and until when (more than one process).

    A game in play is held in memory by one process at a time: the one whose lease has not
    expired. The owner renews its leases every few seconds; when it stops (or dies), the lease
    runs out and the next process asked for the game takes it over by replaying the stored
    actions. ``expires`` is wall-clock seconds since the epoch, so the processes' clocks must
    agree to well within a lease (as NTP keeps them).
    """

    __tablename__ = "leases"

    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    owner: Mapped[str] = mapped_column(String(64), index=True)
    expires: Mapped[float] = mapped_column(Float)


def last_change() -> Any:
    """When a game last changed: ``updated``, else (older games) ``created``."""
    return func.coalesce(GameRow.updated, GameRow.created)


def live_games(waiting_since: dt.datetime | None) -> Any:
    """The games that count as waiting or in play: in play, or waiting and changed since
    ``waiting_since`` (a game waiting longer is as good as expired)."""
    if waiting_since is None:
        return GameRow.status.in_([WAITING, ACTIVE])
    return or_(
        GameRow.status == ACTIVE, and_(GameRow.status == WAITING, last_change() >= waiting_since)
    )
