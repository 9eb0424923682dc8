"""The live games of a server: each rebuilt from storage, changed only through :meth:`Hub.act`.

Every change follows one order, under the game's lock: apply the action to a copy of the state,
commit it to the database, then make the copy the live state and tell the subscribers. A client
is never told of an action the database does not hold, and an action the database refused
never shows. ``state_id`` is the number of actions applied, so it names a position exactly.

Commits are grouped (:class:`Writer`): the actions of every game that arrive while a commit is
under way are committed together in the next transaction, each game waiting for the commit that
holds its action. One fsync then serves many games, and only one thread ever writes.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import datetime as dt
import functools
import gc
import hmac
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TypeVar

from sqlalchemy.exc import IntegrityError

from meeple.bots.advisor import DEFAULT_SECONDS, AdviceError, advise
from meeple.bots.base import FILE_KINDS, Bot, bot_kinds, make_bot
from meeple.kernel.asking import (
    PROXY,
    ROLL,
    WEB_DEFAULT,
    AskSettings,
    auto_move,
    countdown,
    for_game,
)
from meeple.kernel.errors import IllegalActionError, MeepleError
from meeple.kernel.family import (
    RULESET,
    family_of,
    family_of_state,
    game_family,
    game_info,
    new_game,
)
from meeple.kernel.options import RULES, check_rules
from meeple.kernel.position import OPTION as POSITION
from meeple.kernel.position import from_position
from meeple.kernel.protocol import Action, Event, GameState, MoveOn
from meeple.kernel.rng import derive_seed
from meeple.server.limits import Client, Counters, Limits, Window
from meeple.server.names import given_name, pick_bot_names, seat_names
from meeple.server.schemas import MAX_SEED
from meeple.server.storage import (
    ACTIVE,
    CANCELLED,
    CHAT_STANDING,
    EXPIRED,
    FINISHED,
    MUTED,
    WAITING,
    ActionWrite,
    Quota,
    QuotaError,
    Storage,
    StoredGame,
    StoredSeat,
    hash_token,
    new_token,
)
from meeple.server.wire import Message, dumps, join_objects

log = logging.getLogger("meeple.server")

QUEUE_LIMIT = 1000

WATCH_SECONDS = 30.0
"""An all-bot game plays on this long after the last request for it with no socket open."""

CHAT_MAX_CHARS = 300
"""The longest chat message, in characters."""
CHAT_BURST = (5, 10.0)
"""At most this many chat messages from one seat within this many seconds."""
CHAT_MAX_MESSAGES = 2000
"""The most messages one game's chat keeps taking."""

STAND_IN = "standard"
"""The bot that plays a person's seat while they are away (handed over by the host or them)."""

# The table's timers (docs/SERVER.md, "A table that never stalls"; the turn timer's default is
# the API's, schemas.TURN_TIMER). A person counts as here while one of their pages (a WebSocket
# of their seat) is open, and as away from the moment the last one closes.
AWAY_TIMER = 30.0
"""``meeple serve --away-timer``'s default: a decision waits this long on a person who is away
(from when it came, or from when they left) before the standard bot plays their seat, until one
of their pages opens again. Long enough for a reload or a phone changing networks (the page
reconnects within two seconds), short enough that nobody waits for someone who has gone."""
HANDOVER_AFTER = 10.0
"""Another person at the table may hand a seat to the standard bot once its person has been
away this long (``POST /stand-in``): never a seat whose person is here."""
TURN_BEAT = 3.0
"""A turn's first roll, played by the table (a bot's, or the person's own roll with nothing to
weigh), waits this many paces (``bot_pace``): time to follow the turn before it on the board
and in the log. Other moves that show something wait one pace; moves that show nothing (a pass
in another player's turn, the end of a turn) none."""

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


class Created(NamedTuple):
    """A new game, each seat's token (people only), the host's key and the invite code."""

    live: LiveGame
    tokens: list[str | None]
    host: str
    invite: str | None


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


class HubError(Exception):
    """A request the hub refuses: an HTTP status, a reason, and the current state id if useful."""

    def __init__(self, status: int, detail: str, state_id: int | None = None) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.state_id = state_id


@dataclass
class Seat:
    seat: int
    kind: str  # "human" or "bot"
    name: str
    bot_kind: str
    token_hash: str
    bot: Bot | None = None
    # A person's wishes (meeple.kernel.asking): when to be asked (None: always), and whether
    # they hold the table to act (dropped when their last socket closes, so a closed tab
    # never stalls the game).
    ask: AskSettings | None = None
    held: bool = False
    sockets: int = 0
    # The host (or the person) handed the seat to the standard bot (``bot``) for now, at
    # position ``stand_in_at`` (stand_in_bot: where it is seeded from and replayed from).
    stand_in: bool = False
    stand_in_at: int | None = None
    # "Bid up to N" in the open auction (played by the table; lapses when the auction ends).
    proxy: int | None = None
    # The bot stands in because the turn timer ran out (or another person handed the seat of
    # someone away to it): the seat is the person's again as soon as one of their pages
    # connects.
    idle: bool = False
    # Presence (time.monotonic): when the person's last page closed (or the game was loaded
    # with none open), and when they last took their seat back from a bot (their turn timer
    # starts afresh then).
    away_since: float = field(default_factory=time.monotonic)
    back_at: float = 0.0
    # When this person's last chat messages were sent (loop time), for the rate limit.
    chatted: list[float] = field(default_factory=list)
    # A hint is being worked out for this person (one at a time).
    advising: bool = False
    # The host's word on this person's chat: MUTED, REMOVED, or None (they may chat).
    chat: str | None = None
    # The action the seat's bot chose at a position whose commit failed: played when the
    # table tries again, so the bot is asked once for each decision, as a resume replays it.
    chosen: tuple[int, Action] | None = None

    def info(self, now: float) -> dict[str, Any]:
        """What everyone may know of the seat: never its token. A person's presence: whether
        one of their pages is open, else for how long none has been (seconds at ``now``)."""
        bot = self.bot_kind if self.kind == "bot" else None  # its name no longer says it
        person = self.kind == "human"
        here = self.sockets > 0
        return {
            "seat": self.seat,
            "type": self.kind,
            "name": self.name,
            "bot": bot,
            "stand_in": self.stand_in,
            "chat": self.chat,
            "connected": here if person else None,
            "away_for": round(now - self.away_since, 1) if person and not here else None,
        }

    def stored(self) -> StoredSeat:
        ask = None if self.ask is None else self.ask.to_dict()
        return StoredSeat(
            self.seat,
            self.kind,
            self.name,
            self.bot_kind,
            self.token_hash,
            ask,
            self.stand_in,
            self.chat,
            self.stand_in_at,
            self.idle,
        )


@dataclass
class Subscriber:
    """A WebSocket listener: a seat, or ``None`` for a spectator. ``None`` in the queue ends
    it; ``moved`` says the game went to another server process (the client reconnects)."""

    seat: int | None
    queue: asyncio.Queue[dict[str, Any] | None] = field(
        default_factory=lambda: asyncio.Queue(QUEUE_LIMIT)
    )
    moved: bool = False


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


