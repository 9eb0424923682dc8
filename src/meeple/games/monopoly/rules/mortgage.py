"""Mortgages.

Friends rules B, "Mortgage Properties": only unimproved properties; all buildings of the colour
group must be sold first; the bank pays the mortgage value; to repay, "pay the listed value plus
10%". Interest rounds up to a whole unit (docs/RULES.md, "Rounding"). Friends rules A, "Trading"
and "Bankruptcy": a mortgaged deed received from another player costs its new owner the 10%
at once, or the full unmortgage cost at once; lifting it later costs the 10% again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from meeple.games.monopoly import actions as A
from meeple.games.monopoly.frames import BANK, Frame
from meeple.games.monopoly.rules import bankruptcy, buildings, holdings, money
from meeple.games.monopoly.tables import STREET

if TYPE_CHECKING:
    from meeple.games.monopoly.state import MonopolyState
    from meeple.kernel.protocol import Action
    from meeple.kernel.rng import Rng


class MortgageFeeFrame(Frame):
    """Mortgaged deeds just received (trade or bankruptcy): lift each now or pay the interest,
    one deed at a time."""

    __slots__ = ("deeds", "player")
    name = "mortgage_fee"

    def __init__(self, player: int, deeds: list[int]) -> None:
        self.player = player
        self.deeds = deeds

    def decider(self) -> int:
        return self.player

    def copy(self) -> MortgageFeeFrame:
        return MortgageFeeFrame(self.player, list(self.deeds))

    def to_dict(self) -> dict[str, Any]:
        return {"frame": self.name, "player": self.player, "deeds": list(self.deeds)}

    @staticmethod
    def from_dict(d: dict[str, Any]) -> Frame:
        return MortgageFeeFrame(d["player"], list(d["deeds"]))

    def legal(self, s: MonopolyState, p: int) -> list[Action]:
        sq = self.deeds[0]
        out = []
        if s.cash[p] >= s.ed.unmortgage_cost[sq]:
            out.append(A.act(A.LIFT_MORTGAGE, sq))
        out.append(A.act(A.KEEP_MORTGAGE, sq))
        return out

    def sample(self, s: MonopolyState, p: int, rng: Rng) -> Action:
        """:meth:`legal`'s action drawn by one ``rng.below`` (``Decision.sample``), without
        the list: lift (if the cash pays for it) or keep the first deed."""
        sq = self.deeds[0]
        may_lift = s.cash[p] >= s.ed.unmortgage_cost[sq]
        i = rng.below(2 if may_lift else 1)
        return A.act(A.LIFT_MORTGAGE, sq) if may_lift and i == 0 else A.act(A.KEEP_MORTGAGE, sq)

    def allows(self, s: MonopolyState, p: int, kind: str, arg: int) -> bool:
        sq = self.deeds[0]
        if kind == A.LIFT_MORTGAGE:
            return arg == sq and s.cash[p] >= s.ed.unmortgage_cost[sq]
        return kind == A.KEEP_MORTGAGE and arg == sq

    def play(self, s: MonopolyState, p: int, kind: str, arg: int) -> None:
        if kind == A.LIFT_MORTGAGE:
            lift_now(s, self, arg)
        else:
            keep_mortgaged(s, self, arg)

    def settle(self, s: MonopolyState) -> bool:
        if self.deeds:
            return True
        s.stack.pop()
        return False


def can_mortgage(s: MonopolyState, p: int, sq: int) -> bool:
    if s.owner[sq] != p or s.mortgaged[sq]:
        return False
    ed = s.ed
    return ed.kind[sq] != STREET or not buildings.group_has_buildings(s, ed.group_of[sq])


# The lists below read the deeds of ``p`` from the masks the board's writers keep
# (``Kept.held``, ``mortgaged_bits``, ``built_bits``: rules/holdings.py), not the 28 deeds of the
# board: a random player asks for them at every decision (rules/anytime.py, ``sample``), and a
# pass over the board's deeds was 20% of its game. ``tests/monopoly/test_sample.py`` checks the
# counts against the lists, and the audit the masks against the board.


def mortgage_mask(s: MonopolyState, p: int) -> int:
    """The deeds :func:`mortgage_squares` lists for ``p``, as a mask: theirs, not mortgaged,
    and in no group with a building (a railroad's or utility's group never has one)."""
    kept = s.kept
    return kept.held[p] & ~kept.mortgaged_bits & ~kept.built_bits


def mortgage_squares(s: MonopolyState, p: int) -> list[int]:
    return holdings.squares_of(mortgage_mask(s, p))


def may_mortgage_any(s: MonopolyState, p: int) -> bool:
    """Whether :func:`mortgage_squares` offers ``p`` anything (asked whether a window opens,
    where the list itself is not needed)."""
    return mortgage_mask(s, p) != 0


def can_lift(s: MonopolyState, p: int, sq: int) -> bool:
    """Whether deed ``sq`` is among :func:`unmortgage_squares` of ``p`` (without the list)."""
    return s.owner[sq] == p and s.mortgaged[sq] and s.cash[p] >= s.ed.unmortgage_cost[sq]


def may_lift_any(s: MonopolyState, p: int) -> bool:
    """Whether :func:`unmortgage_squares` offers ``p`` anything (without the list): a test of
    the price of each mortgaged deed of ``p`` that stops at the first one their cash lifts
    (cheaper than :func:`liftable` when the cash lifts most)."""
    bits = s.kept.held[p] & s.kept.mortgaged_bits
    cash, cost = s.cash[p], s.ed.unmortgage_cost
    while bits:
        low = bits & -bits
        if cash >= cost[low.bit_length() - 1]:
            return True
        bits ^= low
    return False


def lift_mask(s: MonopolyState, p: int) -> int:
    """The deeds :func:`unmortgage_squares` lists for ``p``, as a mask: theirs, mortgaged,
    and lifted for no more than their cash (:func:`liftable`). (A random player counts the
    bits of this mask and of :func:`mortgage_mask` at every decision: rules/anytime.py,
    ``sample``.)"""
    kept = s.kept
    mortgaged = kept.held[p] & kept.mortgaged_bits
    return mortgaged & liftable(s, s.cash[p]) if mortgaged else 0  # (most hold none)


def deed_masks(s: MonopolyState, p: int) -> tuple[int, int]:
    """(:func:`mortgage_mask`, :func:`lift_mask`) of ``p``, reading their deeds once (a random
    player asks for both at every decision: rules/anytime.py, ``sample``)."""
    kept = s.kept
    held = kept.held[p]
    mortgaged = held & kept.mortgaged_bits
    to_lift = mortgaged & liftable(s, s.cash[p]) if mortgaged else 0
    return held & ~kept.mortgaged_bits & ~kept.built_bits, to_lift


def liftable(s: MonopolyState, cash: int) -> int:
    """The deeds of the board whose mortgage ``cash`` pays to lift, as a mask of squares: one
    entry of the edition's table (``Edition.lift_masks``, whose last entry has every deed)."""
    masks = s.ed.lift_masks
    if cash < 0:
        return 0
    if not masks:  # (an edition too dear for the table: tables.LIFT_TABLE_MOST)
        bits = 0
        for sq in s.ed.properties:
            if s.ed.unmortgage_cost[sq] <= cash:
                bits |= 1 << sq
        return bits
    return masks[cash] if cash < len(masks) else masks[len(masks) - 1]


