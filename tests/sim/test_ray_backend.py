"""``simulate --backend ray``: the same summary as worker processes, on a Ray cluster.

The module starts its own one-node Ray cluster (``ray start --head --block``, loopback only, in
a session of its own) and kills exactly that session's processes afterwards. The commands run in
subprocesses, so Ray never starts inside the test process.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from meeple.cli.main import app
from meeple.sim.ray_backend import RayBackendError, parse_address
from meeple.sim.runner import SimConfig, play_one

pytest.importorskip("ray", reason="the ray package cannot be imported on this platform")

SIM = ["simulate", "classic", "--games", "8", "--seed", "3", "--max-turns", "200", "--json", "-"]
TIMEOUT_S = 120  # per command: a wedged cluster fails the test instead of hanging it
START_TIMEOUT_S = 60


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def ray_env(loopback: bool = True) -> dict[str, str]:
    """The environment of every Ray process here: no usage reports, a token of our own (so
    nothing is written into the home folder), no inherited cluster address, and (``loopback``)
    127.0.0.1 kept as it is: Ray otherwise swaps it for the machine's network address, where
    the test's head, bound to 127.0.0.1, does not listen."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    env.update(RAY_USAGE_STATS_ENABLED="0", RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=TOKEN)
    if loopback:
        env["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
    return env


TOKEN = secrets.token_hex(32)


def meeple(
    *args: str, timeout: float = TIMEOUT_S, loopback: bool = True
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from meeple.cli.main import app; app()", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=ray_env(loopback),
        check=False,
    )


def summary(*args: str, loopback: bool = True) -> dict[str, Any]:
    """The JSON summary of ``meeple simulate`` with ``args``, less ``timing``."""
    done = meeple(*SIM, *args, loopback=loopback)
    assert done.returncode == 0, done.stderr[-3000:]
    data: dict[str, Any] = json.loads(done.stdout)
    assert set(data.pop("timing")) == {"seconds", "games_per_s", "turns_per_s", "build"}
    return data


def _session_pids(sid: int) -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            # pid (comm) state ppid pgrp session ...: comm may hold spaces, so split after ')'
            fields = (entry / "stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if int(fields[3]) == sid:
            pids.append(int(entry.name))
    return pids


def _kill_session(head: subprocess.Popen[bytes]) -> None:
    """SIGKILL the head and every process it started (they share its session), and only those."""
    for _ in range(3):
        pids = _session_pids(head.pid)
        if not pids:
            break
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            head.wait(timeout=5)
        time.sleep(0.2)


@pytest.fixture(scope="module")
def ray_head() -> Iterator[str]:
    """A one-node Ray cluster on 127.0.0.1; yields its address."""
    if not sys.platform.startswith("linux"):
        pytest.skip("the cluster fixture finds the head's processes through /proc")
    port = free_port()
    temp = tempfile.mkdtemp(prefix="meeple-ray-", dir="/tmp")  # short: Ray puts sockets in it
    log_path = Path(temp) / "head.log"
    env = ray_env()
    command = [
        *(sys.executable, "-m", "ray.scripts.scripts", "start", "--head", "--block"),
        *("--port", str(port), "--node-ip-address", "127.0.0.1", "--num-cpus", "2"),
        *("--disable-usage-stats", "--include-dashboard=false"),
        *("--object-store-memory", str(200 * 1024 * 1024), "--temp-dir", temp),
    ]
    with open(log_path, "wb") as log:
        head = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while "Ray runtime started" not in log_path.read_text(errors="replace"):
            if head.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"ray start failed:\n{log_path.read_text(errors='replace')[-3000:]}")
            time.sleep(0.25)
        yield f"127.0.0.1:{port}"
    finally:
        _kill_session(head)
        shutil.rmtree(temp, ignore_errors=True)


@pytest.fixture(scope="module")
def expected() -> dict[str, Any]:
    return summary("--workers", "1")


def test_cluster_summary_equals_the_processes_one(ray_head: str, expected: dict[str, Any]) -> None:
    assert summary("--backend", "ray", "--address", ray_head) == expected
    assert expected["games"] == 8 and sum(expected["results"]["wins_by_seat"]) == pytest.approx(8)


def test_local_ray_summary_equals_the_processes_one(expected: dict[str, Any]) -> None:
    # run_ray keeps a cluster it starts itself on the loopback interface without being told
    assert summary("--backend", "ray", loopback=False) == expected
    assert summary("--workers", "2") == expected  # and the two-process run, for good measure


def test_a_tournament_on_the_cluster_equals_the_one_on_worker_processes(ray_head: str) -> None:
    # The arena sends its games to Ray through run_ray_calls (meeple.lab.arena): same table.
    args = ["tournament", "classic", "--bots", "random,standard,standard", "--tables", "2"]
    args += ["--seed", "5", "--max-turns", "300", "--json", "-"]
    runs = []
    for extra in (["--workers", "2"], ["--backend", "ray", "--address", ray_head]):
        done = meeple(*args, *extra)
        assert done.returncode == 0, done.stderr[-3000:]
        data = json.loads(done.stdout)
        data.pop("timing")
        runs.append(data)
    assert runs[0] == runs[1] and runs[0]["games"] == 12


def test_records_come_back_in_game_order_with_uneven_chunks(ray_head: str) -> None:
    cfg = SimConfig("classic", 3, 7, 11, ("random",) * 3, max_turns=150)
    script = (
        "import dataclasses, json, sys\n"
        "from meeple.sim.ray_backend import run_ray\n"
        "from meeple.sim.runner import SimConfig\n"
        "cfg = SimConfig('classic', 3, 7, 11, ('random',) * 3, max_turns=150)\n"
        "recs = [dataclasses.asdict(r) for r in run_ray(cfg, sys.argv[1], 3)]\n"
        "print(json.dumps(recs))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, ray_head],
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        env=ray_env(),
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    want = [json.loads(json.dumps(asdict(play_one(cfg, i)))) for i in range(cfg.games)]
    assert json.loads(done.stdout) == want


def test_an_unreachable_address_exits_2_at_once() -> None:
    start = time.monotonic()
    done = meeple(*SIM, "--backend", "ray", "--address", f"127.0.0.1:{free_port()}", timeout=60)
    assert done.returncode == 2, done.stderr
    assert "cannot reach a Ray cluster at 127.0.0.1:" in done.stderr
    assert done.stdout == ""
    assert time.monotonic() - start < 30


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--backend", "threads"], "--backend must be 'processes' or 'ray'"),
        (["--address", "127.0.0.1:6379"], "--address goes with --backend ray"),
        (["--backend", "ray", "--address", "no-port"], "--address must be HOST:PORT"),
        (["--backend", "ray", "--address", "127.0.0.1:99999"], "--address must be HOST:PORT"),
    ],
)
def test_bad_backend_flags_exit_2(args: list[str], message: str) -> None:
    result = CliRunner().invoke(app, [*SIM, *args])
    assert result.exit_code == 2
    assert message in result.output


def test_parse_address() -> None:
    assert parse_address("127.0.0.1:6379") == ("127.0.0.1", 6379)
    assert parse_address("[::1]:6380") == ("::1", 6380)
    assert parse_address("ray://head.example") == ("head.example", 10001)
    assert parse_address("ray://10.0.0.5:10002") == ("10.0.0.5", 10002)
    for bad in ("", ":6379", "host", "host:0", "host:port", "a b:1"):
        with pytest.raises(RayBackendError):
            parse_address(bad)
