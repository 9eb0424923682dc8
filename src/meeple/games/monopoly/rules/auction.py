"""Auctions: of a declined deed, of a bankrupt's deeds, and of short buildings.

Friends rules B, "Auction": bids in cash only; anyone may start "for as little as M1"; the
highest bidder pays the bank. Bidders are asked in seat order; a pass drops a bidder out for
good, so every auction ends (docs/RULES.md, "Auction procedure"). A bidder who cannot raise
the bid from cash is passed over. If nobody bids, the deed stays with the bank (Frozen II says
so outright; the classic texts are silent: docs/RULES.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.games.monopoly.frames import DEED, AuctionFrame, PlaceFrame
from meeple.games.monopoly.rules import buying, money

if TYPE_CHECKING:
    from meeple.games.monopoly.state import MonopolyState


def bid(s: MonopolyState, f: AuctionFrame, amount: int) -> None:
    p = f.active[f.turn]
    f.high = amount
    f.high_bidder = p
    f.turn = (f.turn + 1) % len(f.active)
    if s._events is not None:
        s.event("bid", player=p, amount=amount)


def drop_out(s: MonopolyState, f: AuctionFrame) -> None:
    p = f.active.pop(f.turn)
    if f.active:
        f.turn %= len(f.active)
    if s._events is not None:
        s.event("auction_pass", player=p)


def settle(s: MonopolyState, f: AuctionFrame) -> bool:
    """Pass over bidders who cannot bid and close the auction when it is decided.

    Returns True if the auction is still waiting for a bidder's decision.
    """
    while True:
        if not f.active:
            s.stack.pop()
            if s._events is not None:
                s.event("unsold", item=f.item, square=f.square)
            return False
        if f.high_bidder >= 0 and len(f.active) == 1 and f.active[0] == f.high_bidder:
            s.stack.pop()
            award(s, f)
            return False
        p = f.active[f.turn]
        if not s.alive[p] or s.cash[p] < f.next_min() or (f.item == DEED and at_limit(s, p)):
            drop_out(s, f)
            continue
        return True


def at_limit(s: MonopolyState, p: int) -> bool:
    """``p`` has no sold sign left (``max_properties_per_player``): they cannot take a deed."""
    limit = s.rules.max_properties_per_player
    return limit is not None and s.owner.count(p) >= limit


def award(s: MonopolyState, f: AuctionFrame) -> None:
    p, amount = f.high_bidder, f.high
    money.pay_bank(s, p, amount)
    if s._events is not None:
        s.event("auction_won", player=p, item=f.item, square=f.square, amount=amount)
    if f.item == DEED:
        s.owner[f.square] = p
        s.mortgaged[f.square] = False
        s.board_changed(s.ed.group_of[f.square])
        buying.check_all_owned(s)
    else:
        s.stack.append(PlaceFrame(p, f.item, amount))


def bid_ladder(s: MonopolyState, f: AuctionFrame) -> list[int]:
    """The amounts legal_actions lists: the smallest legal bid and a few jumps above it."""
    from meeple.games.monopoly.actions import BID_LADDER

    low = f.next_min()
    cash = s.cash[f.active[f.turn]]
    return [low + d for d in BID_LADDER if low + d <= cash]
