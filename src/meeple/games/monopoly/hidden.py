"""What a Monopoly seat cannot see, and how a search re-samples it (determinization).

On the table everything is open (cash, deeds, buildings, positions, who holds a Get Out of Jail
Free card) except two things: the order of the cards in each deck and the random stream that
will roll the dice. A search that read them would know the future (DESIGN.md, "Chance lives in
the state"), so every rollout of the ``mcts`` bot starts from a clone in which both are replaced
from the bot's own stream.

What the determinization forgets: a player who watched every card knows that drawn cards went to
the bottom of their deck in the order they were drawn; a bot sees the state only when it must
decide, without the events in between, so it treats each deck as freshly shuffled. The cards
*in* each deck are public (every card of the deck but the Get Out of Jail Free cards players
hold), so the multiset is kept and only the order is drawn anew.
"""

from __future__ import annotations

from meeple.games.monopoly.state import MonopolyState
from meeple.kernel.protocol import GameState
from meeple.kernel.rng import Rng


def determinize(state: GameState, seat: int, rng: Rng) -> None:
    """Re-sample, in place in the clone ``state``, the order of every deck and the random state
    (and drop dice a position scripted).

    Sorting each deck before shuffling makes the result depend on the deck's contents (public)
    and ``rng`` only, never on the real order; the random state is a fresh draw of ``rng``, so
    the search never sees the real future dice. ``seat`` sees the same as every other seat in
    Monopoly (nothing else is private), so it does not change what is re-sampled.
    """
    assert isinstance(state, MonopolyState)
    for deck in state.decks:
        deck.sort()
        rng.shuffle(deck)
    state.rng.state = rng.next64()
    state.dice_script = []  # dice a position scripted are as hidden as the random state
