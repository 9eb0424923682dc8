"""Rent: streets, sets, buildings, transports (railroads) and utilities.

Friends rules A, "Paying Rent", "Transport Spaces", "Utility Spaces"; Friends rules B,
"A property owned by another player". Rents from shared/reference/classic-board.json.
"""

import pytest

from meeple.games.monopoly import new_monopoly
from tests.monopoly.helpers import act, at, build_to, dice, game, own


def land(s, start: int, d1: int, d2: int) -> None:  # type: ignore[no-untyped-def]
    at(s, 0, start)
    dice(s, d1, d2)
    act(s, "roll")


def test_printed_rent_when_the_set_is_not_complete() -> None:
    """Friends rules A, "Paying Rent": "Should the owner not own all of the moments of the
    color, you owe what is printed on the deed card" (Baltic Avenue: 4)."""
    s = game()
    own(s, 1, 3)
    land(s, 0, 1, 2)
    assert s.cash[0] == 1496 and s.cash[1] == 1504


def test_full_set_doubles_the_printed_rent() -> None:
    """Friends rules A, "Paying Rent": "Should the owner have all of the moments of the
    corresponding color, you will owe double what is printed on the deed card" (Baltic: 8)."""
    s = game()
    own(s, 1, 1, 3)
    land(s, 0, 1, 2)
    assert s.cash[0] == 1492 and s.cash[1] == 1508


def test_set_with_a_mortgaged_street_is_not_doubled() -> None:
    """Friends rules B, "Moments": doubled "if the owner owns all moments in its color group and
    none of them are mortgaged" (Boardwalk 50, not 100, with Park Place mortgaged; the rule
    option set_rent_needs_all_unmortgaged = true, as friends.toml sets it)."""
    s = game(set_rent_needs_all_unmortgaged=True)
    own(s, 1, 39)
    own(s, 1, 37, mortgaged=True)
    land(s, 35, 1, 3)
    assert s.cash[0] == 1450


def test_classic_keeps_set_rent_on_the_unmortgaged_street_of_a_mortgaged_set() -> None:
    """The classic rules: double rent on an unimproved street of a whole colour group; "This
    rule applies to unmortgaged properties even if another property in that color-group is
    mortgaged" (shared/reference/classic-board.json, notes): Boardwalk 100 with Park Place
    mortgaged. Frozen II, "Mortgaging Scenes", says the same: "the increased rent level can be
    collected on the unmortgaged scenes in a color set"."""
    for s in (game(), new_monopoly("frozen-ii", 4, 1)):
        assert s.rules.set_rent_needs_all_unmortgaged is False
    s = game()
    own(s, 1, 39)
    own(s, 1, 37, mortgaged=True)
    land(s, 35, 1, 3)
    assert s.cash[0] == 1400


def test_no_rent_on_a_mortgaged_deed() -> None:
    """Friends rules A, "Paying Rent": "If the moment is mortgaged, you do not owe rent"."""
    s = game()
    own(s, 1, 39, mortgaged=True)
    land(s, 35, 1, 3)
    assert s.cash[0] == 1500 and s.cash[1] == 1500


@pytest.mark.parametrize(("level", "rent"), [(1, 200), (2, 600), (3, 1400), (4, 1700), (5, 2000)])
def test_building_rents_boardwalk(level: int, rent: int) -> None:
    """Friends rules A, "Paying Rent": "If coffee mugs or a sofa has been added to the moment,
    you will owe the corresponding amount from the deed card" (Boardwalk: 200/600/1400/1700,
    hotel 2000)."""
    s = game()
    own(s, 1, 37, 39)
    build_to(s, {37: level, 39: level})
    from tests.monopoly.helpers import cash

    cash(s, 0, 3000)
    land(s, 35, 1, 3)
    assert s.cash[0] == 3000 - rent and s.cash[1] == 1500 + rent


def test_friends_example_two_houses_rent_180() -> None:
    """Friends rules A, "Paying Rent" example: a moment with two coffee mugs charges M180 - in
    classic values Virginia Avenue (square 14, the rulebook's "All the Wedding Dresses", base
    rent 12 as in the M12 example; 24 with the set)."""
    s = game()
    own(s, 1, 11, 13, 14)
    build_to(s, {11: 2, 13: 2, 14: 2})
    land(s, 10, 1, 3)
    assert s.cash[0] == 1500 - 180


