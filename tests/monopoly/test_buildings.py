"""Houses and hotels: building on full sets, evenly, from the bank's stock; selling back.

Friends rules A, "Build Coffee Mugs and Sofas", "Placing Coffee Mugs", "Placing Sofas",
"Selling Coffee Cups and Sofas"; Friends rules B, "Build" and "Sell Buildings". Costs from
shared/reference/classic-board.json (hotel cost = house cost).
"""

from tests.monopoly.helpers import (
    act,
    build_to,
    cash,
    game,
    illegal,
    kinds,
    legal,
    own,
)


def test_bank_starts_with_32_houses_and_12_hotels() -> None:
    """Friends rules A, "Components": "32 Plastic Coffee Mugs, 12 Plastic Sofas"."""
    s = game()
    assert (s.houses, s.hotels) == (32, 12)


def test_no_building_without_the_whole_set() -> None:
    """Friends rules B, "Build": "When you own all the moments in a color group, you can buy
    coffee mugs" - one brown street is not enough."""
    s = game()
    own(s, 0, 1)
    assert "build" not in kinds(s)
    illegal(s, "build 1")
    own(s, 0, 6, 8, 9)  # another set, so the reason is specific to the square asked for
    assert "do not own every street" in illegal(s, "build 1")


def test_build_a_house_at_the_printed_cost() -> None:
    """Friends rules A, "Placing Coffee Mugs": "The cost for each coffee mug is printed on the
    deed card" (Boardwalk: 200)."""
    s = game()
    own(s, 0, 37, 39)
    act(s, "build 39")
    assert s.level[39] == 1 and s.cash[0] == 1300 and s.houses == 31


def test_no_building_when_a_street_of_the_set_is_mortgaged() -> None:
    """Friends rules A, "Build Coffee Mugs and Sofas": "If any of them are mortgaged, you can't
    purchase coffee mugs or sofas for any of the spaces in the group"."""
    s = game()
    own(s, 0, 37)
    own(s, 0, 39, mortgaged=True)
    assert "build" not in kinds(s)
    own(s, 0, 6, 8, 9)
    assert "build 37" not in legal(s) and "build 6" in legal(s)
    assert "mortgaged" in illegal(s, "build 37")


def test_build_evenly() -> None:
    """Friends rules A, "Placing Coffee Mugs": "you can't place a second coffee mug on a moment
    until the rest of the moments of that color already have one"."""
    s = game()
    own(s, 0, 16, 18, 19)
    act(s, "build 16")
    assert "build 16" not in legal(s)
    assert "evenly" in illegal(s, "build 16")
    act(s, "build 18")
    act(s, "build 19")
    act(s, "build 16")
    assert [s.level[m] for m in (16, 18, 19)] == [2, 1, 1]


def test_friends_example_even_build_needs_the_lagging_street_first() -> None:
    """Friends rules A, "How to play coffee mugs": with 2, 2, 1 mugs on orange, "Before they can
    place a third coffee mug, they need to place a second coffee mug on" the third street."""
    s = game()
    own(s, 0, 16, 18, 19)
    build_to(s, {16: 2, 18: 2, 19: 1})
    assert legal(s) & {"build 16", "build 18", "build 19"} == {"build 19"}


def test_at_most_four_houses_then_a_hotel_that_returns_them() -> None:
    """Friends rules A, "Placing Sofas": "Once you have placed four coffee mugs on all of the
    moments ... you can place a sofa ... you will remove the four coffee mugs"; Friends rules B:
    "a maximum of 4 coffee mugs on a single moment"."""
    s = game()
    own(s, 0, 1, 3)
    build_to(s, {1: 4, 3: 4})
    assert s.houses == 24
    act(s, "build 1")
    assert s.level[1] == 5
    assert s.hotels == 11 and s.houses == 28
    assert s.cash[0] == 1450  # hotel cost 50 on brown


def test_no_more_on_a_hotel() -> None:
    """Friends rules A, "Placing Sofas": "Each moment can only have one sofa"; Friends rules B:
    "cannot build additional coffee mugs on a moment with a sofa"."""
    s = game()
    own(s, 0, 1, 3)
    build_to(s, {1: 5, 3: 5})
    assert "build" not in kinds(s)
    own(s, 0, 6, 8, 9)
    assert "already has a hotel" in illegal(s, "build 1")


def test_building_needs_the_cash() -> None:
    """Friends rules A, "Placing Coffee Mugs": the mug is purchased at its printed cost."""
    s = game()
    own(s, 0, 37, 39)
    cash(s, 0, 199)
    assert "build" not in kinds(s)
    illegal(s, "build 39")
    own(s, 0, 6, 8, 9)  # houses at 50 are affordable: the reason names the cost
    assert "less than the cost 200" in illegal(s, "build 39")


