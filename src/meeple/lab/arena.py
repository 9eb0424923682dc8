"""The arena: bots, ``param:FILE`` settings and external programs rated against each other
(``meeple tournament``; docs/ARENA.md).

A tournament is ``tables`` tables. Each table seats ``players`` of the entrants and plays every
seating of them (every permutation of the seats, or every rotation: :data:`SEATINGS`), and
every seating of a table replays the **same game seed**: the same deck orders and the same
stream of dice (common random numbers). A game's chance lives in its own stream, which no bot
reads (docs/ARENA.md, "Common random numbers"), so the seatings differ only in who sits where,
and the luck of the dice that favours one seat is shared out between the entrants alike.

Everything is a pure function of the configuration: table ``t`` plays game seed
``derive_seed(S, t)`` and seats bot ``j`` with ``derive_seed(S, t, 1 + j)``; which entrants sit
at which table is drawn from ``S`` before any game (:func:`plan`). Games run on worker
processes or Ray tasks and come back in plan order, so the number of workers changes the speed
and nothing else.

The entrants are rated with Plackett-Luce (``openskill``, which needs ``meeple[lab]``) over
the games in plan order, and also given plain win rates (Wilson 95% intervals), a table-level
interval of the win rate (the honest one when the games of a table are correlated) and their
average place.
"""

from __future__ import annotations

import csv
import io
import itertools
import math
import re
import statistics
import time
from collections.abc import Generator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from meeple.bots.base import play_out
from meeple.bots.external import DEFAULT_TIME_LIMIT, ExternalBot, make_arena_bot
from meeple.buildinfo import build_name
from meeple.kernel.family import family_of, new_game
from meeple.kernel.rng import Rng, derive_seed
from meeple.kernel.stats import wilson
from meeple.sim.pool import ordered_map
from meeple.sim.runner import DEFAULT_MAX_TURNS

SEATINGS = ("auto", "all", "rotations")
"""``all``: every permutation of a table's seats (``players!`` games, fewer when an entrant sits
twice); ``rotations``: the ``players`` cyclic rotations (each entrant in each seat once);
``auto``: all up to 4 players (24 games a table), rotations above."""

ALL_UP_TO = 4
"""``auto`` seatings play every permutation up to this many players."""

Z95 = 1.959963984540054

RATING_ORDERS = 20
"""The ratings are the mean of this many passes over the games, each in its own order."""


@dataclass(frozen=True)
class ArenaConfig:
    """A tournament: ``entrants`` (bot kinds, repeats allowed) at ``tables`` tables of
    ``players`` seats, everything drawn from ``seed``."""

    game: str
    players: int
    tables: int
    seed: int
    entrants: tuple[str, ...]
    """Each entrant: a bot kind, or ``NAME=KIND`` to name it (:func:`split_entrant`)."""
    max_turns: int = DEFAULT_MAX_TURNS
    seatings: str = "auto"
    crn: bool = True
    """Common random numbers: every seating of a table replays the table's game seed. Off,
    each seating draws its own (the comparison the interval widths in docs/BOTS.md make)."""
    time_limit: float = DEFAULT_TIME_LIMIT
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def kinds(self) -> list[str]:
        """Each entrant's bot kind."""
        return [split_entrant(e)[1] for e in self.entrants]

    @property
    def names(self) -> list[str]:
        """Each entrant's name: the one given, else its kind; ``#2``, ``#3`` ... on a name
        entered again."""
        seen: dict[str, int] = {}
        out = []
        for entrant in self.entrants:
            name = split_entrant(entrant)[0]
            seen[name] = seen.get(name, 0) + 1
            out.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
        return out

    def seating_mode(self) -> str:
        if self.seatings != "auto":
            return self.seatings
        return "all" if self.players <= ALL_UP_TO else "rotations"


_NAME = re.compile(r"[A-Za-z0-9_.#-]+")


