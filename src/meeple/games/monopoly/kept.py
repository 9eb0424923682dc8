"""What the rules keep worked out about one state's board, so that they read a change instead
of the whole board (docs/KERNEL.md, "The hot path").

Every field here is derived from the board (owners, buildings, mortgages, cards, who is still
in): nothing is saved, and the audit (``audit.py``, ``meeple simulate --audit``) compares each
with the board worked out afresh. Two ways keep them valid:

- by the board stamp (``MonopolyState.board_stamp``, new at every write of the board:
  ``rules/holdings.py``): an answer remembers the stamp it is for, and is worked out again when
  the stamp moved;
- by the state's log of changes (``MonopolyState.changes``, the groups each write named): a
  table per group remembers how far into the log it was worked out, and works out again only
  the groups named since.

A third kind is written by the board's writers themselves (``rules/holdings.py``), at each
write: which groups have a building, and the deeds as bit masks of squares (each seat's, the
mortgaged ones, those of the groups with a building), so that a question about one player's
deeds (what they may mortgage, lift or trade) reads their deeds, not the whole board.

A copy of the state (``clone``, ``copy_into``) keeps the answers of the first and third kinds,
which hold for the same board, and starts the tables of the second afresh, since the copy
starts a log of its own.
"""

from __future__ import annotations

from typing import Final

from mypy_extensions import i64


# Board stamps: a fresh number whenever who owns what, what is built or mortgaged, who holds a
# jail card or who is still playing changes. One counter for every state in the process, so two
# clones that change differently never share a stamp, and a cache keyed by a stamp is never
# stale. (The audit checks that every such change takes a new stamp.)
class Stamps:
    """The counter of board stamps: a compiled class, since ``next()`` of an
    ``itertools.count`` costs the compiled build a look-up of ``next`` and a call through
    Python on every board change."""

    def __init__(self) -> None:
        self.last = 0

    def next(self) -> int:
        self.last += 1
        return self.last


STAMPS: Final = Stamps()


class Kept:
    """The derived tables of one state's board (see the module's text)."""

    def __init__(self, groups: int, players: int) -> None:
        # -- kept by the board's writers (rules/holdings.py): a copy keeps them --------------
        # Whether each group has a building.
        self.built = [False] * groups
        # Bit masks of squares (bit sq: square sq; a Python int, so any board fits, and a
        # machine word in the compiled build while the squares are fewer than 63): each seat's
        # deeds, the mortgaged deeds, and the squares of the groups with a building.
        self.held = [0] * players
        self.mortgaged_bits = 0
        self.built_bits = 0
        # Per group, the seat that may build there (owns every street of it, none mortgaged),
        # else -1 (always -1 for a railroad or utility group); and those seats as a bit mask.
        self.builder = [-1] * groups
        self.builders = 0
        # -- kept by board stamp: a copy keeps them ------------------------------------------
        # rent.rents_now's table, and a bit mask of the groups to work out again (-1: all).
        self.rents: list[int] = []
        self.rents_dirty = -1
        # trade.holders_of_tradeables' answer (a bit mask of seats) and the seats still playing
        # (a bit mask), while holders_known: kept until a writer changes who holds what could
        # be traded or who plays (rules/holdings.py: a deed changing hands, a group built on or
        # cleared, a jail card moving, a seat leaving), not at every board stamp (a mortgage
        # or a lift, most of a random player's changes, leaves them).
        self.holders_known = False
        self.holders: i64 = 0
        self.alive: i64 = 0
        # -- worked out along the log of changes, or afresh: a copy starts them again --------
        # Per group: who could build there and how many more houses and hotels
        # (buildings.capacities), worked out as far as this point of the log of changes.
        self.cap_holder: list[int] = []
        self.cap_houses: list[int] = []
        self.cap_hotels: list[int] = []
        self.cap_read = 0
        self.cap_total_houses = 0  # ... and their sums over the groups
        self.cap_total_hotels = 0
        # build_options' memory: where a seat could build cash aside (buildings.build_spots),
        # for (board stamp, seat, houses, hotels), and the dearest house among those; its last
        # answer, and the cash that answer is for (-1: none since the spots changed).
        self.build_spots: list[int] = []
        self.spots_key = (0, -1, 0, 0)
        self.spots_dearest = 0
        self.builds: list[int] = []
        self.builds_cash = -1

    def copy_from(self, other: Kept) -> None:
        """Become what a copy of ``other``'s state keeps (in this object's own lists)."""
        self.built[:] = other.built
        self.held[:] = other.held
        self.mortgaged_bits, self.built_bits = other.mortgaged_bits, other.built_bits
        self.builder[:], self.builders = other.builder, other.builders
        self.rents[:], self.rents_dirty = other.rents, other.rents_dirty
        self.holders_known, self.holders = other.holders_known, other.holders
        self.alive = other.alive
        self.cap_holder.clear()
        self.cap_houses.clear()
        self.cap_hotels.clear()
        self.cap_read, self.cap_total_houses, self.cap_total_hotels = 0, 0, 0
        self.build_spots.clear()
        self.spots_key, self.spots_dearest = (0, -1, 0, 0), 0
        self.builds.clear()
        self.builds_cash = -1
