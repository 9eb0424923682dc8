"""The seats still at the table, in turn order, and the end of the game.

The bottom of the rules (beside :mod:`.money` and :mod:`.holdings`): who plays next and the end
of the game are asked by rules on every layer (an auction's bidders, a card that pays each
player, a bankruptcy, the last deed sold), so they import nothing of the rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from meeple.games.monopoly.state import MonopolyState


def next_seat(s: MonopolyState, p: int) -> int:
    """The next seat to the left of ``p`` still in the game ("play passes to the left")."""
    n, alive = s.n, s.alive
    q = (p + 1) % n
    while not alive[q] and q != p:
        q = (q + 1) % n
    return q


def seats_from(s: MonopolyState, p: int) -> list[int]:
    """Seats still in the game in turn order, starting at ``p`` (if ``p`` is in)."""
    n, alive = s.n, s.alive
    return [(p + i) % n for i in range(n) if alive[(p + i) % n]]


def finish(s: MonopolyState, reason: str) -> None:
    """The game ends now, for ``reason``: no decision is left on the stack or in the turn."""
    s.over = True
    s.end_reason = reason
    s.stack.clear()
    s.window = []
    s.window_next = 0
    s.phase = s.OVER
    if s._events is not None:
        s.event("game_over", reason=reason)


def check_all_owned(s: MonopolyState) -> None:
    """My First Monopoly level 1: "The game ends when the last property has been purchased"."""
    if s.rules.end_condition == "all_properties_owned" and all(
        s.owner[sq] >= 0 for sq in s.ed.properties
    ):
        finish(s, "all_properties_sold")
