"""My First Monopoly, Level 2: every statement of the Level 2 rules.

Rulebook: ``shared/rules/my-first-monopoly-rules.txt`` (the "Level 2" sections). Edition data:
``editions/my-first-monopoly-2.toml`` (designed board, docs/EDITIONS.md, "my-first-monopoly-2"):
the Level 1 shape (GO 0, Time Out 6, Free Parking 12, Go to Time Out 18, Chance 3/9/15/21);
deeds in colour pairs with rent = price: brown 1-2 and light blue 4-5 (Ice Cream Shop, Donut
Shop) $1, pink 7-8 and orange 10-11 $2, red 13-14 and yellow 16-17 $3, green 19-20 $4, dark
blue 22-23 $5; rent doubled with the pair. One die: ``dice(s, 4)`` scripts one roll of 4.
"""

from __future__ import annotations

from typing import Any

from meeple.bots.base import RandomBot
from meeple.games.monopoly import MonopolyState, new_monopoly
from meeple.kernel.rng import derive_seed
from tests.monopoly.helpers import (
    act,
    at,
    cash,
    deck_top,
    describe_all,
    dice,
    edition_game,
    event_kinds,
    jail,
    kinds,
    legal,
    own,
    turn_of,
)

L2 = "my-first-monopoly-2"
CHANCE = 0
TIME_OUT = 6
ICE_CREAM, DONUT = 4, 5
PROPERTIES = (1, 2, 4, 5, 7, 8, 10, 11, 13, 14, 16, 17, 19, 20, 22, 23)


def level2(players: int = 4, **rules: Any) -> MonopolyState:
    return edition_game(L2, players, **rules)


def test_fifteen_dollars_each_one_die() -> None:
    """my-first-monopoly-rules.txt, "Level 2 Set Up": "give each player 10 x $1 bills and 1 x
    $5 bill. Total = $15"; one die; 12 sold signs each; 16 Title Deeds."""
    s = level2()
    assert s.cash == [15, 15, 15, 15] and s.rules.dice == 1
    assert s.rules.max_properties_per_player == 12
    assert sorted(s.ed.properties) == list(PROPERTIES)
    dice(s, 6)
    act(s, "roll")
    assert s.pos[0] == TIME_OUT and not s.in_jail[0] and s.turn == 1


def test_title_deeds_ice_cream_shop_and_donut_shop() -> None:
    """my-first-monopoly-rules.txt, "Level 2 The Board Spaces": "the Ice Cream Shop and the
    Donut Shop. Each shows Rent $1 and Rent with color set $2". The data file prints rent [1]
    and the edition doubles it with the set (``set_rent_multiplier = 2``)."""
    s = level2()
    ed = s.ed
    assert (ed.square_names[ICE_CREAM], ed.square_names[DONUT]) == ("Ice Cream Shop", "Donut Shop")
    assert ed.group_of[ICE_CREAM] == ed.group_of[DONUT]
    assert ed.rent[ICE_CREAM][0] == ed.rent[DONUT][0] == 1 and s.rules.set_rent_multiplier == 2
    own(s, 1, DONUT)
    dice(s, 5)
    act(s, "roll")
    assert s.cash[0] == 14 and s.cash[1] == 16
    s = level2()
    own(s, 1, ICE_CREAM, DONUT)
    dice(s, 5)
    act(s, "roll")
    assert s.cash[0] == 13 and s.cash[1] == 17


def test_rent_is_the_amount_on_the_space_doubled_with_the_set() -> None:
    """my-first-monopoly-rules.txt, "Owned Properties": "pay that player the amount shown on the
    space"; "If you own both properties of the same color, collect two times the rent" (the
    designed rents: rent = price, docs/EDITIONS.md; Movie Theater $5, $10 with Aquarium)."""
    s = level2()
    for sq in PROPERTIES:
        assert s.ed.rent[sq][0] == s.ed.price[sq]
    own(s, 1, 23)
    at(s, 0, 19)
    dice(s, 4)
    act(s, "roll")
    assert s.cash[0] == 10
    s = level2()
    own(s, 1, 22, 23)
    at(s, 0, 19)
    dice(s, 4)
    act(s, "roll")
    assert s.cash[0] == 5 and s.cash[1] == 25


def test_an_unowned_property_must_be_bought() -> None:
    """my-first-monopoly-rules.txt, "Level 2 The Board Spaces": "When you land on an unowned
    property, you must buy it! Pay the Bank the amount shown on the space ... Take that space's
    Title Deed card" - no decision."""
    s = level2()
    at(s, 0, 6)
    dice(s, 4)
    events = act(s, "roll")
    assert s.owner[10] == 0 and s.cash[0] == 13
    assert "Player 1 buys Pizza Parlour for $2." in describe_all(s, events)
    assert not {"buy", "decline"} & kinds(s)


def test_go_pays_two() -> None:
    """my-first-monopoly-rules.txt, "Level 2 ... GO": "When you pass or land on the GO space,
    collect $2 from the Bank"."""
    s = level2()
    at(s, 0, 20)
    dice(s, 4)
    act(s, "roll")
    assert s.pos[0] == 0 and s.cash[0] == 17


