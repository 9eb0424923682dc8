"""Invariant audit of a Monopolis state: what must hold in every position, as sentences.

Components are conserved (each building tile once, on the grid or in the stack of its value;
each requirement card once, in the bag, on the table or in a hand; each resource card once, in
a deck, a discard pile or the market, which holds 3 + 3); the city is within 7 x 7 and touches
the castle ("The Borders of the City"); the houses on tiles are the houses that left each
board, one per tile and two on a workplace ("Building"); no park is next to a park; the cubes
on a tile are its business / residential pairs; nobody has negative money or resources, and
the joker track holds at most 3. Used by the random-play tests after every action and by the
position checks (``position.problems``). Like ``games/monopoly/audit.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.games.monopolis.city import CASTLE, EMPTY, NEIGHBOURS, PLOTS, cube_partners, distance
from meeple.games.monopolis.components import PARK, VALUES, WORKPLACE

if TYPE_CHECKING:
    from meeple.games.monopolis.state import MonopolisState


def audit(s: MonopolisState) -> list[str]:
    """Every broken invariant of ``s``, as sentences; empty when the position is sound."""
    from meeple.games.monopolis.state import JOKER_TRACK

    bad: list[str] = []
    comps, n = s.comps, s.n
    built = [p for p in range(PLOTS) if s.tile_at[p] != EMPTY and p != CASTLE]
    grid = [s.tile_at[p] for p in range(PLOTS) if s.tile_at[p] != EMPTY]
    stacks = [t for d in s.tile_decks for t in d]
    if sorted(grid + stacks) != list(range(len(comps.tiles))):
        bad.append("each building tile must be once on the grid or in the stack of its value")
    for v, deck in zip(VALUES, s.tile_decks, strict=False):
        if any(not 0 <= t < len(comps.tiles) or comps.tiles[t].value != v for t in deck):
            bad.append(f"the stack of value {v} holds a tile of another value")
    for p in range(PLOTS):
        t = s.tile_at[p]
        if 0 <= t < len(comps.tiles) and s.value_at[p] != comps.tiles[t].value:
            bad.append(f"plot {p}: its value {s.value_at[p]} is not its tile's")
    if s.tile_at[CASTLE] != 0:
        bad.append(f"the castle (plot {CASTLE}) must hold tile 0")
    for p in built:
        if distance(p) > 3:
            bad.append(f"plot {p} is outside the 7 x 7 city")
        if not any(s.tile_at[q] != EMPTY for q in NEIGHBOURS[p]):
            bad.append(f"the building on plot {p} touches no other tile")
        if not 0 <= s.owner_at[p] < n:
            bad.append(f"the building on plot {p} has no owner at the table")
        need = 2 if s.value_at[p] == WORKPLACE else 1
        if s.houses_at[p] != need:
            bad.append(f"the building on plot {p} holds {s.houses_at[p]} houses, not {need}")
        if s.value_at[p] == PARK and any(s.value_at[q] == PARK for q in NEIGHBOURS[p]):
            bad.append(f"the park on plot {p} is next to another park")
        if s.cubes[p] != len(cube_partners(s.value_at, p, s.value_at[p])):
            bad.append(f"plot {p} holds {s.cubes[p]} cubes, not one per business pair")
    if any(s.cubes[p] for p in range(PLOTS) if p not in built):
        bad.append("cubes lie on a plot without a building")
    for seat in range(n):
        who = f"player {seat + 1}"
        on_tiles = sum(s.houses_at[p] for p in built if s.owner_at[p] == seat)
        if on_tiles != s.houses[seat]:
            bad.append(f"{who} has {on_tiles} houses on tiles but {s.houses[seat]} off the board")
        if not 0 <= s.houses[seat] <= s.capacity:
            bad.append(f"{who} has used {s.houses[seat]} houses (0-{s.capacity})")
        if s.money[seat] < 0:
            bad.append(f"{who} has negative money ({s.money[seat]})")
        if min(s.res[seat], default=0) < 0:
            bad.append(f"{who} has a negative resource count ({s.res[seat]})")
        if not 0 <= s.jokers[seat] <= JOKER_TRACK:
            bad.append(f"{who} has {s.jokers[seat]} jokers (0-{JOKER_TRACK})")
    table = [s.card_at[p] for p in range(PLOTS) if s.card_at[p] != EMPTY]
    hands = [c for h in s.hand for c in h]
    cards = len(comps.requirement_cards)
    if sorted(s.bag + table + hands) != list(range(1, cards)):
        bad.append("each requirement card must be once: in the bag, on the table or in a hand")
    for p in range(PLOTS):
        if s.card_at[p] != EMPTY and (
            s.tile_at[p] != EMPTY or not any(s.tile_at[q] != EMPTY for q in NEIGHBOURS[p])
        ):
            bad.append(f"the requirement card on plot {p} is not on a free plot by the city")
    piles = [c for pile in s.res_decks + s.discards + s.market for c in pile]
    resource_cards = [c.id for c in comps.resource_cards if c is not None]
    if sorted(piles) != sorted(resource_cards):
        bad.append("each resource card must be once: in a deck, a discard pile or the market")
    if [len(row) for row in s.market] != [3, 3]:
        bad.append(f"the market must show 3 + 3 cards, not {[len(r) for r in s.market]}")
    if not s.is_terminal() and not 0 <= s.turn_player < n:
        bad.append(f"it is seat {s.turn_player}'s turn, not a player at the table")
    return bad
