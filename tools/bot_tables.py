"""Measure the Monopoly and Monopolis bots and write the tables of docs/BOTS.md between its
markers.

    .venv/bin/python tools/bot_tables.py                  # measure every table, rewrite BOTS.md
    .venv/bin/python tools/bot_tables.py --print          # measure, print, write nothing
    .venv/bin/python tools/bot_tables.py --games 20000 --vs-games 4000   # a bigger run
    .venv/bin/python tools/bot_tables.py --family monopolis   # only the Monopolis tables

For every Monopoly edition and player count from 2 to 6 (or the edition's most, if fewer):

1. **How standard-bot games end**: ``--games`` games between standard bots in every seat, how
   they ended (the share that reached the turn cap, with its 95% Wilson interval), and their
   length in player-turns and rounds.
2. **Standard against random**: ``--vs-games`` games of one standard bot against random bots,
   the seats rotated one place per game, and the standard bot's share of the wins with its
   95% Wilson interval (a tie's win is shared).
3. **Standard against no stalemate breaking**, in the editions with buildings (the only ones
   where the two differ): one standard bot against ``param`` bots that never break a stalemate
   (``stall_rounds`` 10^9, else the standard thresholds), seats rotated, ``--vs-games`` games.

For Monopolis, 2 to 4 players (``--family monopolis`` measures only these, ``--family
monopoly`` only the others):

4. **What standard bots build**: ``--monopolis-games`` games with every seat ``standard``, and
   as many with every seat ``standard-v1`` (the first standard bot, kept to measure against):
   how they ended, their length, and the tiles of each kind a player built on average.
5. **Standard against random**, **standard against standard-v1** (one ``standard``, the other
   seats ``standard-v1``) and **standard-v1 against random**: ``--monopolis-games`` seat-rotated
   games each.
6. **mcts against standard**: one ``--mcts`` bot (``mcts:16``) against ``standard`` bots,
   ``--mcts-games`` seat-rotated games (a search plays each game to its end many times, so
   these rows are the slow ones).

The Monopolis defaults (2,000 games a row, 400 for ``mcts:16``) take two to three minutes on
two cores.

Every run is ``meeple simulate``'s (``meeple.sim.runner``: game ``i`` of seed ``S`` is the same
game on any number of workers), with its default turn cap. The defaults (4,000 and 1,000 games,
seed 0, two workers) take a few minutes on two cores; the size used is written above the
tables.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path

from meeple.bots.base import make_bot, play_out
from meeple.games.monopoly.edition import builtin_edition, builtin_edition_ids
from meeple.kernel.family import new_game
from meeple.kernel.rng import derive_seed
from meeple.kernel.stats import wilson
from meeple.sim.runner import DEFAULT_MAX_TURNS, GameRecord, SimConfig, run

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "BOTS.md"
START = "<!-- bot tables: written by tools/bot_tables.py -->\n"
END = "<!-- end of the bot tables -->\n"
MONOPOLIS_START = "<!-- monopolis bot tables: written by tools/bot_tables.py -->\n"
MONOPOLIS_END = "<!-- end of the monopolis bot tables -->\n"
MONOPOLIS_PLAYERS = (2, 3, 4)
KINDS = ("park", "residential", "business", "workplace", "special")
KIND_HEADERS = ("parks", "residential quarters", "business quarters", "workplaces", "specials")
MOST_PLAYERS = 6  # (classic seats 8; 2 to 6 is every other edition's range)
NEVER = {"stall_rounds": 10**9}
"""The ``param`` bot of table 3: the standard bot that never sees a stalled game."""


def pct(x: float) -> str:
    return f"{100 * x:.2f}%"


def interval(successes: float, n: int) -> str:
    """``share (low-high)``: the share and its 95% Wilson interval, in percent."""
    lo, hi = wilson(successes, n)
    return f"{pct(successes / n)} ({pct(lo)}-{pct(hi)})"


def seat_counts(edition: str) -> list[int]:
    rules = builtin_edition(edition).rules
    return list(range(rules.min_players, min(MOST_PLAYERS, rules.max_players) + 1))


def play(cfg: SimConfig, workers: int) -> list[GameRecord]:
    t = time.perf_counter()
    records = list(run(cfg, workers))
    seconds = time.perf_counter() - t
    print(f"  {cfg.game} {cfg.players}p {cfg.bots[:2]}...: {seconds:.1f}s", file=sys.stderr)
    return records


def wins_of(records: Iterable[GameRecord], kind: str) -> float:
    """The games ``kind`` won, a tie's win shared among the winners."""
    won = 0.0
    for rec in records:
        if rec.winners:
            won += sum(1 for w in rec.winners if rec.bots[w] == kind) / len(rec.winners)
    return won


