"""Fit the score the ``mcts`` bot gives a Monopoly position (``games/monopoly/search.py``).

Plays games between four ``standard`` bots, takes every seat's equity every ten turns (net
worth plus ``R`` rounds of the rent its deeds earn per opponent roll), and scores each pair
``(R, a)`` by how well ``equity ** a`` over the sum of everyone's predicts the winner: the Brier
score (the squared error summed over seats; 0.75 for four players and no information) and the
cross-entropy. The constants in ``search.py`` are the best pair of the default run::

    .venv/bin/python tools/calibrate_mcts.py --games 150 --seed 5000
"""

from __future__ import annotations

import argparse
import math

from meeple.bots.base import make_bot
from meeple.games.monopoly.search import MonopolySearch
from meeple.games.monopoly.state import MonopolyState, new_monopoly

ROUNDS = (0.0, 10.0, 20.0, 40.0, 80.0, 160.0)
SHARPNESS = (1.0, 1.5, 2.0, 3.0)


def positions(games: int, seed: int) -> list[tuple[list[list[float]], list[int]]]:
    """For each position: every seat's equity for each of :data:`ROUNDS`, and the winners."""
    out: list[tuple[list[list[float]], list[int]]] = []
    for g in range(games):
        s = new_monopoly("classic", 4, seed + g, {"max_turns": 1000})
        s.record_events = False
        bots = [make_bot("standard", "monopoly", p) for p in range(4)]
        taken: list[list[list[float]]] = []
        last = 10
        while not s.is_terminal():
            if s.turn_no >= last + 10:
                last = s.turn_no
                taken.append(equities(s))
            s.apply(bots[s.current_player()].choose(s))
        result = s.result()
        assert result is not None
        out += [(e, result.winners) for e in taken]
    return out


def equities(s: MonopolyState) -> list[list[float]]:
    view = s.view(None)
    players = view["players"]
    alive = sum(1 for p in players if p["alive"])
    income = MonopolySearch().rent_per_roll(s, view["squares"], s.n)
    return [
        [
            max(0.0, p["net_worth"] + r * (alive - 1) * income[i]) if p["alive"] else 0.0
            for i, p in enumerate(players)
        ]
        for r in ROUNDS
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--seed", type=int, default=5000)
    args = parser.parse_args()
    data = positions(args.games, args.seed)
    print(f"{len(data)} positions from {args.games} games")
    print("rounds  sharpness  brier   cross-entropy")
    for j, r in enumerate(ROUNDS):
        for a in SHARPNESS:
            brier = xent = 0.0
            for eq, winners in data:
                weights = [x**a for x in eq[j]]
                total = sum(weights)
                for p, w in enumerate(weights):
                    q = w / total if total else 1 / len(weights)
                    y = 1 / len(winners) if p in winners else 0.0
                    brier += (q - y) ** 2
                    xent -= y * math.log(max(q, 1e-9))
            print(f"{r:6g}  {a:9g}  {brier / len(data):.4f}  {xent / len(data):.4f}")


if __name__ == "__main__":
    main()
