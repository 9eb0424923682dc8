"""A table that never stalls, in Chromium (issue 38; docs/SERVER.md, "A table that never
stalls"): two people in a private game made on the lobby's defaults; one closes her browser,
the other sees her away, the game moves on within the away timer (the standard bot plays her
seat) and her seat is hers again when she comes back."""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.browser.conftest import BOT_PACE, PHONE, screenshot
from tests.server.process import free_port, start_server, stop_server

AWAY = 3
"""The test server's away timer (``meeple serve --away-timer``, 30 s by default): the lobby's
game takes the server's, so this is the default path, only shorter."""


@pytest.fixture(scope="module")
def away_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp: Path = tmp_path_factory.mktemp("away")
    port = free_port()
    log = tmp / "serve.log"
    proc = start_server(tmp / "games.sqlite", port, log, BOT_PACE, ("--away-timer", str(AWAY)))
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        stop_server(proc)


def text_now(locator: Any) -> str:
    """The text of the first element ``locator`` finds now, or "" (the page redraws often)."""
    with contextlib.suppress(Exception):
        return str(locator.first.text_content(timeout=200) or "")
    return ""


def act_when_asked(page: Any) -> None:
    """Bob's part: buy when offered, else the first choice of the decision, if he has one."""
    buttons = page.locator("#main-actions button[data-action]:not([disabled])")
    if not buttons.count():
        return
    buy = page.locator("#main-actions button[data-action='buy']:not([disabled])")
    target = buy if buy.count() else buttons.first
    with contextlib.suppress(Exception):  # the page redrew under the click: look again
        target.click(timeout=1000)


def test_a_friend_who_leaves_does_not_stall_the_table(
    browser: Any, chromium: str, away_server: str
) -> None:
    hana_ctx = browser.new_context(base_url=away_server)
    hana = hana_ctx.new_page()
    hana.goto("/")
    # The lobby shows the timers every game gets, private ones too.
    expect(hana.locator("#timer")).to_have_value("300")
    expect(hana.locator("#away-help")).to_contain_text(f"a bot plays for them after {AWAY} s")
    hana.get_by_label("Seat 1 name").fill("Hana")
    hana.get_by_label("Seat 2 player").select_option("human")
    hana.get_by_label("Remove seat 4").click()
    hana.get_by_label("Remove seat 3").click()
    assert not hana.locator("#listed").is_checked()  # a private game, on the defaults
    hana.get_by_role("button", name="Create the game").click()
    link = hana.locator("[data-testid=spectator-link] input").input_value()
    gid = link.rsplit("/play/", 1)[1]
    bob_link = hana.locator("[data-testid=seat-link-1] input").input_value()
    hana.locator("#play-mine").click()
    expect(hana.locator("#who")).to_have_text("You are Hana")
    kept = hana_ctx.storage_state()  # her browser keeps her seat

    bob_ctx = browser.new_context(base_url=away_server)
    bob = bob_ctx.new_page()
    bob.goto(bob_link)
    expect(bob.locator("#who")).to_have_text("You are Bob")
    presence = bob.locator("#players [data-seat='0'] .presence")
    expect(presence).to_have_text("here")

    hana_ctx.close()  # Hana closes her browser
    expect(presence).to_contain_text("away")
    expect(bob.locator("#table .away-notice")).to_contain_text("Hana is away")
    handover = bob.locator("#table button[data-handover='0']")
    expect(handover).to_be_disabled()  # a short wait first (10 s)
    # Bob plays on; when Hana's turn comes, the table waits the away timer, then the standard
    # bot plays her seat, and the game goes on.
    end = time.monotonic() + 120  # a bound, not a timing: the game must not stall
    waited = ""
    while "a bot plays" not in (presence.text_content() or ""):
        assert time.monotonic() < end, "Hana's seat was never played for her: the table stalled"
        waiting = bob.locator("#controls .waiting-for")
        said = text_now(waiting)
        if not waited and "a bot plays for Hana in" in said:
            waited = said
            screenshot(bob, "away-waiting-desktop")
        act_when_asked(bob)
        bob.wait_for_timeout(100)
    left = re.search(r"in (\d+) s", waited)
    assert left and int(left.group(1)) <= AWAY, waited  # the away timer, not the 5 min one
    stood_in = httpx.get(f"{away_server}/api/games/{gid}").json()["state_id"]
    expect(bob.locator("#log")).to_contain_text("Hana rolls")  # the bot rolled for her
    screenshot(bob, "away-desktop")
    bob.set_viewport_size(PHONE)
    screenshot(bob, "away-phone")

    # Hana comes back: her seat is hers again, by itself, and Bob sees her here.
    back_ctx = browser.new_context(base_url=away_server, storage_state=kept)
    back = back_ctx.new_page()
    back.goto(f"/play/{gid}")
    expect(back.locator("#who")).to_have_text("You are Hana")
    expect(presence).to_have_text("here")
    expect(back.locator("#stand-in")).to_have_count(0)
    pub = httpx.get(f"{away_server}/api/games/{gid}").json()
    assert pub["seats"][0]["stand_in"] is False and pub["state_id"] > stood_in
    back_ctx.close()
    bob_ctx.close()
