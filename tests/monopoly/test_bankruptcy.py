"""Debts, raising money, bankruptcy and the end of the game.

Friends rules A, "Run Out of Cash", "Mortgaging", "Bankruptcy", "Winning"; Friends rules B,
"Help, I'm in Debt"; Frozen II, "Help! I Can't Pay".
"""

from meeple.kernel.rng import Rng
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
    illegal,
    kinds,
    own,
    pass_windows,
)


def owe_boardwalk_rent(s, level: int, money: int) -> None:  # type: ignore[no-untyped-def]
    """Seat 1 owns the dark blues at ``level``; seat 0 (``money`` cash) lands on Boardwalk."""
    own(s, 1, 37, 39)
    build_to(s, {37: level, 39: level})
    cash(s, 0, money)
    at(s, 0, 35)
    dice(s, 1, 3)
    act(s, "roll")
    assert s.pos[0] == 39


def test_debt_raised_by_selling_buildings() -> None:
    """Friends rules A, "Run Out of Cash": "First you can sell any coffee mugs or sofas ... You
    will receive half of what you paid for them" - rent 200 with 100 cash: one green house sold
    (100) pays it."""
    s = game()
    own(s, 0, 31, 32, 34)
    build_to(s, {31: 1, 32: 1, 34: 1})
    owe_boardwalk_rent(s, 1, 100)
    assert s.decision_name() == "debt" and s.current_player() == 0
    assert "bankrupt" not in kinds(s)
    illegal(s, "bankrupt")
    act(s, "sell_building 31")
    assert not s.stack and s.cash[0] == 0 and s.cash[1] == 1700


def test_debt_raised_by_mortgaging() -> None:
    """Friends rules A, "Mortgaging": "Otherwise you can try to ... mortgage your moments"."""
    s = game()
    own(s, 0, 5)
    owe_boardwalk_rent(s, 1, 100)
    act(s, "mortgage 5")
    assert s.cash[0] == 0 and s.cash[1] == 1700


def test_debt_raised_by_trading() -> None:
    """Friends rules A, "Mortgaging": "Otherwise you can try to trade/sell ... your moments" -
    seat 0 sells Reading Railroad to seat 2 for 150 while in debt."""
    s = game()
    own(s, 0, 5)
    owe_boardwalk_rent(s, 1, 100)
    assert "trade" in kinds(s)
    act(s, "trade 2")
    act(s, "trade_deed 5")
    act(s, "trade_cash -150")
    act(s, "propose")
    act(s, "accept")
    assert s.owner[5] == 2
    assert s.cash[0] == 50 and s.cash[1] == 1700 and s.cash[2] == 1350


def test_no_trade_in_debt_where_the_rules_have_none() -> None:
    """An edition without trading (``trading = false``: My First Monopoly) offers a debtor no
    trade either: raising money is selling and mortgaging alone (docs/RULES.md, "Run Out of
    Cash"). The list, the check and a random player's draw agree."""
    s = game(trading=False)
    own(s, 0, 5)
    own(s, 2, 6)
    owe_boardwalk_rent(s, 1, 100)
    assert s.decision_name() == "debt"
    assert "trade" not in kinds(s) and "mortgage" in kinds(s)
    illegal(s, "trade 2")
    rng = Rng(3)
    assert all(s.sample_legal(rng).kind != "trade" for _ in range(200))


def test_bankrupt_to_a_player_hands_over_everything() -> None:
    """Friends rules A, "Bankruptcy": the creditor gets the cash raised, "all of the moments and
    Get Out of Jail Free cards"; "The moments stay on the mortgage side" and the new owner "has
    to pay 10% of the list value" on each mortgaged one. Buildings go back to the bank at half
    price first (Friends rules B, "Help, I'm in Debt": "Pay whatever money you were able to
    raise"). Rent 2000; 100 cash + 3 houses (300) + mortgages (450) = 850 cannot pay."""
    s = game()
    own(s, 0, 31, 32, 34)
    own(s, 0, 5, mortgaged=True)
    build_to(s, {31: 1, 32: 1, 34: 1})
    give_card(s, 0, CHANCE)
    owe_boardwalk_rent(s, 5, 100)
    assert "bankrupt" in kinds(s)
    act(s, "bankrupt")
    assert not s.alive[0] and s.cash[0] == 0
    assert all(s.owner[sq] == 1 for sq in (31, 32, 34, 5))
    assert s.mortgaged[5] and not any(s.mortgaged[sq] for sq in (31, 32, 34))
    assert s.level[31] == s.level[32] == s.level[34] == 0
    assert s.houses == 32
    assert s.card_holder[CHANCE] == 1
    assert s.cash[1] == 1500 + 100 + 300
    assert s.decision_name() == "mortgage_fee" and s.current_player() == 1
    act(s, "keep_mortgage 5")
    assert s.cash[1] == 1900 - 10 and s.mortgaged[5]


