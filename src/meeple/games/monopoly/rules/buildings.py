"""Houses and hotels: building evenly from the bank's stock, selling back, shortages.

Friends rules B, "Build": only on a whole colour group, none of it mortgaged; evenly; at most
4 houses, then a hotel that returns the 4 houses; "Building shortage? If there are no
buildings left in the Bank, you must wait ... If buildings are limited and two or more players
wish to buy them, the Banker must auction them off". "Sell Buildings": at half the price,
evenly; a hotel "immediately exchanged for 4" houses. The bank holds 32 houses and 12 hotels.

Levels: 0-4 houses, 5 a hotel. When the bank lacks the 4 houses a sold hotel turns back into,
the hotel comes down to as many houses as the bank has, and the houses it cannot give back are
sold too (docs/RULES.md, "Selling a hotel in a housing shortage").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from mypy_extensions import i64

from meeple.games.monopoly.frames import HOTEL, HOUSE
from meeple.games.monopoly.rules import holdings, money
from meeple.games.monopoly.rules.holdings import find_built_groups as find_built_groups

if TYPE_CHECKING:
    from meeple.games.monopoly.state import MonopolyState

HOTEL_LEVEL: Final = 5


def buildable_group(s: MonopolyState, p: int, g: int) -> bool:
    """``p`` owns all of street group ``g`` and none of it is mortgaged."""
    owner, mortgaged = s.owner, s.mortgaged
    for m in s.ed.groups[g].members:
        if owner[m] != p or mortgaged[m]:
            return False
    return True


def even_build_ok(s: MonopolyState, sq: int) -> bool:
    """Building one more on ``sq`` keeps the group within one level: ``sq`` is at the minimum."""
    lvl = s.level[sq]
    if lvl >= HOTEL_LEVEL:
        return False
    level = s.level
    return all(level[m] >= lvl for m in s.ed.groups[s.ed.group_of[sq]].members)


def build_spot_ok(s: MonopolyState, p: int, sq: int) -> bool:
    """The rules allow ``p`` one more building on ``sq`` (cash and stock aside): ``p`` may
    build on its group (:func:`buildable_group`, as ``Kept.builder`` keeps it) and building
    there keeps the group even."""
    return s.kept.builder[s.ed.group_of[sq]] == p and even_build_ok(s, sq)


def can_build(s: MonopolyState, p: int, sq: int) -> bool:
    """``p`` may buy the next building for ``sq`` now: rules, cash and the bank's stock."""
    if s.cash[p] < s.ed.house_cost[sq] or not build_spot_ok(s, p, sq):
        return False
    return s.hotels > 0 if s.level[sq] == 4 else s.houses > 0


def build_spots(s: MonopolyState, p: int) -> list[int]:
    """Where ``p`` could build now with cash enough: :func:`build_squares` but for the price.
    (``MonopolyState.build_options`` keeps it while the board and the bank's stock stay, and
    filters it by the cash of the moment: cash changes far more often than they do.)"""
    ed = s.ed
    # The groups p may build on: those whose builder (the owner of all of it, none mortgaged)
    # is p, as the board's writers keep it (rules/holdings.py).
    builder = s.kept.builder
    out: list[int] = []
    for g in ed.street_groups:
        if builder[g] == p:
            lowest_streets(s, ed.groups[g].members, out)
    return out


def build_squares(s: MonopolyState, p: int) -> list[int]:
    """Where ``p`` may build now: :func:`can_build` for every street, a group at a time (the
    streets at the group's lowest level, below a hotel, while the bank has the building).
    Worked out from the board alone, without the kept tables :func:`build_spots` reads (the
    audit compares the two)."""
    ed = s.ed
    owner, cash = s.owner, s.cash[p]
    out: list[int] = []
    for g in ed.street_groups:
        grp = ed.groups[g]
        members = grp.members
        if owner[members[0]] == p and cash >= grp.house_cost and buildable_group(s, p, g):
            lowest_streets(s, members, out)
    return out


