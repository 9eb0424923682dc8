"""Train a policy for ``policy:FILE`` (docs/RL.md, "Training a policy bot").

Three stages, each writing a policy file (``meeple.bots.policy``) that ``--bots policy:FILE``
plays with NumPy alone:

``bc`` (NumPy only): behaviour cloning. Teacher bots (``standard`` by default; any bot kind,
``mcts:32`` for a stronger and slower teacher) play whole games; every decision of a seat with
more than one legal action is recorded as (observation, legal mask, the teacher's index), with
the observation and encoding of ``meeple.rl``. A multilayer perceptron is fitted to it by the
masked cross-entropy (a softmax over the legal actions only) with Adam.

    .venv/bin/python examples/train_policy.py bc --games 400 --out policy.npz

``dagger`` (NumPy only): DAgger. The policy plays one seat against ``standard`` bots, the teacher
labels every position it reaches (on a clone of the state), and the policy is fitted again to
everything labelled so far, for a few rounds. ``--offers`` (Monopoly, also for ``bc``) labels
with a fresh teacher per position and trade offers only when they would be accepted
(:class:`Labeller`).

    .venv/bin/python examples/train_policy.py dagger --init policy.npz --offers --out dagger.npz

``ppo`` (needs ``pip install 'meeple[train]'`` and ``torch==2.13.0`` for CPU): fine-tunes
with sb3-contrib's MaskablePPO against opponent bots in ``meeple.rl.gym_env`` (the ``shaped``
reward), starting from a policy file (``--init``, e.g. the ``bc`` result) or from scratch,
and exports the actor back to a policy file.

    .venv/bin/python examples/train_policy.py ppo --init policy.npz --minutes 60 --out ppo.npz

Measure a policy file with ``meeple simulate`` (docs/RL.md, "Results").
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from meeple.bots.base import make_bot
from meeple.bots.policy import Policy, load_policy, policy_for, save_policy
from meeple.kernel.family import family_of_state, new_game
from meeple.kernel.protocol import Action
from meeple.kernel.rng import derive_seed

F32 = npt.NDArray[np.float32]
Data = tuple[F32, npt.NDArray[np.int8], npt.NDArray[np.int32]]  # observations, masks, choices


def teacher_index(encoding: Any, state: Any, action: Any, mask: npt.NDArray[np.int8]) -> int:
    """The index of the teacher's ``action``; for an amount off the table's ladders (the
    standard bot bids a quarter of the way to its limit, and pays for a deed in cash at a
    premium: ``bid 137``, ``trade_cash 560``), the legal index of the same kind whose amount is
    nearest (ties: the smaller); -1 when there is none."""
    index: int = encoding.try_encode(state, action)
    if index >= 0 or len(action.args) != 1 or not isinstance(action.args[0], int):
        return index
    best, gap = -1, 0
    for i in np.flatnonzero(mask):
        other = encoding.decode(state, int(i))
        if other.kind != action.kind or len(other.args) != 1:
            continue
        d = abs(other.args[0] - action.args[0])
        if best < 0 or d < gap or (d == gap and other.args[0] < action.args[0]):
            best, gap = int(i), d
    return best


MAX_OFFERS = 8
"""The most trade offers :class:`Labeller` tries in one position before it takes the teacher's
next choice that is not an offer."""


class Labeller:
    """The teacher's choice in a position, as a function of the position alone.

    A bot remembers things the observation does not show: the standard bot makes each trade
    offer once for the same owners of the deeds, and, refused, moves on. Labelled by such a
    bot, the same position reads "offer" once and "pass" a hundred times after, and a policy
    fitted to it never offers. So every position is labelled by a fresh teacher (the same kind
    and seed), and with ``offers=True`` (Monopoly) a trade offer it would start is first tried
    on a clone of the state: drafted by the teacher and answered by a fresh ``responder`` bot
    in the partner's seat. Refused, the teacher is asked again (it now knows the offer was
    made: its next offer, or no offer), up to :data:`MAX_OFFERS` times; its cash is tried as a
    policy can offer it (:meth:`expressible`). Accepted, the label is
    the offer's start, and the rest of its draft labels the next positions for as long as they
    are legal (the policy follows it); the first position where it is not ends the script."""

    def __init__(self, teacher: str, family: str, seed: int, responder: str, offers: bool):
        self.teacher, self.family, self.seed = teacher, family, seed
        self.responder, self.offers = responder, offers
        self.script: list[Any] = []  # the rest of an accepted offer's draft
        self.count = 0  # positions labelled (each fresh teacher has its own seed)

    @staticmethod
    def expressible(state: Any, action: Any) -> Any:
        """``action``, or for a trade's cash off the ladder (the standard bot pays 4.2 times
        a deed's price), the ladder's amount a policy can offer that is nearest above it in
        the partner's favour (the largest legal one when none is above): an offer is tried as
        a policy can make it."""
        if action.kind != "trade_cash":
            return action
        encoding = family_of_state(state).encoding(state)
        if encoding.try_encode(state, action) >= 0:
            return action
        amounts = [
            encoding.decode(state, int(i)).args[0]
            for i in np.flatnonzero(encoding.mask(state))
            if encoding.labels[int(i)].startswith("trade_cash")
        ]
        above = [a for a in amounts if a >= action.args[0]]
        return Action(action.kind, (min(above) if above else max(amounts),))

    def __call__(self, state: Any) -> Any:
        """The label of ``state`` (for the seat to act); the game is not touched."""
        if self.script:
            step = self.script.pop(0)
            if state.is_legal(step):
                return step
            self.script = []
        self.count += 1
        bot = make_bot(self.teacher, self.family, derive_seed(self.seed, self.count))
        me = state.current_player()
        action = bot.choose(state.clone())
        for _ in range(MAX_OFFERS):
            if not self.offers or action.kind != "trade":
                return action
            trial = state.clone()
            steps = [action]
            trial.apply(action)
            while trial.current_player() == me and steps[-1].kind not in ("propose", "cancel"):
                steps.append(self.expressible(trial, bot.choose(trial)))
                trial.apply(steps[-1])
            if steps[-1].kind == "propose":
                answer = make_bot(self.responder, self.family, self.seed).choose(trial)
                if answer.kind == "accept":
                    self.script = steps[1:]
                    return action
            action = bot.choose(state.clone())  # refused: the teacher's next choice
        return action


def collect(job: tuple[str, str, int, int, int, int, bool]) -> Data:
    """Teacher games ``start .. start + games - 1``: every real decision of every seat, the
    label the teacher's choice (with ``offers``, a :class:`Labeller`'s: the games are the
    teacher's, offers refused included, as the policy will meet them)."""
    game, teacher, players, seed, start, games, offers = job
    xs: list[F32] = []
    masks: list[npt.NDArray[np.int8]] = []
    ys: list[int] = []
    for i in range(start, start + games):
        state = new_game(game, players, derive_seed(seed, i))
        state.record_events = False
        fam = family_of_state(state)
        bots = [make_bot(teacher, fam.name, derive_seed(seed, i, 1 + p)) for p in range(players)]
        labellers = [
            Labeller(teacher, fam.name, derive_seed(seed, i, 1 + p), teacher, True)
            for p in range(players)
        ]
        observer, encoding = fam.observer(state), fam.encoding(state)
        while not state.is_terminal():
            seat = state.current_player()
            action = bots[seat].choose(state)
            legal = state.legal_actions()
            if len(legal) > 1:  # a forced move teaches nothing
                mask = encoding.mask(state)
                label = labellers[seat](state) if offers else action
                index = teacher_index(encoding, state, label, mask)
                if index >= 0:
                    xs.append(observer.observe(state, seat))
                    masks.append(mask)
                    ys.append(index)
            state.apply(action)
    return np.array(xs, np.float32), np.array(masks, np.int8), np.array(ys, np.int32)


