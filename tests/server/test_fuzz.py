"""Fuzz the API from its OpenAPI spec (schemathesis): no input makes the server answer 5xx."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, settings

from meeple.server.app import create_app
from tests.server.conftest import TEST_HOSTS

_DIR = Path(tempfile.mkdtemp(prefix="meeple-fuzz-"))
atexit.register(shutil.rmtree, _DIR, True)
app = create_app(f"sqlite:///{_DIR / 'fuzz.sqlite'}", 0.0, allowed_hosts=TEST_HOSTS)
schema = schemathesis.openapi.from_asgi("/openapi.json", app)


@schema.parametrize()
@settings(
    max_examples=50,
    derandomize=True,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    database=None,
)
def test_no_server_errors(case: schemathesis.Case) -> None:
    response = case.call()
    assert response.status_code < 500, (case.method, case.path, response.text[:500])
