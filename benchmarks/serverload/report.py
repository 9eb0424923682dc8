"""A run's figures (from the servers' readings and each client's), and their table: one run's,
and a run of more than one process beside one process's."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from machine import REFERENCE, scaled

from .game import PLAYERS, Config, Stats
from .measures import summary
from .services import Services, Window

if TYPE_CHECKING:
    from .driver import Part


def figures(
    cfg: Config, window: Window, parts: list[Part], rss0: float | None, rss1: float | None
) -> dict[str, Any]:
    """A run's figures from the servers' readings and each client's."""
    st = Stats()
    for part in parts:
        st.merge(part.stats)
    wall = window.wall
    cpu0, cpu1 = window.cpu
    gc0, gc1 = window.gc
    server_cpu = None if cpu0 is None or cpu1 is None else round(cpu1 - cpu0, 2)
    return {
        "games": st.games_started,
        "concurrent_games": cfg.games,
        "mean_games_in_play": round(st.game_seconds / wall, 1) if wall > 0 else 0.0,
        "games_finished": st.games_finished,
        "games_capped": st.games_capped,
        "actions": st.actions,
        "updates": st.updates,
        "seconds": round(wall, 2),
        "setup_seconds": round(max(p.setup for p in parts), 2),
        "actions_per_s": round(st.actions / wall, 1) if wall > 0 else 0.0,
        "http": summary(st.http),
        "ws": summary(st.ws),
        "view": summary(st.view),
        "conflicts_409": st.conflicts,
        "errors": st.errors,
        "error_samples": st.error_samples,
        "server_cpu_seconds": server_cpu,
        "server_cpu_share": None
        if server_cpu is None or wall <= 0
        else round(server_cpu / wall, 2),
        "server_cpu_ms_per_action": (
            None
            if server_cpu is None or not st.actions
            else round(server_cpu / st.actions * 1e3, 2)
        ),
        "clients": len(parts),
        "client_cpu_seconds": round(sum(p.client_cpu for p in parts), 2),
        # The servers' collector pauses while measuring (the longest: since the server started).
        "server_gc": {
            "collections": [int(b - a) for a, b in zip(gc0["count"], gc1["count"], strict=True)],
            "seconds": [
                round(b - a, 3) for a, b in zip(gc0["seconds"], gc1["seconds"], strict=True)
            ],
            "longest_ms": [round(m * 1e3, 1) for m in gc1["max"]],
        },
        "server_processes": max(1, len(cfg.ports)),
        "routing": cfg.routing if cfg.ports else None,
        # Memory: the servers' resident set once every game's sockets said hello, and what
        # each socket added to it (a quarter of its game's state with it).
        "server_rss_mb": None if rss1 is None else round(rss1, 1),
        "server_kb_per_socket": None
        if rss0 is None or rss1 is None
        else round((rss1 - rss0) * 1024 / (cfg.games * PLAYERS), 1),
        **Services.spent(window.used[0], window.used[1], st.actions),
        # Other work on the machine: the 1-minute load average when measuring began and ended.
        "load_average": [round(x, 2) for x in window.load],
    }


def table(out: dict[str, Any]) -> str:
    """One run's figures, a line each, then the latencies."""
    rows = [
        ("database", out["database"]),
        (
            "games (concurrent / started / finished)",
            f"{out['concurrent_games']} / {out['games']} / {out['games_finished']}",
        ),
        ("mean games in play", f"{out['mean_games_in_play']}"),
        (
            "clients",
            f"{out['client']}, actions by {out['actions_by']}, pace {out['pace']} s (mean think "
            "time per action), "
            + ("permessage-deflate" if out["compression"] else "no compression"),
        ),
        ("measured seconds", f"{out['seconds']} (setup {out['setup_seconds']} s before)"),
        ("actions", f"{out['actions']:,}"),
        ("actions/s", f"{out['actions_per_s']:,}"),
        ("WebSocket updates received", f"{out['updates']:,}"),
        ("errors / 409s", f"{out['errors']} / {out['conflicts_409']}"),
        (
            "server CPU seconds (share of one core)",
            f"{out['server_cpu_seconds']} ({out['server_cpu_share']})",
        ),
        (
            "server processes",
            f"{out['server_processes']}"
            + (f", routing {out['routing']}" if out["routing"] else ""),
        ),
        (
            "server memory MB (KB per socket)",
            f"{out['server_rss_mb']} ({out['server_kb_per_socket']})",
        ),
        (
            "PostgreSQL CPU ms (the run's backends), WAL KB per action",
            f"{out['postgres_cpu_ms_per_action']} ({out['postgres_run_cpu_ms_per_action']}), "
            f"{out['postgres_wal_kb_per_action']}",
        ),
        (
            "Redis CPU ms, commands per action",
            f"{out['redis_cpu_ms_per_action']}, {out['redis_commands_per_action']}",
        ),
        ("server CPU ms per action", f"{out['server_cpu_ms_per_action']}"),
        (
            f"... scaled to the reference machine ({REFERENCE:,} rolls/s)",
            f"{out['server_cpu_ms_per_action_scaled']}",
        ),
        (
            "machine yardstick, rolls/s (before, after)",
            ", ".join("none here" if s is None else f"{s:,}" for s in out["yardstick_rolls_per_s"]),
        ),
        (
            "client CPU seconds (client processes)",
            f"{out['client_cpu_seconds']} ({out['clients']})",
        ),
        (
            "server GC pauses, generations 0/1/2 (count; s; longest ms)",
            "; ".join("/".join(str(v) for v in out["server_gc"][k]) for k in out["server_gc"]),
        ),
        (
            f"load average (start, end; this machine has {out['cpus']} CPUs)",
            f"{out['load_average'][0]}, {out['load_average'][1]}",
        ),
    ]
    width = max(len(k) for k, _ in rows)
    lines = [f"{k:<{width}}  {v}" for k, v in rows]
    lines.append("")
    lines += latency_lines(out)
    if out["database_kept"]:
        lines.append(f"games kept in {out['database_kept']}")
    for e in out["error_samples"]:
        lines.append(f"error: {e}")
    return "\n".join(lines)


