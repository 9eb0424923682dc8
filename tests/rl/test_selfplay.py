"""Opponents that are policies, past selves of the learner and a league (meeple.rl.selfplay)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import meeple.rl
from meeple.rl import League
from meeple.rl.selfplay import PolicyBot


class FirstLegal:
    """A deterministic policy: the first legal index; counts its calls and seats seen."""

    def __init__(self) -> None:
        self.calls = 0
        self.shapes: set[tuple[int, ...]] = set()

    def __call__(self, obs: dict[str, Any], mask: np.ndarray) -> int:
        self.calls += 1
        self.shapes.add(tuple(obs["observation"].shape) if "observation" in obs else ())
        return int(np.flatnonzero(mask)[0])


def finish(env: meeple.rl.MeepleGymEnv, seed: int) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    done = False
    while not done:
        obs, _, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        done = term or trunc
    return info


@pytest.mark.parametrize("game", ["classic", "monopolis"])
def test_policies_play_the_other_seats(game: str) -> None:
    pol = FirstLegal()
    env = meeple.rl.gym_env(game, opponents=pol, players=3, seat=0, max_turns=200)
    info = finish(env, 1)
    assert pol.calls > 0 and info["result"] in ("win", "draw", "loss", "truncated")
    assert all(isinstance(b, PolicyBot) for b in env.bots.values())
    assert pol.shapes == {(env.table.observer.size,)}  # the same observation as the learner's
    mixed = meeple.rl.gym_env(game, opponents=[pol, "standard"], players=3, seat=2)
    mixed.reset(seed=0)
    assert isinstance(mixed.bots[0], PolicyBot) and not isinstance(mixed.bots[1], PolicyBot)


def test_a_policy_that_breaks_the_mask_is_named() -> None:
    env = meeple.rl.gym_env("classic", opponents=lambda obs, mask: 10**6, players=2, seat=1)
    with pytest.raises(ValueError, match="policy in seat 0"):
        env.reset(seed=0)  # seat 0 moves before the learner


def test_structured_policies_get_structured_observations() -> None:
    seen: list[set[str]] = []
    env = meeple.rl.gym_env(
        "classic",
        opponents=lambda obs, mask: seen.append(set(obs)) or int(np.flatnonzero(mask)[0]),
        players=2,
        seat=1,
        observation="structured",
    )
    env.reset(seed=0)
    assert seen and seen[0] == {"squares", "players", "globals", "action_mask"}


def test_league_draws_per_seat_and_episode_and_reproduces() -> None:
    pol = FirstLegal()

    def kinds(seed: int) -> list[list[str]]:
        league = League(["random", "standard", pol])
        env = meeple.rl.gym_env("classic", opponents=league, seat=0, max_turns=5)
        env.reset(seed=seed)
        out = []
        for _ in range(8):
            out.append([type(env.bots[q]).__name__ for q in (1, 2, 3)])
            env.reset()
        return out

    a = kinds(3)
    assert a == kinds(3)
    assert len({name for row in a for name in row}) == 3  # all three members sat somewhere
    assert len({tuple(row) for row in a}) > 1  # a new draw each episode


def test_league_snapshots_of_the_learner() -> None:
    made: list[FirstLegal] = []

    def snapshot() -> FirstLegal:
        made.append(FirstLegal())
        return made[-1]

    league = League([], snapshot=snapshot, snapshot_every=2, max_snapshots=2)
    env = meeple.rl.gym_env("my-first-monopoly-1", opponents=league, players=2, seat=0)
    for seed in range(5):
        finish(env, seed)
    assert len(made) == 3  # episodes 0, 2 and 4
    assert league.snapshots == made[1:]  # the oldest dropped
    assert isinstance(env.bots[1], PolicyBot) and env.bots[1].policy in made[1:]
    assert sum(p.calls for p in made) > 0
    members, p = League(["random"], snapshot=snapshot, snapshot_weight=3.0).pool()
    assert members == ["random"] and p == [1.0]  # no snapshot before the first episode
    with pytest.raises(ValueError, match="needs members"):
        League([])
    with pytest.raises(ValueError, match="unknown bot"):
        meeple.rl.gym_env("classic", opponents=League(["nobody"]))


def test_league_weights() -> None:
    league = League(["random", "standard"], weights=[1.0, 3.0])
    rng = np.random.default_rng(0)
    draws = [league.draw(rng) for _ in range(2000)]
    assert 0.70 < draws.count("standard") / len(draws) < 0.80


@pytest.mark.filterwarnings(
    "ignore:Observation space for each agent probably:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
)
def test_pettingzoo_opponent_seats() -> None:
    from pettingzoo.test import api_test

    pol = FirstLegal()
    league = League(["random", pol])
    env = meeple.rl.OpponentSeats(
        meeple.rl.env("classic", players=3, max_turns=150),
        {"player_1": "standard", "player_2": league},
    )
    api_test(env, num_cycles=100)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    total = 0.0
    for agent in env.agent_iter():
        assert agent == "player_0"  # the opponents never surface
        obs, reward, term, trunc, _ = env.last()
        total += reward
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert total in (-1.0, 0.0, 1.0)
    with pytest.raises(ValueError, match="no agent"):
        meeple.rl.OpponentSeats(meeple.rl.env("classic", players=2), {"player_5": "random"})
    with pytest.raises(ValueError, match="leave one"):
        meeple.rl.OpponentSeats(
            meeple.rl.env("classic", players=2), {"player_0": "random", "player_1": "random"}
        )
