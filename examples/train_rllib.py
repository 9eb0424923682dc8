"""Train an agent with RLlib's PPO on meeple.rl (docs/RL.md, "Training with RLlib").

Needs ``pip install 'meeple[rllib]'`` (Ray's RLlib, its dm-tree and the rest, PyTorch; on a
CPU-only machine install PyTorch's CPU build first, or with it, e.g. ``torch==2.13.0``).

    .venv/bin/python examples/train_rllib.py --minutes 10 --out runs/rllib

PPO, on RLlib's new API stack (RLModule, Learner, EnvRunner), trains one learner seat of
4-player classic (``meeple/classic-v0``) against three bots (``--opponents random``), on the
CPU with one env runner. The environment's legal mask (the ``action_mask`` entry of its Dict
observation) is honoured by an RLModule that adds log(mask) to the action logits (RLlib's
action-masking pattern, ``ray.rllib.examples.rl_modules.classes.action_masking_rlm``), so
the agent never picks an illegal action, in sampling, training or evaluation.

``--self-play``: the multi-agent variant instead: the PettingZoo AEC environment
(``meeple.rl.env``) through RLlib's ``PettingZooEnv`` wrapper, every seat played by one
shared module (parameter-shared self-play).

Training stops after ``--iterations`` or ``--minutes``, whichever comes first, printing the
mean episode return (and, against bots, the share of training games won) per iteration. Then
it writes into ``--out``: ``checkpoint/`` (``algo.save_to_path``; ``--restore`` continues
from it) and ``policy.npz``, the actor exported as a policy file (``policy:FILE`` plays it
with NumPy alone, docs/RL.md); and evaluates that file greedily against three bots of each
``--eval-opponents`` kind, ``--eval-games`` 4-player games with the seats rotated (the
simulator, as ``meeple simulate --rotate-seats``), printing its win share with a 95% Wilson
interval.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

import meeple.rl
from meeple.bots.policy import Policy, policy_for, save_policy
from meeple.kernel.family import new_game
from meeple.kernel.stats import wilson
from meeple.sim.runner import SimConfig, simulate

#: The ModuleID of the one trained module: RLlib's default in the single-agent case; in
#: self-play another name, as RLlib takes one module named so for a single-agent setup.
MODULE = "default_policy"
SHARED = "shared"


def rllib(name: str) -> Any:
    """``ray.rllib``'s module ``name`` (or ``torch``): imported by name, as RLlib and PyTorch
    are optional (not installed for ``make lint``) and RLlib ships no type information."""
    return importlib.import_module(name)


def masked_ppo_module() -> type[Any]:
    """RLlib's default PPO module (torch) behind the legal mask.

    The environment's observation is ``Dict(observation=Box, action_mask=Box)``; the networks
    are built for the ``observation`` vector alone, and every forward pass adds log(mask)
    (0 for a legal action, the smallest float for an illegal one) to the action logits, so an
    illegal action has probability 0 when sampling, in the PPO loss and in the greedy choice.
    Defined in a function so that Ray pickles the class by value for its env-runner processes.
    """
    torch = rllib("torch")
    base: Any = rllib("ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module")
    default: Any = base.DefaultPPOTorchRLModule
    columns = rllib("ray.rllib.core.columns").Columns
    float_min = rllib("ray.rllib.utils.torch_utils").FLOAT_MIN

    def split(batch: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        """(the mask, the batch with the vector alone as its observation); the batch given is
        left as it is (the value pass and the train pass both read it)."""
        obs = batch[columns.OBS]
        return obs["action_mask"], {**batch, columns.OBS: obs["observation"]}

    def masked(out: dict[str, Any], mask: Any) -> dict[str, Any]:
        logits = out[columns.ACTION_DIST_INPUTS]
        out[columns.ACTION_DIST_INPUTS] = logits + torch.clamp(
            torch.log(mask.to(logits.dtype)), min=float_min
        )
        return out

    # Subclassing Any: RLlib has no types.
    class MaskedPPOModule(default):  # type: ignore[misc]
        def __init__(self, *, observation_space: Any = None, **kwargs: Any) -> None:
            self.observation_space_with_mask = observation_space
            super().__init__(observation_space=observation_space["observation"], **kwargs)

        def setup(self) -> None:
            super().setup()  # the networks, for the vector's space
            self.observation_space = self.observation_space_with_mask

        def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
            mask, inner = split(batch)
            return masked(super()._forward(inner, **kwargs), mask)

        def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
            mask, inner = split(batch)
            return masked(super()._forward_train(inner, **kwargs), mask)

        def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> Any:
            if isinstance(batch[columns.OBS], dict):
                batch = split(batch)[1]
            return super().compute_values(batch, embeddings)

    return MaskedPPOModule


def env_kwargs(args: argparse.Namespace) -> dict[str, Any]:
    """The environment's arguments (the same for every env runner). An illegal action
    raises: the module never picks one, so one would mean the mask is not honoured."""
    return {
        "game": args.game,
        "players": args.players,
        "reward": args.reward,
        "max_turns": args.max_turns,
        "illegal_action": "raise",
    }


def make_gym_env(config: dict[str, Any]) -> Any:
    """The single-agent environment: the learner against bots (``meeple.rl.gym_env``)."""
    import meeple.rl as rl  # each env runner process imports it for itself

    kwargs = dict(config)
    return rl.gym_env(opponents=kwargs.pop("opponents"), **kwargs)


def make_pettingzoo_env(config: dict[str, Any]) -> Any:
    """The multi-agent environment: every seat an agent, through RLlib's PettingZoo wrapper."""
    import meeple.rl as rl

    wrapper = importlib.import_module("ray.rllib.env.wrappers.pettingzoo_env")
    kwargs = {k: v for k, v in config.items() if k != "opponents"}
    return wrapper.PettingZooEnv(rl.env(**kwargs))


