"""Train a masked linear softmax policy for classic Monopoly with NumPy only (REINFORCE).

The policy scores each legal action a as ``W[a] . [x, 1]`` (x: the observation vector of
``meeple.rl``) and samples from the softmax over the legal mask only; illegal actions never get
probability. REINFORCE (Williams, 1992) with the discounted return of the ``"shaped"`` reward
(the win/loss plus the change in net-worth share, docs/RL.md "Rewards"), normalised per batch
as the baseline, and Adam steps. Against three ``random`` bots it learns within a few hundred
games; the final win rates are measured with the greedy policy (the best-scored legal action)
on fresh seeds, against ``random`` and, when registered, against ``standard``.

    .venv/bin/python examples/train_masked_policy.py            # about three minutes, 2 cores
    .venv/bin/python examples/train_masked_policy.py --episodes 600 --out curve.png

Writes the learning curve (PNG) and prints the win rates.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import numpy.typing as npt

import meeple.rl
from meeple.bots.base import bot_kinds

Array = npt.NDArray[np.float64]
Step = tuple[npt.NDArray[np.intp], Array, int, Array]  # legal indices, features, choice, probs


def features(obs: dict[str, Any]) -> Array:
    """The observation vector with a constant 1 appended (the bias)."""
    return np.append(obs["observation"].astype(np.float64), 1.0)


def policy(weights: Array, x: Array, legal: npt.NDArray[np.intp]) -> Array:
    """Softmax over the legal actions' scores."""
    z = weights[legal] @ x
    z -= z.max()
    p: Array = np.exp(z)
    p /= p.sum()
    return p


def won(info: dict[str, Any], seat: int) -> float:
    """1 for a sole win, 1/k for a win shared by k, 0 otherwise (bankrupt or capped: 0), from
    the end-of-episode ``info`` (docs/RL.md, "Info")."""
    if info["result"] == "win":
        return 1.0
    if info["result"] == "draw":
        return 1.0 / len(info["game_result"]["winners"])
    return 0.0


def ending(env: meeple.rl.MeepleGymEnv) -> str:
    """How the learner's episode ended: ``win``, ``capped``, ``bankrupt`` or ``lost``."""
    r = env.game.result()
    if r is not None and r.end_reason != "turn_cap" and env.seat in r.winners:
        return "win"
    if not getattr(env.game, "alive", [True] * env.players)[env.seat]:
        return "bankrupt"
    return "lost" if env.game.is_terminal() and r and r.end_reason != "turn_cap" else "capped"


def play_episode(
    env: meeple.rl.MeepleGymEnv,
    weights: Array,
    seed: int,
    rng: np.random.Generator | None,
) -> tuple[list[Step], list[float], float]:
    """One game: sampled moves when ``rng`` is given, else greedy. (steps, rewards, win)."""
    obs, info = env.reset(seed=seed)
    steps: list[Step] = []
    rewards: list[float] = []
    done = False
    while not done:
        x = features(obs)
        legal = np.flatnonzero(obs["action_mask"])
        p = policy(weights, x, legal)
        k = int(rng.choice(len(legal), p=p)) if rng is not None else int(np.argmax(p))
        steps.append((legal, x, k, p))
        obs, reward, terminated, truncated, info = env.step(int(legal[k]))
        rewards.append(float(reward))
        done = terminated or truncated
    return steps, rewards, won(info, env.seat)


def returns(rewards: list[float], gamma: float) -> Array:
    """Discounted reward-to-go of every step."""
    out = np.zeros(len(rewards))
    acc = 0.0
    for i in range(len(rewards) - 1, -1, -1):
        acc = rewards[i] + gamma * acc
        out[i] = acc
    return out


class Adam:
    """Adam (Kingma and Ba, 2015) ascending the gradient."""

    def __init__(self, shape: tuple[int, ...], lr: float) -> None:
        self.lr = lr
        self.m = np.zeros(shape)
        self.v = np.zeros(shape)
        self.t = 0

    def step(self, params: Array, grad: Array) -> None:
        self.t += 1
        self.m = 0.9 * self.m + 0.1 * grad
        self.v = 0.999 * self.v + 0.001 * grad**2
        m_hat = self.m / (1 - 0.9**self.t)
        v_hat = self.v / (1 - 0.999**self.t)
        params += self.lr * m_hat / (np.sqrt(v_hat) + 1e-8)


def reinforce_gradient(batch: list[tuple[list[Step], Array]], shape: tuple[int, int]) -> Array:
    """The policy gradient of a batch, returns normalised over the batch (the baseline)."""
    all_returns = np.concatenate([g for _, g in batch])
    mean, std = all_returns.mean(), all_returns.std() + 1e-8
    grad = np.zeros(shape)
    count = 0
    for steps, g in batch:
        for (legal, x, k, p), ret in zip(steps, g, strict=True):
            e = -p
            e[k] += 1.0  # d log softmax / d scores = onehot(k) - p, over the legal actions only
            grad[legal] += ((ret - mean) / std) * np.outer(e, x)
            count += 1
    result: Array = grad / max(1, count)
    return result


