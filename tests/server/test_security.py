"""A server that can face the internet (docs/SERVER.md, "Security headers, Origin and Host"):
``Host`` checked against the allowed hosts (DNS rebinding), state changes and sockets refused
from a foreign ``Origin``, the security headers on every answer, the API docs from files that
ship with a package, and names of one plain line.

A real ``meeple serve`` answers the Host, Origin and header checks (its defaults, its options,
its environment variables, uvicorn's own handling of headers); the TestClient checks the rest.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from typer.testing import CliRunner
from websockets.exceptions import ConnectionClosedError
from websockets.sync.client import connect
from websockets.typing import Origin

from meeple.cli.main import app as cli
from meeple.server.app import create_app
from meeple.server.security import (
    AllowedHosts,
    AllowedOrigins,
    default_hosts,
    parse_host,
    resolve_hosts,
    script_hash,
)
from tests.server.conftest import TEST_HOSTS
from tests.server.process import free_port, start_server, stop_server

SEATS = [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}]
BODY = {"game": "classic", "seats": SEATS, "seed": 1}
LISTED_ORIGIN = "https://games.example.com"

# --- the rules, as functions --------------------------------------------------------------


@pytest.mark.parametrize(
    ("listen", "port", "hosts"),
    [
        ("127.0.0.1", 8000, ["127.0.0.1:8000", "localhost:8000", "[::1]:8000"]),
        ("localhost", 8000, ["localhost:8000", "127.0.0.1:8000", "[::1]:8000"]),
        ("::1", 8000, ["[::1]:8000", "127.0.0.1:8000", "localhost:8000"]),
        ("127.0.0.1", 0, ["127.0.0.1", "localhost", "[::1]"]),  # any port
        ("0.0.0.0", 8000, ["0.0.0.0:8000", "localhost:8000"]),
        ("::", 8000, ["0.0.0.0:8000", "[::]:8000", "localhost:8000"]),
        ("192.168.1.5", 8000, ["192.168.1.5:8000"]),
        ("games.example.com", 443, ["games.example.com:443"]),
    ],
)
def test_default_hosts_are_the_names_of_the_listening_address(
    listen: str, port: int, hosts: list[str]
) -> None:
    assert default_hosts(listen, port) == hosts


@pytest.mark.parametrize(
    ("patterns", "host", "scheme", "allowed"),
    [
        (["127.0.0.1:8000"], "127.0.0.1:8000", "http", True),
        (["127.0.0.1:8000"], "127.0.0.1:8001", "http", False),
        (["127.0.0.1:8000"], "127.0.0.1", "http", False),  # port 80
        (["localhost:80"], "LOCALHOST", "http", True),
        (["localhost:443"], "localhost", "wss", True),
        (["[::1]:8000"], "[0:0:0:0:0:0:0:1]:8000", "http", True),
        (["::1"], "[::1]:9", "ws", True),  # a bare IPv6 address, any port
        (["games.example.com"], "games.example.com.:8443", "https", True),  # trailing dot
        (["games.example.com"], "evil.example.com", "http", False),
        (["games.example.com"], "games.example.com.evil.com", "http", False),
        (["0.0.0.0:8000"], "192.168.1.5:8000", "http", True),  # any IPv4 address
        (["0.0.0.0:8000"], "rebind.evil.com:8000", "http", False),  # never a name
        (["0.0.0.0:8000"], "[fe80::1]:8000", "http", False),
        (["[::]:8000"], "[fe80::1]:8000", "http", True),
        (["[::]:8000"], "10.0.0.1:8000", "http", False),
        (["*"], "anything.example:1", "http", True),
    ],
)
def test_allowed_hosts(patterns: list[str], host: str, scheme: str, allowed: bool) -> None:
    assert AllowedHosts(patterns).allows(parse_host(host), scheme) is allowed


@pytest.mark.parametrize(
    "bad", ["", "a b", "user@host", "host/path", "host:99999", "host:", "[zz]", "http://x", "é.com"]
)
def test_malformed_hosts_are_refused(bad: str) -> None:
    with pytest.raises(ValueError):
        parse_host(bad)


@pytest.mark.parametrize(
    ("origin", "host", "scheme", "allowed"),
    [
        ("http://127.0.0.1:8000", "127.0.0.1:8000", "http", True),  # the server's own
        ("http://localhost:8000", "127.0.0.1:8000", "http", False),  # another origin
        ("http://127.0.0.1:8001", "127.0.0.1:8000", "http", False),
        ("https://games.example.com", "games.example.com", "http", True),  # TLS at a proxy
        ("https://games.example.com", "games.example.com:443", "https", True),
        (LISTED_ORIGIN, "127.0.0.1:8000", "http", True),  # listed
        ("https://games.example.com:444", "127.0.0.1:8000", "http", False),
        ("http://games.example.com", "127.0.0.1:8000", "http", False),  # scheme differs
        ("http://evil.com", "127.0.0.1:8000", "http", False),
        ("null", "127.0.0.1:8000", "http", False),  # a sandboxed frame, a file
        ("file://", "127.0.0.1:8000", "http", False),
    ],
)
def test_allowed_origins(origin: str, host: str, scheme: str, allowed: bool) -> None:
    origins = AllowedOrigins([LISTED_ORIGIN])
    assert origins.allows(origin, parse_host(host), scheme) is allowed


@pytest.mark.parametrize("bad", ["games.example.com", "ftp://x", "https://x/path", "*"])
def test_malformed_origins_are_refused(bad: str) -> None:
    with pytest.raises(ValueError):
        AllowedOrigins([bad])


def test_the_environment_lists_hosts_and_an_option_beats_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MEEPLE_ALLOWED_HOSTS", " a.example.com , b.example.com:81,")
    assert resolve_hosts() == ["a.example.com", "b.example.com:81"]
    assert resolve_hosts(["c.example.com"]) == ["c.example.com"]
    monkeypatch.delenv("MEEPLE_ALLOWED_HOSTS")
    assert resolve_hosts(None, "0.0.0.0", 80) == ["0.0.0.0:80", "localhost:80"]


# --- the app, through TestClient ----------------------------------------------------------


def test_the_defaults_refuse_a_host_they_do_not_know(db_url: str) -> None:
    """TestClient's ``testserver`` is no loopback name: the tests' apps allow it explicitly."""
    with TestClient(create_app(db_url, 0.0)) as c:
        r = c.get("/api/games")
        assert r.status_code == 400
        assert "'testserver' is not served here" in r.json()["detail"]
        assert c.get("/api/games", headers={"Host": "127.0.0.1:8000"}).status_code == 200
        assert c.get("/api/games", headers={"Host": "localhost:5"}).status_code == 200


def test_a_host_not_allowed_is_refused_and_its_socket_closed(client: TestClient) -> None:
    gid = client.post("/api/games", json=BODY).json()["id"]
    evil = {"Host": "rebound.evil.com"}
    for method, path in [("GET", "/"), ("GET", f"/api/games/{gid}"), ("POST", "/api/games")]:
        r = client.request(method, path, json=BODY, headers=evil)
        assert r.status_code == 400, (method, path)
        assert "rebound.evil.com" in r.json()["detail"]
        assert r.headers["x-content-type-options"] == "nosniff"  # on refusals too
        assert "rebound" not in r.headers["content-security-policy"]
    with client.websocket_connect(f"/api/games/{gid}/ws", headers=evil) as ws:
        with pytest.raises(WebSocketDisconnect) as exc:
            ws.receive_json()
        assert exc.value.code == 1008 and "not served here" in exc.value.reason
    for bad in ["a b", "x@testserver", ""]:
        assert client.get("/api/games", headers={"Host": bad}).status_code == 400


def test_a_foreign_origin_changes_nothing(client: TestClient) -> None:
    evil = {"Origin": "https://evil.example"}
    r = client.post("/api/games", json=BODY, headers=evil)
    assert r.status_code == 403
    assert "'https://evil.example' may not change anything" in r.json()["detail"]
    assert client.get("/api/games", headers=evil).status_code == 200  # reading is the browser's
    assert client.post("/api/games", json=BODY).status_code == 201  # no Origin: an API client
    own = {"Origin": "http://testserver"}
    made = client.post("/api/games", json=BODY, headers=own)
    assert made.status_code == 201
    gid, token = made.json()["id"], made.json()["seats"][0]["token"]
    for method in ("PUT", "PATCH", "DELETE"):
        assert client.request(method, f"/api/games/{gid}/ask", headers=evil).status_code == 403
    act = {"token": token, "state_id": 0, "action": "roll"}
    assert client.post(f"/api/games/{gid}/actions", json=act, headers=evil).status_code == 403
    assert client.get(f"/api/games/{gid}").json()["state_id"] == 0
    with client.websocket_connect(f"/api/games/{gid}/ws", headers=evil) as ws:
        with pytest.raises(WebSocketDisconnect) as exc:
            ws.receive_json()
        assert exc.value.code == 1008 and "may not change anything" in exc.value.reason
    with client.websocket_connect(f"/api/games/{gid}/ws", headers=own) as ws:
        assert ws.receive_json()["type"] == "hello"


def test_a_listed_origin_may_act(db_url: str) -> None:
    app = create_app(db_url, 0.0, allowed_hosts=TEST_HOSTS, allowed_origins=[LISTED_ORIGIN])
    with TestClient(app) as c:
        r = c.post("/api/games", json=BODY, headers={"Origin": LISTED_ORIGIN})
        assert r.status_code == 201
        r = c.post("/api/games", json=BODY, headers={"Origin": "https://other.example.com"})
        assert r.status_code == 403


def test_a_malformed_setting_stops_the_app(db_url: str) -> None:
    with pytest.raises(ValueError, match="not a host"):
        create_app(db_url, allowed_hosts=["http://games.example.com"])
    with pytest.raises(ValueError, match="not an origin"):
        create_app(db_url, allowed_hosts=TEST_HOSTS, allowed_origins=["games.example.com"])


def policy(r: httpx.Response) -> dict[str, str]:
    """The response's Content-Security-Policy as directive: sources."""
    parts = (d.strip().split(" ", 1) for d in r.headers["content-security-policy"].split(";"))
    return {p[0]: p[1] if len(p) > 1 else "" for p in parts}