def on_episode_end(*, episode: Any, metrics_logger: Any, **_: Any) -> None:
    """Log the share of training episodes the learner won (``env_runners/win``)."""
    info = episode.get_infos(-1)
    won = 1.0 if info.get("result") == "win" else 0.0
    metrics_logger.log_value("win", won, reduce="mean", window=100)


def build(args: argparse.Namespace) -> Any:
    """The PPO algorithm (``Algorithm``) for ``args``."""
    ppo = rllib("ray.rllib.algorithms.ppo")
    spec_mod = rllib("ray.rllib.core.rl_module")
    registry = rllib("ray.tune.registry")
    module_class = masked_ppo_module()
    hidden = list(args.hidden)
    model_config = {
        "fcnet_hiddens": hidden,
        "fcnet_activation": "tanh",
        "head_fcnet_hiddens": [],  # the actor: the encoder's layers, then one linear layer
        "vf_share_layers": False,  # a critic of its own (as the SB3 recipe)
    }
    config = ppo.PPOConfig().framework("torch")
    env_config = {**env_kwargs(args), "opponents": args.opponents}
    if args.self_play:
        registry.register_env("meeple-aec", make_pettingzoo_env)
        # RLlib's check of a multi-agent environment steps actions sampled without the mask,
        # which the environment refuses (illegal_action="raise"): it is left out.
        config = config.environment(
            "meeple-aec", env_config=env_config, disable_env_checking=True
        ).multi_agent(
            policies={SHARED},
            policy_mapping_fn=lambda agent_id, episode, **kw: SHARED,
        )
        spec = spec_mod.MultiRLModuleSpec(
            rl_module_specs={
                SHARED: spec_mod.RLModuleSpec(module_class=module_class, model_config=model_config)
            }
        )
    else:
        registry.register_env("meeple-gym", make_gym_env)
        config = config.environment("meeple-gym", env_config=env_config).callbacks(
            on_episode_end=on_episode_end
        )
        spec = spec_mod.RLModuleSpec(module_class=module_class, model_config=model_config)
    config = (
        config.rl_module(rl_module_spec=spec)
        .env_runners(
            num_env_runners=args.env_runners,
            num_envs_per_env_runner=args.envs,
            num_cpus_per_env_runner=1,
            rollout_fragment_length="auto",
        )
        .learners(num_learners=0, num_gpus_per_learner=0)
        .training(
            train_batch_size_per_learner=args.batch,
            minibatch_size=args.minibatch,
            num_epochs=args.epochs,
            lr=args.lr,
            gamma=args.gamma,
            lambda_=0.95,
            clip_param=0.2,
            entropy_coeff=args.entropy,
            vf_loss_coeff=0.5,
        )
        .debugging(seed=args.seed, log_level="WARN")
    )
    algo = config.build_algo()
    if args.restore is not None:
        algo.restore_from_path(str(args.restore.resolve()))
        # The remote env runners would sample the first iteration with the weights they
        # were built with (seen with Ray 2.60): they get the restored ones now, waited for
        # (the default, a timeout of 0, only sends them).
        algo.env_runner_group.sync_weights(
            from_worker_or_learner_group=algo.learner_group,
            inference_only=True,
            timeout_seconds=60,
        )
    return algo