def split_entrant(entrant: str) -> tuple[str, str]:
    """``(name, kind)`` of an entrant: ``bold=param:bold.json`` is named ``bold``; an entrant
    without a name (``standard``, ``cmd:python3 bot.py --x=1``: no name before an ``=``
    holds ``:`` or a space) is named by its kind."""
    name, eq, kind = entrant.partition("=")
    if eq and _NAME.fullmatch(name) and kind:
        return name, kind
    return entrant, entrant


@dataclass(frozen=True)
class Seating:
    """One game of the plan: table ``table``'s seating ``index``, the entrant in each seat."""

    table: int
    index: int
    seats: tuple[int, ...]
    """The entrant (its index in ``ArenaConfig.entrants``) in each seat."""
    game_seed: int
    bot_seeds: tuple[int, ...]


@dataclass
class ArenaGame:
    """What one game of the tournament gave."""

    table: int
    seating: int
    seed: int
    seats: list[int]
    places: list[int]
    """Each seat's place, 1 the best; the game's winners share place 1 (docs/ARENA.md)."""
    winners: list[int]
    scores: list[float]
    end_reason: str
    turns: int
    actions: int
    notes: list[str] = field(default_factory=list)
    """A forfeit of an external program: which seat, which entrant and why."""
    forfeited: list[int] = field(default_factory=list)
    """The seats whose external program forfeited."""


# -- the plan ----------------------------------------------------------------------------------


def table_entrants(cfg: ArenaConfig) -> list[tuple[int, ...]]:
    """Which entrants sit at each table, drawn from ``cfg.seed`` and balanced.

    More entrants than seats: each table takes the ``players`` entrants that have sat at the
    fewest tables so far, ties broken by a seeded shuffle, so the counts never differ by more
    than one. Fewer: every entrant sits at every table, and the spare seats go to the entrants
    that have had the fewest spare seats so far (the same tie-break); an entrant may then hold
    two seats of one game.
    """
    e, p = len(cfg.entrants), cfg.players
    sat = [0] * e
    out = []
    for t in range(cfg.tables):
        order = list(range(e))
        Rng(derive_seed(cfg.seed, t, 0xD8A3)).shuffle(order)  # the tie-break of this table
        if e >= p:
            chosen = sorted(order, key=lambda i: sat[i])[:p]
        else:
            spare = sorted(order, key=lambda i: sat[i])[: p - e]
            chosen = list(range(e)) + spare
        for i in chosen:
            sat[i] += 1
        out.append(tuple(sorted(chosen)))
    return out


def seatings_of(entrants: tuple[int, ...], mode: str) -> list[tuple[int, ...]]:
    """The seatings of a table: its distinct permutations (``all``) or its rotations."""
    if mode == "rotations":
        n = len(entrants)
        return list(dict.fromkeys(entrants[k:] + entrants[:k] for k in range(n)))
    return list(dict.fromkeys(itertools.permutations(entrants)))


def plan(cfg: ArenaConfig) -> list[Seating]:
    """Every game of the tournament, table by table, in the order results are reported."""
    mode = cfg.seating_mode()
    games = []
    for t, chosen in enumerate(table_entrants(cfg)):
        table_seed = derive_seed(cfg.seed, t)
        bot_seeds = tuple(derive_seed(cfg.seed, t, 1 + j) for j in range(cfg.players))
        for k, seats in enumerate(seatings_of(chosen, mode)):
            seed = table_seed if cfg.crn else derive_seed(cfg.seed, t, 0, k)
            games.append(Seating(t, k, seats, seed, bot_seeds))
    return games


# -- playing -----------------------------------------------------------------------------------


def places_of(winners: Sequence[int], ranking: Sequence[int], players: int) -> list[int]:
    """Each seat's place from a result: the winners share 1, the rest follow the ranking."""
    places = [0] * players
    for i, seat in enumerate(ranking):
        places[seat] = 1 if seat in winners else i + 1
    for seat in range(players):
        if places[seat] == 0:  # a ranking that leaves a seat out puts it last
            places[seat] = players
    return places


