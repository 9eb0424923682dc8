"""More than one ``meeple serve`` process over one database: leases, and Redis between them.

The model is the one Colyseus and Nakama use for rooms: a game in play lives in the memory of
one process at a time, its owner, and every other process reaches it through a message bus.

- **Ownership.** The owner holds the game's lease, a row of the ``leases`` table
  (:class:`meeple.server.storage.LeaseRow`) that it renews every third of the lease's length
  (5 s by default). A process asked about a game it does not hold takes the lease when it is
  free or expired (one conditional UPDATE, so two cannot both win), loads the game by
  replaying its stored actions, and serves it. A process that stops (or is killed) stops
  renewing: within one lease another process takes its games over when they are next asked
  for. A process whose renewal fails lets go of the games it lost at once.
- **Requests.** An HTTP request about a game held elsewhere (any path under
  ``/api/games/{id}/`` or ``/api/admin/games/{id}/``) is forwarded whole to its owner over
  Redis publish/subscribe, run there by the same app, and its response relayed back
  (:class:`ClusterRoutes`). The sockets of a game held elsewhere subscribe at the owner,
  which publishes their messages to the socket's process (:class:`RemoteFeed`); when the
  owner changes, such a socket closes with code 1012 and the page reconnects.
- **No action lost or applied twice.** An action is answered only once committed, so a client
  that got no answer retries. A request published to a process that is gone reaches nobody
  (Redis says how many received it) and waits for the lease to run out, then is served by the
  new owner. While a request waits for its owner's answer, the owner is looked at every
  :data:`PROBE_SECONDS`: one that died (nobody listens on its channel any more) or lost the
  game (its lease is another's, or ran out and this process could take it) is given up on at
  once. The request is then retried on the new owner if that is safe (a read, or an action
  with its ``state_id``: if the first try was committed, the new owner answers the repeat as
  applied, without applying it again: :meth:`meeple.server.hub.Hub.act`); otherwise it gets a
  503 that says to look and try again. So a request in flight is answered within about one
  lease of its owner's death, not after :data:`CALL_SECONDS`. A process that lost its lease
  without noticing cannot store over its successor: an action's index is unique in the
  database, and the loser lets go of the game when its store is refused.

Each process listens on its own channel, ``meeple:proc:<id>``; nothing is broadcast. Messages
are JSON: ``call`` (an operation for a game this process owns), ``reply``, and ``feed`` (a
socket's message). Redis must be private to the servers, as the database is: a process trusts
what its channel carries.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import re
import time
import uuid
from collections.abc import Awaitable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError
from starlette.types import ASGIApp, Receive, Scope, Send

from meeple.server.feeds import SPECTATOR_ACTS, Feed, LocalFeed, local_feed
from meeple.server.forwarding import (
    forwarded_request,
    names_position,
    read_body,
    replay,
    run_forwarded,
)
from meeple.server.hub import (
    QUEUE_LIMIT,
    Hub,
    HubError,
    Ownership,
    end_queue,
)
from meeple.server.relay import FEED_BYTES, Relayed
from meeple.server.security import send_detail
from meeple.server.storage import Storage
from meeple.server.wire import Message as WireMessage

OWNER_LOST = (
    "the game's server stopped while answering: look at the game, then try again if your "
    "change is not there"
)

log = logging.getLogger("meeple.server.cluster")

LEASE_SECONDS = 5.0
"""How long a lease lasts unless renewed: a dead process's games wait this long at most."""

CALL_SECONDS = 15.0
"""How long a forwarded request waits for the answer of an owner that lives and holds the game
(an action may wait for a searching bot that holds the game)."""

PROBE_SECONDS = 1.0
"""How often a request waiting for its owner's answer looks whether the owner still lives and
holds the game (at most a quarter of a lease)."""

WATCH_SECONDS = 1.0
"""How often a process checks that the owners of the games its sockets follow are still theirs."""

GAME_PATH = re.compile(r"^/api/(?:admin/)?games/([A-Za-z0-9_-]{1,32})(?:/.*)?$")
"""The HTTP paths about one game, the operator's included: served by its owner."""

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT"})
"""Requests that may be run a second time when the first reached an owner that died."""


