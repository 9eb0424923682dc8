"""Bad bytes (docs/SERVER.md, "Bad bytes"; issue 39, finding 2): ``NaN``, ``Infinity``,
``1e400``, lone surrogates, invalid UTF-8, NUL and other control characters, in any string or
number of any route's body, in a path or a query, and in a WebSocket message, are answered
``400`` or ``422`` with the reason and where, never ``500``; no answer and no log line repeats
what was sent (the tokens in the body least of all); nothing changes; on SQLite and on
PostgreSQL (which cannot store a NUL). A route that fails anyway is a ``500`` whose log line
withholds the exceptions' messages.

Before: ``NaN``, ``Infinity`` or ``"\\ud800"`` in a body made FastAPI's 422 answer fail while
repeating the input: 500, with a traceback holding the request, token included. A chat message
with a NUL was stored on SQLite and a 500 on PostgreSQL.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from meeple.server import intake
from meeple.server.app import create_app
from meeple.server.logs import WITHHELD, withheld_traceback
from meeple.server.metrics import ADMIN_ENV
from tests.server.conftest import TEST_HOSTS, game_only
from tests.server.services import postgres_database

MARK = "Qx7-marker"
"""In every string the tests send: no answer and no log line may repeat it."""

ADMIN = "admin-token-for-the-bad-bytes-tests"

BAD_CHARS = ("\x00", "\x1b", "\x7f", "\x9b", "\ud800", "\udfff")
"""NUL, escape, delete, a C1 control, lone surrogates (high, low): in a string, each 422."""

BAD_NUMBERS = ("NaN", "Infinity", "-Infinity", "1e400", "-1e400", "1" * 5000)
"""Not numbers the server reads: each 400."""


@dataclass(frozen=True)
class Table:
    """Two games: one in play (Ann and Bob), one waiting for an invited person."""

    active: str
    waiting: str
    ann: str
    active_host: str
    waiting_host: str
    code: str

    def secrets(self) -> tuple[str, ...]:
        return (self.ann, self.active_host, self.waiting_host, self.code, MARK)


def table(client: httpx.Client) -> Table:
    """The two games, made through ``client`` (a TestClient, or an HTTP client of a real
    server)."""
    people = [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}]
    rules = {"start_player": "first_seat"}
    body = {"game": "classic", "seats": people, "seed": 3, "rules": rules}
    active = client.post("/api/games", json=body).json()
    body = {"game": "classic", "seats": [people[0], {"type": "open"}], "seed": 3}
    waiting = client.post("/api/games", json=body).json()
    return Table(
        active["id"],
        waiting["id"],
        active["seats"][0]["token"],
        active["host_token"],
        waiting["host_token"],
        waiting["invite"],
    )


def bodies(t: Table) -> list[tuple[str, str, dict[str, Any]]]:
    """Every route that takes a body, with a body it takes (method, path, body)."""
    a, w, ann = f"/api/games/{t.active}", f"/api/games/{t.waiting}", t.ann
    ask = {"others_turns": "never", "own_turn": "build", "grace": 1.5}
    seats = [{"type": "human", "name": "Ann", "ask": ask}, {"type": "bot", "bot": "random"}]
    made = {"game": "classic", "seats": seats, "seed": 1, "turn_timer": 60.5, "listed": False}
    made["rules"] = {"start_player": "first_seat"}
    return [
        ("POST", "/api/games", made),
        ("POST", f"{w}/join", {"code": t.code, "seat": 1, "name": "Cy"}),
        ("POST", f"{w}/start", {"host_token": t.waiting_host}),
        ("POST", f"{w}/cancel", {"host_token": t.waiting_host}),
        ("POST", f"{a}/stand-in", {"token": t.active_host, "seat": 0, "on": False}),
        ("POST", f"{a}/actions", {"token": ann, "state_id": 0, "action": "roll"}),
        ("PUT", f"{a}/ask", {"token": ann, **ask}),
        ("POST", f"{a}/hold", {"token": ann, "hold": False}),
        ("POST", f"{a}/proxy", {"token": ann, "limit": 10}),
        ("POST", f"{a}/why", {"token": ann, "actions": ["roll", "buy"]}),
        ("POST", f"{a}/hint", {"token": ann, "state_id": 0}),
        ("POST", f"{a}/chat", {"token": ann, "text": "hello"}),
        ("POST", f"{a}/rematch", {"token": ann}),
        ("POST", f"{w}/reissue", {"token": t.waiting_host, "seat": 1}),
        ("POST", f"{w}/moderate", {"host_token": t.waiting_host, "seat": 0, "chat": None}),
        ("POST", "/api/admin/purge", {"older_than_days": 1.5}),
    ]


def leaves(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every string and number in ``value`` with its path."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from leaves(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from leaves(v, (*path, i))
    elif isinstance(value, (str, int, float)) and not isinstance(value, bool):
        yield path, value


def replaced(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[path[0]] = replaced(value[path[0]], path[1:], new)
    return copy


NUMBER = "__NUMBER__"


def variants(body: dict[str, Any]) -> Iterator[tuple[str, bytes, int]]:
    """Bad versions of ``body`` with the status each must get: each string with each of
    :data:`BAD_CHARS` (escaped as JSON writes it, 422), each number as each of
    :data:`BAD_NUMBERS` (400), a bad key (422), and raw bytes: a NUL byte inside a string
    and a surrogate encoded in UTF-8 (not JSON, not UTF-8: 400)."""
    for path, value in leaves(body):
        if isinstance(value, str):
            for ch in BAD_CHARS:
                text = json.dumps(replaced(body, path, f"{MARK}{ch}{value}"))
                yield f"{path} {ch!a}", text.encode(), 422
            raw = json.dumps(replaced(body, path, f"{MARK}\x00"), ensure_ascii=False)
            yield f"{path} raw NUL", raw.replace("\\u0000", "\x00").encode(), 400
            raw = json.dumps(replaced(body, path, f"{MARK}\ud800"), ensure_ascii=False)
            yield f"{path} raw surrogate", raw.encode("utf-8", "surrogatepass"), 400
        else:
            text = json.dumps(replaced(body, path, NUMBER))
            for number in BAD_NUMBERS:
                yield f"{path} {number[:10]}", text.replace(f'"{NUMBER}"', number).encode(), 400
    yield "a key", json.dumps({**body, f"{MARK}\x00": 1}).encode(), 422
    yield "not UTF-8", json.dumps(body).encode()[:-1] + b"\xff}", 400


def assert_no_echo(text: str, t: Table) -> None:
    for secret in t.secrets():
        assert secret not in text, (secret, text[:300])


def snapshot(client: TestClient, t: Table) -> list[Any]:
    """What a request could have changed: the two games (less presence, which changes with
    time alone), the chat and the lobby's list."""
    out = [game_only(client.get(f"/api/games/{gid}").json()) for gid in (t.active, t.waiting)]
    out.append(client.get(f"/api/games/{t.active}/chat").json())
    out.append(client.get("/api/games").json())
    return out


