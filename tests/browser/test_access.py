"""Everyone at the table, and the phone (issue 16), in Chromium against a real ``meeple serve``.

axe-core (bundled by ``axe-playwright-python``: nothing is fetched) finds no serious or critical
fault on the lobby, the join page, the Monopoly game page (desktop and phone, with a deed open)
and the Monopolis game page. A decision is made with the keyboard alone (Tab to "Roll the dice",
Enter; the focus moves on to "Buy", Enter), and the board's squares are labelled buttons reached
by Tab and the arrow keys. On a 390 x 844 phone every text on the board is at least 11 CSS px
(its font size times the board's scale on screen), each street carries its colour group's
letter, and the decision is on screen under the whole board; the screenshots are kept in
``build/screenshots`` (``game-phone``, ``decision-phone``, ``deed-phone``, ``game-desktop``).
"""

from __future__ import annotations

import re
from typing import Any

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from meeple.kernel.family import new_game
from meeple.server.pages import board_of
from tests.browser.conftest import PHONE, create_game, human_and_bots, screenshot
from tests.browser.scenarios import first_roll_lands_on_a_deed, first_roll_square

GAME = "classic"
SERIOUS = ("serious", "critical")
# The classic board's colour groups and their letters (the page derives them from the names).
LETTERS = {
    "Brown": "B",
    "Light Blue": "L",
    "Pink": "P",
    "Orange": "O",
    "Red": "R",
    "Yellow": "Y",
    "Green": "G",
    "Dark Blue": "D",
}
# Every text drawn on the board: its words and its size on screen in CSS px.
TEXT_SIZES = """() => [...document.querySelectorAll('#board-svg text')]
  .filter((t) => t.getClientRects().length > 0)
  .map((t) => {
    const m = t.getScreenCTM();
    return [t.textContent, parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b)];
  })"""
FOCUSED = "e => e === document.activeElement"


def board() -> dict[str, Any]:
    return board_of(new_game(GAME, 4, 0))


def serious_faults(page: Any) -> list[str]:
    """axe-core's serious and critical violations on the page as it is, one line each."""
    found = Axe().run(page).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes'][:4]]}"
        for v in found
        if v["impact"] in SERIOUS
    ]


def settled(page: Any) -> None:
    """Two frames later: the board has been drawn again for its size on screen, if it needed to."""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def tab_to(page: Any, target: Any, key: str = "Tab", limit: int = 60) -> None:
    """Press ``key`` until ``target`` has the focus."""
    for _ in range(limit):
        page.keyboard.press(key)
        if target.evaluate(FOCUSED):
            return
    raise AssertionError(f"{key} never reached {target}")


def test_lobby_and_join_page_have_no_serious_accessibility_faults(page: Any, server: str) -> None:
    page.goto("/")
    expect(page.locator("#game option").first).to_be_attached()
    assert serious_faults(page) == []

    seats = [{"type": "human", "name": "Ann"}, {"type": "open"}, {"type": "bot", "bot": "random"}]
    made = create_game(server, GAME, seats, 1)
    page.goto(made["invite_url"])
    expect(page.locator("#join-form")).to_be_visible()
    assert serious_faults(page) == []


def test_monopoly_page_on_a_desktop(page: Any, server: str) -> None:
    made = create_game(server, GAME, human_and_bots(3), 2)
    page.goto(made["seats"][0]["url"])
    expect(page.get_by_role("button", name="Roll the dice")).to_be_enabled()
    # The centre shows the edition's name in meeple's own look (no imitation of a logo).
    expect(page.locator("#edition-title")).to_have_text("Monopoly")
    assert serious_faults(page) == []
    screenshot(page, "game-desktop")

    # Hovering a square shows its deed over the board's centre; leaving it hides the deed.
    names = [sq["name"] for sq in board()["squares"]]
    deed = page.locator("#deed")
    page.locator("#sq-39").hover()
    expect(deed).to_be_visible()
    expect(deed).to_contain_text(names[39])
    expect(deed).to_contain_text("Dark Blue · D")
    assert serious_faults(page) == []
    page.locator("#players").hover()
    expect(deed).to_be_hidden()


