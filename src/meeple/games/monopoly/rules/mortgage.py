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
from meeple.games.monopoly.rules import buildings, holdings, money
from meeple.games.monopoly.tables import STREET

if TYPE_CHECKING:
    from meeple.games.monopoly.state import MonopolyState
    from meeple.kernel.protocol import Action


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


def mortgage_squares(s: MonopolyState, p: int) -> list[int]:
    owner, mortgaged, group_of = s.owner, s.mortgaged, s.ed.group_of
    built = buildings.built_groups(s)
    return [
        sq
        for sq in s.ed.properties
        if owner[sq] == p and not mortgaged[sq] and not built[group_of[sq]]
    ]


def may_mortgage_any(s: MonopolyState, p: int) -> bool:
    """Whether :func:`mortgage_squares` offers ``p`` anything (stops at the first: asked
    whether a window opens, where the list itself is not needed)."""
    owner, mortgaged, group_of = s.owner, s.mortgaged, s.ed.group_of
    built = buildings.built_groups(s)
    for sq in s.ed.properties:
        if owner[sq] == p and not mortgaged[sq] and not built[group_of[sq]]:
            return True
    return False


def can_lift(s: MonopolyState, p: int, sq: int) -> bool:
    """Whether deed ``sq`` is among :func:`unmortgage_squares` of ``p`` (without the list)."""
    return s.owner[sq] == p and s.mortgaged[sq] and s.cash[p] >= s.ed.unmortgage_cost[sq]


def counts(s: MonopolyState, p: int) -> tuple[int, int]:
    """How many deeds :func:`mortgage_squares` and :func:`unmortgage_squares` list for ``p``,
    in one pass over the deeds and without the lists (a random player's draw: rules/anytime.py,
    ``sample``). The deed tests are written out in the loop, as in the lists, not called per
    deed: calling :func:`can_lift` and a mortgage test per deed here and in :func:`nth_deed`
    cost the random bot 20% more instructions a game (28.1M -> 33.8M,
    ``benchmarks/count_instructions.py --games 10 --bots random``);
    ``tests/monopoly/test_sample.py`` checks they agree with the lists."""
    owner, mortgaged, group_of, cost = s.owner, s.mortgaged, s.ed.group_of, s.ed.unmortgage_cost
    built = buildings.built_groups(s)
    cash = s.cash[p]
    to_mortgage = to_lift = 0
    for sq in s.ed.properties:
        if owner[sq] != p:
            continue
        if mortgaged[sq]:
            if cash >= cost[sq]:
                to_lift += 1
        elif not built[group_of[sq]]:
            to_mortgage += 1
    return to_mortgage, to_lift


def nth_deed(s: MonopolyState, p: int, k: int, lift: bool) -> int:
    """``unmortgage_squares(s, p)[k]`` when ``lift``, else ``mortgage_squares(s, p)[k]``
    (``k`` below :func:`counts`' answer), without the list."""
    owner, mortgaged, group_of, cost = s.owner, s.mortgaged, s.ed.group_of, s.ed.unmortgage_cost
    built = buildings.built_groups(s)
    cash = s.cash[p]
    for sq in s.ed.properties:
        if owner[sq] != p or mortgaged[sq] != lift:
            continue
        if cash >= cost[sq] if lift else not built[group_of[sq]]:
            if k == 0:
                return sq
            k -= 1
    raise IndexError("nth_deed: fewer deeds than counted")


def unmortgage_squares(s: MonopolyState, p: int) -> list[int]:
    cash = s.cash[p]
    owner, mortgaged, cost = s.owner, s.mortgaged, s.ed.unmortgage_cost
    return [sq for sq in s.ed.properties if owner[sq] == p and mortgaged[sq] and cash >= cost[sq]]


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
    money.charge(s, f.player, BANK, interest)
