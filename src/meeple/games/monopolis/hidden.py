"""What a Monopolis seat cannot see, and how a search re-samples it (determinization).

Everything on the table is open: the city, the requirement cards around it, the six face-up
resource cards, every player board (money, resources, jokers, houses) and the requirement cards
each player took. Hidden are (``view.py`` shows only their sizes):

* the order of the two face-down resource decks ("Setup": "the helmet-backed resource card
  decks ... face down");
* the order of the requirement cards in the draw bag ("Shuffle the requirement cards thoroughly
  and put them into the draw bag"; new cards are drawn "from the bag at random");
* the building tiles under the top of each stack: the stacks lie face up ("arrange the shuffled
  building tile decks face up"), so each stack's top tile, and its icons, are seen;
* the random state, which would reshuffle a resource deck from its discards.

Their *contents* are public (every card not on the table, in a hand or in a discard pile; every
tile not in the city), so a determinization keeps each pile's cards and draws their order anew:
each pile is sorted first, so the result depends on its contents and the search's stream only,
never on the real order.
"""

from __future__ import annotations

from meeple.games.monopolis.state import MonopolisState
from meeple.kernel.protocol import GameState
from meeple.kernel.rng import Rng


def determinize(state: GameState, seat: int, rng: Rng) -> None:
    """Re-sample, in place in the clone ``state``, the order of the resource decks, the bag and
    every tile stack below its face-up top, and the random state.

    ``seat`` sees what every other seat sees (Monopolis has no private hand: the cards a player
    took lie open), so it does not change what is re-sampled.
    """
    assert isinstance(state, MonopolisState)
    for stack in state.tile_decks:
        if stack:
            top = stack.pop()  # face up: seen, so it stays where it is
            stack.sort()
            rng.shuffle(stack)
            stack.append(top)
    for pile in (*state.res_decks, state.bag):
        pile.sort()
        rng.shuffle(pile)
    state.rng.state = rng.next64()
