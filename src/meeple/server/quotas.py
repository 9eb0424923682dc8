"""What a client may make and open: new games within their share, sockets within the caps.

:class:`Quotas` is one job of the hub (:class:`meeple.server.hub.Hub`): it counts games made and
sockets open per client, and stores a new game only if it fits (``Storage.create_game``), for
the hub's game making (:mod:`meeple.server.making`) and rematches
(:mod:`meeple.server.rematch`).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import functools
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from meeple.server.errors import HubError
from meeple.server.limits import Client, Counters, Window
from meeple.server.storage import Quota, QuotaError

if TYPE_CHECKING:
    from meeple.server.hub import Hub

log = logging.getLogger("meeple.server")


class Quotas:
    """The hub's allowances: games per client and hour, a new game's share, sockets open."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.made = Window(3600.0)  # games made per client address in the last hour
        self.game_sockets = Counters()
        self.client_sockets = Counters()

    def check_new_game(self, client: Client) -> None:
        """Refuse (429) a game from ``client`` over its hourly allowance."""
        most = self.hub.limits.games_per_client_hour
        if not self.made.allow(client.key, most):
            self.hub.limit_hits["games_per_client_hour"] += 1
            raise HubError(429, f"too many new games from your address: at most {most} an hour")

    def waiting_since(self, now: dt.datetime) -> dt.datetime | None:
        """Games waiting to start unchanged since then are as good as expired."""
        life = self.hub.lifecycle.waiting_expire_after
        return None if life is None else now - dt.timedelta(seconds=life)

    def quota(self, client: Client | None) -> Quota:
        """What a new game of ``client`` must fit in (``Limits``; ``None``: a game no client
        asked for, which only the cap on games holds)."""
        lim = self.hub.limits
        now = dt.datetime.now(dt.UTC)
        mine = client is not None
        return Quota(
            client="" if client is None else client.key,
            network="" if client is None else client.network,
            live=lim.live_games,
            client_live=lim.live_per_client if mine else None,
            client_waiting=lim.waiting_per_client if mine else None,
            network_live=lim.live_per_network if mine else None,
            network_waiting=lim.waiting_per_network if mine else None,
            waiting_since=self.waiting_since(now),
            idle_since=now - dt.timedelta(seconds=self.hub.lifecycle.evict_after),
        )

    async def store_new(self, make: Callable[..., str], quota: Quota) -> str:
        """Store a new game with ``make(quota=quota)`` on the writer thread: its id; 429 with
        the reason if it does not fit (counted for the operator). A game expired to make room
        stops here if it is loaded (:meth:`Hub.expired`)."""
        try:
            gid = await self.hub.writer.run(functools.partial(make, quota=quota))
        except QuotaError as exc:
            self.hub.limit_hits[exc.limit] += 1
            raise HubError(429, exc.reason) from None
        for old in quota.evicted:
            self.hub.limit_hits["expired_to_make_room"] += 1
            log.info("game %s expired to make room for game %s", old, gid)
            self.hub.expired(old)
        return gid

    async def lobby(self, status: str | None) -> list[dict[str, Any]]:
        """The lobby's list (``Storage.list_games``): games waiting past their life left out."""
        since = self.waiting_since(dt.datetime.now(dt.UTC))
        return await asyncio.to_thread(self.hub.storage.list_games, status, 100, since)

    def enter_socket(self, gid: str, client: str) -> str:
        """Count a new socket of ``gid`` from ``client``; the reason it is refused, or ""."""
        lim = self.hub.limits
        if not self.game_sockets.enter(gid, lim.sockets_per_game):
            self.hub.limit_hits["sockets_per_game"] += 1
            return f"this game has {lim.sockets_per_game} sockets open, the most it takes"
        if not self.client_sockets.enter(client, lim.sockets_per_client):
            self.game_sockets.leave(gid)
            self.hub.limit_hits["sockets_per_client"] += 1
            return f"your address has {lim.sockets_per_client} sockets open, the most allowed"
        return ""

    def leave_socket(self, gid: str, client: str) -> None:
        self.game_sockets.leave(gid)
        self.client_sockets.leave(client)
