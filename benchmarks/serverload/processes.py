"""The process runner: ``meeple serve`` in a subprocess, the database it stores games in (a
temporary SQLite file or a scratch PostgreSQL schema), a ``redis-server`` for more than one
process, and the file limit hundreds of sockets need."""

from __future__ import annotations

import contextlib
import os
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """``meeple serve`` on ``url`` and ``port`` in a subprocess, its output in ``log``."""

    def __init__(self, url: str, port: int, log: Path, extra: tuple[str, ...] = ()) -> None:
        self.url = url
        self.port = port
        self.log = log
        self.extra = extra
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = dict(os.environ)
        env.pop("MEEPLE_DATABASE_URL", None)
        cmd = [
            sys.executable,
            "-m",
            "meeple.cli.main",
            "serve",
            "--port",
            str(self.port),
            "--database-url",
            self.url,
            "--bot-pace",
            "0",
            "--no-limits",  # hundreds of games and sockets from one address, on purpose
            *self.extra,
        ]
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
        end = time.monotonic() + 60
        while time.monotonic() < end:
            try:
                r = httpx.get(f"http://127.0.0.1:{self.port}/api/games", timeout=2)
                if r.status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None:
                raise SystemExit("meeple serve stopped:\n" + self.log.read_text()[-4000:])
            time.sleep(0.1)
        self.stop()
        raise SystemExit("meeple serve did not answer within 60 s:\n" + self.log.read_text())

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class Database:
    """Where the server stores games: a temporary SQLite file, or a scratch PostgreSQL schema.

    For PostgreSQL the benchmark creates a fresh schema and points the server at it through the
    connection's ``search_path``, so earlier games in that database are neither resumed nor
    touched; the schema is dropped at the end unless ``keep``.
    """

    def __init__(self, url: str | None, workdir: Path, keep: bool) -> None:
        from meeple.server.storage import normalise_url

        self.keep = keep
        self.schema: str | None = None
        self.admin_url = ""
        if url is None:
            self.url = f"sqlite:///{workdir / 'bench.sqlite'}"
            self.kind = "sqlite"
            return
        url = normalise_url(url)
        self.kind = url.split(":", 1)[0].split("+", 1)[0]
        if self.kind != "postgresql":
            self.url = url
            return
        from sqlalchemy import create_engine, text
        from sqlalchemy.engine import make_url

        self.admin_url = url
        self.schema = f"meeple_bench_{uuid.uuid4().hex[:12]}"
        engine = create_engine(url)
        with engine.begin() as c:
            c.execute(text(f'CREATE SCHEMA "{self.schema}"'))
        engine.dispose()
        # The servers' connections are named after the schema, so that the run's own
        # PostgreSQL backends can be told apart from others' (Services).
        scoped = make_url(url).update_query_dict(
            {"options": f"-csearch_path={self.schema}", "application_name": self.schema}
        )
        self.url = scoped.render_as_string(hide_password=False)

    def shown(self) -> str:
        if self.schema is None:
            return self.url
        from sqlalchemy.engine import make_url

        return make_url(self.admin_url).render_as_string(hide_password=True) + (
            f" (schema {self.schema})"
        )

    def drop(self) -> None:
        if self.schema is None or self.keep:
            return
        from sqlalchemy import create_engine, text

        engine = create_engine(self.admin_url)
        with engine.begin() as c:
            c.execute(text(f'DROP SCHEMA "{self.schema}" CASCADE'))
        engine.dispose()


@contextlib.contextmanager
def redis_for(url: str | None) -> Iterator[str]:
    """``url``, or a ``redis-server`` started for the run (no persistence), stopped after."""
    if url is not None:
        yield url
        return
    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit("no redis-server installed: give the Redis of the processes, --redis-url")
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="meeple-bench-redis-") as where:
        cmd = [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", where]
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            end = time.monotonic() + 10
            while True:
                with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port)):
                    break
                if time.monotonic() > end or proc.poll() is not None:
                    raise SystemExit("the benchmark's redis-server did not start")
                time.sleep(0.05)
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            proc.terminate()
            proc.wait(10)


def raise_file_limit() -> None:
    # Each game holds four sockets on both sides; the server inherits this limit.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else 65536
    if soft != resource.RLIM_INFINITY and soft < want:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
