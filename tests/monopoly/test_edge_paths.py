"""Paths the main scenario files do not reach: draft caps, a bankruptcy on the jail fine, a
rent claim whose payer is gone, and a building won at auction with nowhere left to go."""

from __future__ import annotations

from meeple.games.monopoly import actions as A
from meeple.games.monopoly.frames import HOUSE
from meeple.games.monopoly.rules.shortage import PlaceFrame
from tests.monopoly.helpers import act, at, cash, dice, game, jail, kinds, own, turn_of


def test_a_trade_draft_must_be_proposed_or_cancelled_after_its_edit_cap() -> None:
    """docs/RULES.md, "Trades": a draft allows MAX_DRAFT_EDITS changes, so every draft ends."""
    s = game()
    own(s, 0, 1)
    act(s, "trade 1")
    for i in range(A.MAX_DRAFT_EDITS):
        act(s, f"trade_cash {10 + i}")
    assert kinds(s) == {"cancel"}  # no deed or card chosen: the offer is not valid yet
    s2 = game()
    own(s2, 0, 1)
    act(s2, "trade 1")
    act(s2, "trade_deed 1")
    for i in range(A.MAX_DRAFT_EDITS - 1):
        act(s2, f"trade_cash {10 + i}")
    assert kinds(s2) == {"propose", "cancel"}


def test_third_jail_miss_with_no_way_to_pay_the_fine_is_bankruptcy() -> None:
    """Friends rules A, "Getting Out of Jail": after the third miss "you will be forced to pay
    M50"; with no cash and nothing to sell or mortgage, that is bankruptcy to the bank."""
    s = game(players=3)
    turn_of(s, 0)
    jail(s, 0, turns=2)
    cash(s, 0, 20)
    dice(s, 1, 2)
    act(s, "roll")
    assert s.stack and s.current_player() == 0 and kinds(s) == {"bankrupt"}
    act(s, "bankrupt")
    assert not s.alive[0]
    assert s.pos[0] == 10  # the move by the last roll never happened
    assert s.turn == 1 and s.phase == s.PRE_ROLL  # the next player goes on


def test_a_rent_claim_is_dropped_when_its_payer_is_eliminated() -> None:
    """Friends rules B: the owner must ask; a bankrupt payer can no longer be asked."""
    s = game(players=3, rent_claim_required=True)
    own(s, 1, 39)
    at(s, 0, 37)
    dice(s, 1, 1)
    act(s, "roll")  # lands on Boardwalk, owner seat 1 may claim 50
    assert s.claims and s.claims[0][1] == 0
    from meeple.games.monopoly.rules import bankruptcy

    bankruptcy.eliminate(s, 0)
    s.invalidate()
    assert s.claims == []


def test_a_building_won_with_nowhere_to_place_it_is_refunded() -> None:
    """docs/RULES.md, "Building shortage": the winner places the building; if no legal square is
    left (the set was sold meanwhile), the bid comes back."""
    s = game(players=2)
    own(s, 0, 1, 3)
    s.level[1] = s.level[3] = 4  # nowhere left for a house on the browns
    s.houses -= 8
    s.invalidate()
    before = s.cash[0]
    s.stack.append(PlaceFrame(0, HOUSE, 30))
    s.bank_in += 30
    s.cash[0] -= 30
    s._settle()
    assert not s.stack and s.cash[0] == before
