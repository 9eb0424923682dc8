"""Load on one ``meeple serve`` process: many bot games at once through the HTTP and WebSocket API.

Run: ``.venv/bin/python benchmarks/bench_server.py [--games 200] [--duration 60] [--pace 0.5]``
(``benchmarks/README.md`` has every option and the measured figures).

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
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import platform
import random
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import httpx
from machine import REFERENCE, scaled, yardstick
from prometheus_client.parser import text_string_to_metric_families
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from meeple.bots.base import Bot, make_bot
from meeple.kernel.family import new_game
from meeple.kernel.protocol import GameState
from meeple.kernel.rng import derive_seed

GAME = "classic"
PLAYERS = 4
HTTP_TIMEOUT = 60.0
FREEZE_SECONDS = 5.0
KEEP_ALIVE_SECONDS = 4.0
"""A connection idle this long is not reused (uvicorn closes idle ones after 5 s)."""


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run (63 bits: the API takes seeds up to 2^63-1)."""
    return derive_seed(seed, index) >> 1


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


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


# --- the server -------------------------------------------------------------------------------


class Server:
    """``meeple serve`` on ``url`` and ``port`` in a subprocess, its output in ``log``."""

    def __init__(self, url: str, port: int, log: Path, extra: tuple[str, ...] = ()) -> None:
        self.url = url
        self.port = port
        self.log = log
        self.extra = extra
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = dict(os.environ)
        env.pop("MEEPLE_DATABASE_URL", None)
        cmd = [
            sys.executable,
            "-m",
            "meeple.cli.main",
            "serve",
            "--port",
            str(self.port),
            "--database-url",
            self.url,
            "--bot-pace",
            "0",
            "--no-limits",  # hundreds of games and sockets from one address, on purpose
            *self.extra,
        ]
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
        end = time.monotonic() + 60
        while time.monotonic() < end:
            try:
                r = httpx.get(f"http://127.0.0.1:{self.port}/api/games", timeout=2)
                if r.status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None:
                raise SystemExit("meeple serve stopped:\n" + self.log.read_text()[-4000:])
            time.sleep(0.1)
        self.stop()
        raise SystemExit("meeple serve did not answer within 60 s:\n" + self.log.read_text())

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class Database:
    """Where the server stores games: a temporary SQLite file, or a scratch PostgreSQL schema.

    For PostgreSQL the benchmark creates a fresh schema and points the server at it through the
    connection's ``search_path``, so earlier games in that database are neither resumed nor
    touched; the schema is dropped at the end unless ``keep``.
    """

    def __init__(self, url: str | None, workdir: Path, keep: bool) -> None:
        from meeple.server.storage import normalise_url

        self.keep = keep
        self.schema: str | None = None
        self.admin_url = ""
        if url is None:
            self.url = f"sqlite:///{workdir / 'bench.sqlite'}"
            self.kind = "sqlite"
            return
        url = normalise_url(url)
        self.kind = url.split(":", 1)[0].split("+", 1)[0]
        if self.kind != "postgresql":
            self.url = url
            return
        from sqlalchemy import create_engine, text
        from sqlalchemy.engine import make_url

        self.admin_url = url
        self.schema = f"meeple_bench_{uuid.uuid4().hex[:12]}"
        engine = create_engine(url)
        with engine.begin() as c:
            c.execute(text(f'CREATE SCHEMA "{self.schema}"'))
        engine.dispose()
        scoped = make_url(url).update_query_dict({"options": f"-csearch_path={self.schema}"})
        self.url = scoped.render_as_string(hide_password=False)

    def shown(self) -> str:
        if self.schema is None:
            return self.url
        from sqlalchemy.engine import make_url

        return make_url(self.admin_url).render_as_string(hide_password=True) + (
            f" (schema {self.schema})"
        )

    def drop(self) -> None:
        if self.schema is None or self.keep:
            return
        from sqlalchemy import create_engine, text

        engine = create_engine(self.admin_url)
        with engine.begin() as c:
            c.execute(text(f'DROP SCHEMA "{self.schema}" CASCADE'))
        engine.dispose()


# --- the clients ------------------------------------------------------------------------------


class HttpError(Exception):
    pass


