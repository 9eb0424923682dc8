"""How much memory ``meeple simulate --workers N`` holds as ``--games`` grows (issue 40).

Run: ``.venv/bin/python benchmarks/bench_memory.py [--games 10000,1000000,10000000]
[--workers 2] [--seconds 30] [--json -]``

For each ``--games`` it starts ``meeple simulate classic --bots random --workers N --games G``
and samples, every 0.2 s, the peak resident memory (``VmHWM``) of the parent process and of
each worker, until the run ends or ``--seconds`` have passed (then it stops the run with
SIGTERM, which it must obey: the workers go too). A run whose work in flight grows with
``--games`` shows it within seconds (the parent held 491 MB after 12 s at 10**7 games when every
chunk was submitted up front); a bounded window shows the same figure at every size.
``games_played`` counts the games the run wrote to ``--out``'s CSV meanwhile, so a run that
never starts playing shows 0. Linux only (it reads ``/proc``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

MEEPLE = [sys.executable, "-c", "from meeple.cli.main import main; main()"]


def _peak_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            found.update(int(c) for c in (task / "children").read_text().split())
    return found


def measure(games: int, workers: int, seconds: float) -> dict[str, Any]:
    """One run's peak memory (MB) of the parent and of its largest worker."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "out"
        args = ["simulate", "classic", "--bots", "random", "--workers", str(workers)]
        proc = subprocess.Popen(
            [*MEEPLE, *args, "--games", str(games), "--out", str(out)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,  # its own process group: the bench can clean up after it
        )
        start = time.monotonic()
        parent = worker = 0
        workers: set[int] = set()
        played = 0
        stopped = False
        partial = out / "games.csv.partial"
        while proc.poll() is None:
            parent = max(parent, _peak_kb(proc.pid))
            for child in _children(proc.pid):
                workers.add(child)
                worker = max(worker, _peak_kb(child))
            if partial.exists():
                with partial.open("rb") as f:
                    played = max(0, sum(1 for _ in f) - 1)
            if time.monotonic() - start > seconds:
                proc.send_signal(signal.SIGTERM)
                stopped = True
                break
            time.sleep(0.2)
        try:
            _, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:  # the parent went, its workers hold stderr open
            err = "the workers outlived the run"
        time.sleep(1)
        left = [w for w in workers if _peak_kb(w)]  # (0: gone, or a zombie)
        if left:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
        if not stopped:
            done = out / "games.csv"
            played = sum(1 for _ in done.open("rb")) - 1 if done.exists() else played
        return {
            "games": games,
            "workers": workers,
            "seconds": round(time.monotonic() - start, 1),
            "finished": not stopped,
            "exit": proc.returncode,
            "games_played": played,
            "parent_mb": round(parent / 1024, 1),
            "worker_mb": round(worker / 1024, 1),
            "workers_left": len(left),
            "error": err.strip().splitlines()[-1] if proc.returncode not in (0, 143) else "",
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="10000,1000000,10000000")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--json", default="", help="write the rows as JSON here ('-': stdout)")
    args = parser.parse_args()
    if not Path("/proc/self/status").exists():
        sys.exit("bench_memory.py reads /proc: Linux only")
    rows = [measure(int(g), args.workers, args.seconds) for g in args.games.split(",")]
    for r in rows:
        how = "finished" if r["finished"] else f"stopped after {r['seconds']} s"
        print(
            f"--games {r['games']:>14,}: parent {r['parent_mb']:6.1f} MB, largest worker "
            f"{r['worker_mb']:6.1f} MB, {r['games_played']:,} games played ({how}, exit "
            f"{r['exit']}; workers left running: {r['workers_left']}) {r['error']}",
            file=sys.stderr if args.json == "-" else sys.stdout,
        )
    if args.json:
        text = json.dumps({"rows": rows}, indent=1)
        if args.json == "-":
            print(text)
        else:
            Path(args.json).write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
