"""The head limit and the request deadline of ``meeple serve`` (meeple.server.httpprotocol;
issue 39, finding 5: a 32 MB header was accepted, and 200 half-sent requests were all still open
70 s later), tried with raw sockets against a real server whose deadline is 1 s."""

from __future__ import annotations

import contextlib
import json
import select
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from meeple.server.httpprotocol import HEAD_LIMIT, REQUEST_SECONDS, GuardedHttp
from tests.server.process import free_port, start_server
from tests.server.test_serve_cli import serve

DEADLINE = 1.0
ENOUGH = 15.0
"""Seconds a test waits for the server to drop a connection: many deadlines (a bound, not a
timing: before, nothing was ever dropped)."""


@pytest.fixture(scope="module")
def port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    tmp = tmp_path_factory.mktemp("limits")
    port = free_port()
    extra = ("--request-timeout", str(DEADLINE))
    proc = start_server(tmp / "g.sqlite", port, tmp / "log.txt", 0.0, extra)
    try:
        yield port
    finally:
        proc.terminate()
        proc.wait(10)


def opened(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port))
    sock.settimeout(ENOUGH)
    return sock


def head(port: int, extra: bytes = b"") -> bytes:
    return b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n%s" % (port, extra)


def answer(sock: socket.socket) -> bytes:
    """What the server sends until it closes the connection (``b""`` if it resets it); the
    socket is closed after."""
    out = b""
    with sock, contextlib.suppress(ConnectionResetError):
        while chunk := sock.recv(65536):
            out += chunk
    return out


def serves(port: int) -> bool:
    return httpx.get(f"http://127.0.0.1:{port}/api/games").status_code == 200


def test_a_1mb_header_is_refused(port: int) -> None:
    sock = opened(port)
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # (it stopped reading)
        sock.sendall(head(port, b"X-Big: " + b"a" * (1 << 20) + b"\r\n\r\n"))
    got = answer(sock)
    assert got == b"" or got.startswith(b"HTTP/1.1 431 "), got[:200]
    assert b"200 OK" not in got
    # Sent in pieces, the answer arrives before the client is done.
    sock = opened(port)
    sock.sendall(head(port, b"X-Big: " + b"a" * HEAD_LIMIT))
    got = answer(sock)
    assert got.startswith(b"HTTP/1.1 431 ") and got.endswith(b"request head over 32768 bytes")
    assert serves(port)


def test_a_head_under_the_limit_is_served(port: int) -> None:
    sock = opened(port)
    big = b"X-Big: " + b"a" * (HEAD_LIMIT - 200) + b"\r\n"
    sock.sendall(head(port, big + b"Connection: close\r\n\r\n"))
    assert answer(sock).startswith(b"HTTP/1.1 200 OK")


def test_half_sent_requests_and_silent_connections_are_dropped(port: int) -> None:
    """Half a request line, half the headers, the headers without the body, nothing at all,
    and a slowloris that sends a header line every 0.2 s: every connection is closed (with
    408 when a request had begun), while a whole request is answered."""
    partial = [
        b"GET /api/ga",
        head(port),
        head(port, b"X-A: 1\r\nX-B: 2"),
        b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Length: 100\r\n\r\n{" % port,
    ]
    socks = {opened(port): p for p in partial * 10}
    socks.update({opened(port): b"" for _ in range(20)})
    for sock, sent in socks.items():
        sock.sendall(sent)
    slow = opened(port)
    slow.sendall(head(port))
    begun = time.monotonic()
    pending = set(socks)
    answers: dict[socket.socket, bytes] = {}
    while pending and time.monotonic() - begun < ENOUGH:
        ready, _, _ = select.select(list(pending), [], [], 0.2)
        for sock in ready:
            answers[sock] = answer(sock)
            pending.discard(sock)
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            slow.sendall(b"X-Trickle: 1\r\n")
    assert not pending, f"{len(pending)} of {len(socks)} connections still open"
    for sock, sent in socks.items():
        if sent:
            assert answers[sock].startswith(b"HTTP/1.1 408 "), (sent, answers[sock][:100])
        else:
            assert answers[sock] == b""  # nothing begun: closed without a word
    assert answer(slow).startswith(b"HTTP/1.1 408 ")  # bytes kept coming: cut all the same
    assert serves(port)


def test_a_request_in_pieces_within_the_deadline_is_served(port: int) -> None:
    sock = opened(port)
    whole = head(port, b"Connection: close\r\n\r\n")
    for i in range(0, len(whole), 10):
        sock.sendall(whole[i : i + 10])
        time.sleep(0.01)
    assert answer(sock).startswith(b"HTTP/1.1 200 OK")


def test_a_websocket_outlives_the_deadline(port: int) -> None:
    base = f"http://127.0.0.1:{port}"
    people = [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}]
    made = httpx.post(f"{base}/api/games", json={"game": "classic", "seats": people}).json()
    with connect(f"ws://127.0.0.1:{port}/api/games/{made['id']}/ws") as ws:
        assert json.loads(ws.recv(timeout=ENOUGH))["type"] == "hello"
        time.sleep(3 * DEADLINE)
        ws.send(json.dumps({"type": "auth", "token": made["seats"][0]["token"]}))
        assert json.loads(ws.recv(timeout=ENOUGH))["seat"] == 0


def test_meeple_serve_runs_the_guarded_protocol(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, seen = serve(tmp_path, monkeypatch)
    assert issubclass(seen["http"], GuardedHttp)
    assert seen["http"].request_seconds == REQUEST_SECONDS == 10.0
    assert seen["http"].head_limit == HEAD_LIMIT == 32 * 1024
    _, seen = serve(tmp_path, monkeypatch, "--request-timeout", "2.5")
    assert seen["http"].request_seconds == 2.5
