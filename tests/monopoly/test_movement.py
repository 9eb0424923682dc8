"""Dice, doubles, moving, GO salary, taxes and the quiet corners.

Friends rules A, "How to Play" and "Spaces"; Friends rules B, "On Your Turn" and "Where did
you land". Expected numbers come from the rulebooks and shared/reference/classic-board.json.
"""

from meeple.kernel.rng import Rng
from tests.monopoly.helpers import act, at, dice, event_kinds, game, kinds, own, turn_of


def test_seat_zero_starts_and_everyone_starts_on_go_with_1500() -> None:
    """Friends rules A, "Setup": each player starts on GO with M1,500 (5x1+1x5+2x10+1x20+1x50+
    4x100+2x500 = 1500); "Whichever player rolls the highest starts": the roll-off is modelled
    by seat order, seat 0 first (docs/RULES.md, Decisions)."""
    s = game(players=3)
    assert 5 * 1 + 1 * 5 + 2 * 10 + 1 * 20 + 1 * 50 + 4 * 100 + 2 * 500 == 1500
    assert s.cash == [1500, 1500, 1500]
    assert list(s.pos) == [0, 0, 0]
    assert s.current_player() == 0
    assert kinds(s) == {"roll"}


def test_two_dice_and_move_by_their_sum() -> None:
    """Friends rules B, "On Your Turn": "Roll both dice. Move your token clockwise ... the number
    of spaces shown on the dice"."""
    s = game()
    dice(s, 4, 6)
    events = act(s, "roll")
    roll = next(e for e in events if e.kind == "roll")
    assert roll.data["dice"] == [4, 6]
    assert s.pos[0] == 10  # Just Visiting


def test_real_dice_are_two_six_sided_dice() -> None:
    """Friends rules A, "Components": 2 dice. Unscripted rolls show two faces 1-6 and the first
    move is by their sum."""
    seen = set()
    for seed in range(40):
        s = game(players=2, seed=seed)
        s.rng = Rng(seed)
        events = act(s, "roll")
        faces = next(e for e in events if e.kind == "roll").data["dice"]
        assert len(faces) == 2 and all(1 <= f <= 6 for f in faces)
        seen.update(faces)
        moves = [e.data["to"] for e in events if e.kind == "move"]
        assert moves[0] == sum(faces)
    assert seen == {1, 2, 3, 4, 5, 6}


def test_doubles_roll_again() -> None:
    """Friends rules B, "On Your Turn": "If you rolled a double, roll the dice again and take
    another move"."""
    s = game()
    dice(s, 5, 5)
    act(s, "roll")
    assert s.pos[0] == 10
    assert s.current_player() == 0 and "roll" in kinds(s)
    dice(s, 4, 6)
    act(s, "roll")
    assert s.pos[0] == 20
    assert s.turn == 1  # no double: the turn passed on (nothing else to do)


def test_three_doubles_go_to_jail_without_moving() -> None:
    """Friends rules A, "How to Play": "If you roll doubles three times on your turn ... you will
    immediately go to jail"; Frozen II, "Game Play": "Do not complete your third turn"."""
    s = game()
    dice(s, 5, 5, 5, 5, 1, 1)
    act(s, "roll")
    act(s, "roll")
    assert s.pos[0] == 20
    events = act(s, "roll")
    assert "three_doubles" in event_kinds(events)
    assert s.pos[0] == 10 and s.in_jail[0]  # not moved to 22 first
    assert s.cash[0] == 1500
    assert s.turn == 1  # the turn ended


def test_doubles_count_restarts_each_turn() -> None:
    """Friends rules B, "On Your Turn": three doubles "on the same turn"; a double on the next
    turn starts a new count."""
    s = game(players=2)
    dice(s, 2, 2, 3, 3, 4, 6)  # seat 0: two doubles, then a non-double: 4, 10, 20
    act(s, "roll")
    act(s, "roll")
    act(s, "roll")
    assert s.pos[0] == 20 and s.cash[0] == 1300  # Income Tax on the way
    assert s.turn == 1 and s.doubles == 0
    dice(s, 5, 5)
    act(s, "roll")
    assert not s.in_jail[1] and s.pos[1] == 10 and s.doubles == 1


def test_salary_when_passing_go() -> None:
    """Friends rules A, "GO": "Whenever you land on or pass GO, you will collect M200"."""
    s = game()
    at(s, 0, 36)
    dice(s, 2, 3)
    act(s, "roll")
    assert s.pos[0] == 1
    assert s.cash[0] == 1700


def test_salary_when_landing_on_go_paid_once() -> None:
    """Friends rules A, "GO": landing on GO pays M200 (once, not also for passing)."""
    s = game()
    at(s, 0, 35)
    dice(s, 2, 3)
    act(s, "roll")
    assert s.pos[0] == 0
    assert s.cash[0] == 1700


def test_go_to_jail_square_no_salary_and_ends_turn_even_on_doubles() -> None:
    """Friends rules A, "Go to Jail": "immediately move your token to the Jail space. You do not
    collect M200 for passing GO"; "Whenever you are forced to go to Jail, your turn ends
    immediately" (a double does not give another roll)."""
    s = game()
    at(s, 0, 28)
    dice(s, 1, 1)
    act(s, "roll")
    assert s.pos[0] == 10 and s.in_jail[0]
    assert s.cash[0] == 1500
    assert s.turn == 1


def test_income_tax() -> None:
    """Friends rules A, "Central Perk Tab and Lose at Football": pay the amount printed on the
    space (classic Income Tax $200, square 4)."""
    s = game()
    dice(s, 1, 3)
    act(s, "roll")
    assert s.pos[0] == 4
    assert s.cash[0] == 1300
    assert s.bank_in == 200


def test_luxury_tax() -> None:
    """Friends rules B, "Lose at American Football/Central Perk Tab": "pay the Bank the amount
    shown" (classic Luxury Tax $100, square 38)."""
    s = game()
    at(s, 0, 35)
    dice(s, 1, 2)
    act(s, "roll")
    assert s.pos[0] == 38
    assert s.cash[0] == 1400


def test_free_parking_does_nothing() -> None:
    """Friends rules A, "Free Parking": "You do not collect any money, and you do not have to
    pay any money"."""
    s = game()
    at(s, 0, 10)
    before = sum(s.cash)
    dice(s, 4, 6)
    act(s, "roll")
    assert s.pos[0] == 20
    assert s.cash[0] == 1500 and sum(s.cash) == before


def test_just_visiting_does_nothing() -> None:
    """Friends rules A, "Just Visiting": "Nothing happens when you land on this space"."""
    s = game()
    at(s, 0, 6)
    dice(s, 1, 3)
    act(s, "roll")
    assert s.pos[0] == 10
    assert not s.in_jail[0]
    assert s.cash[0] == 1500


def test_own_property_does_nothing() -> None:
    """Friends rules A, "Owned Moments": "If you own the moment, you do not do anything"."""
    s = game()
    own(s, 0, 39)
    at(s, 0, 35)
    dice(s, 1, 3)
    act(s, "roll")
    assert s.pos[0] == 39 and s.cash[0] == 1500
    assert not s.stack


def test_play_passes_to_the_left() -> None:
    """Friends rules A, "How to Play": "When you finish your turn, play passes to the player on
    your left" (the next seat, wrapping round)."""
    s = game(players=3)
    turn_of(s, 2)
    at(s, 2, 10)
    dice(s, 4, 6)
    act(s, "roll")
    assert s.turn == 0
