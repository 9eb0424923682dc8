"""Monopolis, a tile-laying city builder, on the kernel protocol (game id ``monopolis``).

The folder reads like the rulebook (``shared/rules/monopolis-rules.txt``): :mod:`.components`
(Components, with ``components.toml``), :mod:`.state` (Setup, The Course of the Game, End of
the Game), :mod:`.market` (Purchasing), :mod:`.building` (Building, The Benefits of Individual
Buildings), :mod:`.city` (The Borders of the City), :mod:`.scoring` (final scoring),
:mod:`.actions` (the action chains), :mod:`.render` (the city as text), :mod:`.bots` and
:mod:`.family` (the plugin the drivers use).
See ``docs/MONOPOLIS.md`` for the rule-by-rule trace. The names below load the engine when
first used (PEP 562), so importing the family to list its games does not.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from meeple.games.monopolis.bots import MonopolisStandardBot
    from meeple.games.monopolis.render import render_city
    from meeple.games.monopolis.state import MonopolisState, new_monopolis

__all__ = [
    "MonopolisStandardBot",
    "MonopolisState",
    "new_monopolis",
    "render_city",
]
_HOME = {
    "MonopolisStandardBot": "bots",
    "MonopolisState": "state",
    "new_monopolis": "state",
    "render_city": "render",
}


def __getattr__(name: str) -> Any:
    if name in _HOME:
        return getattr(import_module(f"{__name__}.{_HOME[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
