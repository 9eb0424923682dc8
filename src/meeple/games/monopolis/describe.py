"""Events and actions in plain English, in the rulebook's words: purchases, builds, jokers,
new requirement cards, the end of a turn and of the game (monopolis-rules.txt, "Purchasing (A
VÁSÁRLÁS)", "Building (AZ ÉPÍTÉS)", "End of the Game (A JÁTÉK VÉGE)"); plots by where they lie
from the castle. Like ``games/monopoly/describe.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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
from meeple.games.monopolis.building import FULL
from meeple.games.monopolis.city import PLOTS, offset_of
from meeple.games.monopolis.components import BUILDING_NAMES, KIND_OF_VALUE
from meeple.games.monopolis.market import SLOTS
from meeple.games.monopolis.view import card_view, resource_card_view
from meeple.kernel.protocol import Action, Event

if TYPE_CHECKING:
    from meeple.games.monopolis.state import MonopolisState


def _res_words(s: MonopolisState, counts: list[int] | tuple[int, ...]) -> str:
    names = s.comps.resources
    parts = [f"{k} {names[r]}" for r, k in enumerate(counts) if k]
    return ", ".join(parts) if parts else "nothing"


def _plot_words(plot: int) -> str:
    x, y = offset_of(plot)
    if (x, y) == (0, 0):
        return "the castle"
    ns = f"{abs(y)} {'north' if y > 0 else 'south'}" if y else ""
    ew = f"{abs(x)} {'east' if x > 0 else 'west'}" if x else ""
    return f"plot {plot} ({', '.join(p for p in (ns, ew) if p)} of the castle)"


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
    who = f"Player {d['seat'] + 1}" if "seat" in d else "A player"
    if kind == "first_player":
        return f"{who} starts and takes the start player marker."
    if kind == "buy":
        gains = _res_words(s, d["gains"])
        extra = ""
        if d["liza"]:
            extra += f" and {d['liza']} joker"
        if d["coins"]:
            extra += f" and {d['coins']} money"
        return f"{who} buys the card in place {d['slot']} for {d['price']}: {gains}{extra}."
    if kind == "refill":
        side = "left" if d["row"] == 0 else "right"
        return f"A new card is laid in the most expensive place of the {side} row."
    if kind == "reshuffle":
        return f"The {s.comps.decks[d['deck']]} discards are shuffled into a new deck."
    if kind == "build":
        name = BUILDING_NAMES[d["value"]]
        how = "the full card" if d["mode"] == FULL else f"two {s.comps.resources[d['mode']]}"
        text = (
            f"{who} pays {how} and builds a {name} (worth {d['value']}) on "
            f"{_plot_words(d['plot'])}, placing house {', '.join(map(str, d['houses']))}"
            f"; gains {d['money']} money"
        )
        if d["jokers"]:
            text += f" and {d['jokers']} resource(s) of their choice"
        if d["cubes"]:
            text += f"; {len(d['cubes'])} neighbour(s) gain a cube each way"
        if d["last_house"]:
            text += "; that was their last house: this is the final round"
        return text + "."
    if kind == "joker":
        if d["resource"] < 0:
            return f"{who} puts a joker on the joker track."
        return f"{who} takes the joker as {s.comps.resources[d['resource']]}."
    if kind == "pass":
        return f"{who} cannot take an action and receives 1 money instead."
    if kind == "deal":
        c = card_view(s, d["card"])
        return (
            f"A Type {c['type']} requirement card ({', '.join(c['needs'])}) is dealt to "
            f"{_plot_words(d['plot'])}."
        )
    if kind == "turn_end":
        return f"{who} ends turn {d['turn']}."
    if kind == "game_end":
        totals = ", ".join(f"Player {i + 1}: {sh['total']}" for i, sh in enumerate(d["sheets"]))
        wins = " and ".join(f"Player {w + 1}" for w in d["winners"])
        why = _END_WORDS.get(d["reason"], d["reason"].replace("_", " "))
        return f"The game ends ({why}). Points: {totals}. Winner: {wins}."
    return f"{kind}: {d}"


def describe_action(s: MonopolisState, action: Action) -> str:
    """An action in plain English for the current position."""
    from meeple.games.monopolis.state import JOKER_TRACK  # the state imports this module

    kind, args = action.kind, action.args
    seat = s.turn_player
    if kind == BUY and args and 0 <= args[0] < SLOTS:
        cid = market.slot_card(s, args[0])
        if cid < 0:
            return f"buy from the empty place {args[0]}"
        c = resource_card_view(s, cid)
        what = ", ".join(c["resources"]) or "no resources"
        if c["liza"]:
            what += " + a joker"
        if c["coins"]:
            what += f" + {c['coins']} money"
        return f"buy {what} for {market.slot_price(s, args[0])} money"
    if kind == BUILD_AT and args and 0 <= args[0] < PLOTS and s.card_at[args[0]] >= 0:
        c = card_view(s, s.card_at[args[0]])
        return (
            f"build on {_plot_words(args[0])}, paying its Type {c['type']} card "
            f"({', '.join(c['needs'])})"
        )
    if kind == PASS_ACTION:
        return "take 1 money: no action is possible"
    if kind == PAY_FULL:
        return "pay the whole requirement card"
    if kind == PAY_PAIR and args and 0 <= args[0] < len(s.comps.resources):
        return f"pay two {s.comps.resources[args[0]]} (then a park or residential quarter)"
    if kind == TILE and args and args[0] in KIND_OF_VALUE:
        houses = building.houses_needed(args[0])
        return f"lay a {BUILDING_NAMES[args[0]]} worth {args[0]} ({houses} house(s))"
    if kind == JOKER and args and 0 <= args[0] < len(s.comps.resources):
        return f"take the joker as {s.comps.resources[args[0]]}"
    if kind == JOKER_HOLD:
        return f"hold the joker on the track ({s.jokers[seat]} of {JOKER_TRACK} held)"
    return str(action)
