"""The ``policy`` bot: a trained policy network played with NumPy alone (``policy:FILE``).

A policy file (``.npz``, written by :func:`save_policy`) holds a small multilayer perceptron, or
a linear policy (no hidden layer), that maps the RL observation vector of one game to one score
per action index, and the facts it was trained for: the game id, the family, the observation's
size and layout and the action table's size and labels (docs/RL.md, "Policy files"). The bot
observes the position as :mod:`meeple.rl` does (the family's observer and action encoding,
``GameFamily.observer`` / ``GameFamily.encoding``: the same objects, reached through
:mod:`meeple.kernel.family`, as the bot layer may not import the RL driver), scores the actions,
and plays the best-scored *legal* one. ``policy:FILE:sample`` samples from the softmax over the
legal actions instead, from the bot's own random stream, so the same bot seed replays the same
games.

Why NumPy and not the training library: playing a policy must not need a deep-learning library
(PyTorch alone is gigabytes); a forward pass of a small MLP is a few matrix products.

The package ships trained policies (``policies/GAME.npz``, :func:`packaged_policy`), played by
the kind ``learned`` (``learned:sample`` samples): a kind without a file argument, so the web
server, which reads no file a client names, can seat it too (docs/RL.md, "Policy files").
"""

from __future__ import annotations

import functools
import hashlib
import os
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from meeple.kernel.bot import Bot
from meeple.kernel.family import family_of_state
from meeple.kernel.protocol import Action, GameState

if TYPE_CHECKING:  # (the encodings import NumPy, which a bot kind may not need)
    from meeple.kernel.encoding import ActionEncoding, Observer

FORMAT = "meeple-policy"
"""The ``format`` entry of every policy file."""
VERSION = 1
"""The format version this code reads and writes."""
ACTIVATIONS = ("tanh", "relu")


def fingerprint(items: list[str]) -> str:
    """A short hash of an ordered list of names: the observation layout, the action labels."""
    return hashlib.sha256("\n".join(items).encode()).hexdigest()[:16]


def layout_names(observer: Any) -> list[str]:
    """The observation layout as ``name:offset:length`` strings (what the fingerprint hashes)."""
    return [f"{name}:{off}:{length}" for name, off, length, _ in observer.layout()]


@dataclass
class Policy:
    """A policy network: ``layers`` of ``(W, b)`` with ``W`` of shape ``(inputs, outputs)``;
    the hidden layers apply ``activation``, the last gives one score per action index.

    ``mean`` and ``scale`` (optional) normalise the observation first: ``(x - mean) / scale``.
    """

    game: str
    family: str
    obs_size: int
    n_actions: int
    obs_layout: str
    action_labels: str
    layers: list[tuple[Any, Any]]
    activation: str = "tanh"
    mean: Any = None
    scale: Any = None
    meta: dict[str, str] = field(default_factory=dict)
    _fits: tuple[str, Any, Any] | None = field(default=None, init=False, repr=False, compare=False)
    """The game id, observer and encoding :meth:`check_state` last found fit (the families
    share one observer and encoding per table, so a bot made for each game checks again in
    a dictionary lookup, not by hashing the table's 426 labels)."""

    def scores(self, obs: Any) -> Any:
        """One score per action index for observation vector(s) ``obs`` (1-D or a batch)."""
        import numpy as np

        x = np.asarray(obs, dtype=np.float64)
        if self.mean is not None:
            x = (x - self.mean) / self.scale
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            x = x @ w + b
            if i < last:
                x = np.tanh(x) if self.activation == "tanh" else np.maximum(x, 0.0)
        return x

    def check_state(self, state: GameState, where: str = "the policy") -> None:
        """``ValueError`` saying what differs when this policy cannot play ``state``'s game."""
        fam = family_of_state(state)
        if state.game_id != self.game or fam.name != self.family:
            raise ValueError(
                f"{where} was trained for {self.game} ({self.family}), not {state.game_id}"
            )
        observer, encoding = fam.observer(state), fam.encoding(state)
        fits = self._fits
        if fits and fits[0] == state.game_id and fits[1] is observer and fits[2] is encoding:
            return
        if observer.size != self.obs_size:
            raise ValueError(
                f"{where} expects {self.obs_size} observation values; "
                f"{state.game_id} observes {observer.size}"
            )
        if encoding.size != self.n_actions:
            raise ValueError(
                f"{where} scores {self.n_actions} actions; {state.game_id} has {encoding.size}"
            )
        if fingerprint(layout_names(observer)) != self.obs_layout:
            raise ValueError(f"{where}: the observation layout of {state.game_id} has changed")
        if fingerprint(list(encoding.labels)) != self.action_labels:
            raise ValueError(f"{where}: the action table of {state.game_id} has changed")
        self._fits = (state.game_id, observer, encoding)


