"""The RL environments' observation vector: the game family's (``GameFamily.observer``).

The base class and each family's observer live with the family (:mod:`meeple.kernel.encoding`,
``meeple.games.<family>.observation``); docs/RL.md prints their layouts.
"""

from __future__ import annotations

from meeple.kernel.encoding import OBS_BOUND, Observer, Vector
from meeple.kernel.family import family_of_state
from meeple.kernel.protocol import GameState

__all__ = ["OBS_BOUND", "Observer", "Vector", "observer_for"]


def observer_for(state: GameState) -> Observer:
    """The observer of ``state``'s game."""
    return family_of_state(state).observer(state)
