"""How much common random numbers shrink the arena's intervals (docs/BOTS.md, "Arena").

    .venv/bin/python tools/arena_crn.py classic standard,bold=param:examples/arena/bold.json \
        --tables 1000 --seeds 1,2,3 --workers 2

Plays the same tournament (``meeple tournament``: every seating of each table) twice per seed:
with common random numbers (every seating of a table replays the table's dice and decks) and
with independent seeds (every game its own), the same number of games each, and prints a
Markdown table: per entrant its win rate and the width of the 95% interval of the win rate
over tables, both ways, their ratio, and how many times more games the independent run would
need for the same width (the ratio squared). The Wilson interval, which takes every game as
independent, is printed too: it does not see the pairing, so it is the same width both ways.
Then the same for the difference between the first entrant's win rate and each other's, per
table: the comparison a tournament is run for.
"""

from __future__ import annotations

import argparse
import math
import statistics
from collections.abc import Sequence

from meeple.lab.arena import Z95, ArenaConfig, ArenaGame, table_shares, tournament


def difference_width(games: Sequence[ArenaGame], entrants: int, a: int, b: int) -> float:
    """The width of the 95% interval, over tables, of entrant ``a``'s win rate less ``b``'s
    (tables where both sat), in percentage points."""
    diffs = []
    for row in table_shares(games, entrants).values():
        sa, sb = row[a], row[b]
        if sa is not None and sb is not None:
            diffs.append(sa - sb)
    return 100 * 2 * Z95 * statistics.stdev(diffs) / math.sqrt(len(diffs))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("game")
    ap.add_argument("bots", help="the entrants, as meeple tournament --bots takes them")
    ap.add_argument("--players", type=int, default=0, help="default: one per entrant")
    ap.add_argument("--tables", type=int, default=1000)
    ap.add_argument("--seeds", default="1", help="comma-separated")
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args()
    entrants = tuple(b.strip() for b in args.bots.split(",") if b.strip())
    players = args.players or len(entrants)
    print(
        f"{args.game}, {players} players, {args.tables} tables a run; width: of the 95% "
        "interval, in percentage points\n"
    )
    print(
        "| seed | entrant | games | win % (CRN) | width by table, CRN | width by table, "
        "independent | ratio | games for the same width | Wilson width |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    differences = []
    for seed in (int(s) for s in args.seeds.split(",")):
        runs = {}
        played = {}
        for crn in (True, False):
            cfg = ArenaConfig(args.game, players, args.tables, seed, entrants, crn=crn)
            _, played[crn], board = tournament(cfg, args.workers)
            runs[crn] = {s.name: s for s in board}
        names = cfg.names
        for b in range(1, len(names)):
            w_crn = difference_width(played[True], len(names), 0, b)
            w_ind = difference_width(played[False], len(names), 0, b)
            ratio = w_ind / w_crn if w_crn else float("inf")
            differences.append(
                f"| {seed} | {names[0]} - {names[b]} | {w_crn:.2f} | {w_ind:.2f} | {ratio:.2f} "
                f"| {ratio * ratio:.1f}x |"
            )
        for name, a in runs[True].items():
            b = runs[False][name]
            w_crn = 100 * (a.table_high - a.table_low)
            w_ind = 100 * (b.table_high - b.table_low)
            ratio = w_ind / w_crn if w_crn else float("inf")
            print(
                f"| {seed} | {name} | {a.seats} | {100 * a.win_rate:.1f} | {w_crn:.2f} | "
                f"{w_ind:.2f} | {ratio:.2f} | {ratio * ratio:.1f}x | "
                f"{100 * (a.win_high - a.win_low):.2f} |"
            )
    print(
        "\nThe difference of two entrants' win rates, per table, with its 95% interval over "
        "tables:\n\n| seed | difference | width, CRN | width, independent | ratio | games for "
        "the same width |\n|---|---|---|---|---|---|"
    )
    print("\n".join(differences))


if __name__ == "__main__":
    main()
