"""A Gymnasium environment: one learner against opponents (issue "a standard environment for
training agents"; DESIGN.md, "AI builders ... a standard environment with action masks,
reproducible seeds and strong baseline bots").

The learner takes one seat; opponents (bots, policies or a league: :mod:`meeple.rl.selfplay`)
play every other seat and move between the learner's decisions. The action space is the game's
fixed ``Discrete`` encoding plus the no-op (:mod:`meeple.rl.encoding`, :mod:`meeple.rl.core`);
the observation is a ``Dict`` of the vector (or the structured tables) and the legal
``action_mask``, which is also in ``info["action_mask"]`` and returned by
:meth:`MeepleGymEnv.action_masks` (the sb3-contrib ``MaskablePPO`` convention). Rewards,
seeding and the caps: :mod:`meeple.rl.core`; ``info`` keys: docs/RL.md, "Info".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
import numpy.typing as npt

from meeple.kernel.bot import Bot
from meeple.kernel.family import game_info
from meeple.kernel.protocol import Action, GameState
from meeple.rl.core import (
    DEFAULT_MAX_STEPS,
    DEFAULT_MAX_TURNS,
    ILLEGAL_REWARD,
    IllegalMode,
    ObservationMode,
    RewardMode,
    Table,
    alive,
    capped,
    check_modes,
    episode_info,
    episode_seed,
    outcome,
    shares,
    table_text,
    turns_played,
)
from meeple.rl.encoding import decode_action, encode_action
from meeple.rl.selfplay import League, Opponent, check_opponent, new_episode, seat_bot


class MeepleGymEnv(gym.Env[dict[str, Any], np.int64]):
    """One learner against opponents in any meeple game. Build with :func:`meeple.rl.gym_env`
    or ``gymnasium.make("meeple/<game>-v0")``."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012 (gymnasium's way)

    def __init__(
        self,
        game: str = "classic",
        opponents: Opponent | Sequence[Opponent] = "random",
        players: int = 4,
        seat: int | None = None,
        reward: RewardMode = "win",
        max_turns: int = DEFAULT_MAX_TURNS,
        options: dict[str, Any] | None = None,
        illegal_action: IllegalMode = "penalty",
        render_mode: str | None = None,
        observation: ObservationMode = "flat",
        max_steps: int = DEFAULT_MAX_STEPS,
        max_illegal: int | None = None,
        action_text: bool = False,
    ) -> None:
        info = game_info(game) if not (options and "edition" in options) else None
        if info is not None and not info.min_players <= players <= info.max_players:
            raise ValueError(
                f"{game} is for {info.min_players} to {info.max_players} players, not {players}"
            )
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"seat must be 0 to {players - 1}, not {seat}")
        check_modes(reward, illegal_action, render_mode, observation)
        if max_steps < 0 or (max_illegal is not None and max_illegal < 1):
            raise ValueError("max_steps must be 0 (no cap) or more, max_illegal None or 1 or more")
        self.table = Table(game, players, options, observation)
        if isinstance(opponents, str | League) or callable(opponents):
            kinds: list[Opponent] = [opponents] * (players - 1)
        else:
            kinds = list(opponents)
        if len(kinds) != players - 1:
            raise ValueError(f"opponents lists {len(kinds)} bots for {players - 1} other seats")
        for k in kinds:
            check_opponent(k, self.table.family)  # ValueError names an unknown bot
        self.opponents = kinds
        self.players = players
        self.fixed_seat = seat
        self.reward_mode: RewardMode = reward
        self.max_turns = max_turns
        self.max_steps = max_steps
        self.max_illegal = max_illegal
        self.action_text = action_text
        self.illegal_action: IllegalMode = illegal_action
        self.render_mode = render_mode
        self.action_space = self.table.action_space
        self.observation_space = self.table.observation_space
        self._base: int | None = None
        self._episode = 0
        self.seat = 0
        self.game: GameState = self.table.new(0)
        self.bots: dict[int, Bot] = {}
        self._shares: list[float] = []
        self._done = False
        self._steps = 0
        self._illegal_run = 0
        self._illegal_total = 0
        # The learner's mask in the position now: computed once per position (it is the
        # dearest part of a step), by _refresh after every change.
        self._mask = self.table.mask(self.game, self.seat)

    # -- the Gymnasium API -----------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Start an episode (see :mod:`meeple.rl.core` for how seeds are derived)."""
        super().reset(seed=seed)
        if seed is not None:
            self._base, self._episode = seed, 0
        elif self._base is None:
            self._base, self._episode = int(self.np_random.integers(2**62)), 0
        else:
            self._episode += 1
        base, ep = self._base, self._episode
        n = self.players
        self.seat = (
            self.fixed_seat if self.fixed_seat is not None else episode_seed(base, ep, 0) % n
        )
        self.game = self.table.new(episode_seed(base, ep))
        new_episode(self.opponents)
        self.bots = {}
        for i, spec in enumerate(self.opponents):
            q = (self.seat + 1 + i) % n
            self.bots[q] = seat_bot(spec, q, self.table, base, ep)
        self._shares = shares(self.game) if self.reward_mode == "shaped" else []
        self._done = False
        self._steps = self._illegal_run = self._illegal_total = 0
        # Opponents seated before the learner move first. (No game here can end before the
        # learner's first decision; if an edition file made it so, the episode starts done.)
        _, terminated, truncated = self._run_bots()
        self._done = terminated or truncated
        self._refresh()
        info = self._info()
        if self._done:
            stop = "max_turns" if truncated and not self.game.is_terminal() else None
            info.update(self._end_info(stop))
        return self._obs(), info

    def step(
        self, action: np.int64 | int
    ) -> tuple[dict[str, Any], SupportsFloat, bool, bool, dict[str, Any]]:
        """Apply the learner's action, then let the opponents move until the learner decides
        again (or its episode ends)."""
        if self._done:
            raise RuntimeError("the episode is over: call reset()")
        index = int(action)
        self._steps += 1
        mask = self._mask
        if not 0 <= index < len(mask) or not mask[index]:
            if self.illegal_action == "raise":
                legal = [str(a) for a in self.game.legal_actions()]
                raise ValueError(f"action {index} is not legal now; legal: {', '.join(legal)}")
            self._illegal_run += 1
            self._illegal_total += 1
            info = self._info()
            info["illegal_action"] = True
            if self.action_text:
                info["action_text"] = "illegal: " + self._text(index)
            stop = self._stop_reason()
            if stop is not None:  # the penalty stands; the cap adds nothing
                self._done = True
                info.update(self._end_info(stop))
            return self._obs(), ILLEGAL_REWARD, False, stop is not None, info
        self._illegal_run = 0
        chosen = self.table.encoding.decode(self.game, index)
        text = self.game.describe_action(chosen) if self.action_text else ""
        self.game.apply(chosen)
        reward, terminated, truncated = self._run_bots()
        self._refresh()
        info = self._info()
        if self.action_text:
            info["action_text"] = text
            info["action"] = str(chosen)
        if terminated or truncated:
            # The game's end or the learner's elimination, or a turn cap: the game's own
            # (a terminal "turn_cap" result) or the environment's max_turns.
            stop = "max_turns" if truncated and not self.game.is_terminal() else None
        else:
            stop = self._stop_reason()
            truncated = stop is not None
        self._done = terminated or truncated
        if self._done:
            info.update(self._end_info(stop))
        return self._obs(), reward, terminated, truncated, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal mask as booleans (sb3-contrib ``MaskablePPO`` calls this)."""
        return self._mask.astype(bool)

    def decode_action(self, index: int) -> tuple[Action | None, str]:
        """What ``index`` stands for now, and its text (:func:`meeple.rl.decode_action`)."""
        return decode_action(self.game, int(index))

    def encode_action(self, action: Action | str | None) -> int:
        """The index of ``action`` now (:func:`meeple.rl.encode_action`)."""
        return encode_action(self.game, action)

    def render(self) -> str | None:
        """The table as text (``render_mode="ansi"``)."""
        if self.render_mode != "ansi":
            return None
        return table_text(self.game, self.seat)

    # -- inside ----------------------------------------------------------------------------

    def _stop_reason(self) -> str | None:
        """``"max_illegal"`` or ``"max_steps"`` when the learner has hit that limit."""
        if self.max_illegal is not None and self._illegal_run >= self.max_illegal:
            return "max_illegal"
        if self.max_steps and self._steps >= self.max_steps:
            return "max_steps"
        return None

    def _text(self, index: int) -> str:
        try:
            return decode_action(self.game, index)[1]
        except ValueError:
            return f"index {index}, outside the action space"

    def _run_bots(self) -> tuple[float, bool, bool]:
        """Bots move until the learner must decide; returns (reward, terminated, truncated)."""
        g = self.game
        me = self.seat
        while (
            not g.is_terminal()
            and g.current_player() != me
            and alive(g, me)
            and not capped(g, self.max_turns)
        ):
            q = g.current_player()
            g.apply(self.bots[q].choose(g))
        reward = 0.0
        if self.reward_mode == "shaped":
            now = shares(g)
            reward += now[me] - self._shares[me]
            self._shares = now
        if capped(g, self.max_turns):
            return reward, False, True
        if not alive(g, me):
            return reward - 1.0, True, False
        if g.is_terminal():
            return reward + outcome(g)[me], True, False
        return reward, False, False

    def _refresh(self) -> None:
        """Compute the learner's mask for the position now."""
        self._mask = self.table.mask(self.game, self.seat)

    def _obs(self) -> dict[str, Any]:
        return self.table.obs(self.game, self.seat, self._mask.copy())

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {
            "action_mask": self._mask.copy(),
            "seat": self.seat,
            "turns": turns_played(self.game),
        }
        r = self.game.result()
        if r is not None:
            info["game_result"] = r.to_dict()
        return info

    def _end_info(self, stop: str | None) -> dict[str, Any]:
        """The end-of-episode keys; ``stop``: the environment's own reason, if it stopped it."""
        out = episode_info(self.game, self.seat, stop)
        out["steps"] = self._steps
        out["illegal_steps"] = self._illegal_total
        return out