@dataclass
class LiveGame:
    id: str
    state: GameState
    seats: list[Seat]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    subscribers: list[Subscriber] = field(default_factory=list)
    # WAITING (seats still open) or CANCELLED, which the state cannot tell; "" otherwise.
    stage: str = ""
    # Seconds a person who is here may take over a decision before the standard bot plays for
    # them (None: no timer), and the same for a person who is away (the server's
    # --away-timer; None: no timer).
    turn_timer: float | None = None
    away_timer: float | None = None
    # When the position on the table was reached (time.monotonic): the decision's timer runs
    # from here.
    reached: float = field(default_factory=time.monotonic)
    # Whether people may ask the advisor for a hint (the host's choice when making the game).
    hints: bool = True
    chat_count: int | None = None  # messages in the game's chat, once counted
    # When someone last asked for the game (loop time): an all-bot game plays only while
    # someone watches (a socket, or a request within WATCH_SECONDS).
    seen: float = 0.0
    # The events of every action in words (the game's log), built on first request by
    # replaying the stored actions, then kept up to date as actions are committed.
    log: list[list[str]] | None = None
    host_hash: str | None = None
    invite_hash: str | None = None
    family: str = ""
    rematch: str | None = None  # the id of this game's rematch, once one was started
    # The JSON text of each seat's view at one position (the state it is of), shared by the
    # seat's update and the answer to its action. Texts, not views: a view lives only until
    # encoded, so the garbage collector never has to look at it (GC_THRESHOLDS).
    texts_of: GameState | None = field(default=None, repr=False)
    view_texts: dict[int | None, str] = field(default_factory=dict, repr=False)
    # The position the last action replaced: the storage the next action's copy is made in
    # (GameState.copy_into). A game's positions then live in the same two states for the
    # game's whole life, and the collector's young generation never holds them (issue 17).
    spare: GameState | None = field(default=None, repr=False)

    @property
    def state_id(self) -> int:
        return len(self.state.history)

    @property
    def all_bots(self) -> bool:
        return all(s.kind == "bot" for s in self.seats)

    def watched(self, now: float) -> bool:
        """Whether anyone follows the game: an open socket, or a request lately."""
        return bool(self.subscribers) or now - self.seen < WATCH_SECONDS

    @property
    def status(self) -> str:
        if self.stage:
            return self.stage
        return FINISHED if self.state.is_terminal() else ACTIVE

    @property
    def advised(self) -> bool:
        """Whether people may ask the advisor for hints here: the host allowed them and the
        game's family can be searched (``GameFamily.search``)."""
        return self.hints and family_of_state(self.state).search is not None

    def is_host(self, token: str) -> bool:
        """Whether ``token`` is this game's host key (compared in constant time)."""
        if self.host_hash is None:
            return False
        return hmac.compare_digest(self.host_hash, hash_token(token))

    def check_host(self, token: str) -> None:
        if not self.is_host(token):
            raise HubError(403, "this is not the host's key of this game")

    def seat_infos(self) -> list[dict[str, Any]]:
        now = time.monotonic()
        return [s.info(now) for s in self.seats]

    def deadline(self, seat: int) -> float | None:
        """When (time.monotonic) the standard bot takes ``seat``'s decision if its person has
        not acted: the turn timer from when the decision came (or the person took the seat
        back), sooner with the away timer while they are away (from when they left, if later).
        ``None``: no timer runs (a bot decides, the table moves on by itself, no timers)."""
        if not 0 <= seat < len(self.seats):
            return None
        s = self.seats[seat]
        if s.kind != "human" or s.bot is not None or self.auto(seat) is not None:
            return None
        start = max(self.reached, s.back_at)
        ends = [] if self.turn_timer is None else [start + self.turn_timer]
        if s.sockets <= 0 and self.away_timer is not None:
            ends.append(max(start, s.away_since) + self.away_timer)
        return min(ends) if ends else None

    def timer(self) -> dict[str, Any] | None:
        """The running timer, for everyone: the deciding person's seat, the seconds left before
        the standard bot plays it, and whether they are away; ``None`` when none runs."""
        if self.status != ACTIVE:
            return None
        seat = self.state.current_player()
        end = self.deadline(seat)
        if end is None:
            return None
        left = max(0.0, end - time.monotonic())
        return {"seat": seat, "left": round(left, 1), "away": self.seats[seat].sockets <= 0}

    def _texts(self) -> dict[int | None, str]:
        # A new position is a new state (Hub._commit): the texts of the last one go.
        if self.texts_of is not self.state:
            self.texts_of, self.view_texts = self.state, {}
        return self.view_texts

    def view_text(self, seat: int | None) -> str:
        """The JSON text of ``state.view(seat)``, encoded once for each position."""
        texts = self._texts()
        text = texts.get(seat)
        if text is None:
            text = texts[seat] = dumps(self.state.view(seat))
        return text

    def broadcast_seats(self, skip: Subscriber | None = None) -> None:
        """Tell every subscriber (but ``skip``) who sits where now (and who is here), the
        game's status and the running timer."""
        msg = Message(
            {
                "type": "seats",
                "state_id": self.state_id,
                "status": self.status,
                "seats": self.seat_infos(),
                "timer": self.timer(),
            }
        )
        for sub in list(self.subscribers):
            if sub is not skip:
                self._put(sub, msg)

    def seat_of(self, token: str) -> int:
        """The seat whose token this is; 403 otherwise (compared in constant time)."""
        h = hash_token(token)
        found = -1
        for s in self.seats:
            if s.kind == "human" and hmac.compare_digest(s.token_hash, h):
                found = s.seat
        if found < 0:
            raise HubError(403, "this token does not belong to a seat of this game")
        return found

    def _position(self) -> dict[str, Any]:
        r = self.state.result()
        return {
            "state_id": self.state_id,
            "status": self.status,
            "current_player": self.state.current_player(),
            "result": None if r is None else r.to_dict(),
            "timer": self.timer(),
        }

    def public(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.state.game_id,
            **self._position(),
            "seats": self.seat_infos(),
            "view": self.state.view(None),
            "rematch": self.rematch,
            "hints": self.advised,
            "timers": self.timers(),
        }

    def timers(self) -> dict[str, float | None]:
        """The game's timers (seconds; ``None``: off) and how long a person must be away before
        another may hand their seat to a bot."""
        return {"turn": self.turn_timer, "away": self.away_timer, "handover": HANDOVER_AFTER}

    def auto(self, seat: int) -> MoveOn | None:
        """The move the table plays for ``seat`` without asking it now (``None``: ask it)."""
        if not 0 <= seat < len(self.seats):
            return None
        s = self.seats[seat]
        if s.bot is not None or self.status != ACTIVE:
            return None
        if s.proxy is not None:
            _, bid = self.state.auction_bid(seat, s.proxy)
            if bid is not None:
                return MoveOn(bid, PROXY)
        move = auto_move(self.state, seat, s.ask, s.held)
        if move is not None and move.moment == ROLL and s.sockets <= 0:
            return None  # a person's turn starts when they are there to see it
        return move

    def seat_state(self, seat: int) -> dict[str, Any]:
        """A person's settings, hold and pending automatic move (theirs alone to see)."""
        s = self.seats[seat]
        move = self.auto(seat)
        auto = None
        if move is not None and (s.ask is not None or move.moment == PROXY):
            auto = {
                "action": str(move.action),
                "text": self.state.describe_action(move.action),
                "moment": move.moment,
                "grace": 0.0 if move.moment == PROXY else countdown(move, s.ask),
            }
        return {
            "ask": None if s.ask is None else s.ask.to_dict(),
            "held": s.held,
            "auto": auto,
            "proxy": s.proxy,
        }

    def seat_answer(self, seat: int) -> dict[str, Any]:
        """A person's seat state with the seat and the position it belongs to: the answer to a
        change of settings, hold or standing bid, and the socket's "seat" message. A client
        takes it only if no newer update has told it the seat's state already."""
        return {"seat": seat, "state_id": self.state_id, **self.seat_state(seat)}

    def why(self, seat: int, texts: list[str]) -> dict[str, str | None]:
        """Why each action is refused for ``seat`` now (``None``: legal), in the engine's
        words; out of the seat's decision, when it may act next."""
        state = self.state
        deciding = self.status == ACTIVE and state.current_player() == seat
        deciding = deciding and self.seats[seat].bot is None
        out: dict[str, str | None] = {}
        for text in texts:
            try:
                action = Action.parse(text)
            except ValueError as exc:
                out[text] = str(exc)
                continue
            if not deciding:
                if self.status != ACTIVE:
                    out[text] = f"the game is {self.status}"
                else:
                    who = self.seats[state.current_player()].name
                    out[text] = (
                        f"not now: {who} decides; you may act when the table gives you a chance"
                    )
            else:
                out[text] = None if state.is_legal(action) else state.why_illegal(action)
        return out

    def lapse_proxies(self) -> None:
        """Drop the standing bids of seats no longer in an open auction (it ended, or they
        dropped out)."""
        for s in self.seats:
            if s.proxy is not None and not self.state.auction_bid(s.seat, s.proxy)[0]:
                s.proxy = None
                self.notify_seat(s.seat)

    def legal_for(self, seat: int) -> list[dict[str, str]]:
        """The seat's legal actions with their words, when the seat decides now (a person's
        seat no bot plays for); else none."""
        playing = self.status == ACTIVE and self.seats[seat].bot is None
        if not playing or self.state.current_player() != seat:
            return []
        return [
            {"action": str(a), "text": self.state.describe_action(a)}
            for a in self.state.legal_actions()
        ]

    def seat_view(self, seat: int) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.state.game_id,
            **self._position(),
            "seats": self.seat_infos(),
            "seat": seat,
            "view": self.state.view(seat),  # the seat's view only: never the public one too
            "legal_actions": self.legal_for(seat),
            "rematch": self.rematch,
            "hints": self.advised,
            "timers": self.timers(),
            **self.seat_state(seat),
        }

    def message(self, seat: int | None, events: list[str]) -> dict[str, Any]:
        """What a subscriber of ``seat`` is sent after a change (or on connecting)."""
        msg = {
            "type": "update",
            **self._position(),
            "events": events,
            "view": self.state.view(seat),
        }
        if seat is not None and self.seats[seat].kind == "human":
            msg.update(self.seat_state(seat))
            msg["legal_actions"] = self.legal_for(seat)
        return msg

    def hello(self, seat: int | None) -> dict[str, Any]:
        """The first message of a socket of ``seat`` (``None``: a spectator): the position now."""
        msg = self.message(seat, [])
        msg["type"] = "hello"
        msg["seat"] = seat
        msg["seats"] = self.seat_infos()  # who is here now: a page that reconnects catches up
        return msg

    def notify_seat(self, seat: int) -> None:
        """Tell ``seat``'s sockets that its settings, hold or pending move changed."""
        msg = Message({"type": "seat", **self.seat_answer(seat)})
        for sub in list(self.subscribers):
            if sub.seat == seat:
                self._put(sub, msg)

    def broadcast(self, events: list[str], why: str = "") -> None:
        """Queue the update for every subscriber: one message (and view, and text) per seat
        watched. The seats' views are made at once (the game shares what they see alike).
        ``why``: a bot's reason for the move (``Bot.explain``), which a page shows if asked."""
        head: dict[str, Any] = {"type": "update", **self._position(), "events": events}
        if why:
            head["why"] = why
        head_text = dumps(head)
        seats = list(dict.fromkeys(sub.seat for sub in self.subscribers))
        views = dict(zip(seats, self.state.views(seats), strict=True))
        texts = self._texts()
        messages: dict[int | None, Message] = {}
        for sub in list(self.subscribers):
            msg = messages.get(sub.seat)
            if msg is None:
                view = views[sub.seat]
                text = texts[sub.seat] = dumps(view)  # the answer to the seat's action too
                extra: dict[str, Any] = {}
                if sub.seat is not None and self.seats[sub.seat].kind == "human":
                    # The seat's choices ride with its update: no request for them after it.
                    extra = {**self.seat_state(sub.seat), "legal_actions": self.legal_for(sub.seat)}
                # The message holds the view as text alone: a queued message's fields are
                # its head (nothing on the server reads a queued view), so the view's dicts and
                # lists die here instead of waiting in the queue for the collector (issue 17).
                msg = messages[sub.seat] = Message(
                    {**head, **extra},
                    join_objects(head_text, f'{{"view":{text}}}', dumps(extra)),
                )
            self._put(sub, msg)

    def _put(self, sub: Subscriber, msg: dict[str, Any]) -> None:
        try:
            sub.queue.put_nowait(msg)
        except asyncio.QueueFull:  # a client that does not read: drop it
            with contextlib.suppress(ValueError):
                self.subscribers.remove(sub)
            end_queue(sub.queue)


