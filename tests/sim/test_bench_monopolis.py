"""The Monopolis benchmarks run at a tiny size and report what they played.

No timing or instruction count is asserted as a target: figures are for the benchmarks' own
runs (benchmarks/README.md), not for tests.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from meeple.sim.runner import DEFAULT_MAX_TURNS
from tests.sim.test_bench_classic import fake_yardstick

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"


def test_bench_monopolis_tiny(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    cmd = [sys.executable, str(BENCH / "bench_monopolis.py"), "--games", "3", "--repeat", "1"]
    env = fake_yardstick(tmp_path, 1_090_000)  # half the reference machine's speed
    subprocess.run([*cmd, "--json", str(out)], check=True, timeout=300, env=env)
    r = json.loads(out.read_text(encoding="utf-8"))
    # The machine's speed is run beside the figures and scales them to the reference machine.
    assert r["yardstick_rolls_per_s"] == [1_090_000, 1_090_000]
    assert r["games_per_s_scaled"] == pytest.approx(2 * r["games_per_s"], rel=0.01)
    assert r["games_per_cpu_s_scaled"] == pytest.approx(2 * r["games_per_cpu_s"], rel=0.01)
    assert r["player_turns_per_s_scaled"] == pytest.approx(2 * r["player_turns_per_s"], rel=0.01)
    assert r["benchmark"] == "monopolis" and r["players"] == 4
    assert r["games"] == 3 and r["bots"] == "standard" and r["build"] in ("python", "mypyc")
    assert r["games_per_s"] > 0 and r["cpu_seconds"] > 0
    assert r["mean_turns"] > 10 and r["mean_actions"] > r["mean_turns"]
    # simulate's cap by default: four standard bots fill the city long before it.
    assert r["max_turns"] == DEFAULT_MAX_TURNS and r["capped"] == 0


def test_bench_monopolis_random_bots_and_two_players(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    cmd = [sys.executable, str(BENCH / "bench_monopolis.py"), "--games", "2", "--repeat", "2"]
    cmd += ["--bots", "random", "--players", "2", "--seed", "5", "--json", str(out)]
    subprocess.run(cmd, check=True, timeout=300, env=fake_yardstick(tmp_path, 2_180_000))
    r = json.loads(out.read_text(encoding="utf-8"))
    assert r["bots"] == "random" and r["players"] == 2 and r["games"] == 2
    assert r["games_per_s_scaled"] == pytest.approx(r["games_per_s"], rel=0.01)


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_count_instructions_monopolis_tiny(tmp_path: Path) -> None:
    out = tmp_path / "count.json"
    cmd = [sys.executable, str(BENCH / "count_instructions.py"), "--games", "1"]
    cmd += ["--game", "monopolis", "--json", str(out)]
    subprocess.run(cmd, check=True, timeout=900, capture_output=True)
    r = json.loads(out.read_text(encoding="utf-8"))
    # One game of four standard bots, start-up subtracted.
    assert r["benchmark"] == "monopolis-instructions" and r["games"] == 1
    assert r["instructions"] > 10**5 and r["per_game"] == r["instructions"]
    assert r["per_player_turn"] == round(r["instructions"] / r["mean_turns"])
