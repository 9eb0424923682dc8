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
"""

from __future__ import annotations

import argparse

from meeple.lab.arena import ArenaConfig, tournament


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
    for seed in (int(s) for s in args.seeds.split(",")):
        runs = {}
        for crn in (True, False):
            cfg = ArenaConfig(args.game, players, args.tables, seed, entrants, crn=crn)
            runs[crn] = {s.name: s for s in tournament(cfg, args.workers)[2]}
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


if __name__ == "__main__":
    main()
