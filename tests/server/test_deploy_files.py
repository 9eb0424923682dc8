"""compose.yaml and deploy/Caddyfile as far as this machine can check them (it has no Docker
engine; docs/DEPLOY.md, "How this was checked"): two meeple processes behind the proxy on
PostgreSQL and Redis, every variable and option they are given one ``meeple serve`` takes
(run through its command line, uvicorn not started), the proxy named by its fixed address, and
nothing but the proxy published."""

from __future__ import annotations

import ipaddress
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from meeple.cli.main import app as cli
from meeple.server.security import proxy_warnings, trusted_proxies

ROOT = Path(__file__).resolve().parents[2]
SET = {"MEEPLE_PUBLIC_HOST": "games.example.com", "POSTGRES_PASSWORD": "pw"}
"""What an operator sets before `docker compose up` (compose.yaml's head says so)."""


def interpolate(value: str, env: dict[str, str]) -> str:
    """Compose's ``${VAR}``, ``${VAR:-default}`` and ``${VAR:?error}`` (the forms used)."""

    def one(m: re.Match[str]) -> str:
        name, op, rest = m[1], m[2] or "", m[3] or ""
        got = env.get(name, "")
        if op == ":?" and not got:
            raise AssertionError(f"{name} unset: {rest}")
        return got or (rest if op == ":-" else "")

    return re.sub(r"\$\{(\w+)(:[?-])?([^}]*)\}", one, value)


def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((ROOT / "compose.yaml").read_text())
    return data


def meeples() -> dict[str, dict[str, Any]]:
    return {k: v for k, v in compose()["services"].items() if v.get("image") == "meeple"}


def test_two_processes_on_postgresql_and_redis_behind_the_proxy() -> None:
    services = compose()["services"]
    procs = meeples()
    assert sorted(procs) == ["meeple-1", "meeple-2"]
    a, b = procs.values()
    assert a == b  # one definition (a YAML anchor): the same settings for both
    env = {k: interpolate(str(v), SET) for k, v in a["environment"].items()}
    assert env["MEEPLE_DATABASE_URL"].startswith("postgresql://meeple:pw@postgres:5432/")
    assert env["MEEPLE_REDIS_URL"] == "redis://redis:6379/0"
    assert env["MEEPLE_ALLOWED_HOSTS"] == "games.example.com,localhost:8000"
    assert set(a["depends_on"]) == {"postgres", "redis"}
    assert services["postgres"]["image"].startswith("postgres:")
    assert services["redis"]["image"].startswith("redis:")
    # Only the proxy is published; it reaches both processes at the port they listen on.
    assert [k for k, v in services.items() if "ports" in v] == ["proxy"]
    caddyfile = (ROOT / "deploy" / "Caddyfile").read_text()
    assert "./deploy/Caddyfile:/etc/caddy/Caddyfile:ro" in services["proxy"]["volumes"]
    assert re.search(r"reverse_proxy meeple-1:8000 meeple-2:8000", caddyfile)
    assert a["command"][a["command"].index("--port") + 1] == "8000"
    assert 'Strict-Transport-Security "max-age=31536000"' in caddyfile


def test_the_proxy_is_named_by_its_fixed_address() -> None:
    data = compose()
    net = data["networks"]["meeple"]["ipam"]["config"][0]
    proxy = ipaddress.ip_address(data["services"]["proxy"]["networks"]["meeple"]["ipv4_address"])
    assert proxy in ipaddress.ip_network(net["subnet"])
    assert proxy not in ipaddress.ip_network(net["ip_range"])  # no container is given it
    for service in meeples().values():
        named = trusted_proxies(service["environment"]["MEEPLE_FORWARDED_ALLOW_IPS"])
        assert named == [str(proxy)] and proxy_warnings(named) == []


def test_meeple_serve_takes_every_variable_and_option(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each process's environment and command, as compose gives them, through ``meeple
    serve``'s own command line: each variable is one it documents in ``--help``, each option
    one it has; it starts (uvicorn not run: no database or Redis is reached here) with the
    settings asked for."""
    import uvicorn

    from meeple.server.hub import Hub

    helped = CliRunner().invoke(cli, ["serve", "--help"], env={"COLUMNS": "200"}).output
    service = meeples()["meeple-1"]
    env = {k: interpolate(str(v), SET) for k, v in service["environment"].items()}
    for name in env:
        assert name in helped, f"{name} is not documented by meeple serve --help"
    command = [str(x) for x in service["command"]]
    assert command[:2] == ["meeple", "serve"]
    for option in (x for x in command if x.startswith("--")):
        assert re.search(rf"{option}\b", helped), f"meeple serve has no {option}"
    seen: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: seen.update(app=app, **kw))
    for name in list(os.environ):
        if name.startswith("MEEPLE_"):
            monkeypatch.delenv(name)
    done = CliRunner().invoke(cli, command[1:], env=env)
    assert done.exit_code == 0, done.output
    assert "warning" not in done.output
    assert seen["host"] == "0.0.0.0" and seen["port"] == 8000
    assert seen["forwarded_allow_ips"] == ["172.30.0.2"]
    hub: Hub = seen["app"].state.hub
    assert hub.storage.engine.dialect.name == "postgresql"
    assert hub.lifecycle.waiting_expire_after == 3600.0
    assert hub.lifecycle.expire_after == 7 * 24 * 3600.0 and hub.lifecycle.purge_after is None
    hub.storage.close()


@pytest.mark.skipif(shutil.which("caddy") is None, reason="no caddy on the PATH")
def test_caddy_reads_the_caddyfile() -> None:
    done = subprocess.run(
        ["caddy", "adapt", "--config", str(ROOT / "deploy" / "Caddyfile")],
        env={**os.environ, "MEEPLE_PUBLIC_HOST": "games.example.com"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "games.example.com" in done.stdout and "meeple-2:8000" in done.stdout
