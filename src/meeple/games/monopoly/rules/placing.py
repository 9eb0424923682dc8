"""Placing a building won at auction (after a building shortage, ``rules/shortage.py``).

The winner puts the building on a square of theirs where the even-building rule allows
(``buildings.lowest_streets``); with no such square left, the bid is refunded. Below the
auction, which opens the placing, and the shortage, which opens the auction.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from meeple.games.monopoly import actions as A
from meeple.games.monopoly.frames import HOUSE, Frame
from meeple.games.monopoly.rules import buildings, holdings, money

if TYPE_CHECKING:
    from meeple.games.monopoly.state import MonopolyState
    from meeple.kernel.protocol import Action


class PlaceFrame(Frame):
    """The winner of a building auction places the building on a square where it is legal
    (refunded when no such square is left)."""

    __slots__ = ("item", "paid", "player")
    name = "place"

    def __init__(self, player: int, item: int, paid: int) -> None:
        self.player = player
        self.item = item
        self.paid = paid

    def decider(self) -> int:
        return self.player

    def copy(self) -> PlaceFrame:
        return PlaceFrame(self.player, self.item, self.paid)

    def to_dict(self) -> dict[str, Any]:
        return {"frame": self.name, "player": self.player, "item": self.item, "paid": self.paid}

    @staticmethod
    def from_dict(d: dict[str, Any]) -> Frame:
        return PlaceFrame(d["player"], d["item"], d["paid"])

    def legal(self, s: MonopolyState, p: int) -> list[Action]:
        return [A.act(A.PLACE_BUILDING, sq) for sq in place_squares(s, p, self.item)]

    def allows(self, s: MonopolyState, p: int, kind: str, arg: int) -> bool:
        return kind == A.PLACE_BUILDING and arg in place_squares(s, p, self.item)

    def play(self, s: MonopolyState, p: int, kind: str, arg: int) -> None:
        place_won(s, self, arg)

    def settle(self, s: MonopolyState) -> bool:
        if place_squares(s, self.player, self.item):
            return True
        s.stack.pop()  # nowhere legal to put it any more: the bid is refunded
        money.bank_pays(s, self.player, self.paid)
        return False


def can_place_now(s: MonopolyState, p: int, item: int) -> bool:
    """Whether :func:`place_squares` offers ``p`` anywhere (stops at the first group found)."""
    return bool(_place_spots(s, p, item, True))


def place_squares(s: MonopolyState, p: int, item: int) -> list[int]:
    """Where ``p`` may legally put a building of kind ``item`` now (cash aside)."""
    return _place_spots(s, p, item, False)


def _place_spots(s: MonopolyState, p: int, item: int, first_group: bool) -> list[int]:
    """The streets of ``p``'s buildable groups where the next building is of kind ``item``
    and keeps the group even (``buildings.lowest_streets``); with ``first_group``, only the
    first group that has any."""
    ed = s.ed
    out: list[int] = []
    if not (s.kept.builders >> p) & 1:  # (p may build nowhere: most players, most of a game)
        return out
    builder = s.kept.builder  # (buildings.buildable_group's seat per group)
    for g in ed.street_groups:
        if builder[g] != p:
            continue
        if buildings.lowest_streets(s, ed.groups[g].members, out, item) and first_group:
            break
    return out


def place_won(s: MonopolyState, f: PlaceFrame, sq: int) -> None:
    s.stack.pop()
    if f.item == HOUSE:
        s.houses -= 1
    else:
        s.hotels -= 1
        s.houses += 4
    holdings.set_level(s, sq, s.level[sq] + 1)
    if s._events is not None:
        s.event("built", player=f.player, square=sq, level=s.level[sq])
