"""Jail: the three ways out, and what a jailed player may still do.

Friends rules A, "Go to Jail" and "Getting Out of Jail"; Friends rules B, "How do I get out of
Jail?" and "Don't Wait for the Dice"; Frozen II, "Go to Jail" (the list of things a jailed
player may still do).
"""

from tests.monopoly.helpers import (
    CHANCE,
    CHEST,
    act,
    at,
    build_to,
    cash,
    dice,
    game,
    give_card,
    jail,
    kinds,
    legal,
    own,
    pass_windows,
    turn_of,
)


def test_classic_jail_cards_one_per_deck() -> None:
    """classic-cards.json: one Get Out of Jail Free card in each deck (CH09, CC05); jail card 0
    is Chance's, 1 is Community Chest's."""
    s = game()
    assert s.ed.jail_cards == ((CHANCE, 8), (CHEST, 4))
    assert s.ed.decks[CHANCE].cards[8].id == "CH09" and s.ed.decks[CHEST].cards[4].id == "CC05"


def test_jail_choice_is_offered_before_rolling() -> None:
    """Friends rules B, "How do I get out of Jail?": pay, use a card, or roll for doubles."""
    s = game()
    jail(s, 0)
    give_card(s, 0, CHANCE)
    s.invalidate()
    assert {"pay_fine", "use_card 0", "roll"} <= legal(s)


def test_pay_fine_then_take_the_turn_normally() -> None:
    """Friends rules A, "Getting Out of Jail": "you can pay M50 to the Bank. You then take your
    turn normally" (a double after paying rolls again)."""
    s = game()
    jail(s, 0)
    act(s, "pay_fine")
    assert s.cash[0] == 1450 and not s.in_jail[0]
    assert "pay_fine" not in kinds(s)
    dice(s, 5, 5)
    act(s, "roll")
    assert s.pos[0] == 20
    assert s.current_player() == 0 and "roll" in kinds(s)  # normal turn: doubles roll again


def test_use_chance_card_returns_it_to_the_bottom_of_chance() -> None:
    """Friends rules A, "Getting Out of Jail": "After you play the card, it is returned to the
    bottom of the corresponding deck. You will then take your turn normally"."""
    s = game()
    jail(s, 0)
    give_card(s, 0, CHANCE)
    act(s, "use_card 0")
    jc = s.ed.decks[CHANCE].jail_card
    assert s.decks[CHANCE][-1] == jc and len(s.decks[CHANCE]) == 16
    assert s.card_holder[CHANCE] == -1
    assert not s.in_jail[0] and s.cash[0] == 1500
    dice(s, 2, 3)
    act(s, "roll")
    assert s.pos[0] == 15


def test_use_community_chest_card_returns_it_to_its_own_deck() -> None:
    """Friends rules B, "How do I get out of Jail?": "Put the card to the bottom of the
    appropriate pile" (its own deck, not the other one)."""
    s = game()
    jail(s, 0)
    give_card(s, 0, CHEST)
    act(s, "use_card 1")
    assert s.decks[CHEST][-1] == s.ed.decks[CHEST].jail_card
    assert len(s.decks[CHEST]) == 16 and len(s.decks[CHANCE]) == 16
    assert sorted(s.decks[CHEST]) == list(range(16))
    assert sorted(s.decks[CHANCE]) == list(range(16))  # Chance untouched


def test_doubles_leave_jail_move_and_give_no_extra_roll() -> None:
    """Friends rules A, "Getting Out of Jail": "If you roll doubles, you get out of jail for free.
    You will move your token with the number you rolled"; Frozen II: "Use the roll to move, and
    that's the end of your turn" (no extra roll)."""
    s = game()
    jail(s, 0)
    dice(s, 5, 5)
    act(s, "roll")
    assert not s.in_jail[0] and s.pos[0] == 20
    assert s.cash[0] == 1500
    assert s.turn == 1  # no second roll for seat 0


def test_a_miss_stays_in_jail() -> None:
    """Friends rules B, "How do I get out of Jail?": "Wait three turns. On each turn roll the
    dice" - no double, no move."""
    s = game()
    jail(s, 0)
    dice(s, 1, 2)
    act(s, "roll")
    assert s.in_jail[0] and s.pos[0] == 10 and s.jail_turns[0] == 1
    assert s.cash[0] == 1500
    assert s.turn == 1


def test_second_miss_still_stays() -> None:
    """Friends rules A: "If you fail to roll your way out of Jail after the third attempt" -
    the second miss is not yet the third."""
    s = game()
    jail(s, 0, turns=1)
    dice(s, 1, 2)
    act(s, "roll")
    assert s.in_jail[0] and s.jail_turns[0] == 2 and s.cash[0] == 1500


