"""Events and actions in plain English, in the rulebook's words: purchases, builds, jokers,
new requirement cards, the end of a turn and of the game (monopolis-rules.txt, "Purchasing (A
VÁSÁRLÁS)", "Building (AZ ÉPÍTÉS)", "End of the Game (A JÁTÉK VÉGE)"). Like
``games/monopoly/describe.py``.

Issue 38 (words a person reads): numbers are counted from 1 as a person counts them (the
left row's 1st card, a player's 4th house), never the engine's indices (market place 0, plot
26); a plot is said by where it lies from the castle ("2 north, 1 east of the castle"); a
requirement card says its Type with what the Type means, and its reward; a build says what the
house column under the house gave. The same helpers make the terminal's and the web page's
words (``render.py``, ``view.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Final

from meeple.games.monopolis import building, market
from meeple.games.monopolis.actions import (
    BUILD_AT,
    BUY,
    JOKER,
    JOKER_HOLD,
    PASS_ACTION,
    PAY_FULL,
    PAY_PAIR,
    TILE,
)
from meeple.games.monopolis.building import FULL, PAIR_VALUES
from meeple.games.monopolis.city import EMPTY, PLOTS, offset_of
from meeple.games.monopolis.components import BUILDING_NAMES, KIND_OF_VALUE, VALUES
from meeple.games.monopolis.market import ROW, SLOTS
from meeple.games.monopolis.terms import JOKER_TRACK
from meeple.kernel.protocol import Action, Event

if TYPE_CHECKING:
    from meeple.games.monopolis.components import BoardColumn, Components, RequirementCard
    from meeple.games.monopolis.state import MonopolisState

# ---------------------------------------------------------------------------- small words


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ... ``11th``, ``12th``, ``21st``."""
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{({1: 'st', 2: 'nd', 3: 'rd'}).get(n % 10, 'th')}"


def counted(n: int, word: str, plural: str = "") -> str:
    """``1 house``, ``2 houses``, ``1 money`` (``plural`` when not ``word`` + s)."""
    return f"{n} {word if n == 1 else plural or word + 's'}"


