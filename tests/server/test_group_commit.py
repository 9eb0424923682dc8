"""Group commit: many games' actions share a transaction, and nobody hears of one before it.

The hub's :class:`~meeple.server.hub.Writer` stores the actions that arrive while a commit is
under way together in the next transaction. These tests drive the hub directly (no HTTP) on a
temporary SQLite file.
"""

from __future__ import annotations

import asyncio
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from meeple.server.hub import Hub, HubError, LiveGame
from meeple.server.storage import Storage

HUMANS = [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}]


def stored(db: Path, gid: str) -> list[str]:
    with sqlite3.connect(db) as c:
        rows = c.execute(
            'select text from actions where game = ? order by "index"', (gid,)
        ).fetchall()
    return [str(t) for (t,) in rows]


async def first_legal(hub: Hub, live: LiveGame) -> list[str]:
    state = live.state
    return await hub.act(live, state.current_player(), live.state_id, str(state.legal_actions()[0]))


def run_hub(db: Path, body: Any) -> Any:
    async def main() -> Any:
        hub = Hub(Storage(f"sqlite:///{db}"), bot_pace=0.0)
        await hub.start()
        try:
            return await body(hub)
        finally:
            await hub.stop()
            hub.storage.close()

    # On a thread of its own: a pytest-xdist worker that ran the browser tests first has
    # Playwright's event loop running on the main thread, where asyncio.run() is refused.
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, main()).result()


def test_concurrent_games_share_commits(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite"

    async def body(hub: Hub) -> tuple[list[LiveGame], int]:
        games = [(await hub.create("classic", HUMANS, seed))[0] for seed in range(20)]
        before = hub.writer.commits
        for _ in range(5):  # five rounds of one action in each of twenty games, all at once
            await asyncio.gather(*(first_legal(hub, g) for g in games))
        return games, hub.writer.commits - before

    games, commits = run_hub(db, body)
    assert commits < 100  # at least some of the 100 actions shared a transaction
    for g in games:
        assert g.state_id == 5
        assert stored(db, g.id) == [str(a) for a in g.state.history]


def test_one_refused_action_fails_alone(tmp_path: Path) -> None:
    """A grouped commit that fails is retried action by action: only the bad one gets 503."""
    db = tmp_path / "games.sqlite"

    async def body(hub: Hub) -> tuple[list[LiveGame], list[Any]]:
        games = [(await hub.create("classic", HUMANS, seed))[0] for seed in range(6)]
        # Someone else stored action 0 of game 0: its insert must fail, the others must not.
        with sqlite3.connect(db) as c:
            c.execute(
                'insert into actions (game, "index", text) values (?, 0, ?)', (games[0].id, "x")
            )
        results = await asyncio.gather(
            *(first_legal(hub, g) for g in games), return_exceptions=True
        )
        return games, results

    games, results = run_hub(db, body)
    assert isinstance(results[0], HubError) and results[0].status == 503
    assert games[0].state_id == 0  # the live game did not move
    for g, r in zip(games[1:], results[1:], strict=True):
        assert not isinstance(r, BaseException), r
        assert g.state_id == 1
        assert stored(db, g.id) == [str(g.state.history[0])]


def test_cancelled_request_still_publishes(tmp_path: Path) -> None:
    """A waiter cancelled mid-commit does not leave the live game behind the database."""
    db = tmp_path / "games.sqlite"

    async def body(hub: Hub) -> tuple[LiveGame, int]:
        live = (await hub.create("classic", HUMANS, 3)).live
        sub = hub.subscribe(live, None)
        task = asyncio.create_task(first_legal(hub, live))
        await asyncio.sleep(0)  # the action is applied to a copy and queued for the writer
        task.cancel()
        update = await asyncio.wait_for(sub.queue.get(), 10)
        assert update is not None
        return live, int(update["state_id"])

    live, told = run_hub(db, body)
    assert told == 1 and live.state_id == 1
    assert stored(db, live.id) == [str(live.state.history[0])]