def ending_row(edition: str, players: int, records: list[GameRecord]) -> str:
    n = len(records)
    reasons: dict[str, int] = {}
    for rec in records:
        reasons[rec.end_reason] = reasons.get(rec.end_reason, 0) + 1
    capped = reasons.get("turn_cap", 0)
    how = ", ".join(f"{k} {v}" for k, v in sorted(reasons.items(), key=lambda kv: -kv[1]))
    turns = [rec.turns for rec in records]
    rounds = [rec.rounds for rec in records]
    return (
        f"| {edition} | {players} | {n} | {how} | {capped} | {interval(capped, n)} "
        f"| {statistics.fmean(turns):.0f} / {statistics.median(turns):.0f} / {max(turns)} "
        f"| {statistics.fmean(rounds):.0f} / {statistics.median(rounds):.0f} |"
    )


def versus_row(edition: str, players: int, records: list[GameRecord], kind: str) -> str:
    n = len(records)
    capped = sum(1 for rec in records if rec.end_reason == "turn_cap")
    return (
        f"| {edition} | {players} | {n} | {interval(wins_of(records, kind), n)} "
        f"| {pct(1 / players)} | {capped} |"
    )


def tables(
    games: int, vs_games: int, seed: int, workers: int, editions: list[str], param_file: str
) -> str:
    """The Markdown between the markers: the size used, then the three tables."""
    never = f"param:{param_file}"
    ending = [
        "| edition | players | games | how they ended | capped | capped share (95% interval) "
        "| player-turns: mean / median / longest | rounds: mean / median |",
        "|---|---|---|---|---|---|---|---|",
    ]
    random = [
        "| edition | players | games | standard wins (95% interval) | an equal player | capped |",
        "|---|---|---|---|---|---|",
    ]
    breaking = list(random)
    for edition in editions:
        for n in seat_counts(edition):
            cfg = SimConfig(edition, n, games, seed, ("standard",) * n)
            ending.append(ending_row(edition, n, play(cfg, workers)))
            mixed = ("standard",) + ("random",) * (n - 1)
            cfg = SimConfig(edition, n, vs_games, seed, mixed, rotate_seats=True)
            random.append(versus_row(edition, n, play(cfg, workers), "standard"))
            if builtin_edition(edition).rules.buildings:
                mixed = ("standard",) + (never,) * (n - 1)
                cfg = SimConfig(edition, n, vs_games, seed, mixed, rotate_seats=True)
                breaking.append(versus_row(edition, n, play(cfg, workers), "standard"))
    size = (
        f"Measured by `python tools/bot_tables.py --games {games} --vs-games {vs_games} "
        f"--seed {seed}`: {games:,} games per row in the first table, {vs_games:,} in the "
        f"others, seed {seed}, the turn cap at its default {DEFAULT_MAX_TURNS:,} player-turns."
    )
    return "\n".join(
        [
            size,
            "",
            "**How games between standard bots end** (every seat `standard`):",
            "",
            *ending,
            "",
            "**Standard against random** (`standard` in one seat, `random` in the others, "
            "the seats rotated one place per game):",
            "",
            *random,
            "",
            "**Standard against the standard bot without stalemate breaking** (`standard` in "
            "one seat, `param` with `stall_rounds` 10^9 in the others, the seats rotated; "
            "editions with buildings):",
            "",
            *breaking,
            "",
        ]
    )


def built_row(players: int, games: int, seed: int, kind: str) -> str:
    """Games with every seat ``kind``, played as ``meeple simulate`` plays game ``i`` of
    ``seed``: how they ended, their length, and the tiles of each kind a player built."""
    from meeple.games.monopolis.components import KIND_OF_VALUE
    from meeple.games.monopolis.state import MonopolisState

    t = time.perf_counter()
    reasons: dict[str, int] = {}
    turns: list[int] = []
    built = dict.fromkeys(KINDS, 0)
    for i in range(games):
        s = new_game("monopolis", players, derive_seed(seed, i), {"max_turns": DEFAULT_MAX_TURNS})
        s.record_events = False
        bots = [make_bot(kind, "monopolis", derive_seed(seed, i, 1 + j)) for j in range(players)]
        play_out(s, bots)
        assert isinstance(s, MonopolisState)
        r = s.result()
        assert r is not None
        reasons[r.end_reason] = reasons.get(r.end_reason, 0) + 1
        turns.append(r.turns)
        for plot, owner in enumerate(s.owner_at):
            if owner >= 0 and s.value_at[plot] > 0:
                built[KIND_OF_VALUE[s.value_at[plot]]] += 1
    seconds = time.perf_counter() - t
    print(f"  monopolis {players}p all {kind}: {seconds:.1f}s", file=sys.stderr)
    how = ", ".join(f"{k} {v}" for k, v in sorted(reasons.items(), key=lambda kv: -kv[1]))
    seats = games * players
    per = " | ".join(f"{built[k] / seats:.2f}" for k in KINDS)
    return (
        f"| {kind} | {players} | {games} | {how} | {statistics.fmean(turns):.1f} "
        f"/ {statistics.median(turns):.0f} | {per} |"
    )


