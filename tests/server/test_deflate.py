"""Updates are compressed against the previous one (``meeple.server.deflate``): ``meeple serve``
offers a 16 KiB window, and a game's updates take a small part of their text on the wire."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from tests.server.process import free_port, start_server

SEATS = [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}]


class CountingSocket(socket.socket):
    """A client socket that counts the bytes it receives."""

    received = 0

    def recv(self, bufsize: int, flags: int = 0) -> bytes:
        data = super().recv(bufsize, flags)
        self.received += len(data)
        return data


@pytest.fixture
def port(tmp_path: Path) -> Iterator[int]:
    port = free_port()
    proc = start_server(tmp_path / "games.sqlite", port, tmp_path / "serve.log", 0.0)
    try:
        yield port
    finally:
        proc.terminate()
        proc.wait(10)


def test_updates_are_compressed_against_the_last(port: int) -> None:
    base = f"http://127.0.0.1:{port}"
    made = httpx.post(f"{base}/api/games", json={"game": "classic", "seats": SEATS}).json()
    gid, tokens = made["id"], [s["token"] for s in made["seats"]]
    sock = CountingSocket()
    sock.connect(("127.0.0.1", port))
    with connect(f"ws://127.0.0.1:{port}/api/games/{gid}/ws", sock=sock) as ws:
        offered = ws.response.headers["sec-websocket-extensions"]
        assert "permessage-deflate" in offered and "server_max_window_bits=14" in offered
        ws.recv()
        ws.send(json.dumps({"type": "auth", "token": tokens[0]}))
        ws.recv()
        wire, text = sock.received, 0
        for state_id in range(12):  # both seats play through HTTP; this socket hears it all
            public = httpx.get(f"{base}/api/games/{gid}").json()
            seat = public["current_player"]
            auth = {"Authorization": f"Bearer {tokens[seat]}"}
            choices = httpx.get(f"{base}/api/games/{gid}/view", headers=auth).json()
            action = choices["legal_actions"][0]["action"]
            body = {"token": tokens[seat], "state_id": state_id, "action": action}
            assert httpx.post(f"{base}/api/games/{gid}/actions", json=body).status_code == 200
            update = ws.recv(timeout=10)
            while json.loads(update)["type"] != "update":
                text += len(update)
                update = ws.recv(timeout=10)
            assert json.loads(update)["state_id"] == state_id + 1
            text += len(update)
        wire = sock.received - wire
    # Each update is a 4 KB view again with a few things changed: with the last update in the
    # window, about 150 bytes on the wire (with uvicorn's own 4 KiB window, about 800).
    assert text > 12 * 3000 and wire < text / 10, (wire, text)
