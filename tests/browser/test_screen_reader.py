"""What a screen reader is told, in Chromium against a real ``meeple serve`` (issue 38, "Screen
readers"; docs/SERVER.md, "On a phone, and for everyone at the table").

During bot play the page's live regions change a few times, each time with new text only: the
game's new log lines (politely, in order, each once) and the person's decision when it comes;
the decision panel, drawn again on every update, is not a live region (it and the countdown
were: 509 changes in 30 s of lobby-default play, ``benchmarks/bench_access.py``). Another
person's chat message is said, the chat's history is not. Every region that scrolls (the log,
the chat) is a named Tab stop that the keyboard scrolls, and no accessible name or text says a
word twice ("Not now: not now: ...").
"""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
from playwright.sync_api import expect

from tests.browser.a11y import (
    SCROLLABLE,
    WATCH_LIVE,
    accessible_texts,
    live_records,
    said_twice,
)
from tests.browser.conftest import create_game
from tests.browser.scenarios import Driver, first_roll_lands_on_a_deed, human_choice
from tests.browser.test_access import monopolis_played, tab_to

PLAY_SECONDS = 10.0
MAX_WAIT = 3.0  # announce.js: a batch of log lines waits at most this long
# Lines of the live region that are not lines of the log: the decision, a countdown, a count.
NOT_LOG = re.compile(
    r"^(Your decision: .*|.* in \d+ s\.|\d+ earlier lines? in the log\.|Game over: .*)$"
)
# The page's log, oldest first, each line's text without its "#N".
LOG_LINES = """() => [...document.querySelectorAll('#log li')].reverse()
  .filter((li) => li.querySelector('.sid'))
  .map((li) => [...li.childNodes].filter((n) => !(n.classList && n.classList.contains('sid')))
    .map((n) => n.textContent).join('').trim())"""


def answer_decision(page: Any) -> bool:
    """Play the person's decision, if one waits: the first main choice; whether it played."""
    button = page.locator("#main-actions button:enabled").first
    if not button.count():
        return False
    try:
        button.click(timeout=1000)
    except Exception:  # (the panel was drawn again under the click: the next round retries)
        return False
    return True


def test_live_regions_say_only_new_text_during_bot_play(
    page: Any, server: str, tidy: list[dict[str, Any]]
) -> None:
    fast = {"others_turns": "never", "own_turn": "build", "grace": 0}
    seats = [{"type": "human", "name": "Ann", "ask": fast}]
    seats += [{"type": "bot", "bot": "standard", "name": n} for n in ("Bolt", "Cog", "Dex")]
    made = create_game(server, "classic", seats, 7)
    tidy.append(made)
    page.goto(made["seats"][0]["url"])
    expect(page.locator("#prompt")).to_be_visible()
    # The one live region of the game's own, polite.
    announce = page.locator("#announce")
    expect(announce).to_have_attribute("aria-live", "polite")
    expect(page.locator("#controls")).not_to_have_attribute("aria-live", re.compile("."))
    page.evaluate(WATCH_LIVE)
    start = httpx.get(f"{server}/api/games/{made['id']}").json()["state_id"]
    clicks = 0
    end = time.monotonic() + PLAY_SECONDS
    while time.monotonic() < end:
        clicks += answer_decision(page)
        page.wait_for_timeout(100)
    page.wait_for_timeout(1000 * MAX_WAIT + 500)  # the last lines are said
    moves = httpx.get(f"{server}/api/games/{made['id']}").json()["state_id"] - start
    records = live_records(page)
    assert moves > 40, f"the bots played only {moves} moves"

    # Only the page's announcer speaks (the hint's note and a toast when they change).
    regions = {r["region"] for r in records}
    assert regions <= {"announce", "hint-note", "toast", "toast err"}, regions
    said = [r for r in records if r["region"] == "announce"]
    # Few: a batch of lines every MAX_WAIT seconds at most, and each decision the person met.
    decisions = sum(any(NOT_LOG.match(t) and not t[0].isdigit() for t in r["added"]) for r in said)
    assert len(said) <= PLAY_SECONDS / MAX_WAIT + decisions + 2, (len(said), moves, decisions)
    assert clicks == 0 or decisions > 0  # the person's decisions were said
    # Only new text: each change puts new lines in place of the last ones, and the log's lines
    # said are lines of the page's log, in its order, each once.
    for r in said:
        assert r["type"] == "childList" and r["added"], r
    log = page.evaluate(LOG_LINES)
    at = 0
    lines = [t for r in said for t in r["added"] if not NOT_LOG.match(t)]
    assert len(lines) >= 10, lines
    for line in lines:
        assert line in log[at:], f"said out of order, twice or not in the log: {line!r}"
        at = log.index(line, at) + 1
    # What is there is the last batch alone (a screen reader that reads the region again hears
    # the latest, not the whole game).
    last, there = page.evaluate(
        """() => [window.__live.filter((r) => r.region === "announce").pop().added,
                  [...document.getElementById("announce").children].map((p) => p.textContent)]"""
    )
    assert there == last
    # ... and it is in the accessibility tree (drawn nowhere, but not hidden from it).
    assert last[-1] in [name for _, name, _ in accessible_texts(page)]


