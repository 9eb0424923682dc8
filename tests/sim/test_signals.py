"""A run of ``meeple simulate --workers 2`` stopped by a real signal (issue 40).

SIGTERM (``timeout``, ``kill``, a scheduler) and SIGHUP (a closed terminal) stop the run as
Ctrl-C does: the workers go with it (none left running under PID 1), ``--out`` is left as it
was, and the exit status is 128 + the signal. The run is of 10**12 games, so it also shows
that work is submitted a window at a time: games start at once and the parent stays small.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

MEEPLE = [sys.executable, "-c", "from meeple.cli.main import main; main()"]
RUN = ["simulate", "classic", "--bots", "random", "--workers", "2", "--games", str(10**12)]


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        text = (task / "children").read_text() if (task / "children").exists() else ""
        found += [int(c) for c in text.split()]
    return found


def _alive(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


def _peak_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise AssertionError("no VmHWM")


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc (Linux)")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_stops_the_workers_and_leaves_out_as_it_was(
    tmp_path: Path, signum: signal.Signals
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "games.csv").write_text("an earlier run\n")
    args = [
        "simulate",
        "classic",
        "--bots",
        "random",
        "--workers",
        "2",
        "--games",
        "1000000000000",
        "--out",
    ]
    proc = subprocess.Popen(
        [*MEEPLE, *args, str(out)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "COLUMNS": "200"},
    )
    try:
        partial = out / "games.csv.partial"
        deadline = time.monotonic() + 120
        # Games are played at once, not after 10**12 / 50 chunks are submitted.
        while time.monotonic() < deadline:
            if partial.exists() and partial.read_text().count("\n") > 20:
                break
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            time.sleep(0.2)
        else:
            pytest.fail("no game was written within two minutes")
        workers = _children(proc.pid)
        assert len(workers) >= 2
        # The parent holds a window of chunks, not the run: tens of MB (491 MB at 10**7 games
        # before, and it never started at 10**12).
        assert _peak_kb(proc.pid) < 200_000
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 128 + signum, err
    assert f"stopped by {signum.name}" in err
    assert "Traceback" not in err
    deadline = time.monotonic() + 10
    while any(_alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(w) for w in workers), "a worker outlived the run"
    assert sorted(p.name for p in out.iterdir()) == ["games.csv"]
    assert (out / "games.csv").read_text() == "an earlier run\n"


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc (Linux)")
def test_workers_die_with_a_parent_killed_outright(tmp_path: Path) -> None:
    """``kill -9`` gives the parent no chance to stop anything: on Linux the kernel sends the
    workers SIGTERM when it dies (``PR_SET_PDEATHSIG``, sim/pool.py)."""
    args = [
        "simulate",
        "classic",
        "--bots",
        "random",
        "--workers",
        "2",
        "--games",
        "1000000000000",
        "--json",
        "-",
    ]
    proc = subprocess.Popen([*MEEPLE, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while len(_children(proc.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        workers = _children(proc.pid)
        assert len(workers) >= 2
        time.sleep(1)  # the workers are playing
        proc.kill()
        proc.wait()
    finally:
        if proc.poll() is None:
            proc.kill()
    deadline = time.monotonic() + 10
    while any(_alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(w) for w in workers), "a worker outlived its parent"
