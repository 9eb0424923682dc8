"""Issue 22's environment fixes: the never-empty mask (the no-op), the step cap and the
illegal-action limit, the end-of-episode info, the registered ids and the public decoder."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest

import meeple.rl
from meeple.kernel.family import game_ids, new_game
from meeple.kernel.protocol import Action
from meeple.rl.core import DEFAULT_MAX_STEPS, ILLEGAL_REWARD
from meeple.rl.gym_env import MeepleGymEnv

GAMES = game_ids()


def play(env: MeepleGymEnv, seed: int) -> tuple[dict[str, Any], dict[str, Any], float, bool]:
    """Masked-random play to the episode's end: (last obs, last info, last reward, truncated)."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    while True:
        obs, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if term or trunc:
            return obs, info, float(r), trunc


@pytest.mark.parametrize("game", GAMES)
def test_the_mask_at_the_end_holds_the_noop_alone(game: str) -> None:
    env = meeple.rl.gym_env(game, players=3, max_turns=300)
    noop = env.action_space.n - 1  # type: ignore[attr-defined]
    assert noop == env.table.encoding.size == meeple.rl.noop_index(env.game)
    obs, info = env.reset(seed=0)
    assert obs["action_mask"][noop] == 0  # never legal while the learner decides
    obs, info, _, _ = play(env, 0)
    assert np.flatnonzero(obs["action_mask"]).tolist() == [noop]
    assert np.array_equal(info["action_mask"], obs["action_mask"])
    assert env.action_masks().tolist() == obs["action_mask"].astype(bool).tolist()
    assert env.decode_action(noop) == (None, meeple.rl.NOOP_TEXT)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(noop)


def test_the_noop_is_illegal_while_deciding() -> None:
    env = meeple.rl.gym_env("classic", seat=0)
    env.reset(seed=0)
    before = env.game.snapshot()
    _, r, term, trunc, info = env.step(env.table.noop)
    assert r == ILLEGAL_REWARD and info["illegal_action"] and not (term or trunc)
    assert env.game.snapshot() == before


def test_aec_waiting_agents_see_the_noop_and_a_dead_agent_may_step_it() -> None:
    env = meeple.rl.env("classic", players=3)
    env.reset(seed=0)
    noop = env.table.noop
    waiting = [a for a in env.agents if a != env.agent_selection]
    for a in waiting:
        assert np.flatnonzero(env.observe(a)["action_mask"]).tolist() == [noop]
    rng = np.random.default_rng(0)
    for agent in env.agent_iter():
        obs, _, term, trunc, info = env.last()
        mask = obs["action_mask"]
        assert mask.any()
        if term or trunc:
            assert np.flatnonzero(mask).tolist() == [noop]
            assert info["result"] in ("win", "draw", "loss", "truncated")
            env.step(noop)  # a mask-sampling policy's choice, taken as None
            assert agent not in env.agents
            continue
        env.step(int(rng.choice(np.flatnonzero(mask))))
    assert not env.agents


def test_step_cap_truncates_a_policy_that_ignores_the_mask() -> None:
    assert meeple.rl.gym_env("classic").max_steps == DEFAULT_MAX_STEPS
    env = meeple.rl.gym_env("classic", seat=0, max_steps=50)
    rng = np.random.default_rng(1)
    env.reset(seed=1)
    for n in range(1, 51):
        _, r, term, trunc, info = env.step(int(rng.integers(env.action_space.n)))  # type: ignore[attr-defined]
        if n < 50:
            assert not (term or trunc)
    assert trunc and not term
    assert info["end_reason"] == "max_steps" and info["result"] == "truncated"
    assert info["steps"] == 50 and 0 < info["illegal_steps"] <= 50
    if info.get("illegal_action"):
        assert r == ILLEGAL_REWARD  # the penalty stands, the cap adds nothing


def test_consecutive_illegal_actions_truncate() -> None:
    env = meeple.rl.gym_env("classic", seat=0, max_illegal=3)
    obs, _ = env.reset(seed=0)
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    bad = env.table.noop
    for _ in range(2):
        _, _, _, trunc, _ = env.step(bad)
        assert not trunc
    obs, _, _, trunc, _ = env.step(legal)  # a legal action resets the count
    assert not trunc
    for k in range(3):
        _, r, term, trunc, info = env.step(bad)
        assert trunc == (k == 2) and not term and r == ILLEGAL_REWARD
    assert info["end_reason"] == "max_illegal" and info["illegal_steps"] == 5
    with pytest.raises(ValueError, match="max_illegal"):
        meeple.rl.gym_env("classic", max_illegal=0)