def channel(proc: str) -> str:
    """The Redis channel process ``proc`` listens on."""
    return f"meeple:proc:{proc}"


class Undelivered(Exception):
    """Nobody listens on the owner's channel: its process is gone, and the call never ran."""


class Moved(Exception):
    """The process called no longer holds the game."""


class Lost(Exception):
    """The process called stopped answering: it died (nobody listens on its channel), or the
    game's lease is another process's now. The call may or may not have run."""


class RemoteFeed:
    """A socket's feed of a game held by process ``owner``: the owner publishes its messages
    to this process, which puts them in :attr:`queue`."""

    def __init__(self, cluster: Cluster, owner: str, gid: str) -> None:
        self.cluster = cluster
        self.owner = owner
        self.gid = gid
        self.sid = uuid.uuid4().hex
        self.seat: int | None = None
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(QUEUE_LIMIT)
        self.moved = False
        self.hello: dict[str, Any] = {}

    def deliver(self, msg: dict[str, Any] | None, moved: bool = False) -> None:
        if msg is None:
            self.cluster.feeds.pop(self.sid, None)
            self.end(moved)
            return
        try:
            self.queue.put_nowait(msg)
        except asyncio.QueueFull:  # a client that does not read: drop it, as the hub does
            self.end(moved=False)

    def end(self, moved: bool) -> None:
        """Stop the feed: the socket closes (``moved``: the client reconnects elsewhere)."""
        self.moved = moved
        end_queue(self.queue)

    async def open(self, token: str | None) -> None:
        self.cluster.feeds[self.sid] = self
        try:
            reply = await self.cluster.call(
                self.owner, "subscribe", {"gid": self.gid, "sid": self.sid, "token": token}
            )
        except BaseException:
            self.cluster.feeds.pop(self.sid, None)
            raise
        self.seat = reply["seat"]
        self.hello = reply["hello"]

    async def auth(self, token: str) -> dict[str, Any]:
        old = self.sid
        self.sid = uuid.uuid4().hex
        self.queue = asyncio.Queue(QUEUE_LIMIT)  # the spectator's messages are superseded
        self.cluster.feeds[self.sid] = self
        self.cluster.feeds.pop(old, None)
        try:
            reply = await self.cluster.call(
                self.owner, "auth", {"gid": self.gid, "old": old, "sid": self.sid, "token": token}
            )
        except (Undelivered, Moved, Lost, TimeoutError):
            self.cluster.feeds.pop(self.sid, None)
            raise HubError(503, "the game's server is not answering; try again") from None
        self.seat = reply["seat"]
        hello: dict[str, Any] = reply["hello"]
        return hello

    async def act(self, state_id: int, action: str) -> dict[str, Any]:
        if self.seat is None:
            raise HubError(403, SPECTATOR_ACTS)
        args = {"gid": self.gid, "sid": self.sid, "state_id": state_id, "action": action}
        try:
            return await self.cluster.call(self.owner, "act", args)
        except (Undelivered, Moved, Lost, TimeoutError) as exc:
            # Whether the action was stored is for the client to look (its state_id makes
            # trying again safe: a repeat of a stored action is answered as applied). The
            # socket closes with 1012 now if the owner is gone, and the page reconnects to the
            # game's new owner.
            if not isinstance(exc, TimeoutError):
                self.cluster.feeds.pop(self.sid, None)
                self.end(moved=True)
            raise HubError(503, OWNER_LOST) from None

    def close(self) -> None:
        if self.cluster.feeds.pop(self.sid, None) is not None:
            self.cluster.post(self.owner, {"k": "call", "op": "unsubscribe", "sid": self.sid})


