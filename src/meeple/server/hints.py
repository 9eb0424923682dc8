"""Hints: the advisor's answer for a person's decision (issue 21; :mod:`meeple.bots.advisor`),
worked out in a thread, a few at a time on the server."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from meeple.bots.advisor import DEFAULT_SECONDS, AdviceError, advise
from meeple.server.errors import HubError
from meeple.server.live import LiveGame
from meeple.server.storage import ACTIVE

if TYPE_CHECKING:
    from meeple.server.hub import Hub

T = TypeVar("T")


class Hints:
    """The hub's advisor: hints for people, at most ``Limits.hints_at_once`` at a time."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.advising = 0  # hints being worked out now (Limits.hints_at_once)

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
        most = self.hub.limits.hints_at_once
        if most is not None and self.advising >= most:
            self.hub.limit_hits["hints_at_once"] += 1
            raise HubError(429, "the advisor is busy with other tables: ask again in a moment")
        self.advising += 1
        try:
            return await asyncio.to_thread(work, *args)
        finally:
            self.advising -= 1
