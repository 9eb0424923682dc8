"""The load driver: the games kept in play for the run's duration (a finished game replaced
by a new one), in this process or in ``--clients`` client processes, measured over one window."""

from __future__ import annotations

import asyncio
import gc
import multiprocessing
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from .game import BenchGame, Config, Run, Stats
from .http import Http
from .measures import rss_mb
from .report import figures
from .services import Services, Window

FREEZE_SECONDS = 5.0


async def lane(run: Run, first: BenchGame) -> None:
    """One slot of concurrency: play a game; when it finishes, start the next one in its place."""
    game: BenchGame | None = first
    # Spread the first moves over one pace so that the games do not all act in step.
    await run.pause(run.jitter.uniform(0, run.cfg.pace))
    while game is not None:
        began = time.perf_counter()
        why = await game.play()
        run.stats.game_seconds += time.perf_counter() - began
        await game.close()
        game = None
        if why == "finished":
            run.stats.games_finished += 1
            if not run.stop.is_set():
                game = BenchGame(run, run.take_index())
                try:
                    await game.open()
                except Exception as exc:
                    run.stats.error(f"cannot start a game: {type(exc).__name__}: {exc}")
                    return
        elif why == "capped":
            run.stats.games_capped += 1


async def verify(cfg: Config, games: list[BenchGame]) -> int:
    """Games whose position on the server differs from the client's (checked after the run)."""
    wrong = 0
    http = Http(cfg.host, cfg.port)
    for g in games:
        status, pub = await http.request("GET", f"/api/games/{g.gid}")
        if status != 200 or pub["state_id"] != g.position:
            wrong += 1
    await http.close()
    return wrong


@dataclass
class Part:
    """What one client reports: its games' figures, its setup time and its CPU."""

    stats: Stats
    setup: float
    client_cpu: float


async def open_games(run: Run, count: int) -> tuple[list[BenchGame], float]:
    """``count`` games made and their sockets connected; the seconds it took."""
    games = [BenchGame(run, run.take_index()) for _ in range(count)]
    began = time.perf_counter()
    sem = asyncio.Semaphore(16)

    async def open_one(g: BenchGame) -> None:
        async with sem:
            await g.open()

    await asyncio.gather(*(open_one(g) for g in games))
    return games, time.perf_counter() - began


async def play(
    run: Run,
    games: list[BenchGame],
    begin: Callable[[], Awaitable[None]],
    end: Callable[[], Awaitable[None]],
) -> float:
    """Play ``games`` for the run's duration, between ``begin()`` and ``end()`` (the
    measurement's edges); then check every game's position. The client's CPU seconds."""
    cfg = run.cfg
    # Keep this client's own garbage collector out of the latencies: a full collection of its
    # 800 sockets and 200 game copies pauses it for 100 ms or more. Frozen objects are skipped
    # by collections; freezing again every few seconds keeps the young generations small.
    gc.collect()
    gc.freeze()

    async def freezer() -> None:
        while not run.stop.is_set():
            await run.pause(FREEZE_SECONDS)
            gc.freeze()

    freezing = asyncio.create_task(freezer())
    await begin()
    client_cpu0 = time.process_time()
    run.measuring = True
    lanes = [asyncio.create_task(lane(run, g)) for g in games]
    await asyncio.wait(lanes, timeout=cfg.duration if cfg.duration > 0 else None)
    run.stop.set()  # requests in flight finish and count
    await asyncio.gather(*lanes, freezing, return_exceptions=True)
    client_cpu = time.process_time() - client_cpu0
    run.measuring = False
    await end()
    for t in lanes:
        if not t.cancelled() and t.exception() is not None:
            run.stats.error(f"client task failed: {t.exception()!r}")
    for _ in range(await verify(cfg, run.games)):
        run.stats.error("a game's state_id on the server differs from the client's")
    return client_cpu


async def bench(
    cfg: Config, server_pids: list[int], services: Services | None = None
) -> dict[str, Any]:
    """The run with one client (this process)."""
    run = Run(cfg)
    rss0 = rss_mb(server_pids)
    games, setup = await open_games(run, cfg.games)
    rss1 = rss_mb(server_pids)
    window = Window(cfg, server_pids, services)
    client_cpu = await play(run, games, window.read, window.read)
    return figures(cfg, window, [Part(run.stats, setup, client_cpu)], rss0, rss1)


def measure(
    cfg: Config, server_pids: list[int], services: Services | None, clients: int
) -> dict[str, Any]:
    """The run's figures, with one client (this process) or ``clients`` client processes."""
    if clients == 1:
        return asyncio.run(bench(cfg, server_pids, services))
    return bench_clients(cfg, server_pids, services, clients)


def bench_clients(
    cfg: Config, server_pids: list[int], services: Services | None, clients: int
) -> dict[str, Any]:
    """The run with ``clients`` client processes, each playing its share of the games (game
    ``i`` by client ``i mod clients``, so the games are those one client plays), measured over
    one window that this process reads while they wait for it at a barrier."""
    ctx = multiprocessing.get_context("fork")
    barrier = ctx.Barrier(clients + 1, timeout=CLIENT_SETUP_SECONDS)
    results = ctx.Queue()
    shares = [len(range(i, cfg.games, clients)) for i in range(clients)]
    rss0 = rss_mb(server_pids)
    procs = [
        ctx.Process(target=_client, args=(cfg, i, clients, shares[i], barrier, results))
        for i in range(clients)
    ]
    for proc in procs:
        proc.start()
    window = Window(cfg, server_pids, services)
    try:
        barrier.wait()  # every client has its games open
        rss1 = rss_mb(server_pids)
        asyncio.run(window.read())
        barrier.wait()  # measuring
        barrier.wait(cfg.duration + CLIENT_SETUP_SECONDS)  # every client stopped
        asyncio.run(window.read())
        barrier.wait()  # read: the clients check their games and report
        parts: list[Part] = [results.get(timeout=CLIENT_SETUP_SECONDS) for _ in procs]
    except threading.BrokenBarrierError:
        raise SystemExit("a client process failed; its error is above") from None
    finally:
        for proc in procs:
            proc.join(30)
            if proc.is_alive():
                proc.kill()
    return figures(cfg, window, parts, rss0, rss1)


CLIENT_SETUP_SECONDS = 600.0
"""How long the client processes may take to make their games (and to report)."""


def _client(cfg: Config, first: int, stride: int, count: int, barrier: Any, results: Any) -> None:
    """A client process of :func:`bench_clients`."""

    async def main() -> Part:
        run = Run(cfg, first, stride)
        games, setup = await open_games(run, count)

        async def meet() -> None:
            await asyncio.to_thread(barrier.wait)

        async def begin() -> None:
            await meet()  # all open: the window is read
            await meet()  # go

        async def end() -> None:
            await meet()  # all stopped: the window is read
            await meet()

        client_cpu = await play(run, games, begin, end)
        return Part(run.stats, setup, client_cpu)

    try:
        results.put(asyncio.run(main()))
    except BaseException:
        barrier.abort()
        raise
