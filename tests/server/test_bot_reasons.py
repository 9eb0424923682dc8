"""A bot's move comes with its reason in the update (``Bot.explain``), for the pages that show
bots' reasons (issue 20, "Bots that explain themselves")."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.conftest import new_game

BOTS = [{"type": "bot", "bot": "standard", "name": f"Robo {i}"} for i in (1, 2)]


def test_a_standard_bots_moves_say_why(client: TestClient) -> None:
    g = new_game(client, seats=BOTS, seed=4)
    whys: list[str] = []
    with client.websocket_connect(f"/api/games/{g['id']}/ws") as ws:
        ws.receive_json()  # hello
        for _ in range(60):
            msg = ws.receive_json()
            if msg["type"] != "update":
                continue
            if "why" in msg:
                whys.append(msg["why"])
            if msg["status"] == "finished":
                break
    assert any(w.startswith(("Robo 1 (bot): buys ", "Robo 2 (bot): buys ")) for w in whys), whys
    names = ("Robo 1 (bot)", "Robo 2 (bot)")  # an API client's name for its bot, marked
    assert all(w.split(": ", 1)[0] in names and w.split(": ", 1)[1] for w in whys)


def test_a_random_bot_has_nothing_to_say(client: TestClient) -> None:
    seats = [{"type": "bot", "bot": "random"}, {"type": "bot", "bot": "random"}]
    g = new_game(client, seats=seats, seed=4)
    with client.websocket_connect(f"/api/games/{g['id']}/ws") as ws:
        ws.receive_json()
        updates = [ws.receive_json() for _ in range(20)]
    assert updates and not any("why" in m for m in updates)
