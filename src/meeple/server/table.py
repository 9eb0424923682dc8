"""The table of a server game: one background task per game that keeps play moving.

It plays the bot seats at the server's pace (:func:`meeple.server.pacing.pause_before`), and for a
person it plays the one answer that moves the table on (``pass`` in another player's turn,
``end_turn``, ``roll``, a forced action) when their settings say not to ask them
(:mod:`meeple.kernel.asking`): at once where they have nothing to decide, after their countdown
at their own roll and end of turn if they set one. A decision that waits on a person longer
than their timer goes to the standard bot (docs/SERVER.md, "A table that never stalls"). Every
such move goes through the same path as a click: applied, committed, then broadcast, so a game
replayed from its stored actions is the same game.

A bot's seed is ``derive_seed(game seed, 1 + seat)``, so a server game with the same seed and
bots plays out as the simulator would play it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING

from meeple.kernel.asking import PROXY, countdown
from meeple.server.errors import HubError

if TYPE_CHECKING:
    from meeple.server.hub import Hub
    from meeple.server.live import LiveGame

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
    """Play ``live``'s bots and people's automatic moves until the game ends; when a decision
    waits on a person past their timer (:meth:`LiveGame.deadline`: the turn timer, or the
    away timer while they are away), give their seat to the standard bot."""
    while True:
        # Nothing below awaits before the wait, so a change cannot slip in between.
        live.changed.clear()
        state = live.state
        if state.is_terminal() or live.stage:  # over, cancelled, expired (or not started)
            hub.bot_games.discard(live.id)
            return
        if live.all_bots and not await _may_play(hub, live, asyncio.get_running_loop().time()):
            continue
        cp = state.current_player()
        position = len(state.history)
        seat = live.seats[cp] if 0 <= cp < len(live.seats) else None
        if seat is not None and seat.bot is not None:
            try:
                await hub.bot_move(live, cp, hub.bot_pace)
            except HubError as exc:
                log.warning("game %s: bot move refused (%s); retrying", live.id, exc.detail)
                await asyncio.sleep(RETRY_SECONDS)
            continue
        move = live.auto(cp)
        if move is None or seat is None:
            # A person decides: wait for anything to change, or for their timer.
            end = live.deadline(cp)
            if end is None:
                await live.changed.wait()
                continue
            left = end - time.monotonic()
            if left <= 0:
                await hub.time_out(live, cp, position)
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(live.changed.wait(), left)
            continue
        # A countdown only where the person could want to act first (their own roll or end of
        # turn, with a grace set); the person may still act, hold the table or change settings.
        wait = 0.0 if move.moment == PROXY else countdown(move, seat.ask)
        if wait > 0:
            try:
                await asyncio.wait_for(live.changed.wait(), wait)
                continue
            except TimeoutError:
                pass
        try:
            # After a countdown the move goes at once; otherwise at the table's pace.
            pace = 0.0 if wait > 0 else hub.bot_pace
            await hub.auto_play(live, cp, position, move.action, pace)
        except HubError as exc:
            log.warning("game %s: automatic move refused (%s); retrying", live.id, exc.detail)
            await asyncio.sleep(RETRY_SECONDS)
