"""The page on a phone-sized screen, and the Monopolis game page."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import create_game, human_and_bots

NO_SIDEWAYS_SCROLL = "() => document.documentElement.scrollWidth <= window.innerWidth"


def test_phone_shows_board_and_controls_without_sideways_scrolling(phone: Any, server: str) -> None:
    phone.goto("/")
    expect(phone.get_by_role("button", name="Create the game")).to_be_visible()
    assert phone.evaluate(NO_SIDEWAYS_SCROLL)

    made = create_game(server, "classic", human_and_bots(3), 2)
    phone.goto(made["seats"][0]["url"])
    board = phone.locator("#board-svg")
    expect(board).to_be_visible()
    box = board.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert box["height"] > 300  # the whole board, drawn at full width
    roll = phone.get_by_role("button", name="Roll the dice")
    expect(roll).to_be_visible()
    assert phone.evaluate(NO_SIDEWAYS_SCROLL)
    roll.tap()
    expect(phone.locator("#log")).to_contain_text("Ann rolls")
    assert phone.evaluate(NO_SIDEWAYS_SCROLL)


def test_monopolis_page_shows_city_market_boards_and_buys(page: Any, server: str) -> None:
    made = create_game(server, "monopolis", human_and_bots(2), 11)
    page.goto(made["seats"][0]["url"])
    city = page.locator("#city-svg")
    expect(city.locator("#plot-24")).to_have_attribute("data-kind", "castle")
    expect(city.locator(".req")).to_have_count(4)  # a requirement card on each castle side
    expect(page.locator("#market .mp-card")).to_have_count(6)
    expect(page.locator("#players .player")).to_have_count(3)
    expect(page.locator("#players .player").first.locator(".mp-board .space")).to_have_count(9)
    expect(page.locator("#prompt")).to_contain_text("action 1 of 2")

    money = page.locator("#players [data-seat='0'] .cash")
    before = int(money.get_attribute("data-money") or "0")
    card = page.locator("#market .mp-card", has=page.locator("button:enabled")).first
    price = int(card.locator(".price").inner_text())
    card.get_by_role("button", name="Buy").click()
    expect(page.locator("#log")).to_contain_text(re.compile(r"Ann buys the (left|right) row's \d"))
    expect(money).not_to_have_attribute("data-money", str(before))
    after = int(money.get_attribute("data-money") or "0")
    assert after <= before - price + 2  # paid the price (a card may pay back a coin or two)
