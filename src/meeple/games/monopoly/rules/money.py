"""Money: the bank as the only source and sink, charges that become debts, net worth.

Friends rules B, "The Bank": the bank pays salaries and bonuses, collects taxes and fines, and
"can never 'go broke'". Friends rules A, "Run Out of Cash": what you cannot pay from cash you
must raise (see :mod:`.bankruptcy`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.games.monopoly.frames import BANK, POT
from meeple.games.monopoly.rules import bankruptcy, turns

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
    (:func:`charge`), and each payment of a card that pays or collects from each player."""
    transfer(s, payer, payee, amount)
    if s._events is not None:
        s.event("paid", payer=payer, payee=payee, amount=amount)


def owes_already(s: MonopolyState, p: int) -> bool:
    """Whether ``p`` has an unpaid debt waiting on the stack (later debts queue behind it)."""
    # (a loop, not ``any`` of a generator: the interpreted build makes a generator per call)
    for f in s.stack:
        if isinstance(f, bankruptcy.DebtFrame) and f.debtor == p:
            return True
    return False


def charge(s: MonopolyState, debtor: int, creditor: int, amount: int, then_move: int = 0) -> bool:
    """``debtor`` owes ``amount`` to ``creditor`` (a seat or BANK).

    Paid at once when the cash is there and no earlier debt waits; otherwise a debt frame asks
    the debtor to raise the money. Returns whether it was paid at once.
    """
    if amount <= 0:
        return True
    if s.cash[debtor] >= amount and not owes_already(s, debtor):
        pay_now(s, debtor, creditor, amount)
        return True
    if s.rules.insolvency != "raise_or_bankrupt":
        insolvent(s, debtor, creditor, amount)
        return True
    s.stack.append(bankruptcy.DebtFrame(debtor, creditor, amount, then_move))
    if s._events is not None:
        s.event("debt", debtor=debtor, creditor=creditor, amount=amount)
    return False


def insolvent(s: MonopolyState, p: int, creditor: int, amount: int) -> None:
    """``p`` cannot pay ``amount`` in an edition without raising money.

    My First Monopoly level 1 (``insolvency = "forgive"``): "If you don't have enough money to
    pay, say something nice about that player instead!" and "You can't go bankrupt in Level 1":
    nothing is paid. Level 2 (``"ends_game"``): "Any time you don't have enough money to buy a
    property, pay rent, pay for a Chance card, or get out of Time Out, you're bankrupt! Then the
    games ends".
    """
    if s.rules.insolvency == "forgive":
        if s._events is not None:
            s.event("forgiven", player=p, creditor=creditor, amount=amount)
        return
    s.bankrupt_seat = p
    if s._events is not None:
        s.event("bankrupt", player=p, creditor=creditor, cash=s.cash[p])
    turns.finish(s, "bankruptcy")


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
