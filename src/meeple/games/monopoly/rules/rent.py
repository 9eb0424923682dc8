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
    for m in s.ed.groups[g].members:
        if owner[m] != p:
            return False
    return True


def count_owned(s: MonopolyState, p: int, g: int) -> int:
    """How many deeds of group ``g`` ``p`` owns (mortgaged ones count: docs/RULES.md)."""
    owner = s.owner
    n = 0
    for m in s.ed.groups[g].members:
        if owner[m] == p:
            n += 1
    return n


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
    street's or railroad's rent, a utility's multiplier of the dice; 0 if nobody owns it. Every
    bot reads the danger on the board before deciding, so the state keeps the table: a rent
    depends only on its own group, and ``board_changed(group)`` marks the group whose owners,
    buildings or mortgages changed, worked out again here on the next ask (``board_changed()``
    marks them all). Callers must not change the list."""
    dirty = s._rents_dirty
    if dirty:
        if dirty < 0 or not s._rents:
            s._rents = find_rents(s)
        else:
            for g in range(len(s.ed.groups)):
                if (dirty >> g) & 1:
                    group_rents(s, g, s._rents)
        s._rents_dirty = 0
    return s._rents


def find_rents(s: MonopolyState) -> list[int]:
    """:func:`rents_now` worked out afresh: what :func:`rent_due` gives for a roll of 1 (a
    utility's multiplier), a group at a time so that each group's ownership is read once
    (the audit checks the two agree)."""
    out = [0] * s.ed.size
    for g in range(len(s.ed.groups)):
        group_rents(s, g, out)
    return out


def group_rents(s: MonopolyState, g: int, out: list[int]) -> None:
    """Write the rents of group ``g``'s squares into ``out`` (see :func:`find_rents`)."""
    ed, r = s.ed, s.rules
    owner, level, mortgaged, rent = s.owner, s.level, s.mortgaged, ed.rent
    grp = ed.groups[g]
    members = grp.members
    if grp.kind == STREET:
        first = owner[members[0]]
        whole = first >= 0  # one player owns the whole group: the set rent
        for m in members:
            if owner[m] != first or (r.set_rent_needs_all_unmortgaged and mortgaged[m]):
                whole = False
        for m in members:
            if owner[m] < 0:
                out[m] = 0
            elif level[m]:
                out[m] = rent[m][level[m]]
            else:
                out[m] = rent[m][0] * r.set_rent_multiplier if whole else rent[m][0]
        return
    table = r.railroad_rents if grp.kind == RAILROAD else r.utility_multipliers
    for m in members:
        o = owner[m]
        if o < 0:
            out[m] = 0
            continue
        n = 0
        for x in members:
            if owner[x] == o:
                n += 1
        out[m] = table[min(n, len(table)) - 1]
