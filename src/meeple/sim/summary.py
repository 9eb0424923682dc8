"""The JSON summary of a simulation, built one game at a time.

``meeple simulate`` summarises games as they finish (:class:`Summary`), so a run of millions
of games holds counters, sums and two histograms of game lengths, never its records: about
3.5 KB a game when the records were kept (63 MB more for 18,000 games), a few KB in all now.
Every figure is the one the whole list of records gives: the sums of scores are exact
(:func:`add_exact`, the partial sums of ``math.fsum``), the median and 95th percentile of game
lengths are read off the histograms.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from meeple.buildinfo import build_name
from meeple.kernel.family import new_game

if TYPE_CHECKING:
    from collections.abc import Iterable

    from meeple.sim.runner import GameRecord, SimConfig


def add_exact(partials: list[float], x: float) -> None:
    """Add ``x`` to the exact sum held as ``partials`` (non-overlapping floats, smallest
    first), as ``math.fsum`` does inside: ``math.fsum(partials)`` is then the correctly rounded
    sum of every value added, the same as ``math.fsum`` of them all at once."""
    i = 0
    for y in partials:
        if abs(x) < abs(y):
            x, y = y, x
        hi = x + y
        lo = y - (hi - x)
        if lo:
            partials[i] = lo
            i += 1
        x = hi
    partials[i:] = [x]


def kth(histogram: dict[int, int], k: int) -> int:
    """The ``k``-th smallest value (from 0) of the values counted in ``histogram``."""
    seen = 0
    for value in sorted(histogram):
        seen += histogram[value]
        if k < seen:
            return value
    raise IndexError(f"no value {k} among {seen}")


def lengths(unit: str, histogram: dict[int, int]) -> dict[str, float]:
    """``mean_``, ``median_`` and ``p95_`` of a game length in ``unit`` (0 with no games): the
    mean of the values, ``statistics.median`` of them, and the value at ``0.95 * (n - 1)`` in
    sorted order."""
    n = sum(histogram.values())
    if not n:
        return {f"mean_{unit}": 0.0, f"median_{unit}": 0.0, f"p95_{unit}": 0.0}
    total = sum(value * count for value, count in histogram.items())
    middle = kth(histogram, n // 2)
    median = middle if n % 2 else (kth(histogram, n // 2 - 1) + middle) / 2
    return {
        f"mean_{unit}": round(total / n, 6),
        f"median_{unit}": float(median),
        f"p95_{unit}": float(kth(histogram, int(0.95 * (n - 1)))),
    }


class Summary:
    """The summary of a run's games, added one at a time in the run's order (:meth:`add`),
    read at any point (:meth:`result`)."""

    def __init__(self, cfg: SimConfig) -> None:
        self.cfg = cfg
        n = cfg.players
        self.games = 0
        self.wins = [0.0] * n
        self.by_bot: dict[str, float] = {}
        self.seats_by_bot: dict[str, int] = {}  # seat-games played by each bot kind
        self.reasons: dict[str, int] = {}
        self.turns: dict[int, int] = {}  # game length -> games
        self.rounds: dict[int, int] = {}
        self.actions = 0
        # Each seat's final scores, summed exactly (add_exact), while every game has one per
        # seat (None once a game has not: the means are then 0, as for a family without scores).
        self.scores: list[list[float]] | None = [[] for _ in range(n)]
        # Landings per square over every game, when the games count them (the first decides).
        self.landings: list[int] | None = None

    def add(self, rec: GameRecord) -> None:
        """Count game ``rec`` in."""
        first = self.games == 0
        self.games += 1
        for kind in rec.bots:
            self.seats_by_bot[kind] = self.seats_by_bot.get(kind, 0) + 1
        share = 1.0 / len(rec.winners) if rec.winners else 0.0
        for w in rec.winners:
            self.wins[w] += share
            self.by_bot[rec.bots[w]] = self.by_bot.get(rec.bots[w], 0.0) + share
        self.reasons[rec.end_reason] = self.reasons.get(rec.end_reason, 0) + 1
        self.turns[rec.turns] = self.turns.get(rec.turns, 0) + 1
        self.rounds[rec.rounds] = self.rounds.get(rec.rounds, 0) + 1
        self.actions += rec.actions
        if self.scores is not None:
            if len(rec.scores) == self.cfg.players:
                for partials, x in zip(self.scores, rec.scores, strict=True):
                    add_exact(partials, x)
            else:
                self.scores = None
        if first:
            self.landings = list(rec.landings) if rec.landings else None
        elif self.landings is not None:
            if len(rec.landings) != len(self.landings):
                raise ValueError(
                    f"game {rec.index} counts landings on {len(rec.landings)} places, "
                    f"the run's first game on {len(self.landings)}"
                )
            self.landings = [a + b for a, b in zip(self.landings, rec.landings, strict=True)]

    def result(self, seconds: float) -> dict[str, Any]:
        """The JSON summary: everything except ``timing`` is a pure function of the games."""
        cfg, n, games = self.cfg, self.cfg.players, self.games
        total_turns = sum(t * c for t, c in self.turns.items())
        landing = self.landing_shares()
        scores = self.scores
        return {
            "edition": cfg.game,
            "players": n,
            "games": cfg.games,
            "seed": cfg.seed,
            "bots": list(cfg.bots),
            "rotate_seats": cfg.rotate_seats,
            "max_turns": cfg.max_turns,
            # The rule options set for these games over the edition's (``--rule``): name: value.
            "rules": dict(cfg.options.get("rules") or {}),
            "results": {
                "wins_by_seat": [round(w, 6) for w in self.wins],
                "wins_by_bot": {k: round(v, 6) for k, v in sorted(self.by_bot.items())},
                "seats_by_bot": dict(sorted(self.seats_by_bot.items())),
                "capped": self.reasons.get("turn_cap", 0),
                "end_reasons": dict(sorted(self.reasons.items())),
                **lengths("turns", self.turns),
                # A round: a turn of every player still in (GameFamily.rounds_played).
                **lengths("rounds", self.rounds),
                "actions": self.actions,
                # Final score per seat, averaged: net worth (Monopoly), points (Monopolis), ...
                # (zeros for a game whose results carry no scores)
                "mean_scores_by_seat": [
                    round(math.fsum(scores[p]) / games, 4) if games and scores else 0.0
                    for p in range(n)
                ],
            },
            **({"landing": landing} if landing else {}),
            "timing": {
                "seconds": round(seconds, 4),
                "games_per_s": round(games / seconds, 2) if seconds else 0.0,
                "turns_per_s": round(total_turns / seconds, 1) if seconds else 0.0,
                # Which engine ran: "mypyc" (compiled) or "python" (meeple.buildinfo)
                "build": build_name(),
            },
        }

    def landing_shares(self) -> dict[str, Any]:
        """The share of all rolls that ended on each square (and in jail), over every game."""
        totals = self.landings
        if not totals:
            return {}
        cfg = self.cfg
        rolls = sum(totals)
        names = new_game(cfg.game, cfg.players, 0, cfg.options).view(None).get("squares", [])
        share = [round(t / rolls, 6) if rolls else 0.0 for t in totals]
        return {
            "rolls": rolls,
            "squares": [
                {"index": i, "name": names[i]["name"] if i < len(names) else "", "share": share[i]}
                for i in range(len(totals) - 1)
            ],
            "in_jail": share[-1],
        }


def summarise(cfg: SimConfig, records: Iterable[GameRecord], seconds: float) -> dict[str, Any]:
    """The JSON summary of ``records`` (:class:`Summary`, all added at once)."""
    summary = Summary(cfg)
    for rec in records:
        summary.add(rec)
    return summary.result(seconds)
