"""The chat of a game (docs/SERVER.md, "A table that talks"): people write, everyone reads,
stored with the game, limited in length and rate."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from meeple.server import chat as hub_module
from meeple.server.app import create_app
from tests.server.conftest import TEST_HOSTS, new_game


def say(client: TestClient, gid: str, token: str, text: str) -> Any:
    return client.post(f"/api/games/{gid}/chat", json={"token": token, "text": text})


def test_people_chat_everyone_reads_and_it_is_kept(db_url: str) -> None:
    with TestClient(create_app(db_url, 0.0, allowed_hosts=TEST_HOSTS)) as client:
        g = new_game(client)
        gid, ann, bob = g["id"], g["seats"][0]["token"], g["seats"][1]["token"]
        with client.websocket_connect(f"/api/games/{gid}/ws") as spectator:
            spectator.receive_json()  # hello
            r = say(client, gid, ann, "  good   luck  ")
            assert r.status_code == 201, r.text
            assert r.json()["text"] == "good luck" and r.json()["name"] == "Ann"
            heard = spectator.receive_json()
            assert heard["type"] == "chat" and heard["text"] == "good luck" and heard["seat"] == 0
        assert say(client, gid, bob, "thanks").status_code == 201
        assert say(client, gid, "not-a-seat", "hi").status_code == 403
        assert say(client, gid, ann, "   ").status_code == 422
        assert say(client, gid, ann, "x" * 301).status_code == 422
    # kept with the game
    with TestClient(create_app(db_url, 0.0, allowed_hosts=TEST_HOSTS)) as client:
        msgs = client.get(f"/api/games/{gid}/chat").json()["messages"]
        assert [(m["name"], m["text"]) for m in msgs] == [("Ann", "good luck"), ("Bob", "thanks")]
        after = client.get(f"/api/games/{gid}/chat", params={"after": msgs[0]["id"]}).json()
        assert [m["text"] for m in after["messages"]] == ["thanks"]
        assert client.get(f"/api/games/{gid}/chat", params={"limit": 0}).status_code == 422


def test_chat_is_limited_in_rate_and_in_size(client: TestClient, monkeypatch: Any) -> None:
    g = new_game(client)
    gid, ann, bob = g["id"], g["seats"][0]["token"], g["seats"][1]["token"]
    for k in range(hub_module.CHAT_BURST[0]):
        assert say(client, gid, ann, f"message {k}").status_code == 201
    r = say(client, gid, ann, "one too many")
    assert r.status_code == 429 and "slow down" in r.json()["detail"]
    assert say(client, gid, bob, "Bob has his own limit").status_code == 201
    monkeypatch.setattr(hub_module, "CHAT_MAX_MESSAGES", 7)
    assert say(client, gid, bob, "the seventh").status_code == 201
    r = say(client, gid, bob, "the eighth")
    assert r.status_code == 429 and "full" in r.json()["detail"]
    assert len(client.get(f"/api/games/{gid}/chat").json()["messages"]) == 7
