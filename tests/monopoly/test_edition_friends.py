"""Monopoly Friends The TV Series: the statements where the edition differs from classic.

Rulebooks: ``shared/rules/monopoly-friends-rules-a.txt`` (A) and
``shared/rules/monopoly-friends-rules-b.txt`` (B). The classic rules both state are proved on
the classic edition (tests/monopoly/test_*.py); these tests play ``editions/friends.toml``:
its names, its classic values, and its rule options (fresh utility roll, set rent only while
none of the set is mortgaged, auctions from M1, 2-6 players). Expected numbers come from the
rulebooks and the classic values they point to (B, "What is the same?").
"""

from __future__ import annotations

from typing import Any

import pytest

from meeple.games.monopoly import MonopolyState
from meeple.games.monopoly.edition import builtin_edition
from tests.monopoly.helpers import (
    act,
    at,
    build_to,
    deck_index,
    deck_top,
    describe_all,
    dice,
    edition_game,
    event_kinds,
    illegal,
    legal,
    own,
    pass_windows,
    turn_of,
)


def friends(players: int = 4, **rules: Any) -> MonopolyState:
    return edition_game("friends", players, **rules)


def test_friends_names_on_the_board_and_the_decks() -> None:
    """monopoly-friends-rules-b.txt, "What is different?": moments, transport spaces,
    "Utilities are now Treeger's Water Maintenance and Treeger's Electricity Maintenance",
    "Chance and Community Chest cards are called Apartment 19 and Apartment 20", "Houses are now
    called coffee mugs and hotels are sofas"; A, "Central Perk Tab and Lose at Football"; the
    known names (docs/EDITIONS.md, "friends")."""
    ed = builtin_edition("friends")
    names = ed.square_names
    assert names[12] == "Treeger's Electricity Maintenance"
    assert names[28] == "Treeger's Water Maintenance"
    assert names[5] == "Relaxi Taxi"
    assert names[14] == "All the Wedding Dresses"
    assert {names[16], names[18]} == {"All the Thanksgivings", "Ross' Teeth"}
    assert ed.groups[ed.group_of[16]].name == "Orange" == ed.groups[ed.group_of[18]].name
    assert {names[4], names[38]} == {"Lose at American Football", "Central Perk Tab"}
    assert [(d.name, len(d.cards)) for d in ed.decks] == [
        ("Apartment 19", 16),
        ("Apartment 20", 16),
    ]
    assert (ed.names.house, ed.names.hotel, ed.currency) == ("coffee mug", "sofa", "M")


def test_coffee_mugs_and_sofas_in_the_game_log() -> None:
    """monopoly-friends-rules-b.txt, "What is different?": "Houses are now called coffee mugs and
    hotels are sofas" - the engine's houses and hotels are described in those words."""
    s = friends()
    own(s, 0, 37, 39)
    build_to(s, {37: 4, 39: 3})
    lines = describe_all(s, act(s, "build 39"))
    assert lines == ["Player 1 builds on The Last One, Part 2: now 4 coffee mugs."]
    lines = describe_all(s, act(s, "build 37"))
    assert lines == ["Player 1 builds on The Last One, Part 1: now a sofa."]
    lines = describe_all(s, act(s, "sell_building 37"))
    assert lines == ["Player 1 sells a building on The Last One, Part 1: now 4 coffee mugs."]


def test_property_values_are_the_classic_values() -> None:
    """monopoly-friends-rules-b.txt, "What is the same?": "Property cards: all the values are
    the same as the corresponding properties in classic MONOPOLY" - every price, mortgage,
    rent and house cost square by square; spot checks: All the Wedding Dresses (Virginia
    Avenue) M160, rent M12; The Last One, Part 2 (Boardwalk) M400, rents 50 ... 2000."""
    ed, classic = builtin_edition("friends"), builtin_edition("classic")
    assert ed.kind == classic.kind
    for table in ("price", "mortgage", "rent", "house_cost", "tax", "unmortgage_cost"):
        assert getattr(ed, table) == getattr(classic, table), table
    assert ed.price[14] == 160 and ed.rent[14][0] == 12
    assert ed.price[39] == 400 and ed.rent[39] == (50, 200, 600, 1400, 1700, 2000)
    assert ed.price[5] == 200 and ed.price[12] == 150
    r, c = ed.rules, classic.rules
    assert (r.starting_cash, r.go_salary, r.jail_fine, r.houses, r.hotels) == (
        c.starting_cash,
        c.go_salary,
        c.jail_fine,
        c.houses,
        c.hotels,
    )
    assert (r.railroad_rents, r.utility_multipliers) == ((25, 50, 100, 200), (4, 10))


