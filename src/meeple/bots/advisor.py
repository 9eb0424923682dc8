"""The advisor: each option of a decision with its estimated chance of winning (issue 21).

A player asks "what should I do here, and how much does it matter?". The advisor answers with
the options of the decision (the ones the ``mcts`` bot compares: buy or auction, bid limits,
jail choices, build or wait, accept or refuse a trade, ...; :meth:`SearchFamily.options`), each
with the share of games the asking seat goes on to win after taking it, a 95% interval, and the
best marked.

How it estimates, and why so:

* **Only what the seat may know.** Every rollout starts from a clone of the position in which the
  family re-samples what the seat cannot see (:meth:`SearchFamily.determinize`: Monopoly's deck
  order and the random state that rolls the dice), drawn from the advisor's own stream. The real
  game's future is never read, so the advice cannot leak it (a test changes the real deck order
  and dice and gets the same advice).
* **Rollouts to the end of the game**, every seat played by the family's rollout bots (the
  ``standard`` bot) after the option: a win is a win, so the estimate is the chance of winning
  against standard play, and its interval is the Wilson interval of a share (a shared win counts
  ``1/k``). The ``mcts`` bot cuts its rollouts at a horizon and scores a heuristic because it
  searches hundreds of decisions a game; the advisor answers one, so it can afford true results.
* **Every option on the same futures** (common random numbers): rollout ``i`` of every option
  uses determinization ``i``, so the dice luck that dwarfs the difference between two options
  mostly cancels in their comparison. Options get equal shares of the budget, so every option's
  interval is as narrow as the budget allows (a search would starve the poor ones; a person
  wants to see how poor they are).

The budget is a time (default :data:`DEFAULT_SECONDS`), a number of rollouts per option, or
both; a rollout budget alone is deterministic (same position, seed and budget: same advice).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

from meeple.kernel.bot import Bot
from meeple.kernel.errors import MeepleError
from meeple.kernel.family import family_of_state
from meeple.kernel.protocol import Action, GameState
from meeple.kernel.rng import Rng
from meeple.kernel.search import Option, SearchFamily, playout, rollout
from meeple.kernel.stats import wilson

DEFAULT_SECONDS = 2.0
"""The time an advice takes unless asked otherwise (the issue's default)."""

MAX_LISTED = 12
"""A decision the family does not search is advised on by listing its legal actions when there
are at most this many (a debt's mortgages, a jail choice); with more (drafting a trade), only the
standard bot's choice is shown, with the count of the others."""


class AdviceError(MeepleError):
    """The advisor cannot answer: no search support, a finished game, not the seat's turn."""


@dataclass
class OptionAdvice:
    """One option with its estimate."""

    action: Action
    text: str
    win: float  # the mean result of its rollouts for the seat: its chance to win
    low: float  # 95% interval
    high: float
    rollouts: int
    best: bool = False
    # How much worse than the best, paired over the same futures, and whether that is within
    # the noise of the comparison (its 95% interval reaches zero): "as good as the best".
    behind: float = 0.0
    close: bool = True

    def as_dict(self) -> dict[str, Any]:
        return {
            "action": str(self.action),
            "text": self.text,
            "win": round(self.win, 4),
            "low": round(self.low, 4),
            "high": round(self.high, 4),
            "rollouts": self.rollouts,
            "best": self.best,
            "behind": round(self.behind, 4),
            "close": self.close,
        }


@dataclass
class Advice:
    """The advisor's answer for ``seat``'s decision."""

    seat: int
    options: list[OptionAdvice]
    rollouts: int = 0
    seconds: float = 0.0
    others: int = 0  # legal actions not compared (a decision with too many: see MAX_LISTED)
    note: str = ""

    @property
    def best(self) -> OptionAdvice:
        return next(o for o in self.options if o.best)

    def as_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "options": [o.as_dict() for o in self.options],
            "rollouts": self.rollouts,
            "seconds": round(self.seconds, 3),
            "others": self.others,
            "note": self.note,
        }

    def lines(self) -> list[str]:
        """The advice as text: one line per option, the best marked with ``*``."""
        width = max(len(o.text) for o in self.options)
        out = []
        for o in self.options:
            mark = "*" if o.best else " "
            same = "  as good, within the noise" if o.close and not o.best else ""
            out.append(
                f"{mark} {o.text:<{width}}  {100 * o.win:5.1f}% "
                f"({100 * o.low:.1f}-{100 * o.high:.1f}%){same}"
            )
        if self.note:
            out.append(self.note)
        out.append(
            f"Chance to win against standard play, {self.rollouts} games played out "
            f"in {self.seconds:.1f} s; 95% intervals."
        )
        return out


