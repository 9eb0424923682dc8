"""How the Monopolis standard bot values a build and a purchase, in victory points: the
:class:`Weights`, the majorities as they stand (:class:`Tally`), a build's worth
(:func:`build_worth`), the best build (:func:`best_build`) and what a purchase brings closer
(:func:`buy_worth`). ``bots.py``'s docstring says what goes into each worth.

Below both the bot (``bots.py``, which chooses by them) and its explanations (``explain.py``,
which says them in words), so neither imports the other to read them. Compiled with the bot
(``meeple.buildinfo``): the bot asks thousands of times a game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from meeple.games.monopolis import building, market
from meeple.games.monopolis.building import (
    FULL,
    PAIR_VALUES,
    VALUE_INDEX,
    WORKPLACE_MONEY,
    houses_needed,
    mode_needs,
    value_fits,
)
from meeple.games.monopolis.city import EMPTY, PLOTS, cube_partners
from meeple.games.monopolis.components import PARK, WORKPLACE
from meeple.games.monopolis.scoring import COLLECTION_AWARD, PARK_AWARD, Award, board_bonus
from meeple.games.monopolis.tables import RequirementCard
from meeple.games.monopolis.terms import JOKER_TRACK

if TYPE_CHECKING:
    from meeple.games.monopolis.state import MonopolisState


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
    """The majorities as they stand, read for a decision of ``seat``: parks built and
    collection icons held per seat ("End of the Game", 3. and 4.), and what one more park or one
    more of each icon is worth to ``seat`` now (:func:`contest`). It depends only on the tiles
    on the board, who built them and the cards in hand (:meth:`reads`), which change only when
    someone builds: the bot keeps it from one decision to the next until then."""

    def __init__(self, state: MonopolisState, seat: int, w: Weights) -> None:
        n = state.n
        tables = state.tables
        self.seat, self.w, self.tables = seat, w, tables
        # What it was read from (copies: the state's lists change in place).
        self.owner_at, self.tile_at = state.owner_at[:], state.tile_at[:]
        self.hand = [h[:] for h in state.hand]
        # (Counts go up as ``x[i] = x[i] + 1``: the compiled build does ``x[i] += 1`` on a
        # list[int] through Python's generic number protocol, a call per count.)
        parks = self.parks = [0] * n
        icons: list[list[int]] = [[0] * n for _ in range(tables.icon_count)]
        self.icons = icons
        for plot in range(PLOTS):
            owner = state.owner_at[plot]
            if owner >= 0:
                if state.value_at[plot] == PARK:
                    parks[owner] = parks[owner] + 1
                for icon in tables.tile_icon_ids[state.tile_at[plot]]:
                    counts = icons[icon]
                    counts[owner] = counts[owner] + 1
        for p in range(n):
            for card_id in state.hand[p]:
                icon = tables.card(card_id).icon
                if icon >= 0:
                    counts = icons[icon]
                    counts[p] = counts[p] + 1
        w_opp = w.opponent / (n - 1)
        self.park_worth = w.majority * contest(self.parks, seat, True, w_opp)
        self.icon_worth = [w.majority * contest(c, seat, False, w_opp) for c in self.icons]

    def reads(self, state: MonopolisState, seat: int, w: Weights) -> bool:
        """Whether this tally is the one ``Tally(state, seat, w)`` would make: the same seat
        and weights, and the same tiles, builders and hands (a tile's value comes with it).
        (List comparisons, made in C: a few hundred instructions against a tally's
        thousands.)"""
        return (
            seat == self.seat
            and w is self.w
            and state.tables is self.tables
            and state.tile_at == self.tile_at
            and state.owner_at == self.owner_at
            and state.hand == self.hand
        )


def contest(counts: list[int], seat: int, parks: bool, w_opp: float) -> float:
    """What one more for ``seat`` in the majority over ``counts`` is worth to it now: its own
    gain less ``w_opp`` times the others' (the park award if ``parks``, else an icon's)."""
    award = PARK_AWARD if parks else COLLECTION_AWARD
    before = placings(counts, award)
    counts[seat] = counts[seat] + 1
    after = placings(counts, award)
    counts[seat] = counts[seat] - 1
    worth = 0.0
    for p in range(len(counts)):
        change = float(after[p] - before[p])  # (a float either way: no boxed sum)
        worth += change if p == seat else -w_opp * change
    return worth


def placings(counts: list[int], award: Award) -> list[int]:
    """``scoring.majority(counts, award)`` in plain loops: the bot asks thousands of times a
    game, the final scoring once."""
    top = runner = leaders = seconds = 0
    for c in counts:
        if c > top:
            runner, top, leaders = top, c, 1
        elif c == top:
            leaders += 1
        elif c > runner:
            runner = c
    out = [0] * len(counts)
    if top <= 0:
        return out
    if leaders > 1:  # a tie for first place: "the lower placings are not scored"
        for p in range(len(counts)):
            if counts[p] == top:
                out[p] = award.tied_first
        return out
    if runner > 0:
        for c in counts:
            if c == runner:
                seconds += 1
    for p in range(len(counts)):
        c = counts[p]
        if c == top:
            out[p] = award.first
        elif runner > 0 and c == runner:
            out[p] = award.second if seconds == 1 else award.tied_second
    return out


def build_worth(
    state: MonopolisState, seat: int, plot: int, mode: int, value: int, tally: Tally, w: Weights
) -> float:
    """What laying a tile worth ``value`` on ``plot``, paid in ``mode``, adds for ``seat``
    (module docstring), in points."""
    card = state.tables.card(state.card_at[plot])
    return tile_worth(state, seat, plot, value, tally, w) - paid(state, seat, card, mode, w)


def tile_worth(
    state: MonopolisState, seat: int, plot: int, value: int, tally: Tally, w: Weights
) -> float:
    """What a tile worth ``value`` on ``plot`` brings ``seat``, the payment aside."""
    tables = state.tables
    card = tables.card(state.card_at[plot])
    w_opp = w.opponent / (state.n - 1)  # (Tally's weights of the majorities use the same)
    worth = float(value)
    for q in cube_partners(state.value_at, plot, value):
        worth += 1.0  # this tile's cube
        worth += 1.0 if state.owner_at[q] == seat else -w_opp  # the neighbour's
    if value == PARK:
        worth += tally.park_worth
    for icon in tables.tile_icon_ids[state.tile_decks[VALUE_INDEX[value]][-1]]:
        worth += tally.icon_worth[icon]
    if card.icon >= 0:
        worth += tally.icon_worth[card.icon]
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
    return worth + w.money * money + w.joker * jokers - w.house * k


def paid(state: MonopolisState, seat: int, card: RequirementCard, mode: int, w: Weights) -> float:
    """What paying ``card`` in ``mode`` costs ``seat``: its own resources first, jokers for the
    rest (``building.build``)."""
    have = state.res[seat]
    cost = 0.0
    if mode == FULL:
        needs = card.needs
        for r in range(len(needs)):
            own = min(have[r], needs[r])
            cost += w.resource * own + w.joker * (needs[r] - own)
        return cost
    own = min(have[mode], 2)
    return w.resource * own + w.joker * (2 - own)


def best_build(
    state: MonopolisState, seat: int, plots: list[int], tally: Tally, w: Weights
) -> Plan | None:
    """The most valuable complete build among ``plots`` (ties: first in legal order)."""
    best: Plan | None = None
    for plot in plots:
        card = state.tables.card(state.card_at[plot])
        for mode in building.pay_modes(state, seat, plot):
            cost = paid(state, seat, card, mode, w)  # (build_worth's payment, once a mode)
            for value in building.tile_values(state, seat, plot, mode):
                worth = tile_worth(state, seat, plot, value, tally, w) - cost
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
        # Each tile once: a pair allows a park or a residential quarter, which the whole card
        # allows too (``building.mode_values``).
        best_any = best_pair = -1e9
        for value in card.full_values:
            if value_fits(state, seat, plot, value):
                worth = tile_worth(state, seat, plot, value, tally, w)
                best_any = max(best_any, worth)
                if value in PAIR_VALUES:
                    best_pair = max(best_pair, worth)
        if best_any > -1e9:
            out.append((best_any - paid(state, seat, card, FULL, w), card.needs))
        if best_pair > -1e9:
            for r in card.pairs:
                out.append((best_pair - paid(state, seat, card, r, w), mode_needs(card, r, size)))
    return out


def potential(have: list[int], jokers: int, aims: list[Target], gap: float) -> float:
    """The best build in reach: its worth less ``gap`` per resource jokers do not cover."""
    best = 0.0
    for worth, needs in aims:
        short = -jokers
        for r in range(len(needs)):
            need = needs[r]  # (each read once: a read of a tuple or list item unboxes it)
            own = have[r]
            if need > own:
                short += need - own
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
        have[r] = have[r] + 1
        gains.append(potential(have, state.jokers[seat], aims, w.gap))
    return first_max(gains)