def number(result: dict[str, Any], *path: str) -> float:
    """The metric at ``path`` in an iteration's result, NaN if absent (no episode ended)."""
    value: Any = result
    for key in path:
        if not isinstance(value, dict) or key not in value:
            return float("nan")
        value = value[key]
    return float(value)


def train(algo: Any, args: argparse.Namespace) -> list[dict[str, float]]:
    """Iterations until ``--iterations`` or ``--minutes``; one summary line each.

    RLlib 2.60 reports each iteration's means over the episodes that ended in it (a handful:
    a classic game is about 1,000 learner steps), so the line adds means over the last
    iterations that hold at least 100 episodes (``return_100``, ``win_100``)."""
    start = time.perf_counter()
    deadline = start + 60 * args.minutes
    history: list[dict[str, float]] = []
    episodes_before = 0.0
    for i in range(args.iterations):
        result = algo.train()
        episodes = number(result, "env_runners", "num_episodes_lifetime")
        row = {
            "iteration": float(i + 1),
            "steps": number(result, "env_runners", "num_env_steps_sampled_lifetime"),
            "episodes": episodes,
            "ended": 0.0 if np.isnan(episodes) else episodes - episodes_before,
            # self-play: the return of all seats added up
            "return": number(result, "env_runners", "episode_return_mean"),
            "length": number(result, "env_runners", "episode_len_mean"),
            "win": number(result, "env_runners", "win"),
            "seconds": time.perf_counter() - start,
        }
        episodes_before = episodes if not np.isnan(episodes) else episodes_before
        history.append(row)
        row["return_100"], row["win_100"] = recent(history, "return"), recent(history, "win")
        print(
            f"iteration {i + 1}: {row['steps']:.0f} steps, {row['episodes']:.0f} episodes, "
            f"return {row['return']:+.2f} (last 100 episodes {row['return_100']:+.2f})"
            + ("" if args.self_play else f", won {row['win']:.0%} ({row['win_100']:.0%})")
            + f", length {row['length']:.0f} ({row['seconds']:.0f} s)",
            flush=True,
        )
        if time.perf_counter() >= deadline:
            break
    return history


def recent(history: list[dict[str, float]], key: str, episodes: int = 100) -> float:
    """The mean of ``key`` over the last iterations holding ``episodes`` episodes (or all),
    each iteration weighted by the episodes that ended in it."""
    total = weight = 0.0
    for row in reversed(history):
        if row["ended"] > 0 and not np.isnan(row[key]):
            total += row[key] * row["ended"]
            weight += row["ended"]
        if weight >= episodes:
            break
    return total / weight if weight else float("nan")


def to_torch(x: Any) -> Any:
    """A nested dict of arrays as torch tensors."""
    torch = rllib("torch")
    if isinstance(x, dict):
        return {k: to_torch(v) for k, v in x.items()}
    return torch.as_tensor(x)


def export(module: Any, args: argparse.Namespace) -> Policy:
    """The module's actor as a policy file (tanh layers, the no-op's output dropped), checked
    against the module itself on observations of a few masked-random games."""
    torch = rllib("torch")
    encoder = getattr(module.encoder, "actor_encoder", module.encoder)
    linear = [m for m in encoder.modules() if isinstance(m, torch.nn.Linear)]
    linear += [m for m in module.pi.modules() if isinstance(m, torch.nn.Linear)]
    layers = [
        (m.weight.detach().cpu().numpy().T.copy(), m.bias.detach().cpu().numpy().copy())
        for m in linear
    ]
    probe = new_game(args.game, args.players, 0)
    env = meeple.rl.gym_env(**env_kwargs(args), opponents="random")
    n = env.table.noop  # the game's actions; the no-op's row is not scored by policy:FILE
    w, b = layers[-1]
    layers[-1] = (w[:, :n], b[:n])
    trainer = "rllib-ppo" + (" self-play" if args.self_play else f" vs {args.opponents}")
    policy = policy_for(probe, layers, meta={"trainer": trainer})
    # The check: the file's scores equal the module's logits on real observations.
    rng = np.random.default_rng(0)
    obs_list: list[npt.NDArray[np.float32]] = []
    masks: list[npt.NDArray[np.int8]] = []
    obs, _ = env.reset(seed=args.seed)
    while len(obs_list) < 256:
        obs_list.append(obs["observation"])
        masks.append(obs["action_mask"])
        obs, _, term, trunc, _ = env.step(rng.choice(np.flatnonzero(obs["action_mask"])))
        if term or trunc:
            obs, _ = env.reset()
    columns = rllib("ray.rllib.core.columns").Columns
    batch = {columns.OBS: {"observation": np.stack(obs_list), "action_mask": np.stack(masks)}}
    with torch.no_grad():
        logits = module.forward_inference(to_torch(batch))[columns.ACTION_DIST_INPUTS].numpy()
    mask = np.stack(masks)[:, :n].astype(bool)
    ours = policy.scores(np.stack(obs_list))
    if not np.allclose(np.where(mask, ours, 0), np.where(mask, logits[:, :n], 0), atol=1e-3):
        raise RuntimeError("the exported policy disagrees with the RLlib module")
    return policy


