"""What the players hold: deeds, the buildings on them, mortgages, jail cards, their seats.

These functions are the only writers of the board (``MonopolyState.owner``, ``level``,
``mortgaged``, ``card_holder`` and ``alive``). Each keeps the table derived from what it
writes (``MonopolyState._built``: which groups have a building) and takes a new board stamp
naming the group that changed (``MonopolyState.board_changed``), on which every other kept
answer depends: rents, where a player may build, who may trade (docs/KERNEL.md, "The hot
path"). The audit (``meeple simulate --audit``) works every such table out afresh after each
action and compares.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.games.monopoly.tables import NO_GROUP

if TYPE_CHECKING:
    from meeple.games.monopoly.state import MonopolyState


def give_deeds(s: MonopolyState, deeds: list[int], p: int, *, lift: bool = False) -> None:
    """``deeds`` now belong to seat ``p`` (-1: back to the bank); ``lift`` ends their
    mortgages too (a deed the bank sells again is sold unmortgaged)."""
    owner, mortgaged, group_of = s.owner, s.mortgaged, s.ed.group_of
    for sq in deeds:
        owner[sq] = p
        if lift:
            mortgaged[sq] = False
    if len(deeds) == 1:  # (the usual case: a purchase or an auction)
        s.board_changed(group_of[deeds[0]])
        return
    for g in sorted({group_of[sq] for sq in deeds}):
        s.board_changed(g)


def set_level(s: MonopolyState, sq: int, level: int) -> None:
    """``sq`` now has ``level`` buildings (0-4 houses, 5 a hotel); the bank's stock is the
    caller's to change (``rules/buildings.py``)."""
    s.level[sq] = level
    g = s.ed.group_of[sq]
    if level:
        s.kept.built[g] = True
    else:
        s.kept.built[g] = any(s.level[m] for m in s.ed.groups[g].members)
    s.board_changed(g)


def clear_group(s: MonopolyState, g: int) -> None:
    """Every building of group ``g`` is gone."""
    for m in s.ed.groups[g].members:
        s.level[m] = 0
    s.kept.built[g] = False
    s.board_changed(g)


def set_mortgaged(s: MonopolyState, sq: int, mortgaged: bool) -> None:
    s.mortgaged[sq] = mortgaged
    s.board_changed(s.ed.group_of[sq])


def give_card(s: MonopolyState, card: int, p: int) -> None:
    """Get Out of Jail Free card ``card`` is now held by seat ``p`` (-1: back in its deck;
    the deck itself is the caller's, ``rules/jail.return_card``)."""
    s.card_holder[card] = p
    s.board_changed(NO_GROUP)


def leave_game(s: MonopolyState, p: int) -> None:
    """Seat ``p`` is out of the game."""
    s.alive[p] = False
    s.board_changed()
