"""The Monopoly family: one rules kernel for every edition; editions are data files.

The family plugin the drivers use is :data:`meeple.games.monopoly.family.FAMILY`.
"""

from meeple.games.monopoly.state import MonopolyState, new_monopoly

__all__ = ["MonopolyState", "new_monopoly"]
