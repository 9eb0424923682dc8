"""Monopolis, a tile-laying city builder, on the kernel protocol (game id ``monopolis``).

The folder reads like the rulebook (``shared/rules/monopolis-rules.txt``): :mod:`.components`
(Components, with ``components.toml``), :mod:`.state` (Setup, The Course of the Game, End of
the Game), :mod:`.market` (Purchasing), :mod:`.building` (Building, The Benefits of Individual
Buildings), :mod:`.city` (The Borders of the City), :mod:`.scoring` (final scoring),
:mod:`.actions` (the action chains), :mod:`.render` (the city as text) and :mod:`.bot`.
See ``docs/MONOPOLIS.md`` for the rule-by-rule trace.
"""

from meeple.bots.base import register_bot
from meeple.games.monopolis.bot import MonopolisStandardBot, monopolis_bot
from meeple.games.monopolis.render import render_city
from meeple.games.monopolis.state import MonopolisState, new_monopolis
from meeple.games.registry import GameInfo, register_game

register_game(GameInfo("monopolis", "monopolis", "Monopolis", 2, 4, new_monopolis))
register_bot("standard", lambda seed, _: MonopolisStandardBot(seed), family="monopolis")

__all__ = [
    "MonopolisStandardBot",
    "MonopolisState",
    "monopolis_bot",
    "new_monopolis",
    "render_city",
]
