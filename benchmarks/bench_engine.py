"""The rules engine alone: how fast a game runs when its players' choices cost nothing.

A simulation's time is the engine's (``apply``: the rules, settling the next decision) plus
the bots' (``choose``). This plays ``--games`` games with ``--bots`` bots exactly as
``meeple simulate`` seeds them, once untimed to record each game's actions, then times two
things in process CPU time, best of ``--repeat``:

- **play**: the same games again, bots choosing, events and history off (``bench_classic.py``'s
  work);
- **replay**: the recorded actions applied to a new game of the same seed, no bot asked: the
  engine alone, the most any player of these games could get, and the rate an agent's
  training loop sees when its agent's choices are free.

Their difference is the bots' share. The yardstick runs before and after, and the rates are
also given scaled to the reference machine (``benchmarks/machine.py``).

Run: ``.venv/bin/python benchmarks/bench_engine.py [--game classic] [--games 120]``
(``MEEPLE_PURE=1`` in front for the pure-Python build).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from machine import report, runtime, scaled, yardstick

from meeple.bots.base import bot_maker, play_out
from meeple.kernel.family import game_family, game_maker
from meeple.kernel.protocol import Action, GameState
from meeple.kernel.rng import derive_seed
from meeple.sim.runner import DEFAULT_MAX_TURNS

Recorded = tuple[int, list[Action]]
"""A game's seed and its actions."""


def record(game: str, players: int, bots: str, games: int, seed: int) -> list[Recorded]:
    """Play the games once, keeping each one's actions (seeded as ``meeple simulate`` seeds)."""
    start = new_state(game, players)
    bot = bot_maker(bots, game_family(game))
    out = []
    for i in range(games):
        s = start(derive_seed(seed, i))
        s.record_history = True
        play_out(s, [bot(derive_seed(seed, i, 1 + p)) for p in range(players)])
        out.append((derive_seed(seed, i), list(s.history)))
    return out


def new_state(game: str, players: int) -> Callable[[int], GameState]:
    """The function that starts a game of the run from its seed, events and history off."""
    make = game_maker(game, players, {"max_turns": DEFAULT_MAX_TURNS})

    def start(seed: int) -> GameState:
        s = make(seed)
        s.record_events = False
        s.record_history = False
        return s

    return start


def time_play(game: str, players: int, bots: str, games: list[Recorded], seed: int) -> float:
    """CPU seconds to play the games with the bots choosing."""
    start = new_state(game, players)
    bot = bot_maker(bots, game_family(game))
    t = time.process_time()
    for i in range(len(games)):
        play_out(
            start(derive_seed(seed, i)), [bot(derive_seed(seed, i, 1 + p)) for p in range(players)]
        )
    return time.process_time() - t


def time_replay(game: str, players: int, games: list[Recorded]) -> float:
    """CPU seconds to apply the recorded actions, no bot asked."""
    start = new_state(game, players)
    t = time.process_time()
    for seed, actions in games:
        s = start(seed)
        for a in actions:
            s.apply(a)
        if not s.is_terminal():  # (the same seed and actions must give the same game)
            raise AssertionError(f"game of seed {seed} did not end on replay")
    return time.process_time() - t


def arguments(doc: str | None, bots: str, games: int) -> argparse.ArgumentParser:
    """The options this benchmark and ``bench_bots.py`` share: the game, its players, the bots,
    the games and their seed, the runs, where to write the figures."""
    ap = argparse.ArgumentParser(description=doc)
    ap.add_argument("--game", default="classic")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--bots", default=bots)
    ap.add_argument("--games", type=int, default=games)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", dest="json_path", help="also write the figures to this file")
    return ap


def parse(ap: argparse.ArgumentParser) -> argparse.Namespace:
    """The options given, checked."""
    a = ap.parse_args()
    if a.games < 1 or a.repeat < 1:
        ap.error("--games and --repeat must be at least 1")
    return a


def main() -> None:
    a = parse(arguments(__doc__, "standard", 120))
    games = record(a.game, a.players, a.bots, a.games, a.seed)
    actions = sum(len(acts) for _, acts in games)
    speeds = [yardstick()]
    play = min(time_play(a.game, a.players, a.bots, games, a.seed) for _ in range(a.repeat))
    replay = min(time_replay(a.game, a.players, games) for _ in range(a.repeat))
    speeds.append(yardstick())

    def rate(seconds: float) -> dict[str, Any]:
        per_s = a.games / seconds
        s = scaled(per_s, speeds)
        return {
            "cpu_seconds": round(seconds, 3),
            "games_per_s": round(per_s, 1),
            "games_per_s_scaled": None if s is None else round(s, 1),
            "actions_per_s": round(actions / seconds),
        }

    out = {
        "benchmark": "engine",
        "game": a.game,
        "players": a.players,
        "bots": a.bots,
        "games": a.games,
        "mean_actions": round(actions / a.games, 1),
        **runtime(),
        "play": rate(play),
        "replay": rate(replay),
        # The bots' part of a played game's time: what the engine alone does not spend.
        "bots_share": round(1 - replay / play, 3),
    }
    report(out, speeds, a.json_path)


if __name__ == "__main__":
    main()
