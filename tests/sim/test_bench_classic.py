"""The classic benchmarks run at a tiny size and report what they played.

No timing or instruction count is asserted as a target: figures are for the benchmarks' own
runs (benchmarks/README.md), not for tests.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from meeple.sim.runner import DEFAULT_MAX_TURNS

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"


def fake_yardstick(tmp_path: Path, rolls_per_s: int) -> dict[str, str]:
    """An environment whose yardstick (benchmarks/machine.py) reads ``rolls_per_s``."""
    script = tmp_path / "yardstick.py"
    script.write_text(f"print({rolls_per_s})\n", encoding="utf-8")
    return {**os.environ, "MEEPLE_YARDSTICK": str(script)}


def run_bench(tmp_path: Path, script: str, *args: str) -> dict[str, Any]:
    """The JSON figures of ``benchmarks/SCRIPT ARGS`` run on a machine at half the reference's
    speed (the yardstick reads 1,090,000 rolls/s)."""
    out = tmp_path / "bench.json"
    cmd = [sys.executable, str(BENCH / script), *args, "--json", str(out)]
    subprocess.run(cmd, check=True, timeout=300, env=fake_yardstick(tmp_path, 1_090_000))
    result: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return result


def test_bench_classic_tiny(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    cmd = [sys.executable, str(BENCH / "bench_classic.py"), "--games", "3", "--repeat", "1"]
    env = fake_yardstick(tmp_path, 1_090_000)  # half the reference machine's speed
    subprocess.run(
        [*cmd, "--bots", "standard", "--json", str(out)], check=True, timeout=300, env=env
    )
    r = json.loads(out.read_text(encoding="utf-8"))
    # The machine's speed is run beside the figures and scales them to the reference machine.
    assert r["yardstick_rolls_per_s"] == [1_090_000, 1_090_000]
    assert r["games_per_s_scaled"] == pytest.approx(2 * r["games_per_s"], rel=0.01)
    assert r["player_turns_per_s_scaled"] == pytest.approx(2 * r["player_turns_per_s"], rel=0.01)
    assert r["games"] == 3 and r["bots"] == "standard" and r["build"] in ("python", "mypyc")
    assert r["games_per_s"] > 0 and r["mean_turns"] > 10 and r["mean_actions"] > r["mean_turns"]
    # simulate's cap by default (docs/RULES.md, "Turn cap"): none of these games reaches it.
    assert r["max_turns"] == DEFAULT_MAX_TURNS and r["capped"] == 0


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_count_instructions_tiny(tmp_path: Path) -> None:
    out = tmp_path / "count.json"
    cmd = [sys.executable, str(BENCH / "count_instructions.py"), "--games", "1"]
    subprocess.run([*cmd, "--json", str(out)], check=True, timeout=900, capture_output=True)
    r = json.loads(out.read_text(encoding="utf-8"))
    # One game of four standard bots: millions of instructions (the 0-game run is subtracted,
    # so start-up is not in it), and the per-turn figure is the total over the game's turns.
    assert r["games"] == 1 and r["instructions"] > 10**6
    assert r["per_game"] == r["instructions"]
    assert r["per_player_turn"] == round(r["instructions"] / r["mean_turns"])


def test_count_instructions_rejects_bad_flags() -> None:
    cmd = [sys.executable, str(BENCH / "count_instructions.py"), "--games", "0"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--games must be at least 1" in done.stderr


def test_bench_state_tiny(tmp_path: Path) -> None:
    """The state benchmark reports the bytes of a live game and the clone and copy times, for
    each family, scaled by the yardstick."""
    out = tmp_path / "state.json"
    cmd = [sys.executable, str(BENCH / "bench_state.py"), "--games", "3", "--depth", "40"]
    env = fake_yardstick(tmp_path, 2_180_000)  # the reference machine: scaled == measured
    subprocess.run([*cmd, "--json", str(out)], check=True, timeout=300, env=env)
    r = json.loads(out.read_text(encoding="utf-8"))
    assert [row["game"] for row in r["rows"]] == ["classic", "monopolis"]
    for row in r["rows"]:
        assert row["actions"] == 40
        assert 2_000 < row["bytes_per_game"] < 1_000_000  # a state's lists, not the edition
        assert row["clone_us"] > 0 and row["copy_into_us"] > 0
        assert row["clone_us_scaled"] == pytest.approx(row["clone_us"], rel=0.01)


def test_bench_cli_tiny(tmp_path: Path) -> None:
    out = tmp_path / "cli.json"
    env = fake_yardstick(tmp_path, 1_090_000)
    cmd = [sys.executable, str(BENCH / "bench_cli.py"), "--repeat", "1", "--json", str(out)]
    subprocess.run(cmd, check=True, timeout=120, env=env)
    r = json.loads(out.read_text(encoding="utf-8"))
    assert set(r["commands"]) == {"--version", "--help", "editions"}
    for row in r["commands"].values():
        # A machine at half the reference speed: the scaled seconds are half the measured.
        assert row["cpu_seconds"] > 0
        assert row["cpu_seconds_scaled"] == pytest.approx(row["cpu_seconds"] / 2, abs=0.002)


def test_bench_engine_tiny(tmp_path: Path) -> None:
    """The engine benchmark plays games with bots, replays their actions with none, and
    reports both rates and the bots' share, scaled by the yardstick."""
    r = run_bench(tmp_path, "bench_engine.py", "--games", "2", "--repeat", "1")
    assert r["game"] == "classic" and r["bots"] == "standard" and r["games"] == 2
    assert r["mean_actions"] > 100
    for run in (r["play"], r["replay"]):
        assert run["games_per_s"] > 0
        assert run["games_per_s_scaled"] == pytest.approx(2 * run["games_per_s"], rel=0.01)
    # The same actions, so the share is what the bots' choosing adds to the engine's time.
    rates = r["play"]["games_per_s"] / r["replay"]["games_per_s"]
    assert r["bots_share"] == pytest.approx(1 - rates, abs=0.002)


