"""Buying the deed you land on, or the bank's auction.

Friends rules A, "Unowned Moment"; Friends rules B, "An unowned property" and "Auction";
Frozen II, "Don't want to buy it?" (no bids: the deed stays with the bank).
"""

from tests.monopoly.helpers import act, at, cash, dice, game, kinds, legal, own


def to_boardwalk(players: int = 4):  # type: ignore[no-untyped-def]
    s = game(players=players)
    at(s, 0, 35)
    dice(s, 1, 3)
    act(s, "roll")
    assert s.pos[0] == 39 and s.decision_name() == "buy"
    return s


def test_buy_at_the_printed_price() -> None:
    """Friends rules A, "Unowned Moment": "You will pay the bank the amount printed on the space.
    You will then take the corresponding deed" (Boardwalk 400)."""
    s = to_boardwalk()
    act(s, "buy")
    assert s.owner[39] == 0 and s.cash[0] == 1100 and s.bank_in == 400


def test_decline_starts_an_auction_for_every_player_including_the_decliner() -> None:
    """Friends rules A, "Unowned Moment": "the property will be auctioned off by the Bank. All of
    the players can bid in the auction" - the decliner too, asked last (bidding goes round from
    the decliner's left: docs/RULES.md, Decisions)."""
    s = to_boardwalk()
    act(s, "decline")
    f = s.stack[-1]
    assert s.decision_name() == "auction"
    assert f.active == [1, 2, 3, 0]
    assert s.current_player() == 1


def test_bidding_starts_at_1() -> None:
    """Friends rules A: "The bidding can start as low as M1"."""
    s = to_boardwalk()
    act(s, "decline")
    assert "bid 1" in legal(s)


def test_highest_bidder_pays_the_bank_and_takes_the_deed() -> None:
    """Friends rules A: "Players will keep raising the bid until no one wants to raise. The
    player who bids the highest pays the bank the amount they bid"."""
    s = to_boardwalk()
    act(s, "decline")
    act(s, "bid 100")  # seat 1
    act(s, "bid 150")  # seat 2
    act(s, "pass")  # seat 3 out
    act(s, "bid 160")  # seat 0, the decliner
    act(s, "bid 200")  # seat 1
    act(s, "pass")  # seat 2 out
    act(s, "pass")  # seat 0 out
    assert s.owner[39] == 1
    assert s.cash == [1500, 1300, 1500, 1500]
    assert s.current_player() == 0 and not s.stack


def test_a_pass_drops_the_bidder_out_for_good() -> None:
    """Friends rules A: bidding goes on "until no one wants to raise"; a pass drops that bidder
    out of this auction (docs/RULES.md, Decisions: so every auction ends)."""
    s = to_boardwalk()
    act(s, "decline")
    act(s, "pass")  # seat 1 out
    assert 1 not in s.stack[-1].active
    act(s, "bid 10")  # seat 2
    act(s, "pass")  # seat 3
    assert s.current_player() == 0
    act(s, "bid 20")  # seat 0
    assert s.current_player() == 2  # seat 1 is not asked again
    act(s, "pass")
    assert s.owner[39] == 0 and s.cash[0] == 1480


def test_any_amount_in_range_may_be_bid() -> None:
    """Friends rules B, "Auction": bids in cash - any whole amount from the minimum up to the
    bidder's cash, not only the listed ladder."""
    s = to_boardwalk(players=2)
    act(s, "decline")
    act(s, "bid 137")
    act(s, "pass")
    assert s.owner[39] == 1 and s.cash[1] == 1500 - 137


def test_nobody_bids_the_deed_stays_with_the_bank() -> None:
    """Frozen II, "Don't want to buy it?": "If no one wants to bid on the scene, that's fine.
    Nobody pays anything, and the Title Deed stays with the Bank" (the classic texts are silent:
    docs/RULES.md, Decisions)."""
    s = to_boardwalk()
    act(s, "decline")
    for _ in range(4):
        act(s, "pass")
    assert s.owner[39] == -1 and s.cash == [1500] * 4


def test_bidder_who_cannot_raise_is_passed_over() -> None:
    """Friends rules B, "Auction": "Auction bids can only be made in cash" - a bidder without
    the cash to top the bid is skipped."""
    s = to_boardwalk()
    cash(s, 2, 50)
    act(s, "decline")
    act(s, "bid 60")  # seat 1
    assert s.current_player() == 3  # seat 2 (50 cash) passed over
    assert 2 not in s.stack[-1].active


def test_buy_decision_offers_raising_money_first() -> None:
    """Friends rules B, "Mortgage Properties": "If you're low on cash ... you can mortgage" - the
    buy decision offers selling and mortgaging to raise the price (docs/RULES.md, Decisions):
    50 cash + 30 from mortgaging Mediterranean buys Baltic (60)."""
    s = game()
    cash(s, 0, 50)
    own(s, 0, 1)
    dice(s, 1, 2)
    act(s, "roll")
    assert s.decision_name() == "buy"
    assert "buy" not in kinds(s) and "mortgage 1" in legal(s)
    assert "trade" not in kinds(s)
    act(s, "mortgage 1")
    assert "buy" in kinds(s)
    act(s, "buy")
    assert s.owner[3] == 0 and s.cash[0] == 20


def test_cannot_afford_then_decline_sends_it_to_auction() -> None:
    """Friends rules A: "If you don't want the moment for the listed price" (or cannot pay it)
    the bank auctions it; the decliner may still bid what they have."""
    s = to_boardwalk(players=2)
    cash(s, 0, 300)
    assert "buy" not in kinds(s)
    act(s, "decline")
    act(s, "pass")  # seat 1
    act(s, "bid 250")  # seat 0
    assert s.owner[39] == 0 and s.cash[0] == 50
