"""Card decks (Chance / Community Chest, and their themed renamings).

Friends rules A, "Apartment 19 and Apartment 20": take the top card, do what it says, return it
to the bottom; a Get Out of Jail Free card is kept (and may be sold or traded) until used.
``shared/reference/classic-cards.json``: "nearest" means the next such square going forward;
the railroad card pays twice the normal rent; the utility card pays 10 times a fresh roll;
passing GO on a card move pays the salary; going to jail never does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.games.monopoly.frames import BANK
from meeple.games.monopoly.rules import (
    bankruptcy,
    holdings,
    jail,
    landing,
    money,
    movement,
    rent,
    snowflake,
    table,
)
from meeple.games.monopoly.tables import (
    ELEMENT,
    OP_BANK_PAYS,
    OP_COLLECT_FROM_EACH_PLAYER,
    OP_GET_OUT_OF_JAIL_FREE,
    OP_GO_TO_JAIL,
    OP_MOVE_RELATIVE,
    OP_MOVE_TO,
    OP_MOVE_TO_NEAREST,
    OP_PAY_BANK,
    OP_PAY_EACH_PLAYER,
    OP_REPAIRS,
    OP_SNOWFLAKE,
    RAILROAD,
)

if TYPE_CHECKING:
    from meeple.games.monopoly.state import MonopolyState


def draw(s: MonopolyState, p: int, d: int) -> None:
    """Draw the top card of deck ``d`` and resolve it for ``p``."""
    deck = s.decks[d]
    idx = deck.pop(0)
    card = s.ed.decks[d].cards[idx]
    if s._events is not None:
        s.event("card", player=p, deck=d, card=card.id, text=card.text)
    if card.op == OP_GET_OUT_OF_JAIL_FREE:
        # Kept until used; it returns to this deck's bottom then.
        holdings.give_card(s, s.ed.jail_card_index[d, idx], p)
        return
    deck.append(idx)  # back to the bottom before its effect, which may draw again elsewhere
    resolve(s, p, card.op, card.a, card.b)


def resolve(s: MonopolyState, p: int, op: int, a: int, b: int) -> None:
    """Carry out one card effect (``a``/``b`` as compiled in :class:`~..edition.Card`)."""
    n = s.ed.size
    if op == OP_MOVE_TO:
        movement.advance(s, p, (a - s.pos[p]) % n)
        landing.land(s, p)
    elif op == OP_MOVE_TO_NEAREST:
        target = s.ed.nearest[a][s.pos[p]]
        movement.advance(s, p, (target - s.pos[p]) % n)
        nearest_landing(s, p, target, a, b)
    elif op == OP_MOVE_RELATIVE:
        if a < 0:
            movement.move_back(s, p, -a)
        else:
            movement.advance(s, p, a)
        landing.land(s, p)
    elif op == OP_GO_TO_JAIL:
        jail.send_to_jail(s, p)
    elif op == OP_BANK_PAYS:
        money.bank_pays(s, p, a)
    elif op == OP_PAY_BANK:
        bankruptcy.charge(s, p, money.fines_to(s), a)
    elif op == OP_REPAIRS:
        houses = hotels = 0
        for sq in s.ed.properties:
            if s.owner[sq] == p:
                lvl = s.level[sq]
                if lvl == 5:
                    hotels += 1
                else:
                    houses += lvl
        bankruptcy.charge(s, p, money.fines_to(s), houses * a + hotels * b)
    elif op == OP_SNOWFLAKE:
        snowflake.offer(s, p)
    elif op == OP_PAY_EACH_PLAYER:
        others = [q for q in table.seats_from(s, p) if q != p]
        total = a * len(others)
        if s.rules.insolvency != "raise_or_bankrupt":
            # The card is paid in full or not at all (My First Monopoly level 2: not enough
            # money "to ... pay for a Chance card" is bankruptcy; level 1 forgives it).
            if s.cash[p] >= total:
                for q in others:
                    money.pay_now(s, p, q, a)
            else:
                bankruptcy.insolvent(s, p, BANK, total)
        elif s.cash[p] >= total and not bankruptcy.owes_already(s, p):
            for q in others:
                money.pay_now(s, p, q, a)
        else:
            # Debts are settled one creditor at a time, in seat order from the left.
            for q in reversed(others):
                s.stack.append(bankruptcy.DebtFrame(p, q, a))
    elif op == OP_COLLECT_FROM_EACH_PLAYER:
        debtors = [q for q in table.seats_from(s, p) if q != p]
        short = []
        for q in debtors:
            if s.rules.insolvency != "raise_or_bankrupt":
                if not s.over:
                    bankruptcy.charge(s, q, p, a)
            elif s.cash[q] >= a and not bankruptcy.owes_already(s, q):
                money.pay_now(s, q, p, a)
            else:
                short.append(q)
        for q in reversed(short):
            s.stack.append(bankruptcy.DebtFrame(q, p, a))


def nearest_landing(s: MonopolyState, p: int, sq: int, kind: int, mult: int) -> None:
    """Arriving by an "advance to the nearest railroad/utility/Element space" card.

    Unowned: buy or auction as usual. Owned by another (unmortgaged): a railroad charges
    ``mult`` times its normal rent; a utility charges ``mult`` times a fresh roll of the dice,
    whatever the owner holds.
    """
    if kind == ELEMENT:  # an Element space reached by card: its own rule applies
        landing.land(s, p)
        return
    owner = s.owner[sq]
    if owner < 0:
        landing.unowned(s, p, sq)
        return
    if owner == p:
        return
    if s.mortgaged[sq]:
        if s._events is not None:
            s.event("no_rent_mortgaged", player=p, square=sq)
        return
    if kind == RAILROAD:
        amount = rent.rents_now(s)[sq] * mult
    else:
        d1, d2 = movement.roll_dice(s, p)
        amount = (d1 + d2) * mult
    landing.owe_rent(s, p, owner, sq, amount)