def lowest_streets(
    s: MonopolyState, members: tuple[int, ...], out: list[int], item: int = -1
) -> bool:
    """Where the next building of a buildable group goes, by the even-building rule
    (:func:`even_build_ok`): append to ``out`` the streets at the group's lowest level, below a
    hotel. ``item`` -1: only while the bank has a building of the kind needed there (a house,
    or a hotel on four houses); HOUSE or HOTEL: only where the next building is of that kind
    (placing one won at a shortage auction, already out of the bank). Returns whether any was
    appended. The one "where may I build" rule: every list of building spots is made here."""
    level = s.level
    low = HOTEL_LEVEL
    for sq in members:
        if level[sq] < low:
            low = level[sq]
    if low == HOTEL_LEVEL:
        return False
    if item < 0:
        if not (s.hotels > 0 if low == 4 else s.houses > 0):
            return False
    elif (low == 4) != (item == HOTEL):
        return False
    for sq in members:
        if level[sq] == low:
            out.append(sq)
    return True


def place(s: MonopolyState, p: int, sq: int) -> None:
    """Put the next building on ``sq`` (paid already)."""
    if s.level[sq] == 4:
        s.hotels -= 1
        s.houses += 4
    else:
        s.houses -= 1
    holdings.set_level(s, sq, s.level[sq] + 1)
    if s._events is not None:
        s.event("built", player=p, square=sq, level=s.level[sq])


def capacities(s: MonopolyState, item: int) -> list[int]:
    """For each seat, how many buildings of ``item`` kind it could still place on its buildable
    groups (a buildable group has one owner). Each group's share is kept on the state and
    worked out again only when the log of changes names the group
    (docs/KERNEL.md, "The hot path"); :func:`find_capacities` works it all out afresh."""
    read_capacities(s)
    holder, houses, hotels = s.kept.cap_holder, s.kept.cap_houses, s.kept.cap_hotels
    out = [0] * s.n
    for g in s.ed.street_groups:
        q = holder[g]
        if q >= 0:
            out[q] = out[q] + (houses[g] if item == HOUSE else hotels[g])
    return out


def capacity_total(s: MonopolyState, item: int) -> int:
    """The sum of :func:`capacities`, kept up to date as groups change: whether buildings are
    short is asked on every building bought, and they seldom are."""
    read_capacities(s)
    return s.kept.cap_total_houses if item == HOUSE else s.kept.cap_total_hotels


def read_capacities(s: MonopolyState) -> None:
    """Work out again the capacity of each street group the log of changes names since the
    last time, and the totals (every group for a new state)."""
    ed = s.ed
    holder, houses, hotels = s.kept.cap_holder, s.kept.cap_houses, s.kept.cap_hotels
    if len(holder) != len(ed.groups):  # (a new state: work every group out)
        holder = s.kept.cap_holder = [-1] * len(ed.groups)
        houses = s.kept.cap_houses = [0] * len(ed.groups)
        hotels = s.kept.cap_hotels = [0] * len(ed.groups)
        s.kept.cap_total_houses = s.kept.cap_total_hotels = 0
        again: i64 = -1
    elif s.kept.cap_read == len(s.changes):
        return
    else:
        again = holdings.groups_changed_since(s, s.kept.cap_read)  # bit g: work group g out again
    s.kept.cap_read = len(s.changes)
    for g in ed.street_groups:
        if (again >> g) & 1:
            q, h, t = group_capacity(s, g)
            # (a group with no one to build holds 0 and 0: its old share leaves the totals)
            s.kept.cap_total_houses += h - houses[g]
            s.kept.cap_total_hotels += t - hotels[g]
            holder[g], houses[g], hotels[g] = q, h, t


def group_capacity(s: MonopolyState, g: int) -> tuple[int, int, int]:
    """(The seat that may build on street group ``g``, -1 for none: the owner of all of it with
    none mortgaged; how many more houses, and how many more hotels, it could place there.)"""
    q = s.kept.builder[g]  # (buildable_group's seat, kept by the board's writers)
    if q < 0:
        return -1, 0, 0
    members = s.ed.groups[g].members
    houses = hotels = 0
    for m in members:
        lvl = s.level[m]
        if lvl < 4:
            houses += 4 - lvl
        if lvl < HOTEL_LEVEL:
            hotels += 1
    return q, houses, hotels


