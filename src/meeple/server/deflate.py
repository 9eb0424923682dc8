"""The WebSocket protocol ``meeple serve`` runs: uvicorn's, with a compression window that holds
the previous update.

permessage-deflate (RFC 7692) keeps a sliding window of what the connection sent before, so a
message that repeats much of the last one costs a few back-references. An update is the seat's
whole view again with a few fields changed, 4-8.5 KB of JSON for every Monopoly edition and up
to 10 KB for Monopolis. uvicorn compresses with a 4 KiB window (``server_max_window_bits=12``),
which holds none of the previous update, so each one was compressed from scratch: 770-2,139
bytes and 35-94 µs of CPU per message. With a 16 KiB window (14 bits) the previous update is in
reach, and a message is 64-112 bytes and 13-24 µs at zlib's default level (a random game of
each edition, one compressor; ``benchmarks/README.md``, "capacity"). The cost is memory: zlib's
compressor takes ``2**(bits+2) + 2**(memLevel+9)`` bytes, 80 KiB per socket instead of 32 KiB.

The client's window (what it compresses its own small messages with) stays at uvicorn's 12 bits.
"""

from __future__ import annotations

import logging
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
from websockets.server import ServerProtocol

SERVER_WINDOW_BITS = 14
"""The window the server compresses with: 16 KiB, more than any game's update."""
CLIENT_WINDOW_BITS = 12
MEM_LEVEL = 5
LEVEL = 1
"""zlib's fastest level. Against the previous update most of a message is one long match, which
level 1 finds as well: 147 bytes against 84 at level 6, for about two thirds of the CPU (4,000
compressors in turn, as a busy server uses them: 22 against 32 µs per update)."""


def deflate_factory() -> ServerPerMessageDeflateFactory:
    """The permessage-deflate settings a socket is offered."""
    return ServerPerMessageDeflateFactory(
        server_max_window_bits=SERVER_WINDOW_BITS,
        client_max_window_bits=CLIENT_WINDOW_BITS,
        compress_settings={"memLevel": MEM_LEVEL, "level": LEVEL},
    )


class WideWindowProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol (the one its ``ws="auto"`` picks) with the window above.

    uvicorn builds the connection's protocol state in its constructor with its own settings and
    has no option for them, so it is built again here before any byte is read."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.config.ws_per_message_deflate:
            self.conn = ServerProtocol(
                extensions=[deflate_factory()],
                max_size=self.config.ws_max_size,
                logger=logging.getLogger("uvicorn.error"),
            )