def listed(items: Sequence[str], last: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def plot_words(plot: int) -> str:
    """Where a plot lies, as a person finds it on the city: ``2 north, 1 east of the castle``
    (north up, as the terminal's grid and the web page draw it)."""
    x, y = offset_of(plot)
    if (x, y) == (0, 0):
        return "the castle"
    ns = f"{abs(y)} {'north' if y > 0 else 'south'}" if y else ""
    ew = f"{abs(x)} {'east' if x > 0 else 'west'}" if x else ""
    return f"{', '.join(p for p in (ns, ew) if p)} of the castle"


def place_words(slot: int) -> str:
    """A face-up resource card by its place: ``the left row's 2nd card`` ("Purchasing": the
    left-hand cards cost 1, 1 and 2, the right-hand ones 3, 3 and 4; places 0-5 in the
    action's text)."""
    row, k = divmod(slot, ROW)
    return f"the {'left' if row == 0 else 'right'} row's {ordinal(k + 1)} card"


def resource_words(comps: Components, counts: Iterable[int]) -> list[str]:
    """Each resource counted: ``["wood", "wood", "iron"]``."""
    return [comps.resources[r] for r, k in enumerate(counts) for _ in range(k)]


def tile_words(value: int) -> str:
    """``a park``, ``a residential quarter``, ``an ...``."""
    name = BUILDING_NAMES[value]
    return f"{'an' if name[0] in 'aeiou' else 'a'} {name}"


def values_words(values: Iterable[int]) -> str:
    """What a payment lets one build: ``any building`` (all five values), else the buildings
    by name, quarters said once: ``a park, residential or business quarter``."""
    vals = sorted(set(values))
    if not vals:
        return "nothing"
    if tuple(vals) == VALUES:
        return "any building"
    names = [BUILDING_NAMES[v] for v in vals]
    quarters = [n.removesuffix(" quarter") for n in names if n.endswith(" quarter")]
    article = tile_words(vals[0]).split(" ")[0]
    if len(quarters) < 2:
        return f"{article} {listed(names, 'or')}"
    # "a park, residential or business quarter": the shared word said once; then ", or a
    # workplace" (values come in order: park, the quarters, workplace, special building).
    head = [n for n in names if n == BUILDING_NAMES[1]]
    tail = [tile_words(v) for v in vals if v > 3]
    text = f"{article} {', '.join([*head, ' or '.join(quarters) + ' quarter'])}"
    return f"{text}, or {listed(tail, 'or')}" if tail else text


# ---------------------------------------------------------------------------- the components

#: What each requirement-card Type means ("Building": "Requirement cards fall into 3 basic
#: types" and what each lets one build).
TYPE_WORDS: Final = {
    1: "4 resources, 2 of them alike: the whole card builds any building, a pair of the "
    "alike ones a park or residential quarter",
    2: "4 different resources: only the whole card pays, for any building",
    3: "3 resources: the whole card builds a park, residential or business quarter, a pair "
    "of alike ones a park or residential quarter",
}
ROMAN: Final = {1: "I", 2: "II", 3: "III"}


def reward_words(comps: Components, card: RequirementCard) -> str:
    """A requirement card's reward ("Building": the icons at the top of the card): an icon
    kept for the collection, or money or a resource of one's choice at once."""
    if card.icon >= 0:
        return f"a {comps.icons[card.icon].replace('_', ' ')} icon for the collection"
    if card.coins:
        return counted(card.coins, "money", "money")
    if card.liza:
        return "a resource of your choice (Liza)"
    return ""


def card_words(comps: Components, card: RequirementCard, rules: bool = True) -> str:
    """A requirement card: ``Type I card (wood, wood, iron, tools; reward: 1 money)`` and,
    with ``rules``, what its Type lets one build."""
    needs = ", ".join(resource_words(comps, card.needs))
    reward = reward_words(comps, card)
    text = f"Type {ROMAN[card.type]} card ({needs}"
    text += f"; reward: {reward})" if reward else ")"
    return f"{text}: {TYPE_WORDS[card.type]}" if rules else text


def column_words(col: BoardColumn, whose: str = "your") -> str:
    """A player-board column's reward ("Building": 1 money and 1 chosen resource; 2 money;
    1 money and 2 victory points)."""
    parts = [counted(col.money, "money", "money")] if col.money else []
    if col.jokers:
        parts.append(counted(col.jokers, "resource") + f" of {whose} choice")
    if col.points:
        parts.append(f"{col.points} points at the end")
    return " and ".join(parts) or "nothing"


def houses_words(s: MonopolisState, houses: Sequence[int]) -> str:
    """The houses a build placed (numbered from 1, as on the board) and the rewards they
    uncovered: ``their 4th and 5th houses (board column 2: 2 money each)``."""
    comps = s.comps
    cols = [comps.columns.index(comps.house_column(s.n, h - 1)) for h in houses]
    noun = "house" if len(houses) == 1 else "houses"
    head = f"their {listed([ordinal(h) for h in houses])} {noun}"
    if len(set(cols)) == 1:
        each = " each" if len(houses) > 1 else ""
        reward = column_words(comps.columns[cols[0]], "their")
        return f"{head} (board column {cols[0] + 1}: {reward}{each})"
    rewards = "; ".join(f"column {c + 1}: {column_words(comps.columns[c], 'their')}" for c in cols)
    return f"{head} (board {rewards})"


# ---------------------------------------------------------------------------- events

# Why a game ended, in words ("End of the Game": "The game ends in the round in which one player
# uses their last house. That round is still played to its end").
_END_WORDS = {
    "last_house": "a player used their last house and the round was played out",
    "stalled": "nobody can build any more",
    "turn_cap": "the turn cap",
}


def describe_event(s: MonopolisState, event: Event) -> str:
    """An event in plain English."""
    d = event.data
    kind = event.kind
    comps = s.comps
    who = f"Player {d['seat'] + 1}" if "seat" in d else "A player"
    if kind == "first_player":
        return f"{who} starts and takes the start player marker."
    if kind == "buy":
        gains = resource_words(comps, d["gains"])
        if d["liza"]:
            gains.append("a joker" if d["liza"] == 1 else counted(d["liza"], "joker"))
        if d["coins"]:
            gains.append(counted(d["coins"], "money", "money"))
        what = listed(gains) or "nothing"
        return f"{who} buys {place_words(d['slot'])} for {d['price']} money: {what}."
    if kind == "refill":
        side = "left" if d["row"] == 0 else "right"
        return f"A new card is laid in the most expensive place of the {side} row."
    if kind == "reshuffle":
        return f"The {comps.decks[d['deck']]} discards are shuffled into a new deck."
    if kind == "build":
        how = (
            f"the whole card ({', '.join(resource_words(comps, d['paid']))}"
            + (f" and {counted(d['jokers_used'], 'joker')})" if d["jokers_used"] else ")")
            if d["mode"] == FULL
            else f"two {comps.resources[d['mode']]}"
        )
        text = (
            f"{who} pays {how} and builds {tile_words(d['value'])} "
            f"({counted(d['value'], 'point')}) on the plot {plot_words(d['plot'])} with "
            f"{houses_words(s, d['houses'])}"
        )
        gains = [counted(d["money"], "money", "money")] if d["money"] else []
        if d["jokers"]:
            gains.append(counted(d["jokers"], "resource") + " of their choice")
        if gains:
            text += f"; gains {listed(gains)}"
        if d["cubes"]:
            k = len(d["cubes"])
            text += (
                f"; a cube (1 point) on each of {counted(k, 'neighbour')} and "
                f"{counted(k, 'cube')} on the new tile"
            )
        if d["last_house"]:
            text += "; that was their last house: this is the final round"
        return text + "."
    if kind == "joker":
        if d["resource"] < 0:
            return (
                f"{who} puts a joker on the joker track (it pays for any one resource at a "
                "later build)."
            )
        return f"{who} takes the joker as {comps.resources[d['resource']]}."
    if kind == "pass":
        return f"{who} cannot take an action and receives 1 money instead."
    if kind == "deal":
        card = card_words(comps, comps.card(d["card"]), rules=False)
        return f"A {card} is dealt {plot_words(d['plot'])}."
    if kind == "turn_end":
        return f"{who} ends turn {d['turn']}."
    if kind == "game_end":
        totals = ", ".join(f"Player {i + 1}: {sh['total']}" for i, sh in enumerate(d["sheets"]))
        wins = " and ".join(f"Player {w + 1}" for w in d["winners"])
        why = _END_WORDS.get(d["reason"], d["reason"].replace("_", " "))
        return f"The game ends ({why}). Points: {totals}. Winner: {wins}."
    return f"{kind}: {d}"


# ---------------------------------------------------------------------------- actions


def build_options(s: MonopolisState, seat: int, plot: int) -> list[tuple[int, list[int]]]:
    """What ``seat`` can pay for the card on ``plot`` and what each payment lets them lay:
    ``[(FULL, [1, 2, 3, 4, 6]), (wood, [1, 2])]`` (``building.pay_modes``, ``tile_values``)."""
    return [(m, building.tile_values(s, seat, plot, m)) for m in building.pay_modes(s, seat, plot)]


def payment_words(comps: Components, card: RequirementCard, mode: int) -> str:
    """``the whole card (wood, wood, iron)`` or ``two wood``."""
    if mode == FULL:
        return f"the whole card ({', '.join(resource_words(comps, card.needs))})"
    return f"two {comps.resources[mode]}"


def describe_action(s: MonopolisState, action: Action) -> str:
    """An action in plain English for the current position."""
    comps = s.comps
    kind, args = action.kind, action.args
    seat = s.turn_player
    arg = args[0] if args else -1
    if kind == BUY and 0 <= arg < SLOTS:
        cid = market.slot_card(s, arg)
        if cid < 0:
            return f"buy from {place_words(arg)}: the place is empty"
        c = comps.resource_card(cid)
        what = resource_words(comps, c.gains)
        if c.liza:
            what.append("a joker")
        if c.coins:
            what.append(f"{c.coins} money back")
        price = market.slot_price(s, arg)
        return f"buy {listed(what) or 'nothing'} for {price} money ({place_words(arg)})"
    if kind == BUILD_AT and 0 <= arg < PLOTS and s.card_at[arg] != EMPTY:
        card = comps.card(s.card_at[arg])
        options = build_options(s, seat, arg)
        head = f"build {plot_words(arg)}"
        if not options:
            return f"{head}: {card_words(comps, card)}"
        pays = [f"{payment_words(comps, card, m)} for {values_words(v)}" for m, v in options]
        return f"{head}: pay {listed(pays, 'or')}"
    if kind == PASS_ACTION:
        return "take 1 money: no action is possible"
    plot = s.pend_plot
    pending = plot >= 0 and s.card_at[plot] != EMPTY
    if kind == PAY_FULL:
        if not pending:
            return "pay the whole requirement card"
        card = comps.card(s.card_at[plot])
        then = values_words(building.tile_values(s, seat, plot, FULL))
        return f"pay {payment_words(comps, card, FULL)}, then lay {then}"
    if kind == PAY_PAIR and 0 <= arg < len(comps.resources):
        then = values_words(PAIR_VALUES)
        if pending:
            then = values_words(building.tile_values(s, seat, plot, arg))
        return f"pay two {comps.resources[arg]}, then lay {then}"
    if kind == TILE and arg in KIND_OF_VALUE:
        houses = counted(building.houses_needed(arg), "house")
        text = f"lay {tile_words(arg)} ({counted(arg, 'point')}, {houses}"
        deck = s.tile_decks[building.VALUE_INDEX[arg]] if arg in VALUES else []
        if deck:
            icons = [comps.icons[i].replace("_", " ") for i in comps.tiles[deck[-1]].icons]
            if icons:
                text += f"; {'icon' if len(icons) == 1 else 'icons'} {listed(icons)}"
        return text + ")"
    if kind == JOKER and 0 <= arg < len(comps.resources):
        return f"take the joker as {comps.resources[arg]}"
    if kind == JOKER_HOLD:
        return (
            f"hold the joker on the joker track for a later build ({s.jokers[seat]} of "
            f"{JOKER_TRACK} held now)"
        )
    return str(action)
