"""A table that talks, in Chromium: a spectator who arrives late reads the log from the first
move, page by page (docs/SERVER.md, "A table that talks")."""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
from playwright.sync_api import expect

from tests.browser.conftest import create_game, human_and_bots


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


def test_chat_from_a_seat_reaches_a_spectator(browser: Any, server: str) -> None:
    made = create_game(server, "classic", human_and_bots(1), 3)
    seat_ctx = browser.new_context(base_url=server)
    seat = seat_ctx.new_page()
    seat.goto(made["seats"][0]["url"])
    watch_ctx = browser.new_context(base_url=server)
    watch = watch_ctx.new_page()
    watch.goto(f"/play/{made['id']}")
    expect(watch.locator("#chat-form")).to_be_hidden()  # spectators read only
    seat.fill("#chat-text", "good luck, everyone")
    seat.locator("#chat-send").click()
    expect(watch.locator("#chat")).to_contain_text("Ann: good luck, everyone")
    expect(seat.locator("#chat-text")).to_have_value("")
    seat_ctx.close()
    watch_ctx.close()