class Http:
    """A minimal HTTP/1.1 keep-alive JSON client: one connection, one request at a time.

    Each game has at most one request in flight, so it needs one connection and nothing else.
    httpx costs several times more CPU per request (its pool scans every connection, and
    httpcore looks for an optional module on each request); on a 2-core machine that CPU would
    be taken from the server being measured.
    """

    def __init__(self, host: str, port: int) -> None:
        self.host = host
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.used = 0.0  # when the connection last answered (monotonic seconds)

    async def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """``(status, decoded JSON body)``; :class:`HttpError` if the exchange itself fails."""
        try:
            async with asyncio.timeout(HTTP_TIMEOUT):
                return await self._exchange(method, path, body)
        except (OSError, EOFError, ValueError, TimeoutError, asyncio.IncompleteReadError) as exc:
            await self.close()
            raise HttpError(f"{method} {path}: {type(exc).__name__}: {exc}") from None

    async def _exchange(self, method: str, path: str, body: Any) -> tuple[int, Any]:
        if self.reader is not None and (
            self.reader.at_eof() or time.monotonic() - self.used > KEEP_ALIVE_SECONDS
        ):
            # The server closed the idle connection, or is about to (its keep-alive timeout):
            # a request sent as it closes would be reset, where a browser would send it again.
            await self.close()
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        data = b"" if body is None else json.dumps(body).encode()
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n"
        )
        self.writer.write(head.encode("ascii") + data)
        status_line = await self.reader.readline()
        parts = status_line.split(None, 2)
        if len(parts) < 2 or not parts[0].startswith(b"HTTP/1."):
            raise ValueError(f"bad status line {status_line!r}")
        status = int(parts[1])
        length: int | None = None
        close = parts[0] == b"HTTP/1.0"
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b"\n", b""):
                break
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"connection":
                close = value.strip().lower() == b"close"
            elif name == b"transfer-encoding":
                raise ValueError("chunked answers are not expected from this API")
        if length is None:
            raise ValueError("answer without Content-Length")
        payload = await self.reader.readexactly(length)
        self.used = time.monotonic()
        if close:
            await self.close()
        return status, json.loads(payload) if payload else None

    async def close(self) -> None:
        writer, self.writer, self.reader = self.writer, None, None
        if writer is not None:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()


@dataclass
class Stats:
    http: list[float] = field(default_factory=list)
    ws: list[float] = field(default_factory=list)
    view: list[float] = field(default_factory=list)
    actions: int = 0
    updates: int = 0
    conflicts: int = 0
    errors: int = 0
    error_samples: list[str] = field(default_factory=list)
    games_started: int = 0
    games_finished: int = 0
    games_capped: int = 0
    game_seconds: float = 0.0

    def error(self, what: str) -> None:
        self.errors += 1
        if len(self.error_samples) < 10:
            self.error_samples.append(what)


@dataclass
class Config:
    host: str
    port: int
    games: int
    duration: float
    actions_per_game: int
    pace: float
    seed: int
    client: str  # "bot" or "page"
    actions: str  # "socket" (as the page sends them) or "http" (POST, as API clients do)
    compression: bool  # whether the sockets offer permessage-deflate (browsers do)
    ports: tuple[int, ...] = ()  # with more than one server process: each one's port

    def port_for(self, index: int, seat: int) -> int:
        """The process game ``index``'s ``seat`` talks to: game ``i`` is made through process
        ``i mod N`` (which then holds it), and its seats are spread over the processes as a
        load balancer would, so with two processes half the requests and sockets reach the
        process that does not hold the game and are forwarded or relayed through Redis."""
        if not self.ports:
            return self.port
        return self.ports[(index + seat) % len(self.ports)]


class Run:
    """All the games of one benchmark run, in this process."""

    def __init__(self, cfg: Config) -> None:
        self.cfg = cfg
        self.stats = Stats()
        self.next_index = 0
        self.games: list[BenchGame] = []  # every game started, in order
        self.stop = asyncio.Event()
        self.measuring = False
        self.jitter = random.Random(cfg.seed)  # think times only: never the game or its bots

    def take_index(self) -> int:
        i = self.next_index
        self.next_index += 1
        return i

    async def pause(self, seconds: float) -> None:
        """Wait ``seconds``, or less if the run stops meanwhile."""
        if seconds > 0 and not self.stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stop.wait(), seconds)

    async def think(self) -> None:
        if self.cfg.pace > 0:
            await self.pause(self.cfg.pace * self.jitter.uniform(0.5, 1.5))


