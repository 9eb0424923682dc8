"""Run many games with bots, in one process or several, with identical results either way.

Game ``i`` of a run with seed ``S`` is seeded ``derive_seed(S, i)`` and its bots
``derive_seed(S, i, 1 + seat)``: a game's outcome depends only on ``(S, i)``, never on which
worker played it or in what order, so ``--workers`` changes the speed and nothing else.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from meeple.bots.base import Bot, bot_maker, play_out
from meeple.kernel.family import GameFamily, GameMaker, family_of, game_maker, new_game
from meeple.kernel.protocol import GameState
from meeple.kernel.rng import derive_seed
from meeple.sim.pool import ordered_map
from meeple.sim.summary import summarise

DEFAULT_MAX_TURNS = 5000
"""The turn cap of a simulation unless one is given (player-turns; 0 is no cap): a backstop.
No rule forces an end when players stop losing money (docs/RULES.md, "Turn cap"), so without a
cap one such game would stop a large run. ``standard`` bots break the stalemates they used to
fall into (a housing shortage nobody ends: docs/BOTS.md, "Stalemates"), and their games end by
the rules far below the cap; at most about 2 in 10,000 of them reach it, per edition and player
count (docs/BOTS.md, the measured tables)."""


@dataclass(frozen=True)
class SimConfig:
    game: str
    players: int
    games: int
    seed: int
    bots: tuple[str, ...]
    max_turns: int = DEFAULT_MAX_TURNS
    rotate_seats: bool = False
    options: dict[str, Any] = field(default_factory=dict)
    save_dir: str = ""
    audit: bool = False
    """Check the family's invariants after every action (``GameFamily.audit``: caches against
    the board worked out afresh, money and buildings conserved, ...): a debug switch."""

    def seat_bots(self, i: int) -> tuple[str, ...]:
        """The bot kind in each seat for game ``i`` (rotated one seat per game if asked)."""
        if not self.rotate_seats:
            return self.bots
        k = i % self.players
        return self.bots[-k:] + self.bots[:-k] if k else self.bots


@dataclass
class GameRecord:
    index: int
    seed: int
    bots: tuple[str, ...]
    winners: list[int]
    turns: int
    end_reason: str
    scores: list[float]
    actions: int
    cash: list[int] = field(default_factory=list)
    landings: list[int] = field(default_factory=list)
    rounds: int = 0
    """Rounds begun (``GameFamily.rounds_played``): a turn of every player still in."""
    first: int = 0
    """The seat that took the first turn (a roll-off's winner, the chosen start player): the
    turn order of the game is the seats from it, which a study of play order reads."""


def play_one(cfg: SimConfig, i: int) -> GameRecord:
    """Play game ``i`` of the run described by ``cfg``."""
    return _Run(cfg).play(i)


class _Run:
    """What every game of a run shares, worked out once for the run (or a worker's part of
    it) rather than for every game: the family, the games' options, the function that starts
    a game from its seed (:func:`~meeple.kernel.family.game_maker`: the game id, options and
    player count checked, a Monopoly edition found, once) and those that make each kind of bot
    (:func:`~meeple.bots.base.bot_maker`). Looked up for every game, they cost a few percent
    of a classic game's time (issue 18); the games are the same either way."""

    def __init__(self, cfg: SimConfig) -> None:
        self.cfg = cfg
        self.fam = family_of(cfg.game, cfg.options)
        options = dict(cfg.options)
        if cfg.max_turns:
            options["max_turns"] = cfg.max_turns
        self.options = options
        # Many games from one position: each re-draws the hidden future from its own seed
        # (options["redraw"]), so each starts from options of its own, through new_game.
        self.make: GameMaker | None = None
        if "position" not in options:
            self.make = game_maker(cfg.game, cfg.players, options)
        self.seated: dict[tuple[str, ...], list[Callable[[int], Bot]]] = {}

    def redrawn(self, seed: int) -> GameState:
        """Game ``seed`` of a run from a position: the position with its future re-drawn."""
        return new_game(self.cfg.game, self.cfg.players, seed, {**self.options, "redraw": seed})

    def bot_makers(self, kinds: tuple[str, ...]) -> list[Callable[[int], Bot]]:
        """Each seat's :func:`~meeple.bots.base.bot_maker` for the bot kinds ``kinds`` in the
        seats (one list a run, or one for each rotation of the seats)."""
        makers = self.seated.get(kinds)
        if makers is None:
            makers = self.seated[kinds] = [bot_maker(k, self.fam.name) for k in kinds]
        return makers

    def play(self, i: int) -> GameRecord:
        """Play game ``i`` of the run."""
        cfg = self.cfg
        fam = self.fam
        seed = derive_seed(cfg.seed, i)
        s = self.make(seed) if self.make is not None else self.redrawn(seed)
        s.record_events = False
        # (a game saved or audited needs its actions: the file holds them, the audit names them)
        s.record_history = bool(cfg.save_dir) or cfg.audit
        first = s.current_player()
        kinds = cfg.seat_bots(i)
        makers = self.bot_makers(kinds)
        bots = [make(derive_seed(cfg.seed, i, 1 + seat)) for seat, make in enumerate(makers)]
        n = play_audited(s, bots, fam, i) if cfg.audit else play_out(s, bots)
        r = s.result()
        assert r is not None
        if cfg.save_dir:
            from meeple.kernel.saves import save_game

            save_game(s, os.path.join(cfg.save_dir, f"game-{i:06d}.json"))
        landings = fam.landings(s)  # Monopoly: where each roll ended
        cash = [s.money_of(p) for p in range(cfg.players)]
        rounds = fam.rounds_played(s)
        return GameRecord(
            i,
            seed,
            kinds,
            list(r.winners),
            r.turns,
            r.end_reason,
            list(r.scores),
            n,
            cash,
            landings,
            rounds,
            first,
        )


class AuditError(RuntimeError):
    """An invariant broken during a simulated game: which game, after which action, and what."""


def play_audited(s: GameState, bots: list[Bot], fam: GameFamily, index: int) -> int:
    """:func:`~meeple.kernel.bot.play_out` with ``fam.audit`` after every action; raises
    :class:`AuditError` naming the game, the action and every broken invariant."""
    found = fam.audit(s)
    n = 0
    while not found and not s.is_terminal():
        action = bots[s.current_player()].choose(s)
        s.apply(action)
        n += 1
        found = fam.audit(s)
    if found:
        where = f"after action {n} ({s.history[-1]})" if n else "at the start"
        raise AuditError(f"game {index} (seed {s.seed}) {where}: " + "; ".join(found))
    return n


def _play_chunk(args: tuple[SimConfig, int, int]) -> list[GameRecord]:
    cfg, lo, hi = args
    games = _Run(cfg)
    return [games.play(i) for i in range(lo, hi)]


def resolve_workers(workers: int | str) -> int:
    if workers == "auto":
        return max(1, os.cpu_count() or 1)
    n = int(workers)
    if n < 1:
        raise ValueError("--workers must be at least 1 or 'auto'")
    return n


def run(cfg: SimConfig, workers: int = 1) -> Iterator[GameRecord]:
    """Yield every game's record in game order (whatever the number of workers)."""
    if workers <= 1 or cfg.games < 2:
        if cfg.games:  # (none: nothing to set up, as before any game is played)
            games = _Run(cfg)
            for i in range(cfg.games):
                yield games.play(i)
        return
    chunk = max(1, min(50, cfg.games // (workers * 4) or 1))
    # Lazily, chunk by chunk (sim/pool.py): the parent's memory is the same for 10**4 games
    # as for 10**12, and the first game starts at once.
    bounds = ((cfg, lo, min(cfg.games, lo + chunk)) for lo in range(0, cfg.games, chunk))
    for records in ordered_map(_play_chunk, bounds, workers):
        yield from records


def simulate(cfg: SimConfig, workers: int = 1) -> tuple[dict[str, Any], list[GameRecord]]:
    """Run and summarise (no progress display: the command line adds one)."""
    t = time.perf_counter()
    records = list(run(cfg, workers))
    return summarise(cfg, records, time.perf_counter() - t), records
