"""The bot interface and the ``random`` bot.

A bot owns its random stream (:class:`~meeple.kernel.rng.Rng`), separate from the game's, so
a bot's choices never change the dice, and a game with the same seed and the same bot seeds
plays out identically.
"""

from __future__ import annotations

from collections.abc import Callable

from meeple.kernel.protocol import Action, GameState
from meeple.kernel.rng import Rng


class Bot:
    """Base class: subclasses implement :meth:`choose`."""

    name = "bot"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, state: GameState) -> Action:
        """The action this bot takes for ``state.current_player()``."""
        raise NotImplementedError


class RandomBot(Bot):
    """Uniform over the legal actions listed by the game."""

    name = "random"

    def choose(self, state: GameState) -> Action:
        legal = state.legal_actions()
        return legal[self.rng.below(len(legal))]


BotFactory = Callable[[str, int], Bot]
"""``factory(game_family, seed) -> Bot``."""

_BOTS: dict[str, BotFactory] = {"random": lambda family, seed: RandomBot(seed)}


def register_bot(kind: str, factory: BotFactory) -> None:
    """Make ``kind`` available to every driver (``--bots KIND``)."""
    _BOTS[kind] = factory


def bot_kinds() -> list[str]:
    """The registered bot kinds."""
    _load_builtin_bots()
    return sorted(_BOTS)


def make_bot(kind: str, family: str, seed: int) -> Bot:
    """A new bot of ``kind`` for a game of ``family``; ``ValueError`` names unknown kinds."""
    _load_builtin_bots()
    try:
        factory = _BOTS[kind]
    except KeyError:
        raise ValueError(f"unknown bot {kind!r}; known: {', '.join(sorted(_BOTS))}") from None
    return factory(family, seed)


def _load_builtin_bots() -> None:
    # Game packages register their own bots on import; importing the registry imports them.
    import meeple.games.registry  # noqa: F401
