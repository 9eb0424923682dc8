"""The end of a game (server/history.py): the history (worth in parts, series, key moments,
seed), any position replayed, the save file, and the rematch."""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meeple.bots.base import make_bot
from meeple.games.monopolis.scoring import score_sheets
from meeple.games.monopolis.state import MonopolisState
from meeple.games.monopoly.frames import DEED
from meeple.games.monopoly.rules import money
from meeple.games.monopoly.state import MonopolyState
from meeple.games.monopoly.story import worth_of
from meeple.kernel.family import game_family, new_game
from meeple.kernel.protocol import GameState
from meeple.kernel.rng import derive_seed
from meeple.kernel.saves import load_data
from meeple.server.hub import Hub
from meeple.server.storage import (
    ACTIVE,
    FINISHED,
    ActionWrite,
    Storage,
    StoredSeat,
    hash_token,
    new_token,
)
from tests.server.conftest import game_only, next_message
from tests.server.conftest import new_game as api_new_game

ASK = {"others_turns": "never", "own_turn": "build", "grace": 0.0}


def played(game: str, players: int, seed: int, bot: str = "standard") -> GameState:
    """A whole game played by ``bot`` in every seat, seeded as the server seeds its bots."""
    family = game_family(game)
    bots = [make_bot(bot, family, derive_seed(seed, 1 + i)) for i in range(players)]
    s = new_game(game, players, seed, {})
    s.record_events = False
    while not s.is_terminal():
        s.apply(bots[s.current_player()].choose(s))
    return s


def store(
    db_url: str, state: GameState, people: dict[int, str], listed: bool = True
) -> tuple[str, dict[int, str]]:
    """Store ``state``'s game with a person in each seat of ``people`` (the rest bots of the
    kind that played it); returns the game id and each person's token."""
    storage = Storage(db_url)
    storage.create_tables()
    tokens: dict[int, str] = {}
    seats = []
    for i in range(state.num_players):
        if i in people:
            tokens[i] = new_token()
            seats.append(StoredSeat(i, "human", people[i], "", hash_token(tokens[i]), dict(ASK)))
        else:
            seats.append(StoredSeat(i, "bot", f"Bot {i + 1}", "standard", ""))
    gid = storage.create_game(
        state.game_id, state.num_players, state.seed, state.options, seats, listed=listed
    )
    actions = [str(a) for a in state.history]
    last = len(actions) - 1
    status = FINISHED if state.is_terminal() else ACTIVE
    storage.append_actions(
        [ActionWrite(gid, i, a, status if i == last else ACTIVE) for i, a in enumerate(actions)]
    )
    storage.close()
    return gid, tokens


def at(state: GameState, n: int, events: bool = False) -> tuple[GameState, list[str]]:
    """``state``'s game after ``n`` actions, and the event texts of the last one."""
    s = new_game(state.game_id, state.num_players, state.seed, state.options)
    s.record_events = False
    for a in state.history[: max(0, n - 1)]:
        s.apply(a)
    texts: list[str] = []
    if n > 0:
        s.record_events = True
        texts = [s.describe(e) for e in s.apply(state.history[n - 1])]
    return s, texts


def has_set(s: MonopolyState, p: int) -> bool:
    """Whether ``p`` owns every street of a colour group."""
    groups = [s.ed.groups[g].members for g in s.ed.street_groups]
    return any(all(s.owner[sq] == p for sq in members) for members in groups)


def plain(x: Any) -> Any:
    return json.loads(json.dumps(x))


@pytest.fixture(scope="module")
def classic() -> GameState:
    return played("classic", 4, 3)


