"""The city grid: plots, neighbours, the border, the park rule, cubes and dealing new cards.

monopolis-rules.txt, "The Borders of the City (A VÁROS HATÁRAI)": no requirement card goes on
the outer side of a tile 3 tiles from the castle, so the city is at most 7 x 7. A plot is a cell
of that grid, numbered ``row * 7 + col`` with row 0 in the north and col 0 in the west; the
castle is plot 24 (the centre). Only in-grid neighbours exist, which is the border rule.
"""

from __future__ import annotations

from typing import Final

from meeple.games.monopolis.components import BUSINESS, PARK, RESIDENTIAL

SIZE: Final = 7
RADIUS: Final = 3
PLOTS: Final = SIZE * SIZE
CASTLE: Final = (SIZE * SIZE) // 2
EMPTY: Final = -1


def plot_at(col: int, row: int) -> int:
    """The plot number of grid cell (``col``, ``row``)."""
    return row * SIZE + col


def cell_of(plot: int) -> tuple[int, int]:
    """(col, row) of ``plot``."""
    return plot % SIZE, plot // SIZE


def offset_of(plot: int) -> tuple[int, int]:
    """(east, north) offset of ``plot`` from the castle: the castle is (0, 0)."""
    col, row = cell_of(plot)
    return col - RADIUS, RADIUS - row


def distance(plot: int) -> int:
    """How many tiles ``plot`` lies from the castle (the border is at 3)."""
    dx, dy = offset_of(plot)
    return max(abs(dx), abs(dy))


def _neighbours(plot: int) -> tuple[int, ...]:
    col, row = cell_of(plot)
    out = []
    for dc, dr in ((0, -1), (1, 0), (0, 1), (-1, 0)):
        c, r = col + dc, row + dr
        if 0 <= c < SIZE and 0 <= r < SIZE:
            out.append(plot_at(c, r))
    return tuple(out)


#: In-grid orthogonal neighbours of every plot, north, east, south, west. A tile on the border
#: has no neighbour outside, so no card is ever dealt beyond it ("The Borders of the City").
NEIGHBOURS: Final[tuple[tuple[int, ...], ...]] = tuple(_neighbours(p) for p in range(PLOTS))


def park_adjacent(value_at: list[int], plot: int) -> bool:
    """Whether a park stands next to ``plot``: then no park may go there.

    monopolis-rules.txt, "The Benefits of Individual Buildings", 1. Park: "a park cannot be
    built next to another park".
    """
    for n in NEIGHBOURS[plot]:
        if value_at[n] == PARK:
            return True
    return False


def partner_value(value: int) -> int:
    """The value of the tile that raises a tile of ``value`` by one cube (3 <-> 2), else 0."""
    if value == BUSINESS:
        return RESIDENTIAL
    if value == RESIDENTIAL:
        return BUSINESS
    return 0


def cube_partners(value_at: list[int], plot: int, value: int) -> list[int]:
    """The neighbours of ``plot`` that pair with a tile of ``value`` for +1 cube each way.

    monopolis-rules.txt, "The Benefits of Individual Buildings", 3. Business quarter: "Each
    business quarter increases the value of each adjacent residential quarter by 1, and vice
    versa", whoever built either tile.
    """
    partner = partner_value(value)
    if not partner:
        return []
    return [n for n in NEIGHBOURS[plot] if value_at[n] == partner]


def plots_needing_cards(value_at: list[int], card_at: list[int], built: list[int]) -> list[int]:
    """The plots that receive a new requirement card around the tiles in ``built``.

    monopolis-rules.txt, "Building": new cards are placed around the new tile, "only a single
    card points to any one building plot". A plot gets a card if it is empty, inside the border
    and has none yet; plots are listed in build order, then north, east, south, west.
    """
    out: list[int] = []
    for plot in built:
        for n in NEIGHBOURS[plot]:
            if value_at[n] == EMPTY and card_at[n] == EMPTY and n not in out:
                out.append(n)
    return out
