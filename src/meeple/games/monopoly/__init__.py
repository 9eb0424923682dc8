"""The Monopoly family: one rules kernel for every edition; editions are data files.

The family plugin the drivers use is :data:`meeple.games.monopoly.family.FAMILY`. The names
below load the engine when first used (PEP 562), so importing the family to list its games
(``meeple editions``) does not. They are found by name (:func:`importlib.import_module`): the
package is the top of its own layers, a front door for drivers and tests, and none of its modules
reads a name from it, so nothing below imports back up through it.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from meeple.games.monopoly.state import MonopolyState, new_monopoly

__all__ = ["MonopolyState", "new_monopoly"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        return getattr(import_module(f"{__name__}.state"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
