"""The server's limits (docs/SERVER.md, "Limits"): how much one client, one game and one
socket may ask for, all configurable, each refused with a clear reason (HTTP 429, or a
WebSocket closed with 1008) and counted for the operator.

A client is counted by its address (:class:`Client`): an IPv4 address, or the /64 of an IPv6
address (what one home or phone is given: each of its addresses counting apart, one /64 would
be 2^64 clients), and games are also counted by its network, the /24 or /48 around it (what one
site holds: a /48 is 65,536 /64s).
"""

from __future__ import annotations

import ipaddress
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from starlette.requests import HTTPConnection


@dataclass(frozen=True)
class Limits:
    """The limits of one server; ``None`` turns one off.

    - ``games_per_client_hour``: games one client address may make in an hour;
    - ``live_games``: games waiting or in play on the server at once; beyond it a new game is
      made only by expiring an idle one of the network that holds the most (docs/SERVER.md,
      "Limits": a few networks cannot lock everyone else out);
    - ``waiting_per_client``, ``waiting_per_network``: games waiting to start that one client
      (:class:`Client`) or its network made and that are still waiting;
    - ``live_per_client``, ``live_per_network``: games waiting or in play that one client or
      its network made;
    - ``sockets_per_game`` and ``sockets_per_client``: WebSocket connections open at once;
    - ``socket_messages``: messages one socket may send in ``socket_window`` seconds, besides
      its actions;
    - ``socket_actions``: actions (``{"type": "act"}``) one socket may send in that window:
      more than anyone clicks, with room for quick bids in an auction;
    - ``hints_at_once``: the advisor's answers worked out at once on the server (each takes a
      core for :data:`~meeple.bots.advisor.DEFAULT_SECONDS`); one more is refused (429).
    """

    games_per_client_hour: int | None = 60
    live_games: int | None = 5000
    waiting_per_client: int | None = 5
    waiting_per_network: int | None = 20
    live_per_client: int | None = 20
    live_per_network: int | None = 100
    sockets_per_game: int | None = 64
    sockets_per_client: int | None = 32
    socket_messages: int | None = 20
    socket_window: float = 10.0
    socket_actions: int | None = 100
    hints_at_once: int | None = 2


NO_LIMITS = Limits(
    games_per_client_hour=None,
    live_games=None,
    waiting_per_client=None,
    waiting_per_network=None,
    live_per_client=None,
    live_per_network=None,
    sockets_per_game=None,
    sockets_per_client=None,
    socket_messages=None,
    socket_actions=None,
    hints_at_once=None,
)
"""Every limit off (load tests from one address: ``meeple serve --no-limits``)."""


CLIENT_PREFIX = {4: 32, 6: 64}
"""How much of an address is one client: an IPv4 address, an IPv6 /64 (one subnet: a home, a
phone, a server each get at least one, and pick addresses in it at will)."""
NETWORK_PREFIX = {4: 24, 6: 48}
"""How much of an address is one network: an IPv4 /24, an IPv6 /48 (one site's allocation)."""


@dataclass(frozen=True)
class Client:
    """Who asks, as the limits count them: ``key`` (its address, or its /64) and ``network``
    (the /24 or /48 around it). A name that is no IP address (a test client's) is both."""

    key: str
    network: str

    @classmethod
    def of(cls, host: str | None) -> Client:
        """The client at address ``host`` (``None``: unknown). An IPv4 address mapped into
        IPv6 (``::ffff:192.0.2.1``, from a dual-stack socket) counts as the IPv4 address."""
        if not host:
            return cls("unknown", "unknown")
        try:
            addr = ipaddress.ip_address(host.strip("[]").split("%")[0])
        except ValueError:  # a test client's name; at most a stored key's length
            return cls(host[:64], host[:64])
        if isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped is not None:
            addr = addr.ipv4_mapped
        if addr.version == 4:
            key = str(addr)
        else:
            key = str(ipaddress.ip_network(f"{addr}/{CLIENT_PREFIX[6]}", strict=False))
        net = ipaddress.ip_network(f"{addr}/{NETWORK_PREFIX[addr.version]}", strict=False)
        return cls(key, str(net))


def client_of(conn: HTTPConnection) -> Client:
    """The client of a request or WebSocket: its address as uvicorn gives it (from
    ``X-Forwarded-For`` only for a trusted proxy's connection: docs/DEPLOY.md)."""
    return Client.of(conn.client.host if conn.client else None)


class Window:
    """How many events each key had in the last ``seconds`` (a sliding window)."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self.clock = clock
        self.events: dict[str, deque[float]] = {}

    def allow(self, key: str, most: int | None) -> bool:
        """Count an event for ``key`` if fewer than ``most`` happened in the window."""
        if most is None:
            return True
        now = self.clock()
        q = self.events.setdefault(key, deque())
        while q and now - q[0] >= self.seconds:
            q.popleft()
        if len(q) >= most:
            return False
        q.append(now)
        return True

    def forget_idle(self) -> None:
        """Drop keys with no event in the window (keeps the table small)."""
        now = self.clock()
        for key in [k for k, q in self.events.items() if not q or now - q[-1] >= self.seconds]:
            del self.events[key]


@dataclass
class Counters:
    """Open connections per key (a game, a client address)."""

    open: dict[str, int] = field(default_factory=dict)

    def enter(self, key: str, most: int | None) -> bool:
        n = self.open.get(key, 0)
        if most is not None and n >= most:
            return False
        self.open[key] = n + 1
        return True

    def leave(self, key: str) -> None:
        n = self.open.get(key, 0) - 1
        if n <= 0:
            self.open.pop(key, None)
        else:
            self.open[key] = n