def collect_all(
    game: str, teacher: str, players: int, seed: int, games: int, workers: int, offers: bool
) -> Data:
    """:func:`collect` split over ``workers`` processes (the same data for any worker count)."""
    chunk = -(-games // workers)
    jobs = [
        (game, teacher, players, seed, s, min(chunk, games - s), offers)
        for s in range(0, games, chunk)
    ]
    if workers == 1:
        parts = [collect(j) for j in jobs]
    else:
        with ProcessPoolExecutor(workers) as pool:
            parts = list(pool.map(collect, jobs))
    return (
        np.concatenate([p[0] for p in parts]),
        np.concatenate([p[1] for p in parts]),
        np.concatenate([p[2] for p in parts]),
    )


class MLP:
    """A tanh MLP with a masked softmax head, trained by hand-written backpropagation."""

    def __init__(self, sizes: list[int], rng: np.random.Generator) -> None:
        self.w = [
            rng.normal(0, 1 / np.sqrt(a), (a, b)).astype(np.float32)
            for a, b in itertools.pairwise(sizes)
        ]
        self.b = [np.zeros(b, np.float32) for b in sizes[1:]]
        self.w[-1] *= 0.01  # start near uniform over the legal actions
        params = self.w + self.b
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]
        self.t = 0

    def forward(self, x: F32) -> tuple[list[F32], F32]:
        acts = [x]
        for i, (w, b) in enumerate(zip(self.w, self.b, strict=True)):
            x = x @ w + b
            if i < len(self.w) - 1:
                x = np.tanh(x)
            acts.append(x)
        return acts, x

    def step(
        self,
        x: F32,
        mask: npt.NDArray[np.int8],
        y: npt.NDArray[np.int32],
        lr: float,
        weight: F32 | None = None,
    ) -> float:
        """One Adam step on a minibatch; returns its mean cross-entropy (weighted by
        ``weight``, one per decision, when given)."""
        acts, z = self.forward(x)
        z = np.where(mask > 0, z, -1e9)
        z = z - z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        n = len(y)
        w = np.ones(n, np.float32) if weight is None else weight
        w = w / w.sum()
        loss = float(-(w * np.log(p[np.arange(n), y] + 1e-12)).sum())
        g = p
        g[np.arange(n), y] -= 1.0
        g *= w[:, None]  # d loss / d logits (illegal logits get p = 0: no gradient)
        grads_w: list[F32] = []
        grads_b: list[F32] = []
        for i in range(len(self.w) - 1, -1, -1):
            grads_w.append(acts[i].T @ g)
            grads_b.append(g.sum(axis=0))
            if i > 0:
                g = (g @ self.w[i].T) * (1 - acts[i] ** 2)
        grads = grads_w[::-1] + grads_b[::-1]
        self.t += 1
        for k, (param, grad) in enumerate(zip(self.w + self.b, grads, strict=True)):
            self.m[k] = 0.9 * self.m[k] + 0.1 * grad
            self.v[k] = 0.999 * self.v[k] + 0.001 * grad**2
            m_hat = self.m[k] / (1 - 0.9**self.t)
            v_hat = self.v[k] / (1 - 0.999**self.t)
            param -= (lr * m_hat / (np.sqrt(v_hat) + 1e-8)).astype(np.float32)
        return loss

    def accuracy(self, x: F32, mask: npt.NDArray[np.int8], y: npt.NDArray[np.int32]) -> float:
        _, z = self.forward(x)
        z = np.where(mask > 0, z, -np.inf)
        return float((z.argmax(axis=1) == y).mean())