class BenchGame:
    """One game on the server: its four seats' sockets, their bots, and its play loop.

    ``bot`` clients keep a local copy of the game and choose with ``random`` bots seeded as the
    server seeds its own; ``page`` clients do what the browser page does, asking the server for
    the seat's view and legal actions when the seat decides, and choose among those with the
    same random streams (the same choice, as the server lists the engine's legal actions in
    order).
    """

    def __init__(self, run: Run, index: int) -> None:
        self.run = run
        self.index = index
        self.seed = game_seed(run.cfg.seed, index)
        self.state: GameState | None = None
        self.bots: list[Bot] = [
            make_bot("random", "monopoly", derive_seed(self.seed, 1 + s)) for s in range(PLAYERS)
        ]
        if run.cfg.client == "bot":
            self.state = new_game(GAME, PLAYERS, self.seed)
            self.state.record_events = False
        self.http = Http(run.cfg.host, run.cfg.port_for(index, 0))
        by_port = {run.cfg.port_for(index, 0): self.http}
        for s in range(PLAYERS):
            port = run.cfg.port_for(index, s)
            by_port.setdefault(port, Http(run.cfg.host, port))
        self.seat_http = [by_port[run.cfg.port_for(index, s)] for s in range(PLAYERS)]
        self.gid = ""
        self.tokens: list[str] = []
        self.sockets: list[ClientConnection] = []
        self.readers: list[asyncio.Task[None]] = []
        self.seen = [-1] * PLAYERS  # the last state_id each seat's socket reported
        self.decider: dict[int, int] = {}  # state_id -> the seat deciding there (from updates)
        self.finished_at = -1  # the state_id where an update said "finished"
        self.told = asyncio.Event()
        self.sent_at: dict[int, float] = {}  # state_id an action leads to -> when it was sent
        self.broken = False
        self.position = 0  # actions the server has accepted from this client
        # What each seat's last update said it may do, and at which position (page clients).
        self.legal: list[list[dict[str, str]] | None] = [None] * PLAYERS
        self.legal_at = [-1] * PLAYERS
        self.waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}  # seat -> its answer

    async def open(self) -> None:
        """Create the game on the server and connect each seat's socket (hello received)."""
        body = {
            "game": GAME,
            "seats": [{"type": "human", "name": f"Seat {s + 1}"} for s in range(PLAYERS)],
            "seed": self.seed,
        }
        status, created = await self.http.request("POST", "/api/games", body)
        if status != 201:
            raise HttpError(f"POST /api/games: {status} {created!r:.200}")
        self.gid = created["id"]
        self.tokens = [s["token"] for s in created["seats"]]
        cfg = self.run.cfg
        for seat, token in enumerate(self.tokens):
            ws = await connect(
                f"ws://{cfg.host}:{cfg.port_for(self.index, seat)}/api/games/{self.gid}/ws"
                f"?token={token}",
                max_size=2**22,
                compression="deflate" if cfg.compression else None,
            )
            hello = json.loads(await ws.recv())
            if hello.get("type") != "hello" or hello.get("state_id") != 0:
                raise RuntimeError(f"game {self.gid} seat {seat}: unexpected hello {hello!r:.200}")
            self.seen[seat] = 0
            self.decider[0] = hello["current_player"]
            self.legal[seat], self.legal_at[seat] = hello.get("legal_actions"), 0
            self.sockets.append(ws)
        self.readers = [
            asyncio.create_task(self.read(seat, ws)) for seat, ws in enumerate(self.sockets)
        ]
        self.run.stats.games_started += 1
        self.run.games.append(self)

    async def read(self, seat: int, ws: ClientConnection) -> None:
        run, stats = self.run, self.run.stats
        try:
            async for raw in ws:
                now = time.perf_counter()
                msg = json.loads(raw)
                sid = msg.get("state_id")
                if msg.get("type") in ("acted", "refused"):
                    waiter = self.waiting.pop(seat, None)
                    if waiter is not None and not waiter.done():
                        waiter.set_result(msg)
                    continue
                if msg.get("type") == "seats":  # who is here: a seat's socket came or went
                    continue
                if msg.get("type") != "update" or sid != self.seen[seat] + 1:
                    stats.error(f"game {self.gid} seat {seat}: update out of order: {sid}")
                    self.broken = True
                    self.told.set()
                    return
                stats.updates += 1
                sent = self.sent_at.get(sid)
                if sent is not None and run.measuring:
                    stats.ws.append(now - sent)
                self.seen[seat] = sid
                self.legal[seat], self.legal_at[seat] = msg.get("legal_actions"), sid
                self.decider.setdefault(sid, msg["current_player"])
                if msg.get("status") == "finished":
                    self.finished_at = sid
                self.told.set()
        except ConnectionClosed as exc:
            waiter = self.waiting.pop(seat, None)
            if waiter is not None and not waiter.done():
                waiter.set_result({"type": "refused", "status": 0, "detail": str(exc)})
            if not run.stop.is_set() and self.finished_at < 0:
                stats.error(f"game {self.gid} seat {seat}: socket closed: {exc}")
                self.broken = True
                self.told.set()

    async def wait_told(self, seat: int | None, sid: int) -> bool:
        """Wait until ``seat``'s socket (any socket if ``None``) has reported position ``sid``;
        False if the game broke or the run stopped."""
        run = self.run
        while (sid not in self.decider) if seat is None else (self.seen[seat] < sid):
            if self.broken or run.stop.is_set():
                return False
            self.told.clear()
            await self.told.wait()
        return not self.broken

    async def play(self) -> str:
        """Play until the game ends, reaches its cap, breaks or the run stops; returns why."""
        run, stats, cfg = self.run, self.run.stats, self.run.cfg
        sid = 0
        while True:
            if 0 <= self.finished_at <= sid or (
                self.state is not None and self.state.is_terminal()
            ):
                return "finished"
            if cfg.actions_per_game and sid >= cfg.actions_per_game:
                return "capped"
            # Act only once the deciding seat's own socket has said that it decides now.
            if not await self.wait_told(None, sid):
                return "stopped"
            seat = self.decider[sid]
            if self.finished_at == sid:
                return "finished"
            if self.state is not None and seat != self.state.current_player():
                stats.error(f"game {self.gid}: update names seat {seat} at {sid}")
                return "broken"
            if not await self.wait_told(seat, sid):
                return "stopped"
            await run.think()
            if run.stop.is_set():
                return "stopped"
            try:
                action = await self.choose(seat, sid)
                if action is None:
                    return "broken"
                sent = time.perf_counter()
                self.sent_at[sid + 1] = sent
                status, answer = await self.send(seat, sid, action)
            except HttpError as exc:
                stats.error(f"game {self.gid}: {exc}")
                return "broken"
            took = time.perf_counter() - sent
            if status == 409:
                stats.conflicts += 1  # nobody else plays these seats: should not happen
                return "broken"
            if status != 200:
                stats.error(f"game {self.gid}: {status} {answer!r:.200}")
                return "broken"
            if run.measuring:
                stats.http.append(took)
                stats.actions += 1
            if answer.get("state_id") != sid + 1:
                stats.error(f"game {self.gid}: answered state_id {answer.get('state_id')}")
                return "broken"
            self.sent_at.pop(sid, None)
            sid += 1
            self.position = sid

    async def send(self, seat: int, sid: int, action: str) -> tuple[int, Any]:
        """Send ``seat``'s action at ``sid`` on its socket or by POST: ``(status, answer)``."""
        if self.run.cfg.actions == "http":
            body = {"token": self.tokens[seat], "state_id": sid, "action": action}
            return await self.seat_http[seat].request(
                "POST", f"/api/games/{self.gid}/actions", body
            )
        waiter = self.waiting[seat] = asyncio.get_running_loop().create_future()
        msg = {"type": "act", "action": action, "state_id": sid, "ref": sid}
        try:
            async with asyncio.timeout(HTTP_TIMEOUT):
                await self.sockets[seat].send(json.dumps(msg))
                answer = await waiter
        except (ConnectionClosed, TimeoutError) as exc:
            raise HttpError(f"act on the socket: {type(exc).__name__}: {exc}") from None
        if answer["type"] == "acted":
            return 200, answer
        return int(answer["status"]), answer

    async def choose(self, seat: int, sid: int) -> str | None:
        """The action text ``seat`` plays at ``sid``: from the local copy, or the server's list."""
        bot = self.bots[seat]
        if self.state is not None:
            action = bot.choose(self.state)
            self.state.apply(action)  # undone by nothing: a refused action ends this game
            return str(action)
        legal = self.legal[seat]
        if self.legal_at[seat] == sid and legal:  # the update carried them, as the page reads
            return str(legal[bot.rng.below(len(legal))]["action"])
        t = time.perf_counter()
        path = f"/api/games/{self.gid}/view?token={self.tokens[seat]}"
        status, view = await self.seat_http[seat].request("GET", path)
        if self.run.measuring:
            self.run.stats.view.append(time.perf_counter() - t)
        legal = view.get("legal_actions") if status == 200 else None
        if not legal or view.get("state_id") != sid:
            self.run.stats.error(f"game {self.gid}: view at {sid}: {status} {view!r:.200}")
            return None
        return str(legal[bot.rng.below(len(legal))]["action"])

    async def close(self) -> None:
        for ws in self.sockets:
            with contextlib.suppress(Exception):
                await ws.close()
        for t in self.readers:
            t.cancel()
        for t in self.readers:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        for http in {id(h): h for h in [*self.seat_http, self.http]}.values():
            await http.close()


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