def test_time_out_pay_one_dollar_then_roll() -> None:
    """my-first-monopoly-rules.txt, "Level 2 Time Out": "use a Get out of Time Out Free card if
    you have one or pay $1. Then roll the die and take your turn"; "Go to Time Out": no $2, the
    turn is over."""
    s = level2()
    at(s, 0, 14)
    dice(s, 4)
    act(s, "roll")
    assert s.in_jail[0] and s.pos[0] == TIME_OUT and s.cash[0] == 15 and s.turn == 1
    s = level2()
    jail(s, 0)
    assert legal(s) == {"pay_fine"}
    act(s, "pay_fine")
    assert s.cash[0] == 14 and legal(s) == {"roll"}


def test_time_out_with_a_card_and_no_money_uses_the_card() -> None:
    """my-first-monopoly-rules.txt, "Level 2 Time Out": a player with a Get out of Time Out Free
    card is not stuck (only "don't have enough money to ... get out of Time Out" bankrupts)."""
    s = level2()
    deck_top(s, CHANCE, "L2-19")
    dice(s, 3)
    act(s, "roll")  # seat 0 keeps the card
    jail(s, 0)
    turn_of(s, 0)
    cash(s, 0, 0)
    assert legal(s) == {"use_card 0"}
    act(s, "use_card 0")
    assert not s.in_jail[0] and not s.over


# -- Owing money: bankrupt, and the game ends ------------------------------------------------


def test_cannot_pay_for_a_property_bankrupt_and_the_game_ends() -> None:
    """my-first-monopoly-rules.txt, "Level 2 Owing Money": "Any time you don't have enough money
    to buy a property ... you're bankrupt! Then the games ends!"; "Level 2 The End of the Game":
    "all other players count up their cash. The player with the most cash wins!" The bankrupt
    player ranks last."""
    s = level2(3)
    cash(s, 0, 4)
    cash(s, 1, 20)
    at(s, 0, 17)
    dice(s, 5)
    events = act(s, "roll")  # Aquarium, $5, with $4
    assert s.owner[22] == -1 and s.cash[0] == 4
    assert s.over and s.end_reason == "bankruptcy" and s.bankrupt_seat == 0
    assert "Player 1 is bankrupt to the bank." in describe_all(s, events)
    result = s.result()
    assert result is not None
    assert result.end_reason == "bankruptcy"
    assert result.winners == [1] and result.ranking == [1, 2, 0]


def test_cannot_pay_rent_bankrupt_and_the_game_ends() -> None:
    """my-first-monopoly-rules.txt, "Level 2 Owing Money": "don't have enough money to ... pay
    rent, ... you're bankrupt! Then the games ends!" Nothing is paid (docs/RULES.md, "Level 2:
    bankruptcy ends the game")."""
    s = level2(3)
    own(s, 2, 22, 23)
    cash(s, 0, 9)
    at(s, 0, 19)
    dice(s, 4)
    events = act(s, "roll")  # Movie Theater with the set: $10
    assert s.over and s.end_reason == "bankruptcy"
    assert s.cash == [9, 15, 15]
    assert "Player 1 is bankrupt to Player 3." in describe_all(s, events)
    result = s.result()
    assert result is not None
    # Seats 1 and 2 tie on $15; seat 2 has more properties.
    assert result.winners == [2] and result.ranking == [2, 1, 0]


def test_cannot_pay_for_a_chance_card_bankrupt() -> None:
    """my-first-monopoly-rules.txt, "Level 2 Owing Money": "don't have enough money to ... pay
    for a Chance card ... you're bankrupt!" (L2-16 "Pay $2 to the Bank" with $1)."""
    s = level2()
    deck_top(s, CHANCE, "L2-16")
    cash(s, 0, 1)
    dice(s, 3)
    act(s, "roll")
    assert s.over and s.end_reason == "bankruptcy" and s.bankrupt_seat == 0
    assert s.cash[0] == 1


def test_cannot_pay_each_player_bankrupt_without_paying_anyone() -> None:
    """my-first-monopoly-rules.txt, "Level 2 Owing Money": "Any time you don't have enough money
    to ... pay for a Chance card, you're bankrupt!" L2-17 "Pay each player $1" costs $3 with
    four players; with $1 the drawer cannot pay for the card, so is bankrupt and pays nobody:
    the others keep $15 each and share the win."""
    s = level2()
    deck_top(s, CHANCE, "L2-17")
    cash(s, 0, 1)
    dice(s, 3)
    act(s, "roll")
    assert s.over and s.end_reason == "bankruptcy" and s.bankrupt_seat == 0
    assert s.cash == [1, 15, 15, 15]
    result = s.result()
    assert result is not None and result.winners == [1, 2, 3]