def bake(
    w: list[F32], b: list[F32], mean: F32, scale: F32
) -> list[tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]]:
    """The layers with the input normalisation folded into the first (the file then needs no
    ``mean``/``scale``, and PPO fine-tunes plain layers)."""
    layers = [(wi.astype(np.float64), bi.astype(np.float64)) for wi, bi in zip(w, b, strict=True)]
    w0, b0 = layers[0]
    layers[0] = (w0 / scale[:, None], b0 - (mean / scale) @ w0)
    return layers


def load_data(paths: list[Path]) -> Data:
    """The decisions kept in ``paths`` (``--data`` files), concatenated."""
    parts = []
    for d in paths:
        with np.load(d) as saved:
            parts.append((saved["x"], saved["mask"], saved["y"]))
    return join(parts)


def join(parts: list[Data]) -> Data:
    """Data sets concatenated, decision by decision."""
    return (
        np.concatenate([p[0] for p in parts]),
        np.concatenate([p[1] for p in parts]),
        np.concatenate([p[2] for p in parts]),
    )


def save_data(data: Data, path: Path) -> None:
    """Keep decisions for a rerun (``--data``)."""
    with open(path, "wb") as f:
        np.savez(f, x=data[0], mask=data[1], y=data[2])


def normaliser(x: F32) -> tuple[F32, F32]:
    """The mean and scale of every observation value (a constant value: divided by a small
    number, times 0)."""
    return x.mean(axis=0), x.std(axis=0) + np.float32(1e-3)


