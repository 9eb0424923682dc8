"""What the players hold: deeds, the buildings on them, mortgages, jail cards, their seats.

These functions are the only writers of the board (``MonopolyState.owner``, ``level``,
``mortgaged``, ``card_holder`` and ``alive``). Each keeps the table derived from what it
writes (``Kept.built``: which groups have a building) and takes a new board stamp naming the
group that changed (:func:`board_changed`, which also writes the state's log of changes that
:func:`groups_changed_since` reads), on which every other kept answer depends: rents, where a
player may build, who may trade (docs/KERNEL.md, "The hot path"). The audit (``meeple
simulate --audit``) works every such table out afresh after each action and compares.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from mypy_extensions import i64

from meeple.games.monopoly.kept import STAMPS
from meeple.games.monopoly.rules import snowflake
from meeple.games.monopoly.tables import NO_GROUP

if TYPE_CHECKING:
    from meeple.games.monopoly.state import MonopolyState

_MASK_BITS: Final = 62  # groups a groups_changed_since mask can name


def board_changed(s: MonopolyState, group: int = -1) -> None:
    """Take a new board stamp: every write of ``owner``, ``level``, ``mortgaged``,
    ``card_holder`` or ``alive`` calls it (what the caches of the rules and bots depend on).
    ``group`` names the group when only its squares changed (its rents alone are worked out
    again, and the log of changes names it alone); :data:`NO_GROUP` when no square changed (a
    Get Out of Jail Free card changed hands); the default, when anything else may have."""
    s.board_stamp = STAMPS.next()
    if group >= 0:
        s.kept.rents_dirty |= 1 << group
        s.changes.append(group)
    elif group != NO_GROUP:
        s.kept.rents_dirty = -1
        s.changes.append(-1)


def groups_changed_since(s: MonopolyState, start: int) -> i64:
    """The groups the state's log of changes names from entry ``start`` on, as a bit mask (bit
    ``g``: group ``g``); -1, every bit, when an entry says anything may have changed, or when
    the edition has more groups than the mask has bits. (A machine word in the compiled build:
    the readers test it once per group.)"""
    log = s.changes
    if len(s.ed.groups) > _MASK_BITS:
        return -1
    mask: i64 = 0
    for i in range(start, len(log)):
        g: i64 = log[i]
        if g < 0:
            return -1
        mask |= 1 << g
    return mask


def give_deeds(s: MonopolyState, deeds: list[int], p: int, *, lift: bool = False) -> None:
    """``deeds`` now belong to seat ``p`` (-1: back to the bank); ``lift`` ends their
    mortgages too (a deed the bank sells again is sold unmortgaged). The snowflake (Frozen II)
    on a deed that changes hands goes back in the box (``rules/snowflake.py``)."""
    owner, mortgaged, group_of = s.owner, s.mortgaged, s.ed.group_of
    if s.snowflake in deeds:
        snowflake.scene_changes_hands(s, s.snowflake)
    for sq in deeds:
        owner[sq] = p
        if lift:
            mortgaged[sq] = False
    if len(deeds) == 1:  # (the usual case: a purchase or an auction)
        board_changed(s, group_of[deeds[0]])
        return
    for g in sorted({group_of[sq] for sq in deeds}):
        board_changed(s, g)


def set_level(s: MonopolyState, sq: int, level: int) -> None:
    """``sq`` now has ``level`` buildings (0-4 houses, 5 a hotel); the bank's stock is the
    caller's to change (``rules/buildings.py``)."""
    s.level[sq] = level
    g = s.ed.group_of[sq]
    if level:
        s.kept.built[g] = True
    else:
        s.kept.built[g] = any(s.level[m] for m in s.ed.groups[g].members)
    board_changed(s, g)


def clear_group(s: MonopolyState, g: int) -> None:
    """Every building of group ``g`` is gone."""
    for m in s.ed.groups[g].members:
        s.level[m] = 0
    s.kept.built[g] = False
    board_changed(s, g)


def set_mortgaged(s: MonopolyState, sq: int, mortgaged: bool) -> None:
    s.mortgaged[sq] = mortgaged
    board_changed(s, s.ed.group_of[sq])


def give_card(s: MonopolyState, card: int, p: int) -> None:
    """Get Out of Jail Free card ``card`` is now held by seat ``p`` (-1: back in its deck;
    the deck itself is the caller's, ``rules/jail.return_card``)."""
    s.card_holder[card] = p
    board_changed(s, NO_GROUP)


def leave_game(s: MonopolyState, p: int) -> None:
    """Seat ``p`` is out of the game."""
    s.alive[p] = False
    board_changed(s)
