"""PostgreSQL and Redis for the tests of more than one server process.

The machine's own servers are used when they answer (``MEEPLE_TEST_POSTGRES_URL``, default
``postgresql+psycopg://postgres@127.0.0.1:5432/test``, and ``MEEPLE_TEST_REDIS_URL``, default
``redis://127.0.0.1:6379/0``). Otherwise the test setup starts them: PostgreSQL's Debian
cluster with ``pg_ctlcluster``, and a private ``redis-server`` on a free port that the tests
stop afterwards. A machine with neither installed skips these tests, saying why.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import redis
import sqlalchemy
from sqlalchemy.engine import make_url

from tests.server.process import free_port

PG_URL = os.environ.get(
    "MEEPLE_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
REDIS_URL = os.environ.get("MEEPLE_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def _pg_answers() -> bool:
    try:
        eng = sqlalchemy.create_engine(PG_URL, connect_args={"connect_timeout": 3})
        with eng.connect() as c:
            c.execute(sqlalchemy.text("select 1"))
        eng.dispose()
        return True
    except Exception:
        return False


def _start_pg() -> str:
    """Start the machine's PostgreSQL cluster; "" when started, else why it could not be."""
    tool = shutil.which("pg_ctlcluster")
    versions = sorted(Path("/etc/postgresql").glob("*")) if Path("/etc/postgresql").is_dir() else []
    if tool is None or not versions:
        return f"no PostgreSQL server at {PG_URL}, and none installed to start"
    cmd = [tool, "--skip-systemctl-redirect", versions[-1].name, "main", "start"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    for _ in range(50):
        if _pg_answers():
            return ""
        time.sleep(0.2)
    return f"PostgreSQL did not start: {done.stderr.strip()[:200]}"


@contextlib.contextmanager
def postgres_database() -> Iterator[str]:
    """The URL of a new, empty PostgreSQL database, dropped afterwards (skips without one)."""
    import pytest

    if not _pg_answers():
        why = _start_pg()
        if why:
            pytest.skip(why)
    name = f"meeple_cluster_{uuid.uuid4().hex[:12]}"
    admin = sqlalchemy.create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(sqlalchemy.text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(PG_URL).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as c:
            c.execute(sqlalchemy.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def _redis_answers(url: str) -> bool:
    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=2).ping())
    except Exception:
        return False


@contextlib.contextmanager
def redis_server() -> Iterator[str]:
    """The URL of a Redis server: the machine's, or one started for the test (skips without)."""
    if _redis_answers(REDIS_URL):
        yield REDIS_URL
        return
    with private_redis() as url:
        yield url


@contextlib.contextmanager
def private_redis() -> Iterator[str]:
    """The URL of a Redis server started for this test alone, stopped afterwards (a test that
    pauses its clients must not pause the machine's); skips without ``redis-server``."""
    import pytest

    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("no redis-server installed to start")
    port = free_port()
    with tempfile.TemporaryDirectory() as where:
        cmd = [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", where]
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        url = f"redis://127.0.0.1:{port}/0"
        try:
            for _ in range(100):
                if _redis_answers(url):
                    break
                time.sleep(0.05)
            yield url
        finally:
            proc.kill()
            proc.wait()
