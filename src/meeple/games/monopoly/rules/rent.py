"""Rent: streets, railroads ("transport spaces") and utilities.

Friends rules A, "Paying Rent": no rent on a mortgaged deed; the printed rent, doubled when the
owner holds the whole colour group (Friends rules B, "Moments": "and none of them are
mortgaged"; Frozen II instead keeps the increased rent on the unmortgaged scenes: the rule
option ``set_rent_needs_all_unmortgaged``); with buildings, the building rent. "Transport
Spaces": 25/50/100/200 by the number owned. "Utility Spaces": the dice times 4, or times 10
when the owner holds both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.games.monopoly.tables import RAILROAD, STREET

if TYPE_CHECKING:
    from meeple.games.monopoly.state import MonopolyState


def owns_group(s: MonopolyState, p: int, g: int) -> bool:
    """Whether ``p`` owns every deed of group ``g``."""
    owner = s.owner
    return all(owner[m] == p for m in s.ed.groups[g].members)


def count_owned(s: MonopolyState, p: int, g: int) -> int:
    """How many deeds of group ``g`` ``p`` owns (mortgaged ones count: docs/RULES.md)."""
    owner = s.owner
    return sum(1 for m in s.ed.groups[g].members if owner[m] == p)


def street_rent(s: MonopolyState, sq: int) -> int:
    """Rent of an owned, unmortgaged street at its building level."""
    lvl = s.level[sq]
    ed = s.ed
    if lvl:
        return ed.rent[sq][lvl]
    base = ed.rent[sq][0]
    p = s.owner[sq]
    members = ed.groups[ed.group_of[sq]].members
    owner, mortgaged = s.owner, s.mortgaged
    for m in members:
        if owner[m] != p:
            return base
    if s.rules.set_rent_needs_all_unmortgaged:
        for m in members:
            if mortgaged[m]:
                return base
    return base * s.rules.set_rent_multiplier


def railroad_rent(s: MonopolyState, sq: int) -> int:
    rents = s.rules.railroad_rents
    n = count_owned(s, s.owner[sq], s.ed.group_of[sq])
    return rents[min(n, len(rents)) - 1]


def utility_multiplier(s: MonopolyState, sq: int) -> int:
    mults = s.rules.utility_multipliers
    n = count_owned(s, s.owner[sq], s.ed.group_of[sq])
    return mults[min(n, len(mults)) - 1]


def rent_due(s: MonopolyState, sq: int, dice_total: int) -> int:
    """The rent for landing on owned, unmortgaged ``sq`` after a roll of ``dice_total``."""
    kind = s.ed.kind[sq]
    if kind == STREET:
        return street_rent(s, sq)
    if kind == RAILROAD:
        return railroad_rent(s, sq)
    return utility_multiplier(s, sq) * dice_total


def rents_now(s: MonopolyState) -> list[int]:
    """For each square, what landing on it would charge now if it were not mortgaged: a
    street's or railroad's rent, a utility's multiplier of the dice; 0 if nobody owns it. Kept
    until the board stamp changes (every bot reads the danger on the board before deciding);
    callers must not change it."""
    if s._rents_stamp != s.board_stamp:
        s._rents = find_rents(s)
        s._rents_stamp = s.board_stamp
    return s._rents


def find_rents(s: MonopolyState) -> list[int]:
    """:func:`rents_now` worked out afresh."""
    out = [0] * s.ed.size
    for sq in s.ed.properties:
        if s.owner[sq] >= 0:
            out[sq] = rent_due(s, sq, 1)  # a roll of 1: a utility's multiplier
    return out
