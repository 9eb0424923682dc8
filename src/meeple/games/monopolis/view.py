"""What a seat sees of a Monopolis game: the city, the market, the tile supply and every
seat's board; and the components on them (requirement cards, resource cards, building tiles)
as data.

Views are what the web page, the terminal and API clients read, so they hold nothing a seat
may not know (docs/KERNEL.md: "never deck order or the random state"). In Monopolis that is
the order of the face-down resource decks and of the requirement-card bag (only their sizes
are shown) and the random state; the building tiles lie face up, so each stack's top tile is
shown (monopolis-rules.txt, "Setup (ELŐKÉSZÜLETEK)"). Like ``games/monopoly/view.py``.

Beside the data, the view carries the words the page shows (issue 38): where each plot lies
(``where``: "2 north, 1 east of the castle"), what each requirement card is and what its Type
lets one build (``about``), and, in an action phase, what the player whose turn it is could
build on each card (``builds``): the same words the terminal reads (``describe.py``).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from meeple.games.monopolis import describe, market
from meeple.games.monopolis.actions import ACTION, PHASE_NAMES, TILE_CHOICE
from meeple.games.monopolis.building import FULL
from meeple.games.monopolis.city import EMPTY, PLOTS, offset_of
from meeple.games.monopolis.components import BUILDING_NAMES, VALUES
from meeple.games.monopolis.describe import ROMAN, card_words, plot_words, resource_words
from meeple.games.monopolis.market import SLOTS

if TYPE_CHECKING:
    from meeple.games.monopolis.state import MonopolisState


def card_view(s: MonopolisState, card_id: int) -> dict[str, Any]:
    """A requirement card as public data."""
    comps = s.comps
    c = comps.card(card_id)
    return {
        "id": c.id,
        "type": ROMAN[c.type],
        "needs": resource_words(comps, c.needs),
        "icon": comps.icons[c.icon] if c.icon >= 0 else None,
        "coins": c.coins,
        "liza": c.liza,
    }


def _builds(s: MonopolisState, plot: int) -> dict[str, Any] | None:
    """What the player whose turn it is could build on the card on ``plot`` in an action
    phase (issue 38: build choices say what they build): each payment they can make with the
    tiles it allows, and all of them together; ``None`` when they cannot build there now."""
    if s.phase != ACTION:
        return None
    options = describe.build_options(s, s.turn_player, plot)
    if not options:
        return None
    card = s.comps.card(s.card_at[plot])
    allowed = sorted({v for _, values in options for v in values})
    return {
        "values": allowed,
        "words": describe.values_words(allowed),
        "options": [
            {
                "payment": describe.payment_words(s.comps, card, mode),
                "values": values,
                "words": describe.values_words(values),
            }
            for mode, values in options
        ],
    }


def resource_card_view(s: MonopolisState, card_id: int) -> dict[str, Any]:
    """A resource card as public data."""
    comps = s.comps
    c = comps.resource_card(card_id)
    return {
        "id": c.id,
        "deck": comps.decks[c.deck],
        "resources": [comps.resources[r] for r, k in enumerate(c.gains) for _ in range(k)],
        "liza": c.liza,
        "coins": c.coins,
    }


def tile_view(s: MonopolisState, tile_id: int) -> dict[str, Any]:
    """A building tile as public data."""
    t = s.comps.tiles[tile_id]
    return {
        "id": t.id,
        "kind": t.kind,
        "value": t.value,
        "icons": [s.comps.icons[i] for i in t.icons],
    }


def view(s: MonopolisState, seat: int | None) -> dict[str, Any]:
    """The state as ``seat`` may see it (``MonopolisState.view``): everything public, the
    same for every seat but its ``seat``."""
    comps = s.comps
    result = s.result()
    return {
        "game": s.game_id,
        "seat": seat,
        "players": s.n,
        "current_player": s.current_player(),
        "turn_player": s.turn_player,
        "phase": PHASE_NAMES[s.phase],
        "actions_done": s.actions_done,
        "pending": {
            "plot": s.pend_plot,
            "payment": None
            if s.phase != TILE_CHOICE
            else ("full" if s.pend_mode == FULL else comps.resources[s.pend_mode]),
            "jokers": s.pend_jokers,
        },
        "final_round": s.final_round,
        "turns": s.turns,
        "city": city_view(s),
        "requirement_cards": requirement_cards_view(s),
        "market": market_view(s),
        "tile_supply": supply_view(s),
        "bag": len(s.bag),
        "resource_decks": [len(d) for d in s.res_decks],
        "discards": [len(d) for d in s.discards],
        "seats": seats_view(s),
        "result": result.to_dict() if result else None,
        "components": {"file": Path(comps.source).name, "assumed": list(comps.assumed)},
    }


def city_view(s: MonopolisState) -> list[dict[str, Any]]:
    """The tiles built, plot by plot, each with where it stands, its owner, houses and cubes."""
    city = []
    for plot in range(PLOTS):
        if s.tile_at[plot] != EMPTY:
            x, y = offset_of(plot)
            entry = tile_view(s, s.tile_at[plot])
            entry.update(
                plot=plot,
                x=x,
                y=y,
                where=plot_words(plot),
                name=BUILDING_NAMES[s.value_at[plot]],
                owner=s.owner_at[plot],
                houses=s.houses_at[plot],
                cubes=s.cubes[plot],
            )
            city.append(entry)
    return city


def requirement_cards_view(s: MonopolisState) -> list[dict[str, Any]]:
    """The requirement cards lying on plots, each with what the player whose turn it is could
    build on it now (:func:`_builds`)."""
    cards = []
    for plot in range(PLOTS):
        if s.card_at[plot] != EMPTY:
            x, y = offset_of(plot)
            cards.append(
                {
                    "plot": plot,
                    "x": x,
                    "y": y,
                    "where": plot_words(plot),
                    # The card and its reward in words (what its Type lets one build is in
                    # /board's `types`, said once).
                    "about": card_words(s.comps, s.comps.card(s.card_at[plot]), rules=False),
                    "card": card_view(s, s.card_at[plot]),
                    "builds": _builds(s, plot),
                }
            )
    return cards


def market_view(s: MonopolisState) -> list[dict[str, Any]]:
    """The market's slots, each with its price and its card (``None``: empty)."""
    out = []
    for slot in range(SLOTS):
        cid = market.slot_card(s, slot)
        out.append(
            {
                "slot": slot,
                "price": market.slot_price(s, slot),
                "card": resource_card_view(s, cid) if cid >= 0 else None,
            }
        )
    return out


def supply_view(s: MonopolisState) -> dict[str, Any]:
    """Each tile stack by value: how many tiles it holds and the one on top (face up)."""
    return {
        str(v): {
            "count": len(deck),
            "top": tile_view(s, deck[-1]) if deck else None,
        }
        for v, deck in zip(VALUES, s.tile_decks, strict=True)
    }


def seats_view(s: MonopolisState) -> list[dict[str, Any]]:
    """Each seat's money, resources, jokers, houses and cards in hand (all public)."""
    comps = s.comps
    players = []
    for p in range(s.n):
        players.append(
            {
                "seat": p,
                "money": s.money[p],
                "resources": dict(zip(comps.resources, s.res[p], strict=True)),
                "jokers": s.jokers[p],
                "houses_used": s.houses[p],
                "houses_left": s.capacity - s.houses[p],
                "cards": [card_view(s, c) for c in s.hand[p]],
            }
        )
    return players
