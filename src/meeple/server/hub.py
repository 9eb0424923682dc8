"""The live games of a server: each rebuilt from storage, changed only through :meth:`Hub.act`.

Every change follows one order, under the game's lock: apply the action to a copy of the state,
commit it to the database, then make the copy the live state and tell the subscribers
(:mod:`meeple.server.moves`). A client is never told of an action the database does not hold,
and an action the database refused never shows. ``state_id`` is the number of actions applied,
so it names a position exactly.

Commits are grouped (:class:`meeple.server.writer.Writer`): the actions of every game that
arrive while a commit is under way are committed together in the next transaction, each game
waiting for the commit that holds its action. One fsync then serves many games, and only one
thread ever writes.

The :class:`Hub` holds the games in memory, loads them, runs their tables and lets them go; its
other jobs are small objects it holds, each in a module named after its job, sharing the hub's
games, writer and storage through it (composition: they are the hub's parts, not games'):
:mod:`~meeple.server.quotas` (what a client may make and open), :mod:`~meeple.server.making`
(new games, joining, starting, cancelling), :mod:`~meeple.server.moves` (actions and their
commits), :mod:`~meeple.server.pacing` (the table's paced moves),
:mod:`~meeple.server.presence` (sockets, and the bot standing in),
:mod:`~meeple.server.rematch` (rematches and tokens), :mod:`~meeple.server.chat` and
:mod:`~meeple.server.hints`. A live game itself, and what it sends its sockets, is
:mod:`meeple.server.live`. The hub's public methods stay here, each handing the request to its
job, so that the app, the operator's routes and the cluster call the hub alone.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import datetime as dt
import functools
import gc
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from meeple.kernel.asking import AskSettings
from meeple.kernel.errors import MeepleError
from meeple.kernel.protocol import Action
from meeple.server.chat import CHAT_BURST, CHAT_MAX_CHARS, CHAT_MAX_MESSAGES, Chat
from meeple.server.errors import HubError
from meeple.server.hints import Hints
from meeple.server.limits import Client, Limits
from meeple.server.live import QUEUE_LIMIT, WATCH_SECONDS, LiveGame, Subscriber, end_queue
from meeple.server.making import Created, Making
from meeple.server.moves import Moves
from meeple.server.opening import POSITION_OPTIONS, game_rules, opening
from meeple.server.pacing import TURN_BEAT, Pacing, pause_before
from meeple.server.presence import Presence
from meeple.server.quotas import Quotas
from meeple.server.rematch import Rematches
from meeple.server.replay import event_log, move_at, rebuild
from meeple.server.seats import (
    AWAY_TIMER,
    HANDOVER_AFTER,
    STAND_IN,
    Seat,
    check_name,
    stand_in_bot,
)
from meeple.server.storage import ACTIVE, EXPIRED, WAITING, Quota, Storage
from meeple.server.table import run_table
from meeple.server.writer import Writer

__all__ = [
    "AWAY_TIMER",
    "CHAT_BURST",
    "CHAT_MAX_CHARS",
    "CHAT_MAX_MESSAGES",
    "GC_THRESHOLDS",
    "HANDOVER_AFTER",
    "POSITION_OPTIONS",
    "QUEUE_LIMIT",
    "STAND_IN",
    "TURN_BEAT",
    "WATCH_SECONDS",
    "Created",
    "Hub",
    "HubError",
    "Lifecycle",
    "LiveGame",
    "Ownership",
    "Seat",
    "Subscriber",
    "Writer",
    "check_name",
    "end_queue",
    "event_log",
    "game_rules",
    "move_at",
    "opening",
    "pause_before",
    "rebuild",
    "stand_in_bot",
]

log = logging.getLogger("meeple.server")

GC_THRESHOLDS = (50_000, 20, 100)
"""The cyclic garbage collector's thresholds while a hub runs (Python's defaults: 700, 10, 10).

