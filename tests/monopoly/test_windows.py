"""The any-time windows: when building, selling, mortgaging, unmortgaging and trade offers are
offered (rules/turns.py docstring; docs/RULES.md, "Any-time windows").

Friends rules B, "Don't Wait for the Dice": "You can do the following even when it isn't your
turn - even if you're in Jail!"; Friends rules A, "Trading": "At any time during the game";
Frozen II, "Building Village Dwellings": "you don't have to wait for your turn".
"""

from tests.monopoly.helpers import act, at, dice, game, jail, kinds, legal, own

MANAGEMENT = {"build", "sell_building", "mortgage", "unmortgage", "trade"}


def test_window_1_before_the_roll() -> None:
    """Window 1: the player on turn may manage before each roll."""
    s = game()
    own(s, 0, 1, 3)
    own(s, 0, 5, mortgaged=True)
    assert {"roll", "build", "mortgage", "unmortgage", "trade"} <= kinds(s)


def test_window_1_between_rolls_after_a_double() -> None:
    """Window 1 again before the extra roll a double gives."""
    s = game()
    own(s, 0, 1, 3)
    at(s, 0, 10)
    dice(s, 5, 5)
    act(s, "roll")
    assert s.current_player() == 0 and {"roll", "build"} <= kinds(s)


def test_window_2_after_moving_before_ending_the_turn() -> None:
    """Window 2: the player on turn, after their moves, before end_turn."""
    s = game()
    own(s, 0, 1, 3)
    at(s, 0, 10)
    dice(s, 4, 6)
    act(s, "roll")
    assert s.phase == s.END_TURN and s.current_player() == 0
    assert {"end_turn", "build", "mortgage"} <= kinds(s)
    act(s, "build 1")
    act(s, "end_turn")
    assert s.level[1] == 1
    assert s.turn == 1  # nobody else can do anything (a built group cannot be traded)


def test_window_3_every_other_player_in_seat_order_from_the_left() -> None:
    """Window 3: once the turn ends, each other player in seat order from the left, before the
    next roll; a window closes when its player passes."""
    s = game()
    for p, sq in enumerate((1, 6, 11, 16)):
        own(s, p, sq)
    at(s, 0, 10)
    dice(s, 4, 6)
    act(s, "roll")
    act(s, "end_turn")
    # Saves list the windows still to come, in the order they come (the state keeps the
    # turn's list and an index into it).
    assert s.snapshot()["window"] == [1, 2, 3]
    copy = game()
    copy.restore(s.snapshot())
    assert copy.current_player() == 1 and copy.snapshot()["window"] == [1, 2, 3]
    act(copy, "pass")
    assert copy.current_player() == 2 and copy.snapshot()["window"] == [2, 3]
    order = []
    while s.phase == s.WINDOW:
        order.append(s.current_player())
        assert "pass" in kinds(s) and "mortgage" in kinds(s) and "roll" not in kinds(s)
        act(s, "pass")
    assert order == [1, 2, 3]
    assert s.turn == 1 and s.phase == s.PRE_ROLL


def test_window_3_is_skipped_for_a_player_with_nothing_to_do() -> None:
    """Window 3 is skipped when there is nothing the player could do (seat 2 owns nothing and
    nobody it could trade with owns anything it could take)."""
    s = game(players=3)
    own(s, 1, 39)
    at(s, 0, 10)
    dice(s, 4, 6)
    act(s, "roll")
    act(s, "end_turn")
    assert s.current_player() == 1
    act(s, "pass")
    assert s.current_player() == 2  # seat 2 may still offer to buy seat 1's deed
    act(s, "pass")
    assert s.turn == 1


def test_no_windows_when_nobody_can_do_anything() -> None:
    """Windows with nothing to do are skipped: at the start, a quiet roll passes the turn."""
    s = game()
    at(s, 0, 10)
    dice(s, 4, 6)
    act(s, "roll")
    assert s.turn == 1 and s.phase == s.PRE_ROLL


def test_window_for_a_jailed_player() -> None:
    """Friends rules B, "Don't Wait for the Dice": "even if you're in Jail!" (window 3 for a
    jailed seat, and window 1 at its jail choice)."""
    s = game(players=2)
    own(s, 1, 39)
    jail(s, 1)
    at(s, 0, 10)
    dice(s, 4, 6)
    act(s, "roll")
    act(s, "end_turn")
    assert s.current_player() == 1 and s.phase == s.WINDOW
    assert "mortgage 39" in legal(s)
    act(s, "pass")
    assert s.phase == s.JAIL and "mortgage 39" in legal(s)


def test_window_4_debtor_may_sell_mortgage_and_trade() -> None:
    """Window 4: a debtor raises money by selling buildings, mortgaging and trading (Friends
    rules A, "Run Out of Cash" and "Mortgaging")."""
    from tests.monopoly.helpers import cash

    s = game()
    own(s, 0, 5)
    own(s, 1, 39)
    cash(s, 0, 10)
    at(s, 0, 35)
    dice(s, 1, 3)
    act(s, "roll")
    assert s.decision_name() == "debt"
    assert {"mortgage", "trade"} <= kinds(s)
    assert "build" not in kinds(s) and "unmortgage" not in kinds(s)


def test_window_4_buyer_may_sell_and_mortgage_but_not_trade_or_build() -> None:
    """Window 4: the buy decision offers selling and mortgaging to raise the price (not trading
    or building; docs/RULES.md, Decisions)."""
    s = game()
    own(s, 0, 6, 8, 9)
    dice(s, 1, 2)
    act(s, "roll")
    assert s.decision_name() == "buy"
    assert kinds(s) == {"buy", "decline", "mortgage"}


def test_no_management_inside_an_auction() -> None:
    """An auction asks only for bids: management waits until it closes (docs/RULES.md,
    "Any-time windows")."""
    s = game()
    own(s, 1, 6, 8, 9)
    at(s, 0, 35)
    dice(s, 1, 3)
    act(s, "roll")
    act(s, "decline")
    assert s.current_player() == 1 and kinds(s) == {"bid", "pass"}
