"""How a live game changes: a person's action, and the one path every move takes to storage.

Every change follows one order, under the game's lock: apply the action to a copy of the state
(:meth:`Moves.on_copy`), commit it to the database, then make the copy the live state and tell
the subscribers (:meth:`Moves.store`). A client is never told of an action the database does
not hold, and an action the database refused never shows.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import IntegrityError

from meeple.kernel.errors import IllegalActionError
from meeple.kernel.protocol import Action, Event, GameState
from meeple.server.errors import HubError
from meeple.server.live import LiveGame
from meeple.server.replay import event_log, move_at
from meeple.server.storage import (
    ACTIVE,
    CANCELLED,
    EXPIRED,
    FINISHED,
    WAITING,
    ActionWrite,
)

if TYPE_CHECKING:
    from meeple.server.hub import Hub

log = logging.getLogger("meeple.server")


class Moves:
    """The hub's moves: a seat's action checked and applied, and every move's copy, commit and
    publication (the table's paced moves, :mod:`meeple.server.pacing`, end here too)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    async def act(self, live: LiveGame, seat: int, state_id: int | None, text: str) -> list[str]:
        """Apply a seat's action; returns the events in words. Raises :class:`HubError`.

        The same action sent again at the same ``state_id`` by the same seat, once applied
        (the first answer was lost: a timeout, a server process that died while answering),
        is answered as applied, with that action's events, and not applied again."""
        async with live.lock:
            if state_id is not None and state_id != live.state_id:
                events = await self.applied(live, seat, state_id, text)
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
            texts = await self.commit(live, action)
            person = live.seats[seat]
            if person.held and move is not None and action == move.action:
                person.held = False  # moving on ends the hold: the seat is done acting
                live.notify_seat(seat)
            return texts

    async def applied(
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

    async def commit(self, live: LiveGame, action: Action, why: str = "") -> list[str]:
        """Apply ``action``, store it and publish it (caller holds ``live.lock``): its events
        in words; ``HubError`` 422 for an illegal action, 503 when the store failed."""
        work, events = self.on_copy(live, action)
        return await self.store(live, action, work, events, why)

    def on_copy(self, live: LiveGame, action: Action) -> tuple[GameState, Sequence[Event]]:
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

    def still(self, live: LiveGame, position: int) -> bool:
        """Whether ``live`` is still this process's game in play at ``position`` (after a
        pause with its lock free: nobody moved, cancelled it or took it elsewhere)."""
        return live.state_id == position and self.hub.games.get(live.id) is live and not live.stage

    async def store(
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
            await self.hub.writer.append(ActionWrite(live.id, index, str(action), status), publish)
        except IntegrityError:
            # Another process stored an action at this index: it took the game over while
            # this one, stalled, held it without knowing. The stored game is the game: let go
            # of this copy (its sockets reconnect), and whoever is asked next replays it.
            log.warning("game %s: action %d is stored by another process already", live.id, index)
            self.hub.drop(live.id)
            self.hub.ownership.released(live.id)
            raise HubError(503, "the game moved to another server process; try again") from None
        except Exception:
            log.exception("game %s: cannot store action %d", live.id, index)
            raise HubError(503, "the database did not accept the action; try again") from None
        return texts
