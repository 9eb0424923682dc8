"""Building (AZ ÉPÍTÉS) and the benefits of each building: payment, jokers, houses, rewards."""

from __future__ import annotations

import pytest
from monopolis_helpers import (
    NORTH,
    RES,
    act,
    clear_cards,
    find_card,
    fresh,
    give_exactly,
    legal_texts,
    put_card,
    set_resources,
    tools_card,
)

from meeple.games.monopolis.state import MonopolisState
from meeple.kernel.errors import IllegalActionError


def north_card(players: int = 2, reward: str = "none") -> MonopolisState:
    """Seat 0 faces one Type III card showing two tools north of the castle, and can pay it."""
    s = fresh(players, seed=21)
    clear_cards(s)
    give_exactly(s, 0, tools_card(s, NORTH, reward))
    return s


def big_card(players: int = 2) -> MonopolisState:
    """Seat 0 faces one Type II card (with a collection icon) north of the castle."""
    s = fresh(players, seed=22)
    clear_cards(s)
    put_card(s, NORTH, find_card(s, ["wood", "iron", "tools", "workers"], "II", "icon"))
    return s


def build(s: MonopolisState, plot: int, pay: str, value: int) -> None:
    act(s, f"build_at {plot}")
    act(s, pay)
    act(s, f"tile {value}")


def test_jokers_pay_what_resources_do_not_and_are_fixed_then() -> None:
    s = north_card()
    set_resources(s, 0, tools=1)  # one of the three: two jokers pay the rest
    s.jokers[0] = 2
    assert f"build_at {NORTH}" in legal_texts(s)
    build(s, NORTH, "pay_full", 3)
    assert s.res[0] == [0, 0, 0, 0] and s.jokers[0] == 0


def test_own_resources_are_spent_before_jokers() -> None:
    s = north_card()
    s.jokers[0] = 1
    s._legal = None
    build(s, NORTH, "pay_full", 2)
    assert s.jokers[0] == 1 and s.res[0] == [0, 0, 0, 0]


def test_a_card_you_cannot_pay_cannot_be_chosen() -> None:
    s = north_card()
    s.res[0][RES["tools"]] -= 1
    assert f"build_at {NORTH}" not in legal_texts(s)
    before = s.snapshot()
    with pytest.raises(IllegalActionError, match="cannot pay"):
        act(s, f"build_at {NORTH}")
    with pytest.raises(IllegalActionError, match="no requirement card"):
        act(s, "build_at 0")
    assert s.snapshot() == before


def test_building_takes_the_card_lays_the_top_tile_and_places_the_next_house() -> None:
    s = north_card()
    card = s.card_at[NORTH]
    top = s.tile_decks[2][-1]
    build(s, NORTH, "pay_full", 3)
    assert s.hand[0] == [card]
    assert s.card_at[NORTH] == -1
    assert (s.tile_at[NORTH], s.value_at[NORTH], s.owner_at[NORTH]) == (top, 3, 0)
    assert s.houses_at[NORTH] == 1 and s.houses[0] == 1


@pytest.mark.parametrize(
    ("used", "money", "jokers"),
    [(0, 1, 1), (2, 1, 1), (3, 2, 0), (5, 2, 0), (6, 1, 0), (8, 1, 0)],
)
def test_house_column_rewards_three_players(used: int, money: int, jokers: int) -> None:
    # 9 spaces in 3 columns of 3: houses 1-3 give 1 money + 1 resource of your choice,
    # 4-6 give 2 money, 7-9 give 1 money (and 2 points at the end).
    s = north_card(players=3)
    s.houses[0] = used
    build(s, NORTH, "pay_full", 2)
    assert s.money[0] == 5 + money
    assert s.pend_jokers == jokers
    assert s.phase == (3 if jokers else 0)


def test_column_joker_reward_is_a_resource_of_choice_usable_at_once() -> None:
    s = north_card()
    build(s, NORTH, "pay_full", 2)
    assert legal_texts(s) == ["joker 0", "joker 1", "joker 2", "joker 3", "joker_hold"]
    act(s, "joker 1")
    assert s.res[0] == [0, 1, 0, 0] and s.actions_done == 1


@pytest.mark.parametrize(("reward", "money", "jokers"), [("coins", 1, 1), ("liza", 0, 2)])
def test_card_coin_or_liza_reward(reward: str, money: int, jokers: int) -> None:
    s = north_card(reward=reward)
    build(s, NORTH, "pay_full", 1)
    # Column 1 of the board: 1 money + 1 joker, plus the card's own reward.
    assert s.money[0] == 5 + 1 + money
    assert s.pend_jokers == jokers


def test_collection_icon_card_goes_to_hand() -> None:
    s = north_card(reward="icon")
    card = s.card_at[NORTH]
    build(s, NORTH, "pay_full", 1)
    assert s.hand[0] == [card] and s.comps.card(card).icon >= 0


def test_workplace_takes_two_houses_and_gives_two_money() -> None:
    s = big_card()
    set_resources(s, 0, wood=1, iron=1, tools=1, workers=1)
    build(s, NORTH, "pay_full", 4)
    assert s.houses[0] == 2 and s.houses_at[NORTH] == 2
    # 2 money for the workplace, and two uncovered first-column spaces: 2 x (1 money + 1 joker).
    assert s.money[0] == 5 + 2 + 2 and s.pend_jokers == 2


def test_workplace_needs_two_houses_left() -> None:
    s = big_card()
    set_resources(s, 0, wood=1, iron=1, tools=1, workers=1)
    s.houses[0] = s.capacity - 1
    act(s, f"build_at {NORTH}")
    act(s, "pay_full")
    assert legal_texts(s) == ["tile 1", "tile 2", "tile 3", "tile 6"]
    with pytest.raises(IllegalActionError, match="needs 2 houses"):
        act(s, "tile 4")


def test_no_house_left_no_build() -> None:
    s = big_card()
    set_resources(s, 0, wood=1, iron=1, tools=1, workers=1)
    s.houses[0] = s.capacity
    assert f"build_at {NORTH}" not in legal_texts(s)


def test_an_exhausted_value_cannot_be_chosen() -> None:
    s = big_card()
    set_resources(s, 0, wood=1, iron=1, tools=1, workers=1)
    s.tile_decks[4] = []
    act(s, f"build_at {NORTH}")
    act(s, "pay_full")
    assert legal_texts(s) == ["tile 1", "tile 2", "tile 3", "tile 4"]
    with pytest.raises(IllegalActionError, match="no tiles worth 6"):
        act(s, "tile 6")


def test_tile_outside_the_payment_is_rejected_with_reason() -> None:
    s = north_card()
    act(s, f"build_at {NORTH}")
    act(s, f"pay_pair {RES['tools']}")
    before = s.snapshot()
    with pytest.raises(IllegalActionError, match="allows tiles worth 1, 2"):
        act(s, "tile 3")
    assert s.snapshot() == before


def test_rewards_can_be_used_in_the_same_turn() -> None:
    s = north_card()
    s.money[0] = 0
    build(s, NORTH, "pay_full", 2)
    act(s, "joker_hold")
    assert s.money[0] == 1 and "buy 0" in legal_texts(s)
