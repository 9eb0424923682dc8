"""A PettingZoo AEC environment: every seat is an agent (``player_0`` .. ``player_{n-1}``).

PettingZoo's Agent Environment Cycle fits the kernel exactly: ``agent_selection`` is
``state.current_player()`` (who decides now, not whose turn it is: an auction asks each bidder,
a trade its recipient). Observations are ``Dict(observation, action_mask)``
(:mod:`meeple.rl.observation`, :mod:`meeple.rl.encoding`; the PettingZoo ``classic`` games'
convention) or the structured tables, the mask is also in ``infos[agent]["action_mask"]``; an
agent with nothing to decide (another seat decides, or its game is over) sees the no-op alone,
and a finished agent may step the no-op as well as ``None``. When an agent's game ends its info
holds ``result``, ``rank``, ``end_reason`` and ``worth`` (docs/RL.md, "Info"). A Monopoly
seat that goes bankrupt is terminated at once (reward -1) and leaves ``agents``; the others
terminate when the game ends, or are truncated together at the turn cap. Rewards, seeding and
the cap: :mod:`meeple.rl.core`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]

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


class MeepleAECEnv(AECEnv):  # type: ignore[misc]
    """Every seat of a meeple game as a PettingZoo agent. Build with :func:`meeple.rl.env`."""

    metadata = {"render_modes": ["ansi"], "name": "meeple_v0", "is_parallelizable": False}  # noqa: RUF012

    def __init__(
        self,
        game: str = "classic",
        players: int = 4,
        reward: RewardMode = "win",
        max_turns: int = DEFAULT_MAX_TURNS,
        options: dict[str, Any] | None = None,
        illegal_action: IllegalMode = "penalty",
        render_mode: str | None = None,
        observation: ObservationMode = "flat",
        max_steps: int = DEFAULT_MAX_STEPS,
        max_illegal: int | None = None,
    ) -> None:
        super().__init__()
        check_modes(reward, illegal_action, render_mode, observation)
        self.table = Table(game, players, options, observation)
        self.players = players
        self.reward_mode: RewardMode = reward
        self.max_turns = max_turns
        if max_steps < 0 or (max_illegal is not None and max_illegal < 1):
            raise ValueError("max_steps must be 0 (no cap) or more, max_illegal None or 1 or more")
        self.max_steps = max_steps
        self.max_illegal = max_illegal
        # Steps and illegal actions in a row, per agent; the reason the environment stopped
        # the episode, if it did (docs/RL.md, "The step cap and the illegal-action limit").
        self._steps: dict[str, int] = {}
        self._illegal_run: dict[str, int] = {}
        self._stop: str | None = None
        self.illegal_action: IllegalMode = illegal_action
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self.action_spaces = {a: self.table.action_space for a in self.possible_agents}
        self.observation_spaces = {a: self.table.observation_space for a in self.possible_agents}
        self._base: int | None = None
        self._episode = 0
        self.game: GameState = self.table.new(0)
        self._shares: list[float] = []
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start an episode (``options`` is accepted and ignored; seeds: :mod:`.core`)."""
        if seed is not None:
            self._base, self._episode = seed, 0
        elif self._base is None:
            self._base, self._episode = int(np.random.default_rng().integers(2**62)), 0
        else:
            self._episode += 1
        self.game = self.table.new(episode_seed(self._base, self._episode))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self._steps = dict.fromkeys(self.agents, 0)
        self._illegal_run = dict.fromkeys(self.agents, 0)
        self._stop = None
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._shares = shares(self.game) if self.reward_mode == "shaped" else []
        self.agent_selection = self.possible_agents[self.game.current_player()]
        self._skip_agent_selection = None
        self._update_infos()

    def episode_seeds(self) -> tuple[int, int]:
        """The base seed and the episode number playing now (:mod:`meeple.rl.core`)."""
        if self._base is None:
            raise RuntimeError("call reset() first")
        return self._base, self._episode

    def observe(self, agent: str) -> dict[str, Any]:
        return self.table.obs(self.game, self.agent_name_mapping[agent])

    def step(self, action: int | np.integer[Any] | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            # PettingZoo wants None; the no-op, what a mask-sampling policy picks, is the same.
            noop = action is not None and int(action) == self.table.noop
            self._was_dead_step(None if noop else action)
            return
        seat = self.agent_name_mapping[agent]
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        mask = self.table.mask(self.game, seat)
        index = -1 if action is None else int(action)
        if not 0 <= index < len(mask) or not mask[index]:
            if self.illegal_action == "raise":
                legal = ", ".join(str(a) for a in self.game.legal_actions())
                raise ValueError(f"{agent}: action {action} is not legal now; legal: {legal}")
            self.rewards[agent] = ILLEGAL_REWARD
            self._illegal_run[agent] += 1
            self._count_step(agent)
            self.infos[agent]["illegal_action"] = True
            self._accumulate_rewards()
            self._deads_step_first()
            return
        self._illegal_run[agent] = 0
        self._apply(self.table.encoding.decode(self.game, index))

    def _count_step(self, agent: str) -> None:
        """Count ``agent``'s step; at the step cap or the illegal-action limit truncate every
        agent still in (the game cannot go on without the one that keeps missing the mask)."""
        self._steps[agent] += 1
        if self.max_illegal is not None and self._illegal_run[agent] >= self.max_illegal:
            self._stop = "max_illegal"
        elif self.max_steps and self._steps[agent] >= self.max_steps:
            self._stop = "max_steps"
        else:
            return
        for a in self.agents:
            if not self.terminations[a]:
                self.truncations[a] = True
        self._update_infos()

    def play(self, action: Action) -> None:
        """Step the selected agent with a game action rather than an index: a bot's choice,
        which may lie off the encoding's ladders (a bid of any amount the game accepts,
        docs/KERNEL.md, "Amounts"). The game refuses an illegal one (``ValueError``)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            raise ValueError(f"{agent} is done: step(None)")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._apply(action)

    def _apply(self, action: Action) -> None:
        """Apply the selected agent's legal ``action``; rewards, ends and the next agent."""
        agent = self.agent_selection
        g = self.game
        g.apply(action)
        if self.reward_mode == "shaped":
            now = shares(g)
            for a in self.agents:
                q = self.agent_name_mapping[a]
                self.rewards[a] += now[q] - self._shares[q]
            self._shares = now
        if capped(g, self.max_turns):
            for a in self.agents:
                self.truncations[a] = True
        elif g.is_terminal():
            out = outcome(g)
            for a in self.agents:
                self.rewards[a] += out[self.agent_name_mapping[a]]
                self.terminations[a] = True
        else:
            for a in self.agents:
                if not alive(g, self.agent_name_mapping[a]) and not self.terminations[a]:
                    self.rewards[a] -= 1.0
                    self.terminations[a] = True
            self.agent_selection = self.possible_agents[g.current_player()]
        self._update_infos()
        if not (self.terminations[agent] or self.truncations[agent]):
            self._count_step(agent)
        self._accumulate_rewards()
        self._deads_step_first()

    def _update_infos(self) -> None:
        g = self.game
        r = g.result()
        for a in self.agents:
            q = self.agent_name_mapping[a]
            info: dict[str, Any] = {"action_mask": self.table.mask(g, q), "turns": turns_played(g)}
            if r is not None:
                info["game_result"] = r.to_dict()
            if self.terminations[a] or self.truncations[a]:
                stop = None
                if self.truncations[a] and not g.is_terminal():
                    stop = self._stop or "max_turns"
                info.update(episode_info(g, q, stop))
            self.infos[a] = info

    def render(self) -> str | None:
        """The table as text (``render_mode="ansi"``), as the seat deciding now sees it."""
        if self.render_mode != "ansi":
            return None
        seat = self.game.current_player()
        return table_text(self.game, seat if seat >= 0 else None)

    def close(self) -> None:
        """Nothing to release."""
