"""The bank's limited stock: building auctions, and selling a hotel when houses are short.

The classic rules, "BUILDING SHORTAGES": "If there are a limited number of houses and hotels
available and two or more players wish to buy more than the Bank has, the houses or hotels must
be sold at auction to the highest bidder"; Friends rules A, "Placing Sofas": "If two or more
players want to purchase a coffee mug/sofa and there aren't enough for everyone, you will
auction them off. Whoever bids the most pays the Bank what they bid"; Friends rules B, "Building
shortage?" ("If buildings are limited and two or more players wish to buy them, the Banker must
auction them off"); Friends rules A, "Selling Coffee Cups and Sofas" (a sold sofa becomes four
mugs) - and what happens when the bank lacks them. What a player "wishes to buy" is what they
could pay for and place now (docs/RULES.md, "Building shortage").
"""

from tests.monopoly.helpers import (
    DARK_BLUE,
    act,
    build_to,
    cash,
    game,
    illegal,
    kinds,
    legal,
    own,
)


def one_house_left():  # type: ignore[no-untyped-def]
    """Seat 0 owns brown, seat 1 light blue (both unbuilt); seat 2 holds 31 houses and could
    still place one on Marvin Gardens; the bank has 1 house."""
    s = game()
    own(s, 0, 1, 3)
    own(s, 1, 6, 8, 9)
    own(s, 2, 37, 39, 31, 32, 34, 26, 27, 29)
    build_to(s, {37: 4, 39: 4, 31: 4, 32: 4, 34: 4, 26: 4, 27: 4, 29: 3})
    assert s.houses == 1
    return s


def test_several_want_the_last_house_it_is_auctioned() -> None:
    """Friends rules A, "Placing Sofas": the last mug goes to auction when two or more players
    want it; the winner pays the bid to the bank and places it where building is legal."""
    s = one_house_left()
    act(s, "build 1")
    assert s.decision_name() == "shortage" and s.current_player() == 1
    assert kinds(s) == {"want_building", "no_building"}
    act(s, "want_building")  # seat 1
    assert s.current_player() == 2
    act(s, "no_building")  # seat 2
    assert s.decision_name() == "auction"
    assert s.stack[-1].active == [0, 1]  # the requester first, then those who want one
    act(s, "bid 10")  # seat 0
    act(s, "bid 20")  # seat 1
    act(s, "pass")  # seat 0
    assert s.decision_name() == "place" and s.current_player() == 1
    assert legal(s) == {"place_building 6", "place_building 8", "place_building 9"}
    act(s, "place_building 8")
    assert s.level[8] == 1 and s.houses == 0
    assert s.cash[1] == 1480 and s.cash[0] == 1500 and s.level[1] == 0
    assert s.current_player() == 0 and s.phase == s.PRE_ROLL


def test_nobody_else_wants_it_the_requester_buys_at_list_price() -> None:
    """Friends rules B, "Building shortage?": the auction is only for when "two or more players
    wish to buy them"; otherwise the house is bought at its price (50)."""
    s = one_house_left()
    act(s, "build 1")
    act(s, "no_building")
    act(s, "no_building")
    assert s.level[1] == 1 and s.cash[0] == 1450 and s.houses == 0
    assert "build" not in kinds(s)


def test_enough_stock_no_shortage_question() -> None:
    """Friends rules B, "Building shortage?": with enough buildings for everyone who could build
    (8 + 12 places, 32 houses) nobody is asked."""
    s = game()
    own(s, 0, 1, 3)
    own(s, 1, 6, 8, 9)
    act(s, "build 1")
    assert not s.stack and s.level[1] == 1


def test_limited_means_more_wished_than_the_bank_has() -> None:
    """The classic rules: "two or more players wish to buy more than the Bank has". 5 houses
    left; seat 0 could pay for 8 on brown, seat 1 for 12 on light blue, seat 3 for the 4 dark
    blue lacks: 24 wished, so seats 1 and 3 are asked."""
    s = game()
    own(s, 0, 1, 3)
    own(s, 1, 6, 8, 9)
    own(s, 2, 31, 32, 34, 26, 27, 29)
    build_to(s, {31: 4, 32: 4, 34: 4, 26: 4, 27: 4, 29: 3})
    assert s.houses == 9
    own(s, 3, 37, 39)
    build_to(s, {37: 2, 39: 2})
    assert s.houses == 5
    act(s, "build 1")
    assert s.decision_name() == "shortage"
    assert s.stack[-1].asking == [1, 2, 3]  # (seat 2: the one house Ventnor Avenue lacks)


