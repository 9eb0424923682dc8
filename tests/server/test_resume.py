"""A resumed game plays on exactly as it would have (issue 39; docs/SERVER.md, "Durability").

For every game family and every bot kind the server seats, a table of two people and that bot
is played twice through the hub, on SQLite: once without a break, and once let go of and
rebuilt from storage (as a restart or a takeover by another process does) at random positions.
The people's stand-ins (the standard bot) are switched on and off at the same random positions
in both runs, and the people's own moves are drawn from streams keyed by the position, so the
two runs are the same game exactly when every bot, stand-ins included, is rebuilt as it stood.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from meeple.bots.base import FILE_KINDS, RandomBot, bot_kinds
from meeple.kernel.family import families, game_ids, game_info
from meeple.kernel.rng import derive_seed
from meeple.server.hub import Hub, Lifecycle, LiveGame
from meeple.server.storage import Storage

PEOPLE = 101
"""The people's moves at position ``p`` are drawn by ``RandomBot(derive_seed(PEOPLE, p))``."""

ACTIONS = {"monopoly": 400, "monopolis": 400}
"""Actions played in each run at most, by family (a shorter game ends before)."""


def _cases() -> list[tuple[str, str]]:
    """Every bot kind the server seats, of every family (each in a game of its family that
    seats it, the family's games taken in turn, so the editions are covered too)."""
    cases = []
    for fam in families():
        kinds = [k for k in bot_kinds(fam.name) if k not in FILE_KINDS]  # the server seats no
        for i, kind in enumerate(kinds):  # file kinds: they read files on the server
            games = [
                g
                for g in game_ids()
                if game_info(g).family == fam.name and kind in bot_kinds(fam.name, g)
            ]
            cases.append((games[i % len(games)], kind))
    return cases


SEARCHING = {"mcts", "learned"}
"""Kinds that think (a search, a network) at each decision and again at each rebuild: the slow
tier (tests/conftest.py) runs them."""

CASES = [
    pytest.param(g, k, id=f"{g}-{k}", marks=[pytest.mark.slow] if k in SEARCHING else [])
    for g, k in _cases()
]


def _plan(seed: int, length: int) -> tuple[dict[int, list[tuple[int, bool]]], set[int]]:
    """Where the people's stand-ins go on and off, and where the game is rebuilt."""
    rnd = random.Random(seed)
    toggles: dict[int, list[tuple[int, bool]]] = {}
    for seat in (0, 2):
        on, at = False, rnd.randrange(0, 12)
        while at < length:
            on = not on
            toggles.setdefault(at, []).append((seat, on))
            at += rnd.randrange(8, 40)
    resumes, at = set(), 0
    while at < length:
        at += rnd.randrange(4, 20)
        resumes.add(at)
    return toggles, resumes


async def _hub(path: Path) -> Hub:
    # No table task moves anything here: the test plays every seat, so both hubs ask the bots
    # at the same positions. (A pace alone does not stop a table: a move that shows nothing,
    # such as a forced one, goes at once.)
    hub = Hub(Storage(f"sqlite:///{path}"), bot_pace=3600.0, lifecycle=Lifecycle(sweep_every=0))
    hub._start_table = lambda live: None  # type: ignore[method-assign]
    await hub.start()
    return hub


def _streams(live: LiveGame) -> list[object]:
    """Where each seat's bot stands: its random stream (``None``: nobody plays for the seat)."""
    return [None if s.bot is None else s.bot.rng.state for s in live.seats]


async def _step(hub: Hub, live: LiveGame) -> None:
    """The seat that decides moves: its bot, or the person (by the position's own stream)."""
    at, cp = live.state_id, live.state.current_player()
    if live.seats[cp].bot is not None:
        assert await hub.bot_move(live, cp)
    else:
        action = RandomBot(derive_seed(PEOPLE, at)).choose(live.state)
        await hub.act(live, cp, at, str(action))


async def _play_twice(tmp: Path, game: str, kind: str, seed: int) -> int:
    """Play the game in two hubs side by side, one of them rebuilt from its database now and
    then; assert at each position that both have played the same actions and that every bot
    stands where its twin does. Returns the number of rebuilds."""
    length = ACTIONS[game_info(game).family]
    hubs = [await _hub(tmp / "straight.sqlite"), await _hub(tmp / "resumed.sqlite")]
    try:
        seats = [
            {"type": "human", "name": "Ann"},
            {"type": "bot", "bot": kind},
            {"type": "human", "name": "Cy"},
        ]
        made = [await hub.create(game, seats, seed) for hub in hubs]
        straight, resumed = made[0].live, made[1].live
        toggles, resumes = _plan(seed, length)
        rebuilt = 0
        while straight.state_id < length and not straight.state.is_terminal():
            at = straight.state_id
            if at in resumes:
                hubs[1].drop(resumed.id, moved=False)
                resumed = await hubs[1].get(resumed.id)  # rebuilt from its database
                rebuilt += 1
            for seat, on in toggles.get(at, []):
                for hub, live, m in zip(hubs, (straight, resumed), made, strict=True):
                    await hub.stand_in(live, m.host, seat, on)
            assert resumed.state.history == straight.state.history
            assert _streams(resumed) == _streams(straight), f"at position {at}"
            await _step(hubs[0], straight)
            await _step(hubs[1], resumed)
        assert resumed.state.history == straight.state.history
        return rebuilt
    finally:
        for hub in hubs:
            await hub.stop()
            hub.storage.close()


@pytest.mark.parametrize(("game", "kind"), CASES)
def test_a_game_rebuilt_at_random_points_plays_on_as_it_would_have(
    tmp_path: Path, game: str, kind: str
) -> None:
    for seed in (3, 8):
        path = tmp_path / str(seed)
        path.mkdir()
        assert asyncio.run(_play_twice(path, game, kind, seed)) >= 3
