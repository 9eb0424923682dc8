"""How the ``mcts`` bot searches a Monopolis game: which decisions, which options, what score.

A Monopolis turn is two actions, each a purchase or a build ("The Course of the Game"), and a
build is a chain of three steps (card, payment, tile: ``actions.py``). Only the choice of the
action is searched; its options are, in this order (so a tie keeps the standard play):

* the ``standard`` bot's own choice (a build with the payment and tile it would pick);
* the best build on each of the :data:`BUILDS` most valuable cards, by the standard bot's worth
  (``bots.build_worth``), as a plan: the card, then the payment and the tile;
* the :data:`BUYS` purchases the standard bot values most (``bots.buy_worth``).

The payment and tile of a chosen build follow its plan (the bot keeps to it without searching
again); fixing a joker and every step of another build is the ``standard`` bot's.

A Monopolis game is short (20 to 40 player-turns), and the standard bot plays one in well under
a millisecond compiled, so a rollout plays to the end of the game (:data:`HORIZON` is a
backstop) from a determinization (``hidden.py``: the decks, the bag and the tile stacks below
their tops re-drawn), every seat played by a fresh ``standard`` bot. The score is mostly the win
(1, a shared win ``1/k``, 0 a loss) and partly the margin over the best other player, so that
options that win equally often are told apart by how much they win or lose by:
``(1 - MARGIN_SHARE) * win + MARGIN_SHARE * (1 + tanh(margin / MARGIN_SCALE)) / 2``.
"""

from __future__ import annotations

import math

from meeple.games.monopolis import market
from meeple.games.monopolis.actions import (
    ACTION,
    BUILD_AT,
    BUY,
    FULL_PAYMENT,
    PAY,
    PAY_PAIR,
    TILE,
    TILE_CHOICE,
    act,
)
from meeple.games.monopolis.bots import (
    MonopolisStandardBot,
    Plan,
    Tally,
    build_worth,
    buy_worth,
    potential,
    targets,
)
from meeple.games.monopolis.building import FULL, pay_modes, tile_values
from meeple.games.monopolis.city import EMPTY, PLOTS
from meeple.games.monopolis.hidden import determinize
from meeple.games.monopolis.market import SLOTS
from meeple.games.monopolis.scoring import score_sheets
from meeple.games.monopolis.state import MonopolisState
from meeple.kernel.bot import Bot
from meeple.kernel.protocol import Action, GameState
from meeple.kernel.rng import Rng
from meeple.kernel.search import Option

HORIZON = 1_000
"""Action-phase decisions a rollout plays before it is scored: far more than a game has (a
4-player game takes about 70), so rollouts are scored at the end of the game."""

BUILDS = 3
"""Builds compared besides the standard choice: the best on each of this many cards."""

BUYS = 2
"""Purchases compared besides the standard choice."""

MARGIN_SHARE = 0.2
"""Share of a rollout's score that is the point margin rather than the win."""

MARGIN_SCALE = 10.0
"""Points of margin at which the margin term is about three quarters of its range."""


class BuildPlan(Option):
    """Build on ``plot``: the card now, then pay in ``mode`` and lay a tile worth ``value``."""

    __slots__ = ("mode", "plot", "value")

    def __init__(self, plot: int, mode: int, value: int) -> None:
        super().__init__(act(BUILD_AT, plot))
        self.plot = plot
        self.mode = mode
        self.value = value

    def follow(self, state: GameState) -> Action | None:
        assert isinstance(state, MonopolisState)
        if state.pend_plot != self.plot:
            return None
        if state.phase == PAY:
            return FULL_PAYMENT if self.mode == FULL else act(PAY_PAIR, self.mode)
        if state.phase == TILE_CHOICE and state.pend_mode == self.mode:
            return act(TILE, self.value)
        return None

    def __repr__(self) -> str:
        return f"BuildPlan({self.plot}, {self.mode}, {self.value})"


def build_plans(state: MonopolisState, seat: int, bot: MonopolisStandardBot) -> list[Plan]:
    """The best build on each card ``seat`` can build on, most valuable first."""
    tally = Tally(state, seat, bot.w)
    out: list[Plan] = []
    for plot in range(PLOTS):
        if state.card_at[plot] == EMPTY:
            continue
        best: Plan | None = None
        for mode in pay_modes(state, seat, plot):
            for value in tile_values(state, seat, plot, mode):
                worth = build_worth(state, seat, plot, mode, value, tally, bot.w)
                if best is None or worth > best[0]:
                    best = (worth, plot, mode, value)
        if best is not None:
            out.append(best)
    out.sort(key=lambda p: -p[0])  # stable: equal worth keeps plot order
    return out


def ranked_buys(state: MonopolisState, seat: int, bot: MonopolisStandardBot) -> list[int]:
    """The market places ``seat`` can buy, the standard bot's favourite first."""
    buys = [s for s in range(SLOTS) if market.can_buy(state, seat, s)]
    if not buys:
        return []
    aims = targets(state, seat, Tally(state, seat, bot.w), bot.w)
    now = potential(state.res[seat], state.jokers[seat], aims, bot.w.gap)
    worth = {s: buy_worth(state, seat, s, aims, now, bot.w) for s in buys}
    return sorted(buys, key=lambda s: -worth[s])


class MonopolisSearch:
    """The :class:`~meeple.kernel.search.SearchFamily` of Monopolis."""

    def __init__(self, horizon: int = HORIZON) -> None:
        self.horizon = horizon

    def fallback(self, seed: int) -> Bot:
        return MonopolisStandardBot(seed)

    def rollout_bots(self, state: GameState) -> list[Bot]:
        return [MonopolisStandardBot() for _ in range(state.num_players)]

    def determinize(self, state: GameState, seat: int, rng: Rng) -> None:
        determinize(state, seat, rng)

    def tick(self, action: Action) -> bool:
        return action.kind in (BUY, BUILD_AT)

    def options(self, state: GameState, seat: int, fallback: Bot) -> list[Option] | Action:
        std = fallback.choose(state)
        if (
            not isinstance(state, MonopolisState)
            or not isinstance(fallback, MonopolisStandardBot)
            or state.phase != ACTION
        ):
            return std
        plans = build_plans(state, seat, fallback)
        out: list[Option] = []
        if std.kind == BUILD_AT:
            mine = next(p for p in plans if p[1] == std.args[0])
            out.append(BuildPlan(mine[1], mine[2], mine[3]))
        else:
            out.append(Option(std))
        for _, plot, mode, value in plans[:BUILDS]:
            if std.kind != BUILD_AT or plot != std.args[0]:
                out.append(BuildPlan(plot, mode, value))
        buys = [s for s in ranked_buys(state, seat, fallback) if act(BUY, s) != std][:BUYS]
        out += [Option(act(BUY, s)) for s in buys]
        return out if len(out) > 1 else std

    def evaluate(self, state: GameState, seat: int) -> float:
        assert isinstance(state, MonopolisState)
        result = state.result()
        if result is not None:
            totals = [float(t) for t in result.scores]
            win = 1.0 / len(result.winners) if seat in result.winners else 0.0
        else:  # cut at the horizon: the score sheets as they stand
            totals = [float(sh["total"]) for sh in score_sheets(state)]
            top = max(totals)
            leaders = [p for p in range(state.n) if totals[p] == top]
            win = 1.0 / len(leaders) if seat in leaders else 0.0
        margin = totals[seat] - max(totals[p] for p in range(state.n) if p != seat)
        return (1 - MARGIN_SHARE) * win + MARGIN_SHARE * (1 + math.tanh(margin / MARGIN_SCALE)) / 2
