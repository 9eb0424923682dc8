"""What one decision of each bot kind costs: CPU time per decision, the kind in one seat.

For each kind of ``--bots`` (``standard,learned`` by default), ``--games`` games are played
once, untimed, with the kind in one seat (seat ``i % players`` in game ``i``) and
``--opponents`` bots in the others, seeded as ``meeple simulate`` seeds them, keeping every
action. Then two loops run over the same games, in process CPU time, best of ``--repeat``:

- **asked**: each game again from its seed, the measured seat's bot made afresh and asked at
  every one of its decisions (what a simulation or a tournament does: the bot's set-up and its
  first-decision checks included), the other seats' actions taken from the record;
- **replayed**: the same loop with every action taken from the record.

The difference is the measured bot's alone, divided by its decisions. Every choice is
compared with the record (in both loops, so the comparison cancels): a bot that played
otherwise than it did untimed stops the run. The yardstick runs before and after, and the
cost is also given scaled to the reference machine (``benchmarks/machine.py``), with each
kind's cost as a multiple of the first kind's.

Run: ``.venv/bin/python benchmarks/bench_bots.py [--bots standard,learned] [--games 40]``
(``MEEPLE_PURE=1`` in front for the pure-Python build; ``learned`` needs ``meeple[rl]``).
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from typing import Any

from bench_engine import arguments, new_state, parse
from machine import report, runtime, scaled, yardstick

from meeple.bots.base import bot_maker
from meeple.kernel.bot import Bot
from meeple.kernel.family import game_family
from meeple.kernel.protocol import Action
from meeple.kernel.rng import derive_seed


@dataclass
class Game:
    """One recorded game: its seed, the measured seat, the bots' seeds, every action and how
    many of them the measured seat chose."""

    seed: int
    seat: int
    bot_seeds: list[int]
    actions: list[Action]
    decisions: int


def record(game: str, players: int, kind: str, opponents: str, games: int, seed: int) -> list[Game]:
    """Play the games once with ``kind`` in seat ``i % players``, keeping their actions."""
    start = new_state(game, players)
    fam = game_family(game)
    measured, other = bot_maker(kind, fam), bot_maker(opponents, fam)
    out = []
    for i in range(games):
        seat = i % players
        seeds = [derive_seed(seed, i, 1 + p) for p in range(players)]
        bots = [(measured if p == seat else other)(seeds[p]) for p in range(players)]
        s = start(derive_seed(seed, i))
        actions, decisions = [], 0
        while not s.is_terminal():
            p = s.current_player()
            decisions += p == seat
            a = bots[p].choose(s)
            actions.append(a)
            s.apply(a)
        out.append(Game(derive_seed(seed, i), seat, seeds, actions, decisions))
    return out


def timed(game: str, players: int, kind: str, games: list[Game], ask: bool) -> float:
    """CPU seconds of the games, the measured seat's bot asked (``ask``) or replayed."""
    start = new_state(game, players)
    make = bot_maker(kind, game_family(game))
    t = time.process_time()
    for g in games:
        s = start(g.seed)
        bot: Bot | None = make(g.bot_seeds[g.seat]) if ask else None
        for a in g.actions:
            mine = s.current_player() == g.seat  # (asked in both loops: it cancels)
            chosen = bot.choose(s) if mine and bot is not None else a
            if chosen != a:
                raise AssertionError(f"{kind} chose {chosen}, not {a}, in game of seed {g.seed}")
            s.apply(chosen)
    return time.process_time() - t


def measure(a: argparse.Namespace, kind: str) -> dict[str, Any]:
    """The figures of one bot kind: decisions, CPU seconds asked and replayed, per decision."""
    games = record(a.game, a.players, kind, a.opponents, a.games, a.seed)
    decisions = sum(g.decisions for g in games)
    asked = min(timed(a.game, a.players, kind, games, True) for _ in range(a.repeat))
    replayed = min(timed(a.game, a.players, kind, games, False) for _ in range(a.repeat))
    return {
        "decisions": decisions,
        "cpu_seconds_asked": round(asked, 3),
        "cpu_seconds_replayed": round(replayed, 3),
        "us_per_decision": (asked - replayed) / decisions * 1e6,
    }


def main() -> None:
    ap = arguments(__doc__, "standard,learned", 40)
    ap.add_argument("--opponents", default="standard", help="the bots in the other seats")
    a = parse(ap)
    kinds = [k for k in a.bots.split(",") if k]
    speeds = [yardstick()]
    runs = {kind: measure(a, kind) for kind in kinds}
    speeds.append(yardstick())
    first = runs[kinds[0]]["us_per_decision"]
    for run in runs.values():
        us = run["us_per_decision"]
        rate = scaled(1e6 / us, speeds) if us > 0 else None
        run["us_per_decision"] = round(us, 3)
        run["us_per_decision_scaled"] = None if not rate else round(1e6 / rate, 3)
        run[f"x_{kinds[0]}"] = round(us / first, 1) if first > 0 else None
    given = {name: getattr(a, name) for name in ("game", "players", "opponents", "games")}
    report({"benchmark": "bots", **given, **runtime(), **runs}, speeds, a.json_path)


if __name__ == "__main__":
    main()
