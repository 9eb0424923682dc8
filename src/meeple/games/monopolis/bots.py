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

Why it plays as it does, in words: :mod:`.explain` (asked only by a person, never in ``choose``).
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
    WORKPLACE_MONEY,
    houses_needed,
    mode_needs,
    mode_values,
    value_fits,
)
from meeple.games.monopolis.city import EMPTY, PLOTS, cube_partners
from meeple.games.monopolis.components import PARK, WORKPLACE
from meeple.games.monopolis.market import SLOTS
from meeple.games.monopolis.scoring import COLLECTION_AWARD, PARK_AWARD, board_bonus, majority
from meeple.games.monopolis.state import JOKER_TRACK, MonopolisState
from meeple.kernel.bot import Bot
from meeple.kernel.protocol import Action, GameState


class Weights:
    """The standard bot's weights, in victory points (measured choices: docs/BOTS.md)."""

    def __init__(self) -> None:
        #: A money while the game goes on (5 money are 1 point at the end; money buys cards).
        self.money = 0.3
        #: A joker (a resource of one's choice, from a column or a card).
        self.joker = 0.7
        #: A resource paid for a build.
        self.resource = 0.35
        #: Share of a majority's change counted now (the others still race for it).
        self.majority = 0.5
        #: Weight of another player's gain, against the bot's own (divided among them).
        self.opponent = 1.0
        #: Cost of each house a build uses (houses are the game's clock).
        self.house = 0.5
        #: Build when the best build is worth at least this (before the final round).
        self.threshold = 2.5
        #: A resource still missing for a build in reach, in :func:`potential`.
        self.gap = 1.8
        #: A resource bought that no build in reach needs.
        self.spare = 0.15


STANDARD: Final = Weights()

Plan = tuple[float, int, int, int]
"""(worth, plot, pay mode, tile value)."""


class Tally:
    """The public counts the majorities are decided on, read once per decision: parks built and
    collection icons held per seat ("End of the Game", 3. and 4.)."""

    def __init__(self, state: MonopolisState) -> None:
        n = state.n
        tables = state.tables
        comps = tables.comps
        self.parks = [0] * n
        self.icons: list[list[int]] = [[0] * n for _ in range(len(comps.icons))]
        for plot in range(PLOTS):
            owner = state.owner_at[plot]
            if owner >= 0:
                if state.value_at[plot] == PARK:
                    self.parks[owner] += 1
                for icon in comps.tiles[state.tile_at[plot]].icons:
                    self.icons[icon][owner] += 1
        for seat in range(n):
            for card_id in state.hand[seat]:
                icon = tables.card(card_id).icon
                if icon >= 0:
                    self.icons[icon][seat] += 1


def contest(counts: list[int], seat: int, award_first: bool, w_opp: float) -> float:
    """What one more for ``seat`` in the majority over ``counts`` is worth to it now: its own
    gain less ``w_opp`` times the others' (parks if ``award_first``, else an icon)."""
    award = PARK_AWARD if award_first else COLLECTION_AWARD
    before = majority(counts, award)
    counts[seat] += 1
    after = majority(counts, award)
    counts[seat] -= 1
    worth = 0.0
    for p in range(len(counts)):
        change = after[p] - before[p]
        worth += change if p == seat else -w_opp * change
    return worth


def build_worth(
    state: MonopolisState, seat: int, plot: int, mode: int, value: int, tally: Tally, w: Weights
) -> float:
    """What laying a tile worth ``value`` on ``plot``, paid in ``mode``, adds for ``seat``
    (module docstring), in points."""
    tables = state.tables
    card = tables.card(state.card_at[plot])
    w_opp = w.opponent / (state.n - 1)
    worth = float(value)
    for q in cube_partners(state.value_at, plot, value):
        worth += 1.0  # this tile's cube
        worth += 1.0 if state.owner_at[q] == seat else -w_opp  # the neighbour's
    if value == PARK:
        worth += w.majority * contest(tally.parks, seat, True, w_opp)
    tile = state.tile_decks[VALUE_INDEX[value]][-1]
    for icon in tables.comps.tiles[tile].icons:
        worth += w.majority * contest(tally.icons[icon], seat, False, w_opp)
    if card.icon >= 0:
        worth += w.majority * contest(tally.icons[card.icon], seat, False, w_opp)
    money = card.coins + (WORKPLACE_MONEY if value == WORKPLACE else 0)
    jokers = card.liza
    k = houses_needed(value)
    first = state.houses[seat]
    for h in range(first, first + k):
        col = tables.house_column(state.n, h)
        money += col.money
        jokers += col.jokers
        worth += col.points
    if first + k == state.capacity:
        worth += board_bonus(state.n)
    worth += w.money * money + w.joker * jokers - w.house * k
    # What is paid: own resources first, jokers for the rest (``building.build``).
    have = state.res[seat]
    needs = mode_needs(card, mode, len(have))
    for r in range(len(needs)):
        own = min(have[r], needs[r])
        worth -= w.resource * own + w.joker * (needs[r] - own)
    return worth


