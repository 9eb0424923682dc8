"""The kernel protocol shared by every game and every driver (see ``docs/KERNEL.md``)."""

from meeple.kernel.errors import (
    EditionError,
    IllegalActionError,
    MeepleError,
    SaveFileError,
    UnknownGameError,
)
from meeple.kernel.protocol import Action, Event, GameResult, GameState
from meeple.kernel.rng import Rng

__all__ = [
    "Action",
    "EditionError",
    "Event",
    "GameResult",
    "GameState",
    "IllegalActionError",
    "MeepleError",
    "Rng",
    "SaveFileError",
    "UnknownGameError",
]
