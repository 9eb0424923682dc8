"""Train a policy for ``policy:FILE`` (docs/RL.md, "Training a policy bot").

Two stages, each writing a policy file (``meeple.bots.policy``) that ``--bots policy:FILE``
plays with NumPy alone:

``bc`` (NumPy only): behaviour cloning. Teacher bots (``standard`` by default; any bot kind,
``mcts:32`` for a stronger and slower teacher) play whole games; every decision of a seat with
more than one legal action is recorded as (observation, legal mask, the teacher's index), with
the observation and encoding of ``meeple.rl``. A multilayer perceptron is fitted to it by the
masked cross-entropy (a softmax over the legal actions only) with Adam.

    .venv/bin/python examples/train_policy.py bc --games 400 --out policy.npz

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
from meeple.kernel.rng import derive_seed

F32 = npt.NDArray[np.float32]
Data = tuple[F32, npt.NDArray[np.int8], npt.NDArray[np.int32]]  # observations, masks, choices


def collect(job: tuple[str, str, int, int, int, int]) -> Data:
    """Teacher games ``start .. start + games - 1``: every real decision of every seat."""
    game, teacher, players, seed, start, games = job
    xs: list[F32] = []
    masks: list[npt.NDArray[np.int8]] = []
    ys: list[int] = []
    for i in range(start, start + games):
        state = new_game(game, players, derive_seed(seed, i))
        state.record_events = False
        fam = family_of_state(state)
        bots = [make_bot(teacher, fam.name, derive_seed(seed, i, 1 + p)) for p in range(players)]
        observer, encoding = fam.observer(state), fam.encoding(state)
        while not state.is_terminal():
            seat = state.current_player()
            action = bots[seat].choose(state)
            legal = state.legal_actions()
            if len(legal) > 1:  # a forced move teaches nothing
                index = encoding.try_encode(state, action)
                if index >= 0:  # a teacher's amount off the ladders has no index: skipped
                    xs.append(observer.observe(state, seat))
                    masks.append(encoding.mask(state))
                    ys.append(index)
            state.apply(action)
    return np.array(xs, np.float32), np.array(masks, np.int8), np.array(ys, np.int32)


def collect_all(game: str, teacher: str, players: int, seed: int, games: int, workers: int) -> Data:
    """:func:`collect` split over ``workers`` processes (the same data for any worker count)."""
    chunk = -(-games // workers)
    jobs = [
        (game, teacher, players, seed, s, min(chunk, games - s)) for s in range(0, games, chunk)
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
        self, x: F32, mask: npt.NDArray[np.int8], y: npt.NDArray[np.int32], lr: float
    ) -> float:
        """One Adam step on a minibatch; returns its mean cross-entropy."""
        acts, z = self.forward(x)
        z = np.where(mask > 0, z, -1e9)
        z = z - z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        n = len(y)
        loss = float(-np.log(p[np.arange(n), y] + 1e-12).mean())
        g = p
        g[np.arange(n), y] -= 1.0
        g /= n  # d loss / d logits (illegal logits get p = 0: no gradient)
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


def cmd_bc(args: argparse.Namespace) -> None:
    start = time.perf_counter()
    if args.data and all(d.exists() for d in args.data):  # teacher games already played
        parts = []
        for d in args.data:
            with np.load(d) as saved:
                parts.append((saved["x"], saved["mask"], saved["y"]))
        x, mask, y = (np.concatenate([p[k] for p in parts]) for k in range(3))
    else:
        x, mask, y = collect_all(
            args.game, args.teacher, args.players, args.seed, args.games, args.workers
        )
        if args.data:
            with open(args.data[0], "wb") as f:
                np.savez(f, x=x, mask=mask, y=y)
    print(
        f"{len(y)} decisions from {args.games} {args.teacher} games "
        f"({time.perf_counter() - start:.0f} s)",
        flush=True,
    )
    rng = np.random.default_rng(args.seed)
    mean = x.mean(axis=0)
    scale = x.std(axis=0) + 1e-3  # constant features: divided by a small number, times 0
    xn = ((x - mean) / scale).astype(np.float32)
    order = rng.permutation(len(y))
    held = order[: len(y) // 10]
    train = order[len(y) // 10 :]
    probe = new_game(args.game, args.players, 0)
    fam = family_of_state(probe)
    sizes = [fam.observer(probe).size, *args.hidden, fam.encoding(probe).size]
    net = MLP(sizes, rng)
    for epoch in range(args.epochs):
        rng.shuffle(train)
        losses = []
        for s in range(0, len(train), args.batch):
            idx = train[s : s + args.batch]
            losses.append(net.step(xn[idx], mask[idx], y[idx], args.lr))
        acc = net.accuracy(xn[held], mask[held], y[held])
        print(
            f"epoch {epoch + 1}: loss {np.mean(losses):.3f}, held-out agreement {acc:.1%} "
            f"({time.perf_counter() - start:.0f} s)",
            flush=True,
        )
    policy = policy_for(
        probe,
        bake(net.w, net.b, mean, scale),
        meta={"trainer": f"bc teacher={args.teacher} games={args.games} epochs={args.epochs}"},
    )
    save_policy(policy, args.out)
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
    for name in ("bc", "ppo"):
        p = sub.add_parser(name)
        p.add_argument("--game", default="classic")
        p.add_argument("--players", type=int, default=4)
        p.add_argument("--seed", type=int, default=0)
        p.add_argument("--out", type=Path, required=True)
        p.add_argument("--hidden", type=int, nargs="*", default=[128, 128])
    bc = sub.choices["bc"]
    bc.add_argument("--teacher", default="standard", help="the bot kind to imitate")
    bc.add_argument("--games", type=int, default=400)
    bc.add_argument("--epochs", type=int, default=10)
    bc.add_argument("--batch", type=int, default=256)
    bc.add_argument("--lr", type=float, default=1e-3)
    bc.add_argument("--workers", type=int, default=2)
    bc.add_argument(
        "--data",
        type=Path,
        nargs="*",
        default=[],
        help="keep the teacher's decisions here (.npz); when every file given exists, "
        "train on them all instead of playing games",
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
    {"bc": cmd_bc, "ppo": cmd_ppo}[args.command](args)


if __name__ == "__main__":
    main()
