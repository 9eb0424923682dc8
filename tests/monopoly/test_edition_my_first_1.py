"""My First Monopoly, Level 1: every statement of the Level 1 rules.

Rulebook: ``shared/rules/my-first-monopoly-rules.txt`` ("Choosing a Level" and the "Level 1"
sections). Edition data: ``editions/my-first-monopoly-1.toml`` (designed board, docs/EDITIONS.md,
"my-first-monopoly-1"): 24 squares; GO 0, Time Out / Just Visiting 6, Free Parking 12, Go to
Time Out 18; Chance 3, 9, 15, 21; properties in colour pairs on 1-2, 4-5, 7-8, 10-11, 13-14,
16-17, 19-20, 22-23, each $1 with rent $1. One die: ``dice(s, 4)`` scripts one roll of 4.
"""

from __future__ import annotations

from typing import Any

import pytest

from meeple.bots.base import RandomBot
from meeple.games.monopoly import MonopolyState, new_monopoly
from meeple.games.monopoly.audit import audit
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

L1 = "my-first-monopoly-1"
CHANCE = 0
TIME_OUT, GO_TO_TIME_OUT, FREE_PARKING = 6, 18, 12
PROPERTIES = (1, 2, 4, 5, 7, 8, 10, 11, 13, 14, 16, 17, 19, 20, 22, 23)
NEVER = {
    "buy",
    "decline",
    "bid",
    "build",
    "sell_building",
    "sell_group",
    "mortgage",
    "unmortgage",
    "trade",
    "lift_mortgage",
    "keep_mortgage",
    "want_building",
    "no_building",
    "place_building",
    "claim_rent",
}


def level1(players: int = 4, **rules: Any) -> MonopolyState:
    return edition_game(L1, players, **rules)


# -- Components, setup, the turn -------------------------------------------------------------


def test_ten_dollars_each_one_die_everyone_on_go() -> None:
    """my-first-monopoly-rules.txt, "Level 1 Set Up": "give each player 10 x $1 bills. Total =
    $10", "places it on GO"; "Level 1 Components": one die; 12 sold signs per token; "Level 1 Who
    Goes First": the youngest first (seat 0, docs/RULES.md "Who starts")."""
    s = level1()
    assert s.cash == [10, 10, 10, 10] and list(s.pos) == [0, 0, 0, 0]
    assert s.rules.dice == 1 and s.rules.max_properties_per_player == 12
    assert s.current_player() == 0 and s.ed.size == 24
    assert sorted(s.ed.properties) == list(PROPERTIES)
    assert {s.ed.price[sq] for sq in PROPERTIES} == {1}


def test_roll_one_die_move_and_pass_the_die_left() -> None:
    """my-first-monopoly-rules.txt, "Level 1 On Your Turn": "Roll the die", move clockwise that
    number of spaces, follow the rules of the space, "Your turn is over. Pass the die to the
    left!" A 6 gives no extra roll (one die: no doubles)."""
    s = level1()
    dice(s, 6)
    events = act(s, "roll")
    assert s.pos[0] == TIME_OUT and not s.in_jail[0]  # Just Visiting
    assert describe_all(s, events)[0] == "Player 1 rolls 6."
    assert s.turn == 1 and s.current_player() == 1 and legal(s) == {"roll"}


def test_two_to_six_players() -> None:
    """my-first-monopoly-rules.txt, contents: "6 Tokens"."""
    level1(2)
    level1(6)
    with pytest.raises(ValueError, match="2 to 6 players"):
        level1(7)


# -- Properties ------------------------------------------------------------------------------


def test_an_unowned_property_must_be_bought() -> None:
    """my-first-monopoly-rules.txt, "Level 1 The Board Spaces": "When you land on an unowned
    property, you must buy it! Pay the Bank the amount shown on the space. Put one of your sold
    signs on that space!" - no buy or decline decision: the purchase happens on landing."""
    s = level1()
    dice(s, 4)
    events = act(s, "roll")
    assert s.owner[4] == 0 and s.cash[0] == 9
    assert "bought" in event_kinds(events)
    assert "Player 1 buys Balloons for $1." in describe_all(s, events)
    assert s.turn == 1 and not {"buy", "decline"} & kinds(s)