def unmortgage_squares(s: MonopolyState, p: int) -> list[int]:
    return holdings.squares_of(lift_mask(s, p))


def mortgage(s: MonopolyState, p: int, sq: int) -> None:
    holdings.set_mortgaged(s, sq, True)
    money.bank_pays(s, p, s.ed.mortgage[sq])
    if s._events is not None:
        s.event("mortgaged", player=p, square=sq, amount=s.ed.mortgage[sq])


def unmortgage(s: MonopolyState, p: int, sq: int) -> None:
    cost = s.ed.unmortgage_cost[sq]
    money.pay_bank(s, p, cost)
    holdings.set_mortgaged(s, sq, False)
    if s._events is not None:
        s.event("unmortgaged", player=p, square=sq, amount=cost)


def receive_mortgaged(s: MonopolyState, p: int, deeds: list[int]) -> None:
    """``p`` just received ``deeds``: the mortgaged ones each need lifting or their interest."""
    mortgaged = [sq for sq in deeds if s.mortgaged[sq]]
    if mortgaged:
        s.stack.append(MortgageFeeFrame(p, mortgaged))


def lift_now(s: MonopolyState, f: MortgageFeeFrame, sq: int) -> None:
    f.deeds.remove(sq)
    if not f.deeds:
        s.stack.pop()
    unmortgage(s, f.player, sq)


def keep_mortgaged(s: MonopolyState, f: MortgageFeeFrame, sq: int) -> None:
    f.deeds.remove(sq)
    if not f.deeds:
        s.stack.pop()
    interest = s.ed.interest[sq]
    if s._events is not None:
        s.event("mortgage_interest", player=f.player, square=sq, amount=interest)
    bankruptcy.charge(s, f.player, BANK, interest)
