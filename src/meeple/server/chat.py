"""A game's chat: people's messages, stored with the game and sent to every socket, and the
host's word on who may chat."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from meeple.server.errors import HubError
from meeple.server.live import LiveGame
from meeple.server.storage import CHAT_STANDING, MUTED
from meeple.server.wire import Message

if TYPE_CHECKING:
    from meeple.server.hub import Hub

CHAT_MAX_CHARS = 300
"""The longest chat message, in characters."""
CHAT_BURST = (5, 10.0)
"""At most this many chat messages from one seat within this many seconds."""
CHAT_MAX_MESSAGES = 2000
"""The most messages one game's chat keeps taking."""


class Chat:
    """The hub's chat rooms, one per game (its messages are the storage's)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    async def chat(self, live: LiveGame, seat: int, text: str) -> dict[str, Any]:
        """Post a person's chat message: stored with the game, then sent to every socket."""
        person = live.seats[seat]
        if person.chat in CHAT_STANDING:
            words = "muted you" if person.chat == MUTED else "removed you from it"
            raise HubError(403, f"the host {words}: your messages are not taken")
        clean = " ".join(text.split())
        if not clean:
            raise HubError(422, "a chat message needs some text")
        if len(clean) > CHAT_MAX_CHARS:
            raise HubError(422, f"a chat message is at most {CHAT_MAX_CHARS} characters")
        now = asyncio.get_running_loop().time()
        count, window = CHAT_BURST
        person.chatted = [t for t in person.chatted if now - t < window]
        if len(person.chatted) >= count:
            raise HubError(429, f"slow down: at most {count} messages in {window:g} seconds")
        if live.chat_count is None:
            live.chat_count = await asyncio.to_thread(self.hub.storage.chat_count, live.id)
        if live.chat_count >= CHAT_MAX_MESSAGES:
            raise HubError(429, f"this game's chat is full ({CHAT_MAX_MESSAGES} messages)")
        person.chatted.append(now)
        live.chat_count += 1
        msg = await self.hub.writer.run(
            self.hub.storage.add_chat, live.id, seat, person.name, clean
        )
        told = Message({"type": "chat", **msg})
        for sub in list(live.subscribers):
            live._put(sub, told)
        return msg

    async def moderate(self, live: LiveGame, host: str, seat: int, standing: str | None) -> None:
        """The host mutes a person in the game's chat (``MUTED``: their messages refused),
        removes them (``REMOVED``: refused, and those they sent hidden from everyone), or lets
        them chat again (``None``). Stored with the seat; every socket is told
        ``{"type": "moderated", "seat", "chat"}`` (a page reloads the chat)."""
        live.check_host(host)
        if not 0 <= seat < len(live.seats) or live.seats[seat].kind != "human":
            raise HubError(422, f"seat {seat + 1} is not a person's seat: only people chat")
        if standing is not None and standing not in CHAT_STANDING:
            raise HubError(422, f"chat: {standing!r} is not one of {', '.join(CHAT_STANDING)}")
        async with live.lock:
            person = live.seats[seat]
            stored = person.stored()
            stored.chat = standing
            await self.hub.writer.run(self.hub.storage.set_seat, live.id, stored)
            person.chat = standing
        told = Message({"type": "moderated", "seat": seat, "chat": standing})
        for sub in list(live.subscribers):
            live._put(sub, told)
        live.broadcast_seats()
