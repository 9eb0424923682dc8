"""Steps per second of the RL environments, as a training loop drives them.

Masked-random actions (a uniform draw among the mask's ones, NumPy's own generator, seeded)
in 4-player games: the Gymnasium environment (the learner in one seat, ``--opponents`` bots in
the others, moving inside ``step``) counts learner steps; the PettingZoo AEC environment (every
seat an agent) counts agent steps. Each runs for ``--seconds`` of process CPU time, best of
``--repeat``, episodes reset as they end; the observation and the mask are built every step, as
a learner reads them. The yardstick runs before and after, and the rates are also given scaled
to the reference machine (``benchmarks/machine.py``).

Run: ``.venv/bin/python benchmarks/bench_rl.py [--game classic] [--seconds 5]``
(``MEEPLE_PURE=1`` in front for the pure-Python engine; needs ``meeple[rl]``).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
from machine import report, runtime, scaled, yardstick

import meeple.rl as rl


def gym_steps(game: str, opponents: str, seconds: float, seed: int) -> tuple[int, int, float]:
    """(learner steps, episodes ended, CPU seconds) of the Gymnasium environment."""
    env = gymnasium.make(rl.gym_id(game), opponents=opponents)
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    steps = episodes = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        action = rng.choice(np.flatnonzero(obs["action_mask"]))
        obs, _, terminated, truncated, _ = env.step(action)
        steps += 1
        if terminated or truncated:
            episodes += 1
            obs, _ = env.reset()
    return steps, episodes, time.process_time() - start


def aec_steps(game: str, seconds: float, seed: int) -> tuple[int, int, float]:
    """(agent steps, episodes ended, CPU seconds) of the PettingZoo AEC environment."""
    env = rl.env(game)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = episodes = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
        if not env.agents:
            episodes += 1
            env.reset()
    return steps, episodes, time.process_time() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--game", default="classic")
    ap.add_argument("--opponents", default="random", help="the Gymnasium learner's opponents")
    ap.add_argument("--seconds", type=float, default=5.0, help="CPU seconds a run")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", dest="json_path", help="also write the figures to this file")
    a = ap.parse_args()
    if a.seconds <= 0 or a.repeat < 1:
        ap.error("--seconds must be above 0 and --repeat at least 1")
    speeds = [yardstick()]
    runs: dict[str, Any] = {}
    measures: dict[str, Callable[[], tuple[int, int, float]]] = {
        "gym": lambda: gym_steps(a.game, a.opponents, a.seconds, a.seed),
        "aec": lambda: aec_steps(a.game, a.seconds, a.seed),
    }
    for name, measure in measures.items():
        best = max((measure() for _ in range(a.repeat)), key=lambda r: r[0] / r[2])
        runs[name] = {"steps": best[0], "episodes": best[1], "steps_per_s": best[0] / best[2]}
    speeds.append(yardstick())
    for run in runs.values():
        s = scaled(run["steps_per_s"], speeds)
        run["steps_per_s"] = round(run["steps_per_s"])
        run["steps_per_s_scaled"] = None if s is None else round(s)
    out = {
        "benchmark": "rl",
        "game": a.game,
        "players": 4,
        "gym_opponents": a.opponents,
        **runtime(),
        **runs,
    }
    report(out, speeds, a.json_path)


if __name__ == "__main__":
    main()