def test_wedding_dresses_rents_as_the_rulebook_examples() -> None:
    """monopoly-friends-rules-a.txt, "Paying Rent": landing on "All the Wedding Dresses" owned
    by another player costs M12; "a monopoly ... M24"; "two coffee mugs on it ... M180"."""
    s = friends()
    own(s, 1, 14)
    at(s, 0, 10)
    dice(s, 1, 3)
    act(s, "roll")
    assert s.cash[0] == 1500 - 12
    s = friends()
    own(s, 1, 11, 13, 14)
    at(s, 0, 10)
    dice(s, 1, 3)
    act(s, "roll")
    assert s.cash[0] == 1500 - 24
    s = friends()
    own(s, 1, 11, 13, 14)
    build_to(s, {11: 2, 13: 2, 14: 2})
    at(s, 0, 10)
    dice(s, 1, 3)
    act(s, "roll")
    assert s.cash[0] == 1500 - 180


def test_utility_rent_is_a_fresh_roll() -> None:
    """monopoly-friends-rules-b.txt, "Utility": "Roll the dice and multiply the result by 4";
    A, "Utility Spaces": "you will roll the die ... They roll a five ... They owe the owner M20"
    (``utility_rent_dice = "fresh"``, docs/RULES.md, "Utility rent dice"). The move's 2 + 3
    does not count; the fresh 4 + 1 = 5 does: M20."""
    s = friends()
    assert s.rules.utility_rent_dice == "fresh"
    own(s, 1, 12)
    at(s, 0, 7)
    dice(s, 2, 3, 4, 1)
    events = act(s, "roll")
    assert s.pos[0] == 12
    assert event_kinds(events).count("roll") == 2
    assert s.cash[0] == 1500 - 20 and s.cash[1] == 1520


def test_utility_rent_on_one_die_is_rulebook_a_to_the_letter() -> None:
    """monopoly-friends-rules-a.txt, "Utility Spaces": "Should you land on an owned utility you
    will roll the die. The number you roll on the die determines how much rent you owe ... They
    roll a five on the die. They owe the owner M20" (rule option ``utility_rent_dice =
    "one_die"``, docs/RULES.md, "Utility rent dice"). The move's 2 + 3 does not count; one die
    is rolled, a 5: M20, and the next scripted face is left for the next roll."""
    s = friends(utility_rent_dice="one_die")
    own(s, 1, 12)
    at(s, 0, 7)
    dice(s, 2, 3, 5, 6)
    events = act(s, "roll")
    assert s.pos[0] == 12
    rolls = [e.data["dice"] for e in events if e.kind == "roll"]
    assert rolls == [[2, 3], [5]]
    assert "Player 1 rolls 5." in describe_all(s, events)
    assert s.cash[0] == 1500 - 20 and s.cash[1] == 1520
    assert s.rng.faces == [6]  # one die, not two


def test_one_die_utility_rent_times_ten_with_both() -> None:
    """monopoly-friends-rules-a.txt, "Utility Spaces": "If the owner owns both utilities, you
    will multiply your roll by ten" - one die showing 6: M60 (the most one die can cost)."""
    s = friends(utility_rent_dice="one_die")
    own(s, 1, 12, 28)
    at(s, 0, 25)
    dice(s, 1, 2, 6)
    act(s, "roll")
    assert s.pos[0] == 28 and s.cash[0] == 1500 - 60


def test_utility_fresh_roll_times_ten_with_both() -> None:
    """monopoly-friends-rules-b.txt, "Utility": "If the owning player owns both utilities,
    multiply the result by 10!" - fresh roll 6 + 5 = 11: M110."""
    s = friends()
    own(s, 1, 12, 28)
    at(s, 0, 25)
    dice(s, 1, 2, 6, 5)
    act(s, "roll")
    assert s.pos[0] == 28 and s.cash[0] == 1500 - 110


