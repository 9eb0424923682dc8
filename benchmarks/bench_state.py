"""What one live game costs a process that holds many (the server) or copies one millions of
times (search): the bytes of a game's state, and the time of a clone and of a copy into a used
state (``GameState.copy_into``, the server's way), for classic Monopoly and Monopolis.

Run: ``.venv/bin/python benchmarks/bench_state.py [--games 200] [--depth 300] [--json -]``
(``MEEPLE_PURE=1`` in front for the pure-Python build).

A game is played by standard bots to ``--depth`` actions (or its end); then ``--games`` copies of
it are made the way a server makes them, by replaying its actions from their text on a new
game (each copy has its own lists and actions), with ``tracemalloc`` tracing: the bytes per game
are the traced memory they hold, divided by their number (the edition's tables, shared by every
game of the process, are loaded before and not counted). The times are the best of five runs
of 20,000 calls, in process CPU time, with the machine-speed yardstick run before and after
(``benchmarks/machine.py``) and the times scaled to the reference machine.
"""

from __future__ import annotations

import argparse
import json
import platform
import time
import tracemalloc
from typing import Any

from machine import REFERENCE, scaled, yardstick

from meeple.bots.base import make_bot
from meeple.buildinfo import build_name
from meeple.kernel.family import game_family, new_game
from meeple.kernel.protocol import Action, GameState
from meeple.kernel.rng import derive_seed

GAMES = {"classic": 4, "monopolis": 4}
"""The games measured, with their number of players."""
CALLS = 20_000


def played(game: str, players: int, depth: int, seed: int = 1) -> GameState:
    """A game played by standard bots to ``depth`` actions (or its end)."""
    s = new_game(game, players, seed)
    s.record_events = False
    family = game_family(game)
    bots = [make_bot("standard", family, derive_seed(seed, 1 + p)) for p in range(players)]
    while len(s.history) < depth and not s.is_terminal():
        s.apply(bots[s.current_player()].choose(s))
    return s


def replayed(state: GameState) -> GameState:
    """The same game made again from its actions' text, as a server loads a stored game."""
    s = new_game(state.game_id, state.num_players, state.seed, state.options)
    s.record_events = False
    for a in state.history:
        s.apply(Action.parse(str(a)))
    return s


def bytes_per_game(state: GameState, games: int) -> int:
    replayed(state)  # anything loaded once per process (the edition) is loaded before tracing
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    held = [replayed(state) for _ in range(games)]
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert len(held) == games
    return round((after - before) / games)


def best_microseconds(call: Any) -> float:
    best = float("inf")
    for _ in range(5):
        t = time.process_time()
        for _ in range(CALLS):
            call()
        best = min(best, (time.process_time() - t) / CALLS)
    return best * 1e6


def measure(game: str, players: int, depth: int, games: int) -> dict[str, Any]:
    state = played(game, players, depth)
    spare = state.clone()
    return {
        "game": game,
        "players": players,
        "actions": len(state.history),
        "bytes_per_game": bytes_per_game(state, games),
        "clone_us": round(best_microseconds(state.clone), 2),
        "copy_into_us": round(best_microseconds(lambda: state.copy_into(spare)), 2),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=200, help="copies held for the memory figure")
    ap.add_argument("--depth", type=int, default=300, help="actions played before measuring")
    ap.add_argument("--json", dest="json_path", help="write the figures as JSON (- for stdout)")
    a = ap.parse_args()
    if a.games < 1 or a.depth < 0:
        ap.error("--games must be at least 1 and --depth at least 0")
    speeds = [yardstick()]
    rows = [measure(g, n, a.depth, a.games) for g, n in GAMES.items()]
    speeds.append(yardstick())
    for row in rows:  # a time scales inversely with the machine's speed
        for key in ("clone_us", "copy_into_us"):
            rate = scaled(1 / row[key], speeds)
            row[f"{key}_scaled"] = None if rate is None else round(1 / rate, 2)
    out = {
        "benchmark": "state",
        "build": build_name(),
        "python": platform.python_version(),
        "depth": a.depth,
        "games": a.games,
        "yardstick_rolls_per_s": speeds,
        "reference_rolls_per_s": REFERENCE,
        "rows": rows,
    }
    if a.json_path == "-":
        print(json.dumps(out, indent=1))
        return
    print(f"build {out['build']}, yardstick {speeds} (reference {REFERENCE:,})")
    print(f"{'game':<10}{'actions':>8}{'bytes/game':>12}{'clone µs':>10}{'copy µs':>9}")
    for r in rows:
        print(
            f"{r['game']:<10}{r['actions']:>8}{r['bytes_per_game']:>12,}"
            f"{r['clone_us']:>10}{r['copy_into_us']:>9}"
        )
    if a.json_path:
        with open(a.json_path, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
