"""Run a simulation on a Ray cluster: the same games, the same records, in the same order.

Game ``i`` is seeded from ``(seed, i)`` alone (see :mod:`meeple.sim.runner`), so sending chunks of
games to Ray tasks changes where they are played and nothing else: the records come back in game
order and the summary outside ``timing`` equals the one of ``--workers 1``.

``run_ray(cfg, "HOST:PORT", chunk)`` joins a running cluster (``ray start --head`` on some
machine; every node needs meeple installed). ``run_ray(cfg, None, chunk)`` starts a private
one-machine cluster, bound to the loopback interface, and shuts it down at the end.
``ray`` is imported only here and only when this backend is used.
"""

from __future__ import annotations

import logging
import os
import re
import socket
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from types import ModuleType
from typing import Any, TypeVar

from meeple.extras import need
from meeple.sim.runner import GameRecord, SimConfig, _play_chunk

#: Seconds to wait for a TCP answer from ``--address`` before calling it unreachable (Ray itself
#: would retry for minutes).
CONNECT_TIMEOUT_S = 5.0
#: Shared-memory object store of a cluster started here: records are small.
LOCAL_OBJECT_STORE_BYTES = 256 * 1024 * 1024
#: Ray Client's port when a ``ray://HOST`` address gives none.
RAY_CLIENT_PORT = 10001


T = TypeVar("T")


class RayBackendError(Exception):
    """The Ray backend cannot run: ``ray`` is missing or the cluster cannot be reached."""


def _play_range(cfg: SimConfig, lo: int, hi: int) -> list[GameRecord]:
    """The Ray task: games ``lo`` to ``hi - 1`` of the run (``cfg`` arrives from the store)."""
    return _play_chunk((cfg, lo, hi))


def parse_address(address: str) -> tuple[str, int]:
    """``HOST:PORT``, ``[V6]:PORT`` or ``ray://HOST[:PORT]`` as ``(host, port)``."""
    rest = address.strip()
    client = rest.startswith("ray://")
    if client:
        rest = rest[len("ray://") :]
    m = re.fullmatch(r"(.+):(\d+)", rest)
    if m is not None:
        host, port = m[1], int(m[2])
    elif client:
        host, port = rest, RAY_CLIENT_PORT
    else:
        host, port = "", 0
    host = host.strip("[]")
    if not host or not 0 < port < 65536 or any(c in host for c in " /@"):
        raise RayBackendError(f"--address must be HOST:PORT (or ray://HOST:PORT), not {address!r}")
    return host, port


def check_reachable(address: str, timeout: float = CONNECT_TIMEOUT_S) -> None:
    """Raise :class:`RayBackendError` unless something accepts TCP connections at ``address``."""
    host, port = parse_address(address)
    try:
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except OSError as exc:
        raise RayBackendError(
            f"cannot reach a Ray cluster at {address}: {exc.strerror or exc} (is `ray start "
            "--head` running there? Leave out --address to run on a local Ray instead)"
        ) from None


def _import_ray(local: bool) -> ModuleType:
    # Both settings are read when ray is imported. Usage reporting would send data off this
    # machine; a private local cluster needs no address other than the loopback one (on Linux
    # Ray otherwise binds the machine's network address). An explicit setting wins.
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    if local:
        os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
    need("ray", "the Ray backend")  # ray comes with meeple[ray], not the core
    try:
        import ray
    except ImportError as exc:  # pragma: no cover - installed but broken
        raise RayBackendError(f"the ray backend cannot import ray ({exc})") from None
    return ray


def _check_bootstrap(address: str) -> None:
    """Probe the address Ray will really dial: it swaps a loopback host (127.0.0.1, localhost)
    for this machine's network address, where a head bound to 127.0.0.1 does not answer, and
    would then retry for many minutes."""
    try:
        from ray._private.services import canonicalize_bootstrap_address
    except ImportError:  # pragma: no cover - a Ray without this helper: let ray.init judge
        return
    try:
        bootstrap = canonicalize_bootstrap_address(address.strip())
    except Exception as exc:  # "auto" with no cluster running, a malformed address
        raise RayBackendError(f"cannot join the Ray cluster at {address}: {exc}") from None
    if bootstrap is None:  # "auto" found no address: ray.init looks for a local one
        return
    auto = address.strip() == "auto"
    if not auto and parse_address(bootstrap) == parse_address(address):
        return
    try:
        check_reachable(bootstrap)
    except RayBackendError as exc:
        if auto:
            raise exc from None
        raise RayBackendError(
            f"Ray dials {bootstrap} for --address {address} and nothing answers there; a head "
            "started with --node-ip-address 127.0.0.1 also needs "
            "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0 in this command's environment"
        ) from None


