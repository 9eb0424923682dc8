"""Vector environments with a mask-sampling policy, played past several episode ends: the
observation that ends an episode carries the no-op alone, so sampling from its mask never
fails (Gymnasium 1.x's next-step autoreset asks for an action there and ignores it)."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv

import meeple.rl  # noqa: F401 (registers the ids)


def make(game: str, seat: int) -> Callable[[], gym.Env]:  # type: ignore[type-arg]
    # "meeple.rl:" imports the module that registers the ids: SB3's SubprocVecEnv starts its
    # workers with forkserver (a fresh interpreter), where nothing has imported meeple.rl yet.
    return lambda: gym.make(f"meeple.rl:meeple/{game}-v0", players=2, seat=seat, max_turns=60)


def sample(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One action per env, uniform over its mask (numpy's choice fails on an empty mask)."""
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])


def drive(vec: gym.vector.VectorEnv, steps: int) -> int:  # type: ignore[type-arg]
    """Mask-sampling play for ``steps`` vector steps; the number of episode ends seen."""
    rng = np.random.default_rng(0)
    obs, _ = vec.reset(seed=[11, 12])
    ends = 0
    noop = vec.single_action_space.n - 1  # type: ignore[attr-defined]
    for _ in range(steps):
        masks = obs["action_mask"]
        assert masks.any(axis=1).all()
        obs, _, term, trunc, infos = vec.step(sample(masks, rng))
        for i in np.flatnonzero(term | trunc):
            ends += 1
            if term[i]:  # a truncated episode's last observation keeps its real decision
                assert np.flatnonzero(obs["action_mask"][i]).tolist() == [noop]
            assert infos["result"][i] in ("win", "draw", "loss", "truncated")
    return ends


@pytest.mark.parametrize("game", ["my-first-monopoly-1", "monopolis"])
def test_sync_vector_env_plays_past_episode_ends(game: str) -> None:
    vec = SyncVectorEnv([make(game, 0), make(game, 1)])
    assert vec.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert drive(vec, 400) >= 6
    vec.close()


def test_async_vector_env_plays_past_episode_ends() -> None:
    vec = AsyncVectorEnv([make("my-first-monopoly-2", 0), make("my-first-monopoly-2", 1)])
    assert drive(vec, 300) >= 4
    vec.close()


def test_sb3_subproc_vec_env() -> None:
    if importlib.util.find_spec("stable_baselines3") is None:
        pytest.skip("stable-baselines3 is not installed (meeple[train], not a test dependency)")
    from stable_baselines3.common.vec_env import SubprocVecEnv

    vec = SubprocVecEnv([make("my-first-monopoly-1", 0), make("my-first-monopoly-1", 1)])
    vec.seed(3)
    vec.reset()
    rng = np.random.default_rng(0)
    ends = 0
    for _ in range(300):
        masks = np.stack(vec.env_method("action_masks"))
        _, _, dones, infos = vec.step(sample(masks, rng))
        ends += int(dones.sum())
        for i in np.flatnonzero(dones):
            assert infos[i]["result"] in ("win", "draw", "loss", "truncated")
    assert ends >= 4
    vec.close()
