"""The ``mcts`` bot: Monte Carlo search over the engine itself, for any game family that
gives search support (``GameFamily.search``, a :class:`~meeple.kernel.search.SearchFamily`;
today: Monopoly).

Why this shape. A Monopoly game lasts hundreds of turns with many decisions per turn, most of
them forced or routine (roll, end the turn, pass a window, draft a trade one deed at a time),
and its outcome is dominated by dice. So the bot does not build a tree over every decision:

* **Only decisions that matter are searched.** The family says which (:meth:`SearchFamily.options`:
  buy or decline, how high to bid, how to leave jail, build or wait, accept or reject an offer,
  ...) and gives a few candidate *options*; everything else is delegated to the family's
  heuristic bot (:meth:`SearchFamily.fallback`), so the bot plays at least as sensibly as it.
* **Information sets by determinization.** Every rollout starts from a clone of the real state
  in which the family re-samples what the deciding seat cannot see
  (:meth:`SearchFamily.determinize`: for Monopoly the order of the decks and the random state),
  drawn from the bot's own stream. The search never reads the real future dice.
* **Rollouts with the heuristic policy, cut at a horizon.** After the option, every seat plays
  the family's rollout bots (for Monopoly the ``standard`` bot, which is also the opponent the
  issue measures against) until ``horizon`` clock ticks (Monopoly: dice rolls), and the state is
  scored by :meth:`SearchFamily.evaluate` in ``[0, 1]`` (1 a win, 0 a loss).
* **Sequential halving at the root with common random numbers.** The root is a pure
  exploration problem (pick the best option; its value is not needed), for which sequential
  halving (Karnin, Koren and Somekh, 2013; the root search of Gumbel MuZero) spends a fixed
  budget better than UCB1. In each round every surviving option is rolled out on the *same*
  determinizations, so two options are compared under the same dice: the dice noise, which
  dwarfs the difference between two choices, mostly cancels.

An *option* is an action, or a short plan the searching seat keeps to while it applies (bid up
to a limit in this auction); the real bot keeps to a chosen plan without searching again.

Budget (``mcts:ARG``): ``N`` rollouts per searched decision (``mcts:200``), ``Xs`` seconds per
searched decision (``mcts:0.5s``), or both (``mcts:200:2s``, whichever ends first). A decision
with ``K`` options costs at least ``K`` rollouts. Iteration budgets are deterministic: the same
bot seed and the same game give the same moves. Time budgets are not (the number of rollouts
depends on the machine's speed). Bare ``mcts`` searches :data:`DEFAULT_ITERATIONS` rollouts.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from meeple.kernel.bot import Bot
from meeple.kernel.protocol import Action, GameState
from meeple.kernel.rng import Rng
from meeple.kernel.search import Option, SearchFamily, rollout

DEFAULT_ITERATIONS = 32
"""Rollouts per searched decision of a bare ``mcts``: a fraction of a second a decision, so a
server bot seat stays responsive."""

MAX_ITERATIONS = 1_000_000
MAX_SECONDS = 600.0


@dataclass(frozen=True)
class Budget:
    """Rollouts and/or seconds per searched decision (at least one of them)."""

    iterations: int | None = DEFAULT_ITERATIONS
    seconds: float | None = None

    @classmethod
    def parse(cls, text: str) -> Budget:
        """``""`` (the default), ``"200"``, ``"0.5s"`` or ``"200:2s"``; ``ValueError`` names
        what is wrong."""
        text = text.strip()
        if not text:
            return cls()
        iterations: int | None = None
        seconds: float | None = None
        for part in text.split(":"):
            part = part.strip()
            try:
                if part.endswith("s"):
                    if seconds is not None:
                        raise ValueError
                    seconds = float(part[:-1])
                    if not 0 < seconds <= MAX_SECONDS:
                        raise ValueError
                else:
                    if iterations is not None:
                        raise ValueError
                    iterations = int(part)
                    if not 0 < iterations <= MAX_ITERATIONS:
                        raise ValueError
            except ValueError:
                raise ValueError(
                    f"bad mcts budget {text!r}: give rollouts per decision (mcts:200, 1 to "
                    f"{MAX_ITERATIONS}), seconds per decision (mcts:0.5s, at most "
                    f"{MAX_SECONDS:g}) or both (mcts:200:2s)"
                ) from None
        return cls(iterations, seconds)


@dataclass
class SearchStats:
    """What the bot has spent so far (for reports and tests)."""

    decisions: int = 0  # calls to choose
    searches: int = 0  # decisions that ran a search
    rollouts: int = 0
    seconds: float = 0.0  # time spent searching
    last_rollouts: int = 0  # rollouts of the latest search
    last_values: list[tuple[Action, float, int]] = field(default_factory=list)


class MctsBot(Bot):
    """Determinized Monte Carlo search at the root over a family's options (module docstring).

    The bot's stream gives one number per searched decision, the seed of that search's
    determinizations; nothing else in the bot is random.
    """

    name = "mcts"

    def __init__(self, seed: int, family: SearchFamily, budget: Budget | None = None) -> None:
        super().__init__(seed)
        self.family = family
        self.budget = budget or Budget()
        self.fallback = family.fallback(seed)
        self.committed: Option | None = None  # a plan chosen earlier that still applies
        self.stats = SearchStats()
        # The latest search's options and mean scores, for :meth:`explain` (None: the latest
        # decision was not searched).
        self.searched: tuple[Action, list[Option], list[float], list[int]] | None = None

    def choose(self, state: GameState) -> Action:
        self.stats.decisions += 1
        self.searched = None
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        seat = state.current_player()
        if self.committed is not None:
            step = self.committed.follow(state)
            if step is not None and state.is_legal(step):
                return step
            self.committed = None
        options = self.family.options(state, seat, self.fallback)
        if isinstance(options, Action):
            return options
        best = self.search(state, seat, options)
        self.committed = best
        return best.first()

    def search(self, root: GameState, seat: int, options: list[Option]) -> Option:
        """Sequential halving over ``options`` with the same determinizations for every
        survivor of a round; ties go to the earlier option."""
        if len(options) == 1:
            return options[0]
        start = time.perf_counter()
        rng = Rng(self.rng.next64())
        iterations, seconds = self.budget.iterations, self.budget.seconds
        k = len(options)
        rounds = max(1, math.ceil(math.log2(k)))
        total = [0.0] * k
        count = [0] * k
        alive = list(range(k))
        rollouts = 0
        for r in range(rounds):
            quota = max(1, iterations // (rounds * len(alive))) if iterations else None
            phase_end = start + seconds * (r + 1) / rounds if seconds else None
            done = 0
            while quota is None or done < quota:
                if phase_end is not None and done and time.perf_counter() >= phase_end:
                    break
                det = rng.next64()
                for i in alive:
                    total[i] += self.rollout(root, seat, options[i], det)
                    count[i] += 1
                rollouts += len(alive)
                done += 1
            ranked = sorted(alive, key=lambda i: -total[i] / count[i])  # stable: ties keep order
            alive = sorted(ranked[: max(1, math.ceil(len(alive) / 2))])
            if len(alive) == 1:
                break
        best = max(alive, key=lambda i: total[i] / count[i])  # first of equals
        st = self.stats
        st.searches += 1
        st.rollouts += rollouts
        st.last_rollouts = rollouts
        st.seconds += time.perf_counter() - start
        means = [total[i] / count[i] if count[i] else 0.0 for i in range(k)]
        st.last_values = [(options[i].first(), means[i], count[i]) for i in range(k)]
        self.searched = (options[best].first(), options, means, count)
        return options[best]

    def explain(self, state: GameState, action: Action) -> str:
        """A searched decision: the chosen option's score against the next best's (the
        family's score of the rollouts' last positions, 1 a win); a plan kept to, or a decision
        not searched: the fallback bot's reason. Made from what :meth:`search` kept, so asking
        costs no search."""
        if self.searched is None or self.searched[0] != action:
            if self.searched is None and self.committed is not None:  # (choose followed it)
                return f"keeps to its plan: {self.committed.describe(state).lower()}"
            return self.fallback.explain(state, action)
        _, options, means, count = self.searched
        order = sorted(range(len(options)), key=lambda i: -means[i])
        best = next(i for i in order if options[i].first() == action)
        said = f"searched {sum(count)} rollouts: {options[best].describe(state)} scores "
        said += f"{means[best]:.2f}"
        others = [i for i in order if i != best]
        if others:
            o = others[0]
            said += f", {options[o].describe(state)} {means[o]:.2f}"
        return said

    def rollout(self, root: GameState, seat: int, option: Option, det: int) -> float:
        """One rollout of ``option`` from a determinization of ``root`` seeded by ``det``, cut
        at the family's horizon."""
        return rollout(self.family, root, seat, option, det, self.family.horizon)


def mcts_factory(family: SearchFamily) -> Callable[[int, str], Bot]:
    """``factory(seed, argument)``: the ``mcts`` kind of a family with search support."""

    def factory(seed: int, argument: str) -> Bot:
        return MctsBot(seed, family, Budget.parse(argument))

    return factory
