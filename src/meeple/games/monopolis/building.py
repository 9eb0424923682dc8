"""Building: paying a requirement card, choosing a tile, houses and rewards.

monopolis-rules.txt, "Building (AZ ÉPÍTÉS)" and "The Benefits of Individual Buildings".

A build is a chain of three small choices (each one validated, each one maskable):
``build_at PLOT`` picks a requirement card on the table, ``pay_full`` or ``pay_pair R`` picks
what is paid, and ``tile V`` picks the building. A step is offered only if the chain can be
completed from it, so a chain never dead-ends. Jokers held on the joker track pay whatever the
player's own resources do not cover, and are fixed as those resources at that moment.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.games.monopolis.city import EMPTY, cube_partners, park_adjacent
from meeple.games.monopolis.components import PARK, VALUES, WORKPLACE, RequirementCard
from meeple.kernel.protocol import Event

if TYPE_CHECKING:
    from meeple.games.monopolis.state import MonopolisState

#: A pay mode: ``FULL`` for the whole card, otherwise the index of the paired resource.
FULL = -1
#: Tile values two identical requirements allow: a park or a residential quarter.
PAIR_VALUES: tuple[int, ...] = (1, 2)
#: Money a workplace gives at once ("4. Workplace").
WORKPLACE_MONEY = 2
#: Value index of each tile value, for the tile decks.
VALUE_INDEX: dict[int, int] = {v: i for i, v in enumerate(VALUES)}


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
    return tuple(2 if r == mode else 0 for r in range(size))


def shortfall(have: list[int], needs: tuple[int, ...]) -> int:
    """How many jokers a payment of ``needs`` takes beyond the resources in ``have``."""
    return sum(n - h for n, h in zip(needs, have, strict=True) if n > h)


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
    card = state.comps.card(state.card_at[plot])
    return [v for v in mode_values(card, mode) if value_fits(state, seat, plot, v)]


def pay_modes(state: MonopolisState, seat: int, plot: int) -> list[int]:
    """The payments ``seat`` can make for the card on ``plot`` that lead to a legal tile.

    ``FULL`` first, then each resource the card shows at least twice ("If you fulfil two
    identical requirements of any card (Type I or Type III)"). A Type II card has no pair.
    """
    card = state.comps.card(state.card_at[plot])
    have = state.res[seat]
    jokers = state.jokers[seat]
    out: list[int] = []
    if shortfall(have, card.needs) <= jokers and tile_values(state, seat, plot, FULL):
        out.append(FULL)
    pairs = card.pairs
    if pairs and tile_values(state, seat, plot, pairs[0]):
        for r in pairs:
            if max(0, 2 - have[r]) <= jokers:
                out.append(r)
    return out


def can_build_at(state: MonopolisState, seat: int, plot: int) -> bool:
    """Whether ``build_at plot`` starts a chain ``seat`` can complete."""
    return state.card_at[plot] != EMPTY and bool(pay_modes(state, seat, plot))


def could_ever_build(state: MonopolisState, seat: int) -> bool:
    """Whether ``seat`` could build anywhere given enough resources (the stall check).

    Resources can always be bought again (the market recycles its discards), so only the
    tiles left, the park rule and the houses left can make building impossible for good.
    """
    if houses_left(state, seat) <= 0:
        return False
    for plot, card_id in enumerate(state.card_at):
        if card_id != EMPTY:
            card = state.comps.card(card_id)
            if any(value_fits(state, seat, plot, v) for v in card.full_values):
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
    card = comps.card(state.card_at[plot])
    mine = state.res[seat]
    paid = [0] * len(mine)
    short = 0
    for r, need in enumerate(mode_needs(card, mode, len(mine))):
        use = min(mine[r], need)
        mine[r] -= use
        paid[r] = use
        short += need - use
    state.jokers[seat] -= short

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
    state.money[seat] += money
    state.pend_jokers += jokers

    partners = cube_partners(state.value_at, plot, value)
    for q in partners:
        state.cubes[q] += 1
    state.cubes[plot] += len(partners)
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
