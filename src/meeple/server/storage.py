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

import datetime as dt
import hashlib
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
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
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    inspect,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from meeple.kernel.family import stored_options

DEFAULT_DATABASE_URL = "sqlite:///meeple.sqlite"

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

LOBBY_PER_CLIENT = 2
"""The most games of one client (its address or /64) in the lobby's list, their newest."""
LOBBY_PER_NETWORK = 4
"""The most games of one network (a /24 or /48) in the lobby's list, their newest."""

CREATE_LOCK = 0x6D65_6570_6C65
"""The PostgreSQL advisory lock every quota-checked new game takes for its transaction, so that
counting the games and adding one is one step across processes (``Storage.create_game``)."""


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


def normalise_url(url: str) -> str:
    """``url`` with PostgreSQL URLs sent to psycopg 3 (the driver meeple installs)."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL: one fsync per commit instead of several; synchronous=FULL keeps every commit durable
    # (a power cut too, not just a killed process); foreign keys are off in SQLite by default.
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


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


def _last() -> Any:
    return func.coalesce(GameRow.updated, GameRow.created)


def _live(waiting_since: dt.datetime | None) -> Any:
    """The games that count as waiting or in play: in play, or waiting and changed since
    ``waiting_since`` (a game waiting longer is as good as expired)."""
    if waiting_since is None:
        return GameRow.status.in_([WAITING, ACTIVE])
    return or_(GameRow.status == ACTIVE, and_(GameRow.status == WAITING, _last() >= waiting_since))


class Storage:
    """The games database at ``url``; ``schema`` puts the tables in a PostgreSQL schema."""

    def __init__(self, url: str = DEFAULT_DATABASE_URL, schema: str | None = None) -> None:
        url = normalise_url(url)
        self.url = url
        self.schema = schema
        kwargs: dict[str, Any] = {}
        sqlite = url.startswith("sqlite")
        if sqlite:
            kwargs["connect_args"] = {"timeout": 30}
        engine = create_engine(url, **kwargs)
        if sqlite:
            event.listen(engine, "connect", _sqlite_pragmas)
        if schema is not None:
            engine = engine.execution_options(schema_translate_map={None: schema})
        self.engine: Engine = engine

    def create_tables(self) -> None:
        """Create missing tables, and add the columns later versions added to older ones."""
        Base.metadata.create_all(self.engine)
        self._add_missing_columns()
        with self.engine.begin() as c:  # and the indexes of the columns added
            for table in Base.metadata.sorted_tables:
                for index in table.indexes:
                    index.create(c, checkfirst=True)

    def _add_missing_columns(self) -> None:
        # A database made by an earlier meeple lacks the columns added since. Each is nullable,
        # so adding it keeps every stored game as it was (a full migration tool would be more
        # than these additive changes need).
        with self.engine.begin() as c:
            quote = c.dialect.identifier_preparer.quote
            for table in Base.metadata.sorted_tables:
                have = {col["name"] for col in inspect(c).get_columns(table.name, self.schema)}
                where = quote(table.name)
                if self.schema is not None:
                    where = f"{quote(self.schema)}.{where}"
                for col in table.columns:
                    if col.name not in have and col.nullable:
                        kind = col.type.compile(dialect=c.dialect)
                        c.execute(text(f"ALTER TABLE {where} ADD COLUMN {quote(col.name)} {kind}"))

    def drop_tables(self) -> None:
        Base.metadata.drop_all(self.engine)

    def close(self) -> None:
        self.engine.dispose()

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
                self._fit(s.connection(), quota, gid, now)
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

    def _fit(self, c: Connection, quota: Quota, gid: str, now: dt.datetime) -> None:
        """Make the new game ``gid`` (added, not committed) fit in ``quota``, expiring idle
        games to make room, or raise :class:`QuotaError`.

        Over one of its maker's shares, the maker's own least recently changed idle game of
        that kind (waiting, or any) makes room: someone who left games behind can always make
        a new one, and a flood of fresh games stops at the share. Over the cap on games, the
        busiest network's makes room (:meth:`_busiest`)."""
        live = _live(quota.waiting_since)
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
            victim = self._idle_game(c, quota, and_(whose, GameRow.id != gid), now)
            if victim is None:
                what = "waiting to start" if limit.startswith("waiting") else "waiting or in play"
                raise QuotaError(
                    limit,
                    f"{who} has {most} games {what}, the most it may, all of them played or "
                    "joined lately: finish, start or cancel one (a game left alone makes room "
                    "for a new one after a while)",
                )
            self._expire_for(c, victim, quota, now)
        if quota.live is None:
            return
        total = c.scalar(select(func.count()).where(live)) or 0
        if total <= quota.live:
            return
        ours_now = c.scalar(select(func.count()).where(live, ours)) or 0
        victim = self._busiest(c, quota, int(ours_now), now)
        if victim is None:
            raise QuotaError(
                "live_games", f"the server has {quota.live} games waiting or in play, its most"
            )
        self._expire_for(c, victim, quota, now)

    def _expire_for(self, c: Connection, victim: str, quota: Quota, now: dt.datetime) -> None:
        c.execute(
            update(GameRow)
            .where(GameRow.id == victim)
            .values(status=EXPIRED, maker=None, maker_net=None, updated=now)
        )
        quota.evicted.append(victim)

    def _idle_game(self, c: Connection, quota: Quota, where: Any, now: dt.datetime) -> str | None:
        """The least recently changed game waiting or in play ``where`` holds, unchanged since
        ``quota.idle_since`` and held by no server process (a game loaded somewhere is left
        alone: that process would go on playing it); ``None`` if there is none."""
        held = select(LeaseRow.game).where(LeaseRow.expires >= now.timestamp())
        q = select(GameRow.id).where(_live(quota.waiting_since), where, GameRow.id.not_in(held))
        if quota.idle_since is not None:
            q = q.where(_last() < quota.idle_since)
        found = c.scalar(q.order_by(_last(), GameRow.id).limit(1))
        return None if found is None else str(found)

    def _busiest(self, c: Connection, quota: Quota, ours: int, now: dt.datetime) -> str | None:
        """The game to expire so that a game of ``quota.network`` (which holds ``ours`` now,
        the new one included) fits under the cap: an idle one (:meth:`_idle_game`) of the
        network that made the most games waiting or in play, if it made more than ``ours``;
        ``None`` if there is none."""
        n = func.count().label("n")
        top = c.execute(
            select(GameRow.maker_net, n)
            .where(_live(quota.waiting_since), GameRow.maker_net.is_not(None))
            .group_by(GameRow.maker_net)
            .order_by(n.desc())
            .limit(1)
        ).first()
        if top is None or top[0] == quota.network or int(top[1]) <= ours:
            return None
        return self._idle_game(c, quota, GameRow.maker_net == top[0], now)

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

    def set_status(self, game: str, status: str) -> None:
        """Set a game's status (the host started or cancelled it)."""
        now = dt.datetime.now(dt.UTC)
        values: dict[str, Any] = {"status": status, "updated": now}
        if status in DONE:  # who made it matters only while it waits or is in play
            values.update(maker=None, maker_net=None)
        with self.engine.begin() as c:
            c.execute(update(GameRow).where(GameRow.id == game).values(**values))

    def count_live(self, waiting_since: dt.datetime | None = None) -> int:
        """How many games are waiting or in play (those waiting unchanged since
        ``waiting_since`` left out)."""
        with Session(self.engine) as s:
            return int(s.scalar(select(func.count()).where(_live(waiting_since))) or 0)

    def expire_idle(
        self, before: dt.datetime | None, waiting_before: dt.datetime | None = None
    ) -> list[str]:
        """Mark every game waiting or in play that has not changed since ``before``, and every
        game waiting that has not changed since ``waiting_before``, as expired; returns their
        ids. ``None``: no such bound."""
        stale = []
        if before is not None:
            stale.append(and_(GameRow.status.in_([WAITING, ACTIVE]), _last() < before))
        if waiting_before is not None:
            stale.append(and_(GameRow.status == WAITING, _last() < waiting_before))
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

    def add_chat(self, game: str, seat: int, name: str, text: str) -> dict[str, Any]:
        """Store a chat message; returns it as the API shows it."""
        now = dt.datetime.now(dt.UTC)
        with Session(self.engine) as s, s.begin():
            row = ChatRow(game=game, seat=seat, name=name, text=text, created=now)
            s.add(row)
            s.flush()
            return _chat(row)

    def chat(self, game: str, after: int = 0, limit: int = 100) -> list[dict[str, Any]]:
        """The game's chat messages with an id above ``after``, oldest first (``limit`` at
        most); ``after=-1``: the newest ``limit``. Those of a person the host removed from the
        chat are left out (kept, and shown again if the host lets them back)."""
        removed = select(SeatRow.seat).where(SeatRow.game == game, SeatRow.chat == REMOVED)
        with Session(self.engine) as s:
            q = select(ChatRow).where(ChatRow.game == game, ChatRow.seat.not_in(removed))
            if after < 0:
                rows = list(s.scalars(q.order_by(ChatRow.id.desc()).limit(limit)))[::-1]
            else:
                rows = list(
                    s.scalars(q.where(ChatRow.id > after).order_by(ChatRow.id).limit(limit))
                )
            return [_chat(r) for r in rows]

    def chat_count(self, game: str) -> int:
        with Session(self.engine) as s:
            return int(s.scalar(select(func.count()).where(ChatRow.game == game)) or 0)

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
            q = q.where(or_(GameRow.status != WAITING, _last() >= waiting_since))
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


def _chat(row: ChatRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "seat": row.seat,
        "name": row.name,
        "text": row.text,
        "at": row.created.isoformat(),
    }
