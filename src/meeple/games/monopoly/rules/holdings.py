"""What the players hold: deeds, the buildings on them, mortgages, jail cards, their seats.

These functions are the only writers of the board (``MonopolyState.owner``, ``level``,
``mortgaged``, ``card_holder`` and ``alive``). Each keeps the tables derived from what it
writes (``Kept.built``: which groups have a building; the bit masks of each seat's deeds, of the
mortgaged ones and of the built groups' squares: ``Kept.held``, ``mortgaged_bits``,
``built_bits``; who may build on each group: ``Kept.builder``, ``builders``; all of which
:func:`work_out_kept` works out afresh) and takes a new board stamp naming the
group that changed (:func:`board_changed`, which also writes the state's log of changes that
:func:`groups_changed_since` reads), on which every other kept answer depends: rents, where a
player may build, who may trade (docs/KERNEL.md, "The hot path"). The audit (``meeple
simulate --audit``) works every such table out afresh after each action and compares.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from mypy_extensions import i64

from meeple.games.monopoly.kept import STAMPS
from meeple.games.monopoly.tables import NO_GROUP, STREET

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
        return
    # (a group's writers forget the holders of tradeables themselves when they change them:
    # a mortgage does not)
    s.kept.holders_known = False
    if group != NO_GROUP:
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
    kept = s.kept
    held = kept.held
    if s.snowflake >= 0 and s.snowflake in deeds:  # (a test of boxed ints: only with a flake)
        scene_changes_hands(s, s.snowflake)
    for sq in deeds:
        bit = 1 << sq
        was = owner[sq]
        # (``x[i] = x[i] & m``, not ``&=``: money.bank_pays says why)
        if was >= 0:
            held[was] = held[was] & ~bit
        if p >= 0:
            held[p] = held[p] | bit
        owner[sq] = p
        if lift:
            mortgaged[sq] = False
            kept.mortgaged_bits &= ~bit
    kept.holders_known = False  # (who holds a tradeable deed)
    if len(deeds) == 1:  # (the usual case: a purchase or an auction)
        _find_builder(s, group_of[deeds[0]])
        board_changed(s, group_of[deeds[0]])
        return
    groups = 0  # (the groups named, as a mask read in order: no set to make and sort)
    for sq in deeds:
        groups |= 1 << group_of[sq]
    g = 0
    while groups:
        if groups & 1:
            _find_builder(s, g)
            board_changed(s, g)
        groups >>= 1
        g += 1


def set_level(s: MonopolyState, sq: int, level: int) -> None:
    """``sq`` now has ``level`` buildings (0-4 houses, 5 a hotel); the bank's stock is the
    caller's to change (``rules/buildings.py``)."""
    s.level[sq] = level
    g = s.ed.group_of[sq]
    _set_built(s, g, level > 0 or any(s.level[m] for m in s.ed.groups[g].members))
    board_changed(s, g)


def clear_group(s: MonopolyState, g: int) -> None:
    """Every building of group ``g`` is gone."""
    for m in s.ed.groups[g].members:
        s.level[m] = 0
    _set_built(s, g, False)
    board_changed(s, g)


def _set_built(s: MonopolyState, g: int, built: bool) -> None:
    """Group ``g`` has a building (``built``) or none: ``Kept.built`` and ``built_bits`` (and
    who holds a tradeable deed, which a building changes)."""
    s.kept.built[g] = built
    s.kept.holders_known = False
    if built:
        s.kept.built_bits |= s.ed.group_bits[g]
    else:
        s.kept.built_bits &= ~s.ed.group_bits[g]


def set_mortgaged(s: MonopolyState, sq: int, mortgaged: bool) -> None:
    s.mortgaged[sq] = mortgaged
    g = s.ed.group_of[sq]
    if mortgaged:
        s.kept.mortgaged_bits |= 1 << sq
        if s.kept.builder[g] >= 0:  # (a mortgage makes no one a builder: it may end one)
            _find_builder(s, g)
    else:
        s.kept.mortgaged_bits &= ~(1 << sq)
        if not s.kept.mortgaged_bits & s.ed.group_bits[g]:  # (a group still mortgaged: none)
            _find_builder(s, g)
    board_changed(s, g)


def _find_builder(s: MonopolyState, g: int) -> None:
    """Who may build on group ``g`` now that its owners or mortgages changed (Friends rules B,
    "Build": "only on a whole colour group", none of it mortgaged): ``Kept.builder`` and
    ``builders``, which ``anytime.build_options`` reads before looking for spots."""
    kept = s.kept
    q = group_builder(s, g)
    if q == kept.builder[g]:
        return
    kept.builder[g] = q
    builders = 0
    for seat in kept.builder:
        if seat >= 0:
            builders |= 1 << seat
    kept.builders = builders


