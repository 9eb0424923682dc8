"""What a game family gives the ``mcts`` bot (:mod:`meeple.bots.mcts`): its search support.

A family that can be searched sets ``GameFamily.search`` to a :class:`SearchFamily`; the
search bot reads nothing else about the game. See :mod:`meeple.bots.mcts` for why the search
has this shape (options, determinization, rollouts cut at a horizon).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from meeple.kernel.bot import Bot
from meeple.kernel.protocol import Action, GameState
from meeple.kernel.rng import Rng


class Option:
    """A candidate at the root: its first action and, for a plan, how the seat goes on.

    The base class is a single action: :meth:`follow` ends it at once.
    """

    __slots__ = ("action",)

    def __init__(self, action: Action) -> None:
        self.action = action

    def first(self) -> Action:
        """The action taken now."""
        return self.action

    def follow(self, state: GameState) -> Action | None:
        """The searching seat's next action while this option lasts; ``None`` once it is over
        (the seat then plays its usual policy). Worked out from ``state`` alone, never from
        steps counted so far: one option serves every rollout, and a caller may ask twice."""
        return None

    def describe(self, state: GameState) -> str:
        """The option in words for a person (the advisor's table): its first action's text;
        a plan says what it keeps to."""
        return state.describe_action(self.action)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.action})"


class SearchFamily(Protocol):
    """What the search needs to know about one game family."""

    horizon: int
    """Clock ticks (see :meth:`tick`) a rollout plays before it is scored."""

    def fallback(self, seed: int) -> Bot:
        """The bot that takes every decision not worth a search (and proposes the options)."""

    def options(self, state: GameState, seat: int, fallback: Bot) -> list[Option] | Action:
        """The options worth comparing for ``seat``'s decision now, or the action to take
        without a search (usually ``fallback``'s choice)."""

    def determinize(self, state: GameState, seat: int, rng: Rng) -> None:
        """Re-sample, in the clone ``state``, everything ``seat`` cannot see, from ``rng``."""

    def rollout_bots(self, state: GameState) -> list[Bot]:
        """Fresh bots, one per seat, that play the rollouts."""

    def tick(self, action: Action) -> bool:
        """Whether ``action`` advances the rollout clock (Monopoly: a dice roll)."""

    def evaluate(self, state: GameState, seat: int) -> float:
        """How good ``state`` is for ``seat``: 1 a win, 0 a loss, a heuristic in between."""


def rollout(
    family: SearchFamily,
    root: GameState,
    seat: int,
    option: Option,
    det: int,
    horizon: int | None = None,
    score: Callable[[GameState, int], float] | None = None,
) -> float:
    """One rollout of ``option`` from a determinization of ``root`` seeded by ``det``, scored
    for ``seat`` by ``score`` (default :meth:`SearchFamily.evaluate`): to the end of the game,
    or cut after ``horizon`` clock ticks (the ``mcts`` bot's rollouts)."""
    s = playout(family, root, seat, option, det, horizon)
    return family.evaluate(s, seat) if score is None else score(s, seat)


def playout(
    family: SearchFamily,
    root: GameState,
    seat: int,
    option: Option | None,
    det: int,
    horizon: int | None = None,
) -> GameState:
    """The position a rollout ends in: a clone of ``root`` with what ``seat`` cannot see
    re-drawn from ``det``, ``option`` taken by ``seat`` (``None``: no option, every seat
    plays the family's rollout bots from the start), played to the end of the game or cut
    after ``horizon`` clock ticks."""
    s = root.clone()
    s.record_events = False
    family.determinize(s, seat, Rng(det))
    bots = family.rollout_bots(s)
    following = option is not None
    if option is not None:
        s.apply(option.first())
    ticks = 0
    while not s.is_terminal():
        p = s.current_player()
        action: Action | None = None
        if following and p == seat and option is not None:
            action = option.follow(s)
            if action is None or not s.is_legal(action):
                following = False
                action = None
        if action is None:
            action = bots[p].choose(s)
        if horizon is not None and family.tick(action):
            ticks += 1
            if ticks > horizon:
                break
        s.apply(action)
    return s