def evaluate(path: Path, args: argparse.Namespace) -> list[dict[str, Any]]:
    """The policy file greedy in one seat against three bots of each kind, seats rotated."""
    rows = []
    for kind in args.eval_opponents:
        me = f"policy:{path}"
        cfg = SimConfig(
            game=args.game,
            players=args.players,
            games=args.eval_games,
            seed=args.eval_seed,
            bots=(me,) + (kind,) * (args.players - 1),
            max_turns=args.max_turns,
            rotate_seats=True,
        )
        start = time.perf_counter()
        summary, _ = simulate(cfg, workers=1)
        won = summary["results"]["wins_by_bot"].get(me, 0.0)
        lo, hi = wilson(won, args.eval_games)
        row = {
            "opponents": kind,
            "games": args.eval_games,
            "won": won,
            "share": won / args.eval_games,
            "wilson95": [lo, hi],
            # a game stopped by the turn cap is won by the richest seat ("turn_cap")
            "end_reasons": summary["results"]["end_reasons"],
            "mean_turns": summary["results"]["mean_turns"],
            "seconds": time.perf_counter() - start,
        }
        rows.append(row)
        reasons = ", ".join(f"{k} {v}" for k, v in row["end_reasons"].items())
        print(
            f"vs 3 {kind}: won {won:g} / {args.eval_games} = {row['share']:.1%} "
            f"(95% Wilson {lo:.1%} - {hi:.1%}; fair share {1 / args.players:.0%}; "
            f"games ended: {reasons}; {row['seconds']:.0f} s)",
            flush=True,
        )
    return rows


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="classic")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--opponents", default="random", help="the bots of the training games")
    ap.add_argument("--self-play", action="store_true", help="every seat the learner")
    ap.add_argument("--reward", choices=["win", "shaped"], default="shaped")
    ap.add_argument("--max-turns", type=int, default=1000)
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--env-runners", type=int, default=1, help="0: sample in this process")
    ap.add_argument("--envs", type=int, default=1, help="environments per env runner")
    ap.add_argument("--batch", type=int, default=4000, help="env steps per iteration")
    ap.add_argument("--minibatch", type=int, default=256)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--gamma", type=float, default=0.999)
    ap.add_argument("--entropy", type=float, default=0.0)
    ap.add_argument("--hidden", type=int, nargs="+", default=[128, 128])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--restore", type=Path, default=None, help="a checkpoint to continue")
    ap.add_argument("--eval-games", type=int, default=100)
    ap.add_argument("--eval-opponents", nargs="*", default=["random", "standard"])
    ap.add_argument("--eval-seed", type=int, default=1)
    ap.add_argument("--out", type=Path, required=True, help="a folder for the results")
    args = ap.parse_args(argv)
    try:
        ray = rllib("ray")
        rllib("ray.rllib.algorithms.ppo")
        torch = rllib("torch")
    except ImportError as exc:
        sys.exit(f"train_rllib.py needs pip install 'meeple[rllib]': {exc}")
    torch.set_num_threads(1)
    ray.init(num_cpus=max(2, args.env_runners + 1), include_dashboard=False)
    args.out.mkdir(parents=True, exist_ok=True)
    try:
        algo = build(args)
        history = train(algo, args)
        checkpoint = algo.save_to_path(str((args.out / "checkpoint").resolve()))
        print(f"checkpoint: {checkpoint}")
        policy = export(algo.get_module(SHARED if args.self_play else MODULE), args)
        algo.stop()
    finally:
        ray.shutdown()
    path = args.out / "policy.npz"
    save_policy(policy, path)
    print(f"wrote {path} ({path.stat().st_size // 1024} KB)", flush=True)
    evaluation = evaluate(path, args) if args.eval_games > 0 else []
    report = {"args": {k: str(v) for k, v in vars(args).items()}, "history": history}
    report["evaluation"] = evaluation
    (args.out / "report.json").write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
