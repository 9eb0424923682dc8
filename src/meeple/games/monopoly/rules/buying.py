"""Buying a deed you land on, or sending it to auction.

Friends rules A, "Unowned Moment": buy it at the printed price, or "the property will be
auctioned off by the Bank. All of the players can bid in the auction" (the decliner too).
Raising money to buy (selling buildings, mortgaging) is allowed first: the buy decision offers
those actions (docs/RULES.md, "Raising money to buy").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from meeple.games.monopoly import actions as A
from meeple.games.monopoly.frames import DEED, Frame
from meeple.games.monopoly.rules import anytime, auction, holdings, money, table

if TYPE_CHECKING:
    from meeple.games.monopoly.state import MonopolyState
    from meeple.kernel.protocol import Action
    from meeple.kernel.rng import Rng


class BuyFrame(Frame):
    """A player on an unowned deed: buy it at the printed price or send it to auction (and
    first, raise the money by selling buildings and mortgaging)."""

    __slots__ = ("player", "square")
    name = "buy"

    def __init__(self, player: int, square: int) -> None:
        self.player = player
        self.square = square

    def decider(self) -> int:
        return self.player

    def copy(self) -> BuyFrame:
        return BuyFrame(self.player, self.square)

    def to_dict(self) -> dict[str, Any]:
        return {"frame": self.name, "player": self.player, "square": self.square}

    @staticmethod
    def from_dict(d: dict[str, Any]) -> Frame:
        return BuyFrame(d["player"], d["square"])

    def legal(self, s: MonopolyState, p: int) -> list[Action]:
        out = [A.A_BUY] if can_buy(s, self) else []
        return [*out, A.A_DECLINE, *anytime.raise_money(s, p)]

    def sample(self, s: MonopolyState, p: int, rng: Rng) -> Action:
        lead = [A.A_BUY, A.A_DECLINE] if can_buy(s, self) else [A.A_DECLINE]
        return anytime.sample_raise(s, p, rng, lead, False, [])

    def allows(self, s: MonopolyState, p: int, kind: str, arg: int) -> bool:
        if kind == A.BUY:
            return can_buy(s, self)
        return kind == A.DECLINE or anytime.may_raise(s, p, kind, arg)

    def play(self, s: MonopolyState, p: int, kind: str, arg: int) -> None:
        if kind == A.BUY:
            buy(s, self)
        else:
            decline(s, self)

    def refusal(self, s: MonopolyState, p: int, action: Action) -> str:
        if action.kind != A.BUY:
            return ""
        price = s.ed.price[self.square]
        name = s.ed.square_names[self.square]
        why = (
            f"cash {s.cash[p]} is less than the price {price}"
            if s.cash[p] < price
            else "no sold sign left"
        )
        kinds = sorted({a.kind for a in s.legal_actions()})
        return f"cannot buy {name}: {why}; legal action kinds: {', '.join(kinds)}"


def may_buy(s: MonopolyState, p: int, sq: int) -> bool:
    """``p`` has the price in cash and (My First Monopoly) a sold sign left."""
    if s.cash[p] < s.ed.price[sq]:
        return False
    limit = s.rules.max_properties_per_player
    return limit is None or holdings.count_bits(s.kept.held[p]) < limit


def can_buy(s: MonopolyState, f: BuyFrame) -> bool:
    return may_buy(s, f.player, f.square)


def take_deed(s: MonopolyState, p: int, sq: int) -> None:
    """``p`` buys ``sq`` from the bank at the printed price."""
    price = s.ed.price[sq]
    money.pay_bank(s, p, price)
    holdings.give_deeds(s, [sq], p)
    if s._events is not None:
        s.event("bought", player=p, square=sq, price=price)
    table.check_all_owned(s)


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
        auction.start_auction(s, DEED, f.square, table.seats_from(s, table.next_seat(s, f.player)))
    elif s._events is not None:
        s.event("unsold", item=DEED, square=f.square)
