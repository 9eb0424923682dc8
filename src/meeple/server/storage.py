"""Durable storage of server games (SQLAlchemy 2.0: SQLite by default, PostgreSQL by URL).

``games`` holds what determines a game besides its actions (game id, players,
seed, options) and its status; ``seats`` holds who sits where, with a SHA-256 of each seat's
token (never the token itself); ``actions`` holds every accepted action as text, numbered from 0,
with a unique ``(game, index)`` so an action can never be stored twice. A game is rebuilt by
replaying its actions (:func:`meeple.kernel.saves.replay`), so nothing else needs storing.
``chat`` holds what people said at the table, and ``leases`` which server process owns a game in
play when more than one process serves the database (:mod:`meeple.server.cluster`); the unique
action index is also what keeps a process that lost its lease from writing over its successor.

Every function runs in its own transaction and is synchronous; the hub calls them from worker
threads so the event loop never waits on the database, and makes every write (new games and
actions) from one thread, so writers never wait on each other's locks.
:meth:`Storage.append_actions` stores the actions of many games in one transaction: the hub's
group commit.
"""

from __future__ import annotations

from meeple.server.store.chat import ChatStore
from meeple.server.store.database import DEFAULT_DATABASE_URL, Database, normalise_url
from meeple.server.store.games import (
    ActionWrite,
    GameStore,
    StoredGame,
    StoredSeat,
    hash_token,
    new_token,
)
from meeple.server.store.leases import LeaseStore
from meeple.server.store.listings import LOBBY_PER_CLIENT, LOBBY_PER_NETWORK, Listings
from meeple.server.store.quotas import CREATE_LOCK, Quota, QuotaError
from meeple.server.store.rows import (
    ACTIVE,
    CANCELLED,
    CHAT_STANDING,
    DONE,
    EXPIRED,
    FINISHED,
    MUTED,
    REMOVED,
    STATUSES,
    WAITING,
    ActionRow,
    Base,
    ChatRow,
    GameRow,
    LeaseRow,
    SeatRow,
)
from meeple.server.store.sweeps import Sweeps

__all__ = [
    "ACTIVE",
    "CANCELLED",
    "CHAT_STANDING",
    "CREATE_LOCK",
    "DEFAULT_DATABASE_URL",
    "DONE",
    "EXPIRED",
    "FINISHED",
    "LOBBY_PER_CLIENT",
    "LOBBY_PER_NETWORK",
    "MUTED",
    "REMOVED",
    "STATUSES",
    "WAITING",
    "ActionRow",
    "ActionWrite",
    "Base",
    "ChatRow",
    "Database",
    "GameRow",
    "LeaseRow",
    "Quota",
    "QuotaError",
    "SeatRow",
    "Storage",
    "StoredGame",
    "StoredSeat",
    "hash_token",
    "new_token",
    "normalise_url",
]


class Storage(GameStore, Listings, Sweeps, ChatStore, LeaseStore):
    """The games database at ``url``; ``schema`` puts the tables in a PostgreSQL schema.

    Every job's store over one engine (:class:`meeple.server.store.database.Database`, the
    base they share): the hub, the cluster, the routes and the tests call ``storage.x()`` for
    every job, and one connection pool serves them all, so the jobs are mixed into one object
    here rather than held as parts each caller would have to name."""
