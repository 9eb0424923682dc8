"""The bot interface and the ``random`` bot: what a game family's bots subclass.

A bot owns its random stream (:class:`~meeple.kernel.rng.Rng`), separate from the game's, so
a bot's choices never change the dice, and a game with the same seed and the same bot seeds
plays out identically. Bots live in the kernel so a game family can ship its own (its
``GameFamily.bots``) without importing the drivers' bot layer (``meeple.bots``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from mypy_extensions import mypyc_attr

from meeple.kernel.protocol import Action, GameState
from meeple.kernel.rng import Rng


# Compiled with the engine (tools/compile.py) so the standard bots are native classes; bots that
# are not compiled (mcts, a toy family's) still subclass it.
@mypyc_attr(allow_interpreted_subclasses=True)
class Bot:
    """Base class: subclasses implement :meth:`choose`."""

    name = "bot"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, state: GameState) -> Action:
        """The action this bot takes for ``state.current_player()``."""
        raise NotImplementedError

    def explain(self, state: GameState, action: Action) -> str:
        """Why this bot chose ``action`` in ``state`` (the position it chose in), in a short
        sentence, or "" when it has nothing to say. Asked only when a person wants to know
        (the terminal's ``why``, the web page's bot reasons), never while choosing; asking
        changes none of the bot's later choices."""
        return ""


class RandomBot(Bot):
    """Uniform over the legal actions listed by the game: each of ``state.legal_actions()``
    with the same chance. The game draws it (:meth:`GameState.sample_legal`), so a family
    whose lists are long (a trade draft's steps, every deed to mortgage) finds the action
    drawn without making every other."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        # (An __init__ of its own, though it adds nothing: without one, the compiled class
        # took Bot's tp_init, which ran __init__ a second time after tp_new had run it, and
        # the first stream was overwritten without being freed: one Rng lost with every
        # random bot, 4 a game, about 220 bytes a game; tests/sim/test_runner.py.)
        super().__init__(seed)

    def choose(self, state: GameState) -> Action:
        return state.sample_legal(self.rng)


def play_out(state: GameState, bots: Sequence[Bot]) -> int:
    """Let ``bots`` (one per seat) play ``state`` to its end; returns the number of actions.
    The loop of every simulation, compiled with the engine (``tools/compile.py``)."""
    n = 0
    seats = list(bots)  # (a list: indexing a Sequence costs the compiled build a boxed int)
    # (current_player is -1 once the game is over, as the protocol says: one call an action,
    # not two with is_terminal)
    p = state.current_player()
    while p >= 0:
        state.apply(seats[p].choose(state))
        n += 1
        p = state.current_player()
    return n


BotFactory = Callable[[int, str], Bot]
"""``factory(seed, argument) -> Bot``; the argument is what follows ``kind:`` (``param:FILE``)."""