def end_queue(queue: asyncio.Queue[Any]) -> None:
    """End a socket's feed: ``None`` after the messages queued. A full queue (a client that
    does not read) drops its oldest message to make room, so the socket always closes."""
    if queue.full():
        with contextlib.suppress(asyncio.QueueEmpty):
            queue.get_nowait()
    with contextlib.suppress(asyncio.QueueFull):
        queue.put_nowait(None)


def event_log(
    game: str, players: int, seed: int, options: dict[str, Any], actions: list[Action]
) -> list[list[str]]:
    """The events of each action of a game in words, by replaying it from its seed."""
    s = new_game(game, players, seed, options)
    s.record_events = True
    out = []
    for a in actions:
        events = s.apply(a)
        out.append([s.describe(e) for e in events])
    return out


def move_at(
    game: str, players: int, seed: int, options: dict[str, Any], actions: list[Action]
) -> tuple[int, list[str]]:
    """Who made the last of ``actions`` (the seat deciding before it) and its events in words,
    by replaying the game from its seed."""
    s = new_game(game, players, seed, options)
    s.record_events = False
    for a in actions[:-1]:
        s.apply(a)
    mover = s.current_player()
    s.record_events = True
    events = s.apply(actions[-1])
    return mover, [s.describe(e) for e in events]


def pause_before(pace: float, state: GameState, action: Action, shown: bool) -> float:
    """Seconds the table waits before it commits ``action``, a move it plays by itself (a
    bot's, or a person's move-on with no countdown) at ``state``: the table's pace, so that a
    person watching can follow (docs/SERVER.md, "The table's pace").

    A move that shows nothing (``shown`` false: no event, such as a pass in another player's
    turn or the end of a turn) goes at once; a turn's first roll waits :data:`TURN_BEAT`
    paces; any other move one pace."""
    if pace <= 0 or not shown:
        return 0.0
    move = state.move_on()
    if move is not None and move.moment == ROLL and action == move.action:
        return TURN_BEAT * pace
    return pace


def rebuild(stored: StoredGame) -> LiveGame:
    """The live game of a stored one: its actions replayed, its bots where they were.

    A bot's choices depend only on its seed and the positions it was asked about, in order
    (its random stream, and whatever it keeps: a plan, offers refused), so asking each bot again
    for the decisions it made, and only those, leaves it exactly as it stood when the server
    stopped: a resumed game plays on as if never interrupted (docs/SERVER.md, "Durability").
    A seat's own bot made every decision of its seat; a stand-in made those from the position
    it began at (``stand_in_at``) on, never the person's before it.
    """
    family = game_family(stored.game_id, stored.options)
    seats = [_seat(st, family, stored.seed) for st in stored.seats]
    since = [(p.stand_in_at or 0) if p.stand_in else 0 for p in seats]
    s = new_game(stored.game_id, stored.players, stored.seed, stored.options)
    s.record_events = False
    for text in stored.actions:
        action = Action.parse(text)
        cp = s.current_player()
        bot = seats[cp].bot if 0 <= cp < len(seats) else None
        if bot is not None and len(s.history) >= since[cp]:
            with contextlib.suppress(Exception):  # it failed live too, and the table moved on
                bot.choose(s)
        s.apply(action)
    s.record_events = True
    stage = stored.status if stored.status in (WAITING, CANCELLED, EXPIRED) else ""
    return LiveGame(
        stored.id, s, seats, stage=stage, host_hash=stored.host_hash,
        invite_hash=stored.invite_hash, family=family, rematch=stored.rematch,
        turn_timer=stored.turn_timer, hints=stored.hints,
    )  # fmt: skip


POSITION_OPTIONS = frozenset({"redraw", RULES, RULESET})
"""The options a position may carry to the server: ``redraw``, ``rules`` (the rule options a
table may set, checked as a request's are: :func:`game_rules`) and the ``ruleset`` every game
is stamped with (``meeple.kernel.family.new_game``). The server plays its own
games as listed, so a position's other options are refused before anything reads them: an
``edition`` would make a game the lobby does not offer, and Monopolis's ``components`` names a
file on the server (as a bot kind's argument would: see :meth:`Hub.create`)."""


def game_rules(game: str, given: object, where: str) -> dict[str, Any]:
    """``given`` (a request's or a position's ``rules``) checked against the rule options
    ``game``'s family offers (``GameFamily.rule_options``): 422 naming the option and what it
    takes, or the options there are. Only those: an edition's other rule options (the houses
    in the box, the player range) make another game, which the server does not offer."""
    known = family_of(game).rule_options(game, {})
    try:
        return check_rules(known, given, game)
    except ValueError as exc:
        raise HubError(422, f"{where}: {exc}") from None


