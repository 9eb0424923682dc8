"""An action is applied once, whatever is retried (issue 39; docs/SERVER.md, "Durability").

A request sent again after its answer was lost (a timeout, or the game's server process died
while answering and another took the game over) is answered as applied, not applied twice; a
process that held a game without knowing another took it over lets go of it when its store is
refused; and a bot whose move the database refused plays that same move when the table tries
again, without being asked twice (a resume asks it once for each decision it made).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from fastapi.testclient import TestClient

from meeple.bots.base import Bot, make_bot
from meeple.kernel.protocol import Action, GameState
from meeple.server.hub import Hub, HubError, Lifecycle, LiveGame
from meeple.server.storage import Storage
from tests.server.conftest import new_game


def _post(client: TestClient, gid: str, token: str, state_id: int, action: str) -> tuple[int, dict]:
    r = client.post(
        f"/api/games/{gid}/actions", json={"token": token, "state_id": state_id, "action": action}
    )
    return r.status_code, r.json()


def test_a_repeated_action_is_answered_as_applied_not_applied_again(client: TestClient) -> None:
    made = new_game(client)  # Ann (seat 0) starts
    gid, ann, bob = made["id"], made["seats"][0]["token"], made["seats"][1]["token"]
    status, first = _post(client, gid, ann, 0, "roll")
    assert status == 200, first
    stored = client.get(f"/api/games/{gid}").json()["state_id"]
    status, again = _post(client, gid, ann, 0, "roll")  # the first answer was lost
    assert status == 200, again
    assert again["events"] == first["events"] and again["events"]  # that roll's own events
    assert again["state_id"] == stored  # the game as it is now: nothing applied again
    assert client.get(f"/api/games/{gid}").json()["state_id"] == stored
    log = client.get(f"/api/games/{gid}/log").json()
    assert log["state_id"] == stored
    # Not a repeat: another action at that position, or the same one from another seat.
    status, body = _post(client, gid, ann, 0, "end_turn")
    assert (status, body["state_id"]) == (409, stored)
    status, body = _post(client, gid, bob, 0, "roll")
    assert (status, body["state_id"]) == (409, stored)
    status, body = _post(client, gid, ann, 0, "no such action")
    assert (status, body["state_id"]) == (409, stored)


def test_a_repeated_action_on_the_socket_is_answered_as_applied(client: TestClient) -> None:
    made = new_game(client)
    gid, ann = made["id"], made["seats"][0]["token"]
    with client.websocket_connect(f"/api/games/{gid}/ws?token={ann}") as ws:
        assert ws.receive_json()["type"] == "hello"
        answers = []
        for ref in (1, 2):
            ws.send_json({"type": "act", "state_id": 0, "action": "roll", "ref": ref})
            msg = ws.receive_json()
            while msg["type"] not in ("acted", "refused"):
                msg = ws.receive_json()
            answers.append(msg)
    assert [a["type"] for a in answers] == ["acted", "acted"]
    assert answers[1]["events"] == answers[0]["events"]
    assert client.get(f"/api/games/{gid}").json()["state_id"] == answers[0]["state_id"]


def _hub(path: Path) -> Hub:
    return Hub(Storage(f"sqlite:///{path}"), bot_pace=3600.0, lifecycle=Lifecycle(sweep_every=0))


def test_a_process_whose_store_is_refused_lets_go_of_the_game(tmp_path: Path) -> None:
    """Two processes hold the same game (one stalled past its lease while the other took
    over): the one whose action comes second is refused by the database's unique index, drops
    its copy, and serves the stored game the next time it is asked."""

    async def run() -> None:
        db = tmp_path / "games.sqlite"
        first, second = _hub(db), _hub(db)
        await first.start()
        await second.start()
        try:
            seats = [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}]
            made = await first.create("classic", seats, 4)
            gid = made.live.id
            stale = await second.get(gid)
            seat = stale.state.current_player()
            action = str(stale.state.legal_actions()[0])
            await first.act(made.live, seat, 0, action)  # the new owner stores position 0
            try:
                await second.act(stale, seat, 0, action)
            except HubError as exc:
                assert exc.status == 503 and "another server process" in exc.detail
            else:
                raise AssertionError("the second store was not refused")
            assert gid not in second.games  # let go of
            fresh = await second.get(gid)  # replayed from the database
            assert fresh is not stale and fresh.state_id == 1
        finally:
            await first.stop()
            await second.stop()
            first.storage.close()
            second.storage.close()

    asyncio.run(run())


class Counting(Bot):
    """A bot that counts the decisions it is asked for (another bot decides)."""

    def __init__(self, inner: Bot) -> None:
        super().__init__(0)
        self.inner = inner
        self.asked = 0

    def choose(self, state: GameState) -> Action:
        self.asked += 1
        return self.inner.choose(state)


def test_a_bot_move_the_database_refused_is_played_again_without_asking_again(
    tmp_path: Path,
) -> None:
    async def run() -> None:
        hub = _hub(tmp_path / "games.sqlite")
        await hub.start()
        try:
            seats = [{"type": "bot", "bot": "random"}, {"type": "human", "name": "Bob"}]
            made = await hub.create("classic", seats, 4, rules={"start_player": "first_seat"})
            live: LiveGame = made.live
            bot = Counting(make_bot("random", "monopoly", 9))
            live.seats[0].bot = bot
            append = hub.storage.append_actions

            def refuse(writes: object) -> None:
                raise OSError("the database is away")

            hub.storage.append_actions = refuse  # type: ignore[method-assign]
            for _ in range(2):
                try:
                    await hub.bot_move(live, 0)
                except HubError as exc:
                    assert exc.status == 503
                else:
                    raise AssertionError("the store did not fail")
            assert live.state_id == 0 and bot.asked == 1
            hub.storage.append_actions = append  # type: ignore[method-assign]
            assert await hub.bot_move(live, 0)
            assert live.state_id == 1 and bot.asked == 1
            assert live.seats[0].chosen is None
        finally:
            await hub.stop()
            hub.storage.close()

    asyncio.run(run())


def test_a_person_takes_their_seat_back_during_a_bots_pause_and_its_move_is_dropped(
    tmp_path: Path,
) -> None:
    """The table's pace (a bot's pause before a move it shows) is taken with the game's lock
    free: a person taking their seat back from a stand-in is answered at once, not after the
    pause, and the stand-in's move, chosen before, is never played. (Under the lock, the
    request waited out the pause: here an hour.)"""

    async def run() -> None:
        hub = _hub(tmp_path / "games.sqlite")
        await hub.start()
        try:
            seats = [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}]
            made = await hub.create("classic", seats, 4, rules={"start_player": "first_seat"})
            live: LiveGame = made.live
            ann = made.tokens[0]
            assert ann is not None
            await hub.stand_in(live, ann, 0, True)
            for _ in range(200):  # the table's task: the stand-in has chosen, and pauses
                if live.seats[0].chosen is not None:
                    break
                await asyncio.sleep(0.01)
            assert live.seats[0].chosen is not None and live.state_id == 0
            await asyncio.wait_for(hub.stand_in(live, ann, 0, False), 30)
            assert live.seats[0].bot is None and live.state_id == 0
        finally:
            await hub.stop()
            hub.storage.close()
        assert live.state_id == 0  # the paused move was dropped with the table's task

    asyncio.run(run())
