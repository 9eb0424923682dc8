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


def may_buy(s: MonopolyState, p: int, sq: int) -> bool:
    """``p`` has the price in cash and (My First Monopoly) a sold sign left."""
    if s.cash[p] < s.ed.price[sq]:
        return False
    limit = s.rules.max_properties_per_player
    return limit is None or s.owner.count(p) < limit


def can_buy(s: MonopolyState, f: BuyFrame) -> bool:
    return may_buy(s, f.player, f.square)


def take_deed(s: MonopolyState, p: int, sq: int) -> None:
    """``p`` buys ``sq`` from the bank at the printed price."""
    price = s.ed.price[sq]
    money.pay_bank(s, p, price)
    s.owner[sq] = p
    s.board_changed(s.ed.group_of[sq])
    if s._events is not None:
        s.event("bought", player=p, square=sq, price=price)
    check_all_owned(s)


def check_all_owned(s: MonopolyState) -> None:
    """My First Monopoly level 1: "The game ends when the last property has been purchased"."""
    if s.rules.end_condition == "all_properties_owned" and all(
        s.owner[sq] >= 0 for sq in s.ed.properties
    ):
        s.finish("all_properties_sold")


def buy(s: MonopolyState, f: BuyFrame) -> None:
    s.stack.pop()
    take_deed(s, f.player, f.square)


def decline(s: MonopolyState, f: BuyFrame) -> None:
    """Declined: every player still in the game bids, starting left of the decliner (or, in an
    edition without auctions, the deed stays with the bank)."""
    s.stack.pop()
    if s._events is not None:
        s.event("declined", player=f.player, square=f.square)
    if s.rules.auctions:
        start_auction(s, DEED, f.square, s.seats_from(s.next_seat(f.player)))
    elif s._events is not None:
        s.event("unsold", item=DEED, square=f.square)


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
