"""A live game: its position, seats and sockets, and what it tells them.

A :class:`LiveGame` is held in memory by the hub (:class:`meeple.server.hub.Hub`), which alone
changes it (every change under its :attr:`LiveGame.lock`). What it sends its subscribers is
made here: each seat's view and choices once for each position, queued on each socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import time
from dataclasses import dataclass, field
from typing import Any

from meeple.kernel.asking import PROXY, ROLL, auto_move, countdown
from meeple.kernel.family import family_of_state
from meeple.kernel.protocol import Action, GameState, MoveOn
from meeple.server.errors import HubError
from meeple.server.seats import HANDOVER_AFTER, Seat
from meeple.server.storage import ACTIVE, FINISHED, hash_token
from meeple.server.wire import Message, dumps, join_objects

QUEUE_LIMIT = 1000

WATCH_SECONDS = 30.0
"""An all-bot game plays on this long after the last request for it with no socket open."""


@dataclass
class Subscriber:
    """A WebSocket listener: a seat, or ``None`` for a spectator. ``None`` in the queue ends
    it; ``moved`` says the game went to another server process (the client reconnects)."""

    seat: int | None
    queue: asyncio.Queue[dict[str, Any] | None] = field(
        default_factory=lambda: asyncio.Queue(QUEUE_LIMIT)
    )
    moved: bool = False


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
        # A new position is a new state (Moves.store): the texts of the last one go.
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
