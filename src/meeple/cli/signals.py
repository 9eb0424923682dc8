"""SIGTERM and SIGHUP stop a long command as Ctrl-C does.

``timeout``, ``kill``, a batch scheduler and a closed terminal stop a process with SIGTERM or
SIGHUP, whose default is to die on the spot: the parent of ``meeple simulate --workers 2`` went
and its workers played on under PID 1, and a half-written ``--out`` folder would be left. Inside
:func:`stopping`, either signal raises :class:`Stopped` in the main thread instead, a
``KeyboardInterrupt``, so it takes the path Ctrl-C takes: the workers are stopped
(:mod:`meeple.sim.pool`), ``--out`` is left as it was, and the command exits with status
128 + the signal's number, as a shell reports a process the signal killed.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator
from types import FrameType

SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


class Stopped(KeyboardInterrupt):
    """The command was asked to stop by ``signum``."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


received: int | None = None
"""The signal that stopped the command, for the exit status (``None``: none did)."""


def _raise(signum: int, frame: FrameType | None) -> None:
    global received
    received = signum
    raise Stopped(signum)


@contextlib.contextmanager
def stopping() -> Iterator[None]:
    """SIGTERM and SIGHUP raise :class:`Stopped` while inside; the old handlers after."""
    old = {s: signal.signal(s, _raise) for s in SIGNALS}
    try:
        yield
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)
