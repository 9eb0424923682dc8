"""Fixtures of the browser tests: Debian's Chromium (installed here if missing), a real
``meeple serve`` on a free port, and Playwright pages.

Chromium comes from Debian (``apt-get install chromium``), never from ``playwright install``:
the Playwright wheel brings its driver, and the browser is ``/usr/bin/chromium``. When it is
missing and we are root, the first worker installs it under a file lock (``apt-get update``
first if the plain install fails) while the other pytest-xdist workers wait on the lock; if it
still cannot be had, every browser test is skipped with the reason.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.browser.scenarios import FIRST
from tests.server.process import free_port, start_server, stop_server

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
LOCK = Path(tempfile.gettempdir()) / "meeple-chromium-install.lock"
BOT_PACE = 0.05
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def _install_chromium() -> str | None:
    """Install Debian's chromium if needed; ``None`` when it is there, else why it is not."""
    if os.path.exists(CHROMIUM):
        return None
    if os.geteuid() != 0:
        return f"{CHROMIUM} is missing and installing it needs root (apt-get install chromium)"
    if shutil.which("apt-get") is None:
        return f"{CHROMIUM} is missing and there is no apt-get to install it"
    with LOCK.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one worker installs; the others wait here
        try:
            if os.path.exists(CHROMIUM):
                return None
            env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
            install = ["apt-get", "install", "-y", "chromium"]
            done = subprocess.run(install, env=env, capture_output=True, text=True)
            if done.returncode != 0:
                subprocess.run(["apt-get", "update"], env=env, capture_output=True, text=True)
                done = subprocess.run(install, env=env, capture_output=True, text=True)
            if not os.path.exists(CHROMIUM):
                tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
                return "could not install chromium: " + " / ".join(tail)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return None


@pytest.fixture(scope="session")
def chromium() -> str:
    """The path of Debian's Chromium; skips the browser tests if it cannot be installed."""
    why = _install_chromium()
    if why is not None:
        pytest.skip(why)
    return CHROMIUM


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A ``meeple serve`` of its own (temporary SQLite file, bots at a small pace): its URL."""
    tmp = tmp_path_factory.mktemp("server")
    port = free_port()
    # No limits per address (``--no-limits``): every test's games come from one address, more
    # than a person's 20 waiting or in play (tests/server test the limits themselves).
    proc = start_server(tmp / "games.sqlite", port, tmp / "serve.log", BOT_PACE, ("--no-limits",))
    base = f"http://127.0.0.1:{port}"
    try:
        yield base
    finally:
        stop_server(proc)


@pytest.fixture(scope="session")
def browser(chromium: str) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any, server: str) -> Iterator[Any]:
    """A desktop-sized page whose JavaScript errors fail the test."""
    yield from _page(browser, server, DESKTOP)


@pytest.fixture
def phone(browser: Any, server: str) -> Iterator[Any]:
    """A phone-sized page (390 x 844, touch) whose JavaScript errors fail the test."""
    yield from _page(browser, server, PHONE, is_mobile=True, has_touch=True)


def _page(browser: Any, server: str, viewport: dict[str, int], **kw: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=viewport, base_url=server, **kw)
    context.set_default_timeout(20_000)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


SCREENSHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"
"""Where the browser tests keep their screenshots (a test artefact; docs/images has copies)."""


def screenshot(page: Any, name: str) -> Path:
    """Save ``page`` as ``build/screenshots/NAME.png`` and return the path."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


def create_game(base: str, game: str, seats: list[dict[str, Any]], seed: int) -> dict[str, Any]:
    """Start a game through the API, the human in seat 1 starting (``scenarios.FIRST``);
    returns the creation answer."""
    body = {"game": game, "seats": seats, "seed": seed, **FIRST}
    r = httpx.post(f"{base}/api/games", json=body)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


@pytest.fixture
def tidy(server: str) -> Iterator[list[dict[str, Any]]]:
    """A list for the games a test made (``create_game``'s answers), cancelled when the test
    ends: a game left waiting or in play counts against the server's limits per address
    (docs/SERVER.md, "Limits": 5 waiting, 20 waiting or in play) for the tests after it."""
    made: list[dict[str, Any]] = []
    yield made
    for game in made:  # (a game that ended is refused: nothing to do)
        httpx.post(
            f"{server}/api/games/{game['id']}/cancel", json={"host_token": game["host_token"]}
        )


def human_and_bots(bots: int, bot: str = "random") -> list[dict[str, Any]]:
    return [{"type": "human", "name": "Ann"}] + [
        {"type": "bot", "bot": bot, "name": name} for name in ["Bolt", "Cog", "Dex"][:bots]
    ]
