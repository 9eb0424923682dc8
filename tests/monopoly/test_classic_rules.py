"""The classic rules where they differ from the Friends rulebooks classic once borrowed.

The classic rules are Hasbro's instruction sheet 00009, "Classic MONOPOLY Rules" (©2004, 2007
Hasbro; docs/RULES.md, "Classic rules (Hasbro)" gives where it was read). Each test quotes it
and fails if classic stops following it; the other rows of that section point to the tests
that already prove the rules classic shares with the Friends rulebooks.
"""

from __future__ import annotations

import pytest

from meeple.bots.base import make_bot
from meeple.games.monopoly import new_monopoly
from meeple.kernel.family import new_game
from tests.monopoly.helpers import (
    CHANCE,
    CHEST,
    act,
    at,
    build_to,
    deck_top,
    dice,
    edition_game,
    game,
    give_card,
    illegal,
    jail,
    legal,
    own,
    pass_windows,
)

# -- JAIL: the fine before the first two tries only ----------------------------------------


def test_the_fine_is_offered_before_the_first_and_second_tries() -> None:
    """The classic rules, "JAIL": "You get out of Jail by ... (4) paying a fine of $50 before
    you roll the dice on either of your next two turns"."""
    for tries in (0, 1):
        s = game()
        jail(s, 0, turns=tries)
        assert {"pay_fine", "roll"} <= legal(s)
        act(s, "pay_fine")
        assert s.cash[0] == 1450 and not s.in_jail[0]


def test_the_third_turn_in_jail_rolls_and_pays_only_after_a_miss() -> None:
    """The classic rules, "JAIL": the fine is paid "before you roll the dice on either of your
    next two turns. If you do not throw doubles by your third turn, you must pay the $50 fine.
    You then get out of Jail and immediately move forward the number of spaces shown by your
    throw": on the third turn there is no fine before the roll (a card may still be used:
    "(2) using the 'Get Out of Jail Free' card if you have it")."""
    s = game()
    jail(s, 0, turns=2)
    give_card(s, 0, CHANCE)
    assert "pay_fine" not in legal(s) and {"roll", "use_card 0"} <= legal(s)
    assert "first 2 turns in Jail only" in illegal(s, "pay_fine")
    dice(s, 2, 3)
    act(s, "roll")
    assert s.cash[0] == 1450 and s.pos[0] == 15 and not s.in_jail[0]


@pytest.mark.parametrize("edition", ["friends", "frozen-ii"])
def test_friends_and_frozen_ii_offer_the_fine_on_every_turn_in_jail(edition: str) -> None:
    """Friends rules B and Frozen II, "How do I get out of Jail?": "Pay M50 at the start of
    your next turn, then roll" - on the third turn too (``jail_fine_on_last_try = true``)."""
    s = edition_game(edition)
    jail(s, 0, turns=2)
    assert "pay_fine" in legal(s)
    act(s, "pay_fine")
    assert s.cash[0] == 1450 and not s.in_jail[0]


def test_the_standard_bot_rolls_on_its_third_turn_in_jail() -> None:
    """The standard bot leaves jail early in the game by paying when it may; on the third
    turn the classic rules leave it the roll (its choice is legal)."""
    s = game(players=2)
    jail(s, 0, turns=2)
    bot = make_bot("standard", "monopoly", 1)
    assert str(bot.choose(s)) == "roll"
    jail(s, 0, turns=1)
    assert str(bot.choose(s)) == "pay_fine"


# -- PAYING RENT: the claim lasts until the second player following rolls ---------------


def claimable_rent(edition: str = "classic", **rules: object):  # type: ignore[no-untyped-def]
    """Three players with rent claims on: Player 1 lands on Player 3's Boardwalk ($50)."""
    s = edition_game(edition, 3, rent_claim_required=True, **rules)
    own(s, 2, 39)
    at(s, 0, 35)
    dice(s, 1, 3)
    act(s, "roll")
    assert len(s.claims) == 1
    pass_windows(s)
    return s


def test_rent_may_be_claimed_until_the_second_player_following_rolls() -> None:
    """The classic rules, "PAYING RENT": "The owner may not collect the rent if he/she fails to
    ask for it before the second player following throws the dice": Player 2 rolls (the first
    player following) and the claim still stands; Player 3, the owner, claims it afterwards."""
    s = claimable_rent()
    assert s.turn == 1
    at(s, 1, 15)  # to Free Parking
    dice(s, 2, 3)
    act(s, "roll")
    assert len(s.claims) == 1
    pass_windows(s)
    assert s.turn == 2 and "claim_rent 0" in legal(s)
    act(s, "claim_rent 0")
    assert s.cash[0] == 1450 and s.cash[2] == 1550


