"""Who is at a game's table: sockets coming and going, and the standard bot standing in.

A person counts as here while one of their pages (a WebSocket of their seat) is open, and as
away from the moment the last one closes. A seat handed to the standard bot (by the host, the
person, another person after :data:`meeple.server.seats.HANDOVER_AFTER`, or their timer:
:meth:`Presence.time_out`) is the person's again when they take it back, or, if they were away,
as soon as one of their pages opens (:meth:`Presence.welcome_back`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING

from meeple.server.live import LiveGame, Subscriber
from meeple.server.seats import stand_in_bot
from meeple.server.storage import ACTIVE

if TYPE_CHECKING:
    from meeple.server.hub import Hub

log = logging.getLogger("meeple.server")


class Presence:
    """The hub's sockets of each seat, and who plays a person's seat while they are not."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

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
                self.hub.side_tasks.add(task)
                task.add_done_callback(self.hub.side_tasks.discard)
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

    async def hand_over(self, live: LiveGame, seat: int, on: bool, idle: bool = False) -> None:
        """Hand person's ``seat`` to the standard bot (``on``) or back to them; ``idle``: the
        bot stands in only until their page opens again (:meth:`welcome_back`)."""
        # Caller holds live.lock.
        person = live.seats[seat]
        was_idle, person.idle = person.idle, on and idle
        if person.stand_in == on:
            if person.idle != was_idle:  # stored: a resumed game still hands the seat back
                await self.hub.writer.run(self.hub.storage.set_seat, live.id, person.stored())
            return
        person.stand_in = on
        person.held = False
        person.stand_in_at = live.state_id if on else None
        person.chosen = None
        person.bot = stand_in_bot(live.family, live.state.seed, seat, live.state_id) if on else None
        await self.hub.writer.run(self.hub.storage.set_seat, live.id, person.stored())
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
            await self.hand_over(live, seat, True, idle=True)
            log.info("game %s: seat %d timed out; the standard bot plays it", live.id, seat)
            return True

    async def welcome_back(self, live: LiveGame, seat: int) -> None:
        """A person whose seat the timer (or another player, while they were away) gave to a
        bot opened their page: it is theirs again, and their turn timer starts afresh."""
        async with live.lock:
            if live.seats[seat].idle:
                live.seats[seat].back_at = time.monotonic()
                await self.hand_over(live, seat, False)
