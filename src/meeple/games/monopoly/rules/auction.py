"""Auctions: of a declined deed, of a bankrupt's deeds, and of short buildings.

Friends rules B, "Auction": bids in cash only; anyone may start "for as little as M1"; the
highest bidder pays the bank. Bidders are asked in seat order; a pass drops a bidder out for
good, so every auction ends (docs/RULES.md, "Auction procedure"). A bidder who cannot raise
the bid from cash is passed over. If nobody bids, the deed stays with the bank (Frozen II says
so outright; the classic texts are silent: docs/RULES.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from meeple.games.monopoly import actions as A
from meeple.games.monopoly.frames import DEED, Frame
from meeple.games.monopoly.rules import holdings, money, placing, table

if TYPE_CHECKING:
    from meeple.games.monopoly.state import MonopolyState
    from meeple.kernel.protocol import Action
    from meeple.kernel.rng import Rng


class AuctionFrame(Frame):
    """An English auction: bidders in seat order raise or drop out until one bid stands.

    ``item`` is DEED (``square`` names it), HOUSE or HOTEL (a building-shortage auction).
    ``active`` lists the seats still in, in bidding order; ``turn`` indexes the one to act.
    """

    __slots__ = ("active", "high", "high_bidder", "item", "min_bid", "square", "turn")
    name = "auction"

    def __init__(
        self,
        item: int,
        square: int,
        active: list[int],
        min_bid: int,
        high: int = 0,
        high_bidder: int = -1,
        turn: int = 0,
    ) -> None:
        self.item = item
        self.square = square
        self.active = active
        self.min_bid = min_bid
        self.high = high
        self.high_bidder = high_bidder
        self.turn = turn

    def decider(self) -> int:
        return self.active[self.turn]

    def next_min(self) -> int:
        return self.high + 1 if self.high_bidder >= 0 else self.min_bid

    def copy(self) -> AuctionFrame:
        return AuctionFrame(
            self.item,
            self.square,
            list(self.active),
            self.min_bid,
            self.high,
            self.high_bidder,
            self.turn,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "frame": self.name,
            "item": self.item,
            "square": self.square,
            "active": list(self.active),
            "min_bid": self.min_bid,
            "high": self.high,
            "high_bidder": self.high_bidder,
            "turn": self.turn,
        }

    @staticmethod
    def from_dict(d: dict[str, Any]) -> Frame:
        return AuctionFrame(
            d["item"],
            d["square"],
            list(d["active"]),
            d["min_bid"],
            d["high"],
            d["high_bidder"],
            d["turn"],
        )

    def legal(self, s: MonopolyState, p: int) -> list[Action]:
        out = [A.act(A.BID, x) for x in bid_ladder(s, self)]
        out.append(A.A_PASS)
        return out

    def sample(self, s: MonopolyState, p: int, rng: Rng) -> Action:
        """:meth:`legal`'s action drawn by one ``rng.below`` (``Decision.sample``): the bids
        of the ladder counted (:func:`bid_steps`), and the one drawn the only action made."""
        low = self.next_min()
        n = bid_steps(low, s.cash[p])
        i = rng.below(n + 1)
        return _BIDS.of(low + _BID_LADDER[i]) if i < n else A.A_PASS

    def allows(self, s: MonopolyState, p: int, kind: str, arg: int) -> bool:
        if kind == A.BID:
            return self.next_min() <= arg <= s.cash[p]
        return kind == A.PASS

    def play(self, s: MonopolyState, p: int, kind: str, arg: int) -> None:
        if kind == A.BID:
            bid(s, self, arg)
        else:
            drop_out(s, self)

    def settle(self, s: MonopolyState) -> bool:
        return settle(s, self)

    def refusal(self, s: MonopolyState, p: int, action: Action) -> str:
        if action.kind == A.BID:
            return f"a bid must be between {self.next_min()} and your cash {s.cash[p]}"
        return ""

    def without(self, p: int) -> bool:
        """A bidder who leaves drops out; a high bid of theirs no longer stands."""
        if p in self.active:
            i = self.active.index(p)
            self.active.pop(i)
            if i < self.turn:
                self.turn -= 1
            if self.active:
                self.turn %= len(self.active)
            if self.high_bidder == p:
                self.high, self.high_bidder = 0, -1
        return True


def proxy_bid(s: MonopolyState, seat: int, limit: int) -> tuple[bool, Action | None]:
    """A standing bid up to ``limit`` (``GameState.auction_bid``): whether ``seat`` is in an
    open auction, and its answer when it is its turn to bid: the smallest legal bid
    (``AuctionFrame.next_min``) while that is within ``limit`` and its cash, else dropping out
    (a pass)."""
    f = s.stack[-1] if s.stack else None
    if s.over or not isinstance(f, AuctionFrame) or seat not in f.active:
        return False, None
    if s.current_player() != seat:
        return True, None
    low = f.next_min()
    if low <= limit and low <= s.cash[seat]:
        return True, A.act(A.BID, low)
    return True, A.A_PASS


def start_auction(
    s: MonopolyState, item: int, square: int, bidders: list[int], min_bid: int | None = None
) -> None:
    s.stack.append(
        AuctionFrame(
            item, square, bidders, min_bid if min_bid is not None else s.rules.auction_min_bid
        )
    )
    if s._events is not None:
        s.event("auction", item=item, square=square)


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
    return limit is not None and holdings.count_bits(s.kept.held[p]) >= limit


def award(s: MonopolyState, f: AuctionFrame) -> None:
    p, amount = f.high_bidder, f.high
    money.pay_bank(s, p, amount)
    if s._events is not None:
        s.event("auction_won", player=p, item=f.item, square=f.square, amount=amount)
    if f.item == DEED:
        holdings.give_deeds(s, [f.square], p, lift=True)
        table.check_all_owned(s)
    else:
        s.stack.append(placing.PlaceFrame(p, f.item, amount))


_BID_LADDER: Final[list[int]] = list(A.BID_LADDER)
"""The ladder as a list held by the module: the compiled build makes a Final tuple of another
module afresh at every use."""
_BIDS: Final = A.made(A.BID)  # (the actions bid: AuctionFrame.sample)


def bid_ladder(s: MonopolyState, f: AuctionFrame) -> list[int]:
    """The amounts legal_actions lists: the smallest legal bid and a few jumps above it (the
    first :func:`bid_steps` of the ladder)."""
    low = f.next_min()
    return [low + _BID_LADDER[i] for i in range(bid_steps(low, s.cash[f.active[f.turn]]))]


def bid_steps(low: int, cash: int) -> int:
    """How many bids of the ladder (``A.BID_LADDER``, rising jumps above ``low``, the smallest
    legal bid) the bidder's ``cash`` covers: the bids listed are the ladder's first so many."""
    ladder = _BID_LADDER
    n = 0
    while n < len(ladder) and low + ladder[n] <= cash:
        n += 1
    return n
