"""``HEAD`` is answered wherever ``GET`` is, pages and API (meeple.server.intake.HeadAsGet;
issue 39, finding 7: ``HEAD /`` was 405): the same status and headers, no body."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from meeple.server.app import create_app
from meeple.server.metrics import ADMIN_ENV
from tests.server.conftest import TEST_HOSTS, new_game
from tests.server.process import free_port, start_server

PAGES = (
    "/",
    "/play/{gid}",
    "/join/{gid}",
    "/docs",
    "/static/play.js",
    "/docs-assets/swagger-ui.css",
)
"""What ``GET`` serves beside the API's spec (pages, static files, the API's docs)."""

SAME = ("content-type", "content-length", "content-security-policy", "x-content-type-options")


def targets(client: TestClient, gid: str) -> list[str]:
    spec = client.get("/openapi.json").json()
    api = [path for path, ops in spec["paths"].items() if "get" in ops]
    return [p.format(gid=gid, n=1) for p in (*api, *PAGES, "/openapi.json", "/nowhere")]


def test_head_is_answered_wherever_get_is(client: TestClient) -> None:
    g = new_game(client)
    headers = {"Authorization": f"Bearer {g['seats'][0]['token']}"}
    seen: dict[int, int] = {}
    for url in targets(client, g["id"]):
        got, head = client.get(url, headers=headers), client.head(url, headers=headers)
        assert head.status_code == got.status_code, (url, got.text[:200])
        assert head.content == b"", url
        for name in SAME:
            assert head.headers.get(name) == got.headers.get(name), (url, name)
        seen[got.status_code] = seen.get(got.status_code, 0) + 1
    assert seen[200] >= 15 and 404 in seen  # the pages and the API, and what is not there


def test_head_of_the_lobby(client: TestClient) -> None:
    r = client.head("/")
    assert r.status_code == 200 and r.content == b""
    assert r.headers["content-type"].startswith("text/html")
    assert int(r.headers["content-length"]) == len(client.get("/").content)


def test_head_where_only_post_is_stays_405(client: TestClient) -> None:
    g = new_game(client)
    r = client.head(f"/api/games/{g['id']}/actions")
    assert r.status_code == 405


def test_head_of_the_operators_endpoints(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ADMIN_ENV, "head-admin")
    with TestClient(create_app(db_url, 0.0, allowed_hosts=TEST_HOSTS)) as client:
        auth: dict[str, Any] = {"Authorization": "Bearer head-admin"}
        for url in ("/healthz", "/metrics", "/api/admin/games"):
            assert client.head(url, headers=auth).status_code == 200, url
            assert client.head(url).status_code in (200, 401), url


def test_head_on_a_real_server(served_head: str) -> None:
    """uvicorn sends the headers of a ``HEAD`` answer and no body (RFC 9110, 9.3.2)."""
    r = httpx.head(served_head + "/")
    assert r.status_code == 200 and r.content == b"" and int(r.headers["content-length"]) > 1000


@pytest.fixture
def served_head(tmp_path: Path) -> Iterator[str]:
    port = free_port()
    proc = start_server(tmp_path / "g.sqlite", port, tmp_path / "log.txt", 0.0)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(10)
