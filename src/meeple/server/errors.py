"""What the hub refuses: :class:`HubError`, raised by every job of the live-game hub.

Its own module, below every other part of the hub, so that the table (:mod:`meeple.server.table`)
and the hub's jobs can raise it without importing the hub that runs them.
"""

from __future__ import annotations


class HubError(Exception):
    """A request the hub refuses: an HTTP status, a reason, and the current state id if useful."""

    def __init__(self, status: int, detail: str, state_id: int | None = None) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.state_id = state_id
