"""A minimal HTTP/1.1 keep-alive JSON client, one per game (cheaper than httpx per request)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

HTTP_TIMEOUT = 60.0
KEEP_ALIVE_SECONDS = 4.0
"""A connection idle this long is not reused (uvicorn closes idle ones after 5 s)."""


class HttpError(Exception):
    pass


class Http:
    """A minimal HTTP/1.1 keep-alive JSON client: one connection, one request at a time.

    Each game has at most one request in flight, so it needs one connection and nothing else.
    httpx costs several times more CPU per request (its pool scans every connection, and
    httpcore looks for an optional module on each request); on a 2-core machine that CPU would
    be taken from the server being measured.
    """

    def __init__(self, host: str, port: int) -> None:
        self.host = host
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.used = 0.0  # when the connection last answered (monotonic seconds)

    async def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """``(status, decoded JSON body)``; :class:`HttpError` if the exchange itself fails."""
        try:
            async with asyncio.timeout(HTTP_TIMEOUT):
                return await self._exchange(method, path, body)
        except (OSError, EOFError, ValueError, TimeoutError, asyncio.IncompleteReadError) as exc:
            await self.close()
            raise HttpError(f"{method} {path}: {type(exc).__name__}: {exc}") from None

    async def _exchange(self, method: str, path: str, body: Any) -> tuple[int, Any]:
        if self.reader is not None and (
            self.reader.at_eof() or time.monotonic() - self.used > KEEP_ALIVE_SECONDS
        ):
            # The server closed the idle connection, or is about to (its keep-alive timeout):
            # a request sent as it closes would be reset, where a browser would send it again.
            await self.close()
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        data = b"" if body is None else json.dumps(body).encode()
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n"
        )
        self.writer.write(head.encode("ascii") + data)
        status_line = await self.reader.readline()
        parts = status_line.split(None, 2)
        if len(parts) < 2 or not parts[0].startswith(b"HTTP/1."):
            raise ValueError(f"bad status line {status_line!r}")
        status = int(parts[1])
        length: int | None = None
        close = parts[0] == b"HTTP/1.0"
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b"\n", b""):
                break
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"connection":
                close = value.strip().lower() == b"close"
            elif name == b"transfer-encoding":
                raise ValueError("chunked answers are not expected from this API")
        if length is None:
            raise ValueError("answer without Content-Length")
        payload = await self.reader.readexactly(length)
        self.used = time.monotonic()
        if close:
            await self.close()
        return status, json.loads(payload) if payload else None

    async def close(self) -> None:
        writer, self.writer, self.reader = self.writer, None, None
        if writer is not None:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()