def monopolis_tables(games: int, mcts_games: int, mcts: str, seed: int, workers: int) -> str:
    """The Markdown between the Monopolis markers: the size used, then its tables."""
    built = [
        "| bot | players | games | how they ended | player-turns: mean / median | "
        + " | ".join(KIND_HEADERS)
        + " |",
        "|---|---|---|---|---|" + "---|" * len(KINDS),
    ]
    versus = [
        "| bot | against | players | games | its wins (95% interval) | an equal player | capped |",
        "|---|---|---|---|---|---|---|",
    ]
    pairs = [("standard", "random"), ("standard-v1", "random"), ("standard", "standard-v1")]
    rows: dict[tuple[str, str], list[str]] = {pair: [] for pair in pairs}
    rows[(mcts, "standard")] = []
    for n in MONOPOLIS_PLAYERS:
        for kind in ("standard", "standard-v1"):
            built.append(built_row(n, games, seed, kind))
        for (bot, other), out in rows.items():
            count = mcts_games if bot == mcts else games
            cfg = SimConfig(
                "monopolis", n, count, seed, (bot,) + (other,) * (n - 1), rotate_seats=True
            )
            records = play(cfg, workers)
            out.append(
                f"| `{bot}` | `{other}` | {n} | {count} | {interval(wins_of(records, bot), count)} "
                f"| {pct(1 / n)} | {sum(1 for r in records if r.end_reason == 'turn_cap')} |"
            )
    for out in rows.values():
        versus += out
    size = (
        f"Measured by `python tools/bot_tables.py --family monopolis --monopolis-games {games} "
        f"--mcts-games {mcts_games} --mcts {mcts} --seed {seed}`: {games:,} games per row but "
        f"the `{mcts}` rows, {mcts_games:,} there, seed {seed}."
    )
    return "\n".join(
        [
            size,
            "",
            "**What Monopolis standard bots build** (every seat the one bot; tiles built per "
            "player, on average):",
            "",
            *built,
            "",
            "**Who wins** (the bot in one seat, the other kind in the others, the seats rotated "
            "one place per game; a tie's win shared):",
            "",
            *versus,
            "",
        ]
    )


def updated(text: str, body: str, start: str = START, end: str = END) -> str:
    """``text`` (the document) with ``body`` between the markers ``start`` and ``end``."""
    head, _, rest = text.partition(start)
    _, _, tail = rest.partition(end)
    return head + start + body + end + tail


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--games", type=int, default=4000, help="standard-only games per row")
    ap.add_argument("--vs-games", type=int, default=1000, help="games per row of the others")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--print", action="store_true", help="print the tables, write nothing")
    ap.add_argument("--editions", help="only these (comma-separated; with --print only)")
    ap.add_argument(
        "--family", choices=("both", "monopoly", "monopolis"), default="both", help="which tables"
    )
    ap.add_argument("--monopolis-games", type=int, default=2000, help="games per Monopolis row")
    ap.add_argument("--mcts-games", type=int, default=400, help="games per mcts row")
    ap.add_argument("--mcts", default="mcts:16", help="the search bot measured (a budget)")
    args = ap.parse_args(argv)
    if args.editions and not args.print:
        ap.error("--editions only with --print: BOTS.md lists every edition")
    text = DOC.read_text(encoding="utf-8")
    markers = (START, END, MONOPOLIS_START, MONOPOLIS_END)
    if not args.print and any(m not in text for m in markers):
        print(f"{DOC}: the bot table markers are missing", file=sys.stderr)
        return 1
    if args.family != "monopolis":
        with tempfile.TemporaryDirectory() as tmp:
            param_file = Path(tmp) / "never.json"
            param_file.write_text(json.dumps(NEVER), encoding="utf-8")
            editions = args.editions.split(",") if args.editions else builtin_edition_ids()
            body = tables(
                args.games, args.vs_games, args.seed, args.workers, editions, str(param_file)
            )
        if args.print:
            print(body)
        else:
            text = updated(text, body)
    if args.family != "monopoly":
        body = monopolis_tables(
            args.monopolis_games, args.mcts_games, args.mcts, args.seed, args.workers
        )
        if args.print:
            print(body)
        else:
            text = updated(text, body, MONOPOLIS_START, MONOPOLIS_END)
    if not args.print:
        DOC.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