def _connect(ray: ModuleType, address: str | None) -> bool:
    """Start or join the cluster; True when this call owns it (and so must shut it down)."""
    if ray.is_initialized():  # a caller that set Ray up itself keeps its cluster
        return False
    quiet = {"logging_level": logging.ERROR, "log_to_driver": False}
    try:
        if address is None:
            ray.init(
                address="local",  # always a new cluster, whatever RAY_ADDRESS says
                num_cpus=os.cpu_count() or 1,
                include_dashboard=False,
                object_store_memory=LOCAL_OBJECT_STORE_BYTES,
                **quiet,
            )
        else:
            ray.init(address=address, **quiet)
    except Exception as exc:
        where = (
            "start a local Ray cluster" if address is None else f"join the Ray cluster at {address}"
        )
        raise RayBackendError(f"cannot {where}: {exc}") from None
    return True


def auto_chunk(games: int, cpus: int) -> int:
    """Games per task when none is given: about four tasks per CPU, at most 50 games each."""
    return max(1, min(50, games // (max(1, cpus) * 4) or 1))


def run_ray(cfg: SimConfig, address: str | None, chunk: int) -> Iterator[GameRecord]:
    """Every game's record, in game order, played by Ray tasks of ``chunk`` games each.

    ``address`` is the cluster to join (``HOST:PORT`` of its head, ``ray://HOST:PORT`` for Ray
    Client, or ``auto``); ``None`` starts a local cluster with one CPU per core, which is shut
    down once the records are all out (or the iterator is closed). ``chunk`` 0 or less picks
    one from the cluster's CPUs. Connecting happens in this call, so an unreachable address
    raises :class:`RayBackendError` here, before any game is played.
    """
    ray, owned = _open(address)
    return _stream(ray, cfg, chunk, owned)


def _open(address: str | None) -> tuple[ModuleType, bool]:
    """Ray, connected to the cluster at ``address`` (``None``: a local one started now), and
    whether this process started it (and so shuts it down). Fails here, before any game, for
    an address that cannot be reached or a cluster that cannot run meeple."""
    if address is not None and address.strip() != "auto":
        check_reachable(address)
    ray = _import_ray(local=address is None)
    if address is not None and not address.strip().startswith("ray://"):
        _check_bootstrap(address)
    return ray, _connect(ray, address)


def _stream(ray: ModuleType, cfg: SimConfig, chunk: int, owned: bool) -> Iterator[GameRecord]:
    """The simulation's games in chunks of ``chunk`` (0: sized to the cluster's CPUs)."""
    try:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        size = chunk if chunk > 0 else auto_chunk(cfg.games, cpus)
        cfg_ref = ray.put(cfg)  # (once, not once per task)
    except BaseException:
        if owned:
            ray.shutdown()
        raise
    ranges = [(cfg_ref, lo, min(cfg.games, lo + size)) for lo in range(0, cfg.games, size)]
    yield from _stream_calls(ray, _play_range, ranges, owned, spread=True)


def run_ray_calls(
    func: Callable[[Any], list[T]], calls: Sequence[Any], address: str | None
) -> Iterator[T]:
    """``func(arg)`` for each of ``calls`` as Ray tasks, their items yielded in call order:
    the Ray backend of a driver other than the simulator (the arena's games). ``func`` must be
    a module-level function (the workers import it); ``address`` as for :func:`run_ray`."""
    ray, owned = _open(address)
    return _stream_calls(ray, func, calls, owned)


def _stream_calls(
    ray: ModuleType,
    func: Callable[..., list[T]],
    calls: Sequence[Any],
    owned: bool,
    spread: bool = False,
) -> Iterator[T]:
    """``func(call)`` (``func(*call)`` when ``spread``) for each call as Ray tasks, their items
    in call order; at most two tasks per CPU in flight: every CPU busy, memory bounded."""
    try:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        task = ray.remote(num_cpus=1, max_retries=2)(func)
        todo = iter(calls)
        pending: deque[object] = deque()
        ahead = max(2, 2 * cpus)

        def submit() -> None:
            for arg in todo:
                pending.append(task.remote(*arg) if spread else task.remote(arg))
                if len(pending) >= ahead:
                    return

        submit()
        while pending:
            items: list[T] = ray.get(pending.popleft())
            submit()
            yield from items
    finally:
        if owned:
            ray.shutdown()
