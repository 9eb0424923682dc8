"""Rent: streets, railroads ("transport spaces") and utilities.

Friends rules A, "Paying Rent": no rent on a mortgaged deed; the printed rent, doubled when the
owner holds the whole colour group (Friends rules B, "Moments": "and none of them are
mortgaged"; Frozen II instead keeps the increased rent on the unmortgaged scenes: the rule
option ``set_rent_needs_all_unmortgaged``); with buildings, the building rent. "Transport
Spaces": 25/50/100/200 by the number owned. "Utility Spaces": the dice times 4, or times 10
when the owner holds both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from mypy_extensions import i64

from meeple.games.monopoly.rules import holdings
from meeple.games.monopoly.tables import RAILROAD, STREET, UTILITY

if TYPE_CHECKING:
    from meeple.games.monopoly.state import MonopolyState

_MASK_BITS: Final = 62  # groups whose marks rents_now reads as a machine word


def owns_group(s: MonopolyState, p: int, g: int) -> bool:
    """Whether ``p`` owns every deed of group ``g``."""
    owner = s.owner
    for m in s.ed.groups[g].members:
        if owner[m] != p:
            return False
    return True


def rent_due(s: MonopolyState, sq: int, dice_total: int) -> int:
    """The rent for landing on owned, unmortgaged ``sq`` after a roll of ``dice_total``: the
    one rent rule, :func:`group_rents`, read from the state's table (a utility's entry is its
    multiplier of the dice)."""
    due = rents_now(s)[sq]
    return due * dice_total if s.ed.kind[sq] == UTILITY else due


def rents_now(s: MonopolyState) -> list[int]:
    """For each square, what landing on it would charge now if it were not mortgaged: a
    street's or railroad's rent, a utility's multiplier of the dice; 0 if nobody owns it. Every
    bot reads the danger on the board before deciding, so the state keeps the table: a rent
    depends only on its own group, and ``board_changed(group)`` marks the group whose owners,
    buildings or mortgages changed, worked out again here on the next ask (``board_changed()``
    marks them all). Callers must not change the list."""
    kept = s.kept
    if kept.rents_dirty:
        n_groups = len(s.ed.groups)
        if kept.rents_dirty < 0 or not kept.rents or n_groups > _MASK_BITS:
            kept.rents = find_rents(s)
        else:
            dirty: i64 = kept.rents_dirty  # (a machine word, shifted once per group)
            g = 0
            while dirty:  # (the groups marked, lowest first: most changes mark one)
                if dirty & 1:
                    group_rents(s, g, kept.rents)
                dirty >>= 1
                g += 1
        kept.rents_dirty = 0
    return kept.rents


def find_rents(s: MonopolyState) -> list[int]:
    """:func:`rents_now` worked out afresh: what :func:`rent_due` gives for a roll of 1 (a
    utility's multiplier), a group at a time so that each group's ownership is read once
    (the audit checks the two agree)."""
    out = [0] * s.ed.size
    for g in range(len(s.ed.groups)):
        group_rents(s, g, out)
    return out


def group_rents(s: MonopolyState, g: int, out: list[int]) -> None:
    """Write the rents of group ``g``'s squares into ``out``: the rent rule, written once.

    A street: its building rent, or with none the printed rent, times ``set_rent_multiplier``
    when one player owns the whole group (and, with ``set_rent_needs_all_unmortgaged``, none of
    it is mortgaged). A railroad: ``railroad_rents`` by the number of the group its owner holds;
    a utility: ``utility_multipliers`` likewise (mortgaged deeds count: docs/RULES.md,
    "Counting mortgaged railroads and utilities"). 0 where nobody owns the deed."""
    ed, r = s.ed, s.rules
    owner, level, rent = s.owner, s.level, ed.rent
    grp = ed.groups[g]
    members = grp.members
    if grp.kind == STREET:
        # One player owns the whole group: the set rent. (Read from the masks of deeds the
        # board's writers keep, Kept.held and mortgaged_bits, not deed by deed.)
        first = owner[members[0]]
        bits = ed.group_bits[g]
        whole = first >= 0 and s.kept.held[first] & bits == bits
        if whole and r.set_rent_needs_all_unmortgaged and s.kept.mortgaged_bits & bits:
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
    bits = ed.group_bits[g]
    held = s.kept.held
    for m in members:
        o = owner[m]
        if o < 0:
            out[m] = 0
            continue
        n = holdings.count_bits(held[o] & bits)  # how many of the group its owner holds
        out[m] = table[min(n, len(table)) - 1]
