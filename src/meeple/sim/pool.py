"""Worker processes for runs of games: results in order, bounded work in flight, no orphans.

Both the simulator (:func:`meeple.sim.runner.run`) and the arena
(:func:`meeple.lab.arena.run_arena`) hand chunks of games to worker processes. Three promises
hold for both, whatever the run's size (issue 40):

- **Flat memory.** At most ``window`` chunks are submitted and not yet consumed: a run of
  10**7 games holds a few hundred chunks' worth of work, not 200,000 futures, and a run of
  10**12 starts at once (``Executor.map`` submits every call before yielding the first).
- **Results in order.** Chunk ``k``'s results come out before chunk ``k + 1``'s, so a run's
  output does not depend on which worker finished first.
- **No orphans.** When the consumer stops early (an error, Ctrl-C, SIGTERM turned into an
  exception by :mod:`meeple.cli.signals`, or simply not reading on), the workers are stopped
  and waited for before the exception goes on. Workers ignore SIGINT (the parent, which sees
  Ctrl-C too, stops them: no traceback from each), die on SIGTERM and SIGHUP, and on Linux are
  sent SIGTERM by the kernel if the parent dies in any way, ``kill -9`` included.
"""

from __future__ import annotations

import signal
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import TypeVar

A = TypeVar("A")
R = TypeVar("R")

WINDOW_PER_WORKER = 4
"""Chunks in flight per worker: enough that a worker never waits for the parent to read (one
running, the next queued), few enough that memory stays flat."""

_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def _worker_start() -> None:
    """Each worker's set-up: the signals as the module says, and the death signal on Linux."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        import ctypes

        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
        except (OSError, AttributeError):  # no libc to ask (a static build): no backstop
            pass


def _stop(pool: ProcessPoolExecutor) -> None:
    """Stop ``pool`` now: queued chunks cancelled, running workers terminated and reaped."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14+
    if terminate is not None:
        terminate()
        return
    # Before 3.14 the executor has no public way to stop a running call; its process table
    # is the one handle on the workers (a dict of pid: Process), and shutdown() drops it.
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for p in processes:
        if p.is_alive():
            p.terminate()
    pool.shutdown(wait=False, cancel_futures=True)
    for p in processes:
        p.join(5)


def ordered_map(
    fn: Callable[[A], R], calls: Iterable[A], workers: int, window: int | None = None
) -> Iterator[R]:
    """``fn(call)`` for each of ``calls`` (read lazily) in ``workers`` processes, in order.

    At most ``window`` calls (default ``WINDOW_PER_WORKER * workers``) are in flight. If the
    caller stops consuming before the end (an exception thrown in, ``close()``), the workers
    are stopped at once rather than finishing their queue.
    """
    window = window or WINDOW_PER_WORKER * workers
    todo = iter(calls)
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_worker_start)
    done = False
    try:
        pending: deque[Future[R]] = deque()
        for call in todo:
            pending.append(pool.submit(fn, call))
            if len(pending) >= window:
                break
        while pending:
            result = pending.popleft().result()
            for call in todo:  # one more in, for the one out
                pending.append(pool.submit(fn, call))
                break
            yield result
        done = True
    finally:
        if done:
            pool.shutdown(wait=True)
        else:
            _stop(pool)
