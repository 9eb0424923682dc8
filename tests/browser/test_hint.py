"""The advisor on the game page (issue 21): at a decision, "Hint" shows each choice with its
chance of winning and a bar of its 95% range, the best starred; a game whose host turned hints
off shows no Hint; desktop and phone."""

from __future__ import annotations

import re
from typing import Any

import httpx
from playwright.sync_api import expect

from tests.browser.conftest import create_game, human_and_bots, screenshot
from tests.browser.scenarios import FIRST, first_roll_lands_on_a_deed

GAME = "classic"


def _buy_decision(page: Any, server: str, hints: bool = True) -> None:
    seed = first_roll_lands_on_a_deed(GAME, 2)
    seats = human_and_bots(1, "standard")
    if hints:
        made = create_game(server, GAME, seats, seed)
    else:
        body = {"game": GAME, "seats": seats, "seed": seed, "hints": False, **FIRST}
        r = httpx.post(f"{server}/api/games", json=body)
        assert r.status_code == 201, r.text
        made = r.json()
    page.goto(made["seats"][0]["url"])
    # (a seat made through the API without ask settings is asked every decision)
    page.get_by_role("button", name="Roll the dice").click()
    expect(page.get_by_role("button", name=re.compile(r"^Buy for \$\d+"))).to_be_visible(
        timeout=15_000
    )


def test_a_hint_ranks_the_choices(page: Any, server: str) -> None:
    _buy_decision(page, server)
    card = page.locator("#hint-card")
    expect(card).to_be_visible()
    page.get_by_role("button", name="Hint").click()
    items = card.locator("#hint-list li:not(.muted)")
    expect(items).to_have_count(2, timeout=15_000)  # buy, or auction it
    expect(card.locator("li.best")).to_have_count(1)
    expect(card.locator("#hint-list")).to_contain_text("Buy")
    expect(card.locator("#hint-list")).to_contain_text("Auction it")
    expect(card.locator("#hint-note")).to_contain_text("games played out")
    for bar in card.locator(".hint-bar").all():
        assert re.fullmatch(
            r"\d+% chance to win, from \d+% to \d+%", bar.get_attribute("aria-label") or ""
        )
    expect(page.get_by_role("button", name="Hint")).to_be_disabled()  # answered for this move
    screenshot(page, "hint-desktop")
    page.get_by_role("button", name=re.compile(r"^Buy for \$\d+")).click()
    expect(card.locator("#hint-list li")).to_have_count(0)  # a new position clears it


def test_a_hint_on_a_phone(phone: Any, server: str) -> None:
    _buy_decision(phone, server)
    phone.get_by_role("button", name="Hint").click()
    expect(phone.locator("#hint-list li.best")).to_have_count(1, timeout=15_000)
    box = phone.locator("#hint-card").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    screenshot(phone, "hint-phone")


def test_no_hint_where_the_host_turned_them_off(page: Any, server: str) -> None:
    _buy_decision(page, server, hints=False)
    expect(page.locator("#hint-card")).to_be_hidden()
