"""The sockets of other processes that follow games held here (:mod:`meeple.server.cluster`).

Such a socket subscribes here, at the game's owner, like a local one; its messages are published
to the process it is connected to, which puts them on the socket (``RemoteFeed``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from meeple.server.errors import HubError
from meeple.server.feeds import SPECTATOR_ACTS
from meeple.server.live import LiveGame, Subscriber
from meeple.server.wire import text_of

if TYPE_CHECKING:
    from meeple.server.hub import Hub

FEED = "F:"
"""How a socket's message between processes starts: ``F:<socket id> <moved 0|1>\n<text>`` (the
text as the owner would send it on the socket; none: the feed ended). Other messages are JSON
objects."""
FEED_BYTES = FEED.encode("ascii")


class RelayQueue(asyncio.Queue[dict[str, Any] | None]):
    """The queue of a socket served by another process: each message is published to it."""

    def __init__(self, send: Callable[[dict[str, Any] | None], None]) -> None:
        super().__init__()
        self.send = send

    def put_nowait(self, item: dict[str, Any] | None) -> None:
        self.send(item)


class Relayed:
    """The subscriptions of sockets held by other processes, by socket id: each published to
    its process with ``post_text`` (in order with the process's other messages)."""

    def __init__(self, hub: Hub, post_text: Callable[[str, str], None]) -> None:
        self.hub = hub
        self.post_text = post_text
        self.remote: dict[str, tuple[LiveGame, Subscriber, str]] = {}  # sockets elsewhere

    def sub(self, live: LiveGame, seat: int | None, proc: str, sid: str) -> Subscriber:
        def send(item: dict[str, Any] | None) -> None:
            # The message's own text, as this process would send it on a socket (made once for
            # all its sockets), behind a line that says whose it is: no JSON of a view again.
            head = f"{FEED}{sid} {int(sub.moved)}\n"
            self.post_text(proc, head + ("" if item is None else text_of(item)))
            if item is None:  # the hub ended it (the game moved, or the server stops)
                self.remote.pop(sid, None)

        sub = Subscriber(seat, RelayQueue(send))
        self.hub.subscribe(live, seat, sub)
        self.remote[sid] = (live, sub, proc)
        return sub

    async def subscribe(self, msg: dict[str, Any]) -> dict[str, Any]:
        live = await self.hub.get(msg["gid"])
        token = msg["token"]
        seat = None if token is None else live.seat_of(token)
        self.sub(live, seat, msg["from"], msg["sid"])
        return {"seat": seat, "hello": live.hello(seat)}

    async def auth(self, msg: dict[str, Any]) -> dict[str, Any]:
        live = await self.hub.get(msg["gid"])
        seat = live.seat_of(msg["token"])
        old = self.remote.pop(msg["old"], None)
        if old is not None:
            self.hub.unsubscribe(old[0], old[1])
        self.sub(live, seat, msg["from"], msg["sid"])
        return {"seat": seat, "hello": live.hello(seat)}

    async def act(self, msg: dict[str, Any]) -> dict[str, Any]:
        """An action sent on a socket another process relays (as its seat subscribed)."""
        found = self.remote.get(msg["sid"])
        if found is None:
            raise HubError(409, "this socket's subscription ended: connect again")
        live, sub, _ = found
        if sub.seat is None:
            raise HubError(403, SPECTATOR_ACTS)
        return await self.hub.act_answer(live, sub.seat, msg["state_id"], msg["action"])

    def unsubscribe(self, sid: str) -> None:
        """The socket ``sid`` of another process closed."""
        found = self.remote.pop(sid, None)
        if found is not None:
            self.hub.unsubscribe(found[0], found[1])

    def drop_process(self, proc: str) -> None:
        """Process ``proc`` is gone: drop the sockets it had here."""
        for sid, (live, sub, owner) in list(self.remote.items()):
            if owner == proc:
                del self.remote[sid]
                self.hub.unsubscribe(live, sub)
