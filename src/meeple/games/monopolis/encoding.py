"""The fixed action table of Monopolis for RL: one index per action of
:func:`meeple.games.monopolis.actions.action_space` (docs/RL.md prints it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.kernel.encoding import ActionEncoding
from meeple.kernel.protocol import Action, GameState

if TYPE_CHECKING:
    from meeple.games.monopolis.state import MonopolisState


class MonopolisEncoding(ActionEncoding):
    """The action table of Monopolis: :func:`meeple.games.monopolis.actions.action_space`."""

    def __init__(self, resources: int) -> None:
        from meeple.games.monopolis.actions import action_space

        self.actions = action_space(resources)
        self.labels = tuple(str(a) for a in self.actions)
        self._index = {a: i for i, a in enumerate(self.actions)}

    @classmethod
    def for_state(cls, state: MonopolisState) -> MonopolisEncoding:
        """The table for ``state``'s components (the number of resources)."""
        return cls(len(state.comps.resources))

    def encode(self, state: GameState, action: Action) -> int:
        try:
            return self._index[action]
        except KeyError:
            raise ValueError(f"{action} has no index in this encoding") from None

    def decode(self, state: GameState, index: int) -> Action:
        self.check_index(index)
        return self.actions[index]
