"""What the servers' work cost while measuring: the servers' own CPU, memory and collector
pauses, and PostgreSQL's and Redis's CPU and writes (:class:`Window`, :class:`Services`)."""

from __future__ import annotations

import asyncio
import os
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
from prometheus_client.parser import text_string_to_metric_families

from .game import Config
from .measures import cpu_seconds, pids_named, total_cpu
from .processes import Database


class Services:
    """What the servers' work costs PostgreSQL and Redis while measuring.

    PostgreSQL: the CPU of every ``postgres`` process on this machine (its backends and
    background writers) and the WAL it wrote: the whole server's, so other work on it counts
    too (run on a machine of its own); and, as a lower bound that other work does not touch,
    the CPU of the backends serving this run's servers (told apart by the ``application_name``
    the benchmark gives their connections). A process that ends meanwhile is lost (a
    connection the servers' pools close), one that starts counts from its start.

    Redis: its CPU and the commands it ran (``INFO``; the whole server's, so with
    ``--redis-url`` another user's load counts too; a Redis the benchmark started serves only
    this run)."""

    def __init__(self, db: Database | None, redis_url: str | None) -> None:
        self.db = db if db is not None and db.schema is not None else None
        self.redis_url = redis_url

    def read(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.db is not None:
            from sqlalchemy import create_engine, text

            engine = create_engine(self.db.admin_url)
            try:
                with engine.connect() as c:
                    out["pg_wal"] = int(
                        c.scalar(text("select pg_current_wal_lsn() - '0/0'::pg_lsn")) or 0
                    )
                    ours = c.execute(
                        text("select pid from pg_stat_activity where application_name = :a"),
                        {"a": self.db.schema},
                    ).scalars()
                    out["pg_run_cpu"] = {int(p): cpu_seconds(int(p)) or 0.0 for p in ours}
            finally:
                engine.dispose()
            out["pg_cpu"] = {p: cpu_seconds(p) or 0.0 for p in pids_named("postgres")}
        if self.redis_url is not None:
            import redis

            client = redis.Redis.from_url(self.redis_url)
            try:
                info = client.info()
            finally:
                client.close()
            out["redis_cpu"] = float(info["used_cpu_user"]) + float(info["used_cpu_sys"])
            out["redis_commands"] = int(info["total_commands_processed"])
        return out

    @staticmethod
    def spent(before: dict[str, Any], after: dict[str, Any], actions: int) -> dict[str, Any]:
        """Per action between two readings: PostgreSQL's backend CPU (ms) and WAL (KB), Redis's
        CPU (ms) and commands (``None`` where not read)."""
        per = max(actions, 1)
        out: dict[str, Any] = {
            "postgres_cpu_ms_per_action": None,
            "postgres_run_cpu_ms_per_action": None,
            "postgres_wal_kb_per_action": None,
            "redis_cpu_ms_per_action": None,
            "redis_commands_per_action": None,
        }
        if "pg_cpu" in after:
            for key, name in (("pg_cpu", "postgres"), ("pg_run_cpu", "postgres_run")):
                # A process started meanwhile counts from its start.
                cpu = sum(t - before[key].get(p, 0.0) for p, t in after[key].items())
                out[f"{name}_cpu_ms_per_action"] = round(cpu / per * 1e3, 3)
            out["postgres_wal_kb_per_action"] = round(
                (after["pg_wal"] - before["pg_wal"]) / 1024 / per, 2
            )
        if "redis_cpu" in after:
            cpu = after["redis_cpu"] - before["redis_cpu"]
            out["redis_cpu_ms_per_action"] = round(cpu / per * 1e3, 3)
            out["redis_commands_per_action"] = round(
                (after["redis_commands"] - before["redis_commands"]) / per, 2
            )
        return out


async def gc_pauses(cfg: Config) -> dict[str, list[float]]:
    """Each server's garbage-collector pauses so far, summed over the servers: per generation
    the number of collections, their seconds, and the longest (from ``/metrics``)."""
    out = {"count": [0.0] * 3, "seconds": [0.0] * 3, "max": [0.0] * 3}
    for port in cfg.ports or (cfg.port,):
        async with httpx.AsyncClient(base_url=f"http://{cfg.host}:{port}") as client:
            text = (await client.get("/metrics")).text
        for family in text_string_to_metric_families(text):
            for sample in family.samples:
                gen = int(sample.labels.get("generation", -1))
                if sample.name == "meeple_gc_pause_seconds_count":
                    out["count"][gen] += sample.value
                elif sample.name == "meeple_gc_pause_seconds_sum":
                    out["seconds"][gen] += sample.value
                elif sample.name == "meeple_gc_pause_max_seconds":
                    out["max"][gen] = max(out["max"][gen], sample.value)
    return out


@dataclass
class Window:
    """The servers' side of one measurement, read as it begins and as it ends (by the one
    client, or with ``--clients`` by the process that started them)."""

    cfg: Config
    pids: list[int]
    services: Services | None
    load: list[float] = field(default_factory=list)
    cpu: list[float | None] = field(default_factory=list)
    used: list[dict[str, Any]] = field(default_factory=list)
    gc: list[dict[str, list[float]]] = field(default_factory=list)
    times: list[float] = field(default_factory=list)

    async def read(self) -> None:
        """One reading: taken when measuring begins, and again when it ends."""
        if self.times:  # the end: the servers' CPU first, as close to the end as can be
            self.times.append(time.perf_counter())
            self.cpu.append(total_cpu(self.pids))
        self.used.append(await asyncio.to_thread(self.services.read) if self.services else {})
        self.gc.append(await gc_pauses(self.cfg))
        self.load.append(os.getloadavg()[0])
        if not self.times:  # the beginning: the servers' CPU last
            self.cpu.append(total_cpu(self.pids))
            self.times.append(time.perf_counter())

    @property
    def wall(self) -> float:
        return self.times[1] - self.times[0]
