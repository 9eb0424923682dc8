"""A Monopolis position as data, set up again with checks (``meeple.kernel.position``).

The position is the state's snapshot (``MonopolisState.snapshot``) without what the position
file says itself (game, seats, seed, options) or what comes after it (the actions): money,
resources, jokers and houses per seat, the city plot by plot, the requirement cards, the
market, the decks and the bag (cards and tiles by their component ids), whose turn and which
step of it. Fields left out keep their value at the start of the game.
"""

from __future__ import annotations

from typing import Any

from meeple.games.monopolis.audit import audit
from meeple.games.monopolis.hidden import determinize
from meeple.games.monopolis.state import MonopolisState
from meeple.kernel.errors import PositionError, SaveFileError
from meeple.kernel.rng import Rng

_ENVELOPE = ("game", "version", "players", "seed", "options", "history")


def position_of(s: MonopolisState) -> dict[str, Any]:
    """``s``'s position: its snapshot without the file's own fields."""
    return {k: v for k, v in s.snapshot().items() if k not in _ENVELOPE}


def at_position(s: MonopolisState, data: dict[str, Any]) -> MonopolisState:
    """The game ``s`` (just started) at the position ``data``; :class:`PositionError` names
    malformed fields."""
    snap = s.snapshot()
    known = set(snap) - set(_ENVELOPE)
    unknown = sorted(set(data) - known)
    if unknown:
        raise PositionError(
            "position",
            [f"unknown field {k!r}" for k in unknown] + ["known: " + ", ".join(sorted(known))],
        )
    try:
        return MonopolisState.from_snapshot({**snap, **data})
    except SaveFileError as exc:
        raise PositionError("position", [f"{exc.field}: {exc.reason}"]) from None


def problems(s: MonopolisState) -> list[str]:
    """What the rules forbid in ``s``'s position, in words (empty: nothing): the invariants
    every position of a game keeps (:func:`~meeple.games.monopolis.audit.audit`)."""
    return audit(s)


def redraw(s: MonopolisState, seed: int) -> None:
    """A new future for the same table: what no seat can see drawn again from ``seed``, as a
    search's determinization draws it (:func:`~meeple.games.monopolis.hidden.determinize`):
    the resource decks, the bag and each tile stack *below its face-up top* (the top tile is
    on the table for everyone to see, so a new future keeps it), and the random stream."""
    determinize(s, 0, Rng(seed))