def win_share(state: GameState, seat: int) -> float:
    """``seat``'s share of the win in the finished game ``state`` (a shared win ``1/k``): the
    advisor's score, whatever a family's search scores by (Monopolis's mixes in the margin)."""
    r = state.result()
    assert r is not None
    return 1.0 / len(r.winners) if seat in r.winners else 0.0


def paired_gap(best: list[float], other: list[float], z: float = 1.96) -> tuple[float, bool]:
    """How far ``other`` falls behind ``best`` over the same futures (the mean of the paired
    differences), and whether that is within the noise: the 95% interval of the mean
    difference reaches zero. Pairing is what common random numbers buy: the dice luck both
    options share drops out of the differences."""
    n = len(best)
    diffs = [b - o for b, o in zip(best, other, strict=True)]
    mean = sum(diffs) / n
    if n < 2:
        return mean, True
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, mean - z * math.sqrt(var / n) <= 0.0


def search_of(state: GameState) -> SearchFamily:
    """The state's family's search support, or :class:`AdviceError` naming the game."""
    search = family_of_state(state).search
    if search is None:
        raise AdviceError(f"{state.game_id} has no search support, so no advisor")
    return search


def candidates(state: GameState, seat: int, fallback: Bot) -> tuple[list[Option], int]:
    """The options to advise on, and how many legal actions were left out."""
    family = search_of(state)
    found = family.options(state, seat, fallback)
    if not isinstance(found, Action):
        return found, 0
    legal = state.legal_actions()
    if len(legal) <= MAX_LISTED:
        # The standard bot's choice first, so it wins a tie.
        ordered = [found, *[a for a in legal if a != found]]
        return [Option(a) for a in ordered], 0
    return [Option(found)], len(legal) - 1


def advise(
    state: GameState,
    seat: int | None = None,
    *,
    seconds: float | None = DEFAULT_SECONDS,
    rollouts: int | None = None,
    seed: int = 0,
) -> Advice:
    """Advice for ``seat`` (default: the seat to move) at the current decision.

    ``rollouts`` per option and/or ``seconds`` in all bound the work (at least one rollout per
    option is played). ``seed`` seeds the advisor's own stream: with a rollout budget alone, the
    same position and seed give the same advice, whatever the real game's hidden future.
    """
    if state.is_terminal():
        raise AdviceError("the game is over: there is no decision to advise on")
    to_move = state.current_player()
    if seat is None:
        seat = to_move
    if seat != to_move:
        raise AdviceError(f"it is not Player {seat + 1}'s decision (Player {to_move + 1} decides)")
    if seconds is None and rollouts is None:
        raise AdviceError("give the advisor a time or a number of rollouts")
    family = search_of(state)
    start = time.perf_counter()
    rng = Rng(seed)
    fallback = family.fallback(rng.next64())
    options, others = candidates(state, seat, fallback)
    k = len(options)
    results: list[list[float]] = [[] for _ in range(k)]
    done = 0
    # A lone option is rolled out too: its chance of winning is still worth knowing.
    end = start + seconds if seconds is not None else None
    while rollouts is None or done < rollouts:
        if end is not None and done and time.perf_counter() >= end:
            break
        det = rng.next64()
        for i, option in enumerate(options):
            results[i].append(rollout(family, state, seat, option, det, score=win_share))
        done += 1
    total = [sum(r) for r in results]
    out = []
    for i, option in enumerate(options):
        action = option.first()
        win = total[i] / done
        low, high = wilson(total[i], done)
        out.append(OptionAdvice(action, option.describe(state), win, low, high, done))
    best = max(range(k), key=lambda i: total[i])  # the first of equals: the standard choice
    out[best].best = True
    for i in range(k):
        out[i].behind, out[i].close = paired_gap(results[best], results[i])
    note = ""
    if k == 1 and others:
        note = f"{others} other moves are possible here; this is the standard bot's choice."
    elif k == 1:
        note = "There is only one move here."
    elif all(o.close for o in out):
        note = "The choices are within the noise of each other: it hardly matters here."
    return Advice(seat, out, done * k, time.perf_counter() - start, others, note)


