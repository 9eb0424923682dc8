"""The table of a server game: one background task per game that keeps play moving.

It plays the bot seats at the server's pace, and for a person it plays the one answer that
moves the table on (``pass`` in another player's turn, ``end_turn``, ``roll``, a forced
action) once their grace time has run out without them acting or holding the table, when their
settings say not to ask them (:mod:`meeple.kernel.asking`). Every such move goes through the
same path as a click: applied, committed, then broadcast, so a game replayed from its stored
actions is the same game.

A bot's seed is ``derive_seed(game seed, 1 + seat)``, so a server game with the same seed and
bots plays out as the simulator would play it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from meeple.kernel.asking import PROXY
from meeple.server.hub import HubError

if TYPE_CHECKING:
    from meeple.server.hub import Hub, LiveGame

log = logging.getLogger("meeple.server")

RETRY_SECONDS = 1.0
SLOT_WAIT = 1.0
"""How often an all-bot game waiting for a free slot looks again (seconds)."""


async def _may_play(hub: Hub, live: LiveGame, now: float) -> bool:
    """An all-bot game plays only while someone watches, and only so many at once: otherwise
    wait (for a watcher, a free slot, or the watch to lapse) and say no."""
    if not live.watched(now):
        hub.bot_games.discard(live.id)
        await live.changed.wait()  # set by a request for the game or a new socket
        return False
    if live.id not in hub.bot_games:
        if len(hub.bot_games) >= hub.lifecycle.max_bot_games:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(live.changed.wait(), SLOT_WAIT)
            return False
        hub.bot_games.add(live.id)
    return True


async def run_table(hub: Hub, live: LiveGame) -> None:
    """Play ``live``'s bots and people's automatic moves until the game ends; with a turn
    timer, give a person's seat to the standard bot when a decision waits too long."""
    loop = asyncio.get_running_loop()
    timing: tuple[int, int] = (-1, -1)  # the (position, seat) the turn timer counts for
    started = 0.0
    while True:
        # Nothing below awaits before the wait, so a change cannot slip in between.
        live.changed.clear()
        state = live.state
        if state.is_terminal() or live.stage:  # over, cancelled, expired (or not started)
            hub.bot_games.discard(live.id)
            return
        if live.all_bots and not await _may_play(hub, live, loop.time()):
            continue
        cp = state.current_player()
        seat = live.seats[cp] if 0 <= cp < len(live.seats) else None
        if seat is not None and seat.bot is not None:
            await asyncio.sleep(hub.bot_pace)
            try:
                await hub.bot_move(live, cp)
            except HubError as exc:
                log.warning("game %s: bot move refused (%s); retrying", live.id, exc.detail)
                await asyncio.sleep(RETRY_SECONDS)
            continue
        move = live.auto(cp)
        if move is None or seat is None or (seat.ask is None and move.moment != PROXY):
            # A person decides: wait for anything to change, or for the turn timer.
            if seat is None or live.turn_timer is None or seat.kind != "human":
                await live.changed.wait()
                continue
            position = len(state.history)
            if timing != (position, cp):
                timing, started = (position, cp), loop.time()
            left = live.turn_timer - (loop.time() - started)
            if left <= 0:
                await hub.time_out(live, cp, position)
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(live.changed.wait(), left)
            continue
        # The grace time (a standing bid goes at a bot's pace): the person may still act,
        # hold the table or change settings.
        wait = hub.bot_pace if move.moment == PROXY or seat.ask is None else seat.ask.grace
        try:
            await asyncio.wait_for(live.changed.wait(), wait)
            continue
        except TimeoutError:
            pass
        try:
            await hub.auto_play(live, cp, len(state.history), move.action)
        except HubError as exc:
            log.warning("game %s: automatic move refused (%s); retrying", live.id, exc.detail)
            await asyncio.sleep(RETRY_SECONDS)
