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

The mask is never empty (docs/RL.md, "The no-op"): the action space is the game's encoding
plus one last index, the no-op, legal exactly when the observer has nothing to decide (its
episode is over; in the AEC environment also while another seat decides). A policy that samples
from the mask, as Gymnasium's vector environments make it do on the observation that ends an
episode (the action after it is ignored by autoreset), so always finds an action.
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
ObservationMode = Literal["flat", "structured"]
#: The reward of an action outside the mask when ``illegal_action="penalty"``.
ILLEGAL_REWARD = -0.1
DEFAULT_MAX_TURNS = 1000
#: Learner steps (legal or not) after which a Gymnasium episode is truncated. A masked policy
#: needs at most about 1,850 steps for a 4-player classic game within the 1,000 player-turn cap
#: (masked-random play, 20 seeds), so the cap only stops a policy that keeps missing the mask.
DEFAULT_MAX_STEPS = 5000


class Table:
    """One game id with its fixed action encoding, observer and spaces.

    ``observation``: ``"flat"`` (the family's vector) or ``"structured"`` (the same numbers cut
    into the family's tables, ``Observer.structured``: one row per square and per player).
    """

    def __init__(
        self,
        game: str,
        players: int,
        options: dict[str, Any] | None,
        observation: ObservationMode = "flat",
    ) -> None:
        self.game = game
        self.players = players
        self.options = dict(options or {})
        self.family = game_family(game, self.options)
        self.observation: ObservationMode = observation
        probe = new_game(game, players, 0, self.options)
        self.encoding: ActionEncoding = encoding_for(probe)
        self.observer: Observer = observer_for(probe)
        #: The no-op's index: the last, after the game's own table.
        self.noop = self.encoding.size
        self.size = self.encoding.size + 1
        self.action_space = spaces.Discrete(self.size)
        mask = spaces.Box(0, 1, (self.size,), dtype=np.int8)
        if observation == "structured":
            if not self.observer.tables:
                raise ValueError(f"{game} has no structured observation")
            boxes: dict[str, spaces.Space[Any]] = {
                name: spaces.Box(-OBS_BOUND, OBS_BOUND, shape, dtype=np.float32)
                for name, shape in self.observer.structured_shapes().items()
            }
        else:
            boxes = {
                "observation": spaces.Box(
                    -OBS_BOUND, OBS_BOUND, (self.observer.size,), dtype=np.float32
                )
            }
        self.observation_space = spaces.Dict({**boxes, "action_mask": mask})

    def new(self, seed: int) -> GameState:
        """A new game from ``seed``, without events (faster)."""
        s = new_game(self.game, self.players, seed, self.options)
        s.record_events = False
        return s

    def deciding(self, state: GameState, seat: int) -> bool:
        """Whether ``seat`` has a decision to make now."""
        return not state.is_terminal() and state.current_player() == seat

    def mask(self, state: GameState, seat: int) -> Mask:
        """The legal mask for ``seat``: the legal actions when it decides, else the no-op alone.

        Never all zeros, so sampling from it never fails (the module docstring)."""
        out = np.zeros(self.size, dtype=np.int8)
        if self.deciding(state, seat):
            out[: self.noop] = self.encoding.mask(state)
        else:
            out[self.noop] = 1
        return out

    def obs(self, state: GameState, seat: int, mask: Mask | None = None) -> dict[str, Any]:
        """The Dict observation of ``seat`` (flat or structured, with its mask: ``mask`` if
        the caller has it already, as the mask is the dearer half)."""
        vec: Vector = self.observer.observe(state, seat)
        if mask is None:
            mask = self.mask(state, seat)
        if self.observation == "structured":
            return {**self.observer.structured(vec), "action_mask": mask}
        return {"observation": vec, "action_mask": mask}


def check_modes(
    reward: str, illegal_action: str, render_mode: str | None, observation: str = "flat"
) -> None:
    """``ValueError`` naming the argument when a mode is not one the environments know."""
    if observation not in ("flat", "structured"):
        raise ValueError(f"observation must be 'flat' or 'structured', not {observation!r}")
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


#: ``info["end_reason"]`` of the episodes the environment stops (the game's own reasons, such as
#: ``"last_player_standing"`` or its own ``"turn_cap"``, pass through).
TRUNCATIONS = ("max_turns", "max_steps", "max_illegal", "turn_cap")


def standing(state: GameState, seat: int) -> int:
    """``seat``'s place now (1 = first): the game's ranking once it is over; before, by worth
    among the seats still in, a seat that is out behind every seat still in."""
    r = state.result()
    if r is not None:
        return 1 if seat in r.winners else r.ranking.index(seat) + 1
    n = state.num_players
    w = worth(state)
    still_in = [q for q in range(n) if alive(state, q)]
    if seat not in still_in:
        return len(still_in) + 1
    return 1 + sum(1 for q in still_in if w[q] > w[seat])


def episode_info(state: GameState, seat: int, end_reason: str | None = None) -> dict[str, Any]:
    """What ``info`` holds when ``seat``'s episode ends (docs/RL.md, "Info").

    ``end_reason``: the environment's own stop (``"max_turns"``, ``"max_steps"``,
    ``"max_illegal"``), or None for the game's end or the seat's elimination. Returns
    ``result`` (``"win"``, ``"draw"`` for a shared first place, ``"loss"``, or ``"truncated"``),
    ``rank`` (1 = first), ``end_reason`` and ``worth`` (each seat's net worth in Monopoly,
    its score in Monopolis, by seat number).
    """
    r = state.result()
    if end_reason is None:
        if r is not None:
            end_reason = r.end_reason
        elif not alive(state, seat):
            end_reason = "eliminated"
        else:
            raise ValueError("the episode has not ended")
    if end_reason in TRUNCATIONS:
        result = "truncated"
    elif r is None or seat not in r.winners:
        result = "loss"  # out of the game, or finished behind the winner
    else:
        result = "win" if len(r.winners) == 1 else "draw"
    return {
        "result": result,
        "rank": standing(state, seat),
        "end_reason": end_reason,
        "worth": worth(state),
    }
