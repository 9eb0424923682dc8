"""The HTTP protocol ``meeple serve`` runs: uvicorn's (httptools), with a limit on a request's
head and a deadline for a whole request (docs/SERVER.md, "Bad bytes"; docs/DEPLOY.md).

uvicorn (0.55) has neither: a 32 MB header was taken whole, and 200 connections that sent half
a request were all still open 70 s later (issue 39), each holding a socket and its buffers. Its
``h11_max_incomplete_event_size`` bounds a head only with the h11 parser, which is slower than
httptools, the one ``uvicorn[standard]`` runs; its ``timeout_keep_alive`` only times the quiet
between two requests. :class:`GuardedHttp` adds both to the httptools protocol:

- **Head size**: at most :data:`HEAD_LIMIT` bytes from a request's first byte to the blank line
  that ends its headers; beyond, the answer is ``431`` and the connection is closed. The bytes
  are counted as they arrive, before the parser buffers them.
- **Deadline**: a request must arrive whole, head and body, within ``request_seconds`` (10 by
  default, ``meeple serve --request-timeout``) of its first byte, and a new connection must
  send its first byte within as long; else the connection is closed, with ``408`` when a
  request had begun. A WebSocket is timed until its upgrade only; the quiet between two
  requests stays uvicorn's keep-alive timeout (5 s).
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol

HEAD_LIMIT = 32 * 1024
"""The most bytes a request's head may take (request line and headers): nginx's default
(``large_client_header_buffers 4 8k``). Every request this server serves has under 2 KiB."""

REQUEST_SECONDS = 10.0
"""How long a client has to send a whole request from its first byte (or, on a new
connection, to send that byte). The bodies this server takes are 16 KiB at most."""


class GuardedHttp(HttpToolsProtocol):
    """uvicorn's httptools protocol with the head limit and the deadline of the module
    docstring. :meth:`with_deadline` makes one with another deadline."""

    head_limit = HEAD_LIMIT
    request_seconds = REQUEST_SECONDS

    @classmethod
    def with_deadline(cls, seconds: float) -> type[GuardedHttp]:
        """This protocol with a deadline of ``seconds`` (uvicorn takes a class)."""
        return type(cls.__name__, (cls,), {"request_seconds": seconds})

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._in_head = True  # reading a request's head, or waiting for a request
        self._head_bytes = 0
        self._deadline: asyncio.TimerHandle | None = None
        self._arm()

    def _arm(self) -> None:
        self._deadline = self.loop.call_later(self.request_seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def data_received(self, data: bytes) -> None:
        if self._deadline is None:  # the first bytes of a request
            self._arm()
        # A head is fed to the parser no further than the limit: a piece at a time while the
        # head lasts, so the bytes after it (a body) are not counted. A head that begins in
        # the same read as the end of the request before it (pipelining, which browsers do
        # not use) is counted from the next read: at most one read (asyncio's, 256 KiB) more.
        while data and self._in_head:
            room = self.head_limit - self._head_bytes
            if room <= 0:
                self._answer(431, f"request head over {self.head_limit} bytes")
                return
            piece, data = data[:room], data[room:]
            self._head_bytes += len(piece)
            super().data_received(piece)
            if self.transport.is_closing() or self.transport.get_protocol() is not self:
                return  # refused by the parser, or upgraded to a WebSocket
        if data:
            super().data_received(data)

    def on_headers_complete(self) -> None:
        self._in_head = False
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        # The request arrived whole: what comes next is the next request's head.
        self._disarm()
        self._in_head, self._head_bytes = True, 0
        super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        self._disarm()  # the socket is the WebSocket protocol's from here
        super().handle_websocket_upgrade()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _too_slow(self) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        begun = self._head_bytes > 0 or not self._in_head
        cycle = self.cycle
        writing = cycle is not None and cycle.response_started and not cycle.response_complete
        if begun and not writing:  # (a pipelined request's answer may be on its way)
            self._answer(408, f"request not sent whole within {self.request_seconds:g} s")
        else:
            self.transport.close()

    def _answer(self, status: int, reason: str) -> None:
        """Answer ``status`` with ``reason`` as plain text and close the connection (as
        uvicorn answers a request its parser refuses)."""
        body = reason.encode("ascii")
        head: list[Any] = [STATUS_LINE[status]]
        for name, value in self.server_state.default_headers:
            head += [name, b": ", value, b"\r\n"]
        head += [
            b"content-type: text/plain; charset=utf-8\r\n",
            b"content-length: " + str(len(body)).encode("ascii") + b"\r\n",
            b"connection: close\r\n\r\n",
        ]
        self.transport.write(b"".join(head) + body)
        self.transport.close()
