"""Standard environments for training agents on every meeple game (docs/RL.md).

>>> import meeple.rl
>>> aec = meeple.rl.env("classic", players=4)            # PettingZoo AEC: every seat an agent
>>> single = meeple.rl.gym_env("monopolis", opponents="standard", players=3)  # Gymnasium
>>> obs, info = single.reset(seed=7)
>>> sorted(obs)
['action_mask', 'observation']

Both use one fixed ``Discrete`` action encoding per game (:mod:`meeple.rl.encoding`), a
documented ``float32`` observation vector (:mod:`meeple.rl.observation`), both given by
the game's family (``GameFamily.encoding``, ``GameFamily.observer``), with the legal mask
beside it, win/loss or shaped rewards, derived seeds and a turn cap (:mod:`meeple.rl.core`).

They need ``meeple[rl]`` (Gymnasium, PettingZoo, NumPy): without it, ``import meeple.rl`` raises
:class:`meeple.extras.MissingExtra`, which says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from meeple.extras import need

need("rl", "meeple.rl (the RL environments)")

# After the check: without gymnasium, pettingzoo or numpy, the error names the extra to install.
from meeple.rl.aec_env import MeepleAECEnv  # noqa: E402
from meeple.rl.core import DEFAULT_MAX_TURNS, IllegalMode, RewardMode  # noqa: E402
from meeple.rl.encoding import ActionEncoding, encoding_for  # noqa: E402
from meeple.rl.gym_env import MeepleGymEnv  # noqa: E402
from meeple.rl.observation import Observer, observer_for  # noqa: E402

__all__ = [
    "ActionEncoding",
    "MeepleAECEnv",
    "MeepleGymEnv",
    "Observer",
    "encoding_for",
    "env",
    "gym_env",
    "observer_for",
]


def env(
    game: str = "classic",
    players: int = 4,
    reward: RewardMode = "win",
    max_turns: int = DEFAULT_MAX_TURNS,
    options: dict[str, Any] | None = None,
    illegal_action: IllegalMode = "penalty",
    render_mode: str | None = None,
) -> MeepleAECEnv:
    """A PettingZoo AEC environment of ``game`` in which every seat is an agent.

    ``reward``: ``"win"`` (+1 win, -1 loss, 0 a shared first place or the turn cap) or
    ``"shaped"`` (plus the change in net-worth share after each action). ``max_turns``: the
    player-turns after which every agent is truncated (0: no cap). ``options``: the game's
    options (``new_game``). ``illegal_action``: an action outside the mask is refused with
    reward -0.1 (``"penalty"``, the same agent decides again) or raises (``"raise"``).
    """
    return MeepleAECEnv(game, players, reward, max_turns, options, illegal_action, render_mode)


def gym_env(
    game: str = "classic",
    opponents: str | Sequence[str] = "random",
    players: int = 4,
    seat: int | None = None,
    reward: RewardMode = "win",
    max_turns: int = DEFAULT_MAX_TURNS,
    options: dict[str, Any] | None = None,
    illegal_action: IllegalMode = "penalty",
    render_mode: str | None = None,
) -> MeepleGymEnv:
    """A Gymnasium environment: one learner against bots in ``game``.

    ``opponents``: one bot kind for every other seat (``"random"``, ``"standard"``: see
    ``meeple.bots.bot_kinds``) or a list of ``players - 1`` kinds, for the seats to the
    learner's left in order. ``seat``: the learner's seat, or ``None`` for a seat drawn per
    episode from the seed. Other arguments as :func:`env`.
    """
    return MeepleGymEnv(
        game,
        opponents,
        players,
        seat,
        reward,
        max_turns,
        options,
        illegal_action,
        render_mode,
    )


def _register_with_gymnasium() -> None:
    """Make ``gymnasium.make("meeple/Meeple-v0", game=..., opponents=...)`` work."""
    import gymnasium

    if "meeple/Meeple-v0" not in gymnasium.registry:
        gymnasium.register(id="meeple/Meeple-v0", entry_point="meeple.rl.gym_env:MeepleGymEnv")


_register_with_gymnasium()