def evaluate(args: tuple[Array, str, int, int, int, int]) -> list[tuple[float, str]]:
    """Greedy games against ``opponents`` on seeds ``start .. start + games - 1``."""
    weights, opponents, players, max_turns, start, games = args
    env = meeple.rl.gym_env("classic", opponents=opponents, players=players, max_turns=max_turns)
    out = []
    for i in range(games):
        win = play_episode(env, weights, start + i, None)[2]
        out.append((win, ending(env)))
    return out


def win_rate(
    weights: Array, opponents: str, players: int, max_turns: int, games: int, workers: int
) -> tuple[float, dict[str, int]]:
    """Greedy win rate over ``games`` fresh seeds (split over ``workers`` processes), and how
    the games ended."""
    chunk = -(-games // workers)
    jobs = [
        (
            weights,
            opponents,
            players,
            max_turns,
            1_000_000 + i * chunk,
            min(chunk, games - i * chunk),
        )
        for i in range(workers)
        if games - i * chunk > 0
    ]
    with ProcessPoolExecutor(workers) as pool:
        results = [w for part in pool.map(evaluate, jobs) for w in part]
    endings: dict[str, int] = {}
    for _, how in results:
        endings[how] = endings.get(how, 0) + 1
    return float(np.mean([w for w, _ in results])), endings


def count(text: str) -> int:
    """A whole number of at least 1 (a run of 0 games trains nothing and plots nothing)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {n}")
    return n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--episodes", type=count, default=300, help="training games")
    ap.add_argument("--batch", type=count, default=8, help="games per update")
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--gamma", type=float, default=0.99)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--max-turns", type=count, default=400, help="player-turns before truncation")
    ap.add_argument("--eval-games", type=count, default=100, help="greedy games per opponent kind")
    ap.add_argument("--workers", type=count, default=2, help="processes for the evaluation")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=Path("learning_curve.png"))
    ap.add_argument("--weights", type=Path, default=None, help="save the weights (.npy)")
    args = ap.parse_args()

    env = meeple.rl.gym_env(
        "classic",
        opponents="random",
        players=args.players,
        reward="shaped",
        max_turns=args.max_turns,
    )
    n_actions = env.table.encoding.size  # the Discrete action space's n
    n_features = env.table.observer.size + 1  # the observation vector and the bias
    weights = np.zeros((n_actions, n_features))  # all zeros: uniform over the legal actions
    adam = Adam(weights.shape, args.lr)
    rng = np.random.default_rng(args.seed)

    start = time.perf_counter()
    wins: list[float] = []
    batch: list[tuple[list[Step], Array]] = []
    for episode in range(args.episodes):
        steps, rewards, win = play_episode(env, weights, args.seed * 1_000_003 + episode, rng)
        wins.append(win)
        batch.append((steps, returns(rewards, args.gamma)))
        if len(batch) == args.batch:
            adam.step(weights, reinforce_gradient(batch, (n_actions, n_features)))
            batch = []
        if (episode + 1) % 50 == 0:
            recent = np.mean(wins[-50:])
            print(
                f"episode {episode + 1}: win rate over the last 50 games {recent:.0%} "
                f"({time.perf_counter() - start:.0f} s)",
                flush=True,
            )
    train_seconds = time.perf_counter() - start
    if args.weights is not None:
        np.save(args.weights, weights)

    final = {
        "random": win_rate(
            weights, "random", args.players, args.max_turns, args.eval_games, args.workers
        )
    }
    if "standard" in bot_kinds("monopoly"):
        final["standard"] = win_rate(
            weights, "standard", args.players, args.max_turns, args.eval_games, args.workers
        )
    total_seconds = time.perf_counter() - start

    window = 25
    smooth = np.convolve(wins, np.ones(window) / window, mode="valid")
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(
        np.arange(window, len(wins) + 1), smooth, label=f"training win rate ({window}-game mean)"
    )
    ax.axhline(1 / args.players, color="grey", linestyle="--", label="chance (1 / players)")
    for kind, (rate, _) in final.items():
        ax.axhline(
            rate,
            linestyle=":",
            color="C1" if kind == "random" else "C2",
            label=f"greedy vs {kind}: {rate:.0%}",
        )
    ax.set_xlabel("training games (against 3 random bots)")
    ax.set_ylabel("win rate")
    ax.set_ylim(0, 1.05)
    ax.set_title("Masked linear softmax policy, REINFORCE, classic Monopoly")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(args.out, dpi=100)

    print(f"trained on {args.episodes} games in {train_seconds:.0f} s; total {total_seconds:.0f} s")
    for kind, (rate, endings) in final.items():
        how = ", ".join(f"{k} {v}" for k, v in sorted(endings.items()))
        print(
            f"final win rate against {args.players - 1} {kind} bots: {rate:.1%} "
            f"({args.eval_games} greedy games: {how})"
        )
    print(f"learning curve: {args.out}")


if __name__ == "__main__":
    main()