def test_logs_and_every_scrolling_region_are_reached_by_the_keyboard(
    phone: Any, server: str, tidy: list[dict[str, Any]]
) -> None:
    made = monopolis_played(server, 40, tidy)
    phone.goto(made["seats"][0]["url"])
    expect(phone.locator("#log li .sid").first).to_be_visible()
    phone.wait_for_function("() => document.getElementById('log').scrollHeight > 400")
    scrolling = phone.evaluate(SCROLLABLE)
    assert "log" in [s["id"] for s in scrolling]
    for s in scrolling:  # each is a Tab stop with a name
        assert s["tabindex"] >= 0 and s["name"], s
    log = phone.locator("#log")
    expect(log).to_have_accessible_name("What happened")
    tab_to(phone, log, limit=200)
    assert log.evaluate("e => e.scrollTop") == 0
    phone.keyboard.press("End")  # the keyboard scrolls it
    phone.wait_for_function("() => document.getElementById('log').scrollTop > 100")
    expect(phone.locator("#chat")).to_have_attribute("tabindex", "0")
    expect(phone.locator("#chat")).to_have_accessible_name("Chat")


def test_no_word_is_said_twice_and_chat_is_said(
    page: Any, server: str, tidy: list[dict[str, Any]]
) -> None:
    """A control that is off says why when pressed; out of the person's turn the table's reason
    starts "not now:" itself, and the toast said "Not now: not now: Bea decides; ...". No name
    or text in the accessibility tree says a word twice in a row, nor a description its name.
    Another person's new chat message is said; the chat's history, loaded, is not."""
    seed = first_roll_lands_on_a_deed("classic", 2)
    seats = [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bea"}]
    made = create_game(server, "classic", seats, seed)
    tidy.append(made)
    driver = Driver(server, made["id"], made["seats"][0]["token"])
    # Ann rolls, buys the deed and plays on until Bea decides (Bea never acts).
    while legal := [a["action"] for a in driver.view()["legal_actions"]]:
        body = {"token": driver.token, "state_id": driver.view()["state_id"]}
        body["action"] = human_choice(legal)
        assert httpx.post(f"{server}/api/games/{made['id']}/actions", json=body).status_code == 200
    chat = f"{server}/api/games/{made['id']}/chat"
    bea = made["seats"][1]["token"]
    assert httpx.post(chat, json={"token": bea, "text": "before you came"}).status_code == 201
    page.goto(made["seats"][0]["url"])
    expect(page.locator("#prompt")).to_be_visible()
    expect(page.locator("#chat")).to_contain_text("Bea: before you came")
    page.evaluate(WATCH_LIVE)
    assert httpx.post(chat, json={"token": bea, "text": "good luck"}).status_code == 201
    expect(page.locator("#announce")).to_have_text("Bea: good luck")
    assert all("before you came" not in t for r in live_records(page) for t in r["added"])
    off = page.locator(".prop button[aria-disabled='true']", has_text="Mortgage")
    off.dispatch_event("click")  # (aria-disabled: Playwright will not click it)
    toast = page.locator(".toast")
    expect(toast).to_have_text(
        "Not now: Bea decides; you may act when the table gives you a chance."
    )
    texts = accessible_texts(page)
    assert any("Not now: Bea decides" in name for _, name, _ in texts)  # the toast is read
    assert said_twice(texts) == [], said_twice(texts)
