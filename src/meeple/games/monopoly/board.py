"""A Monopoly edition's printed components as the web page draws them (``GameFamily.board``):
squares, colour groups, prices, rents, names and decks. Public and unchanging, so the server
sends it once (``GET /api/games/{id}/board``), not in every update."""

from __future__ import annotations

from typing import Any

from meeple.games.monopoly.render import square_about
from meeple.games.monopoly.state import MonopolyState


def board_data(state: MonopolyState) -> dict[str, Any]:
    ed = state.ed
    model = ed.model
    group_index = {g.id: i for i, g in enumerate(model.groups)}
    kinds = ("street", "railroad", "utility")
    return {
        "family": "monopoly",
        # The edition's rules in words, from its rule options (the terminal's `info` too), so
        # a custom edition gets its own.
        "rules_summary": state.rules_summary(),
        "edition": ed.id,
        "name": ed.name,
        "currency": ed.currency,
        "names": model.names.model_dump(),
        "rules": ed.model.rules.model_dump(),
        "groups": [
            {"id": g.id, "name": g.name, "color": g.color, "kind": kinds[ed.groups[i].kind - 1]}
            for i, g in enumerate(model.groups)
        ],
        "squares": [
            {
                "index": i,
                "name": sq.name,
                "kind": sq.kind,
                "group": group_index.get(sq.group, -1) if sq.group is not None else -1,
                "price": sq.price,
                "mortgage": sq.mortgage,
                "unmortgage_cost": ed.unmortgage_cost[i] if sq.mortgage is not None else None,
                "rent": sq.rent,
                "house_cost": sq.house_cost,
                "amount": sq.amount,
                "deck": sq.deck,
                # What a square that is not a deed does, in words (the deed box says it).
                "about": None if ed.is_property[i] else square_about(ed, i),
            }
            for i, sq in enumerate(model.squares)
        ],
        "decks": [{"id": d.id, "name": d.name} for d in model.decks],
        # The deck each Get Out of Jail Free card (numbered as in `use_card J`) comes from.
        "jail_cards": [model.decks[d].name for d, _ in ed.jail_cards],
    }
