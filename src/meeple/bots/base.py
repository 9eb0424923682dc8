"""The bot interface, the ``random`` bot, and the registry of bot kinds per game family.

A bot owns its random stream (:class:`~meeple.kernel.rng.Rng`), separate from the game's, so
a bot's choices never change the dice, and a game with the same seed and the same bot seeds
plays out identically.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from mypy_extensions import mypyc_attr

from meeple.kernel.protocol import Action, GameState
from meeple.kernel.rng import Rng


# Compiled with the engine (tools/compile.py) so the standard bot is a native class; bots that
# are not compiled (mcts, Monopolis) still subclass it.
@mypyc_attr(allow_interpreted_subclasses=True)
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


def play_out(state: GameState, bots: Sequence[Bot]) -> int:
    """Let ``bots`` (one per seat) play ``state`` to its end; returns the number of actions.
    The loop of every simulation, compiled with the engine (``tools/compile.py``)."""
    n = 0
    while not state.is_terminal():
        state.apply(bots[state.current_player()].choose(state))
        n += 1
    return n


BotFactory = Callable[[int, str], Bot]
"""``factory(seed, argument) -> Bot``; the argument is what follows ``kind:`` (``param:FILE``)."""

ANY_FAMILY = "*"
_BOTS: dict[str, dict[str, BotFactory]] = {"random": {ANY_FAMILY: lambda seed, _: RandomBot(seed)}}


def register_bot(kind: str, factory: BotFactory, family: str = ANY_FAMILY) -> None:
    """Make bot ``kind`` available for games of ``family`` (or every family)."""
    _BOTS.setdefault(kind, {})[family] = factory


def bot_kinds(family: str | None = None) -> list[str]:
    """The bot kinds available for ``family`` (every kind when ``None``)."""
    _load_builtin_bots()
    return sorted(
        k for k, by in _BOTS.items() if family is None or ANY_FAMILY in by or family in by
    )


def make_bot(kind: str, family: str, seed: int) -> Bot:
    """A new bot of ``kind`` (``KIND`` or ``KIND:ARGUMENT``) for a game of ``family``.

    ``ValueError`` names an unknown kind or a bad argument.
    """
    _load_builtin_bots()
    base, _, argument = kind.partition(":")
    by = _BOTS.get(base, {})
    factory = by.get(family) or by.get(ANY_FAMILY)
    if factory is None:
        known = ", ".join(bot_kinds(family))
        raise ValueError(f"unknown bot {kind!r} for {family}; known: {known}")
    return factory(seed, argument)


def _load_builtin_bots() -> None:
    # Game packages register their own bots on import; importing the registry imports them.
    from meeple.games.registry import game_ids

    game_ids()
