"""The Monopoly family: one rules kernel for every edition; editions are data files."""

from typing import Any

from meeple.bots.base import register_bot
from meeple.bots.mcts import register_search
from meeple.games.monopoly.bots import StandardBot, param_bot
from meeple.games.monopoly.edition import builtin_edition, builtin_edition_ids, parse_edition
from meeple.games.monopoly.search import MonopolySearch
from meeple.games.monopoly.state import MonopolyState, new_monopoly
from meeple.games.registry import GameInfo, register_edition_factory, register_game
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


def _from_edition_data(players: int, seed: int, options: dict[str, Any]) -> GameState:
    """A game of an edition given as data in ``options["edition"]`` (``--edition-file``)."""
    ed = parse_edition(options["edition"], "options.edition")
    return new_monopoly(ed, players, seed, options)


_register()
register_edition_factory(_from_edition_data)
register_bot("standard", lambda seed, _: StandardBot(seed), family="monopoly")
register_bot("param", param_bot, family="monopoly")
register_search("monopoly", MonopolySearch())
