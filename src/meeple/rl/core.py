"""What both environments share: spaces, rewards, seeding and the turn cap.

Rewards (docs/RL.md, "Rewards"):

* ``"win"`` (the default): paid when the game ends for a seat. The sole winner gets +1, every
  other seat -1. Seats sharing first place (a tie the game's own tie-break leaves) get 0 each,
  the rest -1. A Monopoly seat that goes bankrupt gets its -1 at once (it is out of the game).
  A game stopped by the turn cap (the environment's ``max_turns``, or the game's own
  ``turn_cap`` end) is a truncation: 0 for every seat.
* ``"shaped"``: the ``"win"`` reward plus, after every action, the change in each seat's share
  of the table's worth (Monopoly: net worth, ``rules/money.py`` ``net_worth``; Monopolis: the
  points the seat would score now, ``scoring.score_sheets``). The shaping terms of an episode
  add up to (final share - 1 / players), so they never outweigh a win.

Seeding: ``reset(seed=s)`` starts episode 0 of base seed ``s``; each later ``reset()`` without
a seed starts the next episode. Episode ``k`` plays the game from ``derive_seed(s, k)``, seat
``j``'s bot from ``derive_seed(s, k, 1 + j)`` and draws the learner's seat (when not fixed)
from ``derive_seed(s, k, 0)`` (``meeple.kernel.rng.derive_seed``, as the simulator does).
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from gymnasium import spaces

from meeple.kernel.family import family_of_state, game_family, new_game
from meeple.kernel.protocol import GameState
from meeple.kernel.rng import derive_seed
from meeple.rl.encoding import ActionEncoding, Mask, encoding_for
from meeple.rl.observation import OBS_BOUND, Observer, Vector, observer_for

RewardMode = Literal["win", "shaped"]
IllegalMode = Literal["penalty", "raise"]
#: The reward of an action outside the mask when ``illegal_action="penalty"``.
ILLEGAL_REWARD = -0.1
DEFAULT_MAX_TURNS = 1000


class Table:
    """One game id with its fixed action encoding, observer and spaces."""

    def __init__(self, game: str, players: int, options: dict[str, Any] | None) -> None:
        self.game = game
        self.players = players
        self.options = dict(options or {})
        self.family = game_family(game, self.options)
        probe = new_game(game, players, 0, self.options)
        self.encoding: ActionEncoding = encoding_for(probe)
        self.observer: Observer = observer_for(probe)
        self.action_space = spaces.Discrete(self.encoding.size)
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    -OBS_BOUND, OBS_BOUND, (self.observer.size,), dtype=np.float32
                ),
                "action_mask": spaces.Box(0, 1, (self.encoding.size,), dtype=np.int8),
            }
        )

    def new(self, seed: int) -> GameState:
        """A new game from ``seed``, without events (faster)."""
        s = new_game(self.game, self.players, seed, self.options)
        s.record_events = False
        return s

    def mask(self, state: GameState, seat: int) -> Mask:
        """The legal mask for ``seat``: all zeros unless it is that seat's decision."""
        if state.is_terminal() or state.current_player() != seat:
            return np.zeros(self.encoding.size, dtype=np.int8)
        return self.encoding.mask(state)

    def obs(self, state: GameState, seat: int) -> dict[str, Any]:
        """The Dict observation of ``seat``."""
        vec: Vector = self.observer.observe(state, seat)
        return {"observation": vec, "action_mask": self.mask(state, seat)}


def check_modes(reward: str, illegal_action: str, render_mode: str | None) -> None:
    """``ValueError`` naming the argument when a mode is not one the environments know."""
    if reward not in ("win", "shaped"):
        raise ValueError(f"reward must be 'win' or 'shaped', not {reward!r}")
    if illegal_action not in ("penalty", "raise"):
        raise ValueError(f"illegal_action must be 'penalty' or 'raise', not {illegal_action!r}")
    if render_mode not in (None, "ansi"):
        raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")


def episode_seed(base: int, episode: int, *salt: int) -> int:
    """The seed of episode ``episode`` of base seed ``base`` (and of one of its bots)."""
    return derive_seed(base, episode, *salt)


def turns_played(state: GameState) -> int:
    """Player-turns completed so far (``GameFamily.turns_played``)."""
    return family_of_state(state).turns_played(state)


def alive(state: GameState, seat: int) -> bool:
    """Whether ``seat`` is still in the game (``GameFamily.alive``)."""
    return family_of_state(state).alive(state, seat)


def worth(state: GameState) -> list[float]:
    """Each seat's worth for shaping (``GameFamily.worth``: Monopoly net worth, Monopolis
    points now)."""
    return family_of_state(state).worth(state)


def shares(state: GameState) -> list[float]:
    """Each seat's share of the table's worth (1 / players each when nobody has any)."""
    w = [max(0.0, x) for x in worth(state)]
    total = sum(w)
    n = state.num_players
    if total <= 0:
        return [1.0 / n] * n
    return [x / total for x in w]


def capped(state: GameState, max_turns: int) -> bool:
    """Whether the game stopped (or must stop) at a turn cap: a truncation, not an end."""
    if state.is_terminal():
        r = state.result()
        return r is not None and r.end_reason == "turn_cap"
    return max_turns > 0 and turns_played(state) >= max_turns


def outcome(state: GameState) -> list[float]:
    """The ``"win"`` reward of each seat once the game is over (see the module docstring)."""
    r = state.result()
    n = state.num_players
    if r is None or r.end_reason == "turn_cap":
        return [0.0] * n
    if len(r.winners) == 1:
        return [1.0 if p == r.winners[0] else -1.0 for p in range(n)]
    return [0.0 if p in r.winners else -1.0 for p in range(n)]


def table_text(state: GameState, seat: int | None) -> str:
    """The table as text for ``render_mode="ansi"``: the terminal game's board and panel."""
    return family_of_state(state).table(state, seat).plain