def test_third_miss_pays_50_and_moves_by_that_roll() -> None:
    """Friends rules A, "Getting Out of Jail": after the third attempt "you will be forced to pay
    M50 to the Bank. You will then move your token forward spaces equal to the number of your
    last roll"."""
    s = game()
    jail(s, 0, turns=2)
    dice(s, 1, 2)
    act(s, "roll")
    assert not s.in_jail[0]
    assert s.cash[0] == 1450
    assert s.pos[0] == 13  # States Avenue
    assert s.current_player() == 0 and "buy" in kinds(s)


def test_third_miss_without_the_cash_raises_it_then_moves() -> None:
    """Friends rules A, "Getting Out of Jail" and "Run Out of Cash": the forced M50 is a debt;
    once it is raised (here by a mortgage) the player moves by the last roll."""
    s = game()
    jail(s, 0, turns=2)
    cash(s, 0, 20)
    own(s, 0, 1)
    dice(s, 1, 2)
    act(s, "roll")
    assert s.decision_name() == "debt" and s.pos[0] == 10
    act(s, "mortgage 1")  # +30 -> 50, paid
    assert s.cash[0] == 0 and s.pos[0] == 13


def test_pay_fine_needs_the_cash() -> None:
    """Friends rules A, "Getting Out of Jail": paying M50 is an option only with M50."""
    s = game()
    jail(s, 0)
    cash(s, 0, 49)
    assert "pay_fine" not in kinds(s)
    assert "roll" in kinds(s)


def test_jail_card_drawn_is_kept_and_played_later() -> None:
    """Friends rules A, "Apartment 19 and Apartment 20": "Should you draw a Get Out of Jail Free
    card, you will keep it. You can play the card whenever you need it to get out of jail"."""
    from tests.monopoly.helpers import deck_top

    s = game()
    deck_top(s, CHANCE, "CH09")
    at(s, 0, 4)
    dice(s, 1, 2)
    act(s, "roll")
    assert s.card_holder[CHANCE] == 0 and len(s.decks[CHANCE]) == 15
    pass_windows(s)
    turn_of(s, 0)
    jail(s, 0)
    assert "use_card 0" in legal(s)


def test_jailed_owner_still_collects_rent() -> None:
    """Frozen II, "Go to Jail": "You can still collect rent ... while you are in Jail"; Friends
    rules B, "Don't Wait for the Dice": "even if you're in Jail!"."""
    s = game()
    jail(s, 1)
    own(s, 1, 39)
    at(s, 0, 35)
    dice(s, 1, 3)
    act(s, "roll")
    assert s.cash[0] == 1450 and s.cash[1] == 1550


def test_jailed_player_bids_in_auctions() -> None:
    """Frozen II, "Go to Jail": a jailed player may still "bid during auctions"."""
    s = game()
    jail(s, 1)
    at(s, 0, 35)
    dice(s, 1, 3)
    act(s, "roll")
    act(s, "decline")
    assert s.decision_name() == "auction" and s.current_player() == 1
    act(s, "bid 300")
    for _ in range(3):
        act(s, "pass")
    assert s.owner[39] == 1 and s.cash[1] == 1200


def test_jailed_player_builds_mortgages_and_trades_on_own_jail_turn() -> None:
    """Frozen II, "Go to Jail": a jailed player may "buy Village Dwellings and Castles, mortgage
    and trade"; Friends rules B, "Don't Wait for the Dice"."""
    s = game()
    own(s, 0, 1, 3, 5)
    own(s, 1, 6)
    jail(s, 0)
    k = legal(s)
    assert {"build 1", "build 3", "mortgage 5", "trade 1"} <= k
    act(s, "build 1")
    act(s, "mortgage 5")
    assert s.level[1] == 1 and s.mortgaged[5] and s.in_jail[0]
    assert s.cash[0] == 1500 - 50 + 100


def test_jailed_player_acts_in_another_players_window() -> None:
    """Friends rules B, "Don't Wait for the Dice": "even when it isn't your turn - even if you're
    in Jail!" - the jailed player builds in the window after another player's turn."""
    s = game(players=2)
    own(s, 1, 1, 3)
    build_to(s, {1: 1})
    jail(s, 1)
    at(s, 0, 10)
    dice(s, 4, 6)
    act(s, "roll")  # seat 0 to Free Parking, nothing to do: seat 1's window opens
    assert s.phase == s.WINDOW and s.current_player() == 1
    act(s, "build 3")
    assert s.level[3] == 1 and s.in_jail[1]
