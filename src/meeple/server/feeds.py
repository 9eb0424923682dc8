"""What a game's WebSocket reads from: a feed of the game's messages for one seat or spectator.

A socket is served by whichever process the client reached. When that process holds the game,
its feed is a :class:`LocalFeed` over the hub's subscriber; when another process holds it (more
than one process: :mod:`meeple.server.cluster`), a remote feed relays the owner's messages
through Redis. The socket handler (:class:`meeple.server.routes.sockets.GameSocket`) sees only this
interface, so both serve a client alike.
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from meeple.server.hub import Hub, HubError, LiveGame

SPECTATOR_ACTS = "this socket watches: send auth with your seat's token before acting"


class Feed(Protocol):
    """The messages of one game for one listener, starting with :attr:`hello`."""

    hello: dict[str, Any]
    """The first message: the position when the feed opened."""

    @property
    def seat(self) -> int | None:
        """The seat listened for (``None``: a spectator)."""

    @property
    def queue(self) -> asyncio.Queue[dict[str, Any] | None]:
        """The messages after the hello, in order; ``None`` ends the feed."""

    @property
    def moved(self) -> bool:
        """Whether the feed ended because another process serves the game now."""

    async def auth(self, token: str) -> dict[str, Any]:
        """Listen as the seat whose token this is from now on (403 otherwise); its hello."""

    async def act(self, state_id: int, action: str) -> dict[str, Any]:
        """Apply ``action`` for the feed's seat at position ``state_id``, as ``POST /actions``
        does; the answer (``state_id``, ``status``, ``events``) once it is stored and its
        update queued on this feed. Raises :class:`HubError` (403 for a spectator's feed)."""

    def close(self) -> None:
        """Stop listening (the socket closed)."""


class LocalFeed:
    """A feed of a game this process holds: a subscriber of the hub."""

    def __init__(self, hub: Hub, live: LiveGame, seat: int | None) -> None:
        # Subscribing and making the hello with no await between them, so the hello and the
        # updates queued after it never miss or repeat an action.
        self.hub = hub
        self.live = live
        self.sub = hub.subscribe(live, seat)
        self.hello = live.hello(seat)

    @property
    def seat(self) -> int | None:
        return self.sub.seat

    @property
    def queue(self) -> asyncio.Queue[dict[str, Any] | None]:
        return self.sub.queue

    @property
    def moved(self) -> bool:
        return self.sub.moved

    async def auth(self, token: str) -> dict[str, Any]:
        seat = self.live.seat_of(token)
        self.hub.unsubscribe(self.live, self.sub)
        self.sub = self.hub.subscribe(self.live, seat)
        return self.live.hello(seat)

    async def act(self, state_id: int, action: str) -> dict[str, Any]:
        seat = self.sub.seat
        if seat is None:
            raise HubError(403, SPECTATOR_ACTS)
        return await self.hub.act_answer(self.live, seat, state_id, action)

    def close(self) -> None:
        self.hub.unsubscribe(self.live, self.sub)


async def local_feed(hub: Hub, gid: str, token: str | None) -> LocalFeed:
    """A feed of game ``gid`` held here, for ``token``'s seat or a spectator (``None``)."""
    live = await hub.get(gid)
    seat = None if token is None else live.seat_of(token)
    return LocalFeed(hub, live, seat)
