"""How long the command line takes to start (issue 18: ``meeple --version`` and ``meeple
editions`` in under 0.25 s): the CPU seconds and wall seconds of whole ``meeple`` processes,
each the best of ``--repeat`` runs, with the machine-speed yardstick run before and after
(``benchmarks/machine.py``) and the CPU times scaled to the reference machine.

Run: ``.venv/bin/python benchmarks/bench_cli.py [--repeat 7] [--json -]``
(``MEEPLE_PURE=1`` in front for the pure-Python build).

The CPU time is the child process's user and system time (``os.wait4``), the steadier figure
on a shared machine; a command's time includes starting Python and importing what it uses.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from machine import REFERENCE, scaled, yardstick

from meeple.buildinfo import build_name

COMMANDS = (["--version"], ["--help"], ["editions"])
"""The commands timed: the two the issue names, and the help page between them."""


def meeple_command() -> list[str]:
    """The ``meeple`` script beside this Python (the venv's), else ``python -m meeple``."""
    script = Path(sys.executable).with_name("meeple")
    if script.exists():
        return [str(script)]
    found = shutil.which("meeple")
    return [found] if found else [sys.executable, "-m", "meeple"]


def run_once(argv: list[str]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one process running ``argv``."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited with {proc.returncode}")
    return usage.ru_utime + usage.ru_stime, wall


def measure(repeat: int) -> dict[str, Any]:
    before = yardstick()
    base = meeple_command()
    rows = {}
    for args in COMMANDS:
        runs = [run_once([*base, *args]) for _ in range(repeat)]
        rows[" ".join(args)] = {
            "cpu_seconds": round(min(cpu for cpu, _ in runs), 3),
            "wall_seconds": round(min(wall for _, wall in runs), 3),
        }
    after = yardstick()
    for row in rows.values():
        # Seconds scale inversely with the machine's speed: a rate of 1/seconds is scaled.
        rate = scaled(1 / row["cpu_seconds"], [before, after])
        row["cpu_seconds_scaled"] = round(1 / rate, 3) if rate else None
    return {
        "benchmark": "cli-startup",
        "python": platform.python_version(),
        "build": build_name(),
        "repeat": repeat,
        "commands": rows,
        "yardstick_rolls_per_s": [before, after],
        "reference_rolls_per_s": REFERENCE,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--json", dest="json_path")
    a = ap.parse_args()
    if a.repeat < 1:
        ap.error("--repeat must be at least 1")
    out = measure(a.repeat)
    text = json.dumps(out, indent=1)
    if a.json_path and a.json_path != "-":
        Path(a.json_path).write_text(text + "\n", encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
