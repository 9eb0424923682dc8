"""Trades between players: cash, deeds without buildings in their set, Get Out of Jail Free
cards, and nothing else; a mortgaged deed received costs the 10%.

Friends rules A, "Trading"; Friends rules B, "Do a Deal"; Frozen II, "Deals and trades".
"""

from tests.monopoly.helpers import (
    CHANCE,
    CHEST,
    act,
    at,
    build_to,
    dice,
    game,
    give_card,
    illegal,
    jail,
    kinds,
    legal,
    own,
)


def test_deed_for_cash() -> None:
    """Friends rules A, "Trading": "you can buy/sell/or trade with the other players ... If all
    of the players in the deal agree to a trade, the trade is completed"."""
    s = game()
    own(s, 1, 39)
    act(s, "trade 1")
    act(s, "trade_deed 39")
    act(s, "trade_cash 300")
    act(s, "propose")
    assert s.current_player() == 1 and kinds(s) == {"accept", "reject", "counter"}
    act(s, "accept")
    assert s.owner[39] == 0
    assert s.cash[0] == 1200 and s.cash[1] == 1800
    assert s.current_player() == 0 and s.phase == s.PRE_ROLL


def test_deed_for_deed_and_recipient_pays_cash() -> None:
    """Friends rules A, "Trading": "cash, deed cards, Get Out of Jail Free cards, or any
    combination" (negative cash: the recipient pays)."""
    s = game()
    own(s, 0, 1)
    own(s, 2, 3)
    act(s, "trade 2")
    act(s, "trade_deed 1")
    act(s, "trade_deed 3")
    act(s, "trade_cash -40")
    act(s, "propose")
    act(s, "accept")
    assert s.owner[1] == 2 and s.owner[3] == 0
    assert s.cash[0] == 1540 and s.cash[2] == 1460


def test_get_out_of_jail_free_card_is_tradeable() -> None:
    """Friends rules A, "Apartment 19 and Apartment 20": the card may be "sell/trade[d] to
    another player"; Friends rules B: "buy one from another player"."""
    s = game()
    give_card(s, 1, CHEST)
    act(s, "trade 1")
    act(s, "trade_card 1")
    act(s, "trade_cash 30")
    act(s, "propose")
    act(s, "accept")
    assert s.card_holder[CHEST] == 0 and s.cash[0] == 1470 and s.cash[1] == 1530


def test_traded_card_returns_to_its_own_deck_when_used() -> None:
    """Friends rules A, "Getting Out of Jail": "buy/trade for one owned by another player. After
    you play the card, it is returned to the bottom of the corresponding deck"."""
    s = game()
    give_card(s, 1, CHEST)
    jail(s, 0)
    act(s, "trade 1")
    act(s, "trade_card 1")
    act(s, "trade_cash 50")
    act(s, "propose")
    act(s, "accept")
    act(s, "use_card 1")
    assert not s.in_jail[0] and s.card_holder[CHEST] == -1
    assert s.decks[CHEST][-1] == s.ed.decks[CHEST].jail_card


def test_cash_alone_is_not_a_trade() -> None:
    """Friends rules A, "Trading": a trade exchanges deeds or cards (possibly with cash); cash
    for nothing is a gift or a loan, which the rules do not allow (Frozen II, "Top Tips": "Never
    loan money to other players"; docs/RULES.md, Decisions)."""
    s = game()
    own(s, 1, 39)
    act(s, "trade 1")
    act(s, "trade_cash 100")
    assert "propose" not in kinds(s)
    illegal(s, "propose")


def test_only_deeds_cards_and_cash_can_be_offered() -> None:
    """Friends rules A, "Trading": "You cannot add 'promises' to a trade"; Frozen II: "You
    cannot sell or trade buildings to another player"."""
    s = game()
    own(s, 1, 39)
    give_card(s, 1, CHANCE)
    act(s, "trade 1")
    assert kinds(s) == {"trade_deed", "trade_card", "trade_cash", "cancel"}
    illegal(s, "build 39")
    illegal(s, "trade_deed 5")  # nobody's deed


def test_no_deed_of_a_group_with_buildings() -> None:
    """Friends rules A, "Trading": "You may only buy/sell/trade a moment if there are no coffee
    mugs or sofas on the space"; Friends rules B: "You must sell all buildings on a color group
    to the Bank before you can sell one of its moments" - the unbuilt street too."""
    s = game()
    own(s, 1, 1, 3, 5)
    build_to(s, {1: 1})
    act(s, "trade 1")
    assert "trade_deed 5" in legal(s)
    assert "trade_deed 1" not in legal(s) and "trade_deed 3" not in legal(s)
    illegal(s, "trade_deed 3")
    illegal(s, "trade_deed 1")


def test_reject_changes_nothing() -> None:
    """Friends rules A, "Trading": the trade happens only "If all of the players in the deal
    agree"."""
    s = game()
    own(s, 1, 39)
    act(s, "trade 1")
    act(s, "trade_deed 39")
    act(s, "propose")
    act(s, "reject")
    assert s.owner[39] == 1 and s.cash[:2] == [1500, 1500]
    assert s.current_player() == 0