def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    gid = client.post("/api/games", json=BODY).json()["id"]
    for path in ["/", f"/play/{gid}", f"/join/{gid}", "/static/play.js", "/api/games", "/nope"]:
        r = client.get(path)
        assert r.headers["x-content-type-options"] == "nosniff", path
        assert r.headers["referrer-policy"] == "no-referrer", path
        assert r.headers["x-frame-options"] == "DENY", path
        csp = policy(r)
        assert csp["script-src"] == "'self'", path  # no inline script, no eval
        assert csp["style-src"] == "'self' 'unsafe-inline'"
        assert csp["img-src"] == "'self' data:"
        assert csp["connect-src"] == "'self' ws://testserver wss://testserver"
        assert csp["frame-ancestors"] == "'none'"
        assert csp["base-uri"] == "'none'"
        assert csp["form-action"] == "'self'"
        assert csp["object-src"] == "'none'"
        assert csp["default-src"] == "'self'"


def test_the_pages_have_no_inline_script() -> None:
    """The pages load their modules from files; an inline script or event handler would be
    refused by the policy."""
    static = Path(__file__).resolve().parents[2] / "src/meeple/server/static"
    for page in static.glob("*.html"):
        html = page.read_text()
        for tag in re.findall(r"<script\b[^>]*>", html):
            assert re.search(r'\bsrc="/static/[\w.]+"', tag), (page.name, tag)
        assert not re.search(r"\son[a-z]+\s*=", html), page.name
        assert "javascript:" not in html, page.name


