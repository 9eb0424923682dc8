"""Behind a reverse proxy (docs/DEPLOY.md): ``meeple serve --forwarded-allow-ips`` (or
``$MEEPLE_FORWARDED_ALLOW_IPS``) makes X-Forwarded-For the client's address for requests from
the proxy's addresses only, so the per-client limits count visitors, not the proxy; from any
other address the header is ignored, and by default it is ignored from everyone.

Two real servers: one that trusts 127.0.0.1 (where the test's requests come from) and one that
trusts another address. Only headers name the documentation addresses below: no traffic goes
to them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import httpx
import pytest
from typer.testing import CliRunner
from websockets.sync.client import connect

from meeple.cli.main import app as cli
from meeple.server.limits import Limits
from meeple.server.security import trusted_proxies
from tests.server.process import free_port, start_server

SEATS = [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}]
VISITOR_A, VISITOR_B = "198.51.100.7", "203.0.113.9"  # documentation addresses (RFC 5737)
OTHER_PROXY = "192.0.2.1"
MOST = Limits().live_per_client  # the first limit one address reaches (games in play)
REFUSED = f"your address has {MOST} games waiting or in play"


def make_game(base: str, forwarded_for: str) -> httpx.Response:
    return httpx.post(
        f"{base}/api/games",
        json={"game": "classic", "seats": SEATS},
        headers={"X-Forwarded-For": forwarded_for},
        timeout=10,
    )


class Served(NamedTuple):
    base: str
    log: Path

    def access_log(self) -> list[str]:
        """The client addresses of the access log's lines, in order."""
        return re.findall(r"^INFO: +(\S+):\d+ - \"[A-Z]+ ", self.log.read_text(), re.MULTILINE)


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: Any) -> Iterator[Served]:
    """A real server with its access log; ``request.param``: (its options,
    $MEEPLE_FORWARDED_ALLOW_IPS)."""
    options, env = request.param
    monkeypatch.delenv("FORWARDED_ALLOW_IPS", raising=False)  # uvicorn's own: not read anyway
    if env is None:
        monkeypatch.delenv("MEEPLE_FORWARDED_ALLOW_IPS", raising=False)
    else:
        monkeypatch.setenv("MEEPLE_FORWARDED_ALLOW_IPS", env)
    port, log = free_port(), tmp_path / "serve.log"
    proc = start_server(tmp_path / "games.sqlite", port, log, 0.0, ("--access-log", *options))
    try:
        yield Served(f"http://127.0.0.1:{port}", log)
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.mark.parametrize("server", [(("--forwarded-allow-ips", "127.0.0.1"), None)], indirect=True)
def test_a_trusted_proxy_gives_the_client_address(server: Served) -> None:
    assert MOST is not None
    for _ in range(MOST):
        assert make_game(server.base, VISITOR_A).status_code == 201
    refused = make_game(server.base, VISITOR_A)
    assert refused.status_code == 429 and REFUSED in refused.json()["detail"]
    # Another visitor through the same proxy has an allowance of its own; a client that put a
    # made-up address in front of what the proxy saw is counted by what the proxy saw.
    made = make_game(server.base, VISITOR_B)
    assert made.status_code == 201
    assert make_game(server.base, f"{VISITOR_B}, {VISITOR_A}").status_code == 429
    # A socket's client address too (the sockets per client count by it).
    ws_url = server.base.replace("http", "ws", 1) + f"/api/games/{made.json()['id']}/ws"
    with connect(ws_url, additional_headers={"X-Forwarded-For": VISITOR_B}) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "hello"
    text = server.log.read_text()
    assert f'{VISITOR_B}:0 - "WebSocket /api/games/{made.json()["id"]}/ws" [accepted]' in text
    # the start-up waits on GET /api/games from 127.0.0.1 without the header
    addresses = [a for a in server.access_log() if a != "127.0.0.1"]
    assert addresses == [VISITOR_A] * (MOST + 1) + [VISITOR_B, VISITOR_A], text[-2000:]


@pytest.mark.parametrize("server", [((), OTHER_PROXY)], indirect=True)
def test_an_untrusted_address_cannot_name_another_client(server: Served) -> None:
    assert MOST is not None
    for i in range(MOST):  # a new made-up address each time: all counted as 127.0.0.1
        assert make_game(server.base, f"198.51.100.{i}").status_code == 201
    refused = make_game(server.base, VISITOR_B)
    assert refused.status_code == 429 and REFUSED in refused.json()["detail"]
    assert set(server.access_log()) == {"127.0.0.1"}, server.log.read_text()[-2000:]


@pytest.mark.parametrize(
    ("args", "env", "headers", "trusted"),
    [
        ([], None, False, None),
        (
            ["--forwarded-allow-ips", "10.0.0.2, 10.1.0.0/16"],
            None,
            True,
            ["10.0.0.2", "10.1.0.0/16"],
        ),
        ([], "172.16.0.0/12,::1", True, ["172.16.0.0/12", "::1"]),
        (["--forwarded-allow-ips", "10.0.0.3"], "10.0.0.4", True, ["10.0.0.3"]),
        (["--forwarded-allow-ips", "10.0.0.3,*"], None, True, ["*"]),
    ],
)
def test_serve_hands_the_proxies_to_uvicorn(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    env: str | None,
    headers: bool,
    trusted: list[str] | None,
) -> None:
    import uvicorn

    seen: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: seen.update(kw))
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", "10.9.9.9")  # uvicorn's own: never read
    if env is None:
        monkeypatch.delenv("MEEPLE_FORWARDED_ALLOW_IPS", raising=False)
    else:
        monkeypatch.setenv("MEEPLE_FORWARDED_ALLOW_IPS", env)
    url = f"sqlite:///{tmp_path / 'games.sqlite'}"
    done = CliRunner().invoke(cli, ["serve", "--database-url", url, *args])
    assert done.exit_code == 0, done.output
    assert seen["proxy_headers"] is headers and seen["forwarded_allow_ips"] == trusted


@pytest.mark.parametrize("value", ["games.example.com", "10.0.0.1/8", "10.0.0.300", "10.0.0.1:80"])
def test_serve_refuses_a_malformed_proxy_address(tmp_path: Path, value: str) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite'}"
    done = CliRunner().invoke(cli, ["serve", "--database-url", url, "--forwarded-allow-ips", value])
    assert done.exit_code == 2
    assert "--forwarded-allow-ips" in done.output and "Invalid value" in done.output
    with pytest.raises(ValueError, match="not an IP address"):
        trusted_proxies(value)
