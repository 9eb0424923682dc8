"""Charges, debts, raising money, and bankruptcy.

Friends rules B, "Help, I'm in Debt": raise the money by selling buildings and mortgaging;
"If you still owe more than you have, you are BANKRUPT". To a player: they get everything
(Friends rules A: "all of the moments and Get Out of Jail Free cards"; "The moments stay on the
mortgage side" and the creditor pays the 10% on each, or lifts it). To the bank: the bank
auctions every deed unmortgaged and the Get Out of Jail Free cards go back to their decks.
Bankruptcy is allowed only once selling every building and mortgaging every deed could not pay
the debt (docs/RULES.md, "When bankruptcy is allowed"); the buildings still standing are sold
to the bank at half price and that cash goes to the creditor.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from meeple.games.monopoly import actions as A
from meeple.games.monopoly.frames import DEED, POT, Frame
from meeple.games.monopoly.rules import (
    anytime,
    auction,
    buildings,
    holdings,
    jail,
    landing,
    money,
    mortgage,
    movement,
    table,
    trade,
    turns,
)

if TYPE_CHECKING:
    from meeple.games.monopoly.state import MonopolyState
    from meeple.kernel.protocol import Action
    from meeple.kernel.rng import Rng


def owes_already(s: MonopolyState, p: int) -> bool:
    """Whether ``p`` has an unpaid debt waiting on the stack (later debts queue behind it)."""
    # (a loop, not ``any`` of a generator: the interpreted build makes a generator per call)
    for f in s.stack:
        if isinstance(f, DebtFrame) and f.debtor == p:
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
        money.pay_now(s, debtor, creditor, amount)
        return True
    if s.rules.insolvency != "raise_or_bankrupt":
        insolvent(s, debtor, creditor, amount)
        return True
    s.stack.append(DebtFrame(debtor, creditor, amount, then_move))
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
    table.finish(s, "bankruptcy")


class DebtFrame(Frame):
    """A debt the debtor cannot pay from cash: raise money (sell, mortgage, trade) or, if that
    cannot work, go bankrupt. Paid as soon as the cash is there (:func:`settle`).

    ``creditor`` is a seat, BANK or the Free Parking POT. ``then_move`` > 0 moves the debtor
    that many squares once paid (the third failed jail roll: pay the fine, then move).
    """

    __slots__ = ("amount", "creditor", "debtor", "then_move")
    name = "debt"

    def __init__(self, debtor: int, creditor: int, amount: int, then_move: int = 0) -> None:
        self.debtor = debtor
        self.creditor = creditor
        self.amount = amount
        self.then_move = then_move

    def decider(self) -> int:
        return self.debtor

    def copy(self) -> DebtFrame:
        return DebtFrame(self.debtor, self.creditor, self.amount, self.then_move)

    def to_dict(self) -> dict[str, Any]:
        return {
            "frame": self.name,
            "debtor": self.debtor,
            "creditor": self.creditor,
            "amount": self.amount,
            "then_move": self.then_move,
        }

    @staticmethod
    def from_dict(d: dict[str, Any]) -> Frame:
        return DebtFrame(d["debtor"], d["creditor"], d["amount"], d["then_move"])

    def legal(self, s: MonopolyState, p: int) -> list[Action]:
        out = anytime.raise_money(s, p)
        if s.rules.trading:  # (a debtor may trade for cash, where trading is in the rules)
            out += [A.act(A.TRADE, q) for q in trade.can_start(s, p)]
        if can_declare(s, self):
            out.append(A.A_BANKRUPT)
        return out

    def sample(self, s: MonopolyState, p: int, rng: Rng) -> Action:
        tail = [A.A_BANKRUPT] if can_declare(s, self) else []
        return anytime.sample_raise(s, p, rng, [], s.rules.trading, tail)

    def allows(self, s: MonopolyState, p: int, kind: str, arg: int) -> bool:
        if kind == A.TRADE:
            return s.rules.trading and arg in trade.can_start(s, p)
        if kind == A.BANKRUPT:
            return can_declare(s, self)
        return anytime.may_raise(s, p, kind, arg)

    def play(self, s: MonopolyState, p: int, kind: str, arg: int) -> None:
        declare(s, self)  # (the debt's own action; raising money is an any-time action)

    def settle(self, s: MonopolyState) -> bool:
        return settle(s, self)

    def without(self, p: int) -> bool:
        """A debt goes when its debtor or its creditor leaves the game."""
        return p != self.debtor and p != self.creditor


def can_declare(s: MonopolyState, f: DebtFrame) -> bool:
    return money.raisable(s, f.debtor) < f.amount


def settle(s: MonopolyState, f: DebtFrame) -> bool:
    """Pay the debt once the cash is there. Returns True while the debtor must still act."""
    p = f.debtor
    if not s.alive[p]:
        s.stack.pop()
        return False
    if s.cash[p] < f.amount:
        return True
    s.stack.pop()
    money.transfer(s, p, f.creditor, f.amount)
    if s._events is not None:
        s.event("paid", payer=p, payee=f.creditor, amount=f.amount)
    if f.then_move:
        movement.advance(s, p, f.then_move)
        landing.land(s, p)
    return False


def declare(s: MonopolyState, f: DebtFrame) -> None:
    """``f.debtor`` goes bankrupt to ``f.creditor``."""
    s.stack.pop()
    p, c = f.debtor, f.creditor
    ed = s.ed
    # Buildings still standing go back to the bank at half price first.
    for g in ed.street_groups:
        if s.owner[ed.groups[g].members[0]] == p and buildings.group_has_buildings(s, g):
            buildings.sell_group(s, p, g)
    deeds = [sq for sq in ed.properties if s.owner[sq] == p]
    cash = s.cash[p]
    s.cash[p] = 0
    if s._events is not None:
        s.event("bankrupt", player=p, creditor=c, cash=cash)
    eliminate(s, p)
    if c < 0:  # the bank, or the Free Parking pot (the deeds go to the bank all the same)
        if c == POT:
            s.pot += cash
        else:
            s.bank_in += cash
        for j, holder in enumerate(s.card_holder):
            if holder == p:
                jail.return_card(s, j)
        holdings.give_deeds(s, deeds, -1, lift=True)
        if not s.over:
            bidders = table.seats_from(s, table.next_seat(s, p))
            for sq in reversed(deeds):
                auction.start_auction(s, DEED, sq, list(bidders))
    else:
        s.cash[c] = s.cash[c] + cash  # (not +=: money.bank_pays says why)
        for d, holder in enumerate(s.card_holder):
            if holder == p:
                holdings.give_card(s, d, c)
        holdings.give_deeds(s, deeds, c)
        if not s.over:
            mortgage.receive_mortgaged(s, c, deeds)


def eliminate(s: MonopolyState, p: int) -> None:
    """Take ``p`` out: drop their pending decisions; end the game or their turn."""
    holdings.leave_game(s, p)
    s.in_jail[p] = False
    s.eliminated.append(p)
    s.claims = [c for c in s.claims if c[0] != p and c[1] != p]
    drop_decisions_of(s, p)
    if sum(s.alive) == 1:
        table.finish(s, "last_player_standing")
    elif p == s.turn:
        turns.end_turn(s)


def drop_decisions_of(s: MonopolyState, p: int) -> None:
    """Remove the decisions that belonged to seat ``p``, who is out (each frame says which:
    ``Frame.without``), and ``p``'s place in this turn's any-time windows."""
    s.stack = [f for f in s.stack if f.without(p)]
    s.window = [q for q in s.window[s.window_next :] if q != p]
    s.window_next = 0
