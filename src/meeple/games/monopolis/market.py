"""Purchasing: the 3 + 3 face-up resource cards, their prices, the slide-left refill.

monopolis-rules.txt, "Purchasing (A VÁSÁRLÁS)". The left (yellow) row costs 1, 1 and 2; the
right (orange) row costs 3, 3 and 4. Slots are numbered 0-2 (left row, cheapest first) and 3-5
(right row). After a purchase the row's remaining cards slide left and the new card goes to the
most expensive place, before any second purchase of the turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from meeple.kernel.protocol import Event

if TYPE_CHECKING:
    from meeple.games.monopolis.state import MonopolisState

ROW: Final = 3
SLOTS: Final = 2 * ROW


def slot_price(state: MonopolisState, slot: int) -> int:
    """The price printed above market place ``slot`` ("The left-hand cards cost 1, 1 and 2")."""
    return state.tables.prices[slot]


def slot_card(state: MonopolisState, slot: int) -> int:
    """The resource card id in place ``slot``, or -1 if the place is empty."""
    row = state.market[slot // ROW]
    pos = slot % ROW
    return row[pos] if pos < len(row) else -1


def can_buy(state: MonopolisState, seat: int, slot: int) -> bool:
    """Whether ``seat`` may buy ``slot``: a card is there and they can pay its price.

    "If you cannot pay for a card, you cannot choose that card, nor the purchase action itself."
    """
    return slot_card(state, slot) >= 0 and state.money[seat] >= slot_price(state, slot)


def draw_resource_card(state: MonopolisState, deck: int, events: list[Event] | None) -> int:
    """The top card of resource deck ``deck``; an empty deck is refilled from its discards.

    The rulebook does not say what happens when a deck runs out; reshuffling its discard pile
    (a decision, docs/MONOPOLIS.md) keeps the market full. Returns -1 only if both are empty.
    """
    pile = state.res_decks[deck]
    if not pile:
        discards = state.discards[deck]
        if not discards:
            return -1
        pile.extend(discards)
        discards.clear()
        state.rng.shuffle(pile)
        if events is not None:
            events.append(Event("reshuffle", {"deck": deck}))
    return pile.pop()


def deal_market(state: MonopolisState) -> None:
    """Setup: 3 face-up cards from each resource deck ("Setup", second bullet)."""
    for deck in (0, 1):
        state.market[deck] = [draw_resource_card(state, deck, None) for _ in range(ROW)]


def starting_stock(state: MonopolisState) -> None:
    """Setup: each player draws from the left deck, redrawing past jokers, and gains 2 resources.

    "If you draw a joker card, discard it and keep drawing until a card showing 2 resource
    icons comes up. Afterwards, shuffle the cards back into their deck."
    """
    pile = state.res_decks[0]
    drawn: list[int] = []
    for seat in range(state.n):
        while True:
            card = state.tables.resource_card(pile.pop())
            drawn.append(card.id)
            if card.liza == 0 and sum(card.gains) == 2:
                break
        mine = state.res[seat]
        for r, g in enumerate(card.gains):
            mine[r] = mine[r] + g  # (not +=: building.build says why)
    pile.extend(drawn)
    state.rng.shuffle(pile)


def buy(state: MonopolisState, seat: int, slot: int, events: list[Event] | None) -> None:
    """Buy the card in ``slot`` (legality already checked): pay, gain, discard, refill.

    The card's resources go onto the tracks, its coin (if any) into the money track, and each
    Liza icon becomes a pending joker for the owner to decide or hold (state.pend_jokers).
    """
    row_index, pos = divmod(slot, ROW)
    row = state.market[row_index]
    price = slot_price(state, slot)
    card = state.tables.resource_card(row.pop(pos))
    state.money[seat] = state.money[seat] + card.coins - price
    mine = state.res[seat]
    for r, g in enumerate(card.gains):
        mine[r] = mine[r] + g
    state.pend_jokers += card.liza
    state.discards[row_index].append(card.id)
    if events is not None:
        events.append(
            Event(
                "buy",
                {
                    "seat": seat,
                    "slot": slot,
                    "card": card.id,
                    "price": price,
                    "gains": list(card.gains),
                    "liza": card.liza,
                    "coins": card.coins,
                    "money": card.coins - price,
                },
            )
        )
    new = draw_resource_card(state, row_index, events)
    if new >= 0:
        row.append(new)
        if events is not None:
            events.append(Event("refill", {"row": row_index, "card": new}))
