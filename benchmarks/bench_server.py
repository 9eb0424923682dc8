"""Load on ``meeple serve``: many bot games at once through the HTTP and WebSocket API.

Run: ``.venv/bin/python benchmarks/bench_server.py [--games 200] [--duration 60] [--pace 0.5]``
(``benchmarks/README.md`` has every option and the measured figures).

With ``--processes N`` (above 1), N servers share one PostgreSQL database and one Redis (a
``redis-server`` the benchmark starts, unless ``--redis-url``), ``--games`` games in all spread
over them (``--routing``: each game's seats at one process, or spread over all), and the same
games are first run on one process over the same database: both rows are reported side by
side, with what PostgreSQL and Redis spent per action (docs/SERVER.md, "Capacity").

The benchmark starts ``meeple serve`` as a subprocess (one server process; a temporary SQLite
file, or with ``--database-url`` a scratch PostgreSQL schema), creates ``--games`` 4-player
classic games whose four seats are all human seats, and plays them from this process (one
asyncio client, separate from the server, so the server's CPU figure is the server's alone).
Each seat connects its own WebSocket, as a browser does. When a seat's socket reports that the
seat decides now, the seat "thinks" for ``--pace`` seconds on average (uniform between half and
one and a half times it; 0 plays flat out), then sends its action with the ``state_id`` it saw:
as a message on its socket, as the page does (``--actions socket``, the default), or with
``POST /api/games/{id}/actions``, as an API client does (``--actions http``). A finished game
is replaced by a new one so the number of games in play stays at ``--games``.

The seats play ``random`` bots seeded as the server seeds its own (``derive_seed(game seed, 1 +
seat)``): ``--client bot`` chooses on a local copy of each game, ``--client page`` among the
legal actions its last update carried (as the browser page does; ``GET /view`` when an update
did not carry them); both make the same
choices, so the games are fully determined by ``--seed``: game ``i`` has seed
``derive_seed(--seed, i) >> 1``.

Measured, from the moment every game is created and every socket has said hello:
- ``http`` latency: sending an action until its answer has arrived (the HTTP response, or the
  ``acted`` message on the socket);
- ``ws`` latency: sending an action until its update has arrived on a seat's socket (each of
  the four sockets of the game is one sample);
- ``view`` latency (page clients): a ``GET /view`` before an action, if any was needed;
- actions/s, errors (any answer but 2xx and 409, a broken socket, an out-of-order update or a
  final position that disagrees with the client's), 409s, and the CPU seconds of the server
  process and of this client process.

This file reads the command line and puts the parts together; the parts, by job (the load
driver, the process runner, the report, ...), are in ``benchmarks/serverload/``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import sys
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO

from machine import REFERENCE, yardstick
from serverload.driver import measure
from serverload.game import GAME, PLAYERS, Config
from serverload.processes import Database, Server, free_port, raise_file_limit, redis_for
from serverload.report import comparison, table, with_scaled
from serverload.services import Services


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(
        description="Load on meeple serve: concurrent bot games over HTTP + WebSocket."
    )
    load_options(ap)
    server_options(ap)
    a = ap.parse_args(argv)
    check(ap, a)
    raise_file_limit()
    speeds = [yardstick()]  # the machine's speed before and after (machine.py)
    cfg = Config(
        host="127.0.0.1",
        port=a.port,
        client=a.client,
        actions=a.actions,
        compression=not a.no_compression,
        games=a.games,
        duration=a.duration,
        actions_per_game=a.actions_per_game,
        pace=a.pace,
        seed=a.seed,
        routing=a.routing,
    )
    figures, baseline, database, kept = run(a, cfg)
    speeds.append(yardstick())
    out: dict[str, Any] = {
        "benchmark": "server",
        "game": GAME,
        "players": PLAYERS,
        "database": database,
        "database_kept": kept,
        "client": a.client,
        "actions_by": a.actions,
        "compression": not a.no_compression,
        "pace": a.pace,
        "duration": a.duration,
        "actions_per_game": a.actions_per_game,
        "seed": a.seed,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        **with_scaled(figures, speeds),
        "one_process": None if baseline is None else with_scaled(baseline, speeds),
        "yardstick_rolls_per_s": speeds,
        "reference_rolls_per_s": REFERENCE,
    }
    report(a, out)
    if out["errors"] or (baseline is not None and baseline["errors"]):
        raise SystemExit(1)


def load_options(ap: argparse.ArgumentParser) -> None:
    """The options of the load: how many games, how long, how fast, how the seats play."""
    ap.add_argument("--games", type=int, default=200, help="games in play at once (200)")
    ap.add_argument("--duration", type=float, default=60.0, help="seconds to measure (60)")
    ap.add_argument(
        "--actions-per-game", type=int, default=0, help="stop each game after N actions (0: no cap)"
    )
    ap.add_argument(
        "--pace", type=float, default=0.5, help="mean think time before each action, s (0.5)"
    )
    ap.add_argument(
        "--client",
        choices=["bot", "page"],
        default="bot",
        help="bot: each seat chooses on a local copy of the game; page: as the browser page, "
        "among the legal actions its update carried (bot)",
    )
    ap.add_argument(
        "--actions",
        choices=["socket", "http"],
        default="socket",
        help="socket: each action is a message on the seat's WebSocket, as the page sends it; "
        "http: POST /api/games/ID/actions, as an API client does (socket)",
    )
    ap.add_argument(
        "--no-compression",
        action="store_true",
        help="sockets do not offer permessage-deflate (browsers do; the server then sends plain)",
    )
    ap.add_argument("--seed", type=int, default=0)


def server_options(ap: argparse.ArgumentParser) -> None:
    """The options of the servers loaded (their database, how many, how reached), of the
    client processes and of the output."""
    ap.add_argument("--database-url", help="SQLAlchemy URL (default: a temporary SQLite file)")
    ap.add_argument("--port", type=int, default=0, help="server port (default: a free one)")
    ap.add_argument("--keep-data", action="store_true", help="keep the database afterwards")
    ap.add_argument(
        "--server",
        metavar="HOST:PORT",
        help="load a meeple serve already running there instead of starting one "
        "(its CPU is measured only with --server-pid)",
    )
    ap.add_argument("--server-pid", type=int, help="the process id of --server")
    ap.add_argument("--server-log", help="write the server's output here")
    ap.add_argument(
        "--processes",
        type=int,
        default=1,
        help="meeple serve processes sharing one PostgreSQL database and one Redis (1); above "
        "1, a one-process row is measured first in the same run, for comparison",
    )
    ap.add_argument(
        "--routing",
        choices=["game", "spread"],
        default="game",
        help="with --processes: game: each game's seats reach one process, as a proxy routing "
        "by game id; spread: over every process, as a proxy choosing at random (game)",
    )
    ap.add_argument(
        "--baseline-cluster",
        action="store_true",
        help="with --processes: the one-process row runs with the cluster on too (Redis, "
        "leases), so that the comparison shows what a second process costs apart from what "
        "the cluster's own work does",
    )
    ap.add_argument(
        "--redis-url",
        help="the Redis of more than one process (default: a redis-server the benchmark "
        "starts for the run, so that its CPU is the run's alone)",
    )
    ap.add_argument(
        "--clients",
        type=int,
        default=1,
        help="client processes playing the games between them (1); one drives about 1,000 "
        "games at pace 2 on a core, so more games need more",
    )
    ap.add_argument("--json", dest="json_path", help="write the figures as JSON (- for stdout)")


def check(ap: argparse.ArgumentParser, a: argparse.Namespace) -> None:
    """Exit (status 2, as argparse does) on options that do not go together; more than one
    process gets the local PostgreSQL unless ``--database-url`` names one."""
    if not 1 <= a.clients <= a.games:
        ap.error("--clients must be from 1 to --games")
    if a.games < 1:
        ap.error("--games must be at least 1")
    if a.processes < 1:
        ap.error("--processes must be at least 1")
    if a.processes > 1:
        from meeple.server.storage import normalise_url

        a.database_url = a.database_url or LOCAL_POSTGRES
        if a.server or not normalise_url(a.database_url).startswith("postgresql"):
            ap.error("--processes above 1 needs PostgreSQL (--database-url) and no --server")


def run(
    a: argparse.Namespace, cfg: Config
) -> tuple[dict[str, Any], dict[str, Any] | None, str, str | None]:
    """The run's figures, those of one process beside them (``--processes`` above 1), the
    database's kind and where it was kept."""
    baseline: dict[str, Any] | None = None
    if a.server:
        cfg.host, _, port = a.server.rpartition(":")
        cfg.port = int(port)
        figures = measure(cfg, [a.server_pid] if a.server_pid else [], None, a.clients)
        database, kept = "the running server's", None
    elif a.processes == 1:
        figures, database, kept = serve_and_bench(a, cfg, 1, None)
    else:
        with redis_for(a.redis_url) as rds:
            # The same games on one process first, so the two rows share the machine's state.
            alone = rds if a.baseline_cluster else None
            baseline, _, _ = serve_and_bench(a, replace(cfg), 1, alone)
            figures, database, kept = serve_and_bench(a, cfg, a.processes, rds)
    return figures, baseline, database, kept