def test_the_api_docs_come_from_files_that_ship_with_a_package(client: TestClient) -> None:
    r = client.get("/docs")
    assert r.status_code == 200
    html = r.text
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html)  # nothing from elsewhere
    assets = re.findall(r"""(?:src|href)=["']([^"']+)["']""", html)
    assert "/docs-assets/swagger-ui-bundle.js" in assets
    for asset in assets:
        got = client.get(asset)
        assert got.status_code == 200 and len(got.content) > 100, asset
    # The page's one inline script (the recipe's) is allowed by its hash, nothing else inline.
    inline = re.findall(r"<script>(.*?)</script>", html, re.DOTALL)
    assert len(inline) == 1
    assert policy(r)["script-src"] == f"'self' {script_hash(inline[0])}"
    assert "validatorUrl" in inline[0]  # no badge fetched from validator.swagger.io
    assert client.get("/openapi.json").status_code == 200
    assert client.get("/redoc").status_code == 404  # ReDoc needs its CDN and blob workers


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("Ann\nBob", "no line break"),
        ("Ann\u2028", "no line break"),
        ("Ann\tBob", "control character"),
        ("Ann\x00", "control character"),
        ("Ann\x7f", "control character"),
        ("\u202eboB", "text-direction control"),
    ],
)
def test_names_are_one_plain_line(client: TestClient, name: str, reason: str) -> None:
    seats = [{"type": "human", "name": name}, {"type": "open"}]
    r = client.post("/api/games", json={"game": "classic", "seats": seats})
    assert r.status_code == 422 and reason in r.text, r.text
    made = client.post("/api/games", json={"game": "classic", "seats": [SEATS[0], seats[1]]})
    gid, code = made.json()["id"], made.json()["invite"]
    r = client.post(f"/api/games/{gid}/join", json={"code": code, "seat": 1, "name": name})
    assert r.status_code == 422 and reason in r.text, r.text