class Cluster(Ownership):
    """This process's part in a group of ``meeple serve`` processes over one database and one
    Redis (``redis_url``). See the module docstring."""

    def __init__(
        self,
        hub: Hub,
        redis_url: str,
        lease_seconds: float = LEASE_SECONDS,
        call_seconds: float = CALL_SECONDS,
    ) -> None:
        self.hub = hub
        self.storage: Storage = hub.storage
        self.id = uuid.uuid4().hex
        self.redis_url = redis_url
        self.lease_seconds = lease_seconds
        self.call_seconds = call_seconds
        self.probe_seconds = min(PROBE_SECONDS, lease_seconds / 4)
        self.redis: aioredis.Redis | None = None
        self.app: ASGIApp | None = None  # the app under ClusterRoutes: runs forwarded requests
        self.fastapi: Any = None  # the whole app, which a request's scope names
        self.held: set[str] = set()  # games whose lease this process holds
        # The owners of games held elsewhere, as last read, until (monotonic time): requests
        # are forwarded without asking the database each time; a call that finds the owner
        # gone or moved forgets it.
        self.known: dict[str, tuple[str, float]] = {}
        self.renewed = time.monotonic()  # when the leases were last renewed
        self.pending: dict[str, asyncio.Future[dict[str, Any]]] = {}  # calls awaiting replies
        self.feeds: dict[str, RemoteFeed] = {}  # this process's sockets of games held elsewhere
        # Everything this process publishes goes out in order through one task, so a socket's
        # hello and the updates after it arrive in the order they were made.
        self.outbox: asyncio.Queue[tuple[str, str, asyncio.Future[int] | None]] = asyncio.Queue()
        self.tasks: list[asyncio.Task[None]] = []
        self.side: set[asyncio.Task[None]] = set()
        self.renewer = ThreadPoolExecutor(1, thread_name_prefix="meeple-leases")
        self.relayed = Relayed(hub, self.post_text)  # sockets elsewhere of games held here
        hub.ownership = self

    # -- lifetime -------------------------------------------------------------------------

    async def start(self) -> None:
        """Connect to Redis (a clear error if it is not there) and start listening."""
        self.redis = aioredis.Redis.from_url(self.redis_url)
        try:
            await self.redis.ping()
        except (RedisError, OSError) as exc:
            raise RuntimeError(f"cannot reach Redis at {self.redis_url}: {exc}") from None
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(channel(self.id))
        for work in (self._listen(pubsub), self._publish(), self._renew(), self._watch()):
            self.tasks.append(asyncio.create_task(work))
        log.info("process %s serves games with other processes (Redis %s)", self.id, "ok")

    async def stop(self) -> None:
        """Stop listening and give up every lease (another process takes the games at once)."""
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.tasks.clear()
        for feed in list(self.feeds.values()):
            feed.end(moved=True)
        for gid in list(self.held):
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self.storage.release_lease, gid, self.id)
        self.held.clear()
        self.renewer.shutdown(wait=False)
        if self.redis is not None:
            await self.redis.aclose()
            self.redis = None

    def _spawn(self, work: Awaitable[None]) -> None:
        task: asyncio.Task[None] = asyncio.ensure_future(work)
        self.side.add(task)
        task.add_done_callback(self.side.discard)

    # -- ownership --------------------------------------------------------------------------

    async def claim(self, gid: str) -> bool:
        return await self.route(gid) is None

    async def adopt(self, gid: str) -> bool:
        """No: a new game is held by the process first asked about it (it loads it, with no
        action to replay). A proxy that sends each game's requests to one process (by its id:
        docs/SERVER.md, "More than one process") then has them all served there, where the
        game's maker would have forwarded them, as the proxy sends the making elsewhere."""
        return False

    def released(self, gid: str) -> None:
        if gid in self.held:
            self.held.discard(gid)
            self._spawn(asyncio.to_thread(self.storage.release_lease, gid, self.id))

    async def route(self, gid: str) -> str | None:
        """``None`` when this process holds ``gid`` now (taking its lease if it is free or
        expired), else the process that holds it. 404 for a game that does not exist."""
        if gid in self.held:
            return None
        known = self.known.get(gid)
        if known is not None and known[1] > time.monotonic():
            return known[0]
        owner = await asyncio.to_thread(
            self.storage.acquire_lease, gid, self.id, self.lease_seconds
        )
        if owner == "":
            raise HubError(404, f"no game {gid!r}")
        if owner == self.id:
            self.held.add(gid)
            return None
        self.known[gid] = (owner, time.monotonic() + self.lease_seconds)
        return owner

    def forget(self, gid: str) -> None:
        """The owner last read for ``gid`` did not take a call: read it again next time."""
        self.known.pop(gid, None)

    async def _renew(self) -> None:
        """Renew this process's leases; let go of the games another process took."""
        while True:
            await asyncio.sleep(self.lease_seconds / 3)
            before = set(self.held)
            try:
                # On a thread of its own: behind a busy shared pool, a renewal could come too
                # late, and another process would take over games whose owner is alive.
                kept = await asyncio.get_running_loop().run_in_executor(
                    self.renewer, self.storage.renew_leases, self.id, self.lease_seconds
                )
            except Exception:
                log.exception("cannot renew this process's leases")
                if time.monotonic() - self.renewed > self.lease_seconds:
                    kept = set()  # they ran out: other processes may hold them now
                else:
                    continue
            else:
                self.renewed = time.monotonic()
            for gid in before - kept:
                self.held.discard(gid)
                self.hub.drop(gid)

    async def _watch(self) -> None:
        """End the feeds of games whose owner changed (it died, or let go), taking over a
        game whose lease ran out: their sockets close with 1012 and reconnect to the new
        owner. A lease that ran out while its owner lives (late to renew) stays its owner's
        if it renews first, and the sockets stay open."""
        while True:
            await asyncio.sleep(WATCH_SECONDS)
            clock = time.monotonic()
            for gid in [g for g, (_, until) in self.known.items() if until < clock]:
                del self.known[gid]
            games = {f.gid for f in self.feeds.values()}
            if not games:
                continue
            try:
                leases = await asyncio.to_thread(self.storage.leases, sorted(games))
            except Exception:
                log.exception("cannot read the leases of followed games")
                continue
            now = time.time()
            for gid in games:
                lease = leases.get(gid)
                owners = {f.owner for f in self.feeds.values() if f.gid == gid}
                if lease is not None and lease[1] < now and lease[0] in owners:
                    # Run out but not taken: its owner may be dead, or only late to renew (a
                    # busy machine). Try to take it: if this process can, the owner is gone.
                    self.forget(gid)
                    with contextlib.suppress(HubError):
                        await self.route(gid)
                    lease = (self.id, now) if gid in self.held else lease
                for feed in [f for f in self.feeds.values() if f.gid == gid]:
                    if lease is None or lease[0] != feed.owner:
                        self.feeds.pop(feed.sid, None)
                        feed.end(moved=True)  # the socket reconnects to the new owner

    # -- messages -----------------------------------------------------------------------------

    def post(self, proc: str, msg: dict[str, Any]) -> asyncio.Future[int]:
        """Publish ``msg`` to process ``proc`` (in order); the future says how many got it."""
        done: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.outbox.put_nowait((proc, json.dumps(msg, separators=(",", ":")), done))
        return done

    def post_text(self, proc: str, data: str) -> None:
        """Publish ``data`` as it is to process ``proc``, in order with :meth:`post`."""
        self.outbox.put_nowait((proc, data, None))

    async def _publish(self) -> None:
        while True:
            proc, data, done = await self.outbox.get()
            assert self.redis is not None
            try:
                got = int(await self.redis.publish(channel(proc), data))
            except Exception as exc:  # Redis down: nobody got it, as when the process is gone
                log.warning("cannot publish to process %s: %s", proc, exc)
                got = 0
            if done is not None and not done.done():
                done.set_result(got)
            if got == 0:
                self.relayed.drop_process(proc)

    async def call(self, proc: str, op: str, args: dict[str, Any]) -> dict[str, Any]:
        """Run ``op`` at process ``proc`` about game ``args["gid"]`` and return its result;
        raises :class:`Undelivered` (nobody got it), :class:`Moved` (``proc`` does not hold
        the game), :class:`Lost` (``proc`` died or lost the game while it was asked),
        :class:`HubError` (the owner refused it) or ``TimeoutError`` (no answer in
        :attr:`call_seconds`)."""
        rid = uuid.uuid4().hex
        answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.pending[rid] = answer
        try:
            got = await self.post(proc, {"k": "call", "id": rid, "from": self.id, "op": op, **args})
            if got == 0:
                raise Undelivered(proc)
            reply = await self._answer(proc, args["gid"], answer)
        finally:
            self.pending.pop(rid, None)
        if "moved" in reply:
            raise Moved(proc)
        if "error" in reply:
            status, detail, state_id = reply["error"]
            raise HubError(status, detail, state_id)
        result: dict[str, Any] = reply["ok"]
        return result

    async def _answer(
        self, proc: str, gid: str, answer: asyncio.Future[dict[str, Any]]
    ) -> dict[str, Any]:
        """``answer`` once ``proc`` replies; every :attr:`probe_seconds` without a reply, look
        whether ``proc`` still lives and holds ``gid`` (:class:`Lost` if not)."""
        end = time.monotonic() + self.call_seconds
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError
            with contextlib.suppress(TimeoutError):
                return await asyncio.wait_for(asyncio.shield(answer), min(left, self.probe_seconds))
            if not await self._holds(proc, gid):
                raise Lost(proc)

    async def _holds(self, proc: str, gid: str) -> bool:
        """Whether process ``proc`` lives and holds ``gid``, as far as can be told: someone
        listens on its channel (a killed process's connection to Redis closes with it), and
        its lease is the game's. A lease run out but not taken may be a stalled owner's: this
        process takes it if it can (as :meth:`_watch` does), and then ``proc`` holds it no
        more. A question that fails (Redis or the database away) tells nothing: keep waiting."""
        assert self.redis is not None
        try:
            listeners = await self.redis.pubsub_numsub(channel(proc))
            if not listeners or int(listeners[0][1]) == 0:
                return False
            lease = await asyncio.to_thread(self.storage.lease, gid)
            if lease is not None and lease[0] == proc and lease[1] < time.time():
                self.forget(gid)
                if await self.route(gid) is None:
                    return False
                lease = await asyncio.to_thread(self.storage.lease, gid)
        except (RedisError, OSError, HubError):
            return True
        except Exception:
            log.exception("cannot tell whether process %s still holds game %s", proc, gid)
            return True
        return lease is not None and lease[0] == proc

    async def _listen(self, pubsub: Any) -> None:
        while True:
            try:
                async for message in pubsub.listen():
                    self._take(message)
            except (RedisError, OSError) as exc:
                # redis-py reconnects and subscribes again on the next read
                log.warning("lost Redis (%s); listening again in a second", exc)
                await asyncio.sleep(1.0)

    def _take(self, message: dict[str, Any]) -> None:
        """Act on one message of this process's channel."""
        try:
            data = message["data"]
            if data.startswith(FEED_BYTES):  # a socket's message: see Relayed.sub
                head, _, text = data.partition(b"\n")
                sid, moved = head[len(FEED_BYTES) :].decode("ascii").split(" ")
                feed = self.feeds.get(sid)
                if feed is not None:
                    item = WireMessage.relayed(text.decode("utf-8")) if text else None
                    feed.deliver(item, moved == "1")
                return
            msg = json.loads(data)
            kind = msg["k"]
            if kind == "reply":
                answer = self.pending.get(msg["id"])
                if answer is not None and not answer.done():
                    answer.set_result(msg)
            elif kind == "call":
                self._spawn(self._serve(msg))
        except Exception:
            log.exception("a malformed message between processes was dropped")

    async def _serve(self, msg: dict[str, Any]) -> None:
        """Run a call from another process and publish the reply."""
        op = msg["op"]
        if op == "unsubscribe":
            self.relayed.unsubscribe(msg["sid"])
            return
        reply: dict[str, Any] = {"k": "reply", "id": msg["id"]}
        try:
            if msg["gid"] not in self.held:
                reply["moved"] = True
            elif op == "http":
                reply["ok"] = await self._http(msg)
            elif op == "subscribe":
                reply["ok"] = await self.relayed.subscribe(msg)
            elif op == "auth":
                reply["ok"] = await self.relayed.auth(msg)
            elif op == "act":
                reply["ok"] = await self.relayed.act(msg)
            else:
                reply["error"] = [400, f"unknown operation {op!r}", None]
        except HubError as exc:
            reply["error"] = [exc.status, exc.detail, exc.state_id]
        except Exception as exc:
            log.exception("serving %s for process %s failed", op, msg.get("from"))
            reply["error"] = [500, f"the game's server failed: {type(exc).__name__}", None]
        self.post(msg["from"], reply)

    # -- sockets of other processes -------------------------------------------------------
    async def open_feed(self, gid: str, token: str | None) -> Feed:
        """A socket's feed of ``gid``: local when this process holds the game (or takes it
        now), else relayed from its owner."""
        deadline = time.monotonic() + self.lease_seconds + self.call_seconds
        while True:
            owner = await self.route(gid)
            if owner is None:
                feed: LocalFeed = await local_feed(self.hub, gid, token)
                return feed
            remote = RemoteFeed(self, owner, gid)
            try:
                await remote.open(token)
                return remote
            except (Undelivered, Moved, Lost):  # subscribing again is safe
                self.forget(gid)
                if time.monotonic() > deadline:
                    raise HubError(503, "the game's server is not answering; try again") from None
                await asyncio.sleep(0.25)  # its lease runs out, or the new owner is known
            except TimeoutError:
                raise HubError(504, "the game's server did not answer in time") from None

    # -- HTTP requests for other processes --------------------------------------------------

    async def _http(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Run a forwarded request through this process's app and return its response."""
        assert self.app is not None
        return await run_forwarded(self.app, self.fastapi, msg)


class ClusterRoutes:
    """ASGI middleware: a request about a game another process holds is run by that process.

    Below :class:`meeple.server.security.Guard` and the body limit (they run where the client
    connected); everything under it runs in the game's owner.
    """

    def __init__(self, app: ASGIApp, cluster: Cluster) -> None:
        self.app = app
        self.cluster = cluster
        cluster.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        match = GAME_PATH.match(scope.get("path", "")) if scope["type"] == "http" else None
        if match is None:
            await self.app(scope, receive, send)
            return
        gid = match.group(1)
        cluster = self.cluster
        deadline = time.monotonic() + cluster.lease_seconds + cluster.call_seconds
        body: bytes | None = None
        while True:
            try:
                owner = await cluster.route(gid)
            except HubError as exc:
                await send_detail(send, exc.status, exc.detail)
                return
            if owner is None:
                await self.app(scope, receive if body is None else replay(body), send)
                return
            if body is None:
                body = await read_body(receive)
            try:
                answer = await cluster.call(
                    owner, "http", {"gid": gid, **forwarded_request(scope, body)}
                )
            except (Undelivered, Moved):
                cluster.forget(gid)
                if time.monotonic() > deadline:
                    await send_detail(send, 503, "the game's server is not answering; try again")
                    return
                await asyncio.sleep(0.25)  # its lease runs out, or the new owner is known
                continue
            except (Lost, TimeoutError) as exc:
                # It reached the owner, which may have run it: run it again only if that is
                # safe (an action's repeat at its state_id is answered as applied, not applied).
                cluster.forget(gid)
                safe = scope["method"] in SAFE_METHODS or names_position(body)
                again = safe and time.monotonic() < deadline
                log.info(
                    "game %s: process %s %s while answering a request; %s",
                    gid,
                    owner,
                    "did not answer in time" if isinstance(exc, TimeoutError) else "is gone",
                    "sending it to the game's new owner" if again else "answered 503",
                )
                if again:
                    continue  # to the new owner, once its lease is taken
                await send_detail(send, 503, OWNER_LOST)
                return
            except HubError as exc:
                await send_detail(send, exc.status, exc.detail)
                return
            raw = base64.b64decode(answer["body"])
            await send(
                {
                    "type": "http.response.start",
                    "status": answer["status"],
                    "headers": [
                        (k.encode("latin-1"), v.encode("latin-1")) for k, v in answer["headers"]
                    ],
                }
            )
            await send({"type": "http.response.body", "body": raw})
            return
