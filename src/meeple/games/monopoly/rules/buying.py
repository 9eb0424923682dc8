"""Buying a deed you land on, or sending it to auction.

Friends rules A, "Unowned Moment": buy it at the printed price, or "the property will be
auctioned off by the Bank. All of the players can bid in the auction" (the decliner too).
Raising money to buy (selling buildings, mortgaging) is allowed first: the buy decision offers
those actions (docs/RULES.md, "Raising money to buy").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.games.monopoly.frames import DEED, AuctionFrame, BuyFrame
from meeple.games.monopoly.rules import money

if TYPE_CHECKING:
    from meeple.games.monopoly.state import MonopolyState


def can_buy(s: MonopolyState, f: BuyFrame) -> bool:
    return s.cash[f.player] >= s.ed.price[f.square]


def buy(s: MonopolyState, f: BuyFrame) -> None:
    s.stack.pop()
    price = s.ed.price[f.square]
    money.pay_bank(s, f.player, price)
    s.owner[f.square] = f.player
    if s._events is not None:
        s.event("bought", player=f.player, square=f.square, price=price)


def decline(s: MonopolyState, f: BuyFrame) -> None:
    """Declined: every player still in the game bids, starting left of the decliner."""
    s.stack.pop()
    if s._events is not None:
        s.event("declined", player=f.player, square=f.square)
    start_auction(s, DEED, f.square, s.seats_from(s.next_seat(f.player)))


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
