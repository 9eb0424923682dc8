"""Money: the bank as the only source and sink, payments from cash in hand, net worth.

Friends rules B, "The Bank": the bank pays salaries and bonuses, collects taxes and fines, and
"can never 'go broke'". Friends rules A, "Run Out of Cash": what you cannot pay from cash you
must raise: a charge that may become a debt is :mod:`.bankruptcy`'s (``charge``), above this
module, which every rule uses and which imports none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.games.monopoly.frames import BANK, POT

if TYPE_CHECKING:
    from meeple.games.monopoly.state import MonopolyState


def bank_pays(s: MonopolyState, p: int, amount: int) -> None:
    """The bank pays ``amount`` to ``p`` (salary, card bonus, mortgage, building sale)."""
    # (``x[i] = x[i] + n``, not ``x[i] += n``: the compiled build does an item's augmented
    # assignment through Python's generic number protocol, an element of a list[int] not.)
    s.cash[p] = s.cash[p] + amount
    s.bank_out += amount


def pay_bank(s: MonopolyState, p: int, amount: int) -> None:
    """``p`` pays ``amount`` to the bank from cash they have."""
    s.cash[p] = s.cash[p] - amount
    s.bank_in += amount


def transfer(s: MonopolyState, payer: int, payee: int, amount: int) -> None:
    """``payer`` pays ``payee`` (a seat, BANK or the Free Parking POT) from cash they have."""
    s.cash[payer] = s.cash[payer] - amount
    if payee == BANK:
        s.bank_in += amount
    elif payee == POT:
        s.pot += amount
    else:
        s.cash[payee] = s.cash[payee] + amount


def fines_to(s: MonopolyState) -> int:
    """Who takes a tax, a fine or a card's payment to the bank: the bank, or with the house
    rule ``free_parking_money`` the pot on Free Parking. The Frozen II rulebook's Top Tips name
    the house rule to advise against it: "Never put cash in the center of the board; you don't
    get a bonus for landing on Free Parking!" (docs/RULES.md, "Free Parking money"). Buying,
    building, auctions and mortgage interest always pay the bank."""
    return POT if s.rules.free_parking_money else BANK


def take_pot(s: MonopolyState, p: int) -> None:
    """``p`` landed on Free Parking: they take whatever the pot holds (house rule
    ``free_parking_money``; an empty pot gives nothing)."""
    amount = s.pot
    if amount <= 0:
        return
    s.pot = 0
    s.cash[p] = s.cash[p] + amount
    if s._events is not None:
        s.event("free_parking_pot", player=p, amount=amount)


def pay_now(s: MonopolyState, payer: int, payee: int, amount: int) -> None:
    """``payer`` pays ``payee`` from cash they have, and the log says so: a debt paid at once
    (``bankruptcy.charge``), and each payment of a card that pays or collects from each player."""
    transfer(s, payer, payee, amount)
    if s._events is not None:
        s.event("paid", payer=payer, payee=payee, amount=amount)


def building_value(s: MonopolyState, sq: int) -> int:
    """What the buildings on ``sq`` cost (a hotel counts as 4 houses plus the hotel)."""
    return s.level[sq] * s.ed.house_cost[sq]


def sell_price(s: MonopolyState, cost: int) -> int:
    """Buildings sell back at the edition's share of their cost (half), rounded down."""
    return cost * s.rules.building_sell_percent // 100


def net_worth(s: MonopolyState, p: int) -> int:
    """Cash + printed price of unmortgaged deeds + mortgage value of mortgaged ones + the cost
    of buildings. Ranks players in a capped game (docs/RULES.md, "Turn cap")."""
    ed = s.ed
    total = s.cash[p]
    for sq in ed.properties:
        if s.owner[sq] == p:
            total += ed.mortgage[sq] if s.mortgaged[sq] else ed.price[sq]
            total += building_value(s, sq)
    return total


def raisable(s: MonopolyState, p: int) -> int:
    """The most cash ``p`` can have by selling every building and mortgaging every deed."""
    ed = s.ed
    total = s.cash[p]
    for sq in ed.properties:
        if s.owner[sq] == p:
            total += sell_price(s, building_value(s, sq))
            if not s.mortgaged[sq]:
                total += ed.mortgage[sq]
    return total
