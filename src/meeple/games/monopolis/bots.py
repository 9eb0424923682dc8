"""The Monopolis ``standard`` bot: a heuristic that values every build by what it adds to the
final score, against the other players.

A build (card, payment, tile) is worth (``build_worth``), in victory points:

* the tile's value and its cubes ("3. Business quarter": +1 on each side for every business /
  residential pair), a cube given to another player's tile counting against the bot;
* the change it makes *now* to the park (10 / 5) and collection (4 / 2) majorities, for the bot
  and against the others ("End of the Game", 3. and 4.), at :attr:`Weights.majority` of face
  value because the race goes on;
* the rewards: the board's columns under the houses used (money, a resource of one's choice, 2
  points in the last column), the card's coin or Liza, a workplace's 2 money ("4. Workplace");
* the bonus for the last house (+8 with 2 players, +6 with 3 or 4: "Personal board points");
* less the resources and jokers paid and a cost per house used (:attr:`Weights.house`).

The value is *per build action*, not per house: a workplace takes one action for 4 points and
two columns of rewards, which the first standard bot (``bots_v1.py``, kind ``standard-v1``)
divided by its two houses and so almost never built. A purchase is worth how much closer it
brings the best build in reach (``potential``: the best build's worth less
:attr:`Weights.gap` per resource still missing), plus its coin, less its price. Jokers are held
until the track is full. The bot reads the state only through public data, and its own random
stream breaks ties between equal purchases.

The valuations are :mod:`.valuation`'s, below both this bot and :mod:`.explain`, which says why
it plays as it does, in words (asked only by a person, never in ``choose``).
"""

from __future__ import annotations

from meeple.games.monopolis import market
from meeple.games.monopolis.actions import (
    ACTION,
    BUILD_AT,
    BUY,
    FULL_PAYMENT,
    HOLD,
    JOKER,
    JOKER_CHOICE,
    PASS,
    PAY,
    PAY_PAIR,
    TILE,
    TILE_CHOICE,
    act,
)
from meeple.games.monopolis.building import FULL
from meeple.games.monopolis.city import EMPTY, PLOTS
from meeple.games.monopolis.market import SLOTS
from meeple.games.monopolis.state import MonopolisState
from meeple.games.monopolis.terms import JOKER_TRACK
from meeple.games.monopolis.valuation import (
    STANDARD,
    Plan,
    Tally,
    Target,
    Weights,
    best_build,
    build_worth,
    buy_worth,
    contest,
    first_max,
    paid,
    placings,
    potential,
    targets,
    tile_worth,
    wanted,
)
from meeple.kernel.bot import Bot
from meeple.kernel.protocol import Action, GameState


class MonopolisStandardBot(Bot):
    """A sensible heuristic player for Monopolis (``--bots standard``; module docstring)."""

    name = "standard"

    def __init__(self, seed: int = 0, weights: Weights | None = None) -> None:
        super().__init__(seed)
        self.w = weights if weights is not None else STANDARD
        self._tally: Tally | None = None  # the last one made (Tally.reads: kept until a build)

    def tally(self, state: MonopolisState, seat: int) -> Tally:
        """The majorities for ``seat``'s decision: the last tally while it still reads the
        same board and hands (a build's payment and tile are chosen on the board the build
        was chosen on), else a new one."""
        kept = self._tally
        if kept is None or not kept.reads(state, seat, self.w):
            kept = self._tally = Tally(state, seat, self.w)
        return kept

    def choose(self, state: GameState) -> Action:
        if isinstance(state, MonopolisState) and state.phase == ACTION:
            return self._choose_action(state, state.current_player())
        legal = state.legal_actions()
        if not isinstance(state, MonopolisState) or len(legal) == 1:
            return legal[0]
        seat = state.current_player()
        w = self.w
        if state.phase == PAY:
            plan = best_build(state, seat, [state.pend_plot], self.tally(state, seat), w)
            assert plan is not None
            return FULL_PAYMENT if plan[2] == FULL else act(PAY_PAIR, plan[2])
        if state.phase == TILE_CHOICE:
            tally = self.tally(state, seat)
            values = [a.args[0] for a in legal]
            worth = [
                build_worth(state, seat, state.pend_plot, state.pend_mode, v, tally, w)
                for v in values
            ]
            return act(TILE, values[first_max(worth)])
        if state.phase == JOKER_CHOICE:
            if state.jokers[seat] < JOKER_TRACK:
                return HOLD
            return act(JOKER, wanted(state, seat, self.tally(state, seat), w))
        return legal[0]

    def plan(self, state: MonopolisState, seat: int, tally: Tally) -> tuple[Plan | None, list[int]]:
        """The best build open to ``seat`` now and the market places it can buy."""
        buys = [s for s in range(SLOTS) if market.can_buy(state, seat, s)]
        plots = [p for p in range(PLOTS) if state.card_at[p] != EMPTY]
        return best_build(state, seat, plots, tally, self.w), buys

    def builds_now(self, state: MonopolisState, plan: Plan | None, buys: list[int]) -> bool:
        """Whether the bot builds ``plan`` rather than buying: it is worth the threshold, or
        nothing can be bought, or this is the last round (resources are worth nothing after)."""
        if plan is None:
            return False
        return state.final_round or not buys or plan[0] >= self.w.threshold

    def _choose_action(self, state: MonopolisState, seat: int) -> Action:
        # The purchases and builds legal_actions() would list, in its order, read from the
        # rules: valuing a build needs its payments anyway (best_build passes over a card
        # nobody can pay), and the state checks the action chosen without the list.
        tally = self.tally(state, seat)
        plan, buys = self.plan(state, seat, tally)
        if plan is None and len(buys) == 1:
            return act(BUY, buys[0])  # the one legal action: nothing to choose, nothing drawn
        if plan is not None and self.builds_now(state, plan, buys):
            return act(BUILD_AT, plan[1])
        if buys:
            w = self.w
            aims = targets(state, seat, tally, w)
            now = potential(state.res[seat], state.jokers[seat], aims, w.gap)
            worth = [buy_worth(state, seat, s, aims, now, w) for s in buys]
            top = worth[first_max(worth)]
            ties = [buys[i] for i in range(len(buys)) if worth[i] == top]
            return act(BUY, ties[self.rng.below(len(ties))])
        return PASS  # no purchase and no build

    def explain(self, state: GameState, action: Action) -> str:
        """Why it chose ``action`` (:mod:`.explain`: words, not the hot path)."""
        from meeple.games.monopolis.explain import why

        if not isinstance(state, MonopolisState):
            return ""
        return why(self, state, action)


__all__ = [
    "STANDARD",
    "MonopolisStandardBot",
    "Plan",
    "Tally",
    "Target",
    "Weights",
    "best_build",
    "build_worth",
    "buy_worth",
    "contest",
    "first_max",
    "paid",
    "placings",
    "potential",
    "targets",
    "tile_worth",
    "wanted",
]
