"""Building: paying a requirement card, choosing a tile, houses and rewards.

monopolis-rules.txt, "Building (AZ ÉPÍTÉS)" and "The Benefits of Individual Buildings".

A build is a chain of three small choices (each one validated, each one maskable):
``build_at PLOT`` picks a requirement card on the table, ``pay_full`` or ``pay_pair R`` picks
what is paid, and ``tile V`` picks the building. A step is offered only if the chain can be
completed from it, so a chain never dead-ends. Jokers held on the joker track pay whatever the
player's own resources do not cover, and are fixed as those resources at that moment.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from meeple.games.monopolis.city import EMPTY, cube_partners, park_adjacent
from meeple.games.monopolis.components import PARK, VALUES, WORKPLACE
from meeple.games.monopolis.tables import RequirementCard
from meeple.kernel.protocol import Event

if TYPE_CHECKING:
    from meeple.games.monopolis.state import MonopolisState

#: A pay mode: ``FULL`` for the whole card, otherwise the index of the paired resource.
FULL: Final = -1
#: Tile values two identical requirements allow: a park or a residential quarter.
PAIR_VALUES: Final[tuple[int, ...]] = (1, 2)
#: Money a workplace gives at once ("4. Workplace").
WORKPLACE_MONEY: Final = 2
#: Deck index of each tile value, for the tile decks (``tile_decks[VALUE_INDEX[value]]``):
#: indexed by the value, -1 for a value no deck holds (a tuple: indexing it boxes nothing).
VALUE_INDEX: Final = tuple(VALUES.index(v) if v in VALUES else -1 for v in range(max(VALUES) + 1))


def houses_needed(value: int) -> int:
    """Houses a tile takes: "A building worth 4 points requires 2 houses"."""
    return 2 if value == WORKPLACE else 1


def houses_left(state: MonopolisState, seat: int) -> int:
    """Houses still on ``seat``'s player board."""
    return state.capacity - state.houses[seat]


def mode_needs(card: RequirementCard, mode: int, size: int) -> tuple[int, ...]:
    """What a payment in ``mode`` costs: the whole card, or two of the paired resource."""
    if mode == FULL:
        return card.needs
    return pair_needs(size)[mode]


_PAIR_NEEDS: Final[dict[int, tuple[tuple[int, ...], ...]]] = {}


def pair_needs(size: int) -> tuple[tuple[int, ...], ...]:
    """Per resource ``r`` of ``size``, what paying a pair of ``r`` takes (two of ``r``): made
    once per size (the bot asks for it for every card on the table, every decision)."""
    needs = _PAIR_NEEDS.get(size)
    if needs is None:
        needs = tuple(tuple(2 if r == m else 0 for r in range(size)) for m in range(size))
        _PAIR_NEEDS[size] = needs
    return needs


def mode_size(card: RequirementCard, mode: int) -> int:
    """How many resources a payment in ``mode`` takes (the sum of :func:`mode_needs`)."""
    return card.total if mode == FULL else 2


def shortfall(have: list[int], needs: tuple[int, ...]) -> int:
    """How many jokers a payment of ``needs`` takes beyond the resources in ``have``."""
    short = 0
    for r in range(len(needs)):
        if needs[r] > have[r]:
            short += needs[r] - have[r]
    return short


def mode_values(card: RequirementCard, mode: int) -> tuple[int, ...]:
    """Tile values a payment allows.

    Types I and II paid in full: any building (1, 2, 3, 4, 6); Type III paid in full: 1, 2 or
    3; two identical requirements of any card: a park or a residential quarter (1 or 2).
    """
    return card.full_values if mode == FULL else PAIR_VALUES


def value_fits(state: MonopolisState, seat: int, plot: int, value: int) -> bool:
    """Whether ``seat`` can lay a tile of ``value`` on ``plot`` now (payment aside).

    The deck of that value must not be empty, a park may not touch a park, and the player
    needs enough houses (2 for a workplace).
    """
    if not state.tile_decks[VALUE_INDEX[value]]:
        return False
    if value == PARK and park_adjacent(state.value_at, plot):
        return False
    return houses_left(state, seat) >= houses_needed(value)


def tile_values(state: MonopolisState, seat: int, plot: int, mode: int) -> list[int]:
    """The ``tile V`` choices after paying in ``mode`` for the card on ``plot``."""
    card = state.tables.card(state.card_at[plot])
    out: list[int] = []
    for v in mode_values(card, mode):
        if value_fits(state, seat, plot, v):
            out.append(v)
    return out


def any_tile(state: MonopolisState, seat: int, plot: int, mode: int) -> bool:
    """Whether :func:`tile_values` offers anything (without making the list)."""
    card = state.tables.card(state.card_at[plot])
    for v in mode_values(card, mode):
        if value_fits(state, seat, plot, v):
            return True
    return False


def can_pay_full(state: MonopolisState, seat: int, plot: int) -> bool:
    """Whether ``seat`` can pay the whole card on ``plot`` (jokers cover what their own
    resources do not) and then lay some tile."""
    card = state.tables.card(state.card_at[plot])
    return shortfall(state.res[seat], card.needs) <= state.jokers[seat] and any_tile(
        state, seat, plot, FULL
    )


