"""The table's pace: how long the table waits before a move it plays by itself, and those moves.

A bot's move and a person's automatic move (:mod:`meeple.kernel.asking`) are chosen holding the
game's lock, then wait their pause (:func:`pause_before`) with the lock free, and are stored only
if the game is still where they were chosen (docs/SERVER.md, "The table's pace").
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from meeple.kernel.asking import ROLL
from meeple.kernel.protocol import Action, GameState
from meeple.server.live import LiveGame

if TYPE_CHECKING:
    from meeple.server.hub import Hub

log = logging.getLogger("meeple.server")

TURN_BEAT = 3.0
"""A turn's first roll, played by the table (a bot's, or the person's own roll with nothing to
weigh), waits this many paces (``bot_pace``): time to follow the turn before it on the board
and in the log. Other moves that show something wait one pace; moves that show nothing (a pass
in another player's turn, the end of a turn) none."""


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


class Pacing:
    """The moves the table (:func:`meeple.server.table.run_table`) plays at its pace: a bot's,
    and a person's automatic move."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

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
            work, events = self.hub.moves.on_copy(live, action)
            wait = pause_before(pace, live.state, action, bool(events))
            if wait <= 0:
                await self.hub.moves.store(live, action, work, events, "")
                return True
        await asyncio.sleep(wait)  # the table's pace, the lock free: the person may still act
        async with live.lock:
            if not self.hub.moves.still(live, state_id) or live.auto(seat) != move:
                return False
            await self.hub.moves.store(live, action, work, events, "")
            return True

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
            work, events = self.hub.moves.on_copy(live, action)
            wait = pause_before(pace, state, action, bool(events))
            if wait <= 0:
                await self.hub.moves.store(live, action, work, events, why)
                player.chosen = None
                return True
        # The table's pace, the lock free: a person may take their seat back or hold the table
        # meanwhile without waiting on the pause; the move goes only if nothing changed.
        await asyncio.sleep(wait)
        async with live.lock:
            if not self.hub.moves.still(live, position) or player.bot is not bot:
                return False
            await self.hub.moves.store(live, action, work, events, why)
            player.chosen = None
            return True
