"""The PettingZoo AEC environment (meeple.rl.env): PettingZoo's own tests, eliminations,
seeds, the cap."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import meeple.rl
from meeple.kernel.family import game_ids

GAMES = game_ids()
# The Dict observation (vector + mask) is PettingZoo's own classic-games convention.
pytestmark = pytest.mark.filterwarnings(
    "ignore:Observation space for each agent probably:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
)


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_api(game: str) -> None:
    api_test(meeple.rl.env(game, players=3), num_cycles=200)


@pytest.mark.parametrize("game", ["classic", "monopolis"])
def test_pettingzoo_seed(game: str) -> None:
    seed_test(lambda: meeple.rl.env(game, players=3), num_cycles=200)


def play(env: meeple.rl.MeepleAECEnv, seed: int) -> dict[str, float]:
    """Masked-random play to the end; each agent's total reward."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals: dict[str, float] = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert np.array_equal(mask, info["action_mask"])
        assert env.agent_name_mapping[agent] == env.game.current_player()
        assert int(mask.sum()) == len(env.game.legal_actions())
        env.step(int(rng.choice(np.flatnonzero(mask))))
    return totals


@pytest.mark.parametrize("game", GAMES)
def test_every_game_plays_to_the_end(game: str) -> None:
    env = meeple.rl.env(game, players=4, max_turns=400)
    totals = play(env, 1)
    assert not env.agents
    r = env.game.result()
    if r is not None and r.end_reason != "turn_cap":
        winners = [totals[f"player_{w}"] for w in r.winners]
        assert winners == ([1.0] if len(r.winners) == 1 else [0.0] * len(r.winners))
        assert sum(1 for v in totals.values() if v == -1.0) == 4 - len(r.winners)
    else:  # truncated: 0, except seats already bankrupt (-1)
        assert set(totals.values()) <= {0.0, -1.0}


def test_bankrupt_seat_is_terminated_at_once() -> None:
    env = meeple.rl.env("classic", players=4)
    for seed in range(10):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            if term and not env.game.is_terminal():
                assert reward == -1.0
                assert not env.game.alive[env.agent_name_mapping[agent]]  # type: ignore[attr-defined]
                env.step(None)
                assert agent not in env.agents
                return
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    pytest.fail("no seat went bankrupt in 10 random games")


def test_seeds_and_cap() -> None:
    a, b = meeple.rl.env("frozen-ii", max_turns=50), meeple.rl.env("frozen-ii", max_turns=50)
    assert play(a, 4) == play(b, 4)
    assert a.game.snapshot() == b.game.snapshot()
    env = meeple.rl.env("classic", max_turns=3)
    play(env, 0)
    assert not env.game.is_terminal()


def test_render_and_illegal() -> None:
    env = meeple.rl.env("classic", render_mode="ansi")
    env.reset(seed=0)
    assert "GO" in str(env.render())
    agent = env.agent_selection
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert env.agent_selection == agent and env.rewards[agent] < 0
    with pytest.raises(ValueError):
        strict = meeple.rl.env("classic", illegal_action="raise")
        strict.reset(seed=0)
        strict.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
