"""The city as text, for ``meeple replay`` and the terminal, and the terminal's panel.

monopolis-rules.txt, "The Borders of the City": the city fits a 7 x 7 grid around the castle.
Each cell shows the castle (``CASTLE``), a tile as kind letter, value, builder and cubes
(``B3 p2+2``: a business quarter worth 3 built by player 2, i.e. seat 1, with 2 cubes), a
requirement card waiting on an empty plot (``[III]``), or nothing (``.``).

Issue 16 (the terminal): :func:`panel_lines` adds the points each player would score if the
game ended now, and says the decision in words; :data:`RULES_SUMMARY` is the ``info`` command.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from meeple.games.monopolis.city import CASTLE, EMPTY, RADIUS, SIZE, offset_of, plot_at
from meeple.games.monopolis.scoring import score_sheets

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


RULES_SUMMARY: Final = (
    "Monopolis (monopolis-rules.txt): build the city around the castle; most points wins.",
    "Each turn has two actions, in any order: buy one face-up resource card (places 0-2 of the "
    "left row cost 1, 1, 2 money; places 3-5 of the right row 3, 3, 4), or build. An action "
    "you cannot take pays 1 money instead.",
    "Building: choose a requirement card next to the city, pay the resources it shows (the "
    "whole card, or two of a kind for a park or residential quarter), lay a tile in its place "
    "and put your next house(s) on your board, taking the rewards they uncover.",
    "Tiles: park 1 (never next to a park), residential 2, business 3 (a business and a "
    "residential side by side give each other a cube, 1 point), workplace 4 (2 houses, 2 "
    "money), special 6.",
    "Jokers (Liza): fixed as a resource at once or held on the track (at most 3).",
    "The end: the round in which a player uses their last house is played out. Points: every "
    "5 money 1, your board, collection majorities 4 / 2 per icon, parks 10 / 5, tile values "
    "plus 1 per cube.",
)


def _who(q: int, names: Sequence[str] | None) -> str:
    return names[q] if names else f"Player {q + 1}"


def _tag(q: int, names: Sequence[str] | None) -> str:
    name = _who(q, names)
    return f"P{q + 1}" if name == f"Player {q + 1}" else f"P{q + 1} {name}"


def panel_lines(
    state: MonopolisState, seat: int | None = None, names: Sequence[str] | None = None
) -> list[str]:
    """The seats, the points if the game ended now, the market, the tiles and the decision."""
    v = state.view(seat)
    lines = []
    for pl in v["seats"]:
        q = pl["seat"]
        mark = ">" if q == v["current_player"] else " "
        you = " (you)" if q == seat else ""
        res = ", ".join(f"{k} {n}" for k, n in pl["resources"].items() if n) or "no resources"
        lines.append(
            f"{mark}{_tag(q, names)}{you}: money {pl['money']}, {res}, jokers {pl['jokers']}, "
            f"houses left {pl['houses_left']}, cards {len(pl['cards'])}"
        )
    lines.append(points_line(state, names))
    lines.append(market_line(v))
    tiles = ", ".join(f"{val}: {t['count']}" for val, t in v["tile_supply"].items())
    lines.append(f"Tiles left by value: {tiles}")
    lines.append(decision_line(v, names))
    return lines


def points_line(state: MonopolisState, names: Sequence[str] | None = None) -> str:
    """Each player's points as final scoring would count them now (issue 16: scores in the
    panel), from :func:`~meeple.games.monopolis.scoring.score_sheets`."""
    label = "Points" if state.is_terminal() else "Points if the game ended now"
    sheets = score_sheets(state)
    return f"{label}: " + ", ".join(
        f"{_tag(q, names)} {sheet['total']}" for q, sheet in enumerate(sheets)
    )


def market_line(v: dict[str, Any]) -> str:
    """The six face-up resource cards: place, what it gives, price."""
    market = []
    for place in v["market"]:
        card = place["card"]
        if card is None:
            market.append(f"{place['slot']}: -")
            continue
        what = "+".join(card["resources"]) or "nothing"
        if card["liza"]:
            what += "+joker"
        if card["coins"]:
            what += f"+{card['coins']} money"
        market.append(f"{place['slot']}: {what} ({place['price']})")
    return "Market: " + "; ".join(market)


def plot_words(plot: int) -> str:
    """A plot by number and by where it lies from the castle (as the choices say it)."""
    x, y = offset_of(plot)
    ns = f"{abs(y)} {'north' if y > 0 else 'south'}" if y else ""
    ew = f"{abs(x)} {'east' if x > 0 else 'west'}" if x else ""
    return f"plot {plot} ({', '.join(p for p in (ns, ew) if p)} of the castle)"


def decision_line(v: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """The decision in words (issue 16), not the engine's phase names."""
    if v["result"] is not None:
        return "The game is over."
    who = _who(v["current_player"], names)
    head = f"Turn {v['turns'] + 1}, {who}'s turn, action {v['actions_done'] + 1} of 2"
    plot = v["pending"]["plot"]
    where = plot_words(plot) if plot is not None and plot != EMPTY else "the plot"
    phase = v["phase"]
    if phase == "action":
        what = "buy a resource card or build"
    elif phase == "pay":
        what = f"how to pay for the build on {where}"
    elif phase == "tile":
        what = f"which tile to lay on {where}"
    elif phase == "joker":
        what = "the new joker: a resource now, or hold it on the track"
    else:
        what = phase
    return f"{head}: {what}" + ("; this is the final round." if v["final_round"] else ".")
