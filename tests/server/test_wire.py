"""The JSON text the server sends (meeple.server.wire): the text Starlette's send_json made.

What a client receives must not change with the faster encoding: the updates, the answer to an
action and every other message are the same text as ``json.dumps(msg, separators=(",", ":"),
ensure_ascii=False)``, byte for byte (floats aside: see the module's docstring).
"""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient

from meeple.bots.base import RandomBot
from meeple.kernel.family import game_ids, new_game
from meeple.server.wire import Message, dumps, join_objects, text_of
from tests.server.conftest import new_game as new_server_game


def send_json_text(obj: Any) -> str:
    """What Starlette's ``WebSocket.send_json`` sends."""
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def test_dumps_is_send_json_text_for_every_games_views() -> None:
    for game in game_ids():
        players = 2
        s = new_game(game, players, 3)
        bots = [RandomBot(i) for i in range(players)]
        for _ in range(150):
            if s.is_terminal():
                break
            for v in s.views([None, *range(players)]):
                assert dumps(v) == send_json_text(v)
            s.apply(bots[s.current_player()].choose(s))


def test_dumps_of_awkward_values() -> None:
    for value in [
        {"name": 'Zoë 🎲 \u2028 "quoted" \\ back', "n": -(2**70), "f": 2.5, "none": None},
        [True, False, [], {}, (1, 2), "\x00\x1f"],
        {"inf": float("inf"), "k": {"nested": [1.0, 0.1]}},
        {"lone": "\ud800"},  # pydantic-core refuses it: the standard library's text then
    ]:
        assert dumps(value) == send_json_text(value)


def test_join_objects() -> None:
    assert join_objects('{"a":1}', "{}", '{"b":[2]}') == '{"a":1,"b":[2]}'
    assert join_objects("{}") == "{}"


def test_a_message_is_encoded_once() -> None:
    msg = Message({"type": "chat", "text": "hi"})
    assert text_of(msg) == send_json_text(dict(msg))
    assert text_of(msg) is text_of(msg)
    given = Message({"a": 1}, '{"a":1}')
    assert given.text() == '{"a":1}' and dict(given) == {"a": 1}


def test_sockets_and_answers_carry_send_json_text(client: TestClient) -> None:
    """Every socket message and action answer, as received, is send_json's text of itself."""
    g = new_server_game(client)
    gid, tokens = g["id"], [s["token"] for s in g["seats"]]
    with (
        client.websocket_connect(f"/api/games/{gid}/ws?token={tokens[0]}") as ws0,
        client.websocket_connect(f"/api/games/{gid}/ws?token={tokens[1]}") as ws1,
        client.websocket_connect(f"/api/games/{gid}/ws") as spectator,
    ):
        for step in range(12):
            for ws in (ws0, ws1, spectator):
                text = ws.receive_text()
                assert text == send_json_text(json.loads(text))
            view = client.get(
                f"/api/games/{gid}/view", headers={"Authorization": f"Bearer {tokens[0]}"}
            ).json()
            seat = view["view"]["decider"]
            mine = client.get(
                f"/api/games/{gid}/view", headers={"Authorization": f"Bearer {tokens[seat]}"}
            ).json()
            action = mine["legal_actions"][0]["action"]
            r = client.post(
                f"/api/games/{gid}/actions",
                json={"token": tokens[seat], "state_id": step, "action": action},
            )
            assert r.status_code == 200, r.text
            assert r.headers["content-type"] == "application/json"
            assert r.text == send_json_text(r.json())
            answer = r.json()
            assert list(answer) == ["state_id", "status", "events", "view"]
            after = client.get(
                f"/api/games/{gid}/view", headers={"Authorization": f"Bearer {tokens[seat]}"}
            )
            assert answer["view"] == after.json()["view"]


def test_a_relayed_message_is_sent_as_it_came() -> None:
    text = '{"type":"update","state_id":3,"view":{"x":"\\u00e9"}}'
    assert text_of(Message.relayed(text)) == text
