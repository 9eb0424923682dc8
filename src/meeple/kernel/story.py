"""What a replay's story is made of: the moments worth a look, as plain data.

A game family's ``GameFamily.story`` builds a series of each seat's standing and a list of
moments from replaying a game (``meeple.server.history`` serves it); these helpers keep the
moments of every family in one shape.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def moment(
    sid: int,
    turn: int,
    kind: str,
    title: str,
    text: str,
    seats: Sequence[int],
    amount: int | None = None,
) -> dict[str, Any]:
    return {
        "state_id": sid,
        "turn": turn,
        "kind": kind,
        "title": title,
        "text": text,
        "seats": list(seats),
        "amount": amount,
    }


def wins_text(winners: Sequence[int]) -> str:
    """The end of a sentence naming the winners (" Player 1 wins."); empty without one."""
    if not winners:
        return ""
    names = " and ".join(f"Player {w + 1}" for w in winners)
    return f" {names} {'win' if len(winners) > 1 else 'wins'}."