def test_counter_offer_and_its_limit() -> None:
    """Friends rules B, "Do a Deal": "The amount is decided by the players making the deal" - the
    recipient may counter, at most max_counter_offers (2) times per negotiation (docs/RULES.md,
    Decisions)."""
    s = game()
    own(s, 1, 39)
    act(s, "trade 1")
    act(s, "trade_deed 39")
    act(s, "trade_cash 100")
    act(s, "propose")
    act(s, "counter")  # seat 1 now proposes: it receives 100 as cash -100 from its side
    assert s.current_player() == 1 and s.stack[-1].cash == -100
    act(s, "trade_cash -400")  # seat 0 to pay 400
    act(s, "propose")
    assert s.current_player() == 0
    act(s, "counter")
    act(s, "trade_cash 250")
    act(s, "propose")
    assert s.current_player() == 1 and s.stack[-1].counters == 2
    assert "counter" not in kinds(s)
    act(s, "accept")
    assert s.owner[39] == 0 and s.cash[0] == 1250 and s.cash[1] == 1750


def test_one_offer_per_player_per_turn() -> None:
    """Rule option max_trade_offers_per_window (1): a player may open one offer per turn (counted
    per turn, reset when the next turn starts; docs/RULES.md, Decisions)."""
    s = game(players=2)
    own(s, 1, 39)
    act(s, "trade 1")
    act(s, "cancel")
    assert "trade" not in kinds(s)
    illegal(s, "trade 1")


def test_offer_count_resets_at_the_next_turn() -> None:
    """rules/turns.next_turn resets every player's offer count when a turn starts."""
    s = game(players=2)
    own(s, 1, 39)
    act(s, "trade 1")
    act(s, "cancel")
    at(s, 0, 10)
    dice(s, 4, 6)
    act(s, "roll")  # seat 0 has nothing left to do: seat 1's window opens
    assert s.current_player() == 1
    act(s, "pass")
    assert s.turn == 1 and list(s.offers) == [0, 0]


def test_mortgaged_deed_received_keep_pays_ten_percent_now_and_again_when_lifted() -> None:
    """Friends rules A, "Trading": "If they don't want to unmortgage it right away, they still
    owe the 10% of list price to the bank. When they unmortgage the moment on a future turn,
    they will owe the 10% again" (Boardwalk: 20 now, 220 later)."""
    s = game()
    own(s, 1, 39, mortgaged=True)
    act(s, "trade 1")
    act(s, "trade_deed 39")
    act(s, "trade_cash 50")
    act(s, "propose")
    act(s, "accept")
    assert s.decision_name() == "mortgage_fee" and s.current_player() == 0
    assert legal(s) == {"lift_mortgage 39", "keep_mortgage 39"}
    act(s, "keep_mortgage 39")
    assert s.mortgaged[39] and s.cash[0] == 1500 - 50 - 20
    act(s, "unmortgage 39")
    assert not s.mortgaged[39] and s.cash[0] == 1500 - 50 - 20 - 220


def test_mortgaged_deed_received_lift_now_costs_value_plus_ten_percent() -> None:
    """Friends rules A, "Trading": "the buyer can unmortgage it right away by paying the list
    price plus 10%" (Boardwalk 220, no separate 10% on top)."""
    s = game()
    own(s, 1, 39, mortgaged=True)
    act(s, "trade 1")
    act(s, "trade_deed 39")
    act(s, "propose")
    act(s, "accept")
    act(s, "lift_mortgage 39")
    assert not s.mortgaged[39] and s.cash[0] == 1280


def test_both_sides_pay_for_mortgaged_deeds_they_receive() -> None:
    """Friends rules B, "Do a Deal": "After buying a mortgaged property, you must either repay it
    immediately or just pay 10%" - each side for what it receives (utility interest 7.5 rounds up
    to 8; Reading 10)."""
    s = game()
    own(s, 0, 12, mortgaged=True)
    own(s, 1, 5, mortgaged=True)
    act(s, "trade 1")
    act(s, "trade_deed 5")
    act(s, "trade_deed 12")
    act(s, "propose")
    act(s, "accept")
    decided = []
    while s.stack:
        p = s.current_player()
        a = next(a for a in s.legal_actions() if a.kind == "keep_mortgage")
        decided.append((p, a.args[0]))
        act(s, str(a))
    assert sorted(decided) == [(0, 5), (1, 12)]
    assert s.cash[0] == 1490 and s.cash[1] == 1492


def test_trade_between_two_players_who_are_not_on_turn() -> None:
    """Friends rules A, "Trading": "At any time during the game" - between any players: seat 2
    trades with seat 3 in its window after seat 0's turn."""
    s = game()
    own(s, 3, 39)
    at(s, 0, 10)
    dice(s, 4, 6)
    act(s, "roll")
    act(s, "end_turn")  # seat 0 could trade with seat 3, so its turn waits for end_turn
    while s.current_player() != 2:
        act(s, "pass")
    act(s, "trade 3")
    act(s, "trade_deed 39")
    act(s, "trade_cash 500")
    act(s, "propose")
    act(s, "accept")
    assert s.owner[39] == 2 and s.cash[2] == 1000 and s.cash[3] == 2000
