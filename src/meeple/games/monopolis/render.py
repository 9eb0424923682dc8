"""The city as text, for ``meeple replay`` and the terminal.

monopolis-rules.txt, "The Borders of the City": the city fits a 7 x 7 grid around the castle.
Each cell shows the castle (``CASTLE``), a tile as kind letter, value, builder and cubes
(``B3 p2+2``: a business quarter worth 3 built by player 2, i.e. seat 1, with 2 cubes), a
requirement card waiting on an empty plot (``[III]``), or nothing (``.``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.games.monopolis.city import CASTLE, EMPTY, RADIUS, SIZE, plot_at

if TYPE_CHECKING:
    from meeple.games.monopolis.state import MonopolisState

LETTERS = {1: "P", 2: "R", 3: "B", 4: "W", 6: "S"}
WIDTH = 9
LEGEND = (
    "P park, R residential, B business, W workplace, S special; "
    "pN: built by player N; +K: K cubes; [T]: requirement card of Type T"
)


def cell_text(state: MonopolisState, plot: int) -> str:
    """The short text of one plot."""
    if plot == CASTLE:
        return "CASTLE"
    value = state.value_at[plot]
    if value != EMPTY:
        text = f"{LETTERS[value]}{value} p{state.owner_at[plot] + 1}"
        if state.cubes[plot]:
            text += f"+{state.cubes[plot]}"
        return text
    card = state.card_at[plot]
    if card != EMPTY:
        t = state.comps.card(card).type
        return "[" + ("I" * t if t < 3 else "III") + "]"
    return "."


def render_city(state: MonopolisState) -> str:
    """The whole 7 x 7 city as lines of text, north at the top, with a legend."""
    head = "     " + "".join(f"{x:^{WIDTH}}" for x in range(-RADIUS, RADIUS + 1))
    lines = [head.rstrip()]
    for row in range(SIZE):
        y = RADIUS - row
        cells = "".join(f"{cell_text(state, plot_at(col, row)):^{WIDTH}}" for col in range(SIZE))
        lines.append(f"{y:>3}  {cells}".rstrip())
    lines.append(LEGEND)
    return "\n".join(lines)
