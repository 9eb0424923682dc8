"""The host's word on seats and chat (docs/SERVER.md, "Tokens" and "A table that talks"): a
seat's token reissued stops the old one at once, on requests and on open sockets; a person
muted in the chat cannot write, one removed is hidden from everyone; all of it stored."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from meeple.server.app import create_app
from tests.server.conftest import TEST_HOSTS, new_game, next_message

SEATS = [
    {"type": "human", "name": "Ann"},
    {"type": "human", "name": "Bob"},
    {"type": "bot", "bot": "random"},
]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def authed(ws: Any, token: str) -> dict[str, Any]:
    assert ws.receive_json()["type"] == "hello"
    ws.send_json({"type": "auth", "token": token})
    hello = next_message(ws, "hello")
    assert hello["type"] == "hello" and hello["seat"] is not None
    return hello


def test_the_host_reissues_a_seat_token(client: TestClient, db_url: str) -> None:
    g = new_game(client, seats=SEATS)
    gid, host, ann, bob = g["id"], g["host_token"], g["seats"][0]["token"], g["seats"][1]["token"]
    with (
        client.websocket_connect(f"/api/games/{gid}/ws") as ann_ws,
        client.websocket_connect(f"/api/games/{gid}/ws") as bob_ws,
    ):
        authed(ann_ws, ann)
        authed(bob_ws, bob)
        r = client.post(f"/api/games/{gid}/reissue", json={"token": host, "seat": 0})
        assert r.status_code == 200, r.text
        new = r.json()
        assert new["seat"] == 0 and new["token"] not in (ann, bob)
        assert new["url"] == f"/play/{gid}#token={new['token']}"
        # The old token's socket is told and closed; nothing it sends acts any more.
        revoked = next_message(ann_ws, "revoked")
        assert revoked["type"] == "revoked" and revoked["seat"] == 0
        assert ann not in str(revoked) and new["token"] not in str(revoked)
        with pytest.raises(WebSocketDisconnect) as closed:
            ann_ws.send_json({"type": "act", "action": "roll", "state_id": 0, "ref": 1})
            while True:
                ann_ws.receive_json()
        assert closed.value.code == 1000
        # Bob's socket is his still.
        bob_ws.send_json({"type": "act", "action": "nope", "state_id": 0, "ref": 2})
        while (m := bob_ws.receive_json())["type"] != "refused":
            pass
        assert m["ref"] == 2 and m["status"] == 422
    # The old token opens nothing: a request, a socket, an action; the new one opens the seat.
    assert client.get(f"/api/games/{gid}/view", headers=bearer(ann)).status_code == 403
    act = {"token": ann, "state_id": 0, "action": "roll"}
    assert client.post(f"/api/games/{gid}/actions", json=act).status_code == 403
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        ws.receive_json()
        ws.send_json({"type": "auth", "token": ann})
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1008
    assert client.get(f"/api/games/{gid}/view", headers=bearer(new["token"])).json()["seat"] == 0
    assert client.get(f"/api/games/{gid}").json()["state_id"] == 0  # nothing was played
    # Stored: a restarted server knows the new token only.
    with TestClient(create_app(db_url, 0.0, allowed_hosts=TEST_HOSTS)) as again:
        assert again.get(f"/api/games/{gid}/view", headers=bearer(ann)).status_code == 403
        v = again.get(f"/api/games/{gid}/view", headers=bearer(new["token"]))
        assert v.status_code == 200 and v.json()["seat"] == 0


def test_who_may_reissue(client: TestClient) -> None:
    g = new_game(client, seats=SEATS)
    gid, host, ann, bob = g["id"], g["host_token"], g["seats"][0]["token"], g["seats"][1]["token"]
    url = f"/api/games/{gid}/reissue"
    # A person may replace their own link, not another's.
    mine = client.post(url, json={"token": bob, "seat": 1})
    assert mine.status_code == 200
    assert client.get(f"/api/games/{gid}/view", headers=bearer(bob)).status_code == 403
    r = client.post(url, json={"token": ann, "seat": 1})
    assert r.status_code == 403 and "only the host" in r.json()["detail"]
    assert client.post(url, json={"token": "nope", "seat": 0}).status_code == 403
    r = client.post(url, json={"token": host, "seat": 2})
    assert r.status_code == 422 and "not a person's seat" in r.json()["detail"]
    assert client.post(url, json={"token": host, "seat": 0, "x": 1}).status_code == 422
    nowhere = client.post("/api/games/nope/reissue", json={"token": host, "seat": 0})
    assert nowhere.status_code == 404
    v = client.get(f"/api/games/{gid}/view", headers=bearer(mine.json()["token"]))
    assert v.json()["seat"] == 1


def test_the_host_mutes_and_removes_in_the_chat(client: TestClient, db_url: str) -> None:
    g = new_game(client, seats=SEATS)
    gid, host, ann, bob = g["id"], g["host_token"], g["seats"][0]["token"], g["seats"][1]["token"]
    chat, moderate = f"/api/games/{gid}/chat", f"/api/games/{gid}/moderate"

    def say(token: str, text: str) -> Any:
        return client.post(chat, json={"token": token, "text": text})

    def said() -> list[str]:
        return [m["text"] for m in client.get(chat).json()["messages"]]

    assert say(ann, "hello").status_code == 201 and say(bob, "spam").status_code == 201
    with client.websocket_connect(f"/api/games/{gid}/ws") as watcher:
        watcher.receive_json()
        r = client.post(moderate, json={"host_token": host, "seat": 1, "chat": "muted"})
        assert r.status_code == 200, r.text
        assert r.json()["seats"][1]["chat"] == "muted" and r.json()["seats"][0]["chat"] is None
        assert watcher.receive_json() == {"type": "moderated", "seat": 1, "chat": "muted"}
        assert watcher.receive_json()["type"] == "seats"
        refused = say(bob, "more spam")
        assert refused.status_code == 403 and "muted you" in refused.json()["detail"]
        assert said() == ["hello", "spam"]  # muted: what was said stays
        r = client.post(moderate, json={"host_token": host, "seat": 1, "chat": "removed"})
        assert r.status_code == 200
        assert watcher.receive_json() == {"type": "moderated", "seat": 1, "chat": "removed"}
    assert said() == ["hello"]  # removed: hidden from everyone
    assert say(bob, "again").status_code == 403
    assert say(ann, "thanks").status_code == 201
    # Stored: a restarted server keeps it.
    with TestClient(create_app(db_url, 0.0, allowed_hosts=TEST_HOSTS)) as again:
        assert [m["text"] for m in again.get(chat).json()["messages"]] == ["hello", "thanks"]
        assert again.get(f"/api/games/{gid}").json()["seats"][1]["chat"] == "removed"
        assert again.post(chat, json={"token": bob, "text": "hi"}).status_code == 403
        # Let back: they write again, and what they said shows again.
        r = again.post(moderate, json={"host_token": host, "seat": 1, "chat": None})
        assert r.status_code == 200 and r.json()["seats"][1]["chat"] is None
        assert again.post(chat, json={"token": bob, "text": "sorry"}).status_code == 201
        texts = [m["text"] for m in again.get(chat).json()["messages"]]
        assert texts == ["hello", "spam", "thanks", "sorry"]
    # Only the host; only a person's seat; only the words the API knows.
    r = client.post(moderate, json={"host_token": ann, "seat": 1, "chat": "muted"})
    assert r.status_code == 403
    r = client.post(moderate, json={"host_token": host, "seat": 2, "chat": "muted"})
    assert r.status_code == 422 and "only people chat" in r.json()["detail"]
    r = client.post(moderate, json={"host_token": host, "seat": 1, "chat": "banned"})
    assert r.status_code == 422
