"""The operator's endpoints and ``meeple admin`` (docs/SERVER.md, "Operator commands"): the
admin token, listing every game without a secret, inspecting, cancelling live, purging."""

from __future__ import annotations

import datetime as dt
import json
import logging
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update
from starlette.websockets import WebSocketDisconnect
from typer.testing import CliRunner

from meeple.cli import admin as admin_cli
from meeple.cli.main import app as cli
from meeple.server.app import create_app
from meeple.server.hub import Hub, Lifecycle
from meeple.server.metrics import ADMIN_ENV
from meeple.server.storage import GameRow, hash_token
from tests.server.conftest import TEST_HOSTS
from tests.server.process import free_port, start_server

TOKEN = "adm1n-t0ken-for-tests"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
ANN = {"type": "human", "name": "Ann"}
BOB = {"type": "human", "name": "Bob"}
BOT = {"type": "bot", "bot": "standard"}
OPEN = {"type": "open"}
NO_SWEEP = Lifecycle(sweep_every=0)  # nothing expires or purges by itself during a test


@pytest.fixture
def admin(monkeypatch: pytest.MonkeyPatch, db_url: str) -> Iterator[TestClient]:
    """A client of an app started with the admin token set."""
    monkeypatch.setenv(ADMIN_ENV, TOKEN)
    app = create_app(db_url, 0.0, allowed_hosts=TEST_HOSTS, lifecycle=NO_SWEEP)
    with TestClient(app) as c:
        yield c


