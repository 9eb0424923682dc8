"""Invariant audit of a Monopoly state: what must hold after every action.

DESIGN.md, "Correctness you can see": money conserved with the bank as the only source and sink;
houses and hotels conserved with the bank's stock; one owner per deed; even building; no
building in a group with a mortgage; Get Out of Jail Free cards conserved; no negative cash.
Used by the random-play tests after every action.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.games.monopoly.edition import STREET

if TYPE_CHECKING:
    from meeple.games.monopoly.state import MonopolyState


def audit(s: MonopolyState) -> list[str]:
    """Every broken invariant, as sentences; empty when the state is sound."""
    bad: list[str] = []
    ed, r = s.ed, s.rules
    start = r.starting_cash * s.n
    if sum(s.cash) != start + s.bank_out - s.bank_in:
        bad.append(f"money: players hold {sum(s.cash)}, expected "
                   f"{start} + {s.bank_out} paid out - {s.bank_in} taken in")
    for p in range(s.n):
        if s.cash[p] < 0:
            bad.append(f"seat {p} has negative cash {s.cash[p]}")
        if not s.alive[p] and s.cash[p]:
            bad.append(f"eliminated seat {p} still has cash {s.cash[p]}")
    houses_out = sum(lvl for lvl in s.level if lvl < 5)
    hotels_out = sum(1 for lvl in s.level if lvl == 5)
    if s.houses + houses_out != r.houses or s.houses < 0:
        bad.append(f"houses: bank {s.houses} + on board {houses_out} != {r.houses}")
    if s.hotels + hotels_out != r.hotels or s.hotels < 0:
        bad.append(f"hotels: bank {s.hotels} + on board {hotels_out} != {r.hotels}")
    for sq in range(ed.size):
        o = s.owner[sq]
        if not ed.is_property[sq]:
            if o != -1 or s.level[sq] or s.mortgaged[sq]:
                bad.append(f"square {sq} is not a deed but is owned or built on")
            continue
        if o >= 0 and not s.alive[o]:
            bad.append(f"deed {sq} belongs to eliminated seat {o}")
        if o < 0 and s.mortgaged[sq]:
            bad.append(f"unowned deed {sq} is mortgaged")
        if not 0 <= s.level[sq] <= 5 or (s.level[sq] and ed.kind[sq] != STREET):
            bad.append(f"square {sq} has impossible level {s.level[sq]}")
    for g in ed.street_groups:
        members = ed.groups[g].members
        levels = [s.level[m] for m in members]
        if any(levels):
            owners = {s.owner[m] for m in members}
            if len(owners) != 1 or -1 in owners:
                bad.append(f"group {ed.groups[g].id} has buildings but not one owner")
            if max(levels) - min(levels) > 1:
                bad.append(f"group {ed.groups[g].id} is built unevenly: {levels}")
            if any(s.mortgaged[m] for m in members):
                bad.append(f"group {ed.groups[g].id} has buildings and a mortgage")
    for d, deck in enumerate(ed.decks):
        held = s.card_holder[d]
        cards = sorted(s.decks[d] + ([deck.jail_card] if held >= 0 else []))
        if cards != list(range(len(deck.cards))):
            bad.append(f"deck {deck.id} is not a permutation of its cards: {cards}")
        if held >= 0 and not s.alive[held]:
            bad.append(f"eliminated seat {held} holds the {deck.id} jail card")
    if not s.over:
        p = s.current_player()
        if not s.alive[p]:
            bad.append(f"eliminated seat {p} must decide")
        if not s.legal_actions():
            bad.append(f"seat {p} must decide '{s.decision_name()}' but has no legal action")
    elif not s.end_reason:
        bad.append("the game is over without a reason")
    return bad