def latency_lines(out: dict[str, Any]) -> list[str]:
    """The latencies' percentiles: action to answer, action to update, and the page clients'
    views."""
    h, w = out["http"], out["ws"]
    lines = [f"{'latency (ms)':<28}{'p50':>8}{'p95':>8}{'p99':>8}{'max':>9}{'samples':>10}"]
    answer = "HTTP response" if out["actions_by"] == "http" else "its answer"
    series = [(f"action -> {answer}", h), ("action -> WebSocket update", w)]
    if out["view"]["samples"]:
        series.append(("GET view (page clients)", out["view"]))
    for name, s in series:
        lines.append(
            f"{name:<28}{s['p50_ms']:>8.1f}{s['p95_ms']:>8.1f}{s['p99_ms']:>8.1f}"
            f"{s['max_ms']:>9.1f}{s['samples']:>10,}"
        )
    return lines


TARGET_P99_MS = 150.0
TARGET_CPU_RATIO = 1.15
"""Issue 39's target for more than one process: p99 from action to answer under 150 ms, and
server CPU per action within 15% of one process's in the same run."""


def comparison(one: dict[str, Any], many: dict[str, Any]) -> str:
    """The one-process row beside the N-process row of the same run, and the target."""
    n = many["server_processes"]

    def ratio(key: str) -> str:
        a, b = one[key], many[key]
        return f"{b / a:.2f}" if a and b is not None else ""

    rows: list[tuple[str, str | tuple[str, str]]] = [
        ("actions/s", "actions_per_s"),
        ("answer p50 ms", ("http", "p50_ms")),
        ("answer p99 ms", ("http", "p99_ms")),
        ("update p99 ms", ("ws", "p99_ms")),
        ("server CPU ms per action", "server_cpu_ms_per_action"),
        ("... scaled to the reference machine", "server_cpu_ms_per_action_scaled"),
        ("server memory MB", "server_rss_mb"),
        ("server KB per socket", "server_kb_per_socket"),
        ("PostgreSQL CPU ms per action", "postgres_cpu_ms_per_action"),
        ("... its backends serving the run", "postgres_run_cpu_ms_per_action"),
        ("PostgreSQL WAL KB per action", "postgres_wal_kb_per_action"),
        ("Redis CPU ms per action", "redis_cpu_ms_per_action"),
        ("Redis commands per action", "redis_commands_per_action"),
        ("errors", "errors"),
    ]
    width = max(len(name) for name, _ in rows)
    lines = [f"{'':<{width}}  {'1 process':>12}  {f'{n} processes':>12}  {'ratio':>6}"]
    for name, key in rows:
        if isinstance(key, tuple):
            a, b = one[key[0]][key[1]], many[key[0]][key[1]]
            r = f"{b / a:.2f}" if a else ""
        else:
            a, b, r = one[key], many[key], ratio(key)
        lines.append(f"{name:<{width}}  {a!s:>12}  {b!s:>12}  {r:>6}")
    p99 = many["http"]["p99_ms"]
    cpu = many["server_cpu_ms_per_action"]
    base = one["server_cpu_ms_per_action"]
    met = (
        p99 < TARGET_P99_MS
        and cpu is not None
        and base is not None
        and cpu <= base * TARGET_CPU_RATIO
    )
    lines.append(
        f"target (p99 under {TARGET_P99_MS:g} ms, CPU per action within "
        f"{TARGET_CPU_RATIO - 1:.0%} of one process): {'met' if met else 'not met'}"
    )
    return "\n".join(lines)


def with_scaled(figures: dict[str, Any], speeds: list[int | None]) -> dict[str, Any]:
    """``figures`` with the server's CPU per action scaled to the reference machine (the time
    scales inversely with the speed)."""
    cpu_ms = figures["server_cpu_ms_per_action"]
    cpu_ms_ref = None if cpu_ms is None else scaled(1 / cpu_ms, speeds)
    return {
        **figures,
        "server_cpu_ms_per_action_scaled": None if not cpu_ms_ref else round(1 / cpu_ms_ref, 2),
    }