def play_seating(cfg: ArenaConfig, g: Seating) -> ArenaGame:
    """Play one game of the plan."""
    options = dict(cfg.options)
    if cfg.max_turns:
        options["max_turns"] = cfg.max_turns
    s = new_game(cfg.game, cfg.players, g.game_seed, options)
    s.record_events = False
    s.record_history = False  # (no arena game is saved or replayed: GameState.record_history)
    fam = family_of(cfg.game, cfg.options).name
    every = cfg.kinds
    kinds = [every[i] for i in g.seats]
    bots = [
        make_arena_bot(k, fam, seed, cfg.time_limit)
        for k, seed in zip(kinds, g.bot_seeds, strict=True)
    ]
    notes = []
    forfeited = []
    try:
        n = play_out(s, bots)
    finally:
        for bot in bots:
            if isinstance(bot, ExternalBot):
                bot.close(s)
    names = cfg.names
    for seat, bot in enumerate(bots):
        if isinstance(bot, ExternalBot) and bot.forfeit:
            forfeited.append(seat)
            notes.append(
                f"table {g.table + 1}, seating {g.index + 1}, seat {seat + 1} "
                f"({names[g.seats[seat]]}): {bot.forfeit}; the standard bot played on"
            )
    r = s.result()
    assert r is not None
    return ArenaGame(
        g.table,
        g.index,
        g.game_seed,
        list(g.seats),
        places_of(r.winners, r.ranking, cfg.players),
        list(r.winners),
        list(r.scores),
        r.end_reason,
        r.turns,
        n,
        notes,
        forfeited,
    )


def _play_chunk(args: tuple[ArenaConfig, list[Seating]]) -> list[ArenaGame]:
    cfg, games = args
    return [play_seating(cfg, g) for g in games]


