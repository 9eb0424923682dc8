"""A first scenario: roll, move, buy (Friends rules B, "On Your Turn")."""

from tests.monopoly.helpers import act, dice, game, kinds


def test_roll_move_buy() -> None:
    s = game()
    dice(s, 1, 2)
    act(s, "roll")
    assert s.pos[0] == 3  # Baltic Avenue
    assert kinds(s) >= {"buy", "decline"}
    act(s, "buy")
    assert s.owner[3] == 0
    assert s.cash[0] == 1500 - 60
