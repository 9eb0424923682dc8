"""The page on a phone-sized screen, and the Monopolis game page: on a 390 x 844 phone (issue
38) no text of the city, the decision or the players' boards is under 11.5 CSS px, even with
the city seven plots wide, and the build choices are grouped by what they build, each named
by where its card lies."""

from __future__ import annotations

import re
from typing import Any

import httpx
from playwright.sync_api import expect

from tests.browser.conftest import create_game, human_and_bots, screenshot
from tests.browser.scenarios import Driver, best_seed, human_choice

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


MIN_PX = 11.5
# Every text of the Monopolis page's own parts (the city, its legend, the decision, the market,
# the players' boards) that is on screen: its words and its size in CSS px (an SVG text's font
# size times the drawing's scale on screen).
MONOPOLIS_TEXT = """() => {
  const out = [];
  for (const root of document.querySelectorAll('#board, #controls, #players')) {
    for (const t of root.querySelectorAll('svg text')) {
      if (!t.getClientRects().length || !t.textContent.trim()) continue;
      const m = t.getScreenCTM();
      out.push([t.textContent, parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b)]);
    }
    const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    while (walk.nextNode()) {
      const e = walk.currentNode.parentElement;
      const text = walk.currentNode.textContent.trim();
      if (!text || e.closest('svg') || !e.getClientRects().length) continue;
      out.push([text, parseFloat(getComputedStyle(e).fontSize)]);
    }
  }
  return out;
}"""


def wide_city_with_builds(v: dict[str, Any], legal: list[str]) -> bool:
    """The human may start 3 builds or more, and the city spans all 7 columns of the grid."""
    xs = [t["x"] for t in v["city"]] + [c["x"] for c in v["requirement_cards"]]
    return sum(a.startswith("build_at ") for a in legal) >= 3 and max(xs) - min(xs) == 6


def test_monopolis_on_a_phone_is_readable_and_says_what_each_build_builds(
    phone: Any, server: str
) -> None:
    seed = best_seed(
        "monopolis", 3, lambda s, legal: wide_city_with_builds(s.view(0), legal), range(1, 12), 400
    )
    made = create_game(server, "monopolis", human_and_bots(2), seed)
    driver = Driver(server, made["id"], made["seats"][0]["token"])
    while True:  # the human's policy (scenarios.human_choice) up to the wide city
        v = driver.wait_for_decision()
        assert v["status"] == "active", "the game ended before the city was seven plots wide"
        legal = [a["action"] for a in v["legal_actions"]]
        if wide_city_with_builds(v["view"], legal):
            break
        body = {"token": driver.token, "state_id": v["state_id"], "action": human_choice(legal)}
        assert httpx.post(f"{server}/api/games/{made['id']}/actions", json=body).status_code == 200
    phone.goto(made["seats"][0]["url"])
    builds = phone.locator("#build-actions button")
    expect(builds).to_have_count(
        sum(a["action"].startswith("build_at") for a in v["legal_actions"])
    )
    assert phone.evaluate(NO_SIDEWAYS_SCROLL)
    city = phone.locator("#city-svg").bounding_box()
    assert city is not None and city["width"] <= 390
    sizes = phone.evaluate(MONOPOLIS_TEXT)
    assert len(sizes) > 100  # the city, the market and the boards are all there
    small = [(text, round(px, 2)) for text, px in sizes if round(px, 2) < MIN_PX]
    assert small == [], f"text under {MIN_PX} CSS px: {small[:8]}"
    screenshot(phone, "monopolis-phone")

    # The choices, grouped by what they build (the view's words), each named by its card's place.
    cards = {rc["plot"]: rc for rc in v["view"]["requirement_cards"]}
    groups = phone.locator("#build-actions .build-group")
    for a in v["legal_actions"]:
        if not a["action"].startswith("build_at "):
            continue
        rc = cards[int(a["action"].split()[1])]
        place = rc["where"].removesuffix(" of the castle")
        group = groups.filter(has=phone.get_by_role("button", name=place, exact=True))
        expect(group.locator(".build-what")).to_have_text(rc["builds"]["words"].capitalize() + ":")
        assert "plot" not in place and any(w in place for w in ("north", "south", "east", "west"))
    # A tile's words under the city when it is tapped (its cell may have had no room for them).
    tile = next(t for t in v["view"]["city"] if t["kind"] != "castle")
    phone.locator(f"#plot-{tile['plot']}").tap()
    expect(phone.locator("#plot-info")).to_contain_text(f"{tile['name'].capitalize()} (")
    expect(phone.locator("#plot-info")).to_contain_text(tile["where"])
