"""The city: dealing new cards, one card per plot, the border, the park rule, cubes."""

from __future__ import annotations

import pytest
from monopolis_helpers import (
    EAST,
    NORTH,
    RES,
    act,
    at,
    clear_cards,
    find_card,
    fresh,
    give_exactly,
    legal_texts,
    place_tile,
    put_card,
    set_resources,
    tools_card,
)

from meeple.games.monopolis.city import EMPTY, NEIGHBOURS, distance, offset_of
from meeple.games.monopolis.state import MonopolisState
from meeple.kernel.errors import IllegalActionError


def pair_card(s: MonopolisState, plot: int) -> None:
    tools_card(s, plot)


def cards_on_table(s: MonopolisState) -> set[int]:
    return {p for p in range(49) if s.card_at[p] != EMPTY}


def test_grid_is_seven_by_seven_around_the_castle() -> None:
    assert offset_of(24) == (0, 0)
    assert {distance(p) for p in range(49)} == {0, 1, 2, 3}
    assert at(3, 3) == 6 and at(-3, -3) == 42
    assert len(NEIGHBOURS[at(3, 0)]) == 3 and len(NEIGHBOURS[at(3, 3)]) == 2


def test_new_cards_are_dealt_after_the_turn_not_before_a_following_purchase() -> None:
    s = fresh(2, seed=31)
    clear_cards(s)
    pair_card(s, NORTH)
    set_resources(s, 0, tools=2)
    for text in (f"build_at {NORTH}", f"pay_pair {RES['tools']}", "tile 2", "joker_hold"):
        act(s, text)
    assert cards_on_table(s) == set()  # nothing dealt yet: the turn may still hold a build
    act(s, "buy 0")
    while s.phase == 3:
        act(s, "joker_hold")
    # The new tile's free, in-border sides each get exactly one card.
    assert cards_on_table(s) == {at(0, 2), at(1, 1), at(-1, 1)}


def test_building_twice_deals_once_after_the_second_build() -> None:
    s = fresh(2, seed=32)
    clear_cards(s)
    pair_card(s, NORTH)
    pair_card(s, EAST)
    set_resources(s, 0, tools=4)
    for text in (f"build_at {NORTH}", f"pay_pair {RES['tools']}", "tile 2", "joker_hold"):
        act(s, text)
    assert cards_on_table(s) == {EAST}
    bag = len(s.bag)
    for text in (f"build_at {EAST}", f"pay_pair {RES['tools']}", "tile 2", "joker_hold"):
        act(s, text)
    # at(1, 1) touches both new tiles but receives a single card.
    dealt = {at(0, 2), at(-1, 1), at(1, 1), at(2, 0), at(1, -1)}
    assert cards_on_table(s) == dealt
    assert len(s.bag) == bag - len(dealt)


def test_no_card_beyond_the_border() -> None:
    s = fresh(2, seed=33)
    clear_cards(s)
    edge = at(3, 0)
    pair_card(s, edge)
    set_resources(s, 0, tools=2)
    for text in (f"build_at {edge}", f"pay_pair {RES['tools']}", "tile 2", "joker_hold"):
        act(s, text)
    act(s, "buy 0")
    while s.phase == 3:
        act(s, "joker_hold")
    # East of a tile 3 tiles from the castle there is no plot: only 3 sides get cards.
    assert cards_on_table(s) == {at(3, 1), at(2, 0), at(3, -1)}


def test_no_park_next_to_a_park() -> None:
    s = fresh(2, seed=34)
    clear_cards(s)
    place_tile(s, NORTH, 1, owner=1)
    pair_card(s, at(0, 2))
    set_resources(s, 0, tools=2)
    act(s, f"build_at {at(0, 2)}")
    act(s, f"pay_pair {RES['tools']}")
    assert legal_texts(s) == ["tile 2"]
    before = s.snapshot()
    with pytest.raises(IllegalActionError, match="next to another park"):
        act(s, "tile 1")
    assert s.snapshot() == before


def test_park_diagonal_to_a_park_is_fine() -> None:
    s = fresh(2, seed=35)
    clear_cards(s)
    place_tile(s, NORTH, 1, owner=1)
    pair_card(s, at(1, 0))
    set_resources(s, 0, tools=2)
    act(s, f"build_at {at(1, 0)}")
    act(s, f"pay_pair {RES['tools']}")
    assert legal_texts(s) == ["tile 1", "tile 2"]


def test_business_and_residential_neighbours_gain_a_cube_each_way() -> None:
    s = fresh(2, seed=36)
    clear_cards(s)
    place_tile(s, NORTH, 2, owner=0)  # residential
    place_tile(s, EAST, 2, owner=1)  # residential of the other player
    place_tile(s, at(1, 2), 1, owner=1)  # a park: no cube
    corner = at(1, 1)
    give_exactly(s, 0, tools_card(s, corner))
    for text in (f"build_at {corner}", "pay_full", "tile 3"):
        act(s, text)
    assert s.cubes[corner] == 2
    assert s.cubes[NORTH] == 1 and s.cubes[EAST] == 1 and s.cubes[at(1, 2)] == 0


def test_residential_next_to_business_vice_versa() -> None:
    s = fresh(2, seed=37)
    clear_cards(s)
    place_tile(s, NORTH, 3, owner=1)
    place_tile(s, at(1, 2), 3, owner=1)
    pair_card(s, at(1, 1))
    set_resources(s, 0, tools=2)
    for text in (f"build_at {at(1, 1)}", f"pay_pair {RES['tools']}", "tile 2"):
        act(s, text)
    assert s.cubes[at(1, 1)] == 2 and s.cubes[NORTH] == 1 and s.cubes[at(1, 2)] == 1


def test_workplace_gives_no_cube() -> None:
    s = fresh(2, seed=38)
    clear_cards(s)
    place_tile(s, NORTH, 3, owner=1)
    put_card(s, at(1, 1), find_card(s, ["wood", "iron", "tools", "workers"], "II", "icon"))
    set_resources(s, 0, wood=1, iron=1, tools=1, workers=1)
    for text in (f"build_at {at(1, 1)}", "pay_full", "tile 4"):
        act(s, text)
    assert s.cubes[at(1, 1)] == 0 and s.cubes[NORTH] == 0