def total_cpu(pids: list[int]) -> float | None:
    """The CPU seconds of all the server processes (``None`` if one cannot be read)."""
    each = [cpu_seconds(pid) for pid in pids]
    if not pids or any(c is None for c in each):
        return None
    return sum(c for c in each if c is not None)


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


async def bench(cfg: Config, server_pids: list[int]) -> dict[str, Any]:
    run = Run(cfg)
    games = [BenchGame(run, run.take_index()) for _ in range(cfg.games)]
    setup = time.perf_counter()
    sem = asyncio.Semaphore(16)

    async def open_one(g: BenchGame) -> None:
        async with sem:
            await g.open()

    await asyncio.gather(*(open_one(g) for g in games))
    setup = time.perf_counter() - setup
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

    load0 = os.getloadavg()[0]
    gc0 = await gc_pauses(cfg)
    server_cpu0 = total_cpu(server_pids)
    client_cpu0 = time.process_time()
    t0 = time.perf_counter()
    run.measuring = True
    lanes = [asyncio.create_task(lane(run, g)) for g in games]
    await asyncio.wait(lanes, timeout=cfg.duration if cfg.duration > 0 else None)
    run.stop.set()  # requests in flight finish and count
    await asyncio.gather(*lanes, freezing, return_exceptions=True)
    wall = time.perf_counter() - t0
    server_cpu1 = total_cpu(server_pids)
    client_cpu = time.process_time() - client_cpu0
    run.measuring = False
    gc1 = await gc_pauses(cfg)
    for t in lanes:
        if not t.cancelled() and t.exception() is not None:
            run.stats.error(f"client task failed: {t.exception()!r}")
    for _ in range(await verify(cfg, run.games)):
        run.stats.error("a game's state_id on the server differs from the client's")

    st = run.stats
    server_cpu = (
        None if server_cpu0 is None or server_cpu1 is None else round(server_cpu1 - server_cpu0, 2)
    )
    return {
        "games": st.games_started,
        "concurrent_games": cfg.games,
        "mean_games_in_play": round(st.game_seconds / wall, 1) if wall > 0 else 0.0,
        "games_finished": st.games_finished,
        "games_capped": st.games_capped,
        "actions": st.actions,
        "updates": st.updates,
        "seconds": round(wall, 2),
        "setup_seconds": round(setup, 2),
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
        "client_cpu_seconds": round(client_cpu, 2),
        # The servers' collector pauses while measuring (the longest: since the server started).
        "server_gc": {
            "collections": [int(b - a) for a, b in zip(gc0["count"], gc1["count"], strict=True)],
            "seconds": [
                round(b - a, 3) for a, b in zip(gc0["seconds"], gc1["seconds"], strict=True)
            ],
            "longest_ms": [round(m * 1e3, 1) for m in gc1["max"]],
        },
        "server_processes": max(1, len(cfg.ports)),
        # Other work on the machine: the 1-minute load average when measuring began and ended.
        "load_average": [round(load0, 2), round(os.getloadavg()[0], 2)],
    }


