"""A standing bid (docs/SERVER.md, "Auctions"): "bid up to N" played by the table, the least
raise each time, dropping out past the limit, lapsing when the auction ends."""

from __future__ import annotations

from fastapi.testclient import TestClient

from meeple.games.monopoly.rules.auction import AuctionFrame
from meeple.games.monopoly.state import MonopolyState
from meeple.kernel.family import new_game as engine_game
from meeple.kernel.protocol import Action
from meeple.server.storage import Storage
from tests.browser.scenarios import first_roll_lands_on_a_deed
from tests.server.conftest import new_game, wait_for

BOTS = [{"type": "bot", "bot": "standard"} for _ in range(3)]
FIRST = {"rules": {"start_player": "first_seat"}}  # as conftest.new_game makes the game


def test_the_table_bids_up_to_the_limit_then_drops_out(client: TestClient) -> None:
    seed = first_roll_lands_on_a_deed("classic", 4, options=FIRST)
    g = new_game(client, seats=[{"type": "human", "name": "Ann"}, *BOTS], seed=seed)
    gid, token = g["id"], g["seats"][0]["token"]

    def act(state_id: int, action: str) -> None:
        r = client.post(
            f"/api/games/{gid}/actions",
            json={"token": token, "state_id": state_id, "action": action},
        )
        assert r.status_code == 200, r.text

    r = client.post(f"/api/games/{gid}/proxy", json={"token": token, "limit": 100})
    assert r.status_code == 422 and "no auction" in r.json()["detail"]
    act(0, "roll")
    act(1, "decline")  # the deed goes to auction
    limit = 130
    r = client.post(f"/api/games/{gid}/proxy", json={"token": token, "limit": limit})
    assert r.status_code == 200 and r.json()["proxy"] == limit

    def auction_over() -> bool:
        s = engine_game("classic", 4, seed, FIRST)
        storage: Storage = client.app.state.hub.storage  # type: ignore[attr-defined]
        for text in storage.actions(gid):
            s.apply(Action.parse(text))
        assert isinstance(s, MonopolyState)
        return not any(isinstance(f, AuctionFrame) for f in s.stack)

    wait_for(auction_over)
    # Replay the auction: each of Ann's bids was the least legal raise and within the limit.
    storage: Storage = client.app.state.hub.storage  # type: ignore[attr-defined]
    s = engine_game("classic", 4, seed, FIRST)
    assert isinstance(s, MonopolyState)
    ann_moves = []
    for text in storage.actions(gid):
        a = Action.parse(text)
        f = s.stack[-1] if s.stack else None
        if isinstance(f, AuctionFrame) and s.current_player() == 0:
            ann_moves.append(a)
            if a.kind == "bid":
                assert a.args[0] == f.next_min() <= limit
            else:
                assert a.kind == "pass" and f.next_min() > limit
        s.apply(a)
    assert any(a.kind == "bid" for a in ann_moves), ann_moves  # the table bid for Ann
    v = client.get(f"/api/games/{gid}/view", params={"token": token}).json()
    assert v["proxy"] is None  # the standing bid lapsed with the auction