def policy_for(
    state: GameState,
    layers: list[tuple[Any, Any]],
    activation: str = "tanh",
    mean: Any = None,
    scale: Any = None,
    meta: dict[str, str] | None = None,
) -> Policy:
    """A :class:`Policy` over ``layers`` for ``state``'s game, stamped with its observation
    and action table (what :meth:`Policy.check_state` compares at play time)."""
    fam = family_of_state(state)
    observer, encoding = fam.observer(state), fam.encoding(state)
    return Policy(
        game=state.game_id,
        family=fam.name,
        obs_size=observer.size,
        n_actions=encoding.size,
        obs_layout=fingerprint(layout_names(observer)),
        action_labels=fingerprint(list(encoding.labels)),
        layers=list(layers),
        activation=activation,
        mean=mean,
        scale=scale,
        meta=dict(meta or {}),
    )


def save_policy(policy: Policy, path: str | os.PathLike[str]) -> None:
    """Write ``policy`` to ``path`` (``.npz``, float32 weights: a few hundred KB for an MLP
    with hidden layers of 128)."""
    import numpy as np

    arrays: dict[str, Any] = {
        "format": np.array(FORMAT),
        "version": np.array(VERSION),
        "game": np.array(policy.game),
        "family": np.array(policy.family),
        "obs_size": np.array(policy.obs_size),
        "n_actions": np.array(policy.n_actions),
        "obs_layout": np.array(policy.obs_layout),
        "action_labels": np.array(policy.action_labels),
        "activation": np.array(policy.activation),
        "layers": np.array(len(policy.layers)),
    }
    for i, (w, b) in enumerate(policy.layers):
        arrays[f"W{i}"] = np.asarray(w, dtype=np.float32)
        arrays[f"b{i}"] = np.asarray(b, dtype=np.float32)
    if policy.mean is not None:
        arrays["mean"] = np.asarray(policy.mean, dtype=np.float32)
        arrays["scale"] = np.asarray(policy.scale, dtype=np.float32)
    for k, v in policy.meta.items():
        arrays[f"meta_{k}"] = np.array(str(v))
    with open(path, "wb") as f:  # np.savez would append .npz to a name without it
        np.savez_compressed(f, **arrays)


