"""One game played through the API by its four seats (:class:`BenchGame`), the run it
belongs to (:class:`Run`), the run's settings (:class:`Config`) and what it counts
(:class:`Stats`)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from meeple.bots.base import Bot, make_bot
from meeple.kernel.family import new_game
from meeple.kernel.protocol import GameState
from meeple.kernel.rng import derive_seed

from .http import HTTP_TIMEOUT, Http, HttpError

GAME = "classic"
PLAYERS = 4


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run (63 bits: the API takes seeds up to 2^63-1)."""
    return derive_seed(seed, index) >> 1


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

    def merge(self, other: Stats) -> None:
        """Add another client's figures to these."""
        for name, value in vars(other).items():
            if name == "error_samples":
                self.error_samples = (self.error_samples + value)[:10]
            else:
                setattr(self, name, getattr(self, name) + value)


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
    routing: str = "game"  # with more than one: "game" or "spread" (port_for)

    def port_for(self, index: int, seat: int) -> int:
        """The process game ``index``'s ``seat`` talks to. ``game`` routing: process ``i mod
        N`` for every seat of game ``i``, as a proxy that sends each game's requests to one
        process by its id does (the game is held there: a new game is held by the process
        first asked about it), so nothing is forwarded. ``spread``: the seats spread over
        the processes, as a proxy choosing at random does, so with two processes half the
        requests and sockets reach the process that does not hold the game and are forwarded
        or relayed through Redis."""
        if not self.ports:
            return self.port
        if self.routing == "game":
            return self.ports[index % len(self.ports)]
        return self.ports[(index + seat) % len(self.ports)]

    def maker_port(self, index: int) -> int:
        """The process game ``index`` is made through: with ``game`` routing another than
        its seats', as a proxy sends a request to make a game (which has no id yet) to any."""
        if self.ports and self.routing == "game":
            return self.ports[(index + 1) % len(self.ports)]
        return self.port_for(index, 0)


class Run:
    """All the games of one benchmark run, in this process."""

    def __init__(self, cfg: Config, first: int = 0, stride: int = 1) -> None:
        self.cfg = cfg
        self.stats = Stats()
        self.next_index = first  # this client's games: first, first + stride, ...
        self.stride = stride
        self.games: list[BenchGame] = []  # every game started, in order
        self.stop = asyncio.Event()
        self.measuring = False
        self.jitter = random.Random(cfg.seed)  # think times only: never the game or its bots

    def take_index(self) -> int:
        i = self.next_index
        self.next_index += self.stride
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
            "seats": [{"type": "human", "name": f"Person {s + 1}"} for s in range(PLAYERS)],
            "seed": self.seed,
        }
        cfg = self.run.cfg
        port = cfg.maker_port(self.index)
        maker = self.http if port == cfg.port_for(self.index, 0) else Http(cfg.host, port)
        try:
            status, created = await maker.request("POST", "/api/games", body)
        finally:
            if maker is not self.http:
                await maker.close()
        if status != 201:
            raise HttpError(f"POST /api/games: {status} {created!r:.200}")
        self.gid = created["id"]
        self.tokens = [s["token"] for s in created["seats"]]
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