def report(a: argparse.Namespace, out: dict[str, Any]) -> None:
    """The table (on stderr when the JSON goes to stdout), the comparison with one process,
    and the JSON."""
    text_out: TextIO = sys.stderr if a.json_path == "-" else sys.stdout
    print(table(out), file=text_out)
    if out["one_process"] is not None:
        print("", file=text_out)
        print(comparison(out["one_process"], out), file=text_out)
    if a.json_path == "-":
        print(json.dumps(out, indent=1))
    elif a.json_path:
        with open(a.json_path, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1)


LOCAL_POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"
"""The database of ``--processes`` above 1 without ``--database-url`` (the tests' default)."""


def serve_and_bench(
    a: argparse.Namespace, cfg: Config, processes: int, redis_url: str | None
) -> tuple[dict[str, Any], str, str | None]:
    """Start ``processes`` servers on a fresh database (with ``redis_url`` between them, or
    for one process's cluster: ``--baseline-cluster``), run the benchmark on them, stop them;
    the figures, the database's kind and where it was kept (``--keep-data``)."""
    workdir = Path(tempfile.mkdtemp(prefix="meeple-bench-"))
    db = Database(a.database_url, workdir, a.keep_data)
    cfg.port = a.port or free_port()
    cfg.ports = (cfg.port, *(free_port() for _ in range(processes - 1))) if processes > 1 else ()
    log = Path(a.server_log) if a.server_log else workdir / "server.log"
    extra = ("--redis-url", redis_url) if redis_url is not None else ()
    servers = [Server(db.url, port, log, extra) for port in cfg.ports or (cfg.port,)]
    services = Services(db, redis_url)
    try:
        for server in servers:
            server.start()
        figures = measure(cfg, [server.pid for server in servers], services, a.clients)
    finally:
        for server in servers:
            server.stop()
        db.drop()
        if not a.keep_data:
            shutil.rmtree(workdir, ignore_errors=True)
    return figures, db.kind, db.shown() if a.keep_data else None


if __name__ == "__main__":
    main()