def test_cannot_afford_the_property_it_stays_unsold() -> None:
    """my-first-monopoly-rules.txt, "Level 1": "You can't go bankrupt in Level 1"; "you must buy
    it" with no money to pay: the property stays unsold (docs/RULES.md, "Level 1: an
    unaffordable property stays unsold")."""
    s = level1()
    cash(s, 0, 0)
    dice(s, 4)
    events = act(s, "roll")
    assert s.owner[4] == -1 and s.cash[0] == 0 and not s.over
    assert "cannot_buy" in event_kinds(events)
    assert "Player 1 cannot buy Balloons: it stays unsold." in describe_all(s, events)


def test_rent_is_the_amount_on_the_space() -> None:
    """my-first-monopoly-rules.txt, "Owned Properties": "If you land on a property someone else
    owns, pay that player the amount shown on the space" ($1)."""
    s = level1()
    own(s, 1, 4)
    dice(s, 4)
    act(s, "roll")
    assert s.cash[0] == 9 and s.cash[1] == 11


def test_both_of_a_colour_collect_two_times_the_rent() -> None:
    """my-first-monopoly-rules.txt, "Make more money with color sets!": "If you own both
    properties of the same color, collect two times the rent ... That's $2!\""""
    s = level1()
    own(s, 1, 4, 5)
    dice(s, 5)
    act(s, "roll")
    assert s.cash[0] == 8 and s.cash[1] == 12


def test_own_property_does_nothing() -> None:
    """my-first-monopoly-rules.txt, "Owned Properties": "If you land on your own property, do
    nothing." """
    s = level1()
    own(s, 0, 4)
    dice(s, 4)
    act(s, "roll")
    assert s.cash[0] == 10


def test_cannot_pay_rent_say_something_nice_instead() -> None:
    """my-first-monopoly-rules.txt, "Owned Properties": "If you don't have enough money to pay,
    say something nice about that player instead!" Nothing at all is paid, not even part of the
    $2 (docs/RULES.md, "Level 1: a payment you cannot make is forgiven")."""
    s = level1()
    own(s, 1, 4, 5)
    cash(s, 0, 1)
    dice(s, 4)
    events = act(s, "roll")
    assert s.cash[0] == 1 and s.cash[1] == 10 and not s.over
    assert "forgiven" in event_kinds(events)
    assert (
        "Player 1 cannot pay $2 to Player 2 and says something nice about them instead."
        in describe_all(s, events)
    )
    assert s.turn == 1 and s.alive == [True] * 4


# -- Action spaces ---------------------------------------------------------------------------


def test_go_pays_two_for_passing_or_landing() -> None:
    """my-first-monopoly-rules.txt, "GO": "When you pass or land on the GO space, collect $2
    from the Bank"."""
    s = level1()
    at(s, 0, 20)
    dice(s, 4)
    act(s, "roll")
    assert s.pos[0] == 0 and s.cash[0] == 12
    turn_of(s, 1)
    at(s, 1, 22)
    own(s, 1, 2)
    dice(s, 4)
    act(s, "roll")  # passes GO onto its own Lemonade
    assert s.pos[1] == 2 and s.cash[1] == 12


def test_free_parking_and_just_visiting_do_nothing() -> None:
    """my-first-monopoly-rules.txt, "Free Parking: Nothing happens here!"; "Just Visiting: ...
    you're not in Time Out"."""
    s = level1()
    at(s, 0, 8)
    dice(s, 4)
    act(s, "roll")
    assert s.pos[0] == FREE_PARKING and s.cash[0] == 10
    dice(s, 6)
    act(s, "roll")
    assert s.pos[1] == TIME_OUT and not s.in_jail[1] and s.cash[1] == 10


def test_go_to_time_out_no_go_money_and_the_turn_is_over() -> None:
    """my-first-monopoly-rules.txt, "Go to Time Out": "Move your token to the Time Out space! Do
    not collect $2 for passing GO. Your turn is over."""
    s = level1()
    at(s, 0, 14)
    dice(s, 4)
    events = act(s, "roll")
    assert s.pos[0] == TIME_OUT and s.in_jail[0]
    assert s.cash[0] == 10 and "salary" not in event_kinds(events)
    assert "Player 1 goes to Time Out." in describe_all(s, events)
    assert s.turn == 1


# -- Time Out --------------------------------------------------------------------------------