def test_names_in_any_script(client: TestClient) -> None:
    names = ["Zoë", "张伟", "محمد", "नमस्ते", "می‌خواهم", "👩‍👩‍👧 family"]  # ZWNJ, ZWJ kept
    seats = [{"type": "human", "name": n} for n in names]
    made = client.post("/api/games", json={"game": "classic", "seats": seats})
    assert made.status_code == 201, made.text
    got = client.get(f"/api/games/{made.json()['id']}").json()
    assert [s["name"] for s in got["seats"]] == names


# --- a real server ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``meeple serve`` on 127.0.0.1 with its default hosts and one listed origin: its port."""
    tmp = tmp_path_factory.mktemp("security")
    port = free_port()
    extra = ("--allowed-origin", LISTED_ORIGIN)
    proc = start_server(tmp / "games.sqlite", port, tmp / "serve.log", 0.0, extra)
    try:
        yield str(port)
    finally:
        stop_server(proc)
    assert (
        f"answering to Host 127.0.0.1:{port}, localhost:{port}" in (tmp / "serve.log").read_text()
    )


def test_a_real_server_answers_its_own_names_only(served: str) -> None:
    base = f"http://127.0.0.1:{served}"
    for host, status in [
        (f"127.0.0.1:{served}", 200),
        (f"localhost:{served}", 200),
        (f"[::1]:{served}", 200),
        ("127.0.0.1", 400),  # another port
        (f"rebound.evil.com:{served}", 400),  # DNS rebinding
        (f"192.168.1.5:{served}", 400),  # not an address it listens on
    ]:
        r = httpx.get(f"{base}/api/games", headers={"Host": host})
        assert r.status_code == status, (host, r.text)
    r = httpx.get(f"{base}/api/games", headers={"Host": f"rebound.evil.com:{served}"})
    assert "is not served here" in r.json()["detail"]


