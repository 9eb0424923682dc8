"""A toy game family in one file: what it takes to add a game to meeple (docs/KERNEL.md).

Nim: a pile of counters (10 to 20, drawn from the seed); players take turns removing 1, 2 or 3;
whoever takes the last counter wins. The state implements the kernel protocol
(:class:`~meeple.kernel.protocol.GameState`); the family (:class:`NimFamily`) registers the game
id ``nim`` and says how the terminal shows it. No driver changes: the simulator, the save files,
the terminal and the bot registry play it as soon as it is registered::

    from meeple.kernel.family import register_family, new_game
    register_family(NimFamily())
    game = new_game("nim", 2, seed=7)

A package registers its family for every meeple command through the ``meeple.families`` entry
point instead (see meeple's own ``pyproject.toml``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from meeple.kernel.errors import IllegalActionError
from meeple.kernel.family import GameFamily, GameInfo
from meeple.kernel.protocol import Action, Event, GameResult, GameState
from meeple.kernel.rng import Rng


class NimState(GameState):
    """A game of Nim: the pile, whose turn it is, and the actions so far."""

    family = "nim"

    def __init__(self, players: int, seed: int, options: dict[str, Any]) -> None:
        self._players, self._seed, self._options = players, seed, dict(options)
        self.pile = 10 + Rng(seed).below(11)  # the seed fixes the pile: 10 to 20 counters
        self.turn = 0
        self.winner = -1
        self._history: list[Action] = []

    game_id = property(lambda self: "nim")
    num_players = property(lambda self: self._players)
    seed = property(lambda self: self._seed)
    options = property(lambda self: dict(self._options))
    history = property(lambda self: list(self._history))

    def current_player(self) -> int:
        return -1 if self.winner >= 0 else self.turn

    def legal_actions(self) -> list[Action]:
        if self.winner >= 0:
            return []
        return [Action("take", (k,)) for k in (1, 2, 3) if k <= self.pile]

    def why_illegal(self, action: Action) -> str:
        if self.winner >= 0:
            return "the game is over"
        return f"take 1, 2 or 3 counters, at most the {self.pile} left"

    def apply(self, action: Action) -> Sequence[Event]:
        if action not in self.legal_actions():
            raise IllegalActionError(str(action), self.why_illegal(action))
        seat, k = self.turn, action.args[0]
        self.pile -= k
        self._history.append(action)
        if self.pile == 0:
            self.winner = seat
        else:
            self.turn = (seat + 1) % self._players
        if not self.record_events:
            return ()
        return [Event("take", {"seat": seat, "count": k, "left": self.pile})]

    def is_terminal(self) -> bool:
        return self.winner >= 0

    def result(self) -> GameResult | None:
        if self.winner < 0:
            return None
        others = [p for p in range(self._players) if p != self.winner]
        return GameResult([self.winner], [self.winner, *others], "last_counter", len(self._history))

    def view(self, seat: int | None) -> dict[str, Any]:
        return {"pile": self.pile, "turn": self.turn, "winner": self.winner}  # nothing is hidden

    def snapshot(self) -> dict[str, Any]:
        return self.view(None)

    def clone(self) -> NimState:
        c = NimState(self._players, self._seed, self._options)
        c.pile, c.turn, c.winner, c._history = self.pile, self.turn, self.winner, self.history
        c.record_events = self.record_events
        return c

    def describe(self, event: Event) -> str:
        d = event.data
        return f"Player {d['seat'] + 1} takes {d['count']}; {d['left']} left."

    def describe_action(self, action: Action) -> str:
        return f"take {action.args[0]}"

    def render(self) -> str:
        return "Pile: " + "|" * self.pile + f" ({self.pile})"


class NimFamily(GameFamily):
    """The family: its one game id, and the terminal's panel under the pile."""

    name = "nim"
    terminal_help = "Type take 1, take 2 or take 3 (or the number of a choice)."
    asking_note = "Nim has no rolls and no other players' turns: you are asked at every move."

    def games(self) -> Sequence[GameInfo]:
        return [GameInfo("nim", self.name, "Nim", 2, 4, NimState)]

    def panel_lines(
        self, state: GameState, seat: int | None, names: Sequence[str] | None
    ) -> list[str]:
        if state.is_terminal():
            return ["The game is over."]
        return [f"Player {state.current_player() + 1} to take 1, 2 or 3."]

    def turns_played(self, state: GameState) -> int:
        return len(state.history)