def test_rent_not_claimed_is_lost_when_the_second_player_following_rolls() -> None:
    """The classic rules, "PAYING RENT": "before the second player following throws the dice"
    - Player 3 rolls without claiming, and the rent is not owed."""
    s = claimable_rent()
    at(s, 1, 15)  # to Free Parking
    dice(s, 2, 3)
    act(s, "roll")
    pass_windows(s)
    at(s, 2, 15)
    dice(s, 2, 3)
    act(s, "roll")
    assert not s.claims and s.cash[0] == 1500 and s.cash[2] == 1500


@pytest.mark.parametrize("edition", ["friends", "frozen-ii"])
def test_friends_and_frozen_ii_lose_the_claim_at_the_next_roll(edition: str) -> None:
    """Friends rules B, "2. A property owned by another player": "the owner must ask you for
    the rent before the player to your left rolls the dice"; Frozen II, "Owned Scenes": "If
    they don't ask before the next player rolls the dice, you don't have to pay!"
    (``rent_claim_turns = 1``)."""
    s = claimable_rent(edition)
    at(s, 1, 15)  # to Free Parking
    dice(s, 2, 3)
    act(s, "roll")
    assert not s.claims and s.cash[0] == 1500


# -- GO, HOUSES ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("start", "deck", "card", "faces"), [(36, CHEST, "CC01", (1, 5)), (39, CHANCE, "CH01", (3, 5))]
)
def test_passing_go_onto_advance_to_go_pays_the_salary_twice(
    start: int, deck: int, card: str, faces: tuple[int, int]
) -> None:
    """The classic rules, "GO": "if a player passing GO on the throw of the dice lands 2 spaces
    beyond it on Community Chest, or 7 spaces beyond it on Chance, and draws the 'Advance to
    GO' card, he/she collects $200 for passing GO the first time and another $200 for reaching
    it the second time by instructions on the card"."""
    s = game()
    deck_top(s, deck, card)
    at(s, 0, start)
    dice(s, *faces)
    act(s, "roll")
    assert s.pos[0] == 0 and s.cash[0] == 1900


def test_an_unimproved_street_of_a_built_group_still_pays_double_rent() -> None:
    """The classic rules, "HOUSES": "The owner still collects double rent from an opponent who
    lands on the unimproved properties of his/her complete color-group" (New York Avenue, base
    rent 16, with a house on each of the other two orange streets: 32)."""
    s = game()
    own(s, 1, 16, 18, 19)
    build_to(s, {16: 1, 18: 1})
    at(s, 0, 15)
    dice(s, 1, 3)
    act(s, "roll")
    assert s.pos[0] == 19 and s.cash[0] == 1500 - 32 and s.cash[1] == 1500 + 32


# -- Older games -----------------------------------------------------------------------------


def test_classic_states_its_jail_fine_and_claim_deadline() -> None:
    """classic.toml states the classic values; the Friends and Frozen II files theirs."""
    rules = new_monopoly("classic", 2, 1).rules
    assert rules.jail_fine_on_last_try is False and rules.rent_claim_turns == 2
    for edition in ("friends", "frozen-ii"):
        rules = new_monopoly(edition, 2, 1).rules
        assert rules.jail_fine_on_last_try is True and rules.rent_claim_turns == 1


@pytest.mark.parametrize("ruleset", [1, 2])
def test_a_game_of_an_older_ruleset_plays_the_fine_and_the_claims_as_it_did(
    ruleset: int,
) -> None:
    """Rulesets 1 and 2 (games stored or saved before the classic rules were followed here,
    rules/rulesets.py) played the Friends way in every edition: a save of one replays as it
    was played, a fine on the third turn in jail included."""
    s = new_game("classic", 2, 5, {"ruleset": ruleset, "rules": {"start_player": "first_seat"}})
    assert s.rules.jail_fine_on_last_try is True and s.rules.rent_claim_turns == 1
    jail(s, 0, turns=2)
    assert "pay_fine" in legal(s)


def test_only_the_owner_lifts_a_mortgage() -> None:
    """The classic rules, "MORTGAGES": "The player who mortgages property retains possession
    of it and no other player may secure it by lifting the mortgage from the Bank"."""
    s = game()
    own(s, 1, 39, mortgaged=True)
    illegal(s, "unmortgage 39")
    assert s.owner[39] == 1 and s.mortgaged[39]


def test_the_rules_summary_says_when_the_fine_and_the_rent_are_due() -> None:
    """The terminal's rules summary (``info``) says the classic jail fine and claim deadline
    (the classic rules, "JAIL" and "PAYING RENT"), and the Friends ones for Friends."""
    from meeple.games.monopoly.render import rules_lines

    classic = " ".join(rules_lines(game(rent_claim_required=True).ed))
    assert "Jail: pay $50 before your last try, use a Get Out of Jail Free card" in classic
    assert "Rent must be claimed before the second player after the payer rolls" in classic
    friends = " ".join(rules_lines(edition_game("friends", rent_claim_required=True).ed))
    assert "Jail: pay M50, use a Get Out of Jail Free card" in friends
    assert "Rent must be claimed before the next player rolls" in friends
