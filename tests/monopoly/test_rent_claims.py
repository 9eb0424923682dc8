"""The rule option rent_claim_required: the owner must ask for rent before the next roll.

Friends rules A, "Paying Rent": "They must tell you what you owe before the next player rolls
the die. If they don't alert you soon enough, you don't owe them the rent"; Friends rules B:
"the owner must ask you for the rent before the player to your left rolls the dice. If they
forget to ask, you don't have to pay!"; Frozen II, "Owned Scenes". Off by default: rent is
collected automatically (docs/RULES.md, Decisions). These tests play the Friends deadline
(``rent_claim_turns = 1``, as friends.toml and frozen-ii.toml state it) on the classic board;
the classic deadline, a turn longer, is tested in test_classic_rules.py.
"""

from tests.monopoly.helpers import act, at, dice, game, kinds, legal, own


def land_on_boardwalk(players: int, owner: int):  # type: ignore[no-untyped-def]
    s = game(players=players, rent_claim_required=True, rent_claim_turns=1)
    own(s, owner, 39)
    at(s, 0, 35)
    dice(s, 1, 3)
    act(s, "roll")
    return s


def test_default_collects_rent_automatically() -> None:
    """Default rule option: rent is paid on landing, nobody needs to ask."""
    s = game()
    own(s, 1, 39)
    at(s, 0, 35)
    dice(s, 1, 3)
    act(s, "roll")
    assert s.cash[0] == 1450 and not s.claims


def test_owner_claims_in_their_window() -> None:
    """Friends rules B, "Don't Wait for the Dice", "Collect Rent": the owner demands rent out of
    turn - here in the window after the payer's turn."""
    s = land_on_boardwalk(3, 2)
    assert s.cash[0] == 1500 and len(s.claims) == 1
    act(s, "end_turn")
    assert s.current_player() == 1
    assert "claim_rent" not in kinds(s)  # only the owner may claim
    act(s, "pass")
    assert s.current_player() == 2 and "claim_rent 0" in legal(s)
    act(s, "claim_rent 0")
    assert s.cash[0] == 1450 and s.cash[2] == 1550 and not s.claims


def test_forgotten_rent_is_not_owed_once_the_next_player_rolls() -> None:
    """Friends rules A: "If they don't alert you soon enough, you don't owe them the rent"."""
    s = land_on_boardwalk(3, 2)
    act(s, "end_turn")
    act(s, "pass")  # seat 1
    act(s, "pass")  # seat 2, the owner, forgets
    assert s.turn == 1
    at(s, 1, 10)
    dice(s, 4, 6)
    act(s, "roll")
    assert not s.claims
    assert s.cash[0] == 1500 and s.cash[2] == 1500


def test_owner_who_plays_next_may_still_claim_before_rolling() -> None:
    """Friends rules B: "before the player to your left rolls the dice" - the owner is that
    player and claims before their own roll."""
    s = land_on_boardwalk(2, 1)
    act(s, "end_turn")
    act(s, "pass")  # seat 1's window
    assert s.turn == 1 and s.phase == s.PRE_ROLL and "claim_rent 0" in legal(s)
    act(s, "claim_rent 0")
    assert s.cash == [1450, 1550]


def test_claim_expires_at_the_owners_own_roll() -> None:
    """Friends rules B: the claim must come "before the player to your left rolls" - rolling
    without claiming forfeits it."""
    s = land_on_boardwalk(2, 1)
    act(s, "end_turn")
    act(s, "pass")
    at(s, 1, 10)
    dice(s, 4, 6)
    act(s, "roll")
    assert not s.claims and s.cash == [1500, 1500]


def test_claim_survives_the_payers_extra_roll() -> None:
    """Friends rules B: the deadline is the *next player's* roll, not the payer's own extra roll
    after a double."""
    s = game(players=2, rent_claim_required=True, rent_claim_turns=1)
    own(s, 1, 39)
    at(s, 0, 35)
    dice(s, 2, 2, 1, 2)
    act(s, "roll")  # double onto Boardwalk: claim
    act(s, "roll")  # again: 39 -> 2 (Community Chest)
    assert len(s.claims) == 1
