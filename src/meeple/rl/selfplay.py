"""Opponents for the Gymnasium environment: bots, policies, the learner's past selves, a league.

Every seat but the learner's is played by an opponent (``MeepleGymEnv(opponents=...)``):

* a bot kind (``"random"``, ``"standard"``, ``"mcts:200"``: ``meeple.bots.base.make_bot``);
* a :data:`Policy`: any callable ``policy(obs, mask) -> action index``, given that seat's own
  observation (flat or structured, as the environment's) and its legal mask, for instance a
  trained network's greedy action, or a frozen copy of the learner;
* a :class:`League`: a pool of bots and policies from which each seat's opponent is drawn per
  episode (seeded, so the same seed draws the same opponents), to which the learner's past
  selves are added every ``snapshot_every`` episodes by calling ``snapshot()``.

A policy's observation is built exactly as the learner's (its seat first in the player rows),
so a policy trained in one seat plays any seat: self-play is ``opponents=League(["standard"],
snapshot=lambda: frozen_copy_of(model))``. docs/RL.md, "Self-play", has an example.

:class:`OpponentSeats` does the same for the PettingZoo AEC environment: the agents it names are
played by opponents, and ``agent_iter`` yields only the others (the learners).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from pettingzoo.utils.wrappers import BaseWrapper  # type: ignore[import-untyped]

from meeple.bots.base import make_bot
from meeple.kernel.bot import Bot
from meeple.kernel.protocol import Action, GameState
from meeple.rl.core import episode_seed

if TYPE_CHECKING:
    from meeple.rl.aec_env import MeepleAECEnv
    from meeple.rl.core import Table

# The salt of the per-seat league draws, apart from the bots' own seeds (derive_seed(s, k, 1 + q)).
_LEAGUE_SALT = 1 << 20

#: A policy: ``policy(observation, action_mask) -> action index``.
Policy = Callable[[dict[str, Any], np.ndarray], Any]
#: What may sit in a seat: a bot kind or a policy.
Member = str | Policy


class League:
    """A pool of opponents; each seat draws one per episode, with probability by weight.

    ``members``: bot kinds and policies to start with. ``snapshot``: a callable returning a
    policy, the learner as it is now (a frozen copy: the league keeps it as it is); it is called
    at the first reset and then every ``snapshot_every`` episodes, keeping the last
    ``max_snapshots`` snapshots. ``snapshot_weight``: the total weight of the snapshots,
    shared equally among them, against each other member's weight 1 (``weights`` sets those).

    In ``gymnasium.vector.AsyncVectorEnv`` each worker holds a copy of the league: a snapshot
    callable then has to load the learner from somewhere the workers see (a file it saved).
    """

    def __init__(
        self,
        members: Sequence[Member] = ("random",),
        weights: Sequence[float] | None = None,
        snapshot: Callable[[], Policy] | None = None,
        snapshot_every: int = 100,
        max_snapshots: int = 5,
        snapshot_weight: float = 1.0,
    ) -> None:
        self.members: list[Member] = list(members)
        self.weights = [1.0] * len(self.members) if weights is None else list(weights)
        if len(self.weights) != len(self.members):
            raise ValueError(f"{len(self.weights)} weights for {len(self.members)} members")
        if not self.members and snapshot is None:
            raise ValueError("a league needs members or a snapshot")
        if snapshot_every < 1 or max_snapshots < 1:
            raise ValueError("snapshot_every and max_snapshots must be at least 1")
        self.snapshot = snapshot
        self.snapshot_every = snapshot_every
        self.max_snapshots = max_snapshots
        self.snapshot_weight = snapshot_weight
        self.snapshots: list[Policy] = []
        self.episodes = 0

    def add(self, member: Member, weight: float = 1.0) -> None:
        """Add a bot kind or a policy to the pool."""
        self.members.append(member)
        self.weights.append(weight)

    def new_episode(self) -> None:
        """Count an episode; take a snapshot of the learner when one is due."""
        if self.snapshot is not None and self.episodes % self.snapshot_every == 0:
            self.snapshots.append(self.snapshot())
            del self.snapshots[: -self.max_snapshots]
        self.episodes += 1

    def pool(self) -> tuple[list[Member], list[float]]:
        """Every member and snapshot with its probability."""
        members = [*self.members, *self.snapshots]
        each = self.snapshot_weight / len(self.snapshots) if self.snapshots else 0.0
        w = np.array([*self.weights, *[each] * len(self.snapshots)], dtype=np.float64)
        if w.sum() <= 0:
            raise ValueError("the league's weights add up to 0")
        return members, list(w / w.sum())

    def draw(self, rng: np.random.Generator) -> Member:
        """One member, drawn by weight with ``rng``."""
        members, p = self.pool()
        return members[int(rng.choice(len(members), p=p))]


#: What ``opponents`` takes for one seat.
Opponent = str | Policy | League


class PolicyBot(Bot):
    """A seat played by a :data:`Policy`: it sees the seat's observation and mask, its index is
    decoded into the game's action. ``observe(state, seat)`` builds the observation (the
    environment's ``Table.obs``); ``decode(state, index)`` the action."""

    name = "policy"

    def __init__(
        self,
        policy: Policy,
        seat: int,
        observe: Callable[[GameState, int], dict[str, Any]],
        decode: Callable[[GameState, int], Action],
    ) -> None:
        super().__init__(0)
        self.policy = policy
        self.seat = seat
        self.observe = observe
        self.decode = decode

    def choose(self, state: GameState) -> Action:
        obs = self.observe(state, self.seat)
        mask = obs["action_mask"]
        index = int(self.policy(obs, mask))
        if not 0 <= index < len(mask) or not mask[index]:
            raise ValueError(
                f"the policy in seat {self.seat} chose action {index}, which the mask does not "
                "allow: an opponent's policy must choose among the legal actions"
            )
        return self.decode(state, index)