# --- the report -------------------------------------------------------------------------------


def table(out: dict[str, Any]) -> str:
    h, w = out["http"], out["ws"]
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
        ("server processes", f"{out['server_processes']}"),
        ("server CPU ms per action", f"{out['server_cpu_ms_per_action']}"),
        (
            f"... scaled to the reference machine ({REFERENCE:,} rolls/s)",
            f"{out['server_cpu_ms_per_action_scaled']}",
        ),
        (
            "machine yardstick, rolls/s (before, after)",
            ", ".join("none here" if s is None else f"{s:,}" for s in out["yardstick_rolls_per_s"]),
        ),
        ("client CPU seconds", f"{out['client_cpu_seconds']}"),
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
    lines.append(f"{'latency (ms)':<28}{'p50':>8}{'p95':>8}{'p99':>8}{'max':>9}{'samples':>10}")
    answer = "HTTP response" if out["actions_by"] == "http" else "its answer"
    series = [(f"action -> {answer}", h), ("action -> WebSocket update", w)]
    if out["view"]["samples"]:
        series.append(("GET view (page clients)", out["view"]))
    for name, s in series:
        lines.append(
            f"{name:<28}{s['p50_ms']:>8.1f}{s['p95_ms']:>8.1f}{s['p99_ms']:>8.1f}"
            f"{s['max_ms']:>9.1f}{s['samples']:>10,}"
        )
    if out["database_kept"]:
        lines.append(f"games kept in {out['database_kept']}")
    for e in out["error_samples"]:
        lines.append(f"error: {e}")
    return "\n".join(lines)