def opening(game: str, players: int, seed: int | None, data: dict[str, Any]) -> GameState:
    """The game at position ``data`` (what a position file holds: ``meeple.kernel.position``)
    for a table of ``players`` seats of ``game``; ``HubError`` 422 with every reason otherwise.

    As ``meeple play --from FILE`` does, the position's own ``game``, ``players``, ``seed``
    (0 when left out) and ``options`` make the game, so the server's game is the command
    line's from the same file; what the request says besides must agree with them (refused,
    never guessed at), and that is checked first, so a position sent to the wrong table is
    told so rather than checked against the wrong rules. The kernel's checks
    (:func:`meeple.kernel.position.from_position`) then give every reason an inconsistent
    position is refused.
    """

    def whole(key: str, default: int | None = None) -> int | None:
        """``data[key]`` if it is a whole number; else None (the kernel names what is wrong)."""
        value = data.get(key, default)
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    if isinstance(data.get("game"), str) and data["game"] != game:
        raise HubError(422, f"position: it is a position of {data['game']!r}, not {game!r}")
    seats = whole("players")
    if seats is not None and seats != players:
        raise HubError(422, f"position: it is a {seats}-player position, not {players} seats")
    at = whole("seed", 0)
    if at is not None and not 0 <= at <= MAX_SEED:  # the games table's seed is 64-bit
        raise HubError(422, f"position: seed {at} is not from 0 to {MAX_SEED}")
    if seed is not None and at is not None and seed != at:
        raise HubError(
            422, f"position: its seed is {at}, not {seed} (leave out the request's seed)"
        )
    options = data.get("options", {})
    if isinstance(options, dict):
        other = sorted(set(options) - POSITION_OPTIONS)
        if other:
            raise HubError(
                422,
                f"position: the server takes no option {other[0]!r} in a position (only "
                f"{', '.join(sorted(POSITION_OPTIONS))}): it plays its games as listed",
            )
        if RULES in options:
            game_rules(game, options[RULES], "position: options.rules")
    try:
        state = from_position(data, POSITION)
        # Shown once here: a position the kernel accepts but cannot show or move on from
        # would store a game whose every page fails.
        state.view(None)
        state.legal_actions()
    except MeepleError as exc:  # PositionError: every problem found, in words
        raise HubError(422, str(exc)) from None
    except Exception as exc:
        # Anyone may send a position: what its data makes the engine raise beyond the checks
        # is still the request's fault (422), and worth a look by the operator.
        log.warning("a position the checks passed raised %r", exc, exc_info=True)
        raise HubError(422, f"position: cannot be set up ({type(exc).__name__}: {exc})") from None
    if state.is_terminal():
        raise HubError(422, "position: the game is over there: nothing is left to play")
    return state


def _seat(st: StoredSeat, family: str, seed: int) -> Seat:
    bot = None
    at = None
    if st.kind == "bot":
        bot = make_bot(st.bot, family, derive_seed(seed, 1 + st.seat))
    elif st.kind == "human" and st.stand_in:
        at = st.stand_in_at or 0
        bot = stand_in_bot(family, seed, st.seat, at)
    ask = None if st.ask is None else AskSettings.from_dict(st.ask)
    return Seat(
        st.seat, st.kind, st.name, st.bot, st.token_hash, bot, ask,
        stand_in=st.stand_in, stand_in_at=at, chat=st.chat, idle=st.stand_in and st.stand_in_idle,
    )  # fmt: skip


def stand_in_bot(family: str, seed: int, seat: int, at: int) -> Bot:
    """The standard bot that plays person ``seat``'s decisions from position ``at`` on.

    Its stream is ``derive_seed(game seed, 1 + seat, at)``: drawn only from what is stored with
    the game (the seed, and the position the stand-in began at, ``SeatRow.stand_in_at``), so a
    resumed game makes the same bot and replays it through the decisions it made since ``at``
    (:func:`rebuild`); each time a bot stands in it draws afresh."""
    return make_bot(STAND_IN, family, derive_seed(seed, 1 + seat, at))


def check_name(name: str, taken: list[str]) -> str:
    """A name a client sends (:func:`meeple.server.names.given_name`); ``HubError`` 422 with
    the reason if it does not show, is reserved or is taken."""
    try:
        return given_name(name, taken)
    except ValueError as exc:
        raise HubError(422, str(exc)) from None


def _retrieved(fut: asyncio.Future[None]) -> None:
    if not fut.cancelled():
        fut.exception()


