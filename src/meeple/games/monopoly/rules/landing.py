"""What happens on the square you land on.

Friends rules B, "Where did you land": an unowned property (buy or auction, :mod:`.buying`), a
property owned by another player (rent, :mod:`.rent`; none if mortgaged), Apartment 19/20
(a card, :mod:`.cards`), the taxes ("pay the Bank the amount shown"), Go to Jail, Just Visiting
and Free Parking ("Nothing bad (or good) happens"), your own property (nothing). With the house
rule ``free_parking_money`` the taxes go into a pot that Free Parking pays out
(:func:`.money.take_pot`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.games.monopoly.frames import BANK
from meeple.games.monopoly.rules import (
    bankruptcy,
    buying,
    cards,
    jail,
    money,
    movement,
    rent,
    snowflake,
)
from meeple.games.monopoly.tables import (
    CARD,
    ELEMENT,
    FREE_PARKING,
    GO_TO_JAIL,
    SNOWFLAKE,
    TAX,
    UTILITY,
)

if TYPE_CHECKING:
    from meeple.games.monopoly.state import MonopolyState


def land(s: MonopolyState, p: int) -> None:
    """Resolve the square ``p`` stands on after a move."""
    sq = s.pos[p]
    ed = s.ed
    if ed.is_property[sq]:
        owner = s.owner[sq]
        if owner < 0:
            unowned(s, p, sq)
        elif owner != p:
            melted = snowflake.melt_on(s, sq)
            if s.mortgaged[sq]:
                if s._events is not None:
                    s.event("no_rent_mortgaged", player=p, square=sq)
                return
            amount = rent.rent_due(s, sq, utility_dice(s, p, sq))
            if melted:
                amount *= s.rules.snowflake_multiplier
            owe_rent(s, p, owner, sq, amount)
        return
    kind = ed.kind[sq]
    if kind == TAX:
        if s._events is not None:
            s.event("tax", player=p, square=sq, amount=ed.tax[sq])
        bankruptcy.charge(s, p, money.fines_to(s), ed.tax[sq])
    elif kind == CARD:
        cards.draw(s, p, ed.deck_of[sq])
    elif kind == GO_TO_JAIL:
        jail.send_to_jail(s, p)
    elif kind == ELEMENT:
        # Frozen II, "Element": "When you land on one, travel ahead to the next Element space"
        # (passing GO pays the salary); arriving there does not travel again.
        target = ed.nearest[ELEMENT][sq]
        if s._events is not None:
            s.event("element", player=p, square=sq, to=target)
        movement.advance(s, p, (target - sq) % ed.size)
    elif kind == SNOWFLAKE:
        snowflake.offer(s, p)
    elif kind == FREE_PARKING and s.pot:
        money.take_pot(s, p)


def unowned(s: MonopolyState, p: int, sq: int) -> None:
    """An unowned deed: a choice to buy or auction, or (``must_buy``) a purchase if possible.

    My First Monopoly, "Unowned Properties": "When you land on an unowned property, you must buy
    it!" A player who cannot (too little cash, or no sold sign left) leaves it unsold, or with
    ``unaffordable_property = "insolvent"`` (level 2) is bankrupt.
    """
    if not s.rules.must_buy:
        s.stack.append(buying.BuyFrame(p, sq))
        return
    if buying.may_buy(s, p, sq):
        buying.take_deed(s, p, sq)
    elif s.rules.unaffordable_property == "insolvent" and s.cash[p] < s.ed.price[sq]:
        bankruptcy.insolvent(s, p, BANK, s.ed.price[sq])
    elif s._events is not None:
        s.event("cannot_buy", player=p, square=sq)


def utility_dice(s: MonopolyState, p: int, sq: int) -> int:
    """The dice total a utility's rent multiplies: the move's dice; or (rule option
    ``utility_rent_dice = "fresh"``, Friends rules B "Roll the dice and multiply the result by
    4") a fresh roll made on landing; or (``"one_die"``, Friends rules A to the letter: "you
    will roll the die. The number you roll on the die determines how much rent you owe") a
    fresh roll of one die (docs/RULES.md, "Utility rent dice")."""
    if s.ed.kind[sq] == UTILITY:
        mode = s.rules.utility_rent_dice
        if mode == "fresh":
            d1, d2 = movement.roll_dice(s, p)
            return d1 + d2
        if mode == "one_die":
            return movement.roll_one_die(s, p)
    return s.dice[0] + s.dice[1]


def owe_rent(s: MonopolyState, payer: int, owner: int, sq: int, amount: int) -> None:
    """Rent is owed: collected at once, or (rule option ``rent_claim_required``) left for the
    owner to claim in time (Friends rules B: "the owner must ask you for the rent before the
    player to your left rolls the dice. If they forget to ask, you don't have to pay!"; the
    classic rules: "before the second player following throws the dice":
    ``turns.expire_claims``)."""
    if s.rules.rent_claim_required:
        s.claims.append([owner, payer, amount, s.turn_no, sq])
        if s._events is not None:
            s.event("rent_claimable", owner=owner, payer=payer, square=sq, amount=amount)
        return
    if s._events is not None:
        s.event("rent", owner=owner, payer=payer, square=sq, amount=amount)
    bankruptcy.charge(s, payer, owner, amount)
