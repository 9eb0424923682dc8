"""Monopolis's printed components as the web page draws them (``GameFamily.board``):
resources, prices, decks and the player board's columns. Public and unchanging, so the server
sends it once (``GET /api/games/{id}/board``), not in every update."""

from __future__ import annotations

from typing import Any

from meeple.games.monopolis.components import BUILDING_NAMES, VALUES
from meeple.games.monopolis.describe import ROMAN, TYPE_WORDS
from meeple.games.monopolis.state import MonopolisState


def board_data(state: MonopolisState) -> dict[str, Any]:
    comps = state.comps
    n = state.n
    return {
        "family": "monopolis",
        "rules_summary": state.rules_summary(),
        "resources": list(comps.resources),
        "icons": list(comps.icons),
        "prices": [list(row) for row in comps.prices],
        "decks": list(comps.decks),
        "columns": [
            {"money": c.money, "jokers": c.jokers, "points": c.points} for c in comps.columns
        ],
        "spaces": comps.spaces[n],
        "rows": comps.rows[n],
        # The words of the legend under the city (issue 38): each building by its value, and
        # what each requirement-card Type lets one build.
        "buildings": {str(v): BUILDING_NAMES[v] for v in VALUES},
        "types": {ROMAN[t]: words for t, words in TYPE_WORDS.items()},
    }
