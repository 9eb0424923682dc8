"""Purchasing (A VÁSÁRLÁS): prices, payment, gains, Liza jokers, the slide-left refill."""

from __future__ import annotations

import pytest
from monopolis_helpers import act, clear_cards, fresh, legal_texts, set_resources

from meeple.games.monopolis import market
from meeple.games.monopolis.state import MonopolisState
from meeple.kernel.errors import IllegalActionError


def card_with(state: MonopolisState, deck: int, liza: int = 0, coins: int = 0) -> int:
    for c in state.comps.resource_cards:
        if c is not None and c.deck == deck and c.liza == liza and c.coins == coins:
            return c.id
    raise AssertionError("no such card")


def stage(state: MonopolisState, slot: int, card: int) -> None:
    """Put resource card ``card`` into market place ``slot`` (swapping it with its place)."""
    row, pos = divmod(slot, 3)
    for pile in (state.res_decks[row], state.discards[row], state.market[row]):
        if card in pile:
            i = pile.index(card)
            pile[i] = state.market[row][pos]
            break
    state.market[row][pos] = card
    state._legal = None


def test_prices_are_1_1_2_and_3_3_4() -> None:
    s = fresh(2)
    assert [market.slot_price(s, slot) for slot in range(6)] == [1, 1, 2, 3, 3, 4]


def test_purchase_pays_gains_discards_and_slides_left() -> None:
    s = fresh(2, seed=8)
    clear_cards(s)  # no build possible: the only actions are purchases
    row = list(s.market[0])
    top = s.res_decks[0][-1]
    gains = s.comps.resource_card(row[0]).gains
    res0 = list(s.res[0])
    act(s, "buy 0")
    while s.phase == 3:  # a joker card: hold it
        act(s, "joker_hold")
    assert s.money[0] == 5 - 1
    assert s.res[0] == [a + b for a, b in zip(res0, gains, strict=True)]
    # The remaining cards slide left (prices change) and the new card goes to the dearest place.
    assert s.market[0] == [row[1], row[2], top]
    assert s.discards[0] == [row[0]]


def test_second_purchase_chooses_from_the_refilled_row() -> None:
    s = fresh(2, seed=9)
    clear_cards(s)
    stage(s, 0, card_with(s, 0))
    act(s, "buy 0")
    refilled = list(s.market[0])
    act(s, "buy 2")  # the freshly drawn card, now costing 2
    while s.phase == 3:
        act(s, "joker_hold")
    assert s.discards[0][-1] == refilled[2]
    assert s.money[0] == 5 - 1 - 2
    assert s.turn_player == 1


def test_right_row_refills_only_itself() -> None:
    s = fresh(2, seed=10)
    clear_cards(s)
    left = list(s.market[0])
    right = list(s.market[1])
    act(s, "buy 4")
    while s.phase == 3:
        act(s, "joker_hold")
    assert s.market[0] == left
    assert s.market[1][:2] == [right[0], right[2]]
    assert s.money[0] == 5 - 3 + s.comps.resource_card(right[1]).coins


def test_cannot_choose_a_card_you_cannot_pay() -> None:
    s = fresh(2, seed=4)
    clear_cards(s)
    s.money[0] = 2
    s._legal = None
    assert legal_texts(s) == ["buy 0", "buy 1", "buy 2"]
    before = s.snapshot()
    with pytest.raises(
        IllegalActionError,
        match=r"the right row's 1st card \(place 3\) costs 3 money and you have 2",
    ):
        act(s, "buy 3")
    assert s.snapshot() == before


def test_liza_joker_decide_now_or_hold_at_most_three() -> None:
    s = fresh(2, seed=12)
    clear_cards(s)
    stage(s, 0, card_with(s, 0, liza=1))
    act(s, "buy 0")
    assert s.phase == 3 and s.pend_jokers == 1
    assert legal_texts(s) == ["joker 0", "joker 1", "joker 2", "joker 3", "joker_hold"]
    tools = s.res[0][2]
    act(s, "joker 2")
    assert s.jokers[0] == 0 and s.res[0][2] == tools + 1
    # With three jokers held, a new joker must be decided at once.
    s = fresh(2, seed=12)
    clear_cards(s)
    s.jokers[0] = 3
    stage(s, 0, card_with(s, 0, liza=1))
    act(s, "buy 0")
    assert "joker_hold" not in legal_texts(s)
    with pytest.raises(IllegalActionError, match="already holds 3"):
        act(s, "joker_hold")


def test_holding_moves_the_joker_track() -> None:
    s = fresh(2, seed=13)
    clear_cards(s)
    stage(s, 0, card_with(s, 0, liza=1))
    act(s, "buy 0")
    act(s, "joker_hold")
    assert s.jokers[0] == 1 and s.phase == 0 and s.actions_done == 1


def test_coin_on_a_resource_card_is_paid_at_once() -> None:
    s = fresh(2, seed=14)
    clear_cards(s)
    coin = card_with(s, 1, coins=1)
    stage(s, 3, coin)
    set_resources(s, 0)
    act(s, "buy 3")
    assert s.money[0] == 5 - 3 + 1
    assert sum(s.res[0]) == sum(s.comps.resource_card(coin).gains)


def test_an_empty_deck_is_refilled_from_its_discards() -> None:
    s = fresh(2, seed=15)
    clear_cards(s)
    s.discards[0] = s.res_decks[0]
    s.res_decks[0] = []
    s.money[0] = 10
    act(s, "buy 0")
    assert len(s.market[0]) == 3
    assert len(s.res_decks[0]) + len(s.discards[0]) == 17