def test_time_out_pay_one_dollar_then_roll_and_take_the_turn() -> None:
    """my-first-monopoly-rules.txt, "Level 1 Time Out": "At the beginning of your next turn, you
    can ... pay $1. Then roll the die and take your turn." No tries at doubles: rolling is not
    offered before paying."""
    s = level1()
    jail(s, 0)
    assert legal(s) == {"pay_fine"}
    events = act(s, "pay_fine")
    assert "Player 1 pays $1 to leave Time Out." in describe_all(s, events)
    assert s.cash[0] == 9 and not s.in_jail[0] and legal(s) == {"roll"}
    dice(s, 2)
    act(s, "roll")
    assert s.pos[0] == 8 and s.owner[8] == 0 and s.cash[0] == 8


def test_time_out_use_a_card_then_roll() -> None:
    """my-first-monopoly-rules.txt, "Level 1 Time Out": "use a Get out of Time Out Free card if
    you have one"; "Chance": the card goes "at the bottom of the deck when done"."""
    s = level1()
    deck_top(s, CHANCE, "L1-18")
    at(s, 0, 0)
    dice(s, 3)
    act(s, "roll")  # draws the card and keeps it
    assert s.card_holder[0] == 0
    jail(s, 0)
    turn_of(s, 0)
    assert legal(s) == {"pay_fine", "use_card 0"}
    act(s, "use_card 0")
    assert not s.in_jail[0] and s.cash[0] == 10 and s.card_holder[0] == -1
    assert s.ed.decks[CHANCE].cards[s.decks[CHANCE][-1]].id == "L1-18"
    assert legal(s) == {"roll"}


def test_time_out_with_no_money_and_no_card_sing_and_go_free() -> None:
    """my-first-monopoly-rules.txt, "Level 1 Time Out": "If you can't pay and you don't have a
    Get out of Time Out Free card, sing your favorite song for everyone! Then get out of Time Out
    for free, and take your turn!\""""
    s = level1()
    at(s, 0, 14)
    cash(s, 0, 0)
    dice(s, 4)
    act(s, "roll")  # Go to Time Out
    for _ in (1, 2):
        dice(s, 6)
        act(s, "roll")  # seats 1 and 2: Just Visiting
    dice(s, 6)
    events = act(s, "roll")  # seat 3; then seat 0's turn begins in Time Out with nothing
    assert "sings" in event_kinds(events)
    assert (
        "Player 1 cannot pay and has no card, sings a favourite song and leaves Time Out for "
        "free." in describe_all(s, events)
    )
    assert s.turn == 0 and not s.in_jail[0] and s.cash[0] == 0 and legal(s) == {"roll"}
    dice(s, 2)
    act(s, "roll")
    assert s.pos[0] == 8


def test_chance_go_to_time_out_card() -> None:
    """my-first-monopoly-rules.txt, "Chance": do what the card says (L1-20 "Go to Time Out!
    Do not collect $2 for passing GO")."""
    s = level1()
    deck_top(s, CHANCE, "L1-20")
    at(s, 0, 20)
    dice(s, 1)
    act(s, "roll")
    assert s.pos[0] == TIME_OUT and s.in_jail[0] and s.cash[0] == 10 and s.turn == 1


# -- Chance ----------------------------------------------------------------------------------


def test_chance_top_card_then_bottom_of_the_deck() -> None:
    """my-first-monopoly-rules.txt, "Chance": "Take the top card from the Chance deck and do what
    it says. Put it at the bottom of the deck when done" (L1-16 collect $2)."""
    s = level1()
    deck_top(s, CHANCE, "L1-16")
    order = list(s.decks[CHANCE])
    dice(s, 3)
    act(s, "roll")
    assert s.cash[0] == 12
    assert s.decks[CHANCE] == order[1:] + order[:1]


def test_chance_move_to_an_unowned_property_buy_it() -> None:
    """my-first-monopoly-rules.txt, "Many Chance cards tell you to move your token. If a Chance
    card sends you to: an unowned property, buy it!" (L1-03, the Kite)."""
    s = level1()
    deck_top(s, CHANCE, "L1-03")
    dice(s, 3)
    events = act(s, "roll")
    assert s.pos[0] == 5 and s.owner[5] == 0 and s.cash[0] == 9
    assert "bought" in event_kinds(events)


def test_chance_move_to_an_owned_property_pay_rent() -> None:
    """my-first-monopoly-rules.txt, "If a Chance card sends you to: ... an owned property, pay
    rent!" (L1-03 to the Kite; Player 2 owns the light blue pair: $2)."""
    s = level1()
    own(s, 1, 4, 5)
    deck_top(s, CHANCE, "L1-03")
    dice(s, 3)
    act(s, "roll")
    assert s.pos[0] == 5 and s.cash[0] == 8 and s.cash[1] == 12