def can_pay_pair(state: MonopolisState, seat: int, resource: int) -> bool:
    """Whether ``seat`` can pay two of ``resource``, jokers making up the difference."""
    return max(0, 2 - state.res[seat][resource]) <= state.jokers[seat]


def pay_modes(state: MonopolisState, seat: int, plot: int) -> list[int]:
    """The payments ``seat`` can make for the card on ``plot`` that lead to a legal tile.

    ``FULL`` first, then each resource the card shows at least twice ("If you fulfil two
    identical requirements of any card (Type I or Type III)"). A Type II card has no pair.
    """
    out: list[int] = [FULL] if can_pay_full(state, seat, plot) else []
    # Every pair allows the same tiles (a park or a residential quarter): one look serves all.
    pairs = [
        r for r in state.tables.card(state.card_at[plot]).pairs if can_pay_pair(state, seat, r)
    ]
    if pairs and any_tile(state, seat, plot, pairs[0]):
        out.extend(pairs)
    return out


def can_build_at(state: MonopolisState, seat: int, plot: int) -> bool:
    """Whether ``build_at plot`` starts a chain ``seat`` can complete: whether
    :func:`pay_modes` offers a payment (what ``legal_actions`` lists and ``is_legal`` asks),
    without making the list."""
    if state.card_at[plot] == EMPTY:
        return False
    if can_pay_full(state, seat, plot):
        return True
    pairs = [
        r for r in state.tables.card(state.card_at[plot]).pairs if can_pay_pair(state, seat, r)
    ]
    return bool(pairs) and any_tile(state, seat, plot, pairs[0])


def could_ever_build(state: MonopolisState, seat: int) -> bool:
    """Whether ``seat`` could build anywhere given enough resources (the stall check).

    Resources can always be bought again (the market recycles its discards), so only the
    tiles left, the park rule and the houses left can make building impossible for good.
    """
    if houses_left(state, seat) <= 0:
        return False
    for plot in range(len(state.card_at)):
        card_id = state.card_at[plot]
        if card_id != EMPTY:
            for v in state.tables.card(card_id).full_values:
                if value_fits(state, seat, plot, v):
                    return True
    return False


def build(
    state: MonopolisState, seat: int, plot: int, mode: int, value: int, events: list[Event] | None
) -> None:
    """Carry out a validated build: pay, take the card, lay the tile, place houses, reward.

    monopolis-rules.txt, "Building": take the requirement card, lay a matching tile in its
    place, put your next house(s) on it, and receive at once the rewards uncovered on the board
    (column 1: 1 money + 1 resource of your choice; column 2: 2 money; column 3: 1 money, its 2
    points are scored at the end) and the card's coin or Liza. A workplace gives 2 money;
    business and residential neighbours gain a cube each. New cards are dealt at the end of the
    turn (``state.to_deal``), after the last build.
    """
    comps = state.comps
    card = state.tables.card(state.card_at[plot])
    mine = state.res[seat]
    paid = [0] * len(mine)
    short = 0
    for r, need in enumerate(mode_needs(card, mode, len(mine))):
        use = min(mine[r], need)
        mine[r] = mine[r] - use
        paid[r] = use
        short += need - use
    state.jokers[seat] = state.jokers[seat] - short

    state.card_at[plot] = EMPTY
    state.hand[seat].append(card.id)
    tile = state.tile_decks[VALUE_INDEX[value]].pop()
    state.tile_at[plot] = tile
    state.value_at[plot] = value
    state.owner_at[plot] = seat

    k = houses_needed(value)
    first_house = state.houses[seat]
    state.houses_at[plot] = k
    state.houses[seat] = first_house + k
    money = card.coins + (WORKPLACE_MONEY if value == WORKPLACE else 0)
    jokers = card.liza
    for h in range(first_house, first_house + k):
        column = comps.house_column(state.n, h)
        money += column.money
        jokers += column.jokers
    # (``x[i] = x[i] + n``, not ``x[i] += n``: the compiled build does an item's augmented
    # assignment through Python's generic number protocol, an element of a list[int] not.)
    state.money[seat] = state.money[seat] + money
    state.pend_jokers += jokers

    partners = cube_partners(state.value_at, plot, value)
    for q in partners:
        state.cubes[q] = state.cubes[q] + 1
    state.cubes[plot] = state.cubes[plot] + len(partners)
    state.to_deal.append(plot)
    if state.houses[seat] == state.capacity:
        state.final_round = True

    if events is not None:
        events.append(
            Event(
                "build",
                {
                    "seat": seat,
                    "plot": plot,
                    "card": card.id,
                    "mode": mode,
                    "paid": paid,
                    "jokers_used": short,
                    "tile": tile,
                    "value": value,
                    "houses": list(range(first_house + 1, first_house + k + 1)),
                    "money": money,
                    "jokers": jokers,
                    "cubes": partners,
                    "last_house": state.houses[seat] == state.capacity,
                },
            )
        )