def group_builder(s: MonopolyState, g: int) -> int:
    """The seat that owns every street of street group ``g`` with none mortgaged, else -1."""
    ed = s.ed
    if ed.groups[g].kind != STREET:
        return -1
    q = s.owner[ed.groups[g].members[0]]
    members = ed.group_bits[g]
    if q < 0 or s.kept.held[q] & members != members or s.kept.mortgaged_bits & members:
        return -1
    return q


def give_card(s: MonopolyState, card: int, p: int) -> None:
    """Get Out of Jail Free card ``card`` is now held by seat ``p`` (-1: back in its deck;
    the deck itself is the caller's, ``rules/jail.return_card``)."""
    s.card_holder[card] = p
    board_changed(s, NO_GROUP)


def leave_game(s: MonopolyState, p: int) -> None:
    """Seat ``p`` is out of the game."""
    s.alive[p] = False
    board_changed(s)


def work_out_kept(s: MonopolyState) -> None:
    """Work out afresh from the board the tables its writers keep (after the board was set by
    other means: a restore, a test's edit and ``MonopolyState.invalidate``)."""
    s.kept.built = find_built_groups(s)
    s.kept.holders_known = False
    s.kept.held, s.kept.mortgaged_bits, s.kept.built_bits = find_deed_bits(s)
    s.kept.builder = [-1] * len(s.ed.groups)
    s.kept.builders = 0
    for g in range(len(s.ed.groups)):
        _find_builder(s, g)


def find_deed_bits(s: MonopolyState) -> tuple[list[int], int, int]:
    """``Kept.held``, ``mortgaged_bits`` and ``built_bits`` worked out afresh from the board
    (the audit compares them with the kept ones)."""
    held = [0] * s.n
    mortgaged = built = 0
    for sq in s.ed.properties:
        bit = 1 << sq
        if s.owner[sq] >= 0:
            held[s.owner[sq]] |= bit
        if s.mortgaged[sq]:
            mortgaged |= bit
    for g, is_built in enumerate(find_built_groups(s)):
        if is_built:
            built |= s.ed.group_bits[g]
    return held, mortgaged, built


def find_built_groups(s: MonopolyState) -> list[bool]:
    """``buildings.built_groups`` worked out afresh from the building levels (here, beside the
    tables the board's writers keep, which :func:`work_out_kept` fills from it)."""
    out = [False] * len(s.ed.groups)
    group_of, level = s.ed.group_of, s.level
    for sq in range(len(level)):
        if level[sq]:
            out[group_of[sq]] = True
    return out


def scene_changes_hands(s: MonopolyState, sq: int) -> None:
    """Scene ``sq``, with the snowflake on it, changes hands (a trade, a bankruptcy to a player
    or to the bank): the token goes back in the box and doubles no one's rent.

    monopoly-frozen-2-rules.txt, "Snowflake": the token goes "on any scene that you own" and
    "The next person to land on that scene has to pay you double the rent!": the double rent is
    the placer's, on their own scene. A new owner did not place it, and an eliminated placer can
    be paid nothing, so the promise ends with the placer's ownership (docs/RULES.md, "The
    snowflake"). Called by :func:`give_deeds`, the one writer of who owns a deed, and so kept
    here below the snowflake's own rule (``rules/snowflake.py`` names it too).
    """
    s.snowflake = -1
    if s._events is not None:
        s.event("snowflake_returned", square=sq)


# -- reading the bit masks --------------------------------------------------------------------


# The largest mask the readers below take as a machine word (``i64``), whose steps the compiled
# build does without an int's checks: every mask of a board of up to 62 squares.
_WORD: Final = (1 << 62) - 1


def count_bits(bits: int) -> int:
    """How many squares the mask ``bits`` names (a loop per square named, not per square)."""
    if 0 <= bits <= _WORD:  # (asked at every decision of a random player: rules/anytime.py)
        word: i64 = bits
        count: i64 = 0
        while word:
            word &= word - 1  # (drops the lowest bit)
            count += 1
        return int(count)
    n = 0
    while bits:
        bits &= bits - 1
        n += 1
    return n


def nth_square(bits: int, k: int) -> int:
    """``squares_of(bits)[k]`` (``k`` below :func:`count_bits`' answer), without the list: the
    ``k``-th lowest square of the mask."""
    if 0 <= bits <= _WORD and k >= 0:  # (as in count_bits)
        word: i64 = bits
        left: i64 = k
        while left > 0:
            word &= word - 1  # (drops the lowest square)
            left -= 1
        bits = int(word)
    else:
        while k > 0:  # (not ``for _ in range(k)``: the compiled build boxes each ``_``)
            bits &= bits - 1
            k -= 1
    if not bits:
        raise IndexError("nth_square: fewer squares than counted")
    return (bits & -bits).bit_length() - 1


def squares_of(bits: int) -> list[int]:
    """The squares the mask ``bits`` names, in square order (as ``Edition.properties`` lists
    them)."""
    out: list[int] = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out