def run_arena(
    cfg: ArenaConfig, workers: int = 1, backend: str = "processes", address: str | None = None
) -> Generator[ArenaGame, None, None]:
    """Every game's result, in plan order, whatever the workers or the backend."""
    games = plan(cfg)
    if backend == "ray":
        from meeple.sim.ray_backend import run_ray_calls

        size = max(1, min(24, len(games) // 16 or 1))
        chunks = [(cfg, games[lo : lo + size]) for lo in range(0, len(games), size)]
        yield from run_ray_calls(_play_chunk, chunks, address)
        return
    if workers <= 1 or len(games) < 2:
        for g in games:
            yield play_seating(cfg, g)
        return
    # Small chunks: one mcts game can take as long as hundreds of standard ones.
    size = max(1, min(24, len(games) // (workers * 8) or 1))
    parts = ((cfg, games[lo : lo + size]) for lo in range(0, len(games), size))
    for records in ordered_map(_play_chunk, parts, workers):  # no orphans (sim/pool.py)
        yield from records


# -- rating ------------------------------------------------------------------------------------


@dataclass
class Standing:
    """One entrant's line of the leaderboard."""

    name: str
    kind: str
    mu: float
    sigma: float
    games: int
    seats: int
    wins: float
    """Won seats, a shared first place counting its share."""
    win_rate: float
    win_low: float
    win_high: float
    table_low: float
    table_high: float
    """The win rate's 95% interval over tables (the table is the unit: its seatings share
    their dice, so they are not independent games)."""
    mean_place: float
    forfeits: int

    @property
    def low(self) -> float:
        return self.mu - 2 * self.sigma

    @property
    def high(self) -> float:
        return self.mu + 2 * self.sigma


def entrant_ranks(game: ArenaGame, entrants: int) -> tuple[list[int], list[int]]:
    """The entrants at a game and the place of each (its best seat's place)."""
    best: dict[int, int] = {}
    for seat, e in enumerate(game.seats):
        best[e] = min(best.get(e, game.places[seat]), game.places[seat])
    who = sorted(best)
    return who, [best[e] for e in who]


def rate(cfg: ArenaConfig, games: Sequence[ArenaGame]) -> list[Standing]:
    """The leaderboard, best first (by ``mu - 2 sigma``, then ``mu``)."""
    from openskill.models import PlackettLuce

    # tau 0: a bot's skill does not drift over a tournament (openskill's default adds a little
    # uncertainty every game, for people who learn and forget).
    model = PlackettLuce(tau=0.0)
    names = cfg.names
    e = len(names)
    # The model learns game by game and weighs the first games most, so one pass in one order
    # can rank two entrants against their results (it did: a field of 120 games in plan order,
    # table by table, put a bot that won 40% above one that won 60%). Averaging the passes over
    # many orders, shuffled from the seed, takes the order out.
    ranked: list[tuple[list[int], list[float]]] = []
    for g in games:
        who, ranks = entrant_ranks(g, e)
        if len(who) > 1:  # a game one entrant played alone tells nothing: left out
            ranked.append((who, [float(r) for r in ranks]))
    mu_sum = [0.0] * e
    sigma_sum = [0.0] * e
    shuffle = Rng(derive_seed(cfg.seed, 0x0D3E5))
    for _ in range(RATING_ORDERS):
        order = list(range(len(ranked)))
        shuffle.shuffle(order)
        ratings = [model.rating(name=n) for n in names]
        for k in order:
            seated, places = ranked[k]
            new = model.rate([[ratings[i]] for i in seated], ranks=places)
            for i, team in zip(seated, new, strict=True):
                ratings[i] = team[0]
        for i, r in enumerate(ratings):
            mu_sum[i] += r.mu
            sigma_sum[i] += r.sigma
    mus = [m / RATING_ORDERS for m in mu_sum]
    sigmas = [x / RATING_ORDERS for x in sigma_sum]
    seats = [0] * e
    played = [0] * e
    wins = [0.0] * e
    place_sum = [0] * e
    forfeits = [0] * e
    per_table: dict[tuple[int, int], list[float]] = {}  # (entrant, table): [wins, seats]
    for g in games:
        share = 1.0 / len(g.winners) if g.winners else 0.0
        for i in set(g.seats):
            played[i] += 1
        for seat, i in enumerate(g.seats):
            seats[i] += 1
            place_sum[i] += g.places[seat]
            won = share if seat in g.winners else 0.0
            wins[i] += won
            cell = per_table.setdefault((i, g.table), [0.0, 0.0])
            cell[0] += won
            cell[1] += 1
        for seat in g.forfeited:
            forfeits[g.seats[seat]] += 1
    out = []
    for i, n in enumerate(names):
        lo, hi = wilson(wins[i], seats[i])
        shares = [w / s for (j, _), (w, s) in sorted(per_table.items()) if j == i and s]
        tlo, thi = mean_interval(shares)
        out.append(
            Standing(
                n,
                cfg.kinds[i],
                mus[i],
                sigmas[i],
                played[i],
                seats[i],
                wins[i],
                wins[i] / seats[i] if seats[i] else 0.0,
                lo,
                hi,
                tlo,
                thi,
                place_sum[i] / seats[i] if seats[i] else 0.0,
                forfeits[i],
            )
        )
    out.sort(key=lambda s: (-s.low, -s.mu, s.name))
    return out


@dataclass
class Pair:
    """Entrant ``a``'s win rate less ``b``'s, over the tables where both sat: the comparison
    common random numbers sharpen (the two shared every table's dice)."""

    a: str
    b: str
    tables: int
    difference: float
    low: float
    high: float


def table_shares(games: Sequence[ArenaGame], entrants: int) -> dict[int, list[float | None]]:
    """Per table, each entrant's share of the wins of the seats it played there (None where
    it did not sit)."""
    won: dict[int, list[float]] = {}
    seats: dict[int, list[int]] = {}
    for g in games:
        w = won.setdefault(g.table, [0.0] * entrants)
        n = seats.setdefault(g.table, [0] * entrants)
        share = 1.0 / len(g.winners) if g.winners else 0.0
        for seat, e in enumerate(g.seats):
            n[e] += 1
            if seat in g.winners:
                w[e] += share
    return {t: [w / n if n else None for w, n in zip(won[t], seats[t], strict=True)] for t in won}


def pairs(cfg: ArenaConfig, games: Sequence[ArenaGame], board: Sequence[Standing]) -> list[Pair]:
    """Every two entrants, the better placed first on the leaderboard, with the difference of
    their win rates and its 95% interval over the tables both sat at (a normal interval of the
    mean of the per-table differences; none with fewer than two such tables)."""
    names = cfg.names
    index = {n: i for i, n in enumerate(names)}
    shares = table_shares(games, len(names))
    out = []
    for x, first in enumerate(board):
        for second in board[x + 1 :]:
            a, b = index[first.name], index[second.name]
            diffs = []
            for row in shares.values():
                sa, sb = row[a], row[b]
                if sa is not None and sb is not None:
                    diffs.append(sa - sb)
            if not diffs:
                continue
            mean = statistics.fmean(diffs)
            half = (
                Z95 * statistics.stdev(diffs) / math.sqrt(len(diffs))
                if len(diffs) > 1
                else math.inf
            )
            out.append(Pair(first.name, second.name, len(diffs), mean, mean - half, mean + half))
    return out


def mean_interval(values: Sequence[float]) -> tuple[float, float]:
    """A 95% interval of the mean of ``values`` (normal, from their spread), clipped to
    [0, 1]; the one value's own when there is only one."""
    if not values:
        return (0.0, 0.0)
    m = statistics.fmean(values)
    if len(values) < 2:
        return (m, m)
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values))
    return (max(0.0, m - half), min(1.0, m + half))


# -- output ------------------------------------------------------------------------------------


def summarise(
    cfg: ArenaConfig, games: Sequence[ArenaGame], board: Sequence[Standing], seconds: float
) -> dict[str, Any]:
    """The JSON summary: everything but ``timing`` is a pure function of the configuration."""
    reasons: dict[str, int] = {}
    for g in games:
        reasons[g.end_reason] = reasons.get(g.end_reason, 0) + 1
    return {
        "edition": cfg.game,
        "players": cfg.players,
        "tables": cfg.tables,
        "seed": cfg.seed,
        "entrants": list(cfg.names),
        "seatings": cfg.seating_mode(),
        "crn": cfg.crn,
        "max_turns": cfg.max_turns,
        "rules": dict(cfg.options.get("rules") or {}),
        "games": len(games),
        "rating": {
            "model": "Plackett-Luce (openskill, tau 0)",
            "interval": "mu +- 2 sigma",
            # the mean of passes over the games in this many orders, shuffled from the seed
            "orders": RATING_ORDERS,
        },
        "leaderboard": [
            {
                **{k: _round(v) for k, v in asdict(s).items()},
                "low": _round(s.low),
                "high": _round(s.high),
            }
            for s in board
        ],
        # every two entrants: the first's win rate less the second's, over shared tables
        "pairs": [_pair_json(p) for p in pairs(cfg, games, board)],
        "end_reasons": dict(sorted(reasons.items())),
        "notes": [n for g in games for n in g.notes],
        "timing": {
            "seconds": round(seconds, 4),
            "games_per_s": round(len(games) / seconds, 2) if seconds else 0.0,
            "build": build_name(),
        },
    }


def _pair_json(p: Pair) -> dict[str, Any]:
    """A pair as JSON: an interval from a single table is ``null`` at both ends."""
    bound = math.isfinite(p.low)
    return {
        "a": p.a,
        "b": p.b,
        "tables": p.tables,
        "difference": _round(p.difference),
        "low": _round(p.low) if bound else None,
        "high": _round(p.high) if bound else None,
    }


def _round(v: Any) -> Any:
    return round(v, 6) if isinstance(v, float) else v


LEADERBOARD_FIELDS = (
    *("rank", "name", "kind", "mu", "sigma", "low", "high", "games", "seats", "wins"),
    *("win_rate", "win_low", "win_high", "table_low", "table_high", "mean_place", "forfeits"),
)


def leaderboard_csv(board: Sequence[Standing]) -> str:
    """The leaderboard as CSV, one row per entrant, best first."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(LEADERBOARD_FIELDS)
    for rank, s in enumerate(board, 1):
        row = {**asdict(s), "rank": rank, "low": s.low, "high": s.high}
        w.writerow([_round(row[f]) for f in LEADERBOARD_FIELDS])
    return buf.getvalue()


def games_csv(cfg: ArenaConfig, games: Sequence[ArenaGame]) -> str:
    """Every game as CSV: table, seating, seed, and per seat its entrant, place and score."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    seats = range(cfg.players)
    w.writerow(
        ["table", "seating", "seed", "end_reason", "turns", "actions"]
        + [f"{c}{j + 1}" for j in seats for c in ("entrant", "place", "score")]
    )
    names = cfg.names
    for g in games:
        row: list[Any] = [g.table + 1, g.seating + 1, g.seed, g.end_reason, g.turns, g.actions]
        for j in seats:
            score = g.scores[j] if j < len(g.scores) else ""
            row += [names[g.seats[j]], g.places[j], score]
        w.writerow(row)
    return buf.getvalue()


def plot_png(cfg: ArenaConfig, board: Sequence[Standing]) -> bytes:
    """The leaderboard as a picture: ratings with mu +- 2 sigma, win rates with their Wilson
    intervals (needs matplotlib: ``meeple[lab]``)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [s.name for s in board][::-1]  # best at the top
    rows = list(range(len(names)))
    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 0.5 * len(names) + 1.6), sharey=True)
    mus = [s.mu for s in board][::-1]
    a.errorbar(mus, rows, xerr=[2 * s.sigma for s in board][::-1], fmt="o", capsize=4)
    a.set_yticks(rows, names)
    a.set_xlabel("rating (Plackett-Luce mu, bars: 2 sigma)")
    rates = [s.win_rate for s in board][::-1]
    # (clipped: Wilson's bound of a share of 0 or 1 can miss it by a rounding error)
    lows = [max(0.0, s.win_rate - s.win_low) for s in board][::-1]
    highs = [max(0.0, s.win_high - s.win_rate) for s in board][::-1]
    b.errorbar(rates, rows, xerr=[lows, highs], fmt="o", capsize=4, color="tab:green")
    b.axvline(1 / cfg.players, color="grey", linestyle=":", linewidth=1)
    b.set_xlabel("win rate (bars: 95% Wilson interval)")
    fig.suptitle(
        f"{cfg.game}, {cfg.players} players: {cfg.tables} tables, seed {cfg.seed}", fontsize=11
    )
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110)
    plt.close(fig)
    return buf.getvalue()


def write_outputs(
    out: Path, cfg: ArenaConfig, games: Sequence[ArenaGame], board: Sequence[Standing]
) -> list[Path]:
    """leaderboard.csv, games.csv and leaderboard.png into ``out``; the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    written = [out / "leaderboard.csv", out / "games.csv", out / "leaderboard.png"]
    written[0].write_text(leaderboard_csv(board), encoding="utf-8")
    written[1].write_text(games_csv(cfg, games), encoding="utf-8")
    written[2].write_bytes(plot_png(cfg, board))
    return written


def tournament(
    cfg: ArenaConfig, workers: int = 1, backend: str = "processes", address: str | None = None
) -> tuple[dict[str, Any], list[ArenaGame], list[Standing]]:
    """Play and rate (no progress display: the command line adds one)."""
    t = time.perf_counter()
    games = list(run_arena(cfg, workers, backend, address))
    board = rate(cfg, games)
    return summarise(cfg, games, board, time.perf_counter() - t), games, board
