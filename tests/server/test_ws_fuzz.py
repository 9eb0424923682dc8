"""Fuzz a game's WebSocket with every shape of client message (hypothesis): random text and
bytes, JSON of any type and nesting, ``auth`` messages with tokens of every kind (missing, not a
string, huge, any Unicode, another game's, another seat's, a valid one), unknown types, frames
beyond the size limit and floods beyond the per-socket rate.

Every socket's story is checked against a model of the protocol (docs/SERVER.md, "WebSocket"):
a hello on connecting, a seat's hello for the first valid ``auth``, anything else ignored, and a
refusal closes the socket with 1008 and the reason (a bad or second ``auth``, too many
messages) or, from a real ``meeple serve``, 1009 for a frame over the limit. The server must
never fail (the TestClient raises the app's exceptions; a real server drops the connection
without a close frame and logs the traceback: both are checked), the games must be exactly as
before (public view, each seat's view, the log and the chat), and a normal client must still
be served afterwards.

Each example ends with two ``auth`` messages with a valid token, so every socket ends closed
whatever came before (the first makes a spectator a seat, the second is refused), and the test
reads every message the server sent, never waiting on one that will not come. A fixed
catalogue of messages runs first, so every kind is sent whatever hypothesis draws.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import quote

import httpx
import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from meeple.server import wire
from meeple.server.app import create_app
from meeple.server.limits import Limits
from meeple.server.schemas import MAX_ACTION, MAX_TOKEN
from tests.server.conftest import TEST_HOSTS, game_only
from tests.server.process import free_port, start_server

SEATS = [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}]
"""People who were never asked when to move on: nothing plays for them, so the game stands
still unless a message could make it move."""

FRAME_LIMIT = 16 * 1024 + MAX_ACTION
"""The largest message ``meeple serve`` takes (uvicorn's ``ws_max_size``, cli/serve.py)."""

FUZZ_LIMITS = Limits(
    games_per_client_hour=None,
    live_games=None,
    sockets_per_game=None,
    sockets_per_client=None,
    socket_messages=8,  # a flood is a few messages more, cheap to draw
    socket_window=60.0,
    socket_actions=6,
)

MISSING = object()
"""An ``auth`` message without a token."""

Frame = str | bytes


@dataclass(frozen=True)
class Tokens:
    seats: tuple[str, ...]  # the fuzzed game's, in seat order
    others: tuple[str, ...]  # another game's seats, and the fuzzed game's host key


REFUSALS = (
    "does not belong",
    "token as a string",
    "already",
    "too many messages",
    "too many actions",
    "not json",
    "may not hold",
)
"""A word of each reason the app gives for closing a socket on what a client sent."""


REFUSED = "refused"
"""A ``refused`` answer to an action, in a story (none of the fuzzer's actions is valid)."""


class Story(NamedTuple):
    """What a socket heard: in order, the seat of each hello and :data:`REFUSED` for each
    answer to an action; then its close code and reason."""

    hellos: list[int | str | None]
    code: int
    reason: str


# -- the model ------------------------------------------------------------------------------


IGNORED = object()
"""What the app makes of a message that is no ``auth`` message and no action."""
ACT = object()
"""An action (``{"type": "act", ...}``): answered, and counted apart from other messages."""


@dataclass(frozen=True)
class Bad:
    """An auth message the strict reader refuses (bad bytes): a word of the reason."""

    word: str


def _claimed(frame: Frame) -> object:
    """What the protocol makes of a client message: :data:`IGNORED` (not JSON, not an object,
    of no type the app knows), :data:`ACT` for an action (bad bytes in it too: refused), a
    :class:`Bad` for an auth message with bad bytes, else the ``token`` of an auth message,
    whatever it is (``MISSING`` if none)."""
    if not frame:
        return IGNORED
    bad = None
    try:
        data = wire.loads(frame)  # as the app parses it: no collection at the recursion limit
    except wire.BadJSON as exc:
        bad = Bad("may not hold" if exc.status == 422 else "not json")
        try:  # read as json.loads reads it, to tell an action or an auth from the rest
            data = wire.loads(frame, strict=False)
        except (ValueError, RecursionError):
            return IGNORED
    if isinstance(data, dict) and data.get("type") == "act":
        return ACT
    if not isinstance(data, dict) or data.get("type") != "auth":
        return IGNORED
    return bad or data.get("token", MISSING)


Want = tuple[list[int | str | None], int | None, str]
"""A story the model allows: the hellos, the close code (``None``: still open) and a word of
the reason."""


def expected(
    url_token: str | None, frames: list[Frame], tokens: Tokens, most: int, acts: int
) -> Want:
    """The model of the app: the hellos and answers a socket hears for ``frames``, then the
    code it is closed with and a word of the reason; ``most`` messages and ``acts`` actions
    are allowed."""
    seat: int | None = None
    if url_token is not None:
        if url_token[: MAX_TOKEN + 1] not in tokens.seats:
            return [], 1008, "does not belong"
        seat = tokens.seats.index(url_token[: MAX_TOKEN + 1])
    hellos: list[int | str | None] = [seat]
    messages = actions = 0
    for frame in frames:
        token = _claimed(frame)
        if token is ACT:
            actions += 1
            if actions > acts:
                return hellos, 1008, "too many actions"
            hellos.append(REFUSED)
            continue
        messages += 1
        if messages > most:
            return hellos, 1008, "too many messages"
        if token is IGNORED:
            continue
        if isinstance(token, Bad):
            return hellos, 1008, token.word
        if not isinstance(token, str) or not token:
            return hellos, 1008, "token as a string"
        if seat is not None:
            return hellos, 1008, "already"
        if token[: MAX_TOKEN + 1] not in tokens.seats:
            return hellos, 1008, "does not belong"
        seat = tokens.seats.index(token)
        hellos.append(seat)
    return hellos, None, ""


def size(frame: Frame) -> int:
    return len(frame.encode("utf-8", "surrogatepass") if isinstance(frame, str) else frame)


def expected_of_a_server(
    url_token: str | None, frames: list[Frame], tokens: Tokens, most: int, acts: int
) -> tuple[list[Frame], list[Want]]:
    """The model of ``meeple serve``: the frames a client sends (it stops after one over the
    limit: the server fails the connection on it) and the stories allowed. uvicorn refuses a
    frame over the limit with 1009 as it arrives, whatever the app has still to read before
    it, so the app's story of the frames before it may be cut short there, at any hello."""
    big = next((i for i, f in enumerate(frames) if size(f) > FRAME_LIMIT), None)
    if big is None:
        return frames, [expected(url_token, frames, tokens, most, acts)]
    hellos, code, word = expected(url_token, frames[:big], tokens, most, acts)
    cut: list[Want] = [(hellos[:n], 1009, "") for n in range(len(hellos) + 1)]
    return frames[: big + 1], cut + ([(hellos, code, word)] if code is not None else [])


# -- the messages ---------------------------------------------------------------------------


def auth(token: Any) -> str:
    return json.dumps({"type": "auth", "token": token})


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


def encoded(value: Any) -> st.SearchStrategy[Frame]:
    """``value`` as JSON in a text frame or a binary one, ASCII-escaped or not."""

    def frame(binary: bool, ascii_only: bool) -> Frame:
        text = json.dumps(value, ensure_ascii=ascii_only)
        return text.encode("utf-8", "surrogatepass") if binary else text  # "\ud800" is no UTF-8

    return st.builds(frame, st.booleans(), st.booleans())


def on_the_wire(frame: Frame) -> Frame:
    """``frame`` as a real client can send it: a text frame is UTF-8, so a text with a lone
    surrogate goes as the bytes Python would make of it."""
    if isinstance(frame, str):
        try:
            frame.encode()
        except UnicodeEncodeError:
            return frame.encode("utf-8", "surrogatepass")
    return frame


def token_values(tokens: Tokens) -> st.SearchStrategy[Any]:
    valid = st.sampled_from(tokens.seats)
    return st.one_of(
        st.just(MISSING),
        valid,  # a valid one (a seat's, or another seat's when the socket has one)
        st.sampled_from(tokens.others),  # another game's seat, the host's key
        valid.map(lambda t: t + "x") | valid.map(lambda t: t[:-1]) | valid.map(str.upper),
        valid.map(lambda t: f" {t}") | valid.map(lambda t: t + "x" * MAX_TOKEN),
        json_values,  # null, numbers, lists, objects ... and strings
        st.text(min_size=1, max_size=80),  # any Unicode
        st.sampled_from(["", "\ud800", "\x00", "\u202e" + tokens.seats[0], "🎲" * 40]),
        st.integers(MAX_TOKEN, 3 * FRAME_LIMIT).map(lambda n: "t" * n),  # huge
    )


def auth_frames(tokens: Tokens) -> st.SearchStrategy[Frame]:
    extras = st.dictionaries(st.sampled_from(["seat", "id", "state_id", "action"]), json_values)
    return st.tuples(token_values(tokens), extras).flatmap(
        lambda te: encoded(
            {"type": "auth", **te[1], **({} if te[0] is MISSING else {"token": te[0]})}
        )
    )


DEPTHS = st.integers(2, 400) | st.integers(1200, 8000)
"""How deep a drawn JSON nests: well below Python's recursion limit (1000, counted from the
frames already on the stack), so the model (deep in pytest's stack) and the server both parse
it, or well above it, where neither does (the server ignores it); never near the limit."""


def nested(depth: int, kind: int) -> str:
    """JSON nested ``depth`` deep: arrays, objects, or auth messages inside auth messages."""
    if kind == 0:
        return "[" * depth + "]" * depth
    if kind == 1:
        return '{"a":' * depth + "1" + "}" * depth
    return '{"type":"auth","token":' * depth + '"x"' + "}" * depth


def frames(tokens: Tokens) -> st.SearchStrategy[list[Frame]]:
    """One message, or a flood of one message repeated."""
    one: st.SearchStrategy[Frame] = st.one_of(
        st.text(max_size=200),
        st.binary(max_size=200),
        json_values.flatmap(encoded),
        auth_frames(tokens),
        st.fixed_dictionaries(
            {"type": json_values | st.sampled_from(["hello", "update", "act", "AUTH", "auth "])},
            optional={"token": st.sampled_from(tokens.seats), "action": st.just("roll")},
        ).flatmap(encoded),  # unknown types, some with a valid token or an action
        st.builds(nested, DEPTHS, st.integers(0, 2)),  # deep nesting
        st.integers(FRAME_LIMIT - 2, 4 * FRAME_LIMIT).flatmap(  # around and over the limit
            lambda n: st.sampled_from(["x" * n, b"\xff" * n, json.dumps({"type": "x" * n})])
        ),
    )
    flood = st.tuples(one, st.integers(FUZZ_LIMITS.socket_messages or 0, 24))
    return st.one_of(one.map(lambda f: [f]), flood.map(lambda fn: [fn[0]] * fn[1]))


def sockets(tokens: Tokens) -> st.SearchStrategy[tuple[str | None, list[Frame]]]:
    """A socket: the URL's ``?token=`` (mostly none) and what the client sends, ending with
    two valid ``auth`` messages (so the socket always ends closed)."""
    url = st.none() | st.sampled_from([*tokens.seats, *tokens.others, "", "x" * 200])
    sent = st.lists(frames(tokens), max_size=5).map(lambda parts: [f for p in parts for f in p])
    closing = st.sampled_from(tokens.seats).map(lambda t: [auth(t)] * 2)
    return st.tuples(url, st.tuples(sent, closing).map(lambda sc: sc[0] + sc[1]))


def ignored_frames(tokens: Tokens) -> list[Frame]:
    """Messages the app ignores, each under the frame limit."""
    t0 = tokens.seats[0]
    return [
        "", "not json", b"\x00\xff\xfe", b"", "null", "[1, 2]", '"auth"', "3.5", "NaN",
        "1" * 5000, '{"type": null}', '{"type": ["auth"]}', json.dumps({"TYPE": "auth"}),
        '{"type": "auth", "token": "x"', "\ufeff" + auth(t0), auth(t0).replace("auth", "Auth"),
        *(json.dumps({"type": k, "token": t0, "state_id": 0, "action": "roll"})
          for k in ("action", "roll", "hello", "update", "seat", "seats", "chat", "hold")),
        *(nested(d, 0) for d in (50, 1200, 8000)), *(nested(d, 1) for d in (50, 1200, 2700)),
    ]  # fmt: skip


def act(**fields: Any) -> str:
    return json.dumps({"type": "act", **fields})


def refused_actions(tokens: Tokens) -> list[Frame]:
    """Actions the app refuses with a reason, from a spectator or either seat: malformed, a
    stale position, a move that does not exist, out of turn (the game stays where it is)."""
    return [
        act(token=tokens.seats[0], state_id=0, action="roll"), act(state_id=0),
        act(action="roll"), act(state_id=5, action="roll"), act(state_id=0, action="fly"),
        act(state_id=-1, action="roll"), act(state_id=0, action="roll", ref="x"),
        act(state_id=0, action=["roll"]), act(state_id=0, action="1" * 5000),
        act(state_id=0, action="roll", ref=2**60), '{"type":"act","state_id":0,"action":"roll"',
    ]  # fmt: skip


def catalogue(tokens: Tokens, most: int, acts: int) -> list[tuple[str | None, list[Frame]]]:
    """Every kind of message at least once, whatever hypothesis draws: sockets of messages the
    app ignores (a few to a socket, under the rate), then one socket for each refusal."""
    t0, t1 = tokens.seats
    ignored = ignored_frames(tokens)
    chunk = most - 2  # the two auths at the end count too
    out: list[tuple[str | None, list[Frame]]] = [
        (None, ignored[i : i + chunk]) for i in range(0, len(ignored), chunk)
    ]
    over = ["x" * (FRAME_LIMIT + 1), b"\xff" * (3 * FRAME_LIMIT), nested(1200, 2)]
    over.append(auth("x" * FRAME_LIMIT))
    out += [(None, [frame]) for frame in over]  # a real server closes with 1009
    refused: list[Frame] = [
        json.dumps({"type": "auth"}), *(auth(v) for v in (None, 5, 1.5, True, [], {}, [t0], "")),
        auth("🎲" * 40), auth("\ud800"), auth("\x00"), '{"type":"auth","token":NaN}',
        auth(t0 + "x"),
        auth(t0[:-1]), auth(" " + t0), auth(t0.upper()), *(auth(t) for t in tokens.others),
        nested(300, 2),
    ]  # fmt: skip
    out += [(None, [frame]) for frame in refused]
    out += [(t0, [auth(t1)]), (t1, [auth(t1)]), (None, [auth(t1), auth(t0)])]  # a second auth
    out += [("x" * 200, []), ("", []), (tokens.others[0], [])]  # a bad ?token=
    out += [(None, ["{}"] * (most + 5)), (t0, [auth(t1)] * (most + 1))]  # floods
    actions = refused_actions(tokens)
    spectator: list[Frame] = [act(state_id=0, action="roll"), act(state_id=0, action="roll", ref=3)]
    out += [(None, spectator), (t0, actions[:acts]), (t1, actions[-acts:])]
    out += [(t1, [act(state_id=0, action="roll")] * (acts + 1))]  # a flood of actions
    bad_bytes: list[Frame] = [  # refused by the strict reader, with the reason and the ref
        '{"type":"act","state_id":NaN,"action":"roll","ref":1}',
        '{"type":"act","state_id":1e400,"action":"roll","ref":2}',
        act(state_id=0, action="ro\x00ll", ref=3),
        act(state_id=0, action="\ud800", ref=4),
    ]
    out += [(t0, bad_bytes)]
    closing = [auth(t0)] * 2
    return [(url, sent + closing) for url, sent in out]


# -- the games ------------------------------------------------------------------------------


def make_games(post: Callable[..., Any]) -> tuple[str, Tokens]:
    """Two games of two people; the first is fuzzed, the second lends its tokens."""
    made = [
        post(
            "/api/games",
            json={"game": "classic", "seats": SEATS, "rules": {"start_player": "first_seat"}},
        ).json()
        for _ in range(2)
    ]
    seats = tuple(s["token"] for s in made[0]["seats"])
    others = (*(s["token"] for s in made[1]["seats"]), made[0]["host_token"])
    return made[0]["id"], Tokens(seats, others)


def snapshot(get: Callable[..., Any], gid: str, tokens: Tokens) -> list[Any]:
    """Everything a client can read of the game: its public view, each seat's, its log and
    its chat (without who is here, which comes and goes with the sockets: ``game_only``)."""
    out = [game_only(get(f"/api/games/{gid}").json())]
    for token in tokens.seats:
        seat = get(f"/api/games/{gid}/view", headers={"Authorization": f"Bearer {token}"})
        out.append(game_only(seat.json()))
    out.append(get(f"/api/games/{gid}/log").json())
    out.append(get(f"/api/games/{gid}/chat").json())
    return out


def outline(url_token: str | None, sent: list[Frame]) -> str:
    """A failing example in a few lines (the frames themselves may be megabytes)."""
    lines = [f"?token={url_token!r:.80}"]
    lines += [f"{type(f).__name__} {len(f)}: {f[:100]!r}" for f in sent]
    return "\n".join(lines)


def check(story: Story, *allowed: Want) -> None:
    """``story`` is one the model allows, and its close says why."""
    assert story.reason, story  # a refusal always says why
    assert any(
        (story.hellos, story.code) == (hellos, code) and word in story.reason.lower()
        for hellos, code, word in allowed
    ), (story, allowed)


def fuzz_settings(examples: int) -> settings:
    return settings(
        max_examples=examples,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


# -- through the TestClient -----------------------------------------------------------------


def heard(msg: dict[str, Any]) -> int | str | None:
    """A message in a story: nothing moved, so no update and no seat message, only hellos and
    refusals (each with its reason)."""
    if msg["type"] == "refused":
        assert msg["status"] in (400, 403, 409, 422) and msg["detail"], msg
        return REFUSED
    assert msg["type"] == "hello", msg
    seat: int | None = msg["seat"]
    return seat


def tell_testclient(
    client: TestClient, gid: str, url_token: str | None, sent: list[Frame]
) -> Story:
    path = f"/api/games/{gid}/ws" + (
        "" if url_token is None else f"?token={quote(url_token, safe='')}"
    )
    hellos: list[int | str | None] = []
    with client.websocket_connect(path) as ws:
        for frame in sent:
            if isinstance(frame, bytes):
                ws.send_bytes(frame)
            else:
                ws.send_text(frame)
        while True:
            try:
                msg = ws.receive_json()
            except WebSocketDisconnect as closed:
                return Story(hellos, closed.code, closed.reason or "")
            hellos.append(heard(msg))


def test_fuzzed_socket_messages_change_nothing(db_url: str) -> None:
    app = create_app(db_url, 0.0, allowed_hosts=TEST_HOSTS, limits=FUZZ_LIMITS)
    with TestClient(app) as client:
        gid, tokens = make_games(client.post)
        before = snapshot(client.get, gid, tokens)
        assert before[0]["state_id"] == 0 and before[0]["status"] == "active", before[0]
        most, acts = FUZZ_LIMITS.socket_messages, FUZZ_LIMITS.socket_actions
        assert most is not None and acts is not None

        def one(url_token: str | None, sent: list[Frame]) -> Want:
            story = tell_testclient(client, gid, url_token, sent)
            # The app itself has no frame limit (uvicorn's ws_max_size is: see below).
            want = expected(url_token, sent, tokens, most, acts)
            assert want[1] is not None, want  # the last two auths close it, if nothing before
            check(story, want)
            return want

        ignored = ignored_frames(tokens)
        assert all(_claimed(f) is IGNORED and size(f) <= FRAME_LIMIT for f in ignored)
        seen = [one(url_token, sent) for url_token, sent in catalogue(tokens, most, acts)]
        # The catalogue reached every refusal, and seats by the URL and by a message.
        assert {w[2] for w in seen} == {*REFUSALS}, seen
        assert {n for w in seen for n in w[0]} == {None, 0, 1, REFUSED}

        @fuzz_settings(120)
        @given(sockets(tokens))
        def one_socket(socket: tuple[str | None, list[Frame]]) -> None:
            note(outline(*socket))
            one(*socket)

        one_socket()
        assert snapshot(client.get, gid, tokens) == before
        storage = client.app.state.hub.storage  # type: ignore[attr-defined]
        assert storage.actions(gid) == []
        served_normally(client, gid, tokens)


def served_normally(client: TestClient, gid: str, tokens: Tokens) -> None:
    """A seat's socket still hears its hello and the update of a move made over HTTP."""
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        assert ws.receive_json()["seat"] is None
        ws.send_json({"type": "auth", "token": tokens.seats[1]})
        assert ws.receive_json()["seat"] == 1
        r = client.post(
            f"/api/games/{gid}/actions",
            json={"token": tokens.seats[0], "state_id": 0, "action": "roll"},
        )
        assert r.status_code == 200, r.text
        update = ws.receive_json()
        assert update["type"] == "update" and update["state_id"] == 1
        assert update["events"] == r.json()["events"]


def test_the_model_can_tell_a_change(db_url: str) -> None:
    """The checks above can fail: a story the server did not tell is caught."""
    app = create_app(db_url, 0.0, allowed_hosts=TEST_HOSTS, limits=FUZZ_LIMITS)
    with TestClient(app) as client:
        gid, tokens = make_games(client.post)
        auths = [auth(t) for t in tokens.seats]
        sent = ["noise", auths[1], auths[0]]
        story = tell_testclient(client, gid, None, sent)
        check(story, expected(None, sent, tokens, 8, 8))
        assert story.hellos == [None, 1] and "already" in story.reason
        with pytest.raises(AssertionError):
            check(story, ([None, 0], 1008, "already"))  # the wrong seat
        with pytest.raises(AssertionError):  # as if "noise" had been taken for an auth
            check(story, expected(None, sent[1:], tokens, 1, 1))
        before = snapshot(client.get, gid, tokens)
        client.post(
            f"/api/games/{gid}/actions",
            json={"token": tokens.seats[0], "state_id": 0, "action": "roll"},
        )
        assert snapshot(client.get, gid, tokens) != before


# -- against a real server ------------------------------------------------------------------


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    port, log = free_port(), tmp_path / "serve.log"
    proc = start_server(tmp_path / "games.sqlite", port, log, 0.0)
    try:
        yield f"127.0.0.1:{port}", log
    finally:
        proc.terminate()
        proc.wait(10)


def tell_server(address: str, gid: str, url_token: str | None, sent: list[Frame]) -> Story:
    url = f"ws://{address}/api/games/{gid}/ws"
    if url_token is not None:
        url += f"?token={quote(url_token, safe='')}"
    hellos: list[int | str | None] = []
    # No compression: a frame's size on the wire is the message's.
    with connect(url, compression=None, open_timeout=10, close_timeout=5) as ws:
        try:
            for frame in sent:
                ws.send(frame)
        except ConnectionClosed:
            pass  # refused meanwhile: what it said is read below
        while True:
            try:
                msg = json.loads(ws.recv(timeout=10))
            except ConnectionClosed as closed:
                assert closed.rcvd is not None, closed  # the server closed it, with a code
                return Story(hellos, closed.rcvd.code, closed.rcvd.reason)
            hellos.append(heard(msg))


def test_fuzzed_messages_to_a_real_server(served: tuple[str, Path]) -> None:
    """A short run against ``meeple serve`` itself, its default limits and uvicorn's frame
    limit (1009, with the reason uvicorn gives)."""
    address, log = served
    with httpx.Client(base_url=f"http://{address}", timeout=10) as http:
        fuzz_a_server(address, log, http)


def fuzz_a_server(address: str, log: Path, http: httpx.Client) -> None:
    gid, tokens = make_games(http.post)
    before = snapshot(http.get, gid, tokens)
    assert before[0]["state_id"] == 0 and before[0]["status"] == "active", before[0]
    most, acts = Limits().socket_messages, Limits().socket_actions
    assert most is not None and acts is not None

    @fuzz_settings(60)
    @given(sockets(tokens))
    def one_socket(socket: tuple[str | None, list[Frame]]) -> None:
        url_token = socket[0]
        sent, allowed = expected_of_a_server(
            url_token, [on_the_wire(f) for f in socket[1]], tokens, most, acts
        )
        note(outline(url_token, sent))
        check(tell_server(address, gid, url_token, sent), *allowed)

    codes = set()
    for url_token, whole in catalogue(tokens, most, acts):
        sent, allowed = expected_of_a_server(url_token, whole, tokens, most, acts)
        story = tell_server(address, gid, url_token, sent)
        check(story, *allowed)
        codes.add(story.code)
    assert codes == {1008, 1009}
    one_socket()
    assert snapshot(http.get, gid, tokens) == before
    text = log.read_text()
    assert not re.search(r"Traceback|Exception in ASGI|ERROR", text), text[-3000:]
    with connect(f"ws://{address}/api/games/{gid}/ws") as ws:  # a normal client, after
        assert json.loads(ws.recv(timeout=10))["seat"] is None
        ws.send(json.dumps({"type": "auth", "token": tokens.seats[1]}))
        assert json.loads(ws.recv(timeout=10))["seat"] == 1
        r = http.post(
            f"/api/games/{gid}/actions",
            json={"token": tokens.seats[0], "state_id": 0, "action": "roll"},
        )
        assert r.status_code == 200, r.text
        update = json.loads(ws.recv(timeout=10))
        assert update["type"] == "update" and update["state_id"] == 1