def test_a_real_server_refuses_a_foreign_origin(served: str) -> None:
    base = f"http://127.0.0.1:{served}"
    foreign = httpx.post(f"{base}/api/games", json=BODY, headers={"Origin": "https://evil.ex"})
    assert foreign.status_code == 403 and "may not change" in foreign.json()["detail"]
    assert foreign.headers["content-security-policy"].startswith("default-src 'self'")
    for origin in [base, LISTED_ORIGIN]:
        r = httpx.post(f"{base}/api/games", json=BODY, headers={"Origin": origin})
        assert r.status_code == 201, (origin, r.text)
    made = httpx.post(f"{base}/api/games", json=BODY).json()
    url = f"ws://127.0.0.1:{served}/api/games/{made['id']}/ws"
    with connect(url, origin=Origin(base)) as ws:
        assert json.loads(ws.recv())["type"] == "hello"
    with connect(url, origin=Origin("https://evil.ex")) as ws:
        with pytest.raises(ConnectionClosedError) as exc:
            ws.recv()
        assert exc.value.rcvd is not None and exc.value.rcvd.code == 1008
        assert "may not change anything" in exc.value.rcvd.reason


def test_a_real_server_sends_the_security_headers(served: str) -> None:
    r = httpx.get(f"http://localhost:{served}/")
    csp = policy(r)
    assert csp["connect-src"] == f"'self' ws://localhost:{served} wss://localhost:{served}"
    assert csp["script-src"] == "'self'" and csp["frame-ancestors"] == "'none'"
    assert r.headers["referrer-policy"] == "no-referrer"
    assert r.headers["x-content-type-options"] == "nosniff"


def test_hosts_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    port = free_port()
    monkeypatch.setenv("MEEPLE_ALLOWED_HOSTS", f"games.example.com,127.0.0.1:{port}")
    proc = start_server(tmp_path / "games.sqlite", port, tmp_path / "serve.log", 0.0)
    try:
        base = f"http://127.0.0.1:{port}/api/games"
        assert httpx.get(base, headers={"Host": "games.example.com"}).status_code == 200
        assert httpx.get(base, headers={"Host": f"localhost:{port}"}).status_code == 400
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.mark.parametrize(
    ("option", "value"),
    [("--allowed-host", "http://games.example.com"), ("--allowed-origin", "games.example.com")],
)
def test_serve_refuses_a_malformed_setting(tmp_path: Path, option: str, value: str) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite'}"
    done = CliRunner().invoke(cli, ["serve", "--database-url", url, option, value])
    assert done.exit_code == 2
    assert option in done.output and "Invalid value" in done.output


def test_a_real_server_answers_a_socket_flood_with_the_reason(served: str) -> None:
    """Limits against a real process: a socket that sends more than 20 messages in 10 s is
    closed with 1008 and the limit in words; the server still answers afterwards."""
    base = f"http://127.0.0.1:{served}"
    made = httpx.post(f"{base}/api/games", json=BODY).json()
    with connect(f"ws://127.0.0.1:{served}/api/games/{made['id']}/ws") as ws:
        assert json.loads(ws.recv())["type"] == "hello"
        with pytest.raises(ConnectionClosedError) as exc:
            for _ in range(40):
                ws.send(json.dumps({"type": "ping"}))
            ws.recv(timeout=10)
        assert exc.value.rcvd is not None and exc.value.rcvd.code == 1008
        assert "too many messages" in exc.value.rcvd.reason
    assert httpx.get(f"{base}/api/games/{made['id']}").status_code == 200


def test_a_real_server_limits_new_games_per_address(tmp_path: Path) -> None:
    port = free_port()
    proc = start_server(tmp_path / "games.sqlite", port, tmp_path / "serve.log", 0.0)
    try:
        base = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=base, timeout=30) as c:
            # The first limit one address reaches: its games in play (docs/SERVER.md, "Limits").
            made = [c.post("/api/games", json=BODY).status_code for _ in range(20)]
            assert made == [201] * 20
            refused = c.post("/api/games", json=BODY)
        assert refused.status_code == 429
        assert "your address has 20 games waiting or in play" in refused.json()["detail"]
        assert refused.headers["x-content-type-options"] == "nosniff"
    finally:
        proc.terminate()
        proc.wait(10)
