"""A Gymnasium environment: one learner against bots (issue "a standard environment for
training agents"; DESIGN.md, "AI builders ... a standard environment with action masks,
reproducible seeds and strong baseline bots").

The learner takes one seat; bots (``meeple.bots.base.make_bot``) play every other seat and
move between the learner's decisions. The action space is the game's fixed ``Discrete``
encoding (:mod:`meeple.rl.encoding`); the observation is a ``Dict`` of the vector
(:mod:`meeple.rl.observation`) and the legal ``action_mask``, which is also in
``info["action_mask"]`` and returned by :meth:`MeepleGymEnv.action_masks` (the sb3-contrib
``MaskablePPO`` convention). Rewards, seeding and the turn cap: :mod:`meeple.rl.core`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
import numpy.typing as npt

from meeple.bots.base import Bot, bot_kinds, make_bot
from meeple.kernel.family import game_info
from meeple.kernel.protocol import GameState
from meeple.rl.core import (
    DEFAULT_MAX_TURNS,
    ILLEGAL_REWARD,
    IllegalMode,
    RewardMode,
    Table,
    alive,
    capped,
    check_modes,
    episode_seed,
    outcome,
    shares,
    table_text,
    turns_played,
)


class MeepleGymEnv(gym.Env[dict[str, Any], np.int64]):
    """One learner against bots in any meeple game. Build with :func:`meeple.rl.gym_env`."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012 (gymnasium's way)

    def __init__(
        self,
        game: str = "classic",
        opponents: str | Sequence[str] = "random",
        players: int = 4,
        seat: int | None = None,
        reward: RewardMode = "win",
        max_turns: int = DEFAULT_MAX_TURNS,
        options: dict[str, Any] | None = None,
        illegal_action: IllegalMode = "penalty",
        render_mode: str | None = None,
    ) -> None:
        info = game_info(game) if not (options and "edition" in options) else None
        if info is not None and not info.min_players <= players <= info.max_players:
            raise ValueError(
                f"{game} is for {info.min_players} to {info.max_players} players, not {players}"
            )
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"seat must be 0 to {players - 1}, not {seat}")
        check_modes(reward, illegal_action, render_mode)
        self.table = Table(game, players, options)
        kinds = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(kinds) != players - 1:
            raise ValueError(f"opponents lists {len(kinds)} bots for {players - 1} other seats")
        known = bot_kinds(self.table.family)
        for k in kinds:
            if k not in known:
                raise ValueError(f"unknown bot {k!r} for {game}; known: {', '.join(known)}")
        self.opponents = kinds
        self.players = players
        self.fixed_seat = seat
        self.reward_mode: RewardMode = reward
        self.max_turns = max_turns
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
        self.bots = {}
        for i, kind in enumerate(self.opponents):
            q = (self.seat + 1 + i) % n
            self.bots[q] = make_bot(kind, self.table.family, episode_seed(base, ep, 1 + q))
        self._shares = shares(self.game) if self.reward_mode == "shaped" else []
        self._done = False
        # Bots seated before the learner move first. (No game here can end before the
        # learner's first decision; if an edition file made it so, the episode starts done.)
        _, terminated, truncated = self._run_bots()
        self._done = terminated or truncated
        return self._obs(), self._info()

    def step(
        self, action: np.int64 | int
    ) -> tuple[dict[str, Any], SupportsFloat, bool, bool, dict[str, Any]]:
        """Apply the learner's action, then let the bots move until the learner decides again."""
        if self._done:
            raise RuntimeError("the episode is over: call reset()")
        index = int(action)
        mask = self.table.mask(self.game, self.seat)
        if not 0 <= index < len(mask) or not mask[index]:
            if self.illegal_action == "raise":
                legal = [str(a) for a in self.game.legal_actions()]
                raise ValueError(f"action {index} is not legal now; legal: {', '.join(legal)}")
            info = self._info()
            info["illegal_action"] = True
            return self._obs(), ILLEGAL_REWARD, False, False, info
        self.game.apply(self.table.encoding.decode(self.game, index))
        reward, terminated, truncated = self._run_bots()
        self._done = terminated or truncated
        return self._obs(), reward, terminated, truncated, self._info()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal mask as booleans (sb3-contrib ``MaskablePPO`` calls this)."""
        return self.table.mask(self.game, self.seat).astype(bool)

    def render(self) -> str | None:
        """The table as text (``render_mode="ansi"``)."""
        if self.render_mode != "ansi":
            return None
        return table_text(self.game, self.seat)

    # -- inside ----------------------------------------------------------------------------

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

    def _obs(self) -> dict[str, Any]:
        return self.table.obs(self.game, self.seat)

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {
            "action_mask": self.table.mask(self.game, self.seat),
            "seat": self.seat,
            "turns": turns_played(self.game),
        }
        r = self.game.result()
        if r is not None:
            info["result"] = r.to_dict()
        return info