def test_bench_engine_rejects_bad_flags() -> None:
    cmd = [sys.executable, str(BENCH / "bench_engine.py"), "--games", "0"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--games and --repeat must be at least 1" in done.stderr


def test_bench_bots_tiny(tmp_path: Path) -> None:
    """The bots benchmark times each kind's decisions in one seat against the record of the
    same games replayed, and reports the CPU time per decision, scaled by the yardstick, and
    as a multiple of the first kind's."""
    pytest.importorskip("numpy")
    r = run_bench(tmp_path, "bench_bots.py", "--games", "2", "--repeat", "1")
    assert r["game"] == "classic" and r["opponents"] == "standard" and r["games"] == 2
    assert list(r)[-4:-2] == ["standard", "learned"]
    learned, standard = r["learned"], r["standard"]
    assert learned["decisions"] > 100 and standard["decisions"] > 100
    assert learned["cpu_seconds_asked"] > learned["cpu_seconds_replayed"]
    # Half the reference machine's speed: a decision takes half as long on the reference.
    us = learned["us_per_decision"]
    assert us > 0 and learned["us_per_decision_scaled"] == pytest.approx(us / 2, rel=0.01)
    assert standard["x_standard"] == 1.0 or standard["us_per_decision"] <= 0
    if standard["us_per_decision"] > 0:
        assert learned["x_standard"] == pytest.approx(us / standard["us_per_decision"], rel=0.05)


def test_bench_bots_rejects_bad_flags() -> None:
    cmd = [sys.executable, str(BENCH / "bench_bots.py"), "--repeat", "0"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--games and --repeat must be at least 1" in done.stderr


def test_bench_rl_tiny(tmp_path: Path) -> None:
    """The RL benchmark drives both environments with masked-random actions and reports
    their steps per second, scaled by the yardstick."""
    pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")
    r = run_bench(tmp_path, "bench_rl.py", "--seconds", "0.3", "--repeat", "1")
    assert r["game"] == "classic" and r["gym_opponents"] == "random"
    for name in ("gym", "aec"):
        run = r[name]
        assert run["steps"] > 10 and run["steps_per_s"] > 0
        assert run["steps_per_s_scaled"] == pytest.approx(2 * run["steps_per_s"], rel=0.01)


def test_count_questions_tiny(tmp_path: Path) -> None:
    """The count of building-shortage questions and repeated trade offers (issue 38) plays the
    games and reports counts that agree with one another; the standard bot never offers again
    what a partner as rich as when it refused refused."""
    out = tmp_path / "questions.json"
    cmd = [sys.executable, str(BENCH / "count_questions.py"), "--games", "4"]
    subprocess.run([*cmd, "--json", str(out)], check=True, timeout=300)
    r = json.loads(out.read_text(encoding="utf-8"))
    assert r["games"] == 4 and r["bots"] == "standard" and r["seed"] == 0
    assert r["prompts_per_game"] >= r["questions_per_game"] >= r["building_auctions_per_game"]
    asked = sum(r["bank_houses_at_house_questions"].values())
    assert asked <= r["questions_per_game"] * 4
    assert r["house_questions_with_16_or_more_in_bank"] <= asked
    assert r["offers_per_game"] >= r["refused_per_game"] > 0
    assert r["repeats_with_the_partner_not_half_as_rich"] == 0
    assert r["terminal_inputs_per_game"] > r["terminal_shortage_inputs_per_game"]