@pytest.mark.parametrize(("owned", "rent"), [(1, 25), (2, 50), (3, 100), (4, 200)])
def test_transport_rent_by_number_owned(owned: int, rent: int) -> None:
    """Friends rules A, "Transport Spaces": 1 - M25, 2 - M50, 3 - M100, 4 - M200."""
    s = game()
    own(s, 1, *[5, 15, 25, 35][:owned])
    land(s, 2, 1, 2)  # to Reading Railroad
    assert s.cash[0] == 1500 - rent and s.cash[1] == 1500 + rent


def test_transport_count_includes_mortgaged_ones() -> None:
    """Friends rules A, "Transport Spaces": rent "based on how many of the spaces you own" - a
    mortgaged railroad is still owned (docs/RULES.md, Decisions): 3 owned -> 100."""
    s = game()
    own(s, 1, 5, 25)
    own(s, 1, 15, mortgaged=True)
    land(s, 2, 1, 2)
    assert s.cash[0] == 1400


def test_utility_one_owned_dice_times_4() -> None:
    """Friends rules A, "Utility Spaces": "If the owner only owns the utility you landed on, you
    will multiply your roll by four" (a move of 4+5 = 9 -> 36)."""
    s = game()
    own(s, 1, 12)
    land(s, 3, 4, 5)
    assert s.pos[0] == 12
    assert s.cash[0] == 1500 - 36 and s.cash[1] == 1536


def test_utility_both_owned_dice_times_10() -> None:
    """Friends rules A, "Utility Spaces": "If the owner owns both utilities, you will multiply
    your roll by ten" (9 -> 90)."""
    s = game()
    own(s, 1, 12, 28)
    land(s, 3, 4, 5)
    assert s.cash[0] == 1500 - 90


def test_utility_count_includes_a_mortgaged_utility() -> None:
    """Friends rules A, "Utility Spaces": "owns both utilities" - a mortgaged one is still
    owned (docs/RULES.md, Decisions)."""
    s = game()
    own(s, 1, 12)
    own(s, 1, 28, mortgaged=True)
    land(s, 3, 4, 5)
    assert s.cash[0] == 1500 - 90


def test_utility_fresh_roll_option() -> None:
    """Friends rules B, "Utility": "Roll the dice and multiply the result by 4" - with the rule
    option utility_rent_dice = "fresh" the payer rolls again for the rent (move 4+5, fresh roll
    1+2 = 3 -> 12). (Found missing by this test; fixed in commit dad95fa.)"""
    s = game(utility_rent_dice="fresh")
    own(s, 1, 12)
    at(s, 0, 3)
    dice(s, 4, 5, 1, 2)
    act(s, "roll")
    assert s.cash[0] == 1500 - 12


def test_rent_is_paid_to_a_player_even_when_they_are_not_on_turn() -> None:
    """Friends rules B, "Don't Wait for the Dice", "Collect Rent": rent goes to the owner out of
    turn (the default rule option collects it automatically; docs/RULES.md)."""
    s = game(players=3)
    own(s, 2, 39)
    land(s, 35, 1, 3)
    assert s.cash == [1450, 1500, 1550]


@pytest.mark.parametrize(
    "edition", ["classic", "friends", "frozen-ii", "my-first-monopoly-1", "my-first-monopoly-2"]
)
def test_the_rent_table_agrees_with_the_rent_rules(edition: str) -> None:
    """The table the bots read danger from gives what a landing charges (``rent_due`` for a
    roll of 1), on boards met in play with sets, buildings and mortgages (standard bots build,
    random bots mortgage): worked out afresh (``find_rents``) and as the state keeps it after
    every action, only the groups that changed worked out again (``rents_now``)."""
    from meeple.bots.base import RandomBot
    from meeple.games.monopoly import new_monopoly
    from meeple.games.monopoly.bots import StandardBot
    from meeple.games.monopoly.rules import rent

    checked = set()
    for seed in range(6):
        s = new_monopoly(edition, 3, seed, {"max_turns": 300})
        bots = [StandardBot(seed), RandomBot(seed + 1), StandardBot(seed + 2)]
        while not s.is_terminal():
            s.apply(bots[s.current_player()].choose(s))
            table, kept = rent.find_rents(s), rent.rents_now(s)
            for sq in s.ed.properties:
                due = rent.rent_due(s, sq, 1) if s.owner[sq] >= 0 else 0
                assert table[sq] == due == kept[sq], (edition, seed, sq)
                if due:
                    checked.add(due == s.ed.rent[sq][0])
    assert checked == {True, False}  # printed rents and set, building or railroad rents met