def best_build(
    state: MonopolisState, seat: int, plots: list[int], tally: Tally, w: Weights
) -> Plan | None:
    """The most valuable complete build among ``plots`` (ties: first in legal order)."""
    best: Plan | None = None
    for plot in plots:
        for mode in building.pay_modes(state, seat, plot):
            for value in building.tile_values(state, seat, plot, mode):
                worth = build_worth(state, seat, plot, mode, value, tally, w)
                if best is None or worth > best[0]:
                    best = (worth, plot, mode, value)
    return best


Target = tuple[float, tuple[int, ...]]
"""(worth of the best tile, what the payment needs): a build in reach, affordable or not."""


def targets(state: MonopolisState, seat: int, tally: Tally, w: Weights) -> list[Target]:
    """Every payment of every card on the table, with the best tile it would allow now
    (the builds a purchase may bring closer)."""
    out: list[Target] = []
    size = state.tables.size
    for plot in range(PLOTS):
        card_id = state.card_at[plot]
        if card_id == EMPTY:
            continue
        card = state.tables.card(card_id)
        modes = [FULL, *card.pairs]
        for mode in modes:
            best = -1e9
            for value in mode_values(card, mode):
                if value_fits(state, seat, plot, value):
                    best = max(best, build_worth(state, seat, plot, mode, value, tally, w))
            if best > -1e9:
                out.append((best, mode_needs(card, mode, size)))
    return out


def potential(have: list[int], jokers: int, aims: list[Target], gap: float) -> float:
    """The best build in reach: its worth less ``gap`` per resource jokers do not cover."""
    best = 0.0
    for worth, needs in aims:
        short = -jokers
        for r in range(len(needs)):
            if needs[r] > have[r]:
                short += needs[r] - have[r]
        value = worth - gap * max(0, short)
        if value > best:
            best = value
    return best


def buy_worth(
    state: MonopolisState, seat: int, slot: int, aims: list[Target], now: float, w: Weights
) -> float:
    """What buying the card in ``slot`` is worth: the builds it brings closer, its coin, its
    spare resources, less its price."""
    card = state.tables.resource_card(market.slot_card(state, slot))
    have = state.res[seat]
    after = [have[r] + card.gains[r] for r in range(len(have))]
    jokers = min(JOKER_TRACK, state.jokers[seat] + card.liza)
    worth = potential(after, jokers, aims, w.gap) - now
    worth += w.spare * (sum(card.gains) + card.liza)
    return worth + w.money * (card.coins - market.slot_price(state, slot))


def first_max(values: list[float]) -> int:
    """The index of the first largest of ``values`` (``values.index(max(values))``)."""
    best = 0
    for i in range(1, len(values)):
        if values[i] > values[best]:
            best = i
    return best


def wanted(state: MonopolisState, seat: int, tally: Tally, w: Weights) -> int:
    """The resource a joker best becomes: the one that most raises the best build in reach."""
    aims = targets(state, seat, tally, w)
    gains = []
    for r in range(state.tables.size):
        have = state.res[seat][:]
        have[r] += 1
        gains.append(potential(have, state.jokers[seat], aims, w.gap))
    return first_max(gains)


class MonopolisStandardBot(Bot):
    """A sensible heuristic player for Monopolis (``--bots standard``; module docstring)."""

    name = "standard"

    def __init__(self, seed: int = 0, weights: Weights | None = None) -> None:
        super().__init__(seed)
        self.w = weights if weights is not None else STANDARD

    def choose(self, state: GameState) -> Action:
        if isinstance(state, MonopolisState) and state.phase == ACTION:
            return self._choose_action(state, state.current_player())
        legal = state.legal_actions()
        if not isinstance(state, MonopolisState) or len(legal) == 1:
            return legal[0]
        seat = state.current_player()
        w = self.w
        if state.phase == PAY:
            plan = best_build(state, seat, [state.pend_plot], Tally(state), w)
            assert plan is not None
            return FULL_PAYMENT if plan[2] == FULL else act(PAY_PAIR, plan[2])
        if state.phase == TILE_CHOICE:
            tally = Tally(state)
            values = [a.args[0] for a in legal]
            worth = [
                build_worth(state, seat, state.pend_plot, state.pend_mode, v, tally, w)
                for v in values
            ]
            return act(TILE, values[first_max(worth)])
        if state.phase == JOKER_CHOICE:
            if state.jokers[seat] < JOKER_TRACK:
                return HOLD
            return act(JOKER, wanted(state, seat, Tally(state), w))
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
        tally = Tally(state)
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


__all__ = ["STANDARD", "MonopolisStandardBot", "Weights"]
