"""A seat of a live game: who sits there, their wishes and presence, and the bot that may play it.

Also the table's timers that a seat's presence runs (docs/SERVER.md, "A table that never
stalls"), and the standard bot that stands in for a person (:func:`stand_in_bot`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from meeple.bots.base import Bot, make_bot
from meeple.kernel.asking import AskSettings
from meeple.kernel.protocol import Action
from meeple.kernel.rng import derive_seed
from meeple.server.errors import HubError
from meeple.server.names import given_name
from meeple.server.storage import StoredSeat

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


def live_seat(st: StoredSeat, family: str, seed: int) -> Seat:
    """The live seat of a stored one: its bot (a bot's seat, or a stand-in's) made afresh."""
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