def test_chance_move_to_another_space_follow_its_rule() -> None:
    """my-first-monopoly-rules.txt, "If a Chance card sends you to: ... any other board space,
    follow the rules of that space!" L1-14 "Jump forward 3 spaces" from 15 reaches Go to Time
    Out: to Time Out; L1-01 "Advance to GO": $2 once; L1-11 Free Parking: nothing."""
    s = level1()
    deck_top(s, CHANCE, "L1-14")
    at(s, 0, 11)
    dice(s, 4)
    act(s, "roll")
    assert s.pos[0] == TIME_OUT and s.in_jail[0] and s.cash[0] == 10
    s = level1()
    deck_top(s, CHANCE, "L1-01")
    at(s, 0, 17)
    dice(s, 4)
    act(s, "roll")
    assert s.pos[0] == 0 and s.cash[0] == 12
    s = level1()
    deck_top(s, CHANCE, "L1-11")
    dice(s, 3)
    act(s, "roll")
    assert s.pos[0] == FREE_PARKING and s.cash[0] == 10


def test_chance_pay_with_no_money_is_let_go() -> None:
    """my-first-monopoly-rules.txt, "Choosing a Level": "You can't go bankrupt in Level 1": a
    Chance payment the player cannot make is not paid (docs/RULES.md, "Level 1: a payment you
    cannot make is forgiven"; L1-17 "Pay $1 to the Bank")."""
    s = level1()
    deck_top(s, CHANCE, "L1-17")
    cash(s, 0, 0)
    dice(s, 3)
    events = act(s, "roll")
    assert s.cash[0] == 0 and not s.over
    assert "Player 1 cannot pay $1: the bank lets it go." in describe_all(s, events)


# -- Sold signs and the end ------------------------------------------------------------------


def test_twelve_sold_signs_a_thirteenth_property_stays_unsold() -> None:
    """my-first-monopoly-rules.txt, "Level 1 Set Up": "Each player takes their token's 12
    matching sold signs": with all 12 on the board a player cannot buy, and the property stays
    unsold (docs/RULES.md, "Sold signs")."""
    s = level1()
    twelve = [sq for sq in PROPERTIES if sq != 4][:12]
    own(s, 0, *twelve)
    assert list(s.owner).count(0) == 12 and s.owner[4] == -1
    dice(s, 4)
    events = act(s, "roll")
    assert s.owner[4] == -1 and s.cash[0] == 10
    assert "cannot_buy" in event_kinds(events)


def test_the_game_ends_when_the_last_property_is_bought() -> None:
    """my-first-monopoly-rules.txt, "Level 1 The End of the Game": "The game ends when the last
    property has been purchased. Then each player counts up their properties. The player with
    the most properties wins!\""""
    s = level1(3)
    own(s, 0, 1, 2, 4, 5, 7, 8)
    own(s, 1, 10, 11, 13, 14, 16)
    own(s, 2, 17, 19, 20, 22)
    at(s, 0, 19)
    dice(s, 4)
    events = act(s, "roll")
    assert s.owner[23] == 0
    assert s.over and s.end_reason == "all_properties_sold"
    assert "Game over (all properties sold)." in describe_all(s, events)
    result = s.result()
    assert result is not None
    assert result.winners == [0] and result.ranking == [0, 1, 2]
    assert result.scores == [7.0, 5.0, 4.0]


def test_a_tie_in_properties_goes_to_the_most_money() -> None:
    """my-first-monopoly-rules.txt, "Level 1 The End of the Game": "If there is a tie, the tied
    player with the most money wins!\""""
    s = level1(3)
    own(s, 0, 1, 2, 4, 5, 7, 8, 10)
    own(s, 1, 11, 13, 14, 16, 17, 19, 20, 22)
    cash(s, 1, 3)
    cash(s, 2, 30)
    at(s, 0, 19)
    dice(s, 4)
    act(s, "roll")  # seat 0 buys the last: 8 each; seat 0 has $9, seat 1 $3
    result = s.result()
    assert result is not None and result.end_reason == "all_properties_sold"
    assert result.winners == [0] and result.ranking == [0, 1, 2]