def test_bankrupt_to_a_player_creditor_may_lift_the_mortgage_at_once() -> None:
    """Friends rules A, "Bankruptcy": "If they want to pay off the mortgage they also owe the
    Bank the list value" - lifting at once costs value + 10% (Reading: 110)."""
    s = game()
    own(s, 0, 5, mortgaged=True)
    owe_boardwalk_rent(s, 5, 10)
    act(s, "bankrupt")
    act(s, "lift_mortgage 5")
    assert not s.mortgaged[5] and s.cash[1] == 1500 + 10 - 110


def test_bankrupt_to_the_bank_auctions_every_deed_unmortgaged() -> None:
    """Friends rules A, "Bankruptcy": "the Bank takes all of your moments. They will immediately
    put them up for auction. Whoever wins the auction pays the Bank and takes the corresponding
    deed card turning it to the face up side. Any Get Out of Jail Free cards are returned to the
    bottom of the corresponding deck". Income Tax 200 with 50 cash + 30 raisable."""
    s = game()
    own(s, 0, 1)
    own(s, 0, 39, mortgaged=True)
    give_card(s, 0, CHEST)
    cash(s, 0, 50)
    bank_in = s.bank_in
    dice(s, 1, 3)
    act(s, "roll")
    assert s.decision_name() == "debt"
    act(s, "bankrupt")
    assert not s.alive[0]
    assert s.bank_in == bank_in + 50
    assert s.card_holder[CHEST] == -1 and s.decks[CHEST][-1] == s.ed.decks[CHEST].jail_card
    assert s.owner[1] == -1 and s.owner[39] == -1 and not s.mortgaged[39]
    assert s.decision_name() == "auction" and s.stack[-1].square == 1
    assert s.stack[-1].active == [1, 2, 3]
    act(s, "bid 10")  # seat 1 for Mediterranean
    act(s, "pass")
    act(s, "pass")
    assert s.owner[1] == 1
    assert s.stack[-1].square == 39
    act(s, "pass")  # seat 1
    act(s, "bid 150")  # seat 2 for Boardwalk
    act(s, "pass")  # seat 3
    assert s.owner[39] == 2 and not s.mortgaged[39]
    assert s.cash[1] == 1490 and s.cash[2] == 1350


def test_the_game_ends_when_one_player_is_left() -> None:
    """Friends rules A, "Winning": "The game ends as soon as all but one of the players have
    been eliminated from the game. The last remaining player wins the game"."""
    s = game(players=2)
    owe_boardwalk_rent(s, 5, 100)
    act(s, "bankrupt")
    assert s.is_terminal() and s.current_player() == -1 and s.legal_actions() == []
    r = s.result()
    assert r is not None
    assert r.winners == [1] and r.ranking == [1, 0] and r.end_reason == "last_player_standing"
    illegal(s, "roll")


def test_bankruptcy_on_doubles_does_not_lose_the_winner() -> None:
    """Friends rules A, "Winning" after a bankruptcy on a double (DESIGN.md names "a bankruptcy
    after doubles that loses the winner" as a bug of other engines): the survivor wins."""
    s = game(players=2)
    own(s, 1, 37, 39)
    build_to(s, {37: 5, 39: 5})
    cash(s, 0, 100)
    at(s, 0, 35)
    dice(s, 2, 2)
    act(s, "roll")
    act(s, "bankrupt")
    r = s.result()
    assert r is not None and r.winners == [1]
    assert s.cash[1] == 1600


