"""The house rule ``free_parking_money``: taxes, fines and card payments to the bank go into a
pot on Free Parking, and whoever lands there takes it.

No rulebook has it: the Frozen II rulebook's Top Tips name it to advise against it ("Never put
cash in the center of the board; you don't get a bonus for landing on Free Parking!"), so every
edition leaves it off and a table turns it on per game (docs/RULES.md, "Free Parking money").
"""

from __future__ import annotations

import json

from meeple.bots.base import make_bot
from meeple.games.monopoly import new_monopoly
from meeple.games.monopoly.audit import audit
from meeple.kernel.saves import load_data, save_data
from tests.monopoly.helpers import (
    CHEST,
    act,
    at,
    cash,
    deck_top,
    dice,
    game,
    jail,
    turn_of,
)


def test_a_tax_goes_into_the_pot_and_free_parking_pays_it_out() -> None:
    """Income Tax ($200, square 4) waits on Free Parking; the next player to land on Free
    Parking (square 20) takes it, and the log says where the money went."""
    s = game(free_parking_money=True)
    dice(s, 1, 3)
    events = act(s, "roll")
    assert s.pos[0] == 4 and s.cash[0] == 1300
    assert s.pot == 200 and s.bank_in == 0
    assert "Player 1 pays $200 to the Free Parking pot." in [s.describe(e) for e in events]
    assert s.view(None)["bank"]["pot"] == 200
    turn_of(s, 1)
    at(s, 1, 15)
    dice(s, 2, 3)
    events = act(s, "roll")
    assert s.pos[1] == 20 and s.cash[1] == 1700 and s.pot == 0
    assert "Player 2 takes the Free Parking pot: $200." in [s.describe(e) for e in events]


def test_without_the_house_rule_taxes_pay_the_bank_and_free_parking_pays_nothing() -> None:
    """The rulebooks' rule (every edition's default): the tax is the bank's, and Free Parking
    does nothing; the state and the view have no pot to show."""
    s = game()
    dice(s, 1, 3)
    act(s, "roll")
    assert s.bank_in == 200 and s.pot == 0
    assert "pot" not in s.view(None)["bank"] and "pot" not in s.snapshot()


def test_a_card_payment_to_the_bank_goes_into_the_pot() -> None:
    """Community Chest "Doctor's fee" (CC03, pay $50) is a payment to the bank: into the pot."""
    s = game(free_parking_money=True)
    deck_top(s, CHEST, "CC03")
    dice(s, 1, 1)
    act(s, "roll")  # square 2, Community Chest
    assert s.cash[0] == 1450 and s.pot == 50


def test_the_jail_fine_goes_into_the_pot() -> None:
    """The fine to leave jail is a fine: into the pot, and the log says so."""
    s = game(free_parking_money=True)
    turn_of(s, 0)
    jail(s, 0)
    events = act(s, "pay_fine")
    assert s.cash[0] == 1450 and s.pot == 50
    assert "Player 1 pays $50 into the Free Parking pot to leave Jail." in [
        s.describe(e) for e in events
    ]


def test_buying_a_deed_still_pays_the_bank() -> None:
    """Only taxes, fines and card payments feed the pot: a purchase is the bank's."""
    s = game(free_parking_money=True)
    dice(s, 1, 2)
    act(s, "roll")  # Baltic Avenue, $60
    act(s, "buy")
    assert s.pot == 0 and s.bank_in == 60


def test_an_empty_pot_pays_nothing() -> None:
    s = game(free_parking_money=True)
    at(s, 0, 15)
    dice(s, 2, 3)
    events = act(s, "roll")
    assert s.pos[0] == 20 and s.cash[0] == 1500
    assert "free_parking_pot" not in [e.kind for e in events]


def test_bankrupt_over_a_fine_leaves_the_rest_of_the_cash_in_the_pot() -> None:
    """A debt to the pot that cannot be paid is a bankruptcy to the bank (its deeds are
    auctioned), and the cash the player had left goes where the debt was owed: the pot."""
    s = game(3, free_parking_money=True)
    turn_of(s, 0)
    jail(s, 0, turns=2)
    cash(s, 0, 20)
    dice(s, 1, 2)
    act(s, "roll")  # the third miss: owes the $50 fine to the pot, has $20
    act(s, "bankrupt")
    assert not s.alive[0] and s.pot == 20


def test_a_game_with_a_pot_saves_and_loads() -> None:
    """The pot is in the snapshot of a game with the house rule (so a save file checks it),
    and the rule is in the save file's options: loading replays the game to the same pot."""
    s = new_monopoly("classic", 3, 5, {"rules": {"free_parking_money": True}})
    bots = [make_bot("random", "monopoly", p) for p in range(3)]
    while s.pot == 0:
        s.apply(bots[s.current_player()].choose(s))
    data = json.loads(json.dumps(save_data(s)))
    assert data["options"] == {"rules": {"free_parking_money": True}, "ruleset": 3}
    assert data["state"]["pot"] == s.pot > 0
    again = load_data(data)
    assert again.pot == s.pot  # type: ignore[attr-defined]


def test_random_games_with_the_pot_keep_every_invariant() -> None:
    """Money is conserved with the pot counted as the players' (cash + pot = start + paid out
    - taken in) after every action of whole games between standard bots."""
    for seed in range(3):
        s = new_monopoly("classic", 3, seed, {"rules": {"free_parking_money": True}})
        s.record_events = False
        bots = [make_bot("standard", "monopoly", seed * 10 + p) for p in range(3)]
        taken = 0
        while not s.is_terminal() and s.turn_no < 400:
            pot = s.pot
            s.apply(bots[s.current_player()].choose(s))
            taken += max(0, pot - s.pot)
            problems = audit(s)
            assert not problems, problems
        assert taken > 0  # somebody landed on Free Parking with money on it
