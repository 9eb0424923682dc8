"""The decision frames own their behaviour (docs/KERNEL.md, "Decisions"): each kind reads back
from its snapshot form as it was, and each says what becomes of it when a seat leaves."""

from __future__ import annotations

import pytest

from meeple.games.monopoly.frames import DEED, HOUSE, Frame
from meeple.games.monopoly.rules import bankruptcy
from meeple.games.monopoly.rules.auction import AuctionFrame
from meeple.games.monopoly.rules.bankruptcy import DebtFrame
from meeple.games.monopoly.rules.buying import BuyFrame
from meeple.games.monopoly.rules.mortgage import MortgageFeeFrame
from meeple.games.monopoly.rules.shortage import PlaceFrame, ShortageFrame
from meeple.games.monopoly.rules.snowflake import SnowflakeFrame
from meeple.games.monopoly.rules.trade import TradeFrame
from tests.monopoly.helpers import game

EVERY_KIND: list[Frame] = [
    BuyFrame(1, 39),
    AuctionFrame(DEED, 39, [2, 3, 0], 10, high=40, high_bidder=3, turn=2),
    DebtFrame(1, 2, 300, then_move=7),
    TradeFrame(0, 2, [1, 3], [0], cash=-50, responding=True, counters=1, edits=4),
    MortgageFeeFrame(3, [5, 15]),
    ShortageFrame(HOUSE, 0, 1, [2, 3], [2]),
    PlaceFrame(2, HOUSE, 61),
    SnowflakeFrame(1),
]


@pytest.mark.parametrize("frame", EVERY_KIND, ids=lambda f: f.name)
def test_each_kind_of_frame_reads_back_from_a_snapshot_as_it_was(frame: Frame) -> None:
    s = game()
    s.stack = [frame]
    snap = s.snapshot()
    assert snap["stack"] == [frame.to_dict()] and snap["stack"][0]["frame"] == frame.name
    t = game()
    t.restore(snap)
    (back,) = t.stack
    assert type(back) is type(frame) and back.to_dict() == frame.to_dict()
    assert t.decision_name() == frame.name and back.decider() == frame.decider()
    copied = frame.copy()
    assert copied is not frame and copied.to_dict() == frame.to_dict()


def test_an_unknown_frame_in_a_snapshot_is_refused_by_name() -> None:
    s = game()
    snap = s.snapshot()
    snap["stack"] = [{"frame": "haggle", "player": 0}]
    with pytest.raises(ValueError, match="unknown frame 'haggle'"):
        game().restore(snap)


def test_what_becomes_of_each_frame_when_a_seat_leaves() -> None:
    # A purchase, a placement and a mortgage fee go with their decider.
    assert not BuyFrame(1, 39).without(1) and BuyFrame(1, 39).without(2)
    assert not PlaceFrame(2, HOUSE, 61).without(2) and MortgageFeeFrame(3, [5]).without(1)
    assert not SnowflakeFrame(1).without(1)
    # A debt goes with either side; a trade with either party.
    assert not DebtFrame(1, 2, 300).without(2) and DebtFrame(1, 2, 300).without(0)
    assert not TradeFrame(0, 2).without(2) and TradeFrame(0, 2).without(1)
    # A shortage question goes with its requester; anyone else is no longer asked.
    short = ShortageFrame(HOUSE, 0, 1, [2, 3], [2])
    assert short.without(2) and short.asking == [3] and short.wanting == []
    assert not short.without(0)
    # A bidder who leaves drops out; their standing bid goes, and the turn stays on the
    # bidder who was to act.
    bids = AuctionFrame(DEED, 39, [2, 3, 0], 10, high=40, high_bidder=3, turn=2)
    assert bids.without(3) and bids.active == [2, 0] and bids.decider() == 0
    assert bids.high_bidder == -1 and bids.next_min() == 10


def test_a_state_drops_the_frames_of_a_seat_that_leaves() -> None:
    s = game()
    s.stack = [DebtFrame(1, 3, 300), BuyFrame(2, 39), AuctionFrame(DEED, 39, [1, 2, 3], 10)]
    bankruptcy.drop_decisions_of(s, 2)
    assert [f.name for f in s.stack] == ["debt", "auction"]
    assert s.stack[-1].to_dict()["active"] == [1, 3]


def test_clones_share_the_history_until_they_part() -> None:
    """A clone copies no history (``MonopolyState._record``), yet each state keeps its own."""
    s = game()
    s.apply(s.legal_actions()[0])
    base = list(s.history)
    c = s.clone()
    to_c = c.legal_actions()[-1]
    c.apply(to_c)
    assert s.history == base and c.history == [*base, to_c]
    d = s.clone()  # from the original again, after its first clone appended in place
    to_s, to_d = s.legal_actions()[0], d.legal_actions()[-1]
    s.apply(to_s)
    d.apply(to_d)
    assert (s.history, c.history, d.history) == ([*base, to_s], [*base, to_c], [*base, to_d])
