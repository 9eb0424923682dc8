"""Run ``meeple serve`` as a real process for tests: a free port, a start that waits until the
server answers, and the server's output in a log file."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(
    db: Path | str, port: int, log: Path, bot_pace: float, extra: tuple[str, ...] = ()
) -> subprocess.Popen[bytes]:
    """Start ``meeple serve`` on the SQLite file ``db`` (or the database URL ``db``), with the
    options ``extra``, and wait (30 s at most) until it answers; a server that exits or never
    answers fails the test with its log."""
    env = dict(os.environ)
    env.pop("MEEPLE_DATABASE_URL", None)
    env.pop("MEEPLE_REDIS_URL", None)
    cmd = [
        sys.executable,
        "-m",
        "meeple.cli.main",
        "serve",
        "--port",
        str(port),
        "--database-url",
        db if isinstance(db, str) else f"sqlite:///{db}",
        "--bot-pace",
        str(bot_pace),
        *extra,
    ]
    with log.open("ab") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
    end = time.monotonic() + 30
    while time.monotonic() < end:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        assert proc.poll() is None, log.read_text()
        time.sleep(0.05)
    proc.kill()
    raise AssertionError("server did not start: " + log.read_text())


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    """Stop a server :func:`start_server` started: asked to end, killed if it has not in 10 s."""
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
