"""Tuning the Monopoly standard bot's thresholds (``meeple tune``; docs/BOTS.md, "Tuning").

CMA-ES (the ``cmaes`` package, ``meeple[lab]``) searches the :class:`Params` of the ``param``
bot in a box around the standard values. Each candidate plays a tournament of the arena
(:mod:`meeple.lab.arena`) against a fixed field, and its score is its win rate there. Every
candidate plays **the same tables**: the same seed, so the same dice and decks (common random
numbers across candidates as well as across seatings), and two candidates are compared on the
same luck.

The best candidate is then checked on tables it was not chosen on (another seed) against the
standard bot head to head: the difference of their win rates with its 95% interval over tables
(:func:`meeple.lab.arena.pairs`). Only a lower end above zero supports the claim that the tuned
settings beat the default; the search's own best score is biased upwards (it is the best of
many noisy scores) and is never the evidence.
"""

from __future__ import annotations

import json
import math
import tempfile
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from meeple.games.monopoly.bots import Params
from meeple.kernel.rng import derive_seed
from meeple.lab.arena import ArenaConfig, pairs, tournament

SPACE: dict[str, tuple[float, float]] = {
    "reserve_min": (0, 300),
    "reserve_danger_share": (0.0, 1.0),
    "reserve_max": (200, 1500),
    "set_bonus": (0.0, 3.0),
    "partial_bonus": (0.0, 1.0),
    "block_bonus": (0.0, 1.5),
    "bid_share": (0.5, 1.6),
    "build_first_to": (1, 5),
    "build_beyond_extra": (0, 500),
    "jail_stay_owned_share": (0.3, 1.0),
    "trade_premium": (0.0, 2.0),
    "unmortgage_extra": (0, 400),
}
"""The thresholds searched, each between these bounds. The stalemate machinery
(``stall_rounds``, ``trade_premium_last``, ``set_gift_penalty``) and ``accept_margin`` keep
their standard values: they decide whether games end, not how well a player plays."""


@dataclass(frozen=True)
class TuneConfig:
    game: str
    players: int
    trials: int
    """Candidates to try (CMA-ES generations of ``population`` each, the last one cut short)."""
    tables: int
    """Tables per candidate (each every seating)."""
    seed: int
    against: tuple[str, ...] = ("standard",)
    """The field each candidate plays (with ``players`` seats: the candidate and these)."""
    check_tables: int = 200
    """Tables of the final check, on another seed: the tuned settings against ``standard``."""
    population: int = 0
    """Candidates per CMA-ES generation; 0: the cmaes default for the dimension."""
    workers: int = 1


@dataclass
class Trial:
    number: int
    params: dict[str, float]
    win_rate: float


@dataclass
class TuneResult:
    best: dict[str, float]
    """The best candidate's thresholds (every :class:`Params` field: a ``param:FILE``)."""
    trials: list[Trial]
    check: dict[str, Any]
    """The final check: tables, seed, the tuned and standard win rates, their difference and
    its 95% interval, and whether the interval supports an improvement."""


def _integer(name: str) -> bool:
    kinds = {f.name: f.type for f in fields(Params)}
    return kinds[name] in (int, "int")


def to_params(x: list[float]) -> dict[str, float]:
    """A point of the unit cube as thresholds (rounded where a threshold is whole)."""
    out: dict[str, Any] = asdict(Params())
    for value, (name, (lo, hi)) in zip(x, SPACE.items(), strict=True):
        v = lo + min(1.0, max(0.0, value)) * (hi - lo)
        out[name] = round(v) if _integer(name) else round(v, 4)
    return out


def from_params(p: Params) -> list[float]:
    """The unit-cube point of ``p``'s searched thresholds."""
    values = asdict(p)
    return [(values[n] - lo) / (hi - lo) for n, (lo, hi) in SPACE.items()]


def write_params(path: Path, params: dict[str, float]) -> None:
    path.write_text(json.dumps(params, indent=1) + "\n", encoding="utf-8")


def score(cfg: TuneConfig, params: dict[str, float], folder: Path) -> float:
    """A candidate's win rate against the field, on the search's tables."""
    path = folder / "candidate.json"
    write_params(path, params)
    arena = ArenaConfig(
        cfg.game, cfg.players, cfg.tables, cfg.seed, (f"candidate=param:{path}", *cfg.against)
    )
    board = tournament(arena, cfg.workers)[2]
    return next(s.win_rate for s in board if s.name == "candidate")


def check(cfg: TuneConfig, params: dict[str, float], folder: Path) -> dict[str, Any]:
    """The tuned settings against the standard bot head to head, on fresh tables."""
    path = folder / "tuned.json"
    write_params(path, params)
    seed = derive_seed(cfg.seed, 0x7E57)  # tables the search never saw
    arena = ArenaConfig(cfg.game, 2, cfg.check_tables, seed, (f"tuned=param:{path}", "standard"))
    summary, games, board = tournament(arena, cfg.workers)
    rates = {s.name: s.win_rate for s in board}
    (pair,) = pairs(arena, games, board)
    sign = 1.0 if pair.a == "tuned" else -1.0
    low, high = sorted((sign * pair.low, sign * pair.high))
    return {
        "tables": cfg.check_tables,
        "seed": seed,
        "games": summary["games"],
        "tuned_win_rate": round(rates["tuned"], 6),
        "standard_win_rate": round(rates["standard"], 6),
        "difference": round(sign * pair.difference, 6),
        "low": round(low, 6) if math.isfinite(low) else None,
        "high": round(high, 6) if math.isfinite(high) else None,
        "supported": math.isfinite(low) and low > 0,
    }


def tune(cfg: TuneConfig, progress: Callable[[Trial], None] | None = None) -> TuneResult:
    """Search, then check the best candidate (see the module's docstring)."""
    import numpy as np
    from cmaes import CMA

    dim = len(SPACE)
    start = np.array([min(1.0, max(0.0, v)) for v in from_params(Params())])
    opt = CMA(
        mean=start,
        sigma=0.25,
        bounds=np.array([[0.0, 1.0]] * dim),
        seed=derive_seed(cfg.seed, 0xC4A) % (2**32),
        **({"population_size": cfg.population} if cfg.population else {}),
    )
    trials: list[Trial] = []
    with tempfile.TemporaryDirectory(prefix="meeple-tune-") as tmp:
        folder = Path(tmp)
        # The standard settings first: the mark every candidate has to beat on these tables.
        default = asdict(Params())
        trials.append(Trial(0, default, score(cfg, default, folder)))
        if progress is not None:
            progress(trials[-1])
        while len(trials) < cfg.trials:
            told = []
            for _ in range(opt.population_size):
                if len(trials) >= cfg.trials:
                    break
                x = opt.ask()
                params = to_params([float(v) for v in x])
                trial = Trial(len(trials), params, score(cfg, params, folder))
                trials.append(trial)
                if progress is not None:
                    progress(trial)
                told.append((x, -trial.win_rate))  # cmaes minimises
            if len(told) == opt.population_size:
                opt.tell(told)
        best = max(trials, key=lambda t: (t.win_rate, -t.number))
        result = check(cfg, best.params, folder)
    return TuneResult(best.params, trials, result)
