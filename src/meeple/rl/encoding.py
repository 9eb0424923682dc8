"""The RL environments' action encoding: the game family's (``GameFamily.encoding``), plus the
no-op, and the public decoder between indices and actions.

The base class and each family's table live with the family (:mod:`meeple.kernel.encoding`,
``meeple.games.<family>.encoding``); docs/RL.md prints them. The environments' action space is
``Discrete(encoding.size + 1)``: the last index is the no-op (:mod:`meeple.rl.core`).

>>> from meeple.kernel.family import new_game
>>> g = new_game("classic", 4, 1)
>>> decode_action(g, 0)
(Action(kind='roll', args=()), 'Roll the dice')
>>> encode_action(g, "roll")
0
>>> decode_action(g, noop_index(g))[0] is None
True
"""

from __future__ import annotations

from meeple.kernel.encoding import ActionEncoding, Mask
from meeple.kernel.family import family_of_state
from meeple.kernel.protocol import Action, GameState

__all__ = [
    "ActionEncoding",
    "Mask",
    "decode_action",
    "encode_action",
    "encoding_for",
    "noop_index",
]

#: The text of the no-op (what :func:`decode_action` says for it).
NOOP_TEXT = "no action (nothing to decide: the episode is over)"


def encoding_for(state: GameState) -> ActionEncoding:
    """The action table of ``state``'s game."""
    return family_of_state(state).encoding(state)


def noop_index(state: GameState) -> int:
    """The no-op's index in ``state``'s game: the last of the environments' action space."""
    return encoding_for(state).size


def decode_action(state: GameState, index: int) -> tuple[Action | None, str]:
    """The action ``index`` stands for in ``state``'s current decision, and its text in plain
    words (``state.describe_action``; ``str(action)`` is the short form, ``"build 39"``).

    The no-op gives ``(None, NOOP_TEXT)``. An index of the game's table decodes whether or not
    it is legal now (the mask says which are); ``ValueError`` for an index outside the action
    space or one that stands for nothing here (a trade with a seat not at the table).
    """
    enc = encoding_for(state)
    if index == enc.size:
        return None, NOOP_TEXT
    enc.check_index(index)
    action = enc.decode(state, index)
    try:
        text = state.describe_action(action)
    except (ValueError, KeyError, IndexError):  # an illegal action may not be describable
        text = str(action)
    return action, text


def encode_action(state: GameState, action: Action | str | None) -> int:
    """The index of ``action`` (an :class:`Action` or its text form, ``"build 39"``) in
    ``state``'s current decision; ``None`` is the no-op. ``ValueError`` if it has no index."""
    enc = encoding_for(state)
    if action is None:
        return enc.size
    if isinstance(action, str):
        action = Action.parse(action)
    return enc.encode(state, action)
