"""A building shortage: players wish to buy more buildings than the bank has.

The classic rules, "BUILDING SHORTAGES": "If there are a limited number of houses and hotels
available and two or more players wish to buy more than the Bank has, the houses or hotels must
be sold at auction to the highest bidder." Friends rules A, "Placing Sofas": "If two or more
players want to purchase a coffee mug/sofa and there aren't enough for everyone, you will
auction them off"; Friends rules B, "Building shortage?": "If buildings are limited and two or
more players wish to buy them, the Banker must auction them off"; Frozen II, "Not Enough
Buildings": "If multiple players want to buy the last Village Dwelling or Castle, the Banker
must auction it."

What a player "wishes to buy" is what they could buy now (:func:`wished`), and who is asked is
in docs/RULES.md ("Building shortage"): when the requester and at least one other player could
buy some and together could buy more than the bank has, those others are asked in seat order
whether they want one; if any does, the building goes to auction (``rules/auction.py``) and its
winner places it where the even-building rule allows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from meeple.games.monopoly import actions as A
from meeple.games.monopoly.frames import HOTEL, HOUSE, Frame
from meeple.games.monopoly.rules import auction, buildings, money, table
from meeple.games.monopoly.rules.placing import PlaceFrame as PlaceFrame
from meeple.games.monopoly.rules.placing import can_place_now
from meeple.games.monopoly.rules.placing import place_squares as place_squares
from meeple.games.monopoly.rules.placing import place_won as place_won

if TYPE_CHECKING:
    from meeple.games.monopoly.state import MonopolyState
    from meeple.kernel.protocol import Action


class ShortageFrame(Frame):
    """Buildings are short: each other player able to build says whether they want one.

    ``requester`` asked to build ``item`` (HOUSE or HOTEL) on ``square``; ``asking`` are the
    seats still to answer; ``wanting`` those who said yes.
    """

    __slots__ = ("asking", "item", "requester", "square", "wanting")
    name = "shortage"

    def __init__(
        self,
        item: int,
        requester: int,
        square: int,
        asking: list[int],
        wanting: list[int] | None = None,
    ) -> None:
        self.item = item
        self.requester = requester
        self.square = square
        self.asking = asking
        self.wanting = wanting if wanting is not None else []

    def decider(self) -> int:
        return self.asking[0]

    def copy(self) -> ShortageFrame:
        return ShortageFrame(
            self.item, self.requester, self.square, list(self.asking), list(self.wanting)
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "frame": self.name,
            "item": self.item,
            "requester": self.requester,
            "square": self.square,
            "asking": list(self.asking),
            "wanting": list(self.wanting),
        }

    @staticmethod
    def from_dict(d: dict[str, Any]) -> Frame:
        return ShortageFrame(
            d["item"], d["requester"], d["square"], list(d["asking"]), list(d["wanting"])
        )

    def legal(self, s: MonopolyState, p: int) -> list[Action]:
        return [A.A_WANT, A.A_NO]

    def allows(self, s: MonopolyState, p: int, kind: str, arg: int) -> bool:
        return kind == A.WANT_BUILDING or kind == A.NO_BUILDING

    def play(self, s: MonopolyState, p: int, kind: str, arg: int) -> None:
        answer_shortage(s, self, kind == A.WANT_BUILDING)

    def settle(self, s: MonopolyState) -> bool:
        return settle_shortage(s, self)

    def without(self, p: int) -> bool:
        """The question goes with its requester; anyone else who leaves is no longer asked."""
        if p == self.requester:
            return False
        self.asking = [q for q in self.asking if q != p]
        self.wanting = [q for q in self.wanting if q != p]
        return True


def request_build(s: MonopolyState, p: int, sq: int) -> None:
    """``p`` asks for a building on ``sq``: bought at list price unless buildings are short and
    other players want one too, in which case it goes to auction (here, above the building
    rules, as the one way into a shortage)."""
    item = HOTEL if s.level[sq] == 4 else HOUSE
    rivals = shortage_rivals(s, p, item)
    if rivals:
        s.stack.append(ShortageFrame(item, p, sq, rivals))
        if s._events is not None:
            s.event("shortage", player=p, item=item)
        return
    money.pay_bank(s, p, s.ed.house_cost[sq])
    buildings.place(s, p, sq)


def shortage_rivals(s: MonopolyState, p: int, item: int) -> list[int]:
    """The other players to ask whether they want the building ``p`` asks for, else [].

    Buildings of kind ``item`` are short when ``p`` and at least one other player wish to buy
    some, and together wish for more than the bank has (the classic rules: "two or more players
    wish to buy more than the Bank has"); a player wishes for what :func:`wished` counts. The
    others who wish for one are asked, in turn order from ``p``'s left (docs/RULES.md,
    "Building shortage").
    """
    stock = s.hotels if item == HOTEL else s.houses
    # Nobody can wish for more than they have room for: while the room of every player who may
    # build fits in the stock (Kept's totals: most of a game), nothing is short. (Deeds belong
    # to seats still playing: the audit checks it.)
    if buildings.capacity_total(s, item) <= stock:
        return []
    # The wishes are counted only as far as they make a shortage (stock + 1), then each other
    # player's only as far as one: whether it is asked.
    short = stock + 1
    wish = wished(s, p, item, short)
    builders = s.kept.builders
    out: list[int] = []
    for q in table.seats_from(s, table.next_seat(s, p)):
        if q != p and (builders >> q) & 1:
            w = wished(s, q, item, short - wish if wish < short else 1)
            if w:
                out.append(q)
                wish += w
    return out if wish >= short else []


def wished(s: MonopolyState, p: int, item: int, most: int = -1) -> int:
    """How many buildings of kind ``item`` ``p`` could buy from the bank now, one after another
    at the list price, if the bank had enough: on ``p``'s buildable groups, houses up to four
    on every street (HOUSE), or a hotel on every street of a group standing at four houses
    (HOTEL: no house bought first), the cheapest first while ``p``'s cash lasts (counted up to
    ``most`` when it is not -1). This is what a player "wishes to buy" in a building shortage
    (docs/RULES.md, "Building shortage")."""
    if not (s.kept.builders >> p) & 1:  # (p may build nowhere: most players, most of a game)
        return 0
    ed, level, builder = s.ed, s.level, s.kept.builder
    cash, out = s.cash[p], 0
    for g in ed.street_groups_by_cost:  # (a group's buildings cost alike)
        if builder[g] != p:
            continue
        members = ed.groups[g].members
        n = 0
        if item == HOUSE:
            for m in members:
                if level[m] < 4:
                    n += 4 - level[m]
        else:
            low = buildings.HOTEL_LEVEL
            for m in members:
                if level[m] < low:
                    low = level[m]
            if low == 4:
                for m in members:
                    if level[m] == 4:
                        n += 1
        if not n:
            continue
        cost = ed.groups[g].house_cost
        if cost * n > cash:  # (the cheapest first: what is left buys nothing dearer)
            out += cash // cost
            break
        out += n
        cash -= cost * n
        if 0 <= most <= out:
            break
    return out if most < 0 or out < most else most


def answer_shortage(s: MonopolyState, f: ShortageFrame, wants: bool) -> None:
    q = f.asking.pop(0)
    if wants:
        f.wanting.append(q)
    if s._events is not None:
        s.event("shortage_answer", player=q, wants=wants)


def settle_shortage(s: MonopolyState, f: ShortageFrame) -> bool:
    """Once everyone has answered: an auction among the requester and those who want one, or a
    sale at list price. Returns True while answers are still awaited."""
    while f.asking and not (s.alive[f.asking[0]] and can_place_now(s, f.asking[0], f.item)):
        f.asking.pop(0)
    if f.asking:
        return True
    s.stack.pop()
    p = f.requester
    if not s.alive[p]:
        return False
    if f.wanting:
        auction.start_auction(s, f.item, -1, [p, *f.wanting], s.ed.building_min_bid)
    elif buildings.can_build(s, p, f.square):
        money.pay_bank(s, p, s.ed.house_cost[f.square])
        buildings.place(s, p, f.square)
    return False