def nine_houses_left(cash0: int, cash1: int):  # type: ignore[no-untyped-def]
    """Seat 0 owns brown, seat 1 light blue (both unbuilt, with ``cash0`` and ``cash1``);
    seat 2's green and yellow lack one house (Ventnor Avenue); the bank has 9 houses, fewer
    than the 8 + 12 + 1 the three have room for."""
    s = game()
    own(s, 0, 1, 3)
    own(s, 1, 6, 8, 9)
    own(s, 2, 31, 32, 34, 26, 27, 29)
    build_to(s, {31: 4, 32: 4, 34: 4, 26: 4, 27: 4, 29: 3})
    cash(s, 0, cash0)
    cash(s, 1, cash1)
    assert s.houses == 9
    return s


def test_stock_below_the_room_but_not_below_the_wishes_asks_nobody() -> None:
    """The classic rules' "wish to buy more than the Bank has": seat 0 can pay for 4 houses
    ($200), seat 1 for 2 ($100), seat 2 for the 1 it has room for: 7 wished, 9 in the bank, so
    nobody is asked and the house is bought at its price (the old reading, stock below the
    room of everyone who may build, asked seats 1 and 2)."""
    s = nine_houses_left(200, 100)
    act(s, "build 1")
    assert not s.stack and s.level[1] == 1 and s.houses == 8 and s.cash[0] == 150


def test_two_who_can_wish_for_more_than_the_bank_has_are_asked() -> None:
    """The same board with $1,500 each: 8 + 12 + 1 wished, 9 in the bank: a shortage, and the
    others who wish for one are asked in turn order."""
    s = nine_houses_left(1500, 1500)
    act(s, "build 1")
    assert s.decision_name() == "shortage" and s.stack[-1].asking == [1, 2]


def test_a_player_who_cannot_pay_for_a_building_is_not_asked() -> None:
    """Seat 1 has $40, less than a light blue house ($50): it wishes for none, so only seat 2
    is asked (8 + 1 wished by the two against 5 houses); the old reading asked anyone with cash
    for the opening bid."""
    s = nine_houses_left(1500, 40)
    own(s, 3, 37, 39)
    build_to(s, {37: 2, 39: 2})
    cash(s, 3, 0)
    assert s.houses == 5
    act(s, "build 1")
    assert s.decision_name() == "shortage" and s.stack[-1].asking == [2]


def test_nobody_else_wishing_for_one_means_no_shortage() -> None:
    """One house left, but seat 1 (light blue) has $10: the requester is the only player who
    wishes to buy one, so there is no auction ("two or more players")."""
    s = one_house_left()
    cash(s, 1, 10)
    cash(s, 2, 100)  # (seat 2's last spot, Marvin Gardens, costs $150)
    act(s, "build 1")
    assert not s.stack and s.level[1] == 1 and s.houses == 0


def test_what_a_player_wishes_for_is_what_it_can_pay_for_cheapest_first() -> None:
    """``wished``: houses up to four on every street of a buildable group, the cheapest first
    while the cash lasts; hotels only where the group stands at four houses."""
    from meeple.games.monopoly.frames import HOTEL, HOUSE
    from meeple.games.monopoly.rules.shortage import wished

    s = game()
    own(s, 0, 1, 3, 37, 39)  # brown ($50 a house) and dark blue ($200)
    cash(s, 0, 700)  # 8 brown houses ($400), then one dark blue house ($200)
    assert wished(s, 0, HOUSE) == 9 and wished(s, 1, HOUSE) == 0
    build_to(s, {1: 4, 3: 4, 37: 4, 39: 3})
    assert wished(s, 0, HOUSE) == 1 and wished(s, 0, HOTEL) == 2  # (brown's two hotels)
    cash(s, 0, 99)
    assert wished(s, 0, HOTEL) == 1
    own(s, 0, 3, mortgaged=True)
    assert wished(s, 0, HOTEL) == 0  # (brown has a mortgage: no building)


