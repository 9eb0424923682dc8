"""The machine-speed yardstick each benchmark runs beside its figures.

Machines differ and are shared, so a figure means little without the speed of the machine at
the time: ``../shared/bench/yardstick.py`` (plain-Python Monopoly movement, rolls per second on
one core) is run before and after the measurement, and throughput is also given scaled to the
reference machine, where the yardstick reads :data:`REFERENCE` (the issues' figures are scaled
to it): ``scaled = measured * REFERENCE / yardstick``. Latency is not scaled (it is mostly
waiting, which does not shrink in proportion); the yardstick is reported beside it.

The yardstick's path: ``$MEEPLE_YARDSTICK``, else ``shared/bench/yardstick.py`` beside the
checkout. Without it the figures are reported unscaled, and the report says so.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
from pathlib import Path
from typing import Any

from meeple.buildinfo import build_name

REFERENCE = 2_180_000
"""Rolls per second of the yardstick on the machine the issues' figures are scaled to."""

ROLLS = 1_000_000
"""Rolls per run of the yardstick (it takes the best of three: about 1.5 s in all)."""


def yardstick_path() -> Path | None:
    """Where the yardstick script is, if anywhere."""
    given = os.environ.get("MEEPLE_YARDSTICK")
    candidates = [Path(given)] if given else []
    candidates.append(Path(__file__).resolve().parents[2] / "shared" / "bench" / "yardstick.py")
    return next((p for p in candidates if p.is_file()), None)


def yardstick(rolls: int = ROLLS) -> int | None:
    """The machine's speed now, in yardstick rolls per second (``None``: no yardstick here)."""
    path = yardstick_path()
    if path is None:
        return None
    out = subprocess.run(
        [sys.executable, str(path), str(rolls)], capture_output=True, text=True, check=True
    )
    return int(float(out.stdout.split()[-1]))


def scaled(rate: float, speeds: list[int | None]) -> float | None:
    """``rate`` scaled to the reference machine by the mean of the yardstick's readings."""
    known = [s for s in speeds if s]
    if not known:
        return None
    return rate * REFERENCE / (sum(known) / len(known))


def runtime() -> dict[str, str]:
    """What ran the figures: the Python version, the machine and the engine's build."""
    return {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "build": build_name(),
    }


def report(out: dict[str, Any], speeds: list[int | None], json_path: str | None) -> None:
    """Print a benchmark's figures as JSON, with the yardstick's readings ``speeds`` and the
    reference they are scaled to, and also write them to ``json_path`` if given."""
    out = {**out, "yardstick_rolls_per_s": speeds, "reference_rolls_per_s": REFERENCE}
    print(json.dumps(out, indent=1))
    if json_path:
        with open(json_path, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1)