def test_no_houses_left_in_the_bank() -> None:
    """Friends rules A, "Placing Sofas": "If you would like to purchase a coffee mug ... and none
    are available, you have to wait until someone sells one back to the Bank"."""
    s = game()
    own(s, 1, 16, 18, 19, 21, 23, 24, 26, 27, 29)
    build_to(s, {16: 4, 18: 4, 19: 4, 21: 4, 23: 4, 24: 4, 26: 3, 27: 3, 29: 2})
    assert s.houses == 0
    own(s, 0, 1, 3)
    assert "build" not in kinds(s)
    illegal(s, "build 1")


def test_no_hotels_left_in_the_bank() -> None:
    """Friends rules B, "Building shortage?": "If there are no buildings left in the Bank, you
    must wait" - hotels too."""
    s = game()
    twelve = [11, 13, 14, 16, 18, 19, 21, 23, 24, 26, 27, 29]
    own(s, 1, *twelve)
    build_to(s, dict.fromkeys(twelve, 5))
    assert s.hotels == 0
    own(s, 0, 1, 3)
    build_to(s, {1: 4, 3: 4})
    assert "build" not in kinds(s)
    illegal(s, "build 1")


def test_sell_a_house_back_at_half_price() -> None:
    """Friends rules A, "Selling Coffee Cups and Sofas": "sell them back to the Bank at half of
    the price printed on the deed card" (Boardwalk house 200 -> 100)."""
    s = game()
    own(s, 0, 37, 39)
    build_to(s, {37: 1, 39: 1})
    act(s, "sell_building 39")
    assert s.level[39] == 0 and s.cash[0] == 1600 and s.houses == 31


def test_sell_evenly() -> None:
    """Friends rules A, "Selling Coffee Cups and Sofas": "You need to sell the fourth coffee mug
    off each space before you can sell the third coffee mug off a space"."""
    s = game()
    own(s, 0, 16, 18, 19)
    build_to(s, {16: 4, 18: 4, 19: 3})
    assert "sell_building 19" not in legal(s)
    assert {"sell_building 16", "sell_building 18"} <= legal(s)
    illegal(s, "sell_building 19")


def test_sell_a_hotel_turns_back_into_four_houses() -> None:
    """Friends rules A, "Selling Coffee Cups and Sofas": "If you sell a sofa, it will be replaced
    with four coffee mugs"; Friends rules B: "Sofas are sold for half the listed price" (100)."""
    s = game()
    own(s, 0, 37, 39)
    build_to(s, {37: 5, 39: 5})
    houses = s.houses
    act(s, "sell_building 39")
    assert s.level[39] == 4
    assert s.hotels == 11 and s.houses == houses - 4
    assert s.cash[0] == 1600


def test_sell_buildings_out_of_turn_in_a_window() -> None:
    """Friends rules B, "Don't Wait for the Dice", "Sell Buildings": open to every player, out of
    turn (here in seat 1's window)."""
    from tests.monopoly.helpers import at, dice

    s = game(players=2)
    own(s, 1, 1, 3)
    build_to(s, {1: 1, 3: 1})
    at(s, 0, 10)
    dice(s, 4, 6)
    act(s, "roll")
    assert s.current_player() == 1 and s.phase == s.WINDOW
    act(s, "sell_building 1")
    assert s.cash[1] == 1525


def test_build_options_are_exactly_the_streets_can_build_allows() -> None:
    """The list of places to build (worked out a group at a time: the streets at the group's
    lowest level) is every street the single-street rule ``can_build`` allows, for every
    player after every action of games where standard bots build up to hotels and run the
    bank short. Likewise where a building won in a shortage auction may go
    (``place_squares``, the same group-at-a-time shortcut; ``can_place_now`` stops at the
    first group) against the single-street rules: a buildable group, even building, and a
    hotel only on four houses."""
    from meeple.games.monopoly import new_monopoly
    from meeple.games.monopoly.bots import StandardBot
    from meeple.games.monopoly.frames import HOTEL, HOUSE
    from meeple.games.monopoly.rules import anytime, buildings, shortage

    seen = placed = 0
    for seed in range(4):
        s = new_monopoly("classic", 4, seed, {"max_turns": 400})
        bots = [StandardBot(seed * 4 + p) for p in range(4)]
        while not s.is_terminal():
            s.apply(bots[s.current_player()].choose(s))
            for p in range(4):
                streets = [
                    sq
                    for g in s.ed.street_groups
                    for sq in s.ed.groups[g].members
                    if buildings.can_build(s, p, sq)
                ]
                assert anytime.build_options(s, p) == streets, (seed, len(s.history), p)
                seen += bool(streets)
                for item in (HOUSE, HOTEL):
                    spots = [
                        sq
                        for g in s.ed.street_groups
                        if buildings.buildable_group(s, p, g)
                        for sq in s.ed.groups[g].members
                        if buildings.even_build_ok(s, sq) and (s.level[sq] == 4) == (item == HOTEL)
                    ]
                    where = (seed, len(s.history), p, item)
                    assert shortage.place_squares(s, p, item) == spots, where
                    assert shortage.can_place_now(s, p, item) == bool(spots), where
                    placed += item == HOTEL and bool(spots)
    assert seen > 100  # building was possible often
    assert placed > 100  # ... hotels too
