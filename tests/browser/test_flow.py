"""Play that flows (docs/SERVER.md, "Only real decisions ask"): in Chromium, the table moves on
by itself, a person is asked only for real decisions, can hold the table to act first, and
chooses when to be asked."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import create_game, human_and_bots, screenshot
from tests.browser.scenarios import first_roll_lands_on_a_deed

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_clicks.py"
SLOW = {"others_turns": "never", "own_turn": "build", "grace": 30}


def person(ask: dict[str, Any]) -> list[dict[str, Any]]:
    seats = human_and_bots(3, "standard")
    seats[0]["ask"] = ask
    return seats


def test_nine_in_ten_clicks_are_real_decisions(chromium: str, tmp_path: Path) -> None:
    """The click count of benchmarks/bench_clicks.py, at a small size: a scripted person plays
    the page of a lobby-made classic game against three standard bots (at a quick pace), and
    sits out no countdown on the lobby's settings (issue 38, "No waiting for nothing")."""
    out = tmp_path / "clicks.json"
    cmd = [sys.executable, str(BENCH), "--clicks", "12", "--bot-pace", "0.05"]
    subprocess.run([*cmd, "--json", str(out)], check=True, timeout=600)
    r = json.loads(out.read_text(encoding="utf-8"))
    assert r["clicks"] >= 12 or r["turns"] > 0
    assert r["share_real"] >= 0.9, r
    assert r["played_for_the_person"] > r["clicks"], r  # rolls, passes, ends of turn
    assert r["countdowns"] == 0 and r["countdown_share"] == 0, r


def test_the_table_rolls_for_you_unless_you_hold_it(page: Any, server: str) -> None:
    made = create_game(server, "classic", person(SLOW), 3)
    page.goto(made["seats"][0]["url"])
    auto = page.locator("#auto-move")
    expect(auto).to_contain_text("Rolling the dice for you in")
    expect(page.get_by_role("button", name="Roll the dice")).to_have_count(0)
    screenshot(page, "countdown-desktop")
    page.get_by_role("button", name="Wait, I want to act").click()
    expect(auto).to_have_count(0)
    expect(page.locator("#hold")).to_contain_text("The table is waiting for you")
    roll = page.get_by_role("button", name="Roll the dice")
    expect(roll).to_be_enabled()
    roll.click()
    expect(page.locator("#log")).to_contain_text("Ann rolls")
    expect(page.locator("#hold.held")).to_have_count(0)  # moving on ended the hold


def test_asking_settings_are_kept_and_applied(page: Any, server: str) -> None:
    made = create_game(server, "classic", person(SLOW), 3)
    page.goto(made["seats"][0]["url"])
    expect(page.locator("#auto-move")).to_be_visible()
    page.locator("#ask-settings summary").click()
    with page.expect_response(lambda r: r.url.endswith("/ask") and r.status == 200):
        page.select_option("#ask-own", "roll")
    # Asked before each roll now: the roll is a button again, with no countdown.
    expect(page.locator("#auto-move")).to_have_count(0)
    expect(page.get_by_role("button", name="Roll the dice")).to_be_visible()
    page.reload()
    page.locator("#ask-settings summary").click()
    expect(page.locator("#ask-own")).to_have_value("roll")
    expect(page.locator("#ask-others")).to_have_value("never")


def test_phone_shows_the_countdown_in_view(phone: Any, server: str) -> None:
    made = create_game(server, "classic", person(SLOW), 3)
    phone.goto(made["seats"][0]["url"])
    auto = phone.locator("#auto-move")
    expect(auto).to_be_visible()
    hold = phone.get_by_role("button", name="Wait, I want to act")
    box = hold.bounding_box()
    assert box is not None and box["height"] >= 40  # a tap target
    screenshot(phone, "countdown-phone")


def test_quick_bids_and_a_standing_bid(page: Any, server: str) -> None:
    seed = first_roll_lands_on_a_deed("classic", 4)
    made = create_game(server, "classic", human_and_bots(3, "standard"), seed)
    page.goto(made["seats"][0]["url"])
    page.get_by_role("button", name="Roll the dice").click()
    page.get_by_role("button", name="Auction it").click()
    quick = page.locator("#quick-bids button").first
    expect(quick).to_be_enabled()
    amount = quick.get_attribute("data-action")
    quick.click()
    expect(page.locator("#log")).to_contain_text(f"Ann bids ${amount.split()[1]}.")  # type: ignore[union-attr]
    page.fill("#proxy-limit", "150")
    page.locator("#proxy-set").click()
    expect(page.locator("#proxy-on")).to_contain_text("Bidding for you up to $150")
    # The table bids for Ann (the least each time) until the auction is decided.
    expect(page.locator("#auction")).to_have_count(0, timeout=30_000)
    expect(page.locator("#log")).to_contain_text(
        re.compile(r"wins .* for \$\d+|stays with the bank")
    )


def test_the_page_acts_on_its_socket(page: Any, server: str) -> None:
    """A click is one message on the game's socket (docs/SERVER.md, "Acting on the socket"):
    no request per action, and the seat's choices come with its update (no ``GET /view``
    after the first)."""
    made = create_game(server, "classic", person(SLOW), 3)
    requests: list[tuple[str, str]] = []
    frames: list[str] = []
    page.on("request", lambda r: requests.append((r.method, r.url)))
    page.on("websocket", lambda ws: ws.on("framesent", lambda f: frames.append(str(f))))
    page.goto(made["seats"][0]["url"])
    page.get_by_role("button", name="Wait, I want to act").click()
    page.get_by_role("button", name="Roll the dice").click()
    expect(page.locator("#log")).to_contain_text("Ann rolls")
    page.wait_for_timeout(500)  # whatever the page asks for after the update has been asked
    acts = [json.loads(f) for f in frames if '"act"' in f]
    assert acts and acts[0]["action"] == "roll" and acts[0]["state_id"] == 0, frames
    assert not [u for m, u in requests if m == "POST" and u.endswith("/actions")], requests
    assert len([u for m, u in requests if u.endswith("/view")]) == 1, requests
