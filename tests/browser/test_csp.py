"""The Content-Security-Policy breaks no page (docs/SERVER.md, "Security headers, Origin and
Host"): Chromium reports no violation while the lobby makes a game, a game page connects its
WebSocket and plays a move (a POST with the page's ``Origin``), the join page takes a seat and
``/docs`` draws the API from files that ship with a package."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import create_game, human_and_bots

WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  const where = `${e.sourceFile}:${e.lineNumber}`;
  window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${where}`);
});
"""


def watched(page: Any) -> list[str]:
    """Record the page's CSP violations (each load's, and the console's words for them)."""
    seen: list[str] = []
    page.add_init_script(WATCH)
    page.on(
        "console",
        lambda m: seen.append(m.text) if "Content Security Policy" in m.text else None,
    )
    return seen


def violations(page: Any, console: list[str]) -> list[str]:
    return [*page.evaluate("window.__violations"), *console]


def test_no_page_breaks_the_policy(page: Any, server: str) -> None:
    console = watched(page)

    page.goto("/")
    page.get_by_label("Seat 1 name").fill("Ann")
    page.get_by_label("Seat 2 player").select_option("open")
    page.get_by_role("button", name="Create the game").click()
    expect(page.locator("#created")).to_be_visible()
    assert violations(page, console) == [], "lobby"

    seats = [{"type": "human", "name": "Ann"}, {"type": "open"}]
    page.goto(create_game(server, "classic", seats, 3)["invite_url"])
    page.get_by_label("Your name").fill("Bob")
    page.get_by_role("button", name="Take the seat").click()
    expect(page.locator("#who")).to_have_text("You are Bob")
    assert violations(page, console) == [], "join"

    game = create_game(server, "classic", human_and_bots(1), 11)
    page.goto(game["seats"][0]["url"])
    expect(page.locator("#who")).to_have_text("You are Ann")
    page.get_by_role("button", name="Roll the dice").click()
    expect(page.locator("#log")).to_contain_text("Ann rolls")
    assert violations(page, console) == [], "game"

    page.goto("/docs")
    expect(page.locator(".opblock").first).to_be_visible()
    assert page.locator(".opblock").count() > 10
    assert violations(page, console) == [], "docs"
