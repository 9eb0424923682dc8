"""Readings of processes (CPU seconds and resident memory, from Linux ``/proc``) and the
latency summaries of a run."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def cpu_seconds(pid: int | None) -> float | None:
    """User plus system CPU seconds of process ``pid`` (Linux ``/proc``; ``None`` elsewhere)."""
    if pid is None:
        return None
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    # After the command name: state is field 3, utime field 14 and stime field 15.
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(sorted_ms: list[float], q: float) -> float:
    """The nearest-rank ``q``-th percentile of an ascending list (0 for an empty one)."""
    if not sorted_ms:
        return 0.0
    k = max(0, min(len(sorted_ms) - 1, -(-len(sorted_ms) * q // 100) - 1))
    return sorted_ms[int(k)]


def summary(samples: list[float]) -> dict[str, float]:
    ms = sorted(x * 1000 for x in samples)
    return {
        "samples": len(ms),
        "p50_ms": round(percentile(ms, 50), 2),
        "p95_ms": round(percentile(ms, 95), 2),
        "p99_ms": round(percentile(ms, 99), 2),
        "max_ms": round(ms[-1], 2) if ms else 0.0,
        "mean_ms": round(sum(ms) / len(ms), 2) if ms else 0.0,
    }


def total_cpu(pids: list[int]) -> float | None:
    """The CPU seconds of all the server processes (``None`` if one cannot be read)."""
    each = [cpu_seconds(pid) for pid in pids]
    if not pids or any(c is None for c in each):
        return None
    return sum(c for c in each if c is not None)


def pids_named(name: str) -> list[int]:
    """The processes whose command is ``name`` (Linux ``/proc``)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if (entry / "comm").read_text().strip() == name:
                    found.append(int(entry.name))
    return found


def rss_mb(pids: list[int]) -> float | None:
    """The resident memory of the server processes together, in MB (Linux ``/proc``)."""
    total = 0
    for pid in pids:
        try:
            lines = Path(f"/proc/{pid}/status").read_text().splitlines()
        except OSError:
            return None
        total += next((int(x.split()[1]) for x in lines if x.startswith("VmRSS:")), 0)
    return total / 1024 if pids else None
