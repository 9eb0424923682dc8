"""The Monopoly family: one rules kernel for every edition; editions are data files."""

from typing import Any

from meeple.games.monopoly.edition import builtin_edition, builtin_edition_ids
from meeple.games.monopoly.state import MonopolyState, new_monopoly
from meeple.games.registry import GameInfo, register_game
from meeple.kernel.protocol import GameState

__all__ = ["MonopolyState", "new_monopoly"]


def _register() -> None:
    for eid in builtin_edition_ids():
        ed = builtin_edition(eid)

        def factory(players: int, seed: int, options: dict[str, Any], _eid: str = eid) -> GameState:
            return new_monopoly(_eid, players, seed, options)

        register_game(
            GameInfo(eid, "monopoly", ed.name, ed.rules.min_players, ed.rules.max_players, factory)
        )


_register()
