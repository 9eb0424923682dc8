"""The one writer of the database: grouped commits on a single thread (:class:`Writer`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from meeple.server.storage import ActionWrite, Storage

log = logging.getLogger("meeple.server")

T = TypeVar("T")


def _retrieved(fut: asyncio.Future[None]) -> None:
    if not fut.cancelled():
        fut.exception()


class Writer:
    """The one writer of the database: every write runs on its single thread, actions grouped.

    :meth:`append` queues an action; while a commit is under way, the actions that arrive wait
    and are then stored together by one :meth:`Storage.append_actions` transaction (group
    commit: one fsync for all of them). After that commit, and only then, each action's
    ``on_commit`` runs on the event loop (the game's new state is published) and its waiter
    wakes. If a grouped commit fails, each of its actions is retried alone, so one bad action
    fails only its own request.
    """

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.executor: ThreadPoolExecutor | None = None
        self.pending: list[tuple[ActionWrite, Callable[[], None], asyncio.Future[None]]] = []
        self.task: asyncio.Task[None] | None = None
        self.commits = 0  # transactions that stored actions, for tests and logs
        self.actions_committed = 0  # for the operator (/metrics)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on the writer thread (between two grouped commits)."""
        if self.executor is None:
            self.executor = ThreadPoolExecutor(1, thread_name_prefix="meeple-db")
        return await asyncio.get_running_loop().run_in_executor(self.executor, fn, *args)

    async def append(self, write: ActionWrite, on_commit: Callable[[], None]) -> None:
        """Store ``write``; ``on_commit()`` runs once it is committed, even if this waiter is
        cancelled meanwhile (so the live game never falls behind the database). Raises what
        the database raised; then nothing was stored and ``on_commit`` does not run."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        fut.add_done_callback(_retrieved)  # a cancelled waiter never reads the error itself
        self.pending.append((write, on_commit, fut))
        if self.task is None:
            self.task = asyncio.create_task(self._drain(), name="meeple-group-commit")
        await asyncio.shield(fut)

    async def _drain(self) -> None:
        try:
            while self.pending:
                batch, self.pending = self.pending, []
                try:
                    errors = await self.run(self._store, [w for w, _, _ in batch])
                except Exception as exc:  # the executor itself failed
                    errors = [exc] * len(batch)
                for (write, on_commit, fut), err in zip(batch, errors, strict=True):
                    if err is None:
                        self.actions_committed += 1
                        try:
                            on_commit()
                        except Exception:
                            log.exception("game %s: publishing action %d", write.game, write.index)
                        if not fut.done():
                            fut.set_result(None)
                    elif not fut.done():
                        fut.set_exception(err)
                    else:
                        log.error("game %s: action %d not stored: %s", write.game, write.index, err)
        finally:
            self.task = None

    def _store(self, writes: list[ActionWrite]) -> list[Exception | None]:
        # On the writer thread: all in one transaction, else one by one to isolate a failure.
        try:
            self.storage.append_actions(writes)
            self.commits += 1
            return [None] * len(writes)
        except Exception as exc:
            if len(writes) == 1:
                return [exc]
        errors: list[Exception | None] = []
        for w in writes:
            try:
                self.storage.append_actions([w])
                self.commits += 1
                errors.append(None)
            except Exception as exc:
                errors.append(exc)
        return errors

    async def close(self) -> None:
        """Finish the commits under way, then stop the thread."""
        while self.task is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(self.task)
        if self.executor is not None:
            executor, self.executor = self.executor, None
            await asyncio.to_thread(executor.shutdown, wait=True)
