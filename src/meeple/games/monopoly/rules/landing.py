"""What happens on the square you land on.

Friends rules B, "Where did you land": an unowned property (buy or auction, :mod:`.buying`), a
property owned by another player (rent, :mod:`.rent`; none if mortgaged), Apartment 19/20
(a card, :mod:`.cards`), the taxes ("pay the Bank the amount shown"), Go to Jail, Just Visiting
and Free Parking ("Nothing bad (or good) happens"), your own property (nothing).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.games.monopoly.edition import CARD, GO_TO_JAIL, TAX
from meeple.games.monopoly.frames import BANK, BuyFrame
from meeple.games.monopoly.rules import cards, jail, money, rent

if TYPE_CHECKING:
    from meeple.games.monopoly.state import MonopolyState


def land(s: MonopolyState, p: int) -> None:
    """Resolve the square ``p`` stands on after a move."""
    sq = s.pos[p]
    ed = s.ed
    if ed.is_property[sq]:
        owner = s.owner[sq]
        if owner < 0:
            s.stack.append(BuyFrame(p, sq))
        elif owner != p:
            if s.mortgaged[sq]:
                if s._events is not None:
                    s.event("no_rent_mortgaged", player=p, square=sq)
                return
            owe_rent(s, p, owner, sq, rent.rent_due(s, sq, s.dice[0] + s.dice[1]))
        return
    kind = ed.kind[sq]
    if kind == TAX:
        if s._events is not None:
            s.event("tax", player=p, square=sq, amount=ed.tax[sq])
        money.charge(s, p, BANK, ed.tax[sq])
    elif kind == CARD:
        cards.draw(s, p, ed.deck_of[sq])
    elif kind == GO_TO_JAIL:
        jail.send_to_jail(s, p)


def owe_rent(s: MonopolyState, payer: int, owner: int, sq: int, amount: int) -> None:
    """Rent is owed: collected at once, or (rule option ``rent_claim_required``) left for the
    owner to claim before the next player rolls (Friends rules B: "the owner must ask you for
    the rent before the player to your left rolls the dice. If they forget to ask, you don't
    have to pay!")."""
    if s.rules.rent_claim_required:
        s.claims.append([owner, payer, amount, s.turn_no, sq])
        if s._events is not None:
            s.event("rent_claimable", owner=owner, payer=payer, square=sq, amount=amount)
        return
    if s._events is not None:
        s.event("rent", owner=owner, payer=payer, square=sq, amount=amount)
    money.charge(s, payer, owner, amount)