def test_bankruptcy_on_doubles_passes_the_turn_to_the_next_player() -> None:
    """Friends rules A, "How to Play": "play passes to the player on your left" - the bankrupt
    player's double gives no further roll; seat 1 plays next."""
    s = game(players=3)
    own(s, 1, 37, 39)
    build_to(s, {37: 5, 39: 5})
    cash(s, 0, 100)
    at(s, 0, 35)
    dice(s, 2, 2)
    act(s, "roll")
    act(s, "bankrupt")
    assert not s.is_terminal()
    pass_windows(s)
    assert s.turn == 1 and s.current_player() == 1 and "roll" in kinds(s)
    assert s.turn_no == 2


def test_eliminated_seat_is_skipped_in_turn_order() -> None:
    """Friends rules A, "Bankruptcy": "You are eliminated from the game" - seat 1 goes bankrupt
    during seat 0's turn (a birthday card it cannot pay); the next turn is seat 2's."""
    from tests.monopoly.helpers import deck_top

    s = game(players=3)
    cash(s, 1, 0)
    deck_top(s, CHEST, "CC09")
    at(s, 0, 14)
    dice(s, 1, 2)
    act(s, "roll")
    assert s.current_player() == 1
    act(s, "bankrupt")
    assert not s.alive[1]
    pass_windows(s)
    assert s.turn == 2


def test_eliminated_players_cash_and_deeds_leave_the_game() -> None:
    """Friends rules A, "Bankruptcy": the bankrupt keeps nothing; the audit holds (money
    conserved with the bank, no deed owned by an eliminated seat)."""
    from meeple.games.monopoly.audit import audit

    s = game(players=3)
    own(s, 0, 6, 8)
    owe_boardwalk_rent(s, 5, 100)
    act(s, "bankrupt")
    assert s.owner[6] == 1 and s.owner[8] == 1
    assert audit(s) == []


def test_creditor_pays_the_ten_percent_on_each_mortgaged_deed() -> None:
    """Friends rules B, "Help, I'm in Debt": "The player must pay 10% interest on each mortgaged
    property" - Reading 10 + Pennsylvania Railroad 10."""
    s = game()
    own(s, 0, 5, 15, mortgaged=True)
    owe_boardwalk_rent(s, 5, 10)
    act(s, "bankrupt")
    assert s.stack[-1].deeds == [5, 15]
    act(s, "keep_mortgage 5")
    act(s, "keep_mortgage 15")
    assert s.cash[1] == 1500 + 10 - 20 and s.mortgaged[5] and s.mortgaged[15]


def test_debt_to_a_creditor_who_is_eliminated_is_cancelled() -> None:
    """docs/RULES.md, Decisions ("debts to an eliminated creditor"): seat 1 owes seat 2 Baltic's
    rent (4) with no cash, and settles by trading seat 2 five mortgaged deeds; seat 2 cannot pay
    the 10% on them, goes bankrupt to the bank, and seat 1's debt to it is cancelled."""
    s = game(players=3)
    own(s, 2, 3)
    own(s, 1, 31, 32, 34, 37, 39, mortgaged=True)
    cash(s, 1, 0)
    cash(s, 2, 0)
    s.turn, s.phase = 1, s.PRE_ROLL
    dice(s, 1, 2)
    act(s, "roll")  # GO -> Baltic Avenue: rent 4, no cash
    assert s.decision_name() == "debt" and s.stack[-1].creditor == 2
    act(s, "trade 2")
    for sq in (31, 32, 34, 37, 39):
        act(s, f"trade_deed {sq}")
    act(s, "propose")
    act(s, "accept")
    assert s.current_player() == 2 and s.decision_name() == "mortgage_fee"
    act(s, "keep_mortgage 31")  # 15: raised by mortgaging Baltic (30)
    act(s, "mortgage 3")
    act(s, "keep_mortgage 32")  # 15: paid from the 15 left
    act(s, "keep_mortgage 34")  # 16 with nothing left to raise
    assert s.current_player() == 2 and "bankrupt" in kinds(s)
    act(s, "bankrupt")
    assert not s.alive[2]
    # The bank auctions seat 2's deeds; seat 1 (no cash) is passed over, seat 0 passes.
    while s.decision_name() == "auction":
        act(s, "pass")
    assert not any(f.name == "debt" for f in s.stack)
    assert s.cash[1] == 0 and s.alive[1]
    assert all(s.owner[sq] == -1 for sq in (3, 31, 32, 34, 37, 39))