def make(client: TestClient, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    r = client.post(
        "/api/games",
        json={
            "game": "classic",
            "seats": seats,
            "seed": 5,
            "rules": {"start_player": "first_seat"},
            **extra,
        },
    )
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def hub_of(client: TestClient) -> Hub:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return hub


def set_record(client: TestClient, gid: str, status: str | None = None, days: float = 0) -> None:
    """Give ``gid``'s record ``status`` and a last change ``days`` ago, straight in the
    database (as the sweeper or a long-finished game would leave it)."""
    when = dt.datetime.now(dt.UTC) - dt.timedelta(days=days)
    values: dict[str, Any] = {"updated": when, "created": when}
    if status is not None:
        values["status"] = status
    with hub_of(client).storage.engine.begin() as c:
        c.execute(update(GameRow).where(GameRow.id == gid).values(**values))


def secrets_of(*games: dict[str, Any]) -> list[str]:
    """Every secret the creation answers of ``games`` hold, and their stored hashes."""
    found: list[str] = []
    for g in games:
        found += [s["token"] for s in g["seats"] if s["token"]]
        found += [g["host_token"]] + ([g["invite"]] if g["invite"] else [])
    return found + [hash_token(s) for s in found]


ENDPOINTS = [
    ("GET", "/api/admin/games"),
    ("GET", "/api/admin/games/{gid}"),
    ("POST", "/api/admin/games/{gid}/cancel"),
    ("DELETE", "/api/admin/games/{gid}"),
    ("POST", "/api/admin/purge"),
]


def heard(ws: Any, timeout: float = 10.0) -> Any:
    """The socket's next message, failing the test (not hanging it) after ``timeout``: the
    test client's receive has no timeout of its own, so it waits in a daemon thread."""
    out: queue.Queue[tuple[bool, Any]] = queue.Queue()

    def receive() -> None:
        try:
            out.put((True, ws.receive_json()))
        except BaseException as exc:
            out.put((False, exc))

    threading.Thread(target=receive, daemon=True).start()
    try:
        ok, value = out.get(timeout=timeout)
    except queue.Empty:
        raise AssertionError(f"no message on the socket within {timeout:g} s") from None
    if not ok:
        raise value
    return value


def call(client: TestClient, method: str, path: str, **kw: Any) -> httpx.Response:
    if method == "POST" and path.endswith("/purge"):
        kw.setdefault("json", {"older_than_days": 0})
    return client.request(method, path, **kw)


def test_off_without_an_admin_token_configured(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(ADMIN_ENV, raising=False)
    g = make(client, [ANN, BOT])
    for method, path in ENDPOINTS:
        for headers in ({}, AUTH, {"Authorization": "Bearer "}):
            r = call(client, method, path.format(gid=g["id"]), headers=headers)
            assert r.status_code == 404, (method, path, r.text)
            assert ADMIN_ENV in r.json()["detail"] and "off" in r.json()["detail"]
    assert client.get(f"/api/games/{g['id']}").json()["status"] == "active"


def test_refused_without_the_token_or_with_another(admin: TestClient) -> None:
    g = make(admin, [ANN, BOT])
    gid = g["id"]
    set_record(admin, gid, days=30)
    for method, path in ENDPOINTS:
        url = path.format(gid=gid)
        r = call(admin, method, url)
        assert r.status_code == 401, (method, path, r.text)
        assert "admin token" in r.json()["detail"]
        assert r.headers["www-authenticate"] == "Bearer"
        assert call(admin, method, url, headers={"Authorization": TOKEN}).status_code == 401
        for wrong in ("nope", TOKEN[:-1], TOKEN + "x", g["host_token"]):
            r = call(admin, method, url, headers={"Authorization": f"Bearer {wrong}"})
            assert r.status_code == 403, (method, path, wrong, r.text)
            assert "not the admin token" in r.json()["detail"]
    # Nothing changed: the game still plays, its record is still there.
    assert admin.get(f"/api/games/{gid}").json()["status"] == "active"
    assert admin.get(f"/api/admin/games/{gid}", headers=AUTH).status_code == 200


def test_the_list_has_private_games_and_no_secret(admin: TestClient) -> None:
    listed = make(admin, [ANN, BOT])
    private = make(admin, [ANN, BOB, OPEN], listed=False)
    r = admin.post(
        f"/api/games/{listed['id']}/actions",
        json={"token": listed["seats"][0]["token"], "state_id": 0, "action": "roll"},
    )
    assert r.status_code == 200, r.text
    public = [g["id"] for g in admin.get("/api/games").json()]
    assert private["id"] not in public and listed["id"] in public

    r = admin.get("/api/admin/games", headers=AUTH)
    assert r.status_code == 200, r.text
    games = {g["id"]: g for g in r.json()}
    assert set(games) == {listed["id"], private["id"]}
    p = games[private["id"]]
    assert p["status"] == "waiting" and p["listed"] is False and p["actions"] == 0
    assert [(s["kind"], s["name"]) for s in p["seats"]] == [
        ("human", "Ann"), ("human", "Bob"), ("open", "Seat 3"),
    ]  # fmt: skip
    ls = games[listed["id"]]
    assert ls["status"] == "active" and ls["listed"] is True and ls["actions"] >= 1
    assert [(s["kind"], s["bot"]) for s in ls["seats"]] == [("human", None), ("bot", "standard")]
    created = dt.datetime.fromisoformat(ls["created"])
    assert created.tzinfo is not None
    assert dt.datetime.fromisoformat(ls["updated"]) >= created

    # No token, host key, invite code nor any of their hashes, in the list or an inspection.
    shown = r.text + "".join(
        admin.get(f"/api/admin/games/{gid}", params={"log": 50}, headers=AUTH).text for gid in games
    )
    for secret in secrets_of(listed, private):
        assert secret not in shown
    assert "hash" not in shown

    def ids(**params: Any) -> set[str]:
        r = admin.get("/api/admin/games", params=params, headers=AUTH)
        assert r.status_code == 200, r.text
        return {g["id"] for g in r.json()}

    assert ids(status="waiting") == {private["id"]}
    assert ids(status="cancelled") == set()
    assert len(ids(limit=1)) == 1
    set_record(admin, private["id"], days=3)
    two_days_ago = (dt.datetime.now(dt.UTC) - dt.timedelta(days=2)).isoformat()
    assert ids(updated_before=two_days_ago) == {private["id"]}
    assert ids(created_after=two_days_ago) == {listed["id"]}
    assert ids(created_before="2000-01-01T00:00:00") == set()  # no zone: UTC
    assert admin.get("/api/admin/games?status=bogus", headers=AUTH).status_code == 422
    assert admin.get("/api/admin/games?limit=0", headers=AUTH).status_code == 422


def test_inspect_says_what_this_process_holds(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ADMIN_ENV, TOKEN)
    with TestClient(create_app(db_url, 0.0, allowed_hosts=TEST_HOSTS, lifecycle=NO_SWEEP)) as c:
        g = make(c, [ANN, BOB])
        gid, ann = g["id"], g["seats"][0]["token"]
        r = c.post(
            f"/api/games/{gid}/actions", json={"token": ann, "state_id": 0, "action": "roll"}
        )
        assert r.status_code == 200
        with c.websocket_connect(f"/api/games/{gid}/ws") as ws:
            ws.receive_json()
            ws.send_json({"type": "auth", "token": ann})
            assert ws.receive_json()["seat"] == 0
            with c.websocket_connect(f"/api/games/{gid}/ws") as spectator:
                spectator.receive_json()
                d = c.get(f"/api/admin/games/{gid}", params={"log": 5}, headers=AUTH).json()
        assert d["loaded"] is True and d["status"] == "active" and d["actions"] == 1
        live = d["live"]
        assert live["status"] == "active" and live["state_id"] == 1
        assert live["table_running"] is True  # a person's game: its table waits for them
        assert live["sockets"] == 2 and live["spectators"] == 1
        assert [s["sockets"] for s in live["seats"]] == [1, 0]
        assert d["log"] and d["log"][-1]["state_id"] == 1 and "rolls" in d["log"][-1]["events"][0]
        assert c.get("/api/admin/games/nothere", headers=AUTH).status_code == 404
    # A fresh process: the game is a record only, and inspecting it does not load it.
    with TestClient(create_app(db_url, 0.0, allowed_hosts=TEST_HOSTS, lifecycle=NO_SWEEP)) as c:
        d = c.get(f"/api/admin/games/{gid}", params={"log": 5}, headers=AUTH).json()
        assert d["loaded"] is False and d["live"] is None and d["actions"] == 1
        assert "rolls" in d["log"][-1]["events"][0]  # replayed from the record
        assert gid not in hub_of(c).games


def test_cancel_reaches_the_open_sockets(admin: TestClient) -> None:
    g = make(admin, [ANN, BOB])
    gid, ann = g["id"], g["seats"][0]["token"]
    with admin.websocket_connect(f"/api/games/{gid}/ws") as ws:
        ws.receive_json()
        ws.send_json({"type": "auth", "token": ann})
        assert ws.receive_json()["status"] == "active"
        r = admin.post(f"/api/admin/games/{gid}/cancel", headers=AUTH)
        assert r.status_code == 200, r.text
        assert r.json()["status"] == "cancelled" and r.json()["live"]["status"] == "cancelled"
        seen = [heard(ws) for _ in range(2)]  # the seats, then the update
    assert [(m["type"], m["status"]) for m in seen] == [
        ("seats", "cancelled"), ("update", "cancelled"),
    ]  # fmt: skip
    r = admin.post(
        f"/api/games/{gid}/actions", json={"token": ann, "state_id": 0, "action": "roll"}
    )
    assert r.status_code == 422 and "cancelled" in r.json()["detail"]
    assert admin.get(f"/api/games/{gid}").json()["status"] == "cancelled"
    r = admin.post(f"/api/admin/games/{gid}/cancel", headers=AUTH)
    assert r.status_code == 409 and "cancelled" in r.json()["detail"]
    assert admin.post("/api/admin/games/nothere/cancel", headers=AUTH).status_code == 404


def test_cancel_a_waiting_game_and_one_not_loaded(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ADMIN_ENV, TOKEN)
    with TestClient(create_app(db_url, 0.0, allowed_hosts=TEST_HOSTS, lifecycle=NO_SWEEP)) as c:
        waiting = make(c, [ANN, OPEN])
        playing = make(c, [ANN, BOB])
        r = c.post(f"/api/admin/games/{waiting['id']}/cancel", headers=AUTH)
        assert r.status_code == 200 and r.json()["status"] == "cancelled"
        r = c.post(
            f"/api/games/{waiting['id']}/join",
            json={"code": waiting["invite"], "seat": 1, "name": "Cy"},
        )
        assert r.status_code == 409
    with TestClient(create_app(db_url, 0.0, allowed_hosts=TEST_HOSTS, lifecycle=NO_SWEEP)) as c:
        r = c.post(f"/api/admin/games/{playing['id']}/cancel", headers=AUTH)
        assert r.status_code == 200 and r.json()["status"] == "cancelled"
        assert c.get(f"/api/games/{waiting['id']}").json()["status"] == "cancelled"


def test_a_record_that_no_longer_replays_is_still_inspected_and_cancelled(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ADMIN_ENV, TOKEN)
    with TestClient(create_app(db_url, 0.0, allowed_hosts=TEST_HOSTS, lifecycle=NO_SWEEP)) as c:
        gid = make(c, [ANN, BOB])["id"]
        hub_of(c).storage.append_action(gid, 0, "buy 99")  # not a legal first move
    with TestClient(create_app(db_url, 0.0, allowed_hosts=TEST_HOSTS, lifecycle=NO_SWEEP)) as c:
        assert c.get(f"/api/games/{gid}").status_code == 404  # cannot be replayed
        d = c.get(f"/api/admin/games/{gid}", params={"log": 5}, headers=AUTH).json()
        assert d["status"] == "active" and d["actions"] == 1
        assert "cannot be replayed" in d["log"][0]["events"][0]
        r = c.post(f"/api/admin/games/{gid}/cancel", headers=AUTH)
        assert r.status_code == 200 and r.json()["status"] == "cancelled", r.text
        assert r.json()["loaded"] is False
        assert c.post(f"/api/admin/games/{gid}/cancel", headers=AUTH).status_code == 409
        assert c.delete(f"/api/admin/games/{gid}", headers=AUTH).json() == {"purged": [gid]}


def test_purge_old_records_never_live_games(admin: TestClient) -> None:
    made = {name: make(admin, [ANN, BOB])["id"] for name in (
        "old_cancelled", "old_finished", "old_expired", "new_cancelled", "old_active",
        "old_waiting",
    )}  # fmt: skip
    for name, gid in made.items():
        age = 1 if name.startswith("new") else 30
        status = name.split("_", 1)[1]
        set_record(admin, gid, status, days=age)
    r = admin.post("/api/admin/purge", json={"older_than_days": 7}, headers=AUTH)
    assert r.status_code == 200, r.text
    gone = {made["old_cancelled"], made["old_finished"], made["old_expired"]}
    assert set(r.json()["purged"]) == gone
    left = {g["id"] for g in admin.get("/api/admin/games", headers=AUTH).json()}
    assert left == set(made.values()) - gone
    for gid in gone:  # forgotten by this process too, not served from memory
        assert gid not in hub_of(admin).games
        assert admin.get(f"/api/games/{gid}").status_code == 404
    for bad in (-1, "x", 10**9):
        r = admin.post("/api/admin/purge", json={"older_than_days": bad}, headers=AUTH)
        assert r.status_code == 422
    # Even purge-everything-over leaves games waiting or in play, however old.
    r = admin.post("/api/admin/purge", json={"older_than_days": 0}, headers=AUTH)
    assert r.json()["purged"] == [made["new_cancelled"]]
    assert {g["id"] for g in admin.get("/api/admin/games", headers=AUTH).json()} == {
        made["old_active"], made["old_waiting"],
    }  # fmt: skip


def test_purge_one_game_only_once_it_is_over(admin: TestClient) -> None:
    g = make(admin, [ANN, BOB])
    gid = g["id"]
    r = admin.delete(f"/api/admin/games/{gid}", headers=AUTH)
    assert r.status_code == 409 and "cancel it first" in r.json()["detail"]
    assert admin.get(f"/api/games/{gid}").json()["status"] == "active"
    with admin.websocket_connect(f"/api/games/{gid}/ws") as ws:
        ws.receive_json()
        assert admin.post(f"/api/admin/games/{gid}/cancel", headers=AUTH).status_code == 200
        for _ in range(2):  # told of the cancel: the seats, then the update
            heard(ws)
        r = admin.delete(f"/api/admin/games/{gid}", headers=AUTH)
        assert r.status_code == 200 and r.json() == {"purged": [gid]}
        with pytest.raises(WebSocketDisconnect):  # its sockets are closed
            heard(ws)
    assert admin.get(f"/api/games/{gid}").status_code == 404
    assert admin.get(f"/api/admin/games/{gid}", headers=AUTH).status_code == 404
    assert admin.delete(f"/api/admin/games/{gid}", headers=AUTH).status_code == 404


def test_changes_are_logged_with_the_game_never_a_token(
    admin: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="meeple.server.admin")
    g = make(admin, [ANN, BOB])
    gid = g["id"]
    assert admin.post(f"/api/admin/games/{gid}/cancel", headers=AUTH).status_code == 200
    assert admin.delete(f"/api/admin/games/{gid}", headers=AUTH).status_code == 200
    assert admin.post("/api/admin/purge", json={"older_than_days": 1}, headers=AUTH).is_success
    lines = [r.getMessage() for r in caplog.records if r.name == "meeple.server.admin"]
    assert any("cancelled game " + gid in line for line in lines), lines
    assert any("purged game " + gid in line for line in lines), lines
    assert any("purged 0 games" in line for line in lines), lines
    for secret in [TOKEN, *secrets_of(g)]:
        assert all(secret not in line for line in lines)


def test_the_command_line_needs_the_server_token_and_game(tmp_path: Path) -> None:
    runner = CliRunner()
    env = {ADMIN_ENV: "", admin_cli.SERVER_ENV: f"http://127.0.0.1:{free_port()}"}
    done = runner.invoke(cli, ["admin", "list"], env=env)
    assert done.exit_code == 2 and "no admin token" in done.output
    env[ADMIN_ENV] = TOKEN
    done = runner.invoke(cli, ["admin", "list"], env=env)
    assert done.exit_code == 1 and "no meeple server answers at" in done.output, done.output
    done = runner.invoke(cli, ["admin", "purge"], env=env)
    assert done.exit_code == 2 and "--older-than-days" in done.output
    done = runner.invoke(cli, ["admin", "list", "--server", "ftp://x"], env=env)
    assert done.exit_code == 2 and "http://" in done.output
    empty = tmp_path / "empty"
    empty.write_text("\n")
    done = runner.invoke(cli, ["admin", "list", "--token-file", str(empty)], env=env)
    assert done.exit_code == 2 and "empty" in done.output
    assert admin_cli.ADMIN_ENV == ADMIN_ENV  # one variable for the server and its commands


def test_meeple_admin_against_a_real_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ADMIN_ENV, TOKEN)  # the server is started with it, as an operator would
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = tmp_path / "server.log"
    proc = start_server(tmp_path / "games.sqlite", port, log, 0.5)
    try:
        private = httpx.post(
            f"{url}/api/games", json={"game": "classic", "seats": [ANN, BOB], "listed": False}
        ).json()
        bots = httpx.post(f"{url}/api/games", json={"game": "classic", "seats": [BOT, BOT]}).json()
        gid = private["id"]
        runner = CliRunner()
        env = {ADMIN_ENV: TOKEN, admin_cli.SERVER_ENV: url}

        def meeple(*args: str, **kw: Any) -> Any:
            return runner.invoke(cli, ["admin", *args], env=env, **kw)

        done = meeple("list", "--json")
        assert done.exit_code == 0, done.output
        listed = {g["id"]: g for g in json.loads(done.stdout)}
        assert set(listed) == {gid, bots["id"]}
        assert [s["name"] for s in listed[gid]["seats"]] == ["Ann", "Bob"]
        for secret in secrets_of(private, bots):
            assert secret not in done.stdout
        done = meeple("list", "--status", "active")
        assert done.exit_code == 0 and gid in done.stdout and "Ann" in done.stdout
        assert f"{gid}*" in done.stdout  # marked private

        done = meeple("show", gid, "--json")
        assert done.exit_code == 0, done.output
        assert json.loads(done.stdout)["live"]["status"] == "active"
        done = meeple("show", gid)
        assert done.exit_code == 0 and "private" in done.stdout and "Bob" in done.stdout

        done = meeple("purge", gid)
        assert done.exit_code == 1 and "cancel it first" in done.output
        done = meeple("cancel", gid)
        assert done.exit_code == 0 and f"cancelled game {gid}" in done.stdout, done.output
        assert httpx.get(f"{url}/api/games/{gid}").json()["status"] == "cancelled"
        done = meeple("cancel", gid)
        assert done.exit_code == 1 and "nothing to cancel" in done.output

        token_file = tmp_path / "admin-token"
        token_file.write_text(TOKEN + "\n")
        done = runner.invoke(
            cli,
            ["admin", "purge", gid, "--token-file", str(token_file)],
            env={ADMIN_ENV: "", admin_cli.SERVER_ENV: url},
        )
        assert done.exit_code == 0 and f"purged 1 game: {gid}" in done.stdout, done.output
        done = meeple("purge", "--older-than-days", "0")
        assert done.exit_code == 0 and "nothing to purge" in done.stdout

        done = runner.invoke(cli, ["admin", "list"], env={**env, ADMIN_ENV: "wrong"})
        assert done.exit_code == 1 and "not the admin token" in done.output

        # The installed entry point, as a shell runs it: an unknown game is an error in words.
        run = subprocess.run(
            [sys.executable, "-m", "meeple.cli.main", "admin", "show", gid],
            env={**os.environ, admin_cli.SERVER_ENV: url},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert run.returncode == 1 and f"no game '{gid}'" in run.stderr, run.stderr
        assert "Traceback" not in run.stderr + run.stdout
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    text = log.read_text()
    assert f"admin: cancelled game {gid}" in text and f"admin: purged game {gid}" in text
    assert TOKEN not in text