class Writer:
    """The one writer of the database: every write runs on its single thread, actions grouped.

    :meth:`append` queues an action; while a commit is under way, the actions that arrive wait
    and are then stored together by one :meth:`Storage.append_actions` transaction (group
    commit: one fsync for all of them). After that commit, and only then, each action's
    ``on_commit`` runs on the event loop (the game's new state is published) and its waiter
    wakes. If a grouped commit fails, each of its actions is retried alone, so one bad action
    fails only its own request.
    """

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.executor: ThreadPoolExecutor | None = None
        self.pending: list[tuple[ActionWrite, Callable[[], None], asyncio.Future[None]]] = []
        self.task: asyncio.Task[None] | None = None
        self.commits = 0  # transactions that stored actions, for tests and logs
        self.actions_committed = 0  # for the operator (/metrics)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on the writer thread (between two grouped commits)."""
        if self.executor is None:
            self.executor = ThreadPoolExecutor(1, thread_name_prefix="meeple-db")
        return await asyncio.get_running_loop().run_in_executor(self.executor, fn, *args)

    async def append(self, write: ActionWrite, on_commit: Callable[[], None]) -> None:
        """Store ``write``; ``on_commit()`` runs once it is committed, even if this waiter is
        cancelled meanwhile (so the live game never falls behind the database). Raises what
        the database raised; then nothing was stored and ``on_commit`` does not run."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        fut.add_done_callback(_retrieved)  # a cancelled waiter never reads the error itself
        self.pending.append((write, on_commit, fut))
        if self.task is None:
            self.task = asyncio.create_task(self._drain(), name="meeple-group-commit")
        await asyncio.shield(fut)

    async def _drain(self) -> None:
        try:
            while self.pending:
                batch, self.pending = self.pending, []
                try:
                    errors = await self.run(self._store, [w for w, _, _ in batch])
                except Exception as exc:  # the executor itself failed
                    errors = [exc] * len(batch)
                for (write, on_commit, fut), err in zip(batch, errors, strict=True):
                    if err is None:
                        self.actions_committed += 1
                        try:
                            on_commit()
                        except Exception:
                            log.exception("game %s: publishing action %d", write.game, write.index)
                        if not fut.done():
                            fut.set_result(None)
                    elif not fut.done():
                        fut.set_exception(err)
                    else:
                        log.error("game %s: action %d not stored: %s", write.game, write.index, err)
        finally:
            self.task = None

    def _store(self, writes: list[ActionWrite]) -> list[Exception | None]:
        # On the writer thread: all in one transaction, else one by one to isolate a failure.
        try:
            self.storage.append_actions(writes)
            self.commits += 1
            return [None] * len(writes)
        except Exception as exc:
            if len(writes) == 1:
                return [exc]
        errors: list[Exception | None] = []
        for w in writes:
            try:
                self.storage.append_actions([w])
                self.commits += 1
                errors.append(None)
            except Exception as exc:
                errors.append(exc)
        return errors

    async def close(self) -> None:
        """Finish the commits under way, then stop the thread."""
        while self.task is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(self.task)
        if self.executor is not None:
            executor, self.executor = self.executor, None
            await asyncio.to_thread(executor.shutdown, wait=True)


class Hub:
    """The live games of one server, over one :class:`Storage`."""

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
        self.made = Window(3600.0)  # games made per client address in the last hour
        self.game_sockets = Counters()
        self.client_sockets = Counters()
        self.limit_hits: collections.Counter[str] = collections.Counter()  # for operators
        self.games: dict[str, LiveGame] = {}
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.side_tasks: set[asyncio.Task[None]] = set()  # kept so they are not collected
        self.bot_games: set[str] = set()  # all-bot games playing now (at most max_bot_games)
        self.sweeper: asyncio.Task[None] | None = None
        self.gc_before: tuple[int, int, int] | None = None
        self.ownership = Ownership()
        self.advising = 0  # hints being worked out now (Limits.hints_at_once)

    def check_new_game(self, client: Client) -> None:
        """Refuse (429) a game from ``client`` over its hourly allowance."""
        most = self.limits.games_per_client_hour
        if not self.made.allow(client.key, most):
            self.limit_hits["games_per_client_hour"] += 1
            raise HubError(429, f"too many new games from your address: at most {most} an hour")

    def _waiting_since(self, now: dt.datetime) -> dt.datetime | None:
        """Games waiting to start unchanged since then are as good as expired."""
        life = self.lifecycle.waiting_expire_after
        return None if life is None else now - dt.timedelta(seconds=life)

    def quota(self, client: Client | None) -> Quota:
        """What a new game of ``client`` must fit in (``Limits``; ``None``: a game no client
        asked for, which only the cap on games holds)."""
        lim = self.limits
        now = dt.datetime.now(dt.UTC)
        mine = client is not None
        return Quota(
            client="" if client is None else client.key,
            network="" if client is None else client.network,
            live=lim.live_games,
            client_live=lim.live_per_client if mine else None,
            client_waiting=lim.waiting_per_client if mine else None,
            network_live=lim.live_per_network if mine else None,
            network_waiting=lim.waiting_per_network if mine else None,
            waiting_since=self._waiting_since(now),
            idle_since=now - dt.timedelta(seconds=self.lifecycle.evict_after),
        )

    async def _store_new(self, make: Callable[..., str], quota: Quota) -> str:
        """Store a new game with ``make(quota=quota)`` on the writer thread: its id; 429 with
        the reason if it does not fit (counted for the operator). A game expired to make room
        stops here if it is loaded (:meth:`_expired`)."""
        try:
            gid = await self.writer.run(functools.partial(make, quota=quota))
        except QuotaError as exc:
            self.limit_hits[exc.limit] += 1
            raise HubError(429, exc.reason) from None
        for old in quota.evicted:
            self.limit_hits["expired_to_make_room"] += 1
            log.info("game %s expired to make room for game %s", old, gid)
            self._expired(old)
        return gid

    def _expired(self, gid: str) -> None:
        """Game ``gid`` expired in the database: so it is here, if loaded."""
        live = self.games.get(gid)
        if live is not None and live.status in (WAITING, ACTIVE):
            live.stage = EXPIRED
            self._stop_table(live)
            live.broadcast_seats()

    async def lobby(self, status: str | None) -> list[dict[str, Any]]:
        """The lobby's list (``Storage.list_games``): games waiting past their life left out."""
        since = self._waiting_since(dt.datetime.now(dt.UTC))
        return await asyncio.to_thread(self.storage.list_games, status, 100, since)

    def enter_socket(self, gid: str, client: str) -> str:
        """Count a new socket of ``gid`` from ``client``; the reason it is refused, or ""."""
        lim = self.limits
        if not self.game_sockets.enter(gid, lim.sockets_per_game):
            self.limit_hits["sockets_per_game"] += 1
            return f"this game has {lim.sockets_per_game} sockets open, the most it takes"
        if not self.client_sockets.enter(client, lim.sockets_per_client):
            self.game_sockets.leave(gid)
            self.limit_hits["sockets_per_client"] += 1
            return f"your address has {lim.sockets_per_client} sockets open, the most allowed"
        return ""

    def leave_socket(self, gid: str, client: str) -> None:
        self.game_sockets.leave(gid)
        self.client_sockets.leave(client)

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
            self.storage.expire_idle, before, self._waiting_since(now)
        ):
            self._expired(gid)
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
        from meeple.server.table import run_table

        task = asyncio.create_task(run_table(self, live), name=f"table-{live.id}")
        self.tasks[live.id] = task
        task.add_done_callback(lambda t: self.tasks.pop(live.id, None))

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
        """A new game: each person's token (``None`` for bots and open seats), the host's key,
        and the invite code when seats are open (the game then waits for the host to start).

        ``client`` made it: the game must fit in its share (:meth:`quota`; 429 otherwise).

        ``position`` (what a position file holds) starts the game there: see :func:`opening`.
        It is checked before anything is stored, so a refused position leaves no trace; the
        game's options carry it, so the game replays from storage like any other. ``rules``
        sets the game's rule options (``GameFamily.rule_options``: checked here by kind, and
        together when the game is made), carried in its options the same way."""
        try:
            info = game_info(game)
        except MeepleError as exc:
            raise HubError(422, str(exc)) from None
        n = len(seats)
        if not info.min_players <= n <= info.max_players:
            raise HubError(
                422, f"{game} is for {info.min_players} to {info.max_players} players, not {n}"
            )
        if rules and position is not None:
            raise HubError(
                422,
                "rules: a game from a position plays by the position's own rules (its "
                "options' rules): set them there",
            )
        chosen = game_rules(game, rules or {}, "rules")
        placed = None if position is None else opening(game, n, seed, position)
        options: dict[str, Any] = {} if placed is None else dict(placed.options)
        if chosen:
            options[RULES] = chosen
        if placed is not None:
            seed = placed.seed
        if seed is None:
            seed = secrets.randbits(63)
        known = bot_kinds(info.family, game)
        try:
            names = seat_names(seats, seed)
        except ValueError as exc:
            raise HubError(422, str(exc)) from None
        stored_seats: list[StoredSeat] = []
        tokens: list[str | None] = []
        for i, (spec, name) in enumerate(zip(seats, names, strict=True)):
            if spec["type"] == "bot":
                kind = spec["bot"]
                # Plain kinds only: an argument (``param:FILE``) would read server files, and
                # a file kind without one cannot play.
                if kind not in known or ":" in kind or kind in FILE_KINDS:
                    raise HubError(
                        422, f"unknown bot {kind!r} for {game}; known: {', '.join(known)}"
                    )
                stored_seats.append(StoredSeat(i, "bot", name, kind, ""))
                tokens.append(None)
            elif spec["type"] == "open":
                stored_seats.append(StoredSeat(i, "open", name, "", ""))
                tokens.append(None)
            else:
                token = new_token()
                ask = spec.get("ask")
                stored_seats.append(StoredSeat(i, "human", name, "", hash_token(token), ask))
                tokens.append(token)
        host = new_token()
        invite = new_token() if any(st.kind == "open" for st in stored_seats) else None
        stage = WAITING if invite is not None else ""
        try:
            state = placed if placed is not None else new_game(game, n, seed, options)
            live_seats = [_seat(st, info.family, seed) for st in stored_seats]
        except (MeepleError, ValueError) as exc:
            raise HubError(422, str(exc)) from None
        gid = await self._store_new(
            functools.partial(
                self.storage.create_game,
                game,
                n,
                seed,
                state.options,  # (stamped with the family's ruleset: new_game)
                stored_seats,
                status=stage or ACTIVE,
                host_hash=hash_token(host),
                invite_hash=None if invite is None else hash_token(invite),
                listed=listed,
                turn_timer=turn_timer,
                hints=hints,
            ),
            self.quota(client),
        )
        live = LiveGame(
            gid,
            state,
            live_seats,
            stage=stage,
            host_hash=hash_token(host),
            invite_hash=None if invite is None else hash_token(invite),
            family=info.family,
            turn_timer=turn_timer,
            away_timer=self.away_timer,
            hints=hints,
        )
        if await self.ownership.adopt(gid):
            self.games[gid] = live
            self._start_table(live)
        return Created(live, tokens, host, invite)

    async def join(self, live: LiveGame, code: str, seat: int, name: str) -> str:
        """An invited person takes open ``seat`` under ``name``; returns their token."""
        async with live.lock:
            if live.invite_hash is None or not hmac.compare_digest(
                live.invite_hash, hash_token(code)
            ):
                raise HubError(403, "this invite code is not this game's")
            if live.status != WAITING:
                raise HubError(409, f"the game is {live.status}: its seats are taken")
            if not 0 <= seat < len(live.seats) or live.seats[seat].kind != "open":
                free = [s.seat + 1 for s in live.seats if s.kind == "open"]
                raise HubError(409, f"seat {seat + 1} is not free; free seats: {free}")
            clean = check_name(name, [s.name for s in live.seats if s.kind != "open"])
            token = new_token()
            person = live.seats[seat]
            ask = for_game(live.state.game_id, live.state.options, WEB_DEFAULT)
            taken = Seat(seat, "human", clean, "", hash_token(token), ask=ask)
            await self.writer.run(self.storage.set_seat, live.id, taken.stored())
            person.kind, person.name, person.token_hash = "human", clean, taken.token_hash
            person.ask = taken.ask
        live.broadcast_seats()
        return token

    async def start_game(self, live: LiveGame, host: str) -> None:
        """The host starts a waiting game: seats still open go to standard bots."""
        live.check_host(host)
        async with live.lock:
            if live.status != WAITING:
                raise HubError(409, f"the game is {live.status}, not waiting to start")
            kinds = bot_kinds(live.family)
            kind = STAND_IN if STAND_IN in kinds else kinds[0]
            open_seats = [s for s in live.seats if s.kind == "open"]
            taken = [s.name for s in live.seats if s.kind != "open"]
            picked = pick_bot_names(live.state.seed, taken, len(open_seats))
            for person, name in zip(open_seats, picked, strict=True):
                person.kind, person.bot_kind, person.name = "bot", kind, name
                person.bot = make_bot(
                    kind, live.family, derive_seed(live.state.seed, 1 + person.seat)
                )
                await self.writer.run(self.storage.set_seat, live.id, person.stored())
            await self.writer.run(self.storage.set_status, live.id, ACTIVE)
            live.stage = ""
        live.broadcast_seats()
        live.broadcast([])
        self._start_table(live)

    async def cancel(self, live: LiveGame, host: str) -> None:
        """The host cancels the game: it is kept as a record and never played on."""
        live.check_host(host)
        await self.operator_cancel(live)

    async def operator_cancel(self, live: LiveGame) -> None:
        """Cancel the game without the host's key (the operator's admin token was checked):
        the same as the host's cancel, sockets told alike; 409 if it is not waiting or in
        play."""
        async with live.lock:
            if live.status not in (WAITING, ACTIVE):
                raise HubError(409, f"the game is {live.status}: there is nothing to cancel")
            await self.writer.run(self.storage.set_status, live.id, CANCELLED)
            live.stage = CANCELLED
        task = self.tasks.pop(live.id, None)
        if task is not None:
            task.cancel()
        live.broadcast_seats()
        live.broadcast([])

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
            await self._stand_in(live, seat, on, idle=other)
            if other and on:
                log.info("game %s: seat %d away; a player handed it to the bot", live.id, seat)

    async def _stand_in(self, live: LiveGame, seat: int, on: bool, idle: bool = False) -> None:
        # Caller holds live.lock.
        person = live.seats[seat]
        was_idle, person.idle = person.idle, on and idle
        if person.stand_in == on:
            if person.idle != was_idle:  # stored: a resumed game still hands the seat back
                await self.writer.run(self.storage.set_seat, live.id, person.stored())
            return
        person.stand_in = on
        person.held = False
        person.stand_in_at = live.state_id if on else None
        person.chosen = None
        person.bot = stand_in_bot(live.family, live.state.seed, seat, live.state_id) if on else None
        await self.writer.run(self.storage.set_seat, live.id, person.stored())
        live.broadcast_seats()
        live.notify_seat(seat)
        live.changed.set()

    async def time_out(self, live: LiveGame, seat: int, state_id: int) -> bool:
        """The turn timer ran out on ``seat``'s decision at ``state_id``: the standard bot plays
        the seat until its person is back. Whether it took over."""
        async with live.lock:
            person = live.seats[seat]
            if (
                live.state_id != state_id
                or live.status != ACTIVE
                or person.kind != "human"
                or person.stand_in
                or live.state.current_player() != seat
            ):
                return False
            await self._stand_in(live, seat, True, idle=True)
            log.info("game %s: seat %d timed out; the standard bot plays it", live.id, seat)
            return True

    async def welcome_back(self, live: LiveGame, seat: int) -> None:
        """A person whose seat the timer (or another player, while they were away) gave to a
        bot opened their page: it is theirs again, and their turn timer starts afresh."""
        async with live.lock:
            if live.seats[seat].idle:
                live.seats[seat].back_at = time.monotonic()
                await self._stand_in(live, seat, False)

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

    async def act(self, live: LiveGame, seat: int, state_id: int | None, text: str) -> list[str]:
        """Apply a seat's action; returns the events in words. Raises :class:`HubError`.

        The same action sent again at the same ``state_id`` by the same seat, once applied
        (the first answer was lost: a timeout, a server process that died while answering),
        is answered as applied, with that action's events, and not applied again."""
        async with live.lock:
            if state_id is not None and state_id != live.state_id:
                events = await self._applied(live, seat, state_id, text)
                if events is not None:
                    return events
                raise HubError(
                    409,
                    f"stale state_id {state_id}: the game is at {live.state_id}",
                    live.state_id,
                )
            if live.status == WAITING:
                raise HubError(422, "the game has not started: the host starts it")
            if live.status == CANCELLED:
                raise HubError(422, "this game was cancelled")
            if live.status == EXPIRED:
                raise HubError(422, "the game expired: nobody played it for too long")
            if live.state.is_terminal():
                raise HubError(422, "the game is over")
            if live.seats[seat].stand_in:
                raise HubError(422, "a bot is playing your seat: take it back first")
            cp = live.state.current_player()
            if seat != cp:
                raise HubError(422, f"not your turn: Player {cp + 1} decides now")
            try:
                action = Action.parse(text)
            except ValueError as exc:
                raise HubError(422, str(exc)) from None
            move = live.state.move_on()
            texts = await self._commit(live, action)
            person = live.seats[seat]
            if person.held and move is not None and action == move.action:
                person.held = False  # moving on ends the hold: the seat is done acting
                live.notify_seat(seat)
            return texts

    async def _applied(
        self, live: LiveGame, seat: int, state_id: int, text: str
    ) -> list[str] | None:
        """The events of action ``text`` if ``seat`` made it at ``state_id`` (a repeat of an
        applied request); ``None`` otherwise. Caller holds live.lock."""
        history = live.state.history
        try:
            if not 0 <= state_id < len(history) or history[state_id] != Action.parse(text):
                return None
        except ValueError:
            return None
        st = live.state
        mover, events = await asyncio.to_thread(
            move_at, st.game_id, st.num_players, st.seed, st.options, history[: state_id + 1]
        )
        return events if mover == seat else None

    async def act_answer(
        self, live: LiveGame, seat: int, state_id: int | None, text: str
    ) -> dict[str, Any]:
        """:meth:`act`, answered as an action's answer is (``Applied`` without the view):
        the position reached, the game's status and the events in words."""
        events = await self.act(live, seat, state_id, text)
        return {"state_id": live.state_id, "status": live.status, "events": events}

    async def chat(self, live: LiveGame, seat: int, text: str) -> dict[str, Any]:
        """Post a person's chat message: stored with the game, then sent to every socket."""
        person = live.seats[seat]
        if person.chat in CHAT_STANDING:
            words = "muted you" if person.chat == MUTED else "removed you from it"
            raise HubError(403, f"the host {words}: your messages are not taken")
        clean = " ".join(text.split())
        if not clean:
            raise HubError(422, "a chat message needs some text")
        if len(clean) > CHAT_MAX_CHARS:
            raise HubError(422, f"a chat message is at most {CHAT_MAX_CHARS} characters")
        now = asyncio.get_running_loop().time()
        count, window = CHAT_BURST
        person.chatted = [t for t in person.chatted if now - t < window]
        if len(person.chatted) >= count:
            raise HubError(429, f"slow down: at most {count} messages in {window:g} seconds")
        if live.chat_count is None:
            live.chat_count = await asyncio.to_thread(self.storage.chat_count, live.id)
        if live.chat_count >= CHAT_MAX_MESSAGES:
            raise HubError(429, f"this game's chat is full ({CHAT_MAX_MESSAGES} messages)")
        person.chatted.append(now)
        live.chat_count += 1
        msg = await self.writer.run(self.storage.add_chat, live.id, seat, person.name, clean)
        told = Message({"type": "chat", **msg})
        for sub in list(live.subscribers):
            live._put(sub, told)
        return msg

    async def hint(self, live: LiveGame, seat: int, state_id: int) -> dict[str, Any]:
        """The advisor's answer for the person in ``seat`` at their decision at ``state_id``
        (issue 21; :mod:`meeple.bots.advisor`): each option with its chance of winning.

        The advisor works on a clone, in a thread, from futures it re-draws from what the seat
        may see: the answer carries nothing of the game's hidden deck order or dice. Refused
        when the host turned hints off (403), for a position that is not the seat's decision
        now (409), and beyond :attr:`Limits.hints_at_once` or a second one for the seat (429).
        """
        if not live.hints:
            raise HubError(403, "the host turned hints off for this game")
        if not live.advised:
            raise HubError(403, f"{live.state.game_id} has no advisor: its bots cannot search it")
        if live.status != ACTIVE:
            raise HubError(409, f"the game is {live.status}")
        if state_id != live.state_id:
            raise HubError(409, f"stale: the game is at position {live.state_id}, not {state_id}")
        person = live.seats[seat]
        if live.state.current_player() != seat or person.bot is not None:
            raise HubError(409, "a hint is for your own decision, and this one is not yours")
        if person.advising:
            raise HubError(429, "your hint is being worked out: wait for it")
        state = live.state.clone()
        person.advising = True
        try:
            advice = await self.advisor_work(
                functools.partial(advise, state, seat, seconds=DEFAULT_SECONDS, seed=state_id)
            )
        except AdviceError as exc:
            raise HubError(409, str(exc)) from None
        finally:
            person.advising = False
        return {"state_id": state_id, **advice.as_dict()}

    async def advisor_work(self, work: Callable[..., T], *args: Any) -> T:
        """Run the advisor's ``work(*args)`` in a thread, at most :attr:`Limits.hints_at_once`
        at a time on the server (each takes a core for seconds); 429 beyond."""
        most = self.limits.hints_at_once
        if most is not None and self.advising >= most:
            self.limit_hits["hints_at_once"] += 1
            raise HubError(429, "the advisor is busy with other tables: ask again in a moment")
        self.advising += 1
        try:
            return await asyncio.to_thread(work, *args)
        finally:
            self.advising -= 1

    async def log_of(self, live: LiveGame) -> list[list[str]]:
        """The game's log: every action's events in words, the same for every reader."""
        if live.log is None:
            async with live.lock:  # no action is committed while the log is made
                if live.log is None:
                    st = live.state
                    live.log = await asyncio.to_thread(
                        event_log, st.game_id, st.num_players, st.seed, st.options, list(st.history)
                    )
        return live.log

    async def auto_play(
        self, live: LiveGame, seat: int, state_id: int, action: Action, pace: float = 0.0
    ) -> bool:
        """Play ``action`` for the person in ``seat`` without asking (meeple.kernel.asking), if
        the game is still at ``state_id`` and still moves on with it, at ``pace``
        (:func:`pause_before`); whether it was played."""
        async with live.lock:
            if live.state_id != state_id:
                return False
            move = live.auto(seat)
            if move is None or move.action != action:
                return False
            work, events = self._on_copy(live, action)
            wait = pause_before(pace, live.state, action, bool(events))
            if wait <= 0:
                await self._store(live, action, work, events, "")
                return True
        await asyncio.sleep(wait)  # the table's pace, the lock free: the person may still act
        async with live.lock:
            if not self._still(live, state_id) or live.auto(seat) != move:
                return False
            await self._store(live, action, work, events, "")
            return True

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

    async def bot_move(self, live: LiveGame, seat: int, pace: float = 0.0) -> bool:
        """Let the bot in ``seat`` move if it is its decision, at ``pace`` (:func:`pause_before`);
        whether it moved. The bot chooses holding the game's lock (the position cannot change
        under it); the pause is taken with the lock free, and the move stored only if the game
        is still where the bot chose."""
        async with live.lock:
            state = live.state
            if state.is_terminal() or state.current_player() != seat:
                return False
            player = live.seats[seat]
            bot = player.bot
            if bot is None:
                return False
            position = len(state.history)
            if player.chosen is not None and player.chosen[0] == position:
                action = player.chosen[1]  # chosen before, not stored: not asked twice
            else:
                try:
                    # In a worker thread: a searching bot (mcts) may think for a second, and
                    # the event loop must keep serving every other game meanwhile. The state
                    # cannot change under it: every change to a game is made holding its lock,
                    # held here.
                    action = await asyncio.to_thread(bot.choose, state)
                except Exception:
                    log.exception(
                        "bot %s of game %s failed; it takes the first legal action", seat, live.id
                    )
                    action = state.legal_actions()[0]
            # Why it chose so, for the pages that show bots' reasons (words, not a hot path:
            # a server's bots play at people's pace); on the position it chose in.
            try:
                reason = bot.explain(state, action)
            except Exception:
                log.exception("bot %s of game %s could not explain %s", seat, live.id, action)
                reason = ""
            why = f"{live.seats[seat].name}: {reason}" if reason else ""
            # Chosen, and kept until stored: a bot is asked once for each decision, as a resume
            # replays it, whatever happens to the move before it is stored.
            player.chosen = (position, action)
            work, events = self._on_copy(live, action)
            wait = pause_before(pace, state, action, bool(events))
            if wait <= 0:
                await self._store(live, action, work, events, why)
                player.chosen = None
                return True
        # The table's pace, the lock free: a person may take their seat back or hold the table
        # meanwhile without waiting on the pause; the move goes only if nothing changed.
        await asyncio.sleep(wait)
        async with live.lock:
            if not self._still(live, position) or player.bot is not bot:
                return False
            await self._store(live, action, work, events, why)
            player.chosen = None
            return True

    async def _commit(self, live: LiveGame, action: Action, why: str = "") -> list[str]:
        """Apply ``action``, store it and publish it (caller holds ``live.lock``): its events
        in words; ``HubError`` 422 for an illegal action, 503 when the store failed."""
        work, events = self._on_copy(live, action)
        return await self._store(live, action, work, events, why)

    def _on_copy(self, live: LiveGame, action: Action) -> tuple[GameState, Sequence[Event]]:
        """``action`` applied to a copy of the game, and its events (caller holds
        ``live.lock``): the live state changes only once the action is committed."""
        spare, live.spare = live.spare, None
        work = live.state.clone() if spare is None else live.state.copy_into(spare)
        work.record_events = True
        try:
            events = work.apply(action)
        except IllegalActionError as exc:
            live.spare = work  # nobody else saw it: the next copy's storage
            raise HubError(422, exc.reason) from None
        except Exception as exc:  # an engine failure must not take the server down
            log.exception("game %s cannot apply %s", live.id, action)
            raise HubError(422, f"the game cannot apply {str(action)!r}: {exc}") from None
        return work, events

    def _still(self, live: LiveGame, position: int) -> bool:
        """Whether ``live`` is still this process's game in play at ``position`` (after a
        pause with its lock free: nobody moved, cancelled it or took it elsewhere)."""
        return live.state_id == position and self.games.get(live.id) is live and not live.stage

    async def _store(
        self, live: LiveGame, action: Action, work: GameState, events: Sequence[Event], why: str
    ) -> list[str]:
        """Store ``action``, applied in ``work`` with ``events``, and publish it once
        committed (caller holds ``live.lock``): its events in words."""
        index = len(work.history) - 1
        status = FINISHED if work.is_terminal() else ACTIVE
        texts: list[str] = []

        def publish() -> None:  # runs once the action is committed, and only then
            # The replaced position becomes the spare, overwritten by the next action's copy:
            # nothing may keep it past this point (every reader reads live.state afresh, and
            # bots read it only under live.lock), and its view texts go with it.
            live.spare, live.state = live.state, work
            live.reached = time.monotonic()
            live.texts_of = None
            texts.extend(work.describe(e) for e in events)
            if live.log is not None and len(live.log) == index:
                live.log.append(texts)
            live.lapse_proxies()
            live.broadcast(texts, why)
            live.changed.set()

        try:
            await self.writer.append(ActionWrite(live.id, index, str(action), status), publish)
        except IntegrityError:
            # Another process stored an action at this index: it took the game over while
            # this one, stalled, held it without knowing. The stored game is the game: let go
            # of this copy (its sockets reconnect), and whoever is asked next replays it.
            log.warning("game %s: action %d is stored by another process already", live.id, index)
            self.drop(live.id)
            self.ownership.released(live.id)
            raise HubError(503, "the game moved to another server process; try again") from None
        except Exception:
            log.exception("game %s: cannot store action %d", live.id, index)
            raise HubError(503, "the database did not accept the action; try again") from None
        return texts

    def subscribe(
        self, live: LiveGame, seat: int | None, sub: Subscriber | None = None
    ) -> Subscriber:
        """Add a listener of ``live`` for ``seat`` (``sub``, or a new one)."""
        sub = Subscriber(seat) if sub is None else sub
        live.subscribers.append(sub)
        live.changed.set()  # a paused all-bot game plays again
        if seat is not None:
            person = live.seats[seat]
            person.sockets += 1
            if person.sockets == 1:
                live.broadcast_seats(skip=sub)  # here again: everyone else sees it
            if person.idle:
                task = asyncio.create_task(self.welcome_back(live, seat))
                self.side_tasks.add(task)
                task.add_done_callback(self.side_tasks.discard)
        return sub

    def unsubscribe(self, live: LiveGame, sub: Subscriber) -> None:
        with contextlib.suppress(ValueError):
            live.subscribers.remove(sub)
        if sub.seat is not None:
            person = live.seats[sub.seat]
            person.sockets -= 1
            if person.sockets <= 0:
                # Nobody is left to act on a hold: a closed tab must not stall the table. The
                # person is away from now (everyone sees it; their away timer runs).
                person.held = False
                person.away_since = time.monotonic()
                live.broadcast_seats()
                live.changed.set()

    async def rematch(
        self, live: LiveGame, seat: int, client: Client | None = None
    ) -> tuple[LiveGame, bool, str | None]:
        """The rematch of finished game ``live``, whether this call started it, and a token for
        person's seat ``seat`` (the asker's) in it: ``None`` if that seat's was given already.

        The same game id, options and seats: people keep their names, ask settings and chat
        standing, bots their kinds and names; the host's key and the lobby listing carry over;
        the seed is new. Each person's seat has a new token, given once (docs/SERVER.md,
        "Tokens"): the old game's tokens open nothing in it. Made now, the asker's and those of
        the people whose page is open on ``live`` are given at once, each person's sockets
        told ``{"type": "rematch", "id", "token"}`` (spectators: the id alone); another person
        asks later with their old token (:meth:`claim`). A game that started from a position
        starts there again with its hidden future (dice, decks' order) re-drawn from the new
        seed (``options["redraw"]``): the position holds the random state, so a new seed alone
        would deal the same dice again. Made once, under the game's lock, within ``client``'s
        share as a new game is (:meth:`quota`): later calls return the same game.
        """
        async with live.lock:
            if live.rematch is not None:
                new = await self.get(live.rematch)
                return new, False, await self.claim(new, seat)
            if live.status != FINISHED:
                raise HubError(422, f"the game is {live.status}: a rematch comes after its end")
            old = live.state
            stored = await asyncio.to_thread(self.storage.load_game, live.id)
            listed = True if stored is None else stored.listed
            seats = [s.stored() for s in live.seats]
            tokens: dict[int, str] = {}
            for st in seats:
                if st.kind == "human":
                    here = st.seat == seat or live.seats[st.seat].sockets > 0
                    token = tokens[st.seat] = new_token() if here else ""
                    st.token_hash = hash_token(token) if token else ""
            seed = secrets.randbits(63)
            family = live.family or old.family
            options = dict(old.options)
            options.pop(RULESET, None)  # a new game plays today's rules
            if POSITION in options:
                options["redraw"] = seed
            try:
                state = new_game(old.game_id, old.num_players, seed, options)
                live_seats = [_seat(st, family, seed) for st in seats]
            except (MeepleError, ValueError) as exc:
                raise HubError(422, str(exc)) from None
            gid = await self._store_new(
                functools.partial(
                    self.storage.create_game,
                    old.game_id,
                    old.num_players,
                    seed,
                    state.options,
                    seats,
                    host_hash=live.host_hash,
                    listed=listed,
                    turn_timer=live.turn_timer,
                    hints=live.hints,
                ),
                self.quota(client),
            )
            await self.writer.run(self.storage.set_rematch, live.id, gid)
            await self.ownership.claim(gid)
            new = LiveGame(
                gid,
                state,
                live_seats,
                host_hash=live.host_hash,
                family=family,
                turn_timer=live.turn_timer,
                away_timer=self.away_timer,
                hints=live.hints,
            )
            self.games[gid] = new
            self._start_table(new)
            live.rematch = gid
            told = Message({"type": "rematch", "id": gid})
            for sub in list(live.subscribers):
                given = "" if sub.seat is None else tokens.get(sub.seat, "")
                mine = Message({"type": "rematch", "id": gid, "token": given}) if given else told
                live._put(sub, mine)
            return new, True, tokens.get(seat) or None

    async def claim(self, live: LiveGame, seat: int) -> str | None:
        """The token of person's seat ``seat`` of rematch ``live``, if none was given yet
        (:meth:`rematch`); ``None`` otherwise."""
        async with live.lock:
            if live.seats[seat].kind != "human" or live.seats[seat].token_hash:
                return None
            return await self._new_token(live, seat)

    async def reissue(self, live: LiveGame, token: str, seat: int) -> str:
        """A new token for person's seat ``seat``; the old one opens nothing from now on: its
        requests get 403, and its sockets are told ``{"type": "revoked", "seat", "detail"}``
        and closed. The host may do it for any person's seat (a link that went astray), a person
        for their own."""
        if not 0 <= seat < len(live.seats) or live.seats[seat].kind != "human":
            raise HubError(422, f"seat {seat + 1} is not a person's seat")
        if not live.is_host(token) and live.seat_of(token) != seat:
            raise HubError(403, "only the host or the seat's own player may do that")
        async with live.lock:
            return await self._new_token(live, seat)

    async def _new_token(self, live: LiveGame, seat: int) -> str:
        """Give person's seat ``seat`` a new token, stored first (caller holds ``live.lock``);
        the sockets of the old one are closed."""
        person = live.seats[seat]
        token = new_token()
        stored = person.stored()
        stored.token_hash = hash_token(token)
        await self.writer.run(self.storage.set_seat, live.id, stored)
        had = bool(person.token_hash)
        person.token_hash = stored.token_hash
        if had:
            told = Message(
                {
                    "type": "revoked",
                    "seat": seat,
                    "detail": "this seat has a new link: the one this page has opens it no more",
                }
            )
            for sub in list(live.subscribers):
                if sub.seat == seat:
                    live._put(sub, told)
                    self.unsubscribe(live, sub)
                    sub.seat = None  # an action still on its way is a spectator's: refused
                    end_queue(sub.queue)
        return token

    async def moderate(self, live: LiveGame, host: str, seat: int, standing: str | None) -> None:
        """The host mutes a person in the game's chat (``MUTED``: their messages refused),
        removes them (``REMOVED``: refused, and those they sent hidden from everyone), or lets
        them chat again (``None``). Stored with the seat; every socket is told
        ``{"type": "moderated", "seat", "chat"}`` (a page reloads the chat)."""
        live.check_host(host)
        if not 0 <= seat < len(live.seats) or live.seats[seat].kind != "human":
            raise HubError(422, f"seat {seat + 1} is not a person's seat: only people chat")
        if standing is not None and standing not in CHAT_STANDING:
            raise HubError(422, f"chat: {standing!r} is not one of {', '.join(CHAT_STANDING)}")
        async with live.lock:
            person = live.seats[seat]
            stored = person.stored()
            stored.chat = standing
            await self.writer.run(self.storage.set_seat, live.id, stored)
            person.chat = standing
        told = Message({"type": "moderated", "seat": seat, "chat": standing})
        for sub in list(live.subscribers):
            live._put(sub, told)
        live.broadcast_seats()