def test_set_rent_doubles_only_while_none_is_mortgaged() -> None:
    """monopoly-friends-rules-b.txt, "Moments": "This is doubled if the owner owns all moments
    in its color group and none of them are mortgaged" (The Last One, Part 2: M50, M100 with
    the set, M50 again while Part 1 is mortgaged)."""
    s = friends()
    assert s.rules.set_rent_needs_all_unmortgaged is True
    own(s, 1, 37, 39)
    at(s, 0, 36)
    dice(s, 1, 2)
    act(s, "roll")
    assert s.cash[0] == 1500 - 100
    s = friends()
    own(s, 1, 39)
    own(s, 1, 37, mortgaged=True)
    at(s, 0, 36)
    dice(s, 1, 2)
    act(s, "roll")
    assert s.cash[0] == 1500 - 50


def test_auction_bids_start_at_1() -> None:
    """monopoly-friends-rules-b.txt, "Auction": "Any player can start the bidding for as little
    as M1"; A, "Unowned Moment": "The bidding can start as low as M1"."""
    s = friends()
    dice(s, 1, 2)
    act(s, "roll")  # The Blackout, unowned
    act(s, "decline")
    assert s.decision_name() == "auction"
    assert min(int(a.split()[1]) for a in legal(s) if a.startswith("bid")) == 1
    illegal(s, "bid 0")
    act(s, "bid 1")
    for _ in range(3):
        act(s, "pass")
    assert s.owner[3] == 1 and s.cash[1] == 1499


def test_two_to_six_players() -> None:
    """monopoly-friends-rules-b.txt, "Components": "6 bespoke tokens"; A, "6 Tokens (Dinosaur,
    Guitar, Hat, Pizza, Purse, Shirt)": Friends seats 2 to 6 (classic seats up to 8)."""
    friends(2)
    friends(6)
    with pytest.raises(ValueError, match="2 to 6 players"):
        friends(7)
    with pytest.raises(ValueError):
        friends(1)


def test_apartment_19_card_collects_20_from_the_bank() -> None:
    """monopoly-friends-rules-a.txt, "Apartment 19 and Apartment 20": "The player that drew this
    Apartment 19 card collects M20 from the Bank" (A19-08); the card goes to the bottom."""
    s = friends()
    a19 = deck_index(s, "apartment_19")
    deck_top(s, a19, "A19-08")
    dice(s, 1, 1)
    events = act(s, "roll")
    assert s.cash[0] == 1520
    assert s.ed.decks[a19].cards[s.decks[a19][-1]].id == "A19-08"
    assert any(line.startswith("Player 1 draws Apartment 19:") for line in describe_all(s, events))


def test_transport_rent_by_number_owned() -> None:
    """monopoly-friends-rules-a.txt, "Transport Spaces": "That player also owns another
    transport space so they will owe M50"."""
    s = friends()
    own(s, 1, 5, 15)
    at(s, 0, 2)
    dice(s, 1, 2)
    act(s, "roll")
    assert s.pos[0] == 5 and s.cash[0] == 1450


def test_rent_claims_are_off_by_default() -> None:
    """monopoly-friends-rules-b.txt, "2. Owned property": "the owner must ask you for the rent
    before the player to your left rolls the dice" - the rule option ``rent_claim_required``,
    off in every shipped edition (docs/RULES.md, "Rent claims"); with it on, Friends plays the
    forgetful rule."""
    s = friends()
    assert s.rules.rent_claim_required is False
    s = friends(rent_claim_required=True)
    own(s, 1, 3)
    dice(s, 1, 2)
    act(s, "roll")
    assert s.cash[0] == 1500 and len(s.claims) == 1
    pass_windows(s)
    turn_of(s, 1)
    dice(s, 1, 2)
    act(s, "roll")  # the next roll: the claim is gone
    assert not s.claims and s.cash[0] == 1500


def test_the_standard_bot_reads_a_one_die_utility_at_half_the_rent() -> None:
    """With one die for utility rent the standard bot expects about half the rent of two dice
    (a die averages 3.5, read as 4; two dice 7), in its danger reading and its equity."""
    from meeple.games.monopoly.bots import StandardBot

    one, two = friends(utility_rent_dice="one_die"), friends()
    for s in (one, two):
        own(s, 1, 12)
    assert (one.ed.utility_roll, two.ed.utility_roll) == (4, 7)
    bot = StandardBot()
    rent_one, rent_two = bot.square_rent(one, 12), bot.square_rent(two, 12)
    assert rent_two == 7 * rent_one // 4 and rent_one > 0