@pytest.mark.parametrize("game", GAMES)
def test_end_info(game: str) -> None:
    env = meeple.rl.gym_env(game, opponents="standard", max_turns=400)
    seen: set[str] = set()
    for seed in range(6):
        _, info, r, trunc = play(env, seed)
        result, rank = info["result"], info["rank"]
        assert len(info["worth"]) == env.players and info["steps"] > 0
        game_result = env.game.result()
        if trunc:
            assert result == "truncated" and r == 0.0
        elif info["end_reason"] == "eliminated":
            assert game_result is None and not env.game.is_terminal()
            assert result == "loss" and r == -1.0 and rank > 1
            assert info["worth"][env.seat] == 0.0
        else:
            assert game_result is not None and info["end_reason"] == game_result.end_reason
            expected = {1.0: "win", 0.0: "draw", -1.0: "loss"}[r]
            assert result == expected and (rank == 1) == (result != "loss")
        seen.add(result)
    assert seen & {"win", "loss", "draw"}


def test_a_learner_out_of_the_game_ends_its_episode_with_info() -> None:
    for seed in range(30):
        env = meeple.rl.gym_env("classic", opponents="standard", seat=0)
        _, info, r, _ = play(env, seed)
        if info["end_reason"] == "eliminated":
            still_in = sum(1 for q in range(4) if env.game.alive[q])  # type: ignore[attr-defined]
            assert still_in >= 2 and info["rank"] == still_in + 1 and r == -1.0
            return
    pytest.fail("the learner was never eliminated with the game going on in 30 games")


def test_action_text_on_request() -> None:
    env = meeple.rl.gym_env("classic", seat=0, action_text=True)
    obs, _ = env.reset(seed=0)
    index = int(np.flatnonzero(obs["action_mask"])[0])
    action, text = env.decode_action(index)
    _, _, _, _, info = env.step(index)
    assert info["action_text"] == text and info["action"] == str(action) and text
    _, _, _, _, info = env.step(env.table.noop)
    assert info["action_text"].startswith("illegal: no action")
    quiet = meeple.rl.gym_env("classic", seat=0)
    quiet.reset(seed=0)
    assert "action_text" not in quiet.step(0)[4]


@pytest.mark.parametrize("game", GAMES)
def test_registered_ids(game: str) -> None:
    env = gym.make(f"meeple/{game}-v0", players=3)
    assert meeple.rl.gym_id(game) == f"meeple/{game}-v0"
    assert env.unwrapped.table.game == game  # type: ignore[attr-defined]
    obs, _ = env.reset(seed=0)
    assert obs in env.observation_space
    old = gym.make("meeple/Meeple-v0", game=game, players=3)
    assert np.array_equal(old.reset(seed=0)[0]["observation"], obs["observation"])


def test_registration_stays_out_of_import_meeple() -> None:
    import subprocess
    import sys

    code = "import sys, meeple; print('gymnasium' in sys.modules, 'numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]
    code = "import gymnasium as g; g.make('meeple.rl:meeple/monopolis-v0'); print('ok')"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "ok"


@pytest.mark.parametrize("game", GAMES)
def test_decoder_round_trip(game: str) -> None:
    env = meeple.rl.gym_env(game, players=3, seat=0)
    obs, _ = env.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(40):
        legal = np.flatnonzero(obs["action_mask"])
        for i in legal:
            action, text = meeple.rl.decode_action(env.game, int(i))
            assert isinstance(action, Action) and action in env.game.legal_actions()
            assert text == env.game.describe_action(action) and text
            assert meeple.rl.encode_action(env.game, action) == i
            assert meeple.rl.encode_action(env.game, str(action)) == i
        obs, _, term, trunc, _ = env.step(int(rng.choice(legal)))
        if term or trunc:
            break
    g = new_game(game, 3, 0)
    assert meeple.rl.encode_action(g, None) == meeple.rl.noop_index(g)
    with pytest.raises(ValueError):
        meeple.rl.decode_action(g, meeple.rl.noop_index(g) + 1)


def test_aec_step_cap_and_illegal_limit_truncate_every_agent() -> None:
    env = meeple.rl.env("classic", players=3, max_illegal=4)
    env.reset(seed=0)
    first = env.agent_selection
    for _ in range(4):
        assert not any(env.truncations.values())
        env.step(env.table.noop)  # illegal while deciding
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert env.rewards[first] == ILLEGAL_REWARD
    assert {env.infos[a]["end_reason"] for a in env.agents} == {"max_illegal"}
    assert env.infos[first]["illegal_action"]
    for _ in env.agent_iter():
        assert env.last()[3]
        env.step(None)
    assert not env.agents
    capped = meeple.rl.env("classic", players=3, max_steps=30)
    capped.reset(seed=1)
    rng = np.random.default_rng(1)
    steps = 0
    for _ in capped.agent_iter():
        _, _, term, trunc, info = capped.last()
        if term or trunc:
            assert info["end_reason"] == "max_steps" and info["result"] == "truncated"
            capped.step(None)
            continue
        steps += 1
        capped.step(int(rng.integers(capped.table.size)))  # mostly illegal
    assert 30 <= steps <= 3 * 30
    with pytest.raises(ValueError, match="max_steps"):
        meeple.rl.env("classic", max_steps=-1)
