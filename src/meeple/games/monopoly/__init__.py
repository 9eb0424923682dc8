"""The Monopoly family: one rules kernel for every edition; editions are data files.

The family plugin the drivers use is :data:`meeple.games.monopoly.family.FAMILY`. The names
below load the engine when first used (PEP 562), so importing the family to list its games
(``meeple editions``) does not.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from meeple.games.monopoly.state import MonopolyState, new_monopoly

__all__ = ["MonopolyState", "new_monopoly"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from meeple.games.monopoly import state

        return getattr(state, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