def test_last_hotel_auction() -> None:
    """Friends rules A, "Placing Sofas": the auction covers sofas too. One hotel left; seats 0
    (brown at 4 houses) and 1 (light blue at 4) both want it; seat 1 wins and its 4 houses go
    back to the bank."""
    s = game()
    eleven = [11, 13, 14, 16, 18, 19, 21, 23, 24, 37, 39]
    own(s, 3, *eleven)
    build_to(s, dict.fromkeys(eleven, 5))
    own(s, 0, 1, 3)
    own(s, 1, 6, 8, 9)
    build_to(s, {1: 4, 3: 4, 6: 4, 8: 4, 9: 4})
    assert s.hotels == 1 and s.houses == 12
    act(s, "build 1")
    act(s, "want_building")
    act(s, "pass")  # seat 0 drops out of the auction at once
    act(s, "bid 1")  # seat 1
    act(s, "place_building 6")
    assert s.level[6] == 5 and s.hotels == 0 and s.houses == 16
    assert s.cash[1] == 1499


def test_a_bot_bids_for_a_building_what_it_is_worth_where_it_would_go() -> None:
    """The standard bot bids up to one and a half times the price of a house where it would
    put it: $75 for a brown house, not $300 (one and a half times the dearest house on the
    board, which it used to bid for any house: docs/BOTS.md)."""
    from meeple.games.monopoly.bots import StandardBot

    s = one_house_left()
    act(s, "build 1")
    act(s, "want_building")  # seat 1
    act(s, "no_building")  # seat 2
    bot = StandardBot(1)
    bid = bot.choose(s)
    assert bid.kind == "bid" and bid.args[0] <= 75
    act(s, str(bid))
    act(s, "bid 76")  # seat 1
    assert str(bot.choose(s)) == "pass"


def test_sell_hotel_when_the_bank_lacks_four_houses() -> None:
    """Friends rules A, "Selling Coffee Cups and Sofas" ("it will be replaced with four coffee
    mugs") when the bank has only 3 houses: the hotel comes down to the 3 houses the bank has
    and the fourth is sold too (docs/RULES.md, Decisions): half of 2 x 200 = 200."""
    s = game()
    own(s, 0, 37, 39)
    own(s, 1, 31, 32, 34, 26, 27, 29, 6, 8, 9)
    build_to(s, {31: 4, 32: 4, 34: 4, 26: 4, 27: 4, 29: 4, 6: 1})
    build_to(s, {37: 4, 39: 5})
    assert s.houses == 3
    act(s, "sell_building 39")
    assert s.level[39] == 3 and s.level[37] == 4
    assert s.houses == 0 and s.hotels == 12
    assert s.cash[0] == 1700


def test_hotels_with_no_houses_in_the_bank_sell_the_whole_group() -> None:
    """Friends rules A, "Selling Coffee Cups and Sofas" with an empty bank: no single hotel can
    come down evenly, so the whole group's buildings are sold at once (docs/RULES.md,
    Decisions): 2 hotels = 2 x 5 x 200 / 2 = 1000."""
    s = game()
    own(s, 0, 37, 39)
    own(s, 1, 31, 32, 34, 26, 27, 29, 21, 23, 24)
    build_to(s, {31: 4, 32: 4, 34: 4, 26: 4, 27: 4, 29: 4, 21: 3, 23: 3, 24: 2})
    build_to(s, {37: 5, 39: 5})
    assert s.houses == 0
    assert "sell_building" not in kinds(s)
    illegal(s, "sell_building 39")
    assert f"sell_group {DARK_BLUE}" in legal(s)
    act(s, f"sell_group {DARK_BLUE}")
    assert s.level[37] == s.level[39] == 0
    assert s.hotels == 12 and s.houses == 0
    assert s.cash[0] == 2500


def test_sell_group_not_offered_when_a_single_sale_is_possible() -> None:
    """docs/RULES.md, Decisions: selling a whole group at once is only for the hotel deadlock;
    otherwise buildings are sold one at a time, evenly."""
    s = game()
    own(s, 0, 37, 39)
    build_to(s, {37: 5, 39: 5})
    assert "sell_group" not in kinds(s)
