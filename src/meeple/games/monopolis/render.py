"""The city as text, for ``meeple replay`` and the terminal, and the terminal's panel.

monopolis-rules.txt, "The Borders of the City": the city fits a 7 x 7 grid around the castle.
The grid's rows are counted north (``3N``) to south (``3S``) and its columns west (``3W``) to
east (``3E``) of the castle, the way the choices name plots ("2 north, 1 east of the castle").
Each cell shows the castle (``CASTLE``), a building tile by its kind, its builder and its cubes
(``Res P2+1``: a residential quarter built by Player 2, with 1 cube), a requirement card waiting
on an empty plot by its Type (``card III``: :func:`card_lines` lists what each card asks), or
nothing (``.``).

Issue 16 (the terminal): :func:`panel_lines` adds the points each player would score if the
game ended now, and says the decision in words; :func:`rules_summary` is the ``info`` command
and the web page's "How this game is played". Issue 38: every number a person reads counts
from 1, and the rulebook's terms (card Types, the joker track, the board's columns) are
explained where they appear.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from meeple.games.monopolis.city import CASTLE, EMPTY, PLOTS, RADIUS, SIZE, offset_of, plot_at
from meeple.games.monopolis.components import BUILDING_NAMES
from meeple.games.monopolis.describe import (
    ROMAN,
    TYPE_WORDS,
    card_words,
    column_words,
    counted,
    listed,
    ordinal,
    plot_words,
)
from meeple.games.monopolis.scoring import board_bonus, score_sheets
from meeple.games.monopolis.terms import JOKER_TRACK

if TYPE_CHECKING:
    from meeple.games.monopolis.components import Components
    from meeple.games.monopolis.state import MonopolisState

#: A tile's kind in a grid cell: its building's name, cut to fit.
SHORT: Final = {1: "Park", 2: "Res", 3: "Bus", 4: "Work", 6: "Spec"}
WIDTH = 9
LEGEND: Final = (
    "Park 1 point, Res(idential quarter) 2, Bus(iness quarter) 3, Work(place) 4, "
    "Spec(ial building) 6;",
    "P2: built by Player 2; +1: 1 cube (1 point more); card I, II, III: a requirement card "
    "of that Type ('deed' lists them).",
)


def cell_text(state: MonopolisState, plot: int) -> str:
    """The short text of one plot."""
    if plot == CASTLE:
        return "CASTLE"
    value = state.value_at[plot]
    if value != EMPTY:
        text = f"{SHORT[value]} P{state.owner_at[plot] + 1}"
        if state.cubes[plot]:
            text += f"+{state.cubes[plot]}"
        return text
    card = state.card_at[plot]
    if card != EMPTY:
        return f"card {ROMAN[state.comps.card(card).type]}"
    return "."


def _axis(k: int, minus: str, plus: str) -> str:
    return "0" if k == 0 else f"{abs(k)}{plus if k > 0 else minus}"


def render_city(state: MonopolisState) -> str:
    """The whole 7 x 7 city as lines of text, north at the top, with a legend."""
    head = "     " + "".join(f"{_axis(x, 'W', 'E'):^{WIDTH}}" for x in range(-RADIUS, RADIUS + 1))
    lines = [head.rstrip()]
    for row in range(SIZE):
        y = RADIUS - row
        cells = "".join(f"{cell_text(state, plot_at(col, row)):^{WIDTH}}" for col in range(SIZE))
        lines.append(f"{_axis(y, 'S', 'N'):>3}  {cells}".rstrip())
    lines.extend(LEGEND)
    return "\n".join(lines)


def rules_summary(comps: Components) -> list[str]:
    """Monopolis's rules in short, in the rulebook's words (the terminal's ``info``, the web
    page's "How this game is played"), with the board's column rewards from the components."""
    columns = "; ".join(f"column {i + 1}: {column_words(c)}" for i, c in enumerate(comps.columns))
    icons = listed([i.replace("_", " ") for i in comps.icons])
    return [
        "Monopolis (monopolis-rules.txt): build the city around the castle; most points wins.",
        "Each turn has two actions, in any order: buy one face-up resource card (the left "
        "row's cards cost 1, 1 and 2 money, the right row's 3, 3 and 4; the row slides left "
        "and a new card fills its dearest place), or build. An action you cannot take pays 1 "
        "money instead.",
        "Building: choose a requirement card next to the city and pay the resources it shows; "
        "lay a building tile in its place and put your next house from your board on it (a "
        "workplace takes 2). The card goes to your hand.",
        "Requirement cards: Type I (4 resources, 2 of them alike) and Type II (4 different) "
        "paid whole build any building; Type III (3 resources) paid whole builds a park, "
        "residential or business quarter; two alike resources of a Type I or III card build a "
        "park or residential quarter.",
        f"A card's reward: a turquoise icon ({icons}) kept for the collection, or money or a "
        "resource of your choice (Liza) at once.",
        f"Your board: each house you place uncovers its column's reward at once ({columns}).",
        "Tiles: park 1 point (2 collection icons; never next to another park), residential "
        "quarter 2, business quarter 3 (a business and a residential quarter side by side each "
        "gain a cube: 1 point more), workplace 4 (2 houses, 2 money at once), special "
        "building 6 (1 collection icon).",
        "Jokers (Liza): take a joker as any resource at once, or hold it on the joker track "
        "(at most 3 held); a held joker pays for any one resource when you build.",
        "The end: the round in which a player uses their last house is played out. Points: "
        "every 5 money 1; your board (2 per column-3 house placed, and for using every house "
        f"{board_bonus(3)}, or {board_bonus(2)} with 2 players); each collection icon's "
        "majority 4, second 2; most parks 10, second 5; tile values plus 1 per cube.",
    ]


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
        icons = [c["icon"].replace("_", " ") for c in pl["cards"] if c["icon"]]
        cards = counted(len(pl["cards"]), "requirement card")
        if icons:
            cards += f" (icons: {', '.join(icons)})"
        lines.append(
            f"{mark}{_tag(q, names)}{you}: money {pl['money']}, {res}, jokers held "
            f"{pl['jokers']} of {JOKER_TRACK}, houses left {pl['houses_left']}, {cards}"
        )
    lines.append(points_line(state, names))
    lines.extend(market_lines(v))
    tiles = ", ".join(
        f"{BUILDING_NAMES[int(val)]} {t['count']}" for val, t in v["tile_supply"].items()
    )
    lines.append(f"Building tiles left: {tiles}")
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


def market_lines(v: dict[str, Any]) -> list[str]:
    """The two rows of face-up resource cards, cheapest first: what each gives, its price."""
    rows: dict[int, list[str]] = {0: [], 1: []}
    for place in v["market"]:
        card = place["card"]
        row, k = divmod(place["slot"], 3)
        if card is None:
            rows[row].append(f"{ordinal(k + 1)} empty")
            continue
        what = list(card["resources"])
        if card["liza"]:
            what.append("joker")
        if card["coins"]:
            what.append(f"{card['coins']} money back")
        rows[row].append(f"{'+'.join(what) or 'nothing'} for {place['price']}")
    return [
        "Resource cards, left row: " + "; ".join(rows[0]),
        "                right row: " + "; ".join(rows[1]),
    ]


def card_lines(state: MonopolisState) -> list[str]:
    """Every requirement card on the table, by where it lies, with its reward, then what each
    Type on the table lets one build (the terminal's ``deed``: Monopolis has no title deeds)."""
    comps = state.comps
    cards = [p for p in range(PLOTS) if state.card_at[p] != EMPTY]
    lines = [f"Requirement cards on the table ({len(cards)}), north first:"]
    for plot in sorted(cards, key=lambda p: (-offset_of(p)[1], offset_of(p)[0])):
        card = comps.card(state.card_at[plot])
        lines.append(f"  {plot_words(plot)}: {card_words(comps, card, rules=False)}")
    for t in sorted({comps.card(state.card_at[p]).type for p in cards}):
        lines.append(f"Type {ROMAN[t]}: {TYPE_WORDS[t]}.")
    return lines


def decision_line(v: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """The decision in words (issue 16), not the engine's phase names."""
    if v["result"] is not None:
        return "The game is over."
    who = _who(v["current_player"], names)
    head = f"Turn {v['turns'] + 1}, {who}'s turn, action {v['actions_done'] + 1} of 2"
    plot = v["pending"]["plot"]
    where = f"the plot {plot_words(plot)}" if plot is not None and plot != EMPTY else "the plot"
    phase = v["phase"]
    if phase == "action":
        what = "buy a resource card or build"
    elif phase == "pay":
        what = f"how to pay for the build on {where}"
    elif phase == "tile":
        what = f"which tile to lay on {where}"
    elif phase == "joker":
        what = "the new joker: a resource now, or hold it on the joker track"
    else:
        what = phase
    return f"{head}: {what}" + ("; this is the final round." if v["final_round"] else ".")
