"""A table that talks, in Chromium: a spectator who arrives late reads the log from the first
move, page by page (docs/SERVER.md, "A table that talks")."""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
from playwright.sync_api import expect

from tests.browser.conftest import create_game


def test_a_late_spectator_reads_the_whole_log(page: Any, server: str) -> None:
    seats = [{"type": "bot", "bot": "random"} for _ in range(3)]
    made = create_game(server, "classic", seats, 9)
    gid = made["id"]
    end = time.monotonic() + 60
    while httpx.get(f"{server}/api/games/{gid}").json()["state_id"] < 40:
        assert time.monotonic() < end, "the bots did not play 40 moves"
        time.sleep(0.1)
    page.goto(f"/play/{gid}")

    def move(n: int) -> Any:
        return page.locator("#log li").filter(
            has=page.locator(".sid", has_text=re.compile(rf"^#{n}$"))
        )

    expect(move(1).last).to_contain_text("rolls")  # the first move, made before we came
    entries = httpx.get(f"{server}/api/games/{gid}/log", params={"before": 41, "limit": 40}).json()[
        "entries"
    ]
    for e in entries[::7]:  # moves made before we came, here as the server keeps them
        expect(move(e["state_id"])).to_have_count(len(e["events"]))
