"""Jail: going there, and the three ways out.

Friends rules A, "Go to Jail": move to the jail "immediately", no GO salary, "Whenever you are
forced to go to Jail, your turn ends immediately". "Getting Out of Jail": pay M50 and take your
turn normally; use a Get Out of Jail Free card (returned to the bottom of its deck); or roll
doubles within three attempts and move by that roll; after the third miss pay M50 and move by
the last roll. Leaving on doubles gives no extra roll (the classic rules, "JAIL": "even though
you had thrown doubles, you do not take another turn"; Frozen II, "How do I get out of Jail?":
"Use the roll to move, and that's the end of your turn"). The classic rules offer the fine
"before you roll the dice on either of your next two turns" only (:func:`may_pay_fine`; the
classic rules are Hasbro's instruction sheet 00009: docs/RULES.md, "Classic rules (Hasbro)").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.games.monopoly.frames import BANK
from meeple.games.monopoly.rules import bankruptcy, holdings, landing, money, movement

if TYPE_CHECKING:
    from meeple.games.monopoly.state import MonopolyState


def send_to_jail(s: MonopolyState, p: int) -> None:
    """Straight to jail: no salary, doubles forgotten, and the turn's rolling is over."""
    s.pos[p] = s.ed.jail
    s.in_jail[p] = True
    s.jail_turns[p] = 0
    s.doubles = 0
    s.phase = s.END_TURN
    if s._events is not None:
        s.event("jailed", player=p)


def time_out_stuck(s: MonopolyState, p: int) -> bool:
    """In Time Out with neither the fine nor a card: nothing to decide (My First Monopoly)."""
    return s.cash[p] < s.rules.jail_fine and p not in s.card_holder


def leave_time_out_broke(s: MonopolyState, p: int) -> None:
    """My First Monopoly, "Time Out": "If you can't pay and you don't have a Get out of Time Out
    Free card, sing your favorite song for everyone! Then get out of Time Out for free, and take
    your turn!" (``time_out_broke = "free"``), or, at level 2, "Any time you don't have enough
    money to ... get out of Time Out, you're bankrupt!" (``"insolvent"``: docs/RULES.md)."""
    if s.rules.time_out_broke == "insolvent":
        bankruptcy.insolvent(s, p, BANK, s.rules.jail_fine)
        return
    leave(s, p)
    s.phase = s.PRE_ROLL
    if s._events is not None:
        s.event("sings", player=p)


def leave(s: MonopolyState, p: int) -> None:
    s.in_jail[p] = False
    s.jail_turns[p] = 0


def may_pay_fine(s: MonopolyState, p: int) -> bool:
    """Whether jailed ``p`` may pay the fine now, before rolling: with the cash, and, in jail
    with tries at doubles, on a turn before the last try unless ``jail_fine_on_last_try``. The
    classic rules, "JAIL": "(4) paying a fine of $50 before you roll the dice on either of your
    next two turns. If you do not throw doubles by your third turn, you must pay the $50 fine"
    (the third turn rolls, and pays after a miss); Friends rules B and Frozen II: "Pay M50 at
    the start of your next turn" on any of them."""
    r = s.rules
    if s.cash[p] < r.jail_fine:
        return False
    return (
        r.jail_style != "jail" or r.jail_fine_on_last_try or s.jail_turns[p] < r.max_jail_turns - 1
    )


def pay_fine(s: MonopolyState, p: int) -> None:
    """Pay the fine before rolling, then roll and move as normal (doubles roll again)."""
    money.transfer(s, p, money.fines_to(s), s.rules.jail_fine)
    leave(s, p)
    s.phase = s.PRE_ROLL
    if s._events is not None:
        s.event("fine_paid", player=p, amount=s.rules.jail_fine)


def use_card(s: MonopolyState, p: int, card: int) -> None:
    """Play Get Out of Jail Free card ``card``: it goes to the bottom of its own deck."""
    return_card(s, card)
    leave(s, p)
    s.phase = s.PRE_ROLL
    if s._events is not None:
        s.event("card_used", player=p, card=card)


def return_card(s: MonopolyState, card: int) -> None:
    """Jail card ``card`` goes back to the bottom of the deck it came from."""
    holdings.give_card(s, card, -1)
    deck, index = s.ed.jail_cards[card]
    s.decks[deck].append(index)


def roll_in_jail(s: MonopolyState, p: int) -> None:
    """Try for doubles. Doubles: out, move, and (classic) no extra roll. Third miss: pay, move."""
    d1, d2 = movement.roll_dice(s, p)
    total = d1 + d2
    if movement.is_double(s, d1, d2):
        leave(s, p)
        s.phase = s.PRE_ROLL if s.rules.jail_doubles_extra_roll else s.END_TURN
        if s._events is not None:
            s.event("jail_doubles", player=p)
        movement.advance(s, p, total)
        landing.land(s, p)
        return
    s.jail_turns[p] = s.jail_turns[p] + 1  # (as money.bank_pays says why)
    s.phase = s.END_TURN
    if s.jail_turns[p] < s.rules.max_jail_turns:
        if s._events is not None:
            s.event("jail_stay", player=p, attempt=s.jail_turns[p])
        return
    # The third miss: pay the fine, then move by this roll (after any debt is settled).
    leave(s, p)
    if s._events is not None:
        s.event("jail_third_miss", player=p, amount=s.rules.jail_fine)
    if bankruptcy.charge(s, p, money.fines_to(s), s.rules.jail_fine, then_move=total):
        movement.advance(s, p, total)
        landing.land(s, p)
