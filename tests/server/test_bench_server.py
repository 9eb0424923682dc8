"""The load benchmark (``benchmarks/bench_server.py``) runs at a tiny size and counts right.

No timing is asserted: figures are for the benchmark's own runs, not for tests.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_server.py"


@pytest.mark.parametrize(("client", "actions"), [("bot", "socket"), ("page", "http")])
def test_bench_server_tiny(tmp_path: Path, client: str, actions: str) -> None:
    out = tmp_path / "bench.json"
    cmd = [
        sys.executable,
        str(SCRIPT),
        "--games", "3",
        "--actions-per-game", "25",
        "--pace", "0",
        "--duration", "120",
        "--client", client,
        "--actions", actions,
        "--seed", "5",
        "--json", str(out),
    ]  # fmt: skip
    yardstick = tmp_path / "yardstick.py"  # a machine at the reference speed, twice as slow
    yardstick.write_text(
        "import pathlib\n"
        "ran = pathlib.Path(__file__ + '.ran')\n"
        "print(2180000 if ran.exists() else 1090000)\n"
        "ran.touch()\n"
    )
    env = {**os.environ, "MEEPLE_YARDSTICK": str(yardstick)}
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1,090,000, 2,180,000" in run.stdout
    assert "actions/s" in run.stdout and "p99" in run.stdout
    r = json.loads(out.read_text())
    assert r["client"] == client and r["database"] == "sqlite" and r["actions_by"] == actions
    assert r["games"] == r["concurrent_games"] == r["games_capped"] == 3
    assert r["games_finished"] == 0
    assert r["actions"] == 3 * 25
    # CPU per action scaled by the mean speed (1.635M rolls/s against the reference 2.18M).
    assert r["yardstick_rolls_per_s"] == [1_090_000, 2_180_000]
    assert r["server_cpu_ms_per_action_scaled"] == pytest.approx(
        r["server_cpu_ms_per_action"] * 1_635_000 / 2_180_000, abs=0.011
    )
    assert r["updates"] == 4 * 3 * 25  # every seat's socket told of every action
    assert r["http"]["samples"] == 75 and r["ws"]["samples"] == 4 * 75
    assert r["view"]["samples"] == 0  # a page's update carries the seat's legal actions
    assert r["errors"] == 0 and r["conflicts_409"] == 0 and r["error_samples"] == []
    assert 0 < r["http"]["p50_ms"] <= r["http"]["p99_ms"] <= r["http"]["max_ms"]
    assert r["server_cpu_seconds"] is None or r["server_cpu_seconds"] > 0