def test_a_full_tie_shares_the_win() -> None:
    """my-first-monopoly-rules.txt, "Level 1 The End of the Game": the rulebook breaks a tie in
    properties by money and says no more; equal in both, the tied players share first place
    (docs/RULES.md, "Ties at the end")."""
    s = level1(3)
    own(s, 0, 1, 2, 4, 5, 7, 8, 10)
    own(s, 1, 11, 13, 14, 16, 17, 19, 20, 22)
    cash(s, 1, 9)
    at(s, 0, 19)
    dice(s, 4)
    act(s, "roll")
    result = s.result()
    assert result is not None
    assert result.winners == [0, 1] and result.ranking == [0, 1, 2]


def test_no_auctions_buildings_mortgages_or_trades_ever() -> None:
    """my-first-monopoly-rules.txt, "Level 1": the rules have no auctions, buildings, mortgages
    or trading (``auctions``, ``buildings``, ``mortgages``, ``trading`` all false), and no
    buy-or-decline choice (``must_buy``): over whole random games, no such action is ever
    offered and the only decisions are rolling and the Time Out choice."""
    r = level1().rules
    assert not (r.auctions or r.buildings or r.mortgages or r.trading)
    assert r.must_buy and r.houses == 0 and r.hotels == 0
    offered: set[str] = set()
    for seed in range(20):
        s = new_monopoly(L1, 2 + seed % 5, seed)
        bots = [RandomBot(derive_seed(seed, p)) for p in range(s.n)]
        while not s.is_terminal():
            offered |= {a.kind for a in s.legal_actions()}
            s.apply(bots[s.current_player()].choose(s))
            assert not audit(s)
    assert not offered & NEVER
    assert offered <= {"roll", "pay_fine", "use_card"}


# -- Level 1 always ends ---------------------------------------------------------------------

GAMES = 2000


def test_level_1_always_ends_when_the_properties_are_sold_out() -> None:
    """my-first-monopoly-rules.txt, "Choosing a Level": "You can't go bankrupt in Level 1.
    Instead, the game ends when all of the properties have been purchased." 2,000 seeded random
    games of 2-6 players, no turn cap reached (cap 5,000 player-turns), all end by
    ``all_properties_sold``.

    Why every game ends (with probability 1): no property is ever sold back, traded or taken
    away, so the number owned only grows, and the game ends at the 16th purchase. It is enough
    that from ANY position a purchase happens within a bounded number of rolls with probability
    at least some e > 0 (then no purchase in k such stretches has probability at most
    (1 - e)^k -> 0). Take an unowned property u. At most 15 are owned, so at most one player has
    used all 12 sold signs: pick another player, p. The following die faces, at most 20 rounds
    of them, have probability at least 6^-(20 n) for n players:

    - Every other player rolls to the next corner (0, 6, 12 or 18: one lies in any 6 squares
      ahead; 18 sends them to Time Out, left next turn by card, $1 or a song). They never land
      on a property or Chance, so only p's own moves change p's cash.
    - p rolls to the next corner, then corner to corner (rolls of 6) to 12, then 12 -> 17 -> 23
      -> GO (rolls 5, 6, 1), never touching Chance or Go to Time Out. Cash never goes below 0,
      so p stands on GO with c >= $2 (an unowned 17 or 23 bought on the way is a purchase).
    - From GO p goes corner to corner (nothing to pay) to the corner before u's side and rolls
      the distance to u; for u on 19-23, via 12 -> 17 -> u. p has c >= $2 at 12, and at 17
      either buys (a purchase), owes nothing (its own), or owes $1 or $2, forgiven in full when
      p has less: p reaches u with at least $1 and buys it, except when c = $2 and 17 is in
      another player's pair. Then p rolls 6 from 12 to Go to Time Out and leaves Time Out next
      turn by paying $1 (now c = $1, so the $2 at 17 is forgiven) or with a card (c unchanged;
      p holds at most the deck's two cards and draws none on this route, so after at most three
      such detours p pays), and rolls 6 back to 12.

    So Level 1 ends with probability 1; the 2,000 games below check it in practice."""
    ends: dict[str, int] = {}
    for i in range(GAMES):
        seed = derive_seed(31, i)
        players = 2 + i % 5
        s = new_monopoly(L1, players, seed, {"max_turns": 5000})
        s.record_events = False
        bots = [RandomBot(derive_seed(seed, p)) for p in range(players)]
        while not s.is_terminal():
            s.apply(bots[s.current_player()].choose(s))
        ends[s.end_reason] = ends.get(s.end_reason, 0) + 1
        assert all(s.owner[sq] >= 0 for sq in PROPERTIES)
    assert ends == {"all_properties_sold": GAMES}
