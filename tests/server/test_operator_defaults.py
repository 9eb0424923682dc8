"""What a server gets by default when it faces more than its own machine (issue 39, finding 7;
docs/DEPLOY.md): /metrics needs the admin token beyond loopback, Strict-Transport-Security on
asking, and trusted proxies named (a network is taken with a warning)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from meeple.cli.main import app as cli
from meeple.server.app import create_app
from meeple.server.metrics import ADMIN_ENV, metrics_need_token
from meeple.server.security import HSTS_ENV, proxy_warnings, trusted_proxies
from tests.server.conftest import TEST_HOSTS

LOCAL, VISITOR = ("127.0.0.1", 50000), ("198.51.100.7", 50000)


def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[FastAPI, str]:
    """The app ``meeple serve ARGS`` would run, and what it said (uvicorn not started)."""
    import uvicorn

    seen: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: seen.update(app=app))
    url = f"sqlite:///{tmp_path / 'games.sqlite'}"
    done = CliRunner().invoke(cli, ["serve", "--database-url", url, *args])
    assert done.exit_code == 0, done.output
    return seen["app"], done.output


@pytest.mark.parametrize(
    ("listen", "client", "status"),
    [
        ("127.0.0.1", LOCAL, 200),  # a scraper on the server's machine
        ("::1", ("::1", 1), 200),
        ("localhost", LOCAL, 200),
        ("127.0.0.1", VISITOR, 403),  # a visitor through a trusted proxy
        ("0.0.0.0", LOCAL, 403),  # reachable beyond loopback: a container, a LAN
        ("::", LOCAL, 403),
        ("192.0.2.10", LOCAL, 403),
    ],
)
def test_metrics_beyond_loopback_need_the_admin_token(
    db_url: str,
    monkeypatch: pytest.MonkeyPatch,
    listen: str,
    client: tuple[str, int],
    status: int,
) -> None:
    monkeypatch.delenv(ADMIN_ENV, raising=False)
    app = create_app(db_url, 0.0, allowed_hosts=TEST_HOSTS, listen=listen)
    with TestClient(app, client=client) as c:
        r = c.get("/metrics")
        assert r.status_code == status
        if status == 403:
            assert "MEEPLE_ADMIN_TOKEN" in r.json()["detail"] and "meeple_" not in r.text
        # With the token set, everyone must bear it, and then gets the figures.
        monkeypatch.setenv(ADMIN_ENV, "s3cret")
        assert c.get("/metrics").status_code == 401
        r = c.get("/metrics", headers={"Authorization": "Bearer s3cret"})
        assert r.status_code == 200 and "meeple_games_loaded" in r.text
        assert c.get("/healthz").status_code == 200  # health checks need nothing


def test_serve_on_every_address_says_metrics_are_closed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(ADMIN_ENV, raising=False)
    app, said = served(tmp_path, monkeypatch, "--host", "0.0.0.0")
    assert "/metrics answers 403 until MEEPLE_ADMIN_TOKEN is set" in said
    with TestClient(app, client=LOCAL, base_url="http://localhost:8000") as c:
        assert c.get("/metrics").status_code == 403
    app, said = served(tmp_path, monkeypatch)  # 127.0.0.1: open to its own machine
    assert "/metrics" not in said
    with TestClient(app, client=LOCAL, base_url="http://127.0.0.1:8000") as c:
        assert c.get("/metrics").status_code == 200
    assert metrics_need_token("0.0.0.0") and not metrics_need_token("127.0.0.1")


@pytest.mark.parametrize("how", ["option", "env", "off"])
def test_hsts_when_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    monkeypatch.delenv(HSTS_ENV, raising=False)
    if how == "env":
        monkeypatch.setenv(HSTS_ENV, "1")
    app, _ = served(tmp_path, monkeypatch, *(["--hsts"] if how == "option" else []))
    with TestClient(app, base_url="http://127.0.0.1:8000") as c:
        answers = [
            c.get("/"),
            c.get("/api/games"),
            c.get("/api/games/nope"),  # 404
            c.get("/", headers={"Host": "elsewhere.example"}),  # refused by the Host check
        ]
    assert [r.status_code for r in answers] == [200, 200, 404, 400]
    for r in answers:
        assert r.headers.get("strict-transport-security") == (
            None if how == "off" else "max-age=31536000"
        )
        assert r.headers["x-content-type-options"] == "nosniff"


def test_hsts_from_the_app_factory(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(HSTS_ENV, "yes")
    with TestClient(create_app(db_url, 0.0, allowed_hosts=TEST_HOSTS)) as c:
        assert c.get("/healthz").headers["strict-transport-security"] == "max-age=31536000"
    with TestClient(create_app(db_url, 0.0, allowed_hosts=TEST_HOSTS, hsts=False)) as c:
        assert "strict-transport-security" not in c.get("/healthz").headers


def test_proxies_are_named_and_a_network_is_warned_of(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert trusted_proxies("172.30.0.2, 10.0.0.5/32, ::1/128") == ["172.30.0.2", "10.0.0.5", "::1"]
    assert proxy_warnings(["172.30.0.2", "::1"]) == []
    warned = proxy_warnings(["10.0.0.0/8", "*"])
    assert len(warned) == 2 and "any machine of 10.0.0.0/8" in warned[0]
    monkeypatch.delenv("MEEPLE_FORWARDED_ALLOW_IPS", raising=False)
    _, said = served(tmp_path, monkeypatch, "--forwarded-allow-ips", "172.30.0.2")
    assert "warning" not in said
    _, said = served(tmp_path, monkeypatch, "--forwarded-allow-ips", "172.16.0.0/12")
    assert "warning: --forwarded-allow-ips 172.16.0.0/12: any machine" in said