def test_a_decision_made_with_the_keyboard_alone(page: Any, server: str) -> None:
    seed = first_roll_lands_on_a_deed(GAME, 4)
    square = first_roll_square(GAME, 4, seed)
    data = board()
    name = data["squares"][square]["name"]
    letter = LETTERS[data["groups"][data["squares"][square]["group"]]["name"]]
    made = create_game(server, GAME, human_and_bots(3), seed)
    page.goto(made["seats"][0]["url"])
    roll = page.get_by_role("button", name="Roll the dice")
    expect(roll).to_be_enabled()

    tab_to(page, roll)
    page.keyboard.press("Enter")
    buy = page.get_by_role("button", name=re.compile(r"^Buy for"))
    expect(buy).to_be_focused()  # the focus goes on to the new decision
    page.keyboard.press("Enter")
    here = page.locator(f"#sq-{square}")
    expect(here).to_have_attribute("data-owner", "0")
    chip = page.locator("#players [data-seat='0'] .chip")
    expect(chip).to_have_text(letter)  # the deed's group by letter, not by colour alone

    expect(here).to_have_attribute("aria-label", re.compile(rf"^{re.escape(name)}, .*owned by Ann"))

    # The board is one Tab stop; the arrow keys go from square to square, showing each deed.
    stop = page.locator("#board-svg .sq[tabindex='0']")
    tab_to(page, stop, key="Shift+Tab")
    at = int(stop.get_attribute("data-index") or "0")
    deed = page.locator("#deed")
    expect(deed).to_have_attribute("aria-label", f"Deed: {data['squares'][at]['name']}")
    page.keyboard.press("ArrowRight")  # the next square round the board
    following = (at + 1) % len(data["squares"])
    expect(page.locator(f"#sq-{following}")).to_be_focused()
    expect(deed).to_have_attribute("aria-label", f"Deed: {data['squares'][following]['name']}")
    page.keyboard.press("Enter")  # a tap: the deed stays open, with its buttons
    expect(page.locator("#deed-close")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#deed-close")).to_have_count(0)


def test_phone_board_type_letters_and_decision_on_screen(phone: Any, server: str) -> None:
    seed = first_roll_lands_on_a_deed(GAME, 4)
    data = board()
    made = create_game(server, GAME, human_and_bots(3), seed)
    phone.goto(made["seats"][0]["url"])
    roll = phone.get_by_role("button", name="Roll the dice")
    expect(roll).to_be_visible()
    settled(phone)

    sizes = phone.evaluate(TEXT_SIZES)
    assert len(sizes) > 100  # names, prices, letters, corners, tokens, the centre
    small = [(text, round(px, 2)) for text, px in sizes if px < 11]
    assert small == [], f"text under 11 CSS px on the phone board: {small}"
    for sq in data["squares"]:
        if sq["kind"] == "street":
            letter = LETTERS[data["groups"][sq["group"]]["name"]]
            expect(phone.locator(f"#sq-{sq['index']} .group-code")).to_have_text(letter)
    # A square is a tap target of at least WCAG's 24 x 24 px (31 x 49 at 390 px: eleven squares
    # share the width); a tap one square off is mended with the deed's 44 px arrows below.
    sides = phone.locator("#board-svg .sq").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect()).map(b => Math.min(b.width, b.height))"
    )
    assert min(sides) >= 24, min(sides)

    # The whole board, then the decision, both on screen without scrolling.
    area = phone.locator("#board-svg").bounding_box()
    button = roll.bounding_box()
    assert area is not None and button is not None
    assert area["y"] >= 0 and area["y"] + area["height"] <= button["y"]
    assert button["y"] + button["height"] <= PHONE["height"]
    assert button["height"] >= 40
    screenshot(phone, "game-phone")
    assert serious_faults(phone) == []

    roll.tap()
    buy = phone.get_by_role("button", name=re.compile(r"^Buy for"))
    expect(buy).to_be_visible()
    box = buy.bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["height"] and box["height"] >= 40
    screenshot(phone, "decision-phone")

    # Tapping a square shows its deed in full over the board's centre, with big buttons to step
    # to the squares either side (a finger is wider than a square) and to close it.
    phone.locator("#sq-39").tap()
    deed = phone.locator("#deed")
    expect(deed).to_contain_text(data["squares"][39]["name"])
    card = deed.bounding_box()
    assert card is not None
    assert card["y"] >= area["y"] and card["y"] + card["height"] <= area["y"] + area["height"]
    for label in ("Previous square", "Close", "Next square"):
        tap = deed.get_by_role("button", name=label).bounding_box()
        assert tap is not None and tap["height"] >= 40 and tap["width"] >= 40, (label, tap)
    screenshot(phone, "deed-phone")
    assert serious_faults(phone) == []
    deed.get_by_role("button", name="Next square").tap()
    expect(deed).to_contain_text(data["squares"][0]["name"])
    deed.get_by_role("button", name="Close").tap()
    expect(deed).to_be_hidden()


def test_monopolis_page_has_no_serious_accessibility_faults(page: Any, server: str) -> None:
    made = create_game(server, "monopolis", human_and_bots(2), 11)
    page.goto(made["seats"][0]["url"])
    expect(page.locator("#market .mp-card")).to_have_count(6)
    assert serious_faults(page) == []
    # A requirement card a build can start on is a button a keyboard reaches.
    cards = page.locator("#city-svg .req[role=button]")
    if cards.count():
        expect(cards.first).to_have_attribute("tabindex", "0")
