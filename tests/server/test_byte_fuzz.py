"""A byte-level fuzzer beside the schema fuzzer (tests/server/test_fuzz.py, which sends valid
JSON only): hypothesis draws bytes (JSON-like text with odd numbers, strings with control
characters and lone surrogates, invalid UTF-8, deep nesting, truncated and spliced bodies)
and throws them at every route, in bodies, queries and header values, and at a game's
WebSocket, on a real ``meeple serve`` with its access log on (docs/SERVER.md, "Bad bytes").

Every answer is under 500; a body the strict reader refuses is answered 400 or 422 without
repeating any of it; no answer repeats a seat's token, the host's key or the invite code; no
socket (a spectator's or a seat's) is closed with 1011 or dropped without a close; the server
still serves; and its log holds no traceback and nothing of what was sent in a body, a header
or a message. (Drawn requests that happen to be valid play on: tests/server/test_bad_bytes.py
checks that refused ones change nothing.)
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote_from_bytes

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from meeple.server import wire
from meeple.server.metrics import ADMIN_ENV
from tests.server.process import free_port, start_server
from tests.server.test_bad_bytes import Table, bodies, table

MARK = "Fz9-mark"
"""In every string drawn for a body, a header or a message: the log must never hold it."""

ADMIN = "admin-token-for-the-byte-fuzzer"

ODD_NUMBERS = (
    "NaN", "Infinity", "-Infinity", "1e400", "-1e400", "1e-400", "-0", "-0.0", "0e0",
    "2147483648", "9223372036854775808", "-9223372036854775809", "1" * 400, "1" * 5000,
    "0.1e1", "1E+2", "01", "+1", ".5", "1.", "0x10", "1_000", "١",
)  # fmt: skip
"""Numbers JSON has and has not: non-finite, out of range, negative zero, huge, malformed."""

BAD_TEXT = st.sampled_from(["\x00", "\x01", "\x1b", "\x7f", "\x85", "\x9b", "\ud800", "\udfff"])
ANY_TEXT = st.text(st.characters(codec=None, categories=None), max_size=12)


@st.composite
def strings(draw: st.DrawFn) -> str:
    """A JSON string literal holding :data:`MARK`, maybe a bad character, as JSON escapes it
    or raw."""
    parts = [MARK, draw(ANY_TEXT)]
    if draw(st.booleans()):
        parts.insert(draw(st.integers(0, 2)), draw(BAD_TEXT))
    text = "".join(parts)
    return json.dumps(text, ensure_ascii=draw(st.booleans()))


scalars = st.one_of(
    st.sampled_from(ODD_NUMBERS),
    st.integers().map(str),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    strings(),
    st.sampled_from(["true", "false", "null", "True", "None", "nul", "'x'"]),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4).map(lambda xs: "[" + ",".join(xs) + "]"),
        st.lists(st.tuples(strings(), inner), max_size=4).map(
            lambda kv: "{" + ",".join(f"{k}:{v}" for k, v in kv) + "}"
        ),
    ),
    max_leaves=10,
)


def encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")  # a lone surrogate: bytes no UTF-8 reader takes


@st.composite
def mangled(draw: st.DrawFn, base: bytes) -> bytes:
    """``base`` cut, spliced with random bytes, or with a byte changed."""
    how = draw(st.sampled_from(["cut", "splice", "flip"]))
    at = draw(st.integers(0, len(base)))
    if how == "cut":
        return base[:at]
    if how == "splice":
        return base[:at] + draw(st.binary(max_size=8)) + base[at:]
    return base[:at] + bytes([draw(st.integers(0, 255))]) + base[at + 1 :]


def body_of(valid: dict[str, Any]) -> st.SearchStrategy[bytes]:
    """Bodies for a route that takes ``valid``: it with one value drawn (a string, a number,
    any JSON-like text), mangled bytes of it, any JSON-like text, random bytes, deep nesting."""
    keys = list(valid)

    def with_value(key: str, value: str) -> bytes:
        placed = json.dumps({**valid, key: "__VALUE__"}).replace('"__VALUE__"', value)
        return encode(placed)

    return st.one_of(
        st.builds(with_value, st.sampled_from(keys), values),
        st.builds(with_value, st.sampled_from(keys), values).flatmap(mangled),
        values.map(encode),
        st.binary(max_size=64),
        st.integers(1, 6000).map(lambda n: b"[" * n + b"]" * (n % 3 == 0) * n),
    )


GETS = (
    "/api/games", "/api/games/{a}", "/api/games/{a}/view", "/api/games/{a}/log",
    "/api/games/{a}/chat", "/api/games/{a}/history", "/api/games/{a}/replay/1",
    "/api/games/{a}/save", "/api/games/{a}/chances", "/api/games/{a}/board", "/api/catalog",
    "/api/admin/games", "/api/admin/games/{a}", "/healthz", "/metrics", "/", "/play/{a}",
)  # fmt: skip
"""Routes without a body: their queries and ids are drawn (and header values, everywhere)."""

query_bytes = st.binary(max_size=24).map(lambda b: quote_from_bytes(b, safe="=&"))
headers = st.fixed_dictionaries(
    {},
    optional={
        "X-Fuzz": st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=20),
        "Authorization": st.sampled_from(["Bearer ", "Basic ", "bearer", ""]),
    },
).map(lambda h: {k: f"{v.strip()} {MARK}".strip() for k, v in h.items()})


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """``meeple serve`` with its access log and the admin endpoints on, no per-client limits
    (so each drawn request reaches the routes), and its log file."""
    tmp = tmp_path_factory.mktemp("bytefuzz")
    port, log = free_port(), tmp / "log.txt"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(ADMIN_ENV, ADMIN)
        proc = start_server(tmp / "g.sqlite", port, log, 0.0, ("--access-log", "--no-limits"))
    try:
        yield f"127.0.0.1:{port}", log
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.fixture(scope="module")
def games(served: tuple[str, Path]) -> Iterator[tuple[httpx.Client, Table]]:
    with httpx.Client(base_url=f"http://{served[0]}", timeout=30) as client:
        yield client, table(client)


def no_secret(text: str, t: Table) -> None:
    for secret in (t.ann, t.active_host, t.waiting_host, t.code):
        assert secret not in text


FUZZ = settings(
    max_examples=300,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)


def test_drawn_bodies_queries_and_headers(
    games: tuple[httpx.Client, Table], served: tuple[str, Path]
) -> None:
    client, t = games
    routes = [(m, p, b) for m, p, b in bodies(t) if not p.endswith(("/start", "/cancel"))]
    admin = {"Authorization": f"Bearer {ADMIN}"}

    @FUZZ
    @given(
        st.one_of(
            st.sampled_from(routes).flatmap(
                lambda r: st.tuples(st.just(r[0]), st.just(r[1]), body_of(r[2]), headers)
            ),
            st.tuples(
                st.just("GET"),
                st.builds(lambda p, q: f"{p}?{q}", st.sampled_from(GETS), query_bytes),
                st.just(b""),
                headers,
            ),
        )
    )
    def one(case: tuple[str, str, bytes, dict[str, str]]) -> None:
        method, path, content, sent_headers = case
        path = path.format(a=t.active)
        if path.startswith("/api/admin/"):
            sent_headers = {**sent_headers, **admin}
        r = client.request(method, path, content=content, headers=sent_headers)
        assert r.status_code < 500, (method, path, content[:200], r.text[:300])
        no_secret(r.text, t)
        if content and r.status_code in (400, 422):
            try:
                wire.loads(content)
            except wire.BadJSON:  # the strict reader's: the answer repeats none of it
                assert MARK not in r.text, (content[:200], r.text[:300])

    one()
    check_log(served)


@st.composite
def frames(draw: st.DrawFn) -> str | bytes:
    act = {"type": "act", "state_id": 0, "action": "roll", "ref": 1}
    kind = draw(st.sampled_from(["act", "auth", "other"]))
    valid = act if kind == "act" else {"type": kind, "token": "x"}
    raw = draw(body_of(valid))
    try:
        return raw.decode() if draw(st.booleans()) else raw  # a text frame, when UTF-8
    except UnicodeDecodeError:
        return raw


def test_drawn_socket_messages(games: tuple[httpx.Client, Table], served: tuple[str, Path]) -> None:
    _, t = games
    url = f"ws://{served[0]}/api/games/{t.active}/ws"
    auth = json.dumps({"type": "auth", "token": t.ann})

    @settings(FUZZ, max_examples=150)
    @given(st.booleans(), st.lists(frames(), min_size=1, max_size=5))
    def one(seated: bool, sent: list[str | bytes]) -> None:
        """A spectator's socket or Ann's: the drawn frames, then two auth messages (the
        second, at least, is refused: every socket ends closed)."""
        heard: list[str] = []
        with connect(url, max_size=None) as ws:
            for frame in [*([auth] if seated else []), *sent, auth, auth]:
                try:
                    ws.send(frame)
                except ConnectionClosed:
                    break
            try:
                while True:
                    message = ws.recv(timeout=30)
                    heard.append(message if isinstance(message, str) else message.decode())
            except ConnectionClosed as closed:
                assert closed.rcvd is not None, "dropped without a close frame"
                assert closed.rcvd.code in (1000, 1008), closed.rcvd
        for message in heard:
            assert MARK not in message or json.loads(message)["type"] == "refused", message
            no_secret(message, t)

    one()
    check_log(served)


def check_log(served: tuple[str, Path]) -> None:
    """The server serves, and its log holds no failure and nothing sent in a body, a header
    value or a message (the access log's request lines are there: queries are not bodies)."""
    host, log = served
    assert httpx.get(f"http://{host}/healthz").status_code == 200
    text = log.read_text(errors="replace")
    assert re.search(r'"(GET|POST|PUT) /api/games', text), "the access log is on"
    for bad in ("Traceback", "Exception in ASGI", "Logging error", "failed (messages withheld"):
        assert bad not in text, text[text.find(bad) - 500 : text.find(bad) + 2000]
    assert MARK not in text
