"""The RLlib recipe (examples/train_rllib.py) end to end for one tiny iteration: PPO behind
the action mask, the checkpoint, the exported policy file and its evaluation. Needs the
``rllib`` extra (Ray's RLlib and PyTorch), which is not a test dependency: skipped without it.

The environments raise on an illegal action (``illegal_action="raise"``), so a mask that the
module failed to honour would fail the run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch", reason="PyTorch is not installed (meeple[rllib])")
pytest.importorskip("ray.rllib", reason="RLlib is not installed (meeple[rllib])")

from meeple.bots.policy import load_policy

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("mode", ["bots", "self-play"])
def test_recipe_trains_checkpoints_exports_and_evaluates(tmp_path: Path, mode: str) -> None:
    out = tmp_path / "run"
    cmd = [
        sys.executable,
        str(ROOT / "examples" / "train_rllib.py"),
        "--iterations", "1",
        "--batch", "300",
        "--minibatch", "100",
        "--epochs", "1",
        "--hidden", "16",
        "--max-turns", "40",
        "--eval-games", "2",
        "--eval-opponents", "random",
        "--out", str(out),
    ]  # fmt: skip
    if mode == "self-play":
        cmd.append("--self-play")
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "iteration 1: " in done.stdout
    assert "vs 3 random: won" in done.stdout
    report = json.loads((out / "report.json").read_text())
    assert len(report["history"]) == 1
    assert report["history"][0]["steps"] >= 300
    (row,) = report["evaluation"]
    assert row["games"] == 2 and 0 <= row["won"] <= 2
    assert (out / "checkpoint").is_dir()
    policy = load_policy(out / "policy.npz")
    assert policy.game == "classic" and [w.shape[1] for w, _ in policy.layers] == [16, 426]
