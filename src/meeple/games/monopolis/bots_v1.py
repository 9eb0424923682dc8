"""The first Monopolis ``standard`` bot, kept as the bot kind ``standard-v1`` so that the
present ``standard`` (``bots.py``) can be measured against it (docs/BOTS.md; issue 20: it "almost
never builds workplaces"). Its play is frozen: nothing here changes with the new bot.

The bot values each complete build (card, payment, tile) by the points it brings per
house used: the tile's value, cubes from business / residential neighbours, park and icon
majorities, the card's and the board's rewards, less the resources spent. It builds when that
is worth it, otherwise it buys the resource card that best closes the gap to the cards on the
table for its price. Jokers are held (they are never worse than a fixed resource) until the
track is full. It reads the state only through public data and owns its random stream.
"""

from __future__ import annotations

from typing import Final

from meeple.games.monopolis import building, market
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
from meeple.games.monopolis.building import (
    FULL,
    VALUE_INDEX,
    houses_needed,
    mode_size,
    shortfall,
)
from meeple.games.monopolis.city import EMPTY, PLOTS, cube_partners
from meeple.games.monopolis.components import PARK, SPECIAL
from meeple.games.monopolis.market import SLOTS
from meeple.games.monopolis.state import JOKER_TRACK, MonopolisState
from meeple.kernel.bot import Bot
from meeple.kernel.protocol import Action, GameState

#: Heuristic weights, in victory points.
MONEY_WORTH: Final = 0.25
JOKER_WORTH: Final = 0.6
RESOURCE_COST: Final = 0.35
ICON_WORTH: Final = 0.8
PARK_BONUS: Final = 1.5
#: Build when a build brings at least this many points per house (before the final round).
BUILD_THRESHOLD: Final = 2.0

Plan = tuple[float, int, int, int]
"""(points per house, plot, pay mode, tile value)."""


def build_worth(state: MonopolisState, seat: int, plot: int, mode: int, value: int) -> float:
    """The points a build is worth to ``seat``, divided by the houses it uses."""
    tables = state.tables
    card = tables.card(state.card_at[plot])
    worth = float(value)
    for q in cube_partners(state.value_at, plot, value):
        worth += 2.0 if state.owner_at[q] == seat else 1.0
    if value == PARK:
        worth += PARK_BONUS
    deck = state.tile_decks[VALUE_INDEX[value]]
    worth += ICON_WORTH * tables.tile_icons[deck[-1]]
    if card.icon >= 0:
        worth += ICON_WORTH
    worth += MONEY_WORTH * card.coins + JOKER_WORTH * card.liza
    k = houses_needed(value)
    for h in range(state.houses[seat], state.houses[seat] + k):
        col = tables.house_column(state.n, h)
        worth += MONEY_WORTH * col.money + JOKER_WORTH * col.jokers + col.points
    if value == 4:
        worth += MONEY_WORTH * building.WORKPLACE_MONEY
    worth -= RESOURCE_COST * mode_size(card, mode)
    return worth / k


def best_build(state: MonopolisState, seat: int, plots: list[int]) -> Plan | None:
    """The most valuable complete build among ``plots`` (ties: first in legal order)."""
    best: Plan | None = None
    for plot in plots:
        for mode in building.pay_modes(state, seat, plot):
            for value in building.tile_values(state, seat, plot, mode):
                w = build_worth(state, seat, plot, mode, value)
                if best is None or w > best[0]:
                    best = (w, plot, mode, value)
    return best


def deficits(state: MonopolisState, seat: int) -> list[float]:
    """How much each resource is wanted: the gaps to the three nearest cards on the table."""
    have = state.res[seat]
    # Each card on the table as one number that sorts as (distance, plot) would: nearest
    # first, ties in plot order (a list of ints sorts without a tuple per card).
    nearest: list[int] = []
    for plot in range(PLOTS):
        card_id = state.card_at[plot]
        if card_id != EMPTY:
            card = state.tables.card(card_id)
            distance = shortfall(have, card.needs) - (2 if card.type != 3 else 0)
            nearest.append(distance * PLOTS + plot)
    nearest.sort()
    want = [0.0] * len(have)
    for key in nearest[:3]:
        needs = state.tables.card(state.card_at[key % PLOTS]).needs
        for r in range(len(have)):
            want[r] = want[r] + max(0, needs[r] - have[r])
    return want


def first_max(values: list[float]) -> int:
    """The index of the first largest of ``values`` (``values.index(max(values))``)."""
    best = 0
    for i in range(1, len(values)):
        if values[i] > values[best]:
            best = i
    return best


def buy_worth(state: MonopolisState, seat: int, slot: int, want: list[float]) -> float:
    """What buying the card in ``slot`` is worth: wanted resources, jokers, coins, less price."""
    card = state.tables.resource_card(market.slot_card(state, slot))
    worth = 0.0
    for r, g in enumerate(card.gains):
        worth += min(g, want[r]) * 1.0 + max(0.0, g - want[r]) * 0.3
    worth += card.liza * 1.1 + card.coins * MONEY_WORTH * 2
    return worth - 0.45 * market.slot_price(state, slot)


class MonopolisStandardV1Bot(Bot):
    """The first heuristic player for Monopolis (``--bots standard-v1``)."""

    name = "standard-v1"

    def choose(self, state: GameState) -> Action:
        if isinstance(state, MonopolisState) and state.phase == ACTION:
            return self._choose_action(state, state.current_player())
        legal = state.legal_actions()
        if not isinstance(state, MonopolisState) or len(legal) == 1:
            return legal[0]
        seat = state.current_player()
        if state.phase == PAY:
            plan = best_build(state, seat, [state.pend_plot])
            assert plan is not None
            return FULL_PAYMENT if plan[2] == FULL else act(PAY_PAIR, plan[2])
        if state.phase == TILE_CHOICE:
            values = [a.args[0] for a in legal]
            worth = [build_worth(state, seat, state.pend_plot, state.pend_mode, v) for v in values]
            return act(TILE, values[first_max(worth)])
        if state.phase == JOKER_CHOICE:
            if state.jokers[seat] < JOKER_TRACK:
                return HOLD
            want = deficits(state, seat)
            return act(JOKER, first_max(want))
        return legal[0]

    def _choose_action(self, state: MonopolisState, seat: int) -> Action:
        # The purchases and builds legal_actions() would list, in its order, read from the
        # rules: valuing a build needs its payments anyway (best_build passes over a card
        # nobody can pay), and the state checks the action chosen without the list.
        buys = [s for s in range(SLOTS) if market.can_buy(state, seat, s)]
        plan = best_build(state, seat, [p for p in range(PLOTS) if state.card_at[p] != EMPTY])
        if plan is None and len(buys) == 1:
            return act(BUY, buys[0])  # the one legal action: nothing to choose, nothing drawn
        eager = state.final_round or not buys
        if plan is not None and (eager or plan[0] >= BUILD_THRESHOLD or plan[3] == SPECIAL):
            return act(BUILD_AT, plan[1])
        if buys:
            want = deficits(state, seat)
            worth = [buy_worth(state, seat, s, want) for s in buys]
            top = worth[first_max(worth)]
            ties = [buys[i] for i in range(len(buys)) if worth[i] == top]
            return act(BUY, ties[self.rng.below(len(ties))])
        return PASS  # no purchase and no build


__all__ = ["MonopolisStandardV1Bot"]
