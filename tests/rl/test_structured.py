"""The structured observation (per-square/plot, per-player tables) and the API checkers on every
registered id, flat and structured."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import meeple.rl
from meeple.kernel.family import game_ids

GAMES = game_ids()
pytestmark = pytest.mark.filterwarnings(
    "ignore:.*alternative render modes:UserWarning",
    "ignore:Observation space for each agent probably:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
)
TABLES = {"monopoly": {"squares", "players"}, "monopolis": {"plots", "seats", "market"}}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("observation", ["flat", "structured"])
def test_checkers_on_every_registered_id(game: str, observation: str) -> None:
    env = gym.make(meeple.rl.gym_id(game), observation=observation)
    check_env(env.unwrapped, skip_render_check=False)
    api_test(meeple.rl.env(game, players=3, observation=observation), num_cycles=60)  # type: ignore[arg-type]


@pytest.mark.parametrize("game", GAMES)
def test_structured_holds_the_flat_numbers_in_tables(game: str) -> None:
    flat = meeple.rl.gym_env(game, players=3, seat=1)
    tab = meeple.rl.gym_env(game, players=3, seat=1, observation="structured")
    fam = tab.table.family
    assert set(tab.observation_space.spaces) == TABLES[fam] | {"globals", "action_mask"}  # type: ignore[attr-defined]
    observer = tab.table.observer
    rng = np.random.default_rng(0)
    a, _ = flat.reset(seed=4)
    b, _ = tab.reset(seed=4)
    for _ in range(60):
        assert b in tab.observation_space
        assert np.array_equal(a["action_mask"], b["action_mask"])
        vec = a["observation"]
        parts = [b[name] for name in observer.tables]
        assert sum(p.size for p in parts) + b["globals"].size == vec.size
        assert np.isclose(sum(float(p.sum()) for p in parts) + b["globals"].sum(), vec.sum())
        # One known cell per table: the learner's own row comes first, its block's numbers.
        first = next(iter(observer.tables))
        rows, blocks, _ = observer.tables[first]
        o = observer.off[blocks[0]]
        assert np.array_equal(b[first][:, 0], vec[o : o + rows])
        i = int(rng.choice(np.flatnonzero(a["action_mask"])))
        a, _, term, trunc, _ = flat.step(i)
        b, _, term2, trunc2, _ = tab.step(i)
        assert (term, trunc) == (term2, trunc2)
        if term or trunc:
            break


def test_structured_rows_mean_squares_and_players() -> None:
    env = meeple.rl.gym_env("classic", seat=0, observation="structured")
    obs, _ = env.reset(seed=1)
    cols = env.table.observer.table_columns("squares")
    pos = env.game.view(0)["players"][0]["position"]
    assert obs["squares"][pos, cols.index("pos_self")] == 1
    assert obs["squares"][:, cols.index("pos_self")].sum() == 1
    assert obs["players"][0, 0] == 1 and obs["players"][0, 1] == 1  # present, alive: row 0 is me
    assert obs["players"][4:].sum() == 0  # 4 players at an 8-seat table
    with pytest.raises(ValueError, match="observation"):
        meeple.rl.gym_env("classic", observation="image")  # type: ignore[arg-type]
