"""Standard environments for training agents on every meeple game (docs/RL.md).

>>> import gymnasium, meeple.rl
>>> aec = meeple.rl.env("classic", players=4)            # PettingZoo AEC: every seat an agent
>>> single = meeple.rl.gym_env("monopolis", opponents="standard", players=3)  # Gymnasium
>>> obs, info = single.reset(seed=7)
>>> sorted(obs)
['action_mask', 'observation']
>>> gymnasium.make("meeple/classic-v0").spec.kwargs
{'game': 'classic'}

Both use one fixed ``Discrete`` action encoding per game (:mod:`meeple.rl.encoding`) plus a
no-op legal only when there is nothing to decide (so the mask is never empty), a documented
``float32`` observation vector or its tables (:mod:`meeple.rl.observation`), both given by the
game's family (``GameFamily.encoding``, ``GameFamily.observer``), with the legal mask beside it,
win/loss or shaped rewards, derived seeds, a turn cap and a step cap (:mod:`meeple.rl.core`).
Opponents may be bots, policies or a league (:mod:`meeple.rl.selfplay`).

They need ``meeple[rl]`` (Gymnasium, PettingZoo, NumPy): without it, ``import meeple.rl`` raises
:class:`meeple.extras.MissingExtra`, which says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from meeple.extras import need

need("rl", "meeple.rl (the RL environments)")

# After the check: without gymnasium, pettingzoo or numpy, the error names the extra to install.
from meeple.kernel.family import game_ids  # noqa: E402
from meeple.rl.aec_env import MeepleAECEnv  # noqa: E402
from meeple.rl.core import (  # noqa: E402
    DEFAULT_MAX_STEPS,
    DEFAULT_MAX_TURNS,
    IllegalMode,
    ObservationMode,
    RewardMode,
)
from meeple.rl.encoding import (  # noqa: E402
    NOOP_TEXT,
    ActionEncoding,
    decode_action,
    encode_action,
    encoding_for,
    noop_index,
)
from meeple.rl.gym_env import MeepleGymEnv  # noqa: E402
from meeple.rl.observation import Observer, observer_for  # noqa: E402
from meeple.rl.selfplay import League, Opponent, OpponentSeats, Policy  # noqa: E402

__all__ = [
    "NOOP_TEXT",
    "ActionEncoding",
    "League",
    "MeepleAECEnv",
    "MeepleGymEnv",
    "Observer",
    "OpponentSeats",
    "Policy",
    "decode_action",
    "encode_action",
    "encoding_for",
    "env",
    "gym_env",
    "gym_id",
    "noop_index",
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
    observation: ObservationMode = "flat",
    max_steps: int = DEFAULT_MAX_STEPS,
    max_illegal: int | None = None,
) -> MeepleAECEnv:
    """A PettingZoo AEC environment of ``game`` in which every seat is an agent.

    ``reward``: ``"win"`` (+1 win, -1 loss, 0 a shared first place or the turn cap) or
    ``"shaped"`` (plus the change in net-worth share after each action). ``max_turns``: the
    player-turns after which every agent is truncated (0: no cap). ``options``: the game's
    options (``new_game``). ``illegal_action``: an action outside the mask is refused with
    reward -0.1 (``"penalty"``, the same agent decides again) or raises (``"raise"``).
    ``observation``: ``"flat"`` (one vector) or ``"structured"`` (per-square and per-player
    tables, docs/RL.md). ``max_steps``: every agent is truncated once one agent has taken that
    many steps, legal or not (0: no cap); ``max_illegal``: likewise after one agent's that many
    illegal actions in a row (None: never).
    """
    return MeepleAECEnv(
        game,
        players,
        reward,
        max_turns,
        options,
        illegal_action,
        render_mode,
        observation,
        max_steps,
        max_illegal,
    )


def gym_env(
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
) -> MeepleGymEnv:
    """A Gymnasium environment: one learner against opponents in ``game``.

    ``opponents``: for every other seat one opponent, or a list of ``players - 1``, for the
    seats to the learner's left in order: a bot kind (``"random"``, ``"standard"``: see
    ``meeple.bots.base.bot_kinds``), a policy ``(obs, mask) -> index`` or a :class:`League`
    (:mod:`meeple.rl.selfplay`). ``seat``: the learner's seat, or ``None`` for a seat drawn
    per episode from the seed. ``max_steps``: learner steps, legal or not, after which the
    episode is truncated (0: no cap); ``max_illegal``: truncate after that many illegal
    actions in a row (None: never). ``action_text``: put the chosen action's text in
    ``info["action_text"]``. Other arguments as :func:`env`.
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
        observation,
        max_steps,
        max_illegal,
        action_text,
    )


def gym_id(game: str) -> str:
    """The registered Gymnasium id of ``game``: ``"meeple/<game>-v0"``."""
    return f"meeple/{game}-v0"


def _register_with_gymnasium() -> None:
    """Register ``meeple/<game>-v0`` for every game id, and ``meeple/Meeple-v0`` (any game by
    keyword, kept for compatibility). Done when ``meeple.rl`` is imported, not by ``import
    meeple`` (which stays free of Gymnasium); ``gymnasium.make("meeple.rl:meeple/classic-v0")``
    imports it on the way."""
    import gymnasium

    entry = "meeple.rl.gym_env:MeepleGymEnv"
    if "meeple/Meeple-v0" not in gymnasium.registry:
        gymnasium.register(id="meeple/Meeple-v0", entry_point=entry)
    for game in game_ids():
        if gym_id(game) not in gymnasium.registry:
            gymnasium.register(id=gym_id(game), entry_point=entry, kwargs={"game": game})


_register_with_gymnasium()
