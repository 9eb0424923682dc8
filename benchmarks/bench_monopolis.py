"""Speed of Monopolis games: games/s, player-turns/s, actions/s, on one process or
``--workers N`` (the process pool ``meeple simulate`` uses).

Run: ``.venv/bin/python benchmarks/bench_monopolis.py [--games 400] [--bots standard]``.
Each game is played exactly as ``meeple simulate --game monopolis`` plays it, events off, with
its turn cap (``--max-turns``, by default simulate's ``DEFAULT_MAX_TURNS``; ``capped`` in the
output says how many games reached it, 0 plays without one). Best of ``--repeat`` runs, to damp
noise from other processes. One game is played first, untimed, so that loading the components
(once per process) is not counted against the games. The machine-speed yardstick
(``machine.py``) runs before and after, and the rates are also given scaled by it.
"""

from __future__ import annotations

import argparse
import time

from machine import report, runtime, scaled, yardstick

from meeple.sim.runner import DEFAULT_MAX_TURNS, SimConfig, run

GAME = "monopolis"


def bench(
    games: int, seed: int, bots: str, players: int, max_turns: int, workers: int = 1
) -> dict[str, float]:
    """Play ``games`` games; with ``workers`` > 1 through the process pool ``simulate`` uses
    (wall time then includes starting the workers, as a user would see it)."""
    cfg = SimConfig(GAME, players, games, seed, (bots,) * players, max_turns=max_turns)
    t, cpu = time.perf_counter(), time.process_time()
    turns = actions = capped = 0
    for rec in run(cfg, workers):
        turns += rec.turns
        actions += rec.actions
        capped += rec.end_reason == "turn_cap"
    dt = time.perf_counter() - t
    cpu_seconds = time.process_time() - cpu
    return {
        "seconds": round(dt, 3),
        # This process only: with workers it measures the parent, not the games.
        "cpu_seconds": round(cpu_seconds, 3),
        "games_per_s": round(games / dt, 2),
        "games_per_cpu_s": round(games / cpu_seconds, 2) if cpu_seconds else 0.0,
        "player_turns_per_s": round(turns / dt, 1),
        "actions_per_s": round(actions / dt, 1),
        "mean_turns": round(turns / games, 1),
        "mean_actions": round(actions / games, 1),
        "capped": capped,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--bots", default="standard")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument(
        "--max-turns", type=int, default=DEFAULT_MAX_TURNS, help="turn cap per game (0: none)"
    )
    ap.add_argument("--workers", type=int, default=1, help="worker processes (as simulate)")
    ap.add_argument("--json", dest="json_path")
    a = ap.parse_args()
    list(run(SimConfig(GAME, a.players, 1, a.seed + 1, (a.bots,) * a.players), 1))
    speeds = [yardstick()]
    runs = [
        bench(a.games, a.seed, a.bots, a.players, a.max_turns, a.workers) for _ in range(a.repeat)
    ]
    speeds.append(yardstick())
    best = max(runs, key=lambda r: r["games_per_s"])
    scale = {
        name: scaled(best[name], speeds)
        for name in ("games_per_s", "games_per_cpu_s", "player_turns_per_s")
    }
    out = {
        "benchmark": GAME,
        "players": a.players,
        "bots": a.bots,
        "games": a.games,
        "max_turns": a.max_turns,
        "workers": a.workers,
        **runtime(),
        **best,
        **{f"{name}_scaled": None if v is None else round(v, 2) for name, v in scale.items()},
    }
    report(out, speeds, a.json_path)


if __name__ == "__main__":
    main()
