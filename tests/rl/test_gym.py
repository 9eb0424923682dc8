"""The Gymnasium environment (meeple.rl.gym_env): the checker, masks, seeds, rewards, the cap."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import meeple.rl
from meeple.bots.base import bot_kinds
from meeple.kernel.family import game_ids
from meeple.rl.core import ILLEGAL_REWARD
from meeple.rl.gym_env import MeepleGymEnv

GAMES = game_ids()
pytestmark = pytest.mark.filterwarnings("ignore:.*alternative render modes:UserWarning")


def run_episode(env: MeepleGymEnv, seed: int, policy_seed: int = 0) -> tuple[list[int], float]:
    """A masked-random episode: the actions taken and the return."""
    rng = np.random.default_rng(policy_seed)
    obs, info = env.reset(seed=seed)
    taken: list[int] = []
    total = 0.0
    done = False
    while not done:
        assert obs in env.observation_space
        assert np.array_equal(obs["action_mask"], info["action_mask"])
        assert np.array_equal(env.action_masks(), obs["action_mask"].astype(bool))
        legal = env.game.legal_actions()
        assert int(obs["action_mask"].sum()) == len(legal)
        a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        taken.append(a)
        obs, r, term, trunc, info = env.step(a)
        total += float(r)
        done = term or trunc
    return taken, total


@pytest.mark.parametrize("game", GAMES)
def test_check_env(game: str) -> None:
    check_env(meeple.rl.gym_env(game), skip_render_check=False)


@pytest.mark.parametrize("game", GAMES)
def test_masked_episodes_end(game: str) -> None:
    env = meeple.rl.gym_env(game, players=3, max_turns=300)
    for seed in range(2):
        taken, total = run_episode(env, seed)
        assert taken
        assert total in (-1.0, 0.0, 1.0)


def test_gymnasium_make_and_render() -> None:
    env = gym.make("meeple/Meeple-v0", game="classic", render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and "Boardwalk" in text
    mono = meeple.rl.gym_env("monopolis", render_mode="ansi")
    mono.reset(seed=1)
    assert "CASTLE" in str(mono.render())


def test_seeds_reproduce_episodes() -> None:
    a = meeple.rl.gym_env("classic", max_turns=120)
    b = meeple.rl.gym_env("classic", max_turns=120)
    assert run_episode(a, 5) == run_episode(b, 5)
    first = [a.reset(seed=9)[0]["observation"]]
    first.append(a.reset()[0]["observation"])
    again = [b.reset(seed=9)[0]["observation"], b.reset()[0]["observation"]]
    assert all(np.array_equal(x, y) for x, y in zip(first, again, strict=True))
    seats = {a.reset(seed=s)[1]["seat"] for s in range(12)}
    assert len(seats) > 1  # the learner's seat is drawn per episode


def test_turn_cap_truncates() -> None:
    env = meeple.rl.gym_env("classic", max_turns=6, seat=0)
    obs, info = env.reset(seed=0)
    done = False
    while not done:
        obs, r, term, trunc, info = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        done = term or trunc
    assert trunc and not term and r == 0.0
    assert info["turns"] >= 6


def test_shaped_reward_adds_share_changes() -> None:
    env = meeple.rl.gym_env("my-first-monopoly-2", reward="shaped", seat=0, players=2)
    _, total = run_episode(env, 3)
    win = meeple.rl.gym_env("my-first-monopoly-2", seat=0, players=2)
    _, outcome = run_episode(win, 3)
    assert total != outcome
    assert abs(total - outcome) <= 1.0


def test_illegal_actions() -> None:
    env = meeple.rl.gym_env("classic", seat=0)
    obs, _ = env.reset(seed=0)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.game.snapshot()
    _, r, term, trunc, info = env.step(bad)
    assert r == ILLEGAL_REWARD and info["illegal_action"] and not term and not trunc
    assert env.game.snapshot() == before
    strict = meeple.rl.gym_env("classic", seat=0, illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(ValueError, match="not legal"):
        strict.step(bad)


def test_opponents() -> None:
    assert "standard" in bot_kinds("monopoly")
    env = meeple.rl.gym_env("classic", opponents=["standard", "random", "standard"], seat=1)
    env.reset(seed=2)
    assert [type(env.bots[q]).__name__ for q in (2, 3, 0)][1] == "RandomBot"
    with pytest.raises(ValueError, match="unknown bot"):
        meeple.rl.gym_env("classic", opponents="nobody")
    with pytest.raises(ValueError, match="opponents lists"):
        meeple.rl.gym_env("classic", opponents=["random"])
    with pytest.raises(ValueError, match="players"):
        meeple.rl.gym_env("monopolis", players=6)
    mono = meeple.rl.gym_env("monopolis", opponents="standard", players=2)
    _, total = run_episode(mono, 1)
    assert total in (-1.0, 0.0, 1.0)
