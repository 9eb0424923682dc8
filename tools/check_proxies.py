"""Check docs/DEPLOY.md's Caddy and nginx configurations end to end, on loopback ports.

Takes the ```caddy and the first ```nginx block of docs/DEPLOY.md as they are, moves them to
free loopback ports (a local certificate instead of the real one: Caddy's internal authority,
a self-signed one for nginx), starts ``meeple serve --forwarded-allow-ips 127.0.0.1
--allowed-host games.example.com --access-log`` on a scratch SQLite file behind each in turn,
and through the proxy, over TLS: makes a game with the public name's ``Origin``, opens a seat's
WebSocket (its hello, then the update of a move), and checks that meeple's access log names the
client's address (127.0.0.1), not the made-up ``X-Forwarded-For`` the client sent, and that the
answers carry the proxy's ``Strict-Transport-Security``.

Needs ``caddy``, ``nginx`` and ``openssl`` on the PATH (Debian: apt-get install caddy nginx);
not part of the test suite. Run: ``.venv/bin/python tools/check_proxies.py``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parent.parent
NAME = "games.example.com"
MADE_UP = "203.0.113.66"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def block(language: str) -> str:
    """The first fenced block of ``language`` in docs/DEPLOY.md."""
    text = (ROOT / "docs" / "DEPLOY.md").read_text()
    found = re.search(rf"^```{language}\n(.*?)^```", text, re.DOTALL | re.MULTILINE)
    assert found, f"no ```{language} block in docs/DEPLOY.md"
    return found.group(1)


def wait_port(port: int, proc: subprocess.Popen[bytes], log: Path) -> None:
    end = time.monotonic() + 30
    while time.monotonic() < end:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        if proc.poll() is not None:
            raise SystemExit(f"exited early:\n{log.read_text()}")
        time.sleep(0.1)
    raise SystemExit(f"never listened on {port}:\n{log.read_text()}")


@contextmanager
def running(cmd: list[str], port: int, log: Path, cwd: Path) -> Iterator[None]:
    env = {**os.environ, "XDG_CONFIG_HOME": str(cwd), "XDG_DATA_HOME": str(cwd)}  # Caddy's files
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, cwd=cwd, env=env)
    try:
        wait_port(port, proc, log)
        yield
    finally:
        proc.terminate()
        proc.wait(10)


def caddy_config(work: Path, port: int, upstream: int) -> list[str]:
    site = block("caddy")
    assert "reverse_proxy 127.0.0.1:8000" in site and site.startswith(f"{NAME} {{")
    site = site.replace("127.0.0.1:8000", f"127.0.0.1:{upstream}")
    site = site.replace(f"{NAME} {{", f"{NAME}:{port} {{\n\ttls internal\n\tbind 127.0.0.1", 1)
    glob = (
        f"{{\n\tadmin off\n\tauto_https disable_redirects\n\tskip_install_trust\n"
        f"\tdefault_sni {NAME}\n"
        f'\tstorage file_system {{\n\t\troot "{work}/caddy"\n\t}}\n}}\n'
    )
    (work / "Caddyfile").write_text(glob + site)
    return ["caddy", "run", "--config", str(work / "Caddyfile"), "--adapter", "caddyfile"]


def nginx_config(work: Path, port: int, upstream: int) -> list[str]:
    conf = block("nginx")
    cert, key = work / "cert.pem", work / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", f"/CN={NAME}", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    for old, new in [
        ("listen 443 ssl;", f"listen 127.0.0.1:{port} ssl;"),
        ("listen 80;", f"listen 127.0.0.1:{free_port()};"),
        ("http://127.0.0.1:8000", f"http://127.0.0.1:{upstream}"),
        (f"/etc/letsencrypt/live/{NAME}/fullchain.pem", str(cert)),
        (f"/etc/letsencrypt/live/{NAME}/privkey.pem", str(key)),
    ]:
        assert old in conf, old
        conf = conf.replace(old, new)
    temp = " ".join(
        f"{k}_temp_path {work}/{k};" for k in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    whole = (
        f"daemon off;\npid {work}/nginx.pid;\nerror_log {work}/nginx-error.log;\n"
        f"events {{}}\nhttp {{\naccess_log off;\n{temp}\n{conf}\n}}\n"
    )
    (work / "nginx.conf").write_text(whole)
    return ["nginx", "-c", str(work / "nginx.conf"), "-p", str(work)]


def through(port: int, meeple_log: Path) -> None:
    """A game made, a seat's socket followed through the proxy on ``port``, over TLS."""
    insecure = ssl.create_default_context()
    insecure.check_hostname, insecure.verify_mode = False, ssl.CERT_NONE
    base = f"https://127.0.0.1:{port}"
    headers = {"Host": f"{NAME}:{port}", "X-Forwarded-For": MADE_UP}
    with httpx.Client(base_url=base, verify=insecure, headers=headers, timeout=10) as http:
        health = http.get("/healthz")
        assert health.json()["status"] == "ok"
        # HSTS from the proxy, once (meeple sends none without --hsts)
        assert health.headers.get_list("strict-transport-security") == ["max-age=31536000"]
        seats = [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}]
        origin = {"Origin": f"https://{NAME}:{port}"}
        body = {"game": "classic", "seats": seats, "rules": {"start_player": "first_seat"}}
        made = http.post("/api/games", json=body, headers=origin)
        assert made.status_code == 201, made.text
        game = made.json()
        url = f"wss://{NAME}:{port}/api/games/{game['id']}/ws"
        sock = socket.create_connection(("127.0.0.1", port))
        with connect(
            url, sock=sock, ssl=insecure, server_hostname=NAME, origin=origin["Origin"],  # type: ignore[arg-type]
            additional_headers={"X-Forwarded-For": MADE_UP}, open_timeout=10,
        ) as ws:  # fmt: skip
            assert json.loads(ws.recv(timeout=10))["seat"] is None
            ws.send(json.dumps({"type": "auth", "token": game["seats"][1]["token"]}))
            assert json.loads(ws.recv(timeout=10))["seat"] == 1
            body = {"token": game["seats"][0]["token"], "state_id": 0, "action": "roll"}
            moved = http.post(f"/api/games/{game['id']}/actions", json=body, headers=origin)
            assert moved.status_code == 200, moved.text
            update = json.loads(ws.recv(timeout=10))
            assert update["type"] == "update" and update["state_id"] == 1
    time.sleep(0.3)
    log = meeple_log.read_text()
    lines = [line for line in log.splitlines() if " - " in line and line.startswith("INFO:")]
    # 127.0.0.1:0 is an address from X-Forwarded-For (no port), the one the proxy saw
    assert lines and all(line.split()[1] == "127.0.0.1:0" for line in lines), log
    assert MADE_UP not in log, log
    assert any('"WebSocket /api/games/' in line for line in lines), log


def main() -> None:
    missing = [tool for tool in ("caddy", "nginx", "openssl") if shutil.which(tool) is None]
    if missing:
        raise SystemExit(f"not on the PATH: {', '.join(missing)}")
    for name, config in (("caddy", caddy_config), ("nginx", nginx_config)):
        with tempfile.TemporaryDirectory(prefix=f"meeple-{name}-") as tmp:
            work, upstream, port = Path(tmp), free_port(), free_port()
            work.chmod(0o755)  # nginx's workers run as nobody
            meeple = [
                sys.executable, "-m", "meeple.cli.main", "serve", "--port", str(upstream),
                "--database-url", f"sqlite:///{work / 'games.sqlite'}", "--access-log",
                "--allowed-host", NAME, "--forwarded-allow-ips", "127.0.0.1",
            ]  # fmt: skip
            with (
                running(meeple, upstream, work / "meeple.log", work),
                running(config(work, port, upstream), port, work / f"{name}.log", work),
            ):
                through(port, work / "meeple.log")
            print(f"{name}: game made, socket followed over TLS, client address from the proxy")


if __name__ == "__main__":
    main()
