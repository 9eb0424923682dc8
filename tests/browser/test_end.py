"""The end of a game in Chromium (docs/SERVER.md, "The end of a game"): the final screen
(ranking with each net worth in parts, the chart, the key moments, the seed), the replay viewer
on the board (forward, back, keys, slider, a key moment, back to the end), and the rematch for
the one who starts it and for another person at the table."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import httpx
from playwright.sync_api import expect

from meeple.bots.base import make_bot
from meeple.kernel.asking import AskSettings, auto_move
from meeple.kernel.family import new_game
from meeple.kernel.rng import derive_seed
from meeple.kernel.saves import SaveFileError, load_data
from tests.browser.conftest import create_game, screenshot
from tests.browser.scenarios import FIRST

GAME = "my-first-monopoly-2"  # a short game that ends in a bankruptcy
FAST = {"others_turns": "never", "own_turn": "build", "grace": 0}
END = 60_000  # ms: the game plays to its end at the test server's bot pace


def table(people: list[str], players: int = 4) -> list[dict[str, Any]]:
    seats: list[dict[str, Any]] = [{"type": "human", "name": n, "ask": FAST} for n in people]
    return seats + [{"type": "bot", "bot": "standard"}] * (players - len(people))


def plays_itself(seats: list[dict[str, Any]], seed: int) -> int | None:
    """The number of actions of the server's game with these seats and seed if the table plays
    every move of the people (they are never asked), else ``None``; found with the engine."""
    ask = AskSettings.from_dict(FAST)
    bots = [
        make_bot(s["bot"], "monopoly", derive_seed(seed, 1 + i)) if s["type"] == "bot" else None
        for i, s in enumerate(seats)
    ]
    s = new_game(GAME, len(seats), seed, FIRST)
    s.record_events = False
    while not s.is_terminal():
        cp = s.current_player()
        bot = bots[cp]
        if bot is not None:
            s.apply(bot.choose(s))
            continue
        move = auto_move(s, cp, ask, False)
        if move is None:
            return None
        s.apply(move.action)
    return len(s.history)


def a_seed(seats: list[dict[str, Any]], seeds: range = range(1, 200)) -> int:
    """A seed whose game plays itself and lasts a while (the chart has something to show)."""
    for seed in seeds:
        n = plays_itself(seats, seed)
        if n is not None and n >= 40:
            return seed
    raise AssertionError("no seed plays itself")


def wait_for_end(page: Any) -> None:
    expect(page.locator("#end-title")).to_contain_text("Game over", timeout=END)
    expect(page.locator("#moments")).to_be_visible()


def set_slider(page: Any, n: int) -> None:
    page.eval_on_selector(
        "#replay-slider",
        "(el, n) => { el.value = String(n); el.dispatchEvent(new Event('input')); }",
        n,
    )


def cash_shown(page: Any) -> list[int]:
    return [int(x) for x in page.locator("#players [data-cash]").evaluate_all(
        "els => els.map((e) => e.dataset.cash)"
    )]  # fmt: skip


def test_end_screen_replay_and_rematch(page: Any, server: str) -> None:
    seats = table(["Ann"])
    seed = a_seed(seats)
    made = create_game(server, GAME, seats, seed)
    gid = made["id"]
    page.goto(made["seats"][0]["url"])
    wait_for_end(page)
    story = httpx.get(f"{server}/api/games/{gid}/history").json()
    total = story["state_id"]

    # The ranking: every seat, with its net worth in parts.
    rows = page.locator("#ranking .rank-row")
    expect(rows).to_have_count(4)
    for w in story["worth"]:
        parts = page.locator(f'.worth-parts[data-seat="{w["seat"]}"]')
        expect(parts).to_contain_text(f"Cash ${w['cash']}")
        expect(parts).to_contain_text(f"Deeds ${w['deeds']}")
    expect(page.locator("#ranking")).to_contain_text("bankrupt")
    # The chart: a line per seat, each ending in its seat's letter, and a legend with names.
    expect(page.locator("#worth-chart .chart-line")).to_have_count(4)
    expect(page.locator("#worth-chart .chart-end")).to_have_count(4)
    expect(page.locator("#chart-legend li")).to_have_count(4)
    expect(page.locator("#chart-legend")).to_contain_text("Ann")
    expect(page.locator("#worth-chart")).to_contain_text("Turn")
    # The chance of winning over the game, and where it was decided (the advisor's playouts).
    expect(page.locator("#chance-chart .chart-line")).to_have_count(4, timeout=30_000)
    expect(page.locator("#decided")).to_contain_text("Where the game was decided:")
    # The key moments, the seed and the save file.
    moments = page.locator("#moments .moment")
    expect(moments).to_have_count(len(story["moments"]))
    expect(page.locator('#moments .moment[data-kind="bankrupt"]')).to_have_count(1)
    expect(page.locator("#seed")).to_have_text(str(seed))
    expect(page.locator("#save-link")).to_have_attribute("href", f"/api/games/{gid}/save")
    screenshot(page, "end-desktop")

    # The replay: from the start, a move at a time, by keys and the slider, on the board.
    page.locator("#replay-open").click()
    pos = page.locator("#replay-pos")
    expect(pos).to_contain_text(f"Move 0 of {total}")
    expect(page.locator("#replay-back")).to_be_disabled()
    page.locator("#replay-forward").click()
    expect(pos).to_contain_text(f"Move 1 of {total}")
    expect(page.locator("#replay-events")).to_contain_text("Ann rolls")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(pos).to_contain_text(f"Move 3 of {total}")
    page.keyboard.press("ArrowLeft")
    expect(pos).to_contain_text(f"Move 2 of {total} · Turn")
    at2 = httpx.get(f"{server}/api/games/{gid}/replay/2").json()
    assert cash_shown(page) == [p["cash"] for p in at2["view"]["players"]]
    set_slider(page, total // 2)
    expect(pos).to_contain_text(f"Move {total // 2} of {total} · Turn")
    half = httpx.get(f"{server}/api/games/{gid}/replay/{total // 2}").json()
    expect(page.locator("#players [data-cash]").first).to_have_attribute(
        "data-cash", str(half["view"]["players"][0]["cash"])
    )
    # A key moment opens the replay at its move.
    bankrupt = next(m for m in story["moments"] if m["kind"] == "bankrupt")
    page.locator('#moments .moment[data-kind="bankrupt"]').click()
    expect(pos).to_contain_text(f"Move {bankrupt['state_id']} of {total}")
    expect(page.locator("#replay-events")).to_contain_text("is bankrupt to")
    expect(page.locator('#moments .moment.now[data-kind="bankrupt"]')).to_have_count(1)
    page.locator("#replay-back").click()
    expect(pos).to_contain_text(f"Move {bankrupt['state_id'] - 1} of {total}")
    screenshot(page, "replay-desktop")
    # Leaving the replay shows the final position again.
    page.locator("#replay-close").click()
    expect(page.locator("#replay")).to_be_hidden()
    final = httpx.get(f"{server}/api/games/{gid}").json()
    assert cash_shown(page) == [p["cash"] for p in final["view"]["players"]]

    # The rematch: a new game with the same seats, and the page goes there.
    page.locator("#rematch").click()
    page.wait_for_url(re.compile(r"/play/(?!" + gid + r")[0-9a-f]+"))
    new = page.url.split("/play/")[1].split("#")[0].split("?")[0]
    expect(page.locator("#who")).to_contain_text("You are Ann")
    again = httpx.get(f"{server}/api/games/{new}").json()
    assert again["seats"][0]["name"] == "Ann"
    assert [s["type"] for s in again["seats"]] == [s["type"] for s in final["seats"]]
    assert httpx.get(f"{server}/api/games/{gid}").json()["rematch"] == new


def test_monopolis_score_sheet(page: Any, server: str) -> None:
    seats = [{"type": "human", "name": "Ann"}, {"type": "bot", "bot": "random"}]
    made = create_game(server, "monopolis", seats, 5)
    gid, token = made["id"], made["seats"][0]["token"]
    with httpx.Client(base_url=server, timeout=10) as http:
        end = time.monotonic() + END / 1000
        while time.monotonic() < end:  # Ann plays her first legal action, through the API
            v = http.get(f"/api/games/{gid}/view", params={"token": token}).json()
            if v["status"] == "finished":
                break
            if not v["legal_actions"]:
                time.sleep(0.02)
                continue
            body = {
                "token": token,
                "state_id": v["state_id"],
                "action": v["legal_actions"][0]["action"],
            }
            http.post(f"/api/games/{gid}/actions", json=body)
        story = http.get(f"/api/games/{gid}/history").json()
    assert story["status"] == "finished"
    page.goto(f"/play/{gid}")  # a spectator: no rematch button, the rest alike
    wait_for_end(page)
    sheet = page.locator("#score-sheet")
    expect(sheet).to_contain_text("Collections")
    order = story["result"]["ranking"]
    totals = page.locator("#score-sheet tr.total td").all_inner_texts()
    assert totals == [str(story["sheets"][s]["total"]) for s in order]
    expect(page.locator("#worth-chart .chart-line")).to_have_count(2)
    expect(page.locator("#rematch")).to_have_count(0)
    screenshot(page, "end-monopolis")


def test_phone_end_screen_and_joining_the_rematch(page: Any, phone: Any, server: str) -> None:
    seats = table(["Ann", "Bea"])
    made = create_game(server, GAME, seats, a_seed(seats))
    gid = made["id"]
    page.goto(made["seats"][0]["url"])
    phone.goto(made["seats"][1]["url"])
    wait_for_end(phone)
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the end screen scrolls sideways: {width}px"
    # On a phone the end screen comes first.
    title = phone.locator("#end-title").bounding_box()
    board = phone.locator("#board").bounding_box()
    assert title is not None and board is not None and title["y"] < board["y"]
    screenshot(phone, "end-phone")
    # The replay panel stays at the bottom of the screen, over the board.
    phone.locator("#moments .moment").first.click()
    expect(phone.locator("#replay-pos")).to_contain_text("Move")
    panel = phone.locator("#replay").bounding_box()
    assert panel is not None and panel["y"] + panel["height"] <= 844 + 1
    forward = phone.locator("#replay-forward").bounding_box()
    assert forward is not None and forward["height"] >= 40  # a tap target
    screenshot(phone, "replay-phone")
    phone.locator("#replay-close").click()

    # Ann starts the rematch; Bea is told and joins it in her seat.
    wait_for_end(page)
    page.locator("#rematch").click()
    page.wait_for_url(re.compile(r"/play/(?!" + gid + r")[0-9a-f]+"))
    join = phone.locator("#join-rematch")
    expect(join).to_have_text("Join the rematch")
    join.click()
    phone.wait_for_url(re.compile(r"/play/(?!" + gid + r")[0-9a-f]+"))
    expect(phone.locator("#who")).to_contain_text("You are Bea")
    assert page.url.split("#")[0] == phone.url.split("#")[0]


BIG = 2**62 + 2**53 + 1  # seeds from here up are above 2^53: a JavaScript number rounds them


def test_a_seed_above_2_53_is_shown_exactly_and_replays_the_game(page: Any, server: str) -> None:
    """The end screen shows the stored seed digit for digit (issue 38: 5540251580662524031 was
    shown as 5540251580662524000, a JavaScript number's rounding), and "Replay and verify"
    verifies it: the downloaded save file holds that seed, and the game replayed from the
    seed as shown reaches the file's final state (``load_data`` checks the snapshot)."""
    seats = table(["Ann"])
    seed = a_seed(seats, range(BIG, BIG + 200))
    assert float(seed) != seed  # (not exact as a double: the old page showed another seed)
    made = create_game(server, GAME, seats, seed)
    page.goto(made["seats"][0]["url"])
    wait_for_end(page)
    shown = page.locator("#seed").inner_text()
    assert shown == str(seed)
    with page.expect_download() as download:
        page.locator("#save-link").click()
    data = json.loads(download.value.path().read_text(encoding="utf-8"))
    assert data["seed"] == seed
    # Replayed from the seed as shown, every action is legal and the end is the file's own
    # (load_data compares the final state with the file's snapshot).
    assert load_data({**data, "seed": int(shown)}).result() is not None
    try:  # a seed rounded as the old page showed it replays another game
        load_data({**data, "seed": int(float(seed))})
    except SaveFileError:
        pass
    else:
        raise AssertionError("the rounded seed replayed the same game")
