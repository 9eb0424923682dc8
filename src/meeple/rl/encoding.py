"""The RL environments' action encoding: the game family's (``GameFamily.encoding``).

The base class and each family's table live with the family (:mod:`meeple.kernel.encoding`,
``meeple.games.<family>.encoding``); docs/RL.md prints them.
"""

from __future__ import annotations

from meeple.kernel.encoding import ActionEncoding, Mask
from meeple.kernel.family import family_of_state
from meeple.kernel.protocol import GameState

__all__ = ["ActionEncoding", "Mask", "encoding_for"]


def encoding_for(state: GameState) -> ActionEncoding:
    """The action table of ``state``'s game."""
    return family_of_state(state).encoding(state)