def test_worth_parts_add_up_at_every_position(classic: GameState) -> None:
    s = new_game("classic", 4, classic.seed, {})
    assert isinstance(s, MonopolyState)
    seen = {"buildings": 0, "mortgages": 0}
    for a in [None, *classic.history]:
        if a is not None:
            s.apply(a)
        for p in range(4):
            w = worth_of(s, p)
            assert w["cash"] + w["deeds"] + w["buildings"] + w["mortgages"] == w["net_worth"]
            assert w["net_worth"] == money.net_worth(s, p)
            seen["buildings"] += w["buildings"] > 0
            seen["mortgages"] += w["mortgages"] < 0
    assert seen["buildings"] and seen["mortgages"]  # the game tests every part


def test_history_of_a_finished_game(client: TestClient, db_url: str, classic: GameState) -> None:
    gid, _ = store(db_url, classic, {0: "Ann"})
    r = client.get(f"/api/games/{gid}/history")
    assert r.status_code == 200, r.text
    h = r.json()
    total = len(classic.history)
    assert (h["status"], h["state_id"], h["seed"]) == ("finished", total, classic.seed)
    assert h["seed_text"] == str(classic.seed)  # the seed as digits, exact in a browser
    assert h["family"] == "monopoly" and h["ranking_rule"] == "net_worth"
    assert h["result"] == plain(classic.result().to_dict())  # type: ignore[union-attr]
    assert isinstance(classic, MonopolyState)
    for w in h["worth"]:
        assert w["cash"] + w["deeds"] + w["buildings"] + w["mortgages"] == w["net_worth"]
        assert w["net_worth"] == money.net_worth(classic, w["seat"])
    # One point at the start and at each new turn, the last at the end.
    points = h["series"]["points"]
    assert h["series"]["unit"] == "$"
    assert points[0] == {"state_id": 0, "turn": 1, "values": [1500] * 4}
    assert points[-1]["state_id"] == total
    assert points[-1]["values"] == [money.net_worth(classic, p) for p in range(4)]
    assert [p["turn"] for p in points[:-1]] == list(range(1, len(points)))
    for p in points[1:-1]:
        s, _ = at(classic, p["state_id"])
        assert isinstance(s, MonopolyState)
        assert s.turn_no == p["turn"] and p["values"] == [money.net_worth(s, q) for q in range(4)]
    # Public only: no deck order, no random state.
    assert "rng" not in r.text and "decks" not in h
    # Cached: the same answer again.
    assert client.get(f"/api/games/{gid}/history").json() == h


def test_key_moments_point_at_their_moves(
    client: TestClient, db_url: str, classic: GameState
) -> None:
    gid, _ = store(db_url, classic, {})
    moments = client.get(f"/api/games/{gid}/history").json()["moments"]
    # Every event of the game, by the position right after its move.
    s = new_game("classic", 4, classic.seed, {})
    s.record_events = True
    by_sid: dict[int, list[Any]] = {}
    for i, a in enumerate(classic.history):
        by_sid[i + 1] = list(s.apply(a))
    bankruptcies = sum(e.kind == "bankrupt" for es in by_sid.values() for e in es)
    kinds = [m["kind"] for m in moments]
    assert kinds.count("rent") == 1 and kinds.count("game_over") == 1
    assert kinds.count("bankrupt") == bankruptcies > 0
    assert [m["state_id"] for m in moments] == sorted(m["state_id"] for m in moments)
    rents = [e.data["amount"] for es in by_sid.values() for e in es if e.kind == "rent"]
    won = [
        e.data["amount"]
        for es in by_sid.values()
        for e in es
        if e.kind == "auction_won" and e.data["item"] == DEED
    ]
    for m in moments:
        events = by_sid[m["state_id"]]
        texts = [s.describe(e) for e in events]
        kind = {"first_hotel": "built", "first_set": "", "game_over": "game_over"}.get(
            m["kind"], m["kind"]
        )
        if kind:
            assert any(e.kind == kind for e in events), m
            assert m["text"].split(".")[0] + "." in texts, m
        if m["kind"] == "rent":
            assert m["amount"] == max(rents)
        if m["kind"] == "auction_won":
            assert m["amount"] == max(won)
        if m["kind"] == "first_set":
            before, _ = at(classic, m["state_id"] - 1)
            after, _ = at(classic, m["state_id"])
            assert isinstance(before, MonopolyState) and isinstance(after, MonopolyState)
            p = m["seats"][0]
            assert not has_set(before, p) and has_set(after, p), m


