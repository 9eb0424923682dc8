"""How a person's time goes in a web game: how many of their clicks are real decisions, and how
much of the session they spend watching countdowns (issues 16 and 38: "Only real decisions ask
for a click", "No waiting for nothing").

Run: ``.venv/bin/python benchmarks/bench_clicks.py [--game classic] [--seed 11] [--clicks 0]
[--ask lobby|always] [--grace lobby|0|1|2|3|5|10] [--bot-pace 0.5] [--json -]``

It starts ``meeple serve`` on a temporary SQLite file (bots at ``--bot-pace``: by default the
server's own, so the wall time is a session's), opens the lobby in Debian's Chromium
(Playwright, ``/usr/bin/chromium``), creates a game of ``--game`` (Monopoly family) with one
person and ``standard`` bots in the lobby's other seats, exactly as the lobby's defaults make
it, opens the person's link, leaves "Wait before moving on" as the lobby made it (or sets it to
``--grace``; with ``--ask always`` asks every decision, as the page did before the asking rule),
and plays the person by clicking the page's buttons with a fixed policy (buy what it can afford
with $200 to spare, otherwise decline; drop out of auctions; pay to leave jail; reject offers;
raise money by mortgaging; go bankrupt only when that is the one choice) until the person is
out, the game ends, or ``--clicks`` action clicks (0: no limit). It never presses "Wait, I
want to act": it sits out every countdown, as a person with nothing to do would.

Each click that played an action is recorded with the position it was made at (the
``state_id`` the page sent on the game's socket, or by POST when the socket was not open).
Afterwards the game is rebuilt from the server's stored actions and each click is classified
by :func:`meeple.kernel.asking.is_real_choice`: a decision with more than one meaningful
choice, or not (a forced answer, or moving on with nothing else worth doing).

The page itself measures the countdowns (a script added before the page's own): every 50 ms
it looks whether the countdown panel (``#auto-move``, "Rolling the dice for you in 2 s") is
on screen, and adds up the time it was, by the panel's words. The wall time runs from opening
the person's page to the end of play. docs/SERVER.md keeps the measured values.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

from meeple.kernel.asking import is_real_choice
from meeple.kernel.family import new_game
from meeple.kernel.protocol import Action

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]

# The person's policy: the first enabled button whose action is of the first kind listed.
PREFERENCE = (
    "buy",
    "roll",
    "pay_fine",
    "use_card",
    "end_turn",
    "pass",
    "reject",
    "no_building",
    "keep_mortgage",
    "cancel",
    "mortgage",
    "sell_building",
    "sell_group",
    "decline",
    "bankrupt",
)


def start_server(db: Path, port: int, log: Path, pace: float) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "meeple.cli.main", "serve", "--port", str(port)]
    cmd += ["--database-url", f"sqlite:///{db}", "--bot-pace", str(pace)]
    with log.open("ab") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
    end = time.monotonic() + 30
    while time.monotonic() < end:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/catalog", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        if proc.poll() is not None:
            raise SystemExit("meeple serve stopped: " + log.read_text())
        time.sleep(0.05)
    proc.kill()
    raise SystemExit("meeple serve did not start: " + log.read_text())


# Added to the game page before its own scripts: the time the countdown panel is on screen.
COUNTDOWN_WATCH = """
window.__countdown = { seconds: 0, shown: 0, by: {} };
(() => {
  let last = performance.now();
  let was = "";
  setInterval(() => {
    const now = performance.now();
    const panel = document.getElementById("auto-move");
    const words = panel ? (panel.firstElementChild || panel).textContent : "";
    const what = words.replace(/ in \\d+ s$/, "");
    const c = window.__countdown;
    if (what && was) {
      c.seconds += (now - last) / 1000;
      c.by[was] = (c.by[was] || 0) + (now - last) / 1000;
    }
    if (what && what !== was) c.shown += 1;
    was = what;
    last = now;
  }, 50);
})();
"""


def choose(page: Any, cash: int, price: int) -> Any | None:
    """The button the scripted person clicks now, or ``None`` (nothing to click yet)."""
    if page.query_selector("#auto-move"):
        return None  # the table moves on by itself
    buttons = page.query_selector_all("#controls button[data-action]:not([disabled])")
    by_kind: dict[str, Any] = {}
    for b in buttons:
        action = b.get_attribute("data-action") or ""
        if action:
            by_kind.setdefault(action.split(" ")[0], b)
    if not by_kind:
        return None
    if "buy" in by_kind and cash - price < 200:
        del by_kind["buy"]
    for kind in PREFERENCE:
        if kind in by_kind:
            return by_kind[kind]
    return next(iter(by_kind.values()))


def play(
    base: str, game: str, grace: str, clicks_limit: int, seed: int, ask: str
) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    posted: list[tuple[int, str]] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        ctx = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=base)
        ctx.set_default_timeout(20_000)
        page = ctx.new_page()

        def on_response(r: Any) -> None:
            if r.request.method == "POST" and r.url.endswith("/actions") and r.status == 200:
                body = json.loads(r.request.post_data or "{}")
                posted.append((int(body["state_id"]), str(body["action"])))

        # The page sends its actions on the game's socket (docs/SERVER.md, "Acting on the
        # socket"): an action counts when its "acted" answer comes back.
        sent: dict[int, tuple[int, str]] = {}

        def on_sent(payload: str | bytes) -> None:
            msg = json.loads(payload)
            if isinstance(msg, dict) and msg.get("type") == "act":
                sent[int(msg["ref"])] = (int(msg["state_id"]), str(msg["action"]))

        def on_received(payload: str | bytes) -> None:
            msg = json.loads(payload)
            if isinstance(msg, dict) and msg.get("type") == "acted" and msg["ref"] in sent:
                posted.append(sent.pop(msg["ref"]))

        def on_socket(ws: Any) -> None:
            ws.on("framesent", on_sent)
            ws.on("framereceived", on_received)

        page.on("response", on_response)  # by POST, when the socket is not open
        page.on("websocket", on_socket)
        page.add_init_script(COUNTDOWN_WATCH)
        page.goto("/")
        page.wait_for_selector("#create:not([disabled])")
        page.select_option("#game", game)
        page.fill("#seed", str(seed))
        page.click("#create")
        page.wait_for_selector("[data-testid=seat-link-0] input")
        url = page.input_value("[data-testid=seat-link-0] input")
        gid = url.split("/play/")[1].split("#")[0].split("?")[0]
        started = time.monotonic()
        page.goto(url)
        page.wait_for_selector("#players .player")
        if grace != "lobby" or ask == "always":
            page.click("#ask-settings summary")
        if grace != "lobby":
            with page.expect_response(lambda r: r.url.endswith("/ask") and r.status == 200):
                page.select_option("#ask-grace", grace)
        if ask == "always":  # every decision asked, as before the asking rule
            for select in ("#ask-others", "#ask-own"):
                with page.expect_response(lambda r: r.url.endswith("/ask") and r.status == 200):
                    page.select_option(select, "always")
        prices = [
            sq["price"] or 0 for sq in httpx.get(f"{base}/api/games/{gid}/board").json()["squares"]
        ]
        idle_since = time.monotonic()
        while clicks_limit <= 0 or len(posted) < clicks_limit:
            state = httpx.get(f"{base}/api/games/{gid}").json()
            me = state["view"]["players"][0]
            if state["status"] == "finished" or not me["alive"]:
                break
            frame = state["view"]["frame"] or {}
            price = prices[frame["square"]] if frame.get("frame") == "buy" else 0
            button = choose(page, me["cash"], price)
            if button is None:
                if time.monotonic() - idle_since > 120:
                    raise SystemExit("the page offered nothing to click for 2 minutes")
                time.sleep(0.05)
                continue
            before = len(posted)
            try:
                button.click(timeout=2000)
            except Exception:
                continue  # the page redrew under the click: look again
            end = time.monotonic() + 5
            while len(posted) == before and time.monotonic() < end:
                page.wait_for_timeout(20)
            idle_since = time.monotonic()
        seconds = time.monotonic() - started
        watched = page.evaluate("window.__countdown")
        browser.close()
    return {"game": gid, "clicks": posted, "seconds": seconds, "countdown": watched}


def classify(
    db: Path, game: str, gid: str, seed: int, clicks: list[tuple[int, str]]
) -> dict[str, Any]:
    """Each click's position rebuilt from the stored actions, classified as real or not."""
    con = sqlite3.connect(db)
    (players,) = con.execute("SELECT players FROM games WHERE id = ?", (gid,)).fetchone()
    stored = [
        t
        for (t,) in con.execute('SELECT text FROM actions WHERE game = ? ORDER BY "index"', (gid,))
    ]
    con.close()
    at = dict(clicks)
    s = new_game(game, players, seed)
    real = 0
    kinds: Counter[str] = Counter()
    not_real: Counter[str] = Counter()
    person_actions = 0
    for i, text in enumerate(stored):
        action = Action.parse(text)
        if s.current_player() == 0:
            person_actions += 1
        if i in at:
            assert at[i] == text, f"click {i}: page sent {at[i]!r}, stored {text!r}"
            kinds[action.kind] += 1
            if is_real_choice(s, action):
                real += 1
            else:
                not_real[action.kind] += 1
        s.apply(action)
    n = len(clicks)
    return {
        "clicks": n,
        "real": real,
        "share_real": real / n if n else 0.0,
        "clicks_by_kind": dict(kinds),
        "not_real_by_kind": dict(not_real),
        "person_actions": person_actions,
        "played_for_the_person": person_actions - n,
        "actions": len(stored),
        "turns": s.view(None)["turn_no"],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="classic", help="a Monopoly game id (the lobby's list)")
    ap.add_argument("--seed", type=int, default=11, help="the game's seed")
    ap.add_argument("--clicks", type=int, default=0, help="stop after N action clicks (0: none)")
    ap.add_argument("--grace", default="lobby", choices=["lobby", "0", "1", "2", "3", "5", "10"],
                    help="the page's 'Wait before moving on' (seconds; lobby: as the lobby "
                    "made it)")  # fmt: skip
    ap.add_argument("--ask", choices=["lobby", "always"], default="lobby",
                    help="the person's settings: the lobby's, or always asked")  # fmt: skip
    ap.add_argument("--bot-pace", type=float, default=0.5,
                    help="the server's pace (meeple serve --bot-pace, 0.5 by default)")  # fmt: skip
    ap.add_argument("--json", default=None, help="write the figures as JSON to PATH (- stdout)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "games.sqlite"
        import socket

        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = int(sock.getsockname()[1])
        server = start_server(db, port, Path(tmp) / "serve.log", args.bot_pace)
        try:
            base = f"http://127.0.0.1:{port}"
            played = play(base, args.game, args.grace, args.clicks, args.seed, args.ask)
        finally:
            server.terminate()
            server.wait(10)
        out = classify(db, args.game, played["game"], args.seed, played["clicks"])
    seconds, watched = played["seconds"], played["countdown"]
    out.update(
        game=args.game,
        seed=args.seed,
        ask=args.ask,
        grace=args.grace,
        bot_pace=args.bot_pace,
        seconds=round(seconds, 1),
        countdown_seconds=round(watched["seconds"], 1),
        countdown_share=watched["seconds"] / seconds if seconds else 0.0,
        countdowns=watched["shown"],
        countdown_by_words={k: round(v, 1) for k, v in sorted(watched["by"].items())},
    )
    if args.json == "-":
        print(json.dumps(out, indent=2))
        return
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2), encoding="utf-8")
    print(
        f"{out['clicks']} clicks, {out['real']} real decisions ({100 * out['share_real']:.1f}%); "
        f"{out['played_for_the_person']} moves played for the person; "
        f"{out['actions']} actions, {out['turns']} turns"
    )
    print(
        f"wall time {out['seconds']} s, of which {out['countdown_seconds']} s "
        f"({100 * out['countdown_share']:.1f}%) in {out['countdowns']} countdowns"
    )
    print(f"clicks by kind: {out['clicks_by_kind']}; not real: {out['not_real_by_kind']}")
    print(f"countdown seconds by what it said: {out['countdown_by_words']}")


if __name__ == "__main__":
    main()
