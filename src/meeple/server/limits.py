"""The server's limits (docs/SERVER.md, "Limits"): how much one client, one game and one
socket may ask for, all configurable, each refused with a clear reason (HTTP 429, or a
WebSocket closed with 1008) and counted for the operator.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Limits:
    """The limits of one server; ``None`` turns one off.

    - ``games_per_client_hour``: games one client address may make in an hour;
    - ``live_games``: games waiting or in play on the server at once (new ones refused);
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
    sockets_per_game: int | None = 64
    sockets_per_client: int | None = 32
    socket_messages: int | None = 20
    socket_window: float = 10.0
    socket_actions: int | None = 100
    hints_at_once: int | None = 2


NO_LIMITS = Limits(
    games_per_client_hour=None,
    live_games=None,
    sockets_per_game=None,
    sockets_per_client=None,
    socket_messages=None,
    socket_actions=None,
    hints_at_once=None,
)
"""Every limit off (load tests from one address: ``meeple serve --no-limits``)."""


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