def find_capacities(s: MonopolyState, item: int) -> list[int]:
    """:func:`capacities` worked out afresh (the audit compares the two)."""
    out = [0] * s.n
    for g in s.ed.street_groups:
        q, houses, hotels = group_capacity(s, g)
        if q >= 0:
            out[q] += houses if item == HOUSE else hotels
    return out


# Selling.


def even_sell_ok(s: MonopolyState, sq: int) -> bool:
    """Selling one level from ``sq`` keeps the group even: ``sq`` is at the maximum."""
    lvl = s.level[sq]
    if lvl == 0:
        return False
    level = s.level
    return all(level[m] <= lvl for m in s.ed.groups[s.ed.group_of[sq]].members)


def hotel_sale_level(s: MonopolyState, sq: int) -> int:
    """The level a hotel on ``sq`` comes down to when sold: 4, or the bank's houses if fewer."""
    return min(4, s.houses)


def can_sell(s: MonopolyState, p: int, sq: int) -> bool:
    if s.owner[sq] != p or not even_sell_ok(s, sq):
        return False
    if s.level[sq] == HOTEL_LEVEL:
        new = hotel_sale_level(s, sq)
        members = s.ed.groups[s.ed.group_of[sq]].members
        return all(s.level[m] - new <= 1 for m in members if m != sq)
    return True


def sell_squares(s: MonopolyState, p: int) -> list[int]:
    # Groups with no building are passed over by the kept table (built_groups): most are.
    built = built_groups(s)
    out = []
    for g in s.ed.street_groups:
        members = s.ed.groups[g].members
        if not built[g] or s.owner[members[0]] != p:
            continue
        for m in members:
            if s.level[m] and can_sell(s, p, m):
                out.append(m)
    return out


def sell(s: MonopolyState, p: int, sq: int) -> None:
    """Sell one building on ``sq`` back to the bank at half price."""
    cost = s.ed.house_cost[sq]
    if s.level[sq] == HOTEL_LEVEL:
        new = hotel_sale_level(s, sq)
        s.hotels += 1
        s.houses -= new
        units = HOTEL_LEVEL - new  # the hotel, plus the houses the bank could not give back
    else:
        s.houses += 1
        new = s.level[sq] - 1
        units = 1
    holdings.set_level(s, sq, new)
    money.bank_pays(s, p, money.sell_price(s, units * cost))
    if s._events is not None:
        s.event("sold_building", player=p, square=sq, level=s.level[sq])


def sell_group_groups(s: MonopolyState, p: int) -> list[int]:
    """Groups of ``p`` with buildings none of which can be sold singly (a hotel deadlock in a
    housing shortage): offered as one sale of every building in the group."""
    built = built_groups(s)
    out = []
    for g in s.ed.street_groups:
        members = s.ed.groups[g].members
        if not built[g] or s.owner[members[0]] != p:
            continue
        if not any(s.level[m] and can_sell(s, p, m) for m in members):
            out.append(g)
    return out


def sell_group(s: MonopolyState, p: int, g: int) -> None:
    """Sell every building of group ``g`` back to the bank at half price."""
    units = 0
    for m in s.ed.groups[g].members:
        lvl = s.level[m]
        if lvl == HOTEL_LEVEL:
            s.hotels += 1
        else:
            s.houses += lvl
        units += lvl
    holdings.clear_group(s, g)
    money.bank_pays(s, p, money.sell_price(s, units * s.ed.groups[g].house_cost))
    if s._events is not None:
        s.event("sold_group", player=p, group=g)


def group_has_buildings(s: MonopolyState, g: int) -> bool:
    """Whether any street of group ``g`` has a building (the kept table: :func:`built_groups`)."""
    return s.kept.built[g]


def built_groups(s: MonopolyState) -> list[bool]:
    """For each group index, whether any of its streets has a building. Trading and mortgaging
    ask it for every deed, so the state keeps it: every change of a building level above
    updates its group's entry (the audit checks it against :func:`find_built_groups`); callers
    must not change it."""
    return s.kept.built


def any_built(s: MonopolyState) -> bool:
    """Whether any street has a building (:func:`built_groups`: no level is read)."""
    for built in s.kept.built:
        if built:
            return True
    return False