def unbake(policy: Policy, mean: F32, scale: F32) -> tuple[list[F32], list[F32]]:
    """The inverse of :func:`bake`: ``policy``'s layers as weights over the observation
    normalised by ``mean`` and ``scale`` (to go on training a policy file)."""
    w = [np.asarray(wi, np.float64) for wi, _ in policy.layers]
    b = [np.asarray(bi, np.float64) for _, bi in policy.layers]
    if policy.mean is not None:  # a file with its own normalisation: fold it in first
        b[0] = b[0] - (policy.mean / policy.scale) @ w[0]
        w[0] = w[0] / policy.scale[:, None]
    w[0] = w[0] * scale[:, None]
    b[0] = b[0] + (mean / scale) @ w[0]
    return [wi.astype(np.float32) for wi in w], [bi.astype(np.float32) for bi in b]


def label_weights(y: npt.NDArray[np.int32], weights: list[str], game: str, players: int) -> F32:
    """One weight per decision: ``KIND=W`` in ``weights`` gives the teacher's choices of that
    action kind (the first word of the action table's label: ``trade``, ``build``) weight
    ``W``, every other choice 1. Rare choices that decide games (opening a trade offer among
    thousands of windows closed with ``pass``) then count in the fit as much as they matter."""
    out = np.ones(len(y), np.float32)
    if not weights:
        return out
    probe = new_game(game, players, 0)
    labels = family_of_state(probe).encoding(probe).labels
    kinds = np.array([label.split()[0] for label in labels])
    per_index = np.ones(len(labels), np.float32)
    for item in weights:
        kind, _, w = item.partition("=")
        if kind not in kinds:
            raise SystemExit(f"--weight {item}: no action kind {kind!r} in {game}")
        per_index[kinds == kind] = float(w)
    out = per_index[y]
    return out