A busy server holds a few hundred thousand long-lived objects (each WebSocket keeps a chain of
about 25 coroutines; each game its state and history) and makes many short-lived ones (every
update's views, every request's frames). With the defaults, objects still in flight at a
young collection (a view queued for sending, a request waiting for its commit) were promoted to
the oldest generation, and the full collections that this triggers ran about once a second at
200 games, each pausing the event loop for 100-250 ms to find nothing. With a young generation
of 50,000 such objects die before any collection sees them: no full collection happened in 150 s
at 200 games, the longest pause was under 60 ms, and the server spent about 20% less CPU per
action. Reference counting still frees almost everything at once; only cycles wait longer.
"""

T = TypeVar("T")


@dataclass(frozen=True)
class Lifecycle:
    """How long games are kept (docs/SERVER.md, "Operating"), in seconds.

    ``expire_after``: a game waiting or in play that nobody moved for this long expires
    (``None``: never); ``waiting_expire_after``: a game waiting to start that nobody joined for
    this long expires (``None``: as any other); ``evict_after``: a game unchanged for this long
    may be expired to make room for a new one, its maker's at their share of games and the
    busiest network's at the cap (``Storage.create_game``); ``purge_after``: finished,
    cancelled and expired games are deleted this long after their last change (``None``: kept
    as records for replays);
    ``unload_after``: a loaded game nobody asked for this long is let go from memory (it loads
    again on demand); ``sweep_every``: how often the server looks (0: never, for tests);
    ``max_bot_games``: how many all-bot games play at once (others wait for a slot).
    """

    expire_after: float | None = 7 * 24 * 3600.0
    waiting_expire_after: float | None = 3600.0
    evict_after: float = 600.0
    purge_after: float | None = None
    unload_after: float = 600.0
    sweep_every: float = 300.0
    max_bot_games: int = 20


class Ownership:
    """Which games this process may hold in memory: all of them, when it is the only one.

    :class:`meeple.server.cluster.Cluster` overrides both methods, so that processes sharing
    a database hold each game in play in one process at a time (a lease in the database).
    """

    async def claim(self, gid: str) -> bool:
        """Whether this process holds ``gid`` now, taking it if nobody does (404 for a game
        that does not exist)."""
        return True

    async def adopt(self, gid: str) -> bool:
        """Whether this process holds ``gid``, a game it has just made (nobody else can hold
        it yet), or leaves it to the process first asked about it."""
        return True

    def released(self, gid: str) -> None:
        """The hub let go of ``gid`` (unloaded it): another process may take it."""


class Hub:
    """The live games of one server, over one :class:`Storage`: loaded on demand, their tables
    run and stopped, let go when idle; each request handed to the job that serves it."""

    def __init__(
        self,
        storage: Storage,
        bot_pace: float = 0.5,
        lifecycle: Lifecycle | None = None,
        limits: Limits | None = None,
        away_timer: float | None = AWAY_TIMER,
    ) -> None:
        self.storage = storage
        self.writer = Writer(storage)
        self.bot_pace = bot_pace
        # Every game's away timer (meeple serve --away-timer; None: off).
        self.away_timer = away_timer
        self.lifecycle = lifecycle or Lifecycle()
        self.limits = limits or Limits()
        self.limit_hits: collections.Counter[str] = collections.Counter()  # for operators
        self.games: dict[str, LiveGame] = {}
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.side_tasks: set[asyncio.Task[None]] = set()  # kept so they are not collected
        self.bot_games: set[str] = set()  # all-bot games playing now (at most max_bot_games)
        self.sweeper: asyncio.Task[None] | None = None
        self.gc_before: tuple[int, int, int] | None = None
        self.ownership = Ownership()
        # The hub's jobs (each module's docstring says what it does).
        self.quotas = Quotas(self)
        self.making = Making(self)
        self.moves = Moves(self)
        self.pacing = Pacing(self)
        self.presence = Presence(self)
        self.rematches = Rematches(self)
        self.talk = Chat(self)
        self.hints = Hints(self)

    # -- the games in memory ----------------------------------------------------------------

    def expired(self, gid: str) -> None:
        """Game ``gid`` expired in the database: so it is here, if loaded."""
        live = self.games.get(gid)
        if live is not None and live.status in (WAITING, ACTIVE):
            live.stage = EXPIRED
            self._stop_table(live)
            live.broadcast_seats()

    async def start(self) -> None:
        """Create the tables if needed. No game is loaded here: each is rebuilt when someone
        first asks for it (:meth:`get`), so start-up does not grow with the stored games."""
        if self.gc_before is None:
            self.gc_before = gc.get_threshold()
            gc.set_threshold(*GC_THRESHOLDS)
        await self.writer.run(self.storage.create_tables)
        if self.sweeper is None and self.lifecycle.sweep_every > 0:
            self.sweeper = asyncio.create_task(self._sweep_forever(), name="meeple-sweeper")

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.lifecycle.sweep_every)
            try:
                await self.sweep()
            except Exception:
                log.exception("sweeping games failed; trying again later")

    async def sweep(self) -> None:
        """Expire games nobody played for ``expire_after``, purge old records if asked, and
        let go of loaded games nobody has asked for lately (they load again on demand)."""
        life = self.lifecycle
        now = dt.datetime.now(dt.UTC)
        before = None
        if life.expire_after is not None:
            before = now - dt.timedelta(seconds=life.expire_after)
        for gid in await self.writer.run(
            self.storage.expire_idle, before, self.quotas.waiting_since(now)
        ):
            self.expired(gid)
            log.info("game %s expired", gid)
        if life.purge_after is not None:
            before = now - dt.timedelta(seconds=life.purge_after)
            gone = await self.writer.run(functools.partial(self.storage.purge_games, before=before))
            for gid in gone:
                self.drop(gid, moved=False)  # its record is gone: not served from memory either
            if gone:
                log.info("purged %d old games", len(gone))
        clock = asyncio.get_running_loop().time()
        for gid, live in list(self.games.items()):
            if live.subscribers or live.lock.locked() or clock - live.seen < life.unload_after:
                continue
            self._stop_table(live)
            del self.games[gid]
            self.ownership.released(gid)

    def drop(self, gid: str, moved: bool = True) -> None:
        """Let go of ``gid`` at once: another process owns it now (``moved``: its sockets are
        told to reconnect, and are served by the owner), or its record was purged. Its table
        stops and its sockets close."""
        live = self.games.pop(gid, None)
        if live is None:
            return
        self._stop_table(live)
        for sub in list(live.subscribers):
            sub.moved = moved
            end_queue(sub.queue)
        live.subscribers.clear()
        if moved:
            log.info("game %s: served by another process now", gid)
        else:
            self.ownership.released(gid)

    def _stop_table(self, live: LiveGame) -> None:
        task = self.tasks.pop(live.id, None)
        if task is not None:
            task.cancel()
        self.bot_games.discard(live.id)

    async def stop(self) -> None:
        if self.sweeper is not None:
            self.sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.sweeper
            self.sweeper = None
        tasks = list(self.tasks.values())
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        self.tasks.clear()
        await self.writer.close()
        for live in self.games.values():
            for sub in live.subscribers:
                end_queue(sub.queue)
        if self.gc_before is not None:
            gc.set_threshold(*self.gc_before)
            self.gc_before = None

    def _start_table(self, live: LiveGame) -> None:
        """Run the game's table (bots' moves and people's automatic moves) until it ends."""
        if live.status != ACTIVE or live.id in self.tasks:
            return
        task = asyncio.create_task(run_table(self, live), name=f"table-{live.id}")
        self.tasks[live.id] = task
        task.add_done_callback(lambda t: self.tasks.pop(live.id, None))

    async def get(self, gid: str) -> LiveGame:
        """The live game ``gid``, loaded from storage on first request (a game in play then
        resumes: its table starts); 404 otherwise. Asking counts as watching it."""
        live = self.games.get(gid)
        if live is None:
            if not await self.ownership.claim(gid):
                raise HubError(503, f"game {gid!r} is served by another process; try again")
            stored = await asyncio.to_thread(self.storage.load_game, gid)
            if stored is None:
                raise HubError(404, f"no game {gid!r}")
            try:
                loaded = await asyncio.to_thread(rebuild, stored)
            except (MeepleError, ValueError) as exc:
                raise HubError(404, f"game {gid!r} cannot be replayed: {exc}") from None
            loaded.away_timer = self.away_timer
            live = self.games.get(gid)
            if live is None:  # nobody loaded it meanwhile
                live = self.games[gid] = loaded
                if live.status == ACTIVE:
                    log.info("resumed game %s at action %d", gid, live.state_id)
                    self._start_table(live)
        was_watched = live.watched(asyncio.get_running_loop().time())
        live.seen = asyncio.get_running_loop().time()
        if not was_watched:
            live.changed.set()  # a paused all-bot game plays again
        return live

    async def stand_in(self, live: LiveGame, token: str, seat: int, on: bool) -> None:
        """Hand a person's seat to the standard bot (``on``) or back. The host may do it for
        any person's seat; a person for their own; another person at the table for a seat
        whose person has been away :data:`HANDOVER_AFTER` seconds (given back by itself when
        they return, as after their turn timer)."""
        if not 0 <= seat < len(live.seats) or live.seats[seat].kind != "human":
            raise HubError(422, f"seat {seat + 1} is not a person's seat")
        other = not live.is_host(token) and live.seat_of(token) != seat
        if other and not on:
            raise HubError(403, "only the host or the seat's own player may take it back")
        async with live.lock:
            if live.status not in (WAITING, ACTIVE):
                raise HubError(409, f"the game is {live.status}")
            person = live.seats[seat]
            if other and person.stand_in:
                return  # a bot plays it already (and comes back as it was handed over)
            if other:
                if person.sockets > 0:
                    raise HubError(
                        409,
                        f"{person.name} is here: only they or the host may hand their seat "
                        "to a bot",
                    )
                away = time.monotonic() - person.away_since
                if away < HANDOVER_AFTER:
                    raise HubError(
                        409,
                        f"{person.name} has been away {away:.0f} s: a bot may play for them "
                        f"once they are away {HANDOVER_AFTER:.0f} s",
                    )
            if not on:
                person.back_at = time.monotonic()  # the turn timer starts afresh
            await self.presence.hand_over(live, seat, on, idle=other)
            if other and on:
                log.info("game %s: seat %d away; a player handed it to the bot", live.id, seat)

    async def set_ask(self, live: LiveGame, seat: int, ask: AskSettings | None) -> None:
        """Store when the person in ``seat`` wants to be asked, and apply it at once."""
        person = live.seats[seat]
        if person.kind != "human":
            raise HubError(422, "only a person's seat has ask settings")
        await self.writer.run(
            self.storage.set_ask, live.id, seat, None if ask is None else ask.to_dict()
        )
        person.ask = ask
        live.notify_seat(seat)
        live.changed.set()

    def set_proxy(self, live: LiveGame, seat: int, limit: int | None) -> None:
        """Bid for ``seat`` up to ``limit`` in the open auction (``None``: stop)."""
        if limit is not None:
            if live.status != ACTIVE or not live.state.auction_bid(seat, limit)[0]:
                raise HubError(422, "no auction is open that you are still bidding in")
            if limit < 0:
                raise HubError(422, "a bid limit cannot be negative")
        person = live.seats[seat]
        person.proxy = limit
        live.notify_seat(seat)
        live.changed.set()

    def hold(self, live: LiveGame, seat: int, held: bool) -> None:
        """Hold the table for ``seat`` (ask it at its next decision whatever its settings), or
        let its settings apply again."""
        person = live.seats[seat]
        if person.held != held:
            person.held = held
            live.notify_seat(seat)
            live.changed.set()

    # -- what a client may make and open (meeple.server.quotas) -----------------------------

    def check_new_game(self, client: Client) -> None:
        self.quotas.check_new_game(client)

    def quota(self, client: Client | None) -> Quota:
        return self.quotas.quota(client)

    async def lobby(self, status: str | None) -> list[dict[str, Any]]:
        return await self.quotas.lobby(status)

    def enter_socket(self, gid: str, client: str) -> str:
        return self.quotas.enter_socket(gid, client)

    def leave_socket(self, gid: str, client: str) -> None:
        self.quotas.leave_socket(gid, client)

    # -- making games (meeple.server.making) ------------------------------------------------

    async def create(
        self,
        game: str,
        seats: list[dict[str, Any]],
        seed: int | None,
        listed: bool = True,
        turn_timer: float | None = None,
        position: dict[str, Any] | None = None,
        rules: dict[str, Any] | None = None,
        hints: bool = True,
        client: Client | None = None,
    ) -> Created:
        return await self.making.create(
            game, seats, seed, listed, turn_timer, position, rules, hints, client
        )

    async def join(self, live: LiveGame, code: str, seat: int, name: str) -> str:
        return await self.making.join(live, code, seat, name)

    async def start_game(self, live: LiveGame, host: str) -> None:
        await self.making.start_game(live, host)

    async def cancel(self, live: LiveGame, host: str) -> None:
        await self.making.cancel(live, host)

    async def operator_cancel(self, live: LiveGame) -> None:
        await self.making.operator_cancel(live)

    # -- moves (meeple.server.moves, meeple.server.pacing) ----------------------------------

    async def act(self, live: LiveGame, seat: int, state_id: int | None, text: str) -> list[str]:
        return await self.moves.act(live, seat, state_id, text)

    async def act_answer(
        self, live: LiveGame, seat: int, state_id: int | None, text: str
    ) -> dict[str, Any]:
        return await self.moves.act_answer(live, seat, state_id, text)

    async def log_of(self, live: LiveGame) -> list[list[str]]:
        return await self.moves.log_of(live)

    async def auto_play(
        self, live: LiveGame, seat: int, state_id: int, action: Action, pace: float = 0.0
    ) -> bool:
        return await self.pacing.auto_play(live, seat, state_id, action, pace)

    async def bot_move(self, live: LiveGame, seat: int, pace: float = 0.0) -> bool:
        return await self.pacing.bot_move(live, seat, pace)

    # -- presence (meeple.server.presence) --------------------------------------------------

    def subscribe(
        self, live: LiveGame, seat: int | None, sub: Subscriber | None = None
    ) -> Subscriber:
        return self.presence.subscribe(live, seat, sub)

    def unsubscribe(self, live: LiveGame, sub: Subscriber) -> None:
        self.presence.unsubscribe(live, sub)

    async def time_out(self, live: LiveGame, seat: int, state_id: int) -> bool:
        return await self.presence.time_out(live, seat, state_id)

    async def welcome_back(self, live: LiveGame, seat: int) -> None:
        await self.presence.welcome_back(live, seat)

    # -- rematches and tokens (meeple.server.rematch) ---------------------------------------

    async def rematch(
        self, live: LiveGame, seat: int, client: Client | None = None
    ) -> tuple[LiveGame, bool, str | None]:
        return await self.rematches.rematch(live, seat, client)

    async def claim(self, live: LiveGame, seat: int) -> str | None:
        return await self.rematches.claim(live, seat)

    async def reissue(self, live: LiveGame, token: str, seat: int) -> str:
        return await self.rematches.reissue(live, token, seat)

    # -- chat and hints (meeple.server.chat, meeple.server.hints) ---------------------------

    async def chat(self, live: LiveGame, seat: int, text: str) -> dict[str, Any]:
        return await self.talk.chat(live, seat, text)

    async def moderate(self, live: LiveGame, host: str, seat: int, standing: str | None) -> None:
        await self.talk.moderate(live, host, seat, standing)

    async def hint(self, live: LiveGame, seat: int, state_id: int) -> dict[str, Any]:
        return await self.hints.hint(live, seat, state_id)

    async def advisor_work(self, work: Callable[..., T], *args: Any) -> T:
        return await self.hints.advisor_work(work, *args)