def load_policy(path: str | os.PathLike[str]) -> Policy:
    """Read a policy file; ``ValueError`` says what is wrong and where (``FILE: ...``)."""
    import numpy as np

    where = str(path)
    if not Path(path).is_file():
        raise ValueError(f"{where}: no such policy file")
    try:
        data = np.load(path, allow_pickle=False)
        entries = {k: data[k] for k in data.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as exc:
        raise ValueError(f"{where}: not a policy file (.npz): {exc}") from None

    def text(key: str) -> str:
        if key not in entries:
            raise ValueError(f"{where}: not a policy file: no {key!r} entry")
        return str(entries[key].item() if entries[key].shape == () else entries[key])

    def integer(key: str) -> int:
        raw = text(key)
        try:
            return int(raw)
        except ValueError:
            raise ValueError(f"{where}: {key} must be an integer, not {raw!r}") from None

    if text("format") != FORMAT:
        raise ValueError(f"{where}: not a policy file (format {text('format')!r})")
    version = integer("version")
    if version != VERSION:
        raise ValueError(f"{where}: policy format version {version}; this meeple reads {VERSION}")
    activation = text("activation")
    if activation not in ACTIVATIONS:
        raise ValueError(f"{where}: unknown activation {activation!r}; known: tanh, relu")
    obs_size, n_actions, count = integer("obs_size"), integer("n_actions"), integer("layers")
    if count < 1:
        raise ValueError(f"{where}: a policy needs at least one layer, not {count}")
    layers: list[tuple[Any, Any]] = []
    inputs = obs_size
    for i in range(count):
        if f"W{i}" not in entries or f"b{i}" not in entries:
            raise ValueError(f"{where}: layer {i} is missing (W{i}, b{i})")
        w, b = entries[f"W{i}"].astype(np.float64), entries[f"b{i}"].astype(np.float64)
        if w.ndim != 2 or w.shape[0] != inputs or b.shape != (w.shape[1],):
            raise ValueError(
                f"{where}: layer {i} has weights {w.shape} and bias {b.shape}; "
                f"expected ({inputs}, k) and (k,)"
            )
        if not (np.isfinite(w).all() and np.isfinite(b).all()):
            raise ValueError(f"{where}: layer {i} holds a NaN or an infinity")
        layers.append((w, b))
        inputs = w.shape[1]
    if inputs != n_actions:
        raise ValueError(f"{where}: the last layer gives {inputs} scores for {n_actions} actions")
    mean = scale = None
    if "mean" in entries:
        mean, scale = entries["mean"].astype(np.float64), entries.get("scale")
        if scale is None or mean.shape != (obs_size,) or scale.shape != (obs_size,):
            raise ValueError(f"{where}: mean and scale must both hold {obs_size} values")
        scale = scale.astype(np.float64)
        if (scale <= 0).any():
            raise ValueError(f"{where}: scale must be positive")
    meta = {k[5:]: text(k) for k in entries if k.startswith("meta_")}
    return Policy(
        game=text("game"),
        family=text("family"),
        obs_size=obs_size,
        n_actions=n_actions,
        obs_layout=text("obs_layout"),
        action_labels=text("action_labels"),
        layers=layers,
        activation=activation,
        mean=mean,
        scale=scale,
        meta=meta,
    )


POLICIES = Path(__file__).resolve().parent / "policies"
"""The trained policies the package ships, one file per game id: ``policies/GAME.npz``."""


def packaged_policy(game_id: str) -> Path | None:
    """The policy file the package ships for ``game_id``, if there is one."""
    return POLICIES / f"{game_id}.npz" if game_id in packaged_games() else None


@functools.cache
def packaged_games() -> tuple[str, ...]:
    """The game ids the package ships a policy for (what the ``learned`` bot plays), sorted.
    (Looked up once: every bot made asks, a simulation makes four a game.)"""
    return tuple(sorted(p.stem for p in POLICIES.glob("*.npz")))


# One load per file (and version of it on disk): a simulation makes a bot per seat per game.
_CACHE: dict[tuple[str, float, int], Policy] = {}


def cached_policy(path: str) -> Policy:
    """:func:`load_policy`, reusing the last load of an unchanged file."""
    try:
        st = os.stat(path)
    except OSError:
        return load_policy(path)  # raises with the reason
    key = (os.path.abspath(path), st.st_mtime, st.st_size)
    if key not in _CACHE:
        _CACHE.clear()
        _CACHE[key] = load_policy(path)
    return _CACHE[key]


class PolicyBot(Bot):
    """Plays the best-scored legal action of a :class:`Policy` (or samples, ``sample=True``).

    A decision observes the position and runs the network only when there is a choice: the
    legal indices are read off the legal actions, and a single one is played as it is (the
    policy's pick over one index, whatever the scores). The game's observer and action table
    are looked up once a game (the state object the bot last saw; the family shares one of
    each per edition), the policy checked against them once a process: until December 2026
    every decision made the classic action table afresh, 200 µs, more than the rest of the
    decision four times over (benchmarks/README.md, "What one decision of each bot costs").
    """

    name = "policy"

    def __init__(self, seed: int, policy: Policy, sample: bool = False, where: str = "") -> None:
        super().__init__(seed)
        self.policy = policy
        self.sample = sample
        self.where = where or "the policy"
        self._checked: str | None = None  # the game id already checked
        self._game: GameState | None = None  # the state the tables below are for
        self._tables: tuple[Observer, ActionEncoding] | None = None

    def check_game(self, state: GameState) -> None:
        """``ValueError`` when this bot's policy was trained for another game (or table)."""
        self.policy.check_state(state, self.where)
        self._checked = state.game_id

    def tables(self, state: GameState) -> tuple[Observer, ActionEncoding]:
        """The observer and the action encoding of ``state``'s game (checked against the
        policy the first time the bot meets the game)."""
        if state is not self._game or self._tables is None:
            if self._checked != state.game_id:
                self.check_game(state)
            fam = family_of_state(state)
            self._tables = (fam.observer(state), fam.encoding(state))
            self._game = state
        return self._tables

    def choose(self, state: GameState) -> Action:
        import numpy as np

        observer, encoding = self.tables(state)
        # The legal indices in order, as the mask's nonzero entries list them, read off the
        # legal actions (an array for the mask costs more than the lookups).
        legal = sorted(
            {i for a in state.legal_actions() if (i := encoding.try_encode(state, a)) >= 0}
        )
        if not legal:  # every legal action beyond the table (cannot happen today)
            return state.legal_actions()[0]
        # The bot's own stream, one draw a decision with a legal index: same seed, same games.
        u = self.rng.next64() / 2.0**64 if self.sample else 0.0
        if len(legal) == 1:  # the only choice, whatever the scores: none computed
            return encoding.decode(state, legal[0])
        z = self.policy.scores(observer.observe(state, state.current_player()))[legal]
        if self.sample:
            p = np.exp(z - z.max())
            cumulative = np.cumsum(p / p.sum())
            k = min(int(np.searchsorted(cumulative, u, side="right")), len(legal) - 1)
        else:
            k = int(np.argmax(z))  # ties: the lowest index, deterministic
        return encoding.decode(state, legal[k])


def policy_bot(family_name: str) -> Any:
    """The ``policy:FILE[:sample]`` factory for ``family_name``'s games."""

    def factory(seed: int, argument: str) -> Bot:
        if not argument:
            raise ValueError("the policy bot needs a policy file: policy:FILE")
        path, sample = argument, False
        if argument.endswith(":sample"):
            path, sample = argument[: -len(":sample")], True
        from meeple.extras import need

        need("rl", "the policy bot", ("numpy",))
        policy = cached_policy(path)
        if policy.family != family_name:
            raise ValueError(
                f"{path}: the policy plays {policy.game} ({policy.family}), "
                f"not a {family_name} game"
            )
        return PolicyBot(seed, policy, sample, where=path)

    return factory


class LearnedBot(PolicyBot):
    """``learned``: the policy the package ships for the game it plays (:func:`packaged_policy`),
    chosen again when it is seated in another game; a game without one is refused with the
    games that have one."""

    name = "learned"

    def check_game(self, state: GameState) -> None:
        if self.policy.game != state.game_id:
            path = packaged_policy(state.game_id)
            if path is None:
                raise ValueError(
                    f"the learned bot has no policy for {state.game_id}; it plays "
                    f"{', '.join(packaged_games())}"
                )
            self.policy, self.where = cached_policy(str(path)), f"the learned bot ({path.name})"
        super().check_game(state)


def learned_bot(games: list[str]) -> Any:
    """The ``learned[:sample]`` factory of a family whose games ``games`` have a packaged
    policy (the first of them until the bot meets its game)."""

    def factory(seed: int, argument: str) -> Bot:
        if argument not in ("", "sample"):
            raise ValueError(f"learned takes no file (learned or learned:sample), not {argument!r}")
        from meeple.extras import need

        need("rl", "the learned bot", ("numpy",))
        path = packaged_policy(games[0])
        assert path is not None  # (listed because the file is there)
        where = f"the learned bot ({path.name})"
        return LearnedBot(seed, cached_policy(str(path)), argument == "sample", where=where)

    return factory