@pytest.fixture(params=["sqlite", "postgresql"])
def any_client(
    request: pytest.FixtureRequest, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> Iterator[TestClient]:
    """A TestClient of the app on SQLite, then on PostgreSQL (skipped without one), with the
    admin endpoints on."""
    monkeypatch.setenv(ADMIN_ENV, ADMIN)
    if request.param == "sqlite":
        with TestClient(create_app(db_url, 0.0, allowed_hosts=TEST_HOSTS)) as client:
            yield client
        return
    with postgres_database() as url:
        app = create_app(url, 0.0, allowed_hosts=TEST_HOSTS)
        with TestClient(app) as client:
            yield client


def test_every_route_takes_a_body_listed_here(any_client: TestClient) -> None:
    """:func:`bodies` covers every route with a request body (a new route joins the list)."""
    spec = any_client.get("/openapi.json").json()
    with_body = {
        (method.upper(), path)
        for path, ops in spec["paths"].items()
        for method, op in ops.items()
        if "requestBody" in op
    }
    t = table(any_client)
    listed = {
        (method, path.replace(t.active, "{gid}").replace(t.waiting, "{gid}"))
        for method, path, _ in bodies(t)
    }
    assert with_body == listed


def test_bad_bytes_in_any_body_are_400_or_422(
    any_client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    client, t = any_client, table(any_client)
    before = snapshot(client, t)
    seen: set[int] = set()
    admin = {"Authorization": f"Bearer {ADMIN}"}
    for method, path, body in bodies(t):
        for label, content, status in variants(body):
            r = client.request(method, path, content=content, headers=admin)
            assert r.status_code == status, (method, path, label, r.text)
            detail = r.json()["detail"]
            assert isinstance(detail, str) and detail.startswith("body"), detail
            assert_no_echo(r.text, t)
            seen.add(status)
    assert seen == {400, 422}
    assert snapshot(client, t) == before  # nothing changed
    assert_no_echo(caplog.text, t)


def test_the_reason_says_where(client: TestClient) -> None:
    def post(content: bytes) -> str:
        r = client.post("/api/games", content=content)
        assert r.status_code in (400, 422)
        detail: str = r.json()["detail"]
        return detail

    seats = '[{"type":"human","name":"Ann"},{"type":"human","name":"B\\u0000b"}]'
    assert post(f'{{"game":"classic","seats":{seats}}}'.encode()).startswith(
        "body.seats[1].name: a string may not hold a control character"
    )
    assert post(b'{"game":"classic","seed":NaN}') == "body: not JSON: NaN is no JSON number"
    assert post(b'{"seed":1e400}') == (
        "body: not JSON the server reads: a number beyond a double's range"
    )
    assert post(b'{"game":') == "body: not JSON: expecting value at line 1 column 9"
    assert post(b'{"game":"\xc3"}') == "body: not JSON: not UTF-8 text (byte 10)"
    assert post(b"[" * 5000) == "body: not JSON the server reads: nested too deep"
    assert post(b'{"rules":{"x\\u0000":1}}') == (
        "body.rules (a key): a string may not hold a control character (other than tab and "
        "line breaks) or a lone surrogate"
    )


def test_odd_numbers_that_are_numbers_are_read(client: TestClient) -> None:
    """``-0``, ``1e-400`` and a number with a long fraction are JSON numbers Python reads:
    taken (or refused by the model, never by the reader)."""
    people = '[{"type":"human","name":"Ann"},{"type":"human","name":"Bob"}]'
    for seed in ("-0", "0.0", "1e-400", "7.000000000000000000000001"):
        r = client.post(
            "/api/games", content=f'{{"game":"classic","seats":{people},"seed":{seed}}}'
        )
        assert r.status_code in (201, 422), r.text
        assert "not JSON" not in r.text


def test_nul_in_chat_is_refused_on_both_databases(any_client: TestClient) -> None:
    """Issue 39: a chat message with a NUL was stored on SQLite, a 500 on PostgreSQL."""
    t = table(any_client)
    url = f"/api/games/{t.active}/chat"
    for text in ("a\x00b", "\x00", "bell\x07", "ansi \x1b[2J"):
        r = any_client.post(url, json={"token": t.ann, "text": text})
        assert r.status_code == 422, r.text
        assert r.json()["detail"].startswith("body.text: a string may not hold")
    assert any_client.get(url).json()["messages"] == []
    r = any_client.post(url, json={"token": t.ann, "text": "tab\tand\nline"})
    assert r.status_code == 201 and r.json()["text"] == "tab and line"  # whitespace: one space


@pytest.mark.parametrize(
    "url",
    [
        "/api/games/%00",
        "/api/games/%00/view",
        "/api/games/%00/log",
        "/api/games/%1b/chat",
        "/api/games/%C2%9b",
        "/api/games?status=%00",
        "/api/games/{a}/log?before=1%00",
        "/api/games/{a}/chat?after=%00",
        "/api/games/{a}/view?token=%00{mark}",
        "/api/admin/games?created_after=%00",
        "/play/%00",
        "/static/%00.js",
    ],
)
def test_bad_bytes_in_a_path_or_query_are_400(any_client: TestClient, url: str) -> None:
    """A NUL in a game's id reached PostgreSQL's query (500) before; every control character
    in a path or a query is refused before any route."""
    t = table(any_client)
    r = any_client.get(url.format(a=t.active, mark=MARK))
    assert r.status_code == 400, r.text
    where = "path" if "?" not in url or "%00" in url.split("?")[0] else "query"
    assert r.json()["detail"] == f"the {where} holds a control character"
    assert_no_echo(r.text, t)


def test_a_path_that_is_not_utf8_is_no_game(any_client: TestClient) -> None:
    r = any_client.get("/api/games/%ED%A0%80")  # a surrogate in UTF-8: decoded as U+FFFD
    assert r.status_code == 404


# ---- the WebSocket ----


def socket_act(ws: Any, text: str | bytes) -> dict[str, Any]:
    if isinstance(text, bytes):
        ws.send_bytes(text)
    else:
        ws.send_text(text)
    answer: dict[str, Any] = ws.receive_json()
    return answer


def test_bad_bytes_in_a_socket_action_are_refused_with_the_reason(
    any_client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    t = table(any_client)
    before = snapshot(any_client, t)
    act = {"type": "act", "state_id": 0, "action": "roll", "ref": 7}
    with any_client.websocket_connect(f"/api/games/{t.active}/ws") as ws:
        assert ws.receive_json()["type"] == "hello"
        ws.send_text(json.dumps({"type": "auth", "token": t.ann}))
        assert ws.receive_json()["seat"] == 0
        n = 0
        for label, content, status in variants(act):
            if "'ref'" in label or "'type'" in label:
                continue  # (not an action any more, or no ref to answer with)
            frame = content.replace(b'"body', b'"message')
            answer = socket_act(ws, frame if n % 2 else frame.decode("utf-8", "surrogatepass"))
            n += 1
            assert answer["type"] == "refused" and answer["ref"] == 7, (label, answer)
            assert answer["status"] == status, (label, answer)
            assert answer["detail"].startswith("message"), answer
            assert_no_echo(json.dumps(answer), t)
            if n % 5 == 0:  # under the socket's rate of actions
                ws.send_text(json.dumps({"type": "auth", "token": t.ann}))
                with pytest.raises(WebSocketDisconnect):
                    ws.receive_json()
                break
    assert snapshot(any_client, t) == before
    assert_no_echo(caplog.text, t)


def test_a_refused_socket_action_repeats_only_a_ref_it_could_take(client: TestClient) -> None:
    t = table(client)
    with client.websocket_connect(f"/api/games/{t.active}/ws") as ws:
        assert ws.receive_json()["type"] == "hello"
        ws.send_text(json.dumps({"type": "auth", "token": t.ann}))
        assert ws.receive_json()["seat"] == 0
        for ref, repeated in ((2**53, 2**53), (2**53 + 1, None), (-1, None), ("7", None)):
            ref_text = json.dumps(ref)
            frame = f'{{"type":"act","state_id":NaN,"action":"roll","ref":{ref_text}}}'
            answer = socket_act(ws, frame)
            assert answer["status"] == 400 and answer["ref"] == repeated, answer


@pytest.mark.parametrize(
    ("frame", "word"),
    [
        ('{"type":"auth","token":"x\\u0000"}', "message.token: a string may not hold"),
        ('{"type":"auth","token":"\\ud800"}', "message.token: a string may not hold"),
        ('{"type":"auth","token":"x","n":NaN}', "message: not JSON: NaN"),
    ],
)
def test_bad_bytes_in_a_socket_auth_close_it_with_the_reason(
    client: TestClient, frame: str, word: str
) -> None:
    t = table(client)
    with client.websocket_connect(f"/api/games/{t.active}/ws") as ws:
        assert ws.receive_json()["type"] == "hello"
        ws.send_text(frame)
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert closed.value.code == 1008 and closed.value.reason.startswith(word)


def test_a_socket_path_with_a_nul_is_closed(any_client: TestClient) -> None:
    with (
        any_client.websocket_connect("/api/games/%00/ws") as ws,
        pytest.raises(WebSocketDisconnect) as closed,
    ):
        ws.receive_json()
    assert closed.value.code == 1008
    assert closed.value.reason == "the path holds a control character"


def test_ignored_socket_messages_with_bad_bytes_stay_ignored(client: TestClient) -> None:
    """A message of no type the server knows is ignored, bad bytes or not."""
    t = table(client)
    with client.websocket_connect(f"/api/games/{t.active}/ws") as ws:
        assert ws.receive_json()["type"] == "hello"
        for frame in ('{"type":"ping","n":NaN}', '{"x":"\\u0000"}', "NaN", b"\xff\xfe"):
            ws.send_bytes(frame) if isinstance(frame, bytes) else ws.send_text(frame)
        ws.send_text(json.dumps({"type": "auth", "token": t.ann}))
        assert ws.receive_json()["seat"] == 0


# ---- FastAPI's 422 ----


def test_a_validation_error_repeats_nothing(client: TestClient) -> None:
    """FastAPI's own 422 answers ``input`` and ``ctx``: not here (loc keeps field names)."""
    seats = [{"type": MARK, "name": "Ann"}, {"type": "human", "name": "Bob", MARK: 1}]
    r = client.post("/api/games", json={"game": "classic", "seats": seats, "seed": MARK})
    assert r.status_code == 422
    assert MARK not in r.text
    problems = r.json()["detail"]
    assert all(set(p) == {"type", "loc", "msg"} for p in problems)
    assert problems[0]["loc"][:3] == ["body", "seats", 0]
    assert "expected tags: 'human', 'bot', 'open'" in problems[0]["msg"]
    assert ["body", "seats", 1, "human", "…"] in [p["loc"] for p in problems]


def test_problem_keeps_what_helps() -> None:
    error = {"type": "string_too_long", "loc": ("body", "seats", 0, "name"), "msg": "x\x07" * 400}
    got = intake.problem(error)
    assert got["loc"] == ["body", "seats", 0, "name"] and len(got["msg"]) <= 6 * intake.MSG_MAX
    assert "\x07" not in got["msg"] and "\\u0007" in got["msg"]


# ---- a route that fails anyway ----


def test_a_failing_route_is_a_500_whose_log_withholds_the_messages(
    client: TestClient, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fault in a route (here: storage raising with what a client sent in its message, as a
    database error quoting its parameters does) is a 500 that says so, and one log line with
    the traceback, without the message."""
    t = table(client)
    hub = client.app.state.hub  # type: ignore[attr-defined]

    def broken(*args: Any) -> Any:
        try:
            raise KeyError(f"first {t.ann}")
        except KeyError as exc:
            raise RuntimeError(f"[parameters: ('{MARK}', '{t.ann}')]") from exc

    monkeypatch.setattr(hub.storage, "add_chat", broken)
    caplog.set_level(logging.DEBUG)
    r = client.post(f"/api/games/{t.active}/chat", json={"token": t.ann, "text": MARK})
    assert r.status_code == 500
    assert r.json() == {"detail": "internal error: the server's log has the traceback"}
    (record,) = [r for r in caplog.records if r.levelno >= logging.ERROR]
    text = record.getMessage()
    assert f"POST /api/games/{t.active}/chat failed" in text
    assert "in broken" in text and f"builtins.RuntimeError: {WITHHELD}" in text
    assert f"builtins.KeyError: {WITHHELD}" in text and "direct cause" in text
    assert_no_echo(caplog.text, t)
    assert client.get("/healthz").status_code == 200  # and the server goes on


def test_withheld_traceback_follows_causes_contexts_and_groups() -> None:
    def fail() -> None:
        try:
            raise ValueError(f"inner {MARK}")
        except ValueError:
            raise ExceptionGroup(f"group {MARK}", [OSError(MARK), TypeError(MARK)])  # noqa: B904

    try:
        fail()
    except ExceptionGroup as exc:
        text = withheld_traceback(exc)
    assert MARK not in text
    assert text.count("Traceback (most recent call last)") == 4
    assert "During handling of the above exception" in text
    assert f"builtins.ValueError: {WITHHELD}" in text
    assert f"builtins.OSError: {WITHHELD}" in text and "(2 of the group's 2)" in text
    assert 'raise ValueError(f"inner {MARK}")' in text  # the source line: code, not values
