"""The load benchmark (``benchmarks/bench_server.py``) runs at a tiny size and counts right.

No timing is asserted: figures are for the benchmark's own runs, not for tests.
"""

from __future__ import annotations

import json
import os
import shutil
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


@pytest.mark.slow
def test_bench_server_two_processes_beside_one(tmp_path: Path) -> None:
    """``--processes 2``: the same games on one process and then on two, over PostgreSQL and a
    Redis the benchmark starts, played by two client processes; both rows reported, with what
    PostgreSQL and Redis spent."""
    from tests.server.services import postgres_database

    if shutil.which("redis-server") is None:
        pytest.skip("no redis-server installed for the benchmark to start")
    out = tmp_path / "bench.json"
    with postgres_database() as db:
        cmd = [
            sys.executable,
            str(SCRIPT),
            "--processes", "2",
            "--database-url", db,
            "--games", "4",
            "--clients", "2",
            "--actions-per-game", "12",
            "--pace", "0",
            "--duration", "120",
            "--seed", "5",
            "--json", str(out),
        ]  # fmt: skip
        run = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 process" in run.stdout and "2 processes" in run.stdout and "target (p99" in run.stdout
    r = json.loads(out.read_text())
    one = r["one_process"]
    assert (r["server_processes"], r["routing"], one["server_processes"]) == (2, "game", 1)
    assert r["clients"] == one["clients"] == 2
    for row in (r, one):
        assert row["games"] == row["games_capped"] == 4 and row["actions"] == 4 * 12
        assert row["updates"] == 4 * 4 * 12 and row["errors"] == 0
        assert row["server_kb_per_socket"] is None or row["server_kb_per_socket"] > 0
        assert row["postgres_cpu_ms_per_action"] is None or row["postgres_cpu_ms_per_action"] >= 0
    assert r["database"] == "postgresql"
    assert one["redis_commands_per_action"] is None  # one process: no Redis
    assert r["redis_commands_per_action"] is not None  # two: the benchmark's own Redis