# -- where the game was decided ---------------------------------------------------------------

CHANCE_POINTS = 40
"""Positions of a finished game whose chances :func:`chances_over` works out."""

CHANCE_ROLLOUTS = 60
"""Games played out from each of them: about a 6-point standard error on each chance, which
is enough to see who was winning when; a few seconds of a core for a whole game."""


def playout_shares(family: SearchFamily, root: GameState, det: int) -> list[float]:
    """Each seat's share of the win in one game played out from a determinization of ``root``
    by the family's rollout bots (a shared win counts ``1/k``)."""
    s = playout(family, root, root.current_player(), None, det)
    return [win_share(s, p) for p in range(s.num_players)]


def chances_over(
    start: GameState,
    actions: list[Action],
    *,
    points: int = CHANCE_POINTS,
    rollouts: int = CHANCE_ROLLOUTS,
    seed: int = 0,
) -> list[dict[str, Any]]:
    """Each seat's chance of winning at about ``points`` positions of a game (``start`` with
    ``actions`` applied one by one, the last position included): ``[{"state_id", "chances"}]``.

    The chances are the shares of ``rollouts`` games each seat wins when every seat plays as
    the standard bot from there, on futures re-drawn from what the table could see (never
    the game's own dice). Deterministic: the same game and ``seed`` give the same series.
    The end screen draws it, and finds where the game was decided (:func:`decided`)."""
    family = search_of(start)
    s = start.clone()
    s.record_events = False
    n = len(actions)
    wanted = sorted({round(i * n / max(1, points - 1)) for i in range(points)} | {0, n})
    rng = Rng(seed)
    out: list[dict[str, Any]] = []
    done = 0
    for at in wanted:
        while done < at:
            s.apply(actions[done])
            done += 1
        if s.is_terminal():
            r = s.result()
            assert r is not None
            final = [1.0 / len(r.winners) if p in r.winners else 0.0 for p in range(s.num_players)]
            out.append({"state_id": at, "chances": final})
            continue
        total = [0.0] * s.num_players
        for _ in range(rollouts):
            for p, share in enumerate(playout_shares(family, s, rng.next64())):
                total[p] += share
        out.append({"state_id": at, "chances": [round(t / rollouts, 4) for t in total]})
    return out


def decided(
    series: list[dict[str, Any]], winner: int, even: float = 0.5, sure: float = 0.8
) -> dict[str, Any]:
    """Where a game was decided for ``winner``, from :func:`chances_over`'s series.

    ``turning``: where the winner became the favourite for good, the last rise of its chance
    through ``even`` (the positions before and after it and the chances there; ``None`` when
    it was the favourite from the first position on). ``settled``: the first point from which
    its chance stayed at ``sure`` or more to the end (``None`` if only the last did). A single
    biggest jump would be the wrong question: each chance is an estimate from a few dozen
    playouts, and the largest step between two points is as often noise as a turning point;
    the last crossing of an even chance is robust to it."""
    chance = [p["chances"][winner] for p in series]
    turning = None
    for i in range(len(series) - 1, 0, -1):
        if chance[i - 1] < even <= min(chance[i:]):
            turning = {
                "from": series[i - 1]["state_id"],
                "to": series[i]["state_id"],
                "before": chance[i - 1],
                "after": chance[i],
            }
            break
    settled = None
    for i, point in enumerate(series[:-1]):
        if min(chance[i:]) >= sure:
            settled = point["state_id"]
            break
    return {"winner": winner, "turning": turning, "settled": settled}