def check_opponent(spec: Opponent, family: str) -> None:
    """``ValueError`` naming a bot kind (alone or in a league) that ``family`` does not have."""
    for member in spec.members if isinstance(spec, League) else [spec]:
        if isinstance(member, str):
            make_bot(member, family, 0)


def seat_bot(spec: Opponent, seat: int, table: Table, base: int, episode: int) -> Bot:
    """The bot that plays ``seat`` in episode ``episode`` of base seed ``base``: a league draws
    a member first (seeded by the episode and the seat), a bot kind gets the seat's derived
    seed, a policy is wrapped in a :class:`PolicyBot`."""
    if isinstance(spec, League):
        spec = spec.draw(np.random.default_rng(episode_seed(base, episode, _LEAGUE_SALT + seat)))
    if isinstance(spec, str):
        return make_bot(spec, table.family, episode_seed(base, episode, 1 + seat))
    return PolicyBot(spec, seat, table.obs, table.encoding.decode)


def new_episode(opponents: Sequence[Opponent]) -> None:
    """Tell each league among ``opponents`` (once each) that an episode starts."""
    for league in {id(k): k for k in opponents if isinstance(k, League)}.values():
        league.new_episode()


class OpponentSeats(BaseWrapper):  # type: ignore[misc]
    """A PettingZoo AEC wrapper whose named agents are played by opponents.

    ``opponents`` maps agent names (``"player_1"``) to a bot kind, a policy or a league, as the
    Gymnasium environment's ``opponents``. After every step (and reset) the wrapper plays them
    until an agent it does not play must act, so ``agent_iter`` yields only the learners; their
    rewards from the opponents' moves accumulate as usual (``last()`` returns them).

    >>> import meeple.rl
    >>> env = OpponentSeats(meeple.rl.env("classic", players=3), {"player_2": "standard"})
    """

    def __init__(self, env: MeepleAECEnv, opponents: Mapping[str, Opponent]) -> None:
        super().__init__(env)
        base: MeepleAECEnv = env.unwrapped
        for agent, spec in opponents.items():
            if agent not in base.possible_agents:
                raise ValueError(f"no agent {agent!r}; agents: {', '.join(base.possible_agents)}")
            check_opponent(spec, base.table.family)
        if len(opponents) >= len(base.possible_agents):
            raise ValueError("every agent would be an opponent: leave one to learn")
        self.opponents = dict(opponents)
        self.bots: dict[str, Bot] = {}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.env.reset(seed=seed, options=options)
        base: MeepleAECEnv = self.env.unwrapped
        new_episode(list(self.opponents.values()))
        b, ep = base.episode_seeds()
        self.bots = {
            a: seat_bot(spec, base.agent_name_mapping[a], base.table, b, ep)
            for a, spec in self.opponents.items()
        }
        self._play_opponents()

    def step(self, action: Any) -> None:
        self.env.step(action)
        self._play_opponents()

    def _play_opponents(self) -> None:
        base: MeepleAECEnv = self.env.unwrapped
        while base.agents and base.agent_selection in self.bots:
            agent = base.agent_selection
            if base.terminations[agent] or base.truncations[agent]:
                self.env.step(None)
                continue
            # The game action itself: a bot may bid off the encoding's ladder.
            base.play(self.bots[agent].choose(base.game))
