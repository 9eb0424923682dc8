"""Bots on the server: one background task per game plays its bot seats at the server's pace.

A bot's move goes through :meth:`Hub.bot_move`, the same path as a person's: applied, committed,
then broadcast. A bot's seed is ``derive_seed(game seed, 1 + seat)``, so a server game with the
same seed and bots plays out as the simulator would play it.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from meeple.server.hub import HubError

if TYPE_CHECKING:
    from meeple.server.hub import Hub, LiveGame

log = logging.getLogger("meeple.server")

RETRY_SECONDS = 1.0


async def run_bots(hub: Hub, live: LiveGame) -> None:
    """Play ``live``'s bot seats until the game ends (waits while a person decides)."""
    while True:
        state = live.state
        if state.is_terminal():
            return
        cp = state.current_player()
        seat = live.seats[cp] if 0 <= cp < len(live.seats) else None
        if seat is None or seat.bot is None:
            live.changed.clear()
            if live.state is state:  # nothing changed since we looked
                await live.changed.wait()
            continue
        await asyncio.sleep(hub.bot_pace)
        try:
            await hub.bot_move(live, cp)
        except HubError as exc:
            log.warning("game %s: bot move refused (%s); retrying", live.id, exc.detail)
            await asyncio.sleep(RETRY_SECONDS)