def test_replay_is_the_engine_view_after_n_actions(
    client: TestClient, db_url: str, classic: GameState
) -> None:
    gid, _ = store(db_url, classic, {0: "Ann"})
    total = len(classic.history)
    kinds = [a.kind for a in classic.history]
    draft = kinds.index("trade_deed") + 1  # a step of drafting an offer: private
    for n in sorted({0, 1, 2, 3, 17, draft, total // 2, total - 1, total}):
        r = client.get(f"/api/games/{gid}/replay/{n}")
        assert r.status_code == 200, r.text
        body = r.json()
        s, texts = at(classic, n)
        assert body["n"] == n and body["state_id"] == total and body["status"] == "finished"
        assert body["view"] == plain(s.view(None))
        assert body["events"] == texts
        assert body["current_player"] == s.current_player()
        before, _ = at(classic, n - 1) if n else (None, [])
        if before is None:
            assert (body["mover"], body["move"]) == (-1, None)
        else:
            action = classic.history[n - 1]
            assert body["mover"] == before.current_player()
            private = action.kind == "trade_deed"
            assert body["move"] == (None if private else before.describe_action(action))
    assert client.get(f"/api/games/{gid}/replay/{draft}").json()["move"] is None
    assert client.get(f"/api/games/{gid}/replay/{total + 1}").status_code == 422
    assert client.get(f"/api/games/{gid}/replay/-1").status_code == 422
    assert client.get(f"/api/games/{gid}/replay/x").status_code == 422
    assert client.get("/api/games/nope/replay/0").status_code == 404
    assert client.get("/api/games/nope/history").status_code == 404


def test_seed_and_moves_are_shown_only_at_the_end(
    client: TestClient, db_url: str, classic: GameState
) -> None:
    live = api_new_game(client, seed=1234)
    gid = live["id"]
    h = client.get(f"/api/games/{gid}/history").json()
    assert h["status"] == "active" and h["seed"] is None and h["result"] is None
    assert h["seed_text"] is None
    assert "1234" not in json.dumps(h)
    r = client.get(f"/api/games/{gid}/save")
    assert r.status_code == 422 and "not over" in r.json()["detail"]
    assert client.get(f"/api/games/{gid}").json()["rematch"] is None
    done, _ = store(db_url, classic, {0: "Ann"})
    r = client.get(f"/api/games/{done}/save")
    assert r.status_code == 200 and f"meeple-{done}.json" in r.headers["content-disposition"]
    again = load_data(r.json())  # what `meeple replay FILE` reads: the same game
    assert again.seed == classic.seed and again.history == classic.history


def test_monopolis_score_sheets(client: TestClient, db_url: str) -> None:
    state = played("monopolis", 3, 5)
    assert isinstance(state, MonopolisState)
    gid, _ = store(db_url, state, {1: "Bea"})
    h = client.get(f"/api/games/{gid}/history").json()
    sheets = score_sheets(state)
    assert h["steps"] == ["money", "board", "collections", "parks", "tiles"]
    assert h["sheets"] == [{"seat": i, **sheet} for i, sheet in enumerate(sheets)]
    assert h["worth"] is None and h["series"]["measure"] == "points"
    assert h["series"]["points"][-1]["values"] == [x["total"] for x in sheets]
    assert h["result"]["scores"] == [float(x["total"]) for x in sheets]
    assert {m["kind"] for m in h["moments"]} >= {"game_end", "build", "buy"}
    n = h["moments"][0]["state_id"]
    _, texts = at(state, n)
    assert client.get(f"/api/games/{gid}/replay/{n}").json()["events"] == texts


def test_rematch(client: TestClient, db_url: str, classic: GameState) -> None:
    gid, tokens = store(db_url, classic, {0: "Ann", 2: "Cy"})
    url = f"/api/games/{gid}/rematch"
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        assert ws.receive_json()["type"] == "hello"
        r = client.post(url, json={"token": tokens[2]})
        assert r.status_code == 200, r.text
        made = r.json()
        assert made["seat"] == 2 and made["created"] is True
        assert made["token"] not in (None, tokens[2])
        assert made["url"] == f"/play/{made['id']}#token={made['token']}"
        assert ws.receive_json() == {"type": "rematch", "id": made["id"]}  # a spectator's
    new = made["id"]
    # The same game for the other person (or the same one again), and their seat's new token
    # once: Ann was not there when it was made, so hers is given now; never twice.
    again = client.post(url, json={"token": tokens[0]}).json()
    assert again["id"] == new and again["seat"] == 0 and again["created"] is False
    assert again["token"] not in (None, tokens[0], made["token"])
    for seat in (0, 2):
        once = client.post(url, json={"token": tokens[seat]}).json()
        assert once == {"id": new, "seat": seat, "created": False, "token": None, "url": None}
    assert client.get(f"/api/games/{gid}").json()["rematch"] == new
    old_pub, new_pub = client.get(f"/api/games/{gid}").json(), client.get(f"/api/games/{new}")
    assert new_pub.status_code == 200 and new_pub.json()["status"] == "active"
    assert game_only(new_pub.json()["seats"]) == game_only(old_pub["seats"])
    assert new_pub.json()["rematch"] is None
    # The new tokens open the seats in the rematch, with each person's settings; the old game's
    # open nothing there (they still open the old game).
    for seat, token in ((0, again["token"]), (2, made["token"])):
        v = client.get(f"/api/games/{new}/view", headers={"Authorization": f"Bearer {token}"})
        assert v.status_code == 200 and v.json()["seat"] == seat
        assert v.json()["ask"] == ASK
    for seat, token in tokens.items():
        auth = {"Authorization": f"Bearer {token}"}
        assert client.get(f"/api/games/{new}/view", headers=auth).status_code == 403
        assert client.get(f"/api/games/{gid}/view", headers=auth).json()["seat"] == seat
    storage = Storage(db_url)
    old_row, new_row = storage.load_game(gid), storage.load_game(new)
    storage.close()
    assert old_row is not None and new_row is not None
    assert old_row.rematch == new and new_row.rematch is None
    assert new_row.seed != old_row.seed and new_row.game_id == "classic"
    assert [(x.kind, x.name, x.bot) for x in new_row.seats] == [
        (x.kind, x.name, x.bot) for x in old_row.seats
    ]
    assert {x.token_hash for x in new_row.seats if x.kind == "human"} == {
        hash_token(again["token"]),
        hash_token(made["token"]),
    }
    # Refusals: not a person's token; an unknown game; a game not over.
    assert client.post(url, json={"token": "nope"}).status_code == 403
    assert client.post(url, json={"token": tokens[0], "x": 1}).status_code == 422
    assert client.post("/api/games/nope/rematch", json={"token": "t"}).status_code == 404
    r = client.post(f"/api/games/{new}/rematch", json={"token": again["token"]})
    assert r.status_code == 422 and "after its end" in r.json()["detail"]


def test_the_people_at_the_table_get_their_rematch_tokens_on_their_sockets(
    client: TestClient, db_url: str, classic: GameState
) -> None:
    """Each person whose page is open when the rematch is made gets their seat's new token on
    their own socket, and nobody else's; the person who asked gets theirs in the answer."""
    gid, tokens = store(db_url, classic, {0: "Ann", 1: "Bo", 2: "Cy"})
    ws_url = f"/api/games/{gid}/ws"
    with (
        client.websocket_connect(ws_url) as ann,
        client.websocket_connect(ws_url) as bo,
        client.websocket_connect(ws_url) as watcher,
    ):
        for ws, token in ((ann, tokens[0]), (bo, tokens[1])):
            ws.receive_json()
            ws.send_json({"type": "auth", "token": token})
            assert next_message(ws, "hello")["type"] == "hello"
        watcher.receive_json()
        made = client.post(f"/api/games/{gid}/rematch", json={"token": tokens[2]}).json()
        got = {seat: next_message(ws, "rematch") for seat, ws in ((0, ann), (1, bo))}
        assert next_message(watcher, "rematch") == {"type": "rematch", "id": made["id"]}
    assert {m["type"] for m in got.values()} == {"rematch"}
    new_tokens = {0: got[0]["token"], 1: got[1]["token"], 2: made["token"]}
    assert len(set(new_tokens.values()) | set(tokens.values())) == 6
    for seat, token in new_tokens.items():
        auth = {"Authorization": f"Bearer {token}"}
        assert client.get(f"/api/games/{made['id']}/view", headers=auth).json()["seat"] == seat
    # Given already: asking with the old token gives none again.
    again = client.post(f"/api/games/{gid}/rematch", json={"token": tokens[0]}).json()
    assert again["token"] is None


def test_rematch_is_made_once_under_concurrency(tmp_path: Path, classic: GameState) -> None:
    db_url = f"sqlite:///{tmp_path / 'games.sqlite'}"
    gid, _ = store(db_url, classic, {0: "Ann"}, listed=False)

    async def main() -> list[tuple[str, bool]]:
        hub = Hub(Storage(db_url), 0.0)
        await hub.start()
        try:
            live = await hub.get(gid)
            made = await asyncio.gather(*(hub.rematch(live, 0) for _ in range(5)))
            return [(g.id, created) for g, created, _ in made]
        finally:
            await hub.stop()
            hub.storage.close()

    # On a thread of its own: a pytest-xdist worker that ran the browser tests first has
    # Playwright's event loop running on the main thread, where asyncio.run() is refused.
    with ThreadPoolExecutor(1) as pool:
        made = pool.submit(asyncio.run, main()).result()
    assert len({g for g, _ in made}) == 1
    assert sorted(c for _, c in made) == [False] * 4 + [True]
    storage = Storage(db_url)
    new = storage.load_game(made[0][0])
    storage.close()
    assert new is not None and new.listed is False  # a private game's rematch is private too


def test_an_older_database_gains_the_rematch_column(tmp_path: Path) -> None:
    from sqlalchemy import inspect, text

    db_url = f"sqlite:///{tmp_path / 'old.sqlite'}"
    storage = Storage(db_url)
    storage.create_tables()
    with storage.engine.begin() as c:
        c.execute(text("ALTER TABLE games DROP COLUMN rematch"))
    storage.create_tables()
    assert "rematch" in {c["name"] for c in inspect(storage.engine).get_columns("games")}
    storage.close()


def test_a_seed_above_2_53_is_taken_as_digits_and_given_back_as_digits(
    client: TestClient, db_url: str
) -> None:
    """Issue 38: a browser sends a 64-bit seed as a string (a JavaScript number would round
    it) and reads it back from ``seed_text``; the number field stays for other clients."""
    big = 2**62 + 2**53 + 7
    assert float(big) != big
    seats = [{"type": "human", "name": "Ann", "ask": ASK}, {"type": "bot", "bot": "random"}]
    body = {"game": "my-first-monopoly-2", "seats": seats, "seed": str(big)}
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    stored = Storage(db_url).load_game(r.json()["id"])
    assert stored is not None and stored.seed == big
    refused = client.post("/api/games", json={**body, "seed": str(2**63)})
    assert refused.status_code == 422 and "seed" in refused.text
    finished = played("my-first-monopoly-2", 2, big)
    gid, _ = store(db_url, finished, {0: "Ann"})
    h = client.get(f"/api/games/{gid}/history").json()
    assert h["seed"] == big and h["seed_text"] == str(big)