def raise_file_limit() -> None:
    # Each game holds four sockets on both sides; the server inherits this limit.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else 65536
    if soft != resource.RLIM_INFINITY and soft < want:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(
        description="Load on one meeple serve process: concurrent bot games over HTTP + WebSocket."
    )
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
        help="meeple serve processes sharing the database and --redis-url (1); more than one "
        "needs a PostgreSQL --database-url",
    )
    ap.add_argument(
        "--redis-url",
        default="redis://127.0.0.1:6379/0",
        help="the Redis of more than one process (redis://127.0.0.1:6379/0)",
    )
    ap.add_argument("--json", dest="json_path", help="write the figures as JSON (- for stdout)")
    a = ap.parse_args(argv)
    if a.games < 1:
        ap.error("--games must be at least 1")
    if a.processes < 1:
        ap.error("--processes must be at least 1")
    if a.processes > 1 and (a.server or not (a.database_url or "").startswith("postgres")):
        ap.error("--processes above 1 needs a PostgreSQL --database-url (and no --server)")

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
    )
    if a.server:
        cfg.host, _, port = a.server.rpartition(":")
        cfg.port = int(port)
        figures = asyncio.run(bench(cfg, [a.server_pid] if a.server_pid else []))
        database, kept = "the running server's", None
    else:
        workdir = Path(tempfile.mkdtemp(prefix="meeple-bench-"))
        db = Database(a.database_url, workdir, a.keep_data)
        cfg.port = a.port or free_port()
        log = Path(a.server_log) if a.server_log else workdir / "server.log"
        if a.processes > 1:
            cfg.ports = (cfg.port, *(free_port() for _ in range(a.processes - 1)))
        extra = ("--redis-url", a.redis_url) if a.processes > 1 else ()
        servers = [Server(db.url, port, log, extra) for port in cfg.ports or (cfg.port,)]
        try:
            for server in servers:
                server.start()
            figures = asyncio.run(bench(cfg, [server.pid for server in servers]))
        finally:
            for server in servers:
                server.stop()
            db.drop()
            if not a.keep_data:
                shutil.rmtree(workdir, ignore_errors=True)
        database, kept = db.kind, db.shown() if a.keep_data else None
    speeds.append(yardstick())
    cpu_ms = figures["server_cpu_ms_per_action"]
    # CPU per action on the reference machine: the time scales inversely with the speed.
    cpu_ms_ref = None if cpu_ms is None else scaled(1 / cpu_ms, speeds)
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
        **figures,
        "yardstick_rolls_per_s": speeds,
        "reference_rolls_per_s": REFERENCE,
        "server_cpu_ms_per_action_scaled": None if not cpu_ms_ref else round(1 / cpu_ms_ref, 2),
    }
    text_out: TextIO = sys.stderr if a.json_path == "-" else sys.stdout
    print(table(out), file=text_out)
    if a.json_path == "-":
        print(json.dumps(out, indent=1))
    elif a.json_path:
        with open(a.json_path, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1)
    if out["errors"]:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