def test_birthday_card_a_player_who_cannot_pay_is_bankrupt() -> None:
    """my-first-monopoly-rules.txt, "Level 2 Owing Money": each other player owes the drawer $1
    (L2-18 "Collect $1 from each player"); they pay in seat order from the drawer's left, and
    the first who cannot is bankrupt and the game ends (docs/RULES.md, "Level 2: bankruptcy
    ends the game")."""
    s = level2()
    deck_top(s, CHANCE, "L2-18")
    cash(s, 2, 0)
    dice(s, 3)
    act(s, "roll")
    assert s.over and s.end_reason == "bankruptcy" and s.bankrupt_seat == 2
    assert s.cash == [16, 14, 0, 15]
    result = s.result()
    assert result is not None and result.ranking == [0, 3, 1, 2]


def test_cannot_get_out_of_time_out_bankrupt() -> None:
    """my-first-monopoly-rules.txt, "Level 2 Owing Money": "don't have enough money to ... get
    out of Time Out, you're bankrupt!" - chosen over "Level 2 Time Out"'s copied song rule
    (docs/RULES.md, "Level 2: Time Out with no money and no card")."""
    s = level2(2)
    assert s.rules.time_out_broke == "insolvent"
    at(s, 0, 14)
    cash(s, 0, 0)
    dice(s, 4)
    act(s, "roll")  # Go to Time Out
    dice(s, 6)
    events = act(s, "roll")  # seat 1; seat 0's turn begins in Time Out with $0 and no card
    assert s.over and s.end_reason == "bankruptcy" and s.bankrupt_seat == 0
    assert "sings" not in event_kinds(events)
    result = s.result()
    assert result is not None and result.ranking == [1, 0]


def test_most_cash_wins_ties_by_most_properties() -> None:
    """my-first-monopoly-rules.txt, "Level 2 The End of the Game": "The player with the most
    cash wins! If there is a tie, the tied player with the most properties wins!" Seat 0 cannot
    pay $1 for L2-15 and is bankrupt; seat 1 ($20, no deed) beats seats 2 and 3 ($15 each);
    seat 2 (two deeds) beats seat 3 (one). Equal in cash and deeds, the tied players share the
    win (docs/RULES.md, "Ties at the end")."""
    s = level2(4)
    own(s, 2, 1, 2)
    own(s, 3, 4)
    cash(s, 1, 20)
    cash(s, 0, 0)
    deck_top(s, CHANCE, "L2-15")
    dice(s, 3)
    act(s, "roll")
    result = s.result()
    assert result is not None and result.end_reason == "bankruptcy"
    assert result.ranking == [1, 2, 3, 0] and result.winners == [1]
    assert result.scores == [0.0, 20.0, 15.0, 15.0]
    s = level2(3)
    own(s, 1, 1)
    own(s, 2, 4)
    cash(s, 0, 0)
    deck_top(s, CHANCE, "L2-15")
    dice(s, 3)
    act(s, "roll")
    result = s.result()
    assert result is not None and result.winners == [1, 2] and result.ranking == [1, 2, 0]


def test_a_thirteenth_deed_stays_unsold_not_bankrupt() -> None:
    """my-first-monopoly-rules.txt, "Level 2 Set Up": "12 matching sold signs": a player with
    12 deeds cannot buy another; it stays unsold, which is not a bankruptcy (the player has the
    money; docs/RULES.md, "Sold signs")."""
    s = level2()
    twelve = [sq for sq in PROPERTIES if sq != 4][:12]
    own(s, 0, *twelve)
    dice(s, 4)
    events = act(s, "roll")
    assert s.owner[4] == -1 and not s.over and "cannot_buy" in event_kinds(events)


def test_no_auctions_buildings_mortgages_or_trades() -> None:
    """my-first-monopoly-rules.txt, "Level 2": no auctions, buildings, mortgages or trading."""
    r = level2().rules
    assert not (r.auctions or r.buildings or r.mortgages or r.trading) and r.must_buy
    offered: set[str] = set()
    for seed in range(20):
        s = new_monopoly(L2, 2 + seed % 5, seed)
        bots = [RandomBot(derive_seed(seed, p)) for p in range(s.n)]
        while not s.is_terminal():
            offered |= {a.kind for a in s.legal_actions()}
            s.apply(bots[s.current_player()].choose(s))
    assert offered <= {"roll", "pay_fine", "use_card"}


GAMES = 2000


def test_level_2_always_ends_at_the_first_bankruptcy() -> None:
    """my-first-monopoly-rules.txt, "Level 2 How to Win": "The game ends when one player goes
    bankrupt." 2,000 seeded random games of 2-6 players (cap 5,000 player-turns, never reached)
    all end by ``bankruptcy``, with the bankrupt player ranked last. Shown empirically, not
    proved (docs/RULES.md, "The kids' levels always end")."""
    for i in range(GAMES):
        seed = derive_seed(32, i)
        players = 2 + i % 5
        s = new_monopoly(L2, players, seed, {"max_turns": 5000})
        s.record_events = False
        bots = [RandomBot(derive_seed(seed, p)) for p in range(players)]
        while not s.is_terminal():
            s.apply(bots[s.current_player()].choose(s))
        assert s.end_reason == "bankruptcy", (i, s.end_reason)
        result = s.result()
        assert result is not None and result.ranking[-1] == s.bankrupt_seat
