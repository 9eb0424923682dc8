"""What a screen reader is told during bot play, and axe-core's WCAG violations per page (issue
38, "Screen readers").

Run: ``.venv/bin/python benchmarks/bench_access.py [--seconds 30] [--bot-pace 0.5] [--seed 11]
[--no-axe] [--json PATH]``

Live regions: it starts ``meeple serve`` on a temporary SQLite file with bots at ``--bot-pace``
(0.5 s, the server's default), creates a 4-player classic game of one person and three
``standard`` bots with the lobby's asking defaults, opens the person's page in Debian's Chromium
(Playwright, ``/usr/bin/chromium``) at 1280 x 900, and for ``--seconds`` records every mutation
record inside a live region (``tests/browser/a11y.py``: a MutationObserver on every
``aria-live`` region and every role that makes one) while the person plays the first button of
each decision as ``bench_clicks.py`` does. It reports the records, the texts they added and how
many of those repeated a text the same region had already said.

axe-core: on a second server (bots at 0.02 s, so a game ends quickly) it runs axe-core at
WCAG 2.0, 2.1 and 2.2 A and AA (every impact) on the lobby, the join page, a Monopoly and a
Monopolis game page, the end screen and the replay, each at 1280 x 900 and 390 x 844, and
reports the violated rules and elements per page, and the texts under WCAG AA's contrast that
axe-core leaves out (an SVG text's: the board's, the charts'), measured against what is painted
under each.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
from bench_clicks import CHROMIUM, choose, start_server

from meeple.kernel.asking import WEB_DEFAULT

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.browser's helpers

from tests.browser.a11y import WATCH_LIVE, faults, live_records
from tests.browser.test_end import GAME, a_seed, table

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def create(base: str, body: dict[str, Any]) -> dict[str, Any]:
    r = httpx.post(f"{base}/api/games", json=body, timeout=10)
    r.raise_for_status()
    data: dict[str, Any] = r.json()
    return data


def live_regions(browser: Any, base: str, seconds: float, seed: int) -> dict[str, Any]:
    person = {"type": "human", "name": "Ann", "ask": WEB_DEFAULT.to_dict()}
    seats = [person] + [{"type": "bot", "bot": "standard"}] * 3
    made = create(base, {"game": "classic", "seats": seats, "seed": seed})
    ctx = browser.new_context(viewport=SIZES["desktop"], base_url=base)
    page = ctx.new_page()
    page.goto(made["seats"][0]["url"])
    page.wait_for_selector("#prompt")
    page.evaluate(WATCH_LIVE)
    clicks = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        button = choose(page, 10**9, 0)
        if button is not None:
            try:
                button.click(timeout=1000)
                clicks += 1
            except Exception:
                pass  # the page redrew under the click
        page.wait_for_timeout(100)
    records = live_records(page)
    moves = httpx.get(f"{base}/api/games/{made['id']}").json()["state_id"]
    ctx.close()
    said: dict[str, set[str]] = {}
    repeats = 0
    for r in records:
        region = said.setdefault(r["region"], set())
        for text in r["added"]:
            repeats += text in region
            region.add(text)
    return {
        "seconds": seconds,
        "moves": moves,
        "clicks": clicks,
        "records": len(records),
        "records_by_region": dict(Counter(r["region"] for r in records)),
        "texts_added": sum(len(r["added"]) for r in records),
        "texts_repeated": repeats,
        "said": [r["added"] for r in records if r["added"]],
    }


def axe_pages(browser: Any, base: str) -> dict[str, list[str]]:
    """Each page at each size: axe-core's violations and the texts under AA's contrast."""
    out: dict[str, list[str]] = {}
    first = {"rules": {"start_player": "first_seat"}}
    human = [{"type": "human", "name": "Ann"}]
    bots = [{"type": "bot", "bot": "random", "name": n} for n in ("Bolt", "Cog", "Dex")]
    invite = create(
        base, {"game": "classic", "seats": [*human, {"type": "open"}, bots[0]], "seed": 1}
    )
    mono = create(base, {"game": "classic", "seats": human + bots, "seed": 2, **first})
    polis = create(base, {"game": "monopolis", "seats": human + bots[:2], "seed": 11, **first})
    seats = table(["Ann"])
    ended = create(base, {"game": GAME, "seats": seats, "seed": a_seed(seats), **first})
    for size, viewport in SIZES.items():
        phone = size == "phone"
        ctx = browser.new_context(
            viewport=viewport, base_url=base, is_mobile=phone, has_touch=phone
        )
        ctx.set_default_timeout(60_000)
        page = ctx.new_page()
        page.goto("/")
        page.wait_for_selector("#game option", state="attached")
        out[f"lobby {size}"] = faults(page)
        page.goto(invite["invite_url"])
        page.wait_for_selector("#join-form")
        out[f"join {size}"] = faults(page)
        page.goto(mono["seats"][0]["url"])
        page.wait_for_selector("#main-actions button:not([disabled])")
        out[f"monopoly {size}"] = faults(page)
        page.goto(polis["seats"][0]["url"])
        page.wait_for_selector("#market .mp-card")
        out[f"monopolis {size}"] = faults(page)
        page.goto(ended["seats"][0]["url"])
        page.wait_for_selector("#moments")
        page.wait_for_selector("#chance-chart")
        out[f"end {size}"] = faults(page)
        page.click("#replay-open")
        for _ in range(3):
            page.click("#replay-forward")
        page.wait_for_selector("#replay-events .replay-move")
        out[f"replay {size}"] = faults(page)
        ctx.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=30, help="how long the bots play")
    ap.add_argument("--bot-pace", type=float, default=0.5, help="the server's pause per bot move")
    ap.add_argument("--seed", type=int, default=11, help="the live-region game's seed")
    ap.add_argument("--no-axe", action="store_true", help="only the live regions")
    ap.add_argument("--json", default=None, help="write the figures as JSON to PATH (- stdout)")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        runs = [("live", args.bot_pace)] + ([] if args.no_axe else [("axe", 0.02)])
        for part, pace in runs:
            port = free_port()
            server = start_server(
                Path(tmp) / f"{part}.sqlite", port, Path(tmp) / f"{part}.log", pace
            )
            base = f"http://127.0.0.1:{port}"
            try:
                if part == "live":
                    out["live"] = live_regions(browser, base, args.seconds, args.seed)
                else:
                    out["axe"] = axe_pages(browser, base)
            finally:
                server.terminate()
                server.wait(10)
        browser.close()
    if args.json == "-":
        print(json.dumps(out, indent=2))
        return
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2), encoding="utf-8")
    live = out["live"]
    print(
        f"live regions in {live['seconds']:g} s of play ({live['moves']} moves, {live['clicks']} "
        f"clicks): {live['records']} updates {live['records_by_region']}, "
        f"{live['texts_added']} texts added, {live['texts_repeated']} of them said before"
    )
    for page, found in out.get("axe", {}).items():
        rules = [f for f in found if not f.startswith("contrast: ")]
        print(f"{page}: {len(rules)} axe rules violated, {len(found) - len(rules)} texts under AA")
        for line in found:
            print(f"    {line}")


if __name__ == "__main__":
    main()