def fit(
    net: MLP,
    data: Data,
    mean: F32,
    scale: F32,
    epochs: int,
    args: argparse.Namespace,
    rng: np.random.Generator,
    start: float,
) -> float:
    """``epochs`` passes of Adam over 90% of ``data``; returns the held-out agreement with
    the teacher (the other 10%, drawn from ``rng``)."""
    x, mask, y = data
    xn = ((x - mean) / scale).astype(np.float32)
    weight = label_weights(y, args.weight, args.game, args.players)
    order = rng.permutation(len(y))
    held = order[: len(y) // 10]
    train = order[len(y) // 10 :]
    acc = net.accuracy(xn[held], mask[held], y[held])
    for epoch in range(epochs):
        rng.shuffle(train)
        losses = []
        for s in range(0, len(train), args.batch):
            idx = train[s : s + args.batch]
            losses.append(net.step(xn[idx], mask[idx], y[idx], args.lr, weight[idx]))
        acc = net.accuracy(xn[held], mask[held], y[held])
        print(
            f"epoch {epoch + 1}: loss {np.mean(losses):.3f}, held-out agreement {acc:.1%} "
            f"({time.perf_counter() - start:.0f} s)",
            flush=True,
        )
    return acc


def cmd_bc(args: argparse.Namespace) -> None:
    start = time.perf_counter()
    if args.data and all(d.exists() for d in args.data):  # teacher games already played
        data = load_data(args.data)
    else:
        data = collect_all(
            args.game, args.teacher, args.players, args.seed, args.games, args.workers, args.offers
        )
        if args.data:
            save_data(data, args.data[0])
    print(
        f"{len(data[2])} decisions from {args.games} {args.teacher} games "
        f"({time.perf_counter() - start:.0f} s)",
        flush=True,
    )
    rng = np.random.default_rng(args.seed)
    mean, scale = normaliser(data[0])
    probe = new_game(args.game, args.players, 0)
    fam = family_of_state(probe)
    sizes = [fam.observer(probe).size, *args.hidden, fam.encoding(probe).size]
    net = MLP(sizes, rng)
    fit(net, data, mean, scale, args.epochs, args, rng, start)
    policy = policy_for(
        probe,
        bake(net.w, net.b, mean, scale),
        meta={"trainer": f"bc teacher={args.teacher} games={args.games} epochs={args.epochs}"},
    )
    save_policy(policy, args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KB)")


Job = tuple[str, str, str, str, int, int, int, int, bool]
"""A :func:`learner_games` job: game, policy file, teacher, opponent, players, seed, first
game, games, whether trade offers are tried (:class:`Labeller`)."""


def learner_games(job: Job) -> tuple[Data, int]:
    """DAgger's games ``start .. start + games - 1``: the policy in one seat (seat ``i % players``
    in game ``i``), ``opponent`` bots in the others; every real decision of the policy's seat is
    labelled with the teacher's choice in that position. Returns the labelled decisions and how
    many games the policy won alone.

    The teacher (:class:`Labeller`) has its own seeds and decides on clones of the state: its
    search and its random streams never touch the game, so the games are those the policy
    plays without it."""
    game, policy, teacher, opponent, players, seed, start, games, offers = job
    xs: list[F32] = []
    masks: list[npt.NDArray[np.int8]] = []
    ys: list[int] = []
    wins = 0
    for i in range(start, start + games):
        state = new_game(game, players, derive_seed(seed, i))
        state.record_events = False
        fam = family_of_state(state)
        me = i % players
        bots = [make_bot(opponent, fam.name, derive_seed(seed, i, 1 + p)) for p in range(players)]
        bots[me] = make_bot(f"policy:{policy}", fam.name, derive_seed(seed, i, 1 + me))
        label = Labeller(teacher, fam.name, derive_seed(seed, i, 2**20), opponent, offers)
        observer, encoding = fam.observer(state), fam.encoding(state)
        while not state.is_terminal():
            seat = state.current_player()
            if seat == me and len(state.legal_actions()) > 1:
                mask = encoding.mask(state)
                index = teacher_index(encoding, state, label(state), mask)
                if index >= 0:
                    xs.append(observer.observe(state, seat))
                    masks.append(mask)
                    ys.append(index)
            state.apply(bots[seat].choose(state))
        result = state.result()
        wins += result is not None and result.winners == [me]
    data = (np.array(xs, np.float32), np.array(masks, np.int8), np.array(ys, np.int32))
    return data, wins


def cmd_dagger(args: argparse.Namespace) -> None:
    """DAgger (Ross, Gordon and Bagnell, 2011): the policy plays the target setting, the
    teacher says what it would have done in every position the policy reached, the policy is
    fitted again to everything labelled so far."""
    start = time.perf_counter()
    init = load_policy(args.init)
    probe = new_game(args.game, args.players, 0)
    parts: list[Data] = [load_data(args.data)] if args.data else []
    rng = np.random.default_rng(args.seed)
    current = args.out.with_name(args.out.stem + ".current.npz")
    save_policy(init, current)
    net: MLP | None = None
    mean = scale = np.zeros(0, np.float32)
    for it in range(args.iterations):
        first = args.first + it * args.games
        chunk = -(-args.games // args.workers)
        jobs: list[Job] = [
            (
                args.game,
                str(current),
                args.teacher,
                args.opponents,
                args.players,
                args.seed,
                first + s,
                min(chunk, args.games - s),
                args.offers,
            )
            for s in range(0, args.games, chunk)
        ]
        if args.workers == 1:
            played = [learner_games(j) for j in jobs]
        else:
            with ProcessPoolExecutor(args.workers) as pool:
                played = list(pool.map(learner_games, jobs))
        new = join([d for d, _ in played])
        wins = sum(w for _, w in played)
        if net is None:  # the normalisation of the first data, kept for every refit
            mean, scale = normaliser(join([*parts, new])[0])
            net = MLP([init.obs_size, *[w.shape[1] for w, _ in init.layers]], rng)
            net.w, net.b = unbake(init, mean, scale)
        xn = ((new[0] - mean) / scale).astype(np.float32)
        agree = net.accuracy(xn, new[1], new[2])
        print(
            f"iteration {it + 1}: the policy won {wins} of {args.games} games; "
            f"{len(new[2])} positions, agreeing with {args.teacher} on {agree:.1%} "
            f"({time.perf_counter() - start:.0f} s)",
            flush=True,
        )
        parts.append(new)
        data = join(parts)
        if args.keep:
            save_data(data, args.keep)
        fit(net, data, mean, scale, args.epochs, args, rng, start)
        trainer = (
            f"dagger teacher={args.teacher} opponents={args.opponents} "
            f"iterations={it + 1} games={args.games} from {init.meta.get('trainer', args.init)}"
        )
        policy = policy_for(probe, bake(net.w, net.b, mean, scale), meta={"trainer": trainer})
        save_policy(policy, current)
        save_policy(policy, args.out)
    current.unlink(missing_ok=True)
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KB)")


def cmd_ppo(args: argparse.Namespace) -> None:
    # Imported by name: the training libraries are optional (not installed for `make lint`).
    try:
        torch: Any = importlib.import_module("torch")
        sb3c: Any = importlib.import_module("sb3_contrib")
        wrappers: Any = importlib.import_module("sb3_contrib.common.wrappers")
        vec: Any = importlib.import_module("stable_baselines3.common.vec_env")
    except ImportError as exc:
        sys.exit(f"ppo needs the train extra and torch: {exc}")
    import gymnasium as gym

    MaskablePPO, ActionMasker = sb3c.MaskablePPO, wrappers.ActionMasker
    DummyVecEnv, SubprocVecEnv = vec.DummyVecEnv, vec.SubprocVecEnv
    import meeple.rl

    torch.set_num_threads(1)
    init: Policy | None = load_policy(args.init) if args.init else None
    hidden = [w.shape[1] for w, _ in init.layers[:-1]] if init else list(args.hidden)

    def make() -> gym.Env[Any, Any]:
        env = meeple.rl.gym_env(
            args.game,
            opponents=args.opponents,
            players=args.players,
            reward="shaped",
            max_turns=args.max_turns,
        )
        flat = gym.wrappers.TransformObservation(
            env, lambda o: o["observation"], cast(Any, env.observation_space)["observation"]
        )
        masked: gym.Env[Any, Any] = ActionMasker(flat, lambda e: e.unwrapped.action_masks())
        return masked

    makers: list[Callable[[], gym.Env[Any, Any]]] = [make] * args.envs
    venv = SubprocVecEnv(makers) if args.envs > 1 else DummyVecEnv(makers)
    model = MaskablePPO(
        "MlpPolicy",
        venv,
        seed=args.seed,
        n_steps=args.n_steps,
        batch_size=256,
        learning_rate=args.lr,
        gamma=0.999,
        ent_coef=0.0,
        clip_range=0.1,
        policy_kwargs={
            "net_arch": {"pi": hidden, "vf": [128, 128]},
            "activation_fn": torch.nn.Tanh,
        },
        verbose=1,
    )
    actor = [m for m in model.policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    if init is not None:  # the actor starts as the given policy (the no-op's row: zero)
        with torch.no_grad():
            for lin, (w, b) in zip(actor, init.layers[:-1], strict=True):
                lin.weight.copy_(torch.tensor(w.T)), lin.bias.copy_(torch.tensor(b))
            w, b = init.layers[-1]
            head = model.policy.action_net
            head.weight.zero_(), head.bias.fill_(-20.0)
            head.weight[: w.shape[1]] = torch.tensor(w.T)
            head.bias[: w.shape[1]] = torch.tensor(b)
    deadline = time.perf_counter() + 60 * args.minutes
    probe = new_game(args.game, args.players, 0)

    def export() -> None:
        layers = [
            (lin.weight.detach().numpy().T.copy(), lin.bias.detach().numpy().copy())
            for lin in actor
        ]
        n = family_of_state(probe).encoding(probe).size  # the no-op's row is dropped
        head = model.policy.action_net
        layers.append(
            (head.weight.detach().numpy()[:n].T.copy(), head.bias.detach().numpy()[:n].copy())
        )
        steps = model.num_timesteps
        save_policy(
            policy_for(probe, layers, meta={"trainer": f"maskable-ppo steps={steps}"}), args.out
        )

    # The critic starts from nothing: while it learns the values, its noisy advantages would
    # pull the cloned actor off course, so the actor is frozen for the first --critic-warmup
    # minutes (Adam skips parameters without a gradient).
    frozen = [*model.policy.mlp_extractor.policy_net.parameters(), *head_params(model)]
    warm_until = time.perf_counter() + 60 * args.critic_warmup
    for p in frozen:
        p.requires_grad_(args.critic_warmup <= 0)
    while time.perf_counter() < deadline:
        if time.perf_counter() >= warm_until:
            for p in frozen:
                p.requires_grad_(True)
        model.learn(args.n_steps * args.envs, reset_num_timesteps=False)
        export()  # after every rollout: a run stopped early still leaves its latest policy
    print(f"wrote {args.out} after {model.num_timesteps} steps")


def head_params(model: Any) -> list[Any]:
    """The parameters of the actor's output layer."""
    return list(model.policy.action_net.parameters())


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    for name in ("bc", "dagger", "ppo"):
        p = sub.add_parser(name)
        p.add_argument("--game", default="classic")
        p.add_argument("--players", type=int, default=4)
        p.add_argument("--seed", type=int, default=0)
        p.add_argument("--out", type=Path, required=True)
        p.add_argument("--hidden", type=int, nargs="*", default=[128, 128])
    for name in ("bc", "dagger"):
        p = sub.choices[name]
        p.add_argument("--teacher", default="standard", help="the bot kind to imitate")
        p.add_argument("--batch", type=int, default=256)
        p.add_argument("--lr", type=float, default=1e-3)
        p.add_argument("--workers", type=int, default=2)
        p.add_argument(
            "--weight",
            nargs="*",
            default=[],
            metavar="KIND=W",
            help="weigh the teacher's choices of action KIND by W in the fit (default 1)",
        )
        p.add_argument(
            "--offers",
            action="store_true",
            help="Monopoly: a fresh teacher per position, and trade offers labelled only when "
            "accepted (class Labeller)",
        )
    bc = sub.choices["bc"]
    bc.add_argument("--games", type=int, default=400)
    bc.add_argument("--epochs", type=int, default=10)
    bc.add_argument(
        "--data",
        type=Path,
        nargs="*",
        default=[],
        help="keep the teacher's decisions here (.npz); when every file given exists, "
        "train on them all instead of playing games",
    )
    dagger = sub.choices["dagger"]
    dagger.add_argument("--init", type=Path, required=True, help="the policy file to start from")
    dagger.add_argument(
        "--data", type=Path, nargs="*", default=[], help="decisions labelled before (.npz)"
    )
    dagger.add_argument("--keep", type=Path, default=None, help="keep every decision here")
    dagger.add_argument("--opponents", default="standard", help="the bot kind of the others")
    dagger.add_argument("--iterations", type=int, default=4)
    dagger.add_argument("--games", type=int, default=50, help="games per iteration")
    dagger.add_argument("--epochs", type=int, default=2, help="passes over the data per refit")
    dagger.add_argument(
        "--first", type=int, default=0, help="the first game's number (another run, other games)"
    )
    ppo = sub.choices["ppo"]
    ppo.add_argument("--init", type=Path, default=None, help="start from this policy file")
    ppo.add_argument("--opponents", default="standard")
    ppo.add_argument("--minutes", type=float, default=100)
    ppo.add_argument("--envs", type=int, default=2)
    ppo.add_argument("--n-steps", type=int, default=2048)
    ppo.add_argument("--lr", type=float, default=1e-4)
    ppo.add_argument("--max-turns", type=int, default=1000)
    ppo.add_argument(
        "--critic-warmup", type=float, default=0.0, help="minutes with the actor frozen"
    )
    args = ap.parse_args(argv)
    {"bc": cmd_bc, "dagger": cmd_dagger, "ppo": cmd_ppo}[args.command](args)


if __name__ == "__main__":
    main()
