"""How long ``meeple serve`` takes to answer with many stored games (issue 17: "Start-up time
with 10,000 stored games stays under 2 s").

Run: ``.venv/bin/python benchmarks/bench_startup.py [--games 10000] [--json -]``

It fills a temporary SQLite file with ``--games`` unfinished 4-player classic games (one person
and three bots each, 40 stored actions each, written through ``Storage`` in one transaction per
thousand games), then starts ``meeple serve`` on it and measures the seconds from starting the
process until ``GET /api/games`` answers, and then until the first stored game answers
``GET /api/games/{id}`` (it is loaded on that first request). It does the same on an empty
database for comparison. The server loads no game at start-up, so the figure should not grow
with the stored games. No timing here is asserted by a test.
"""

from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from meeple.bots.base import make_bot
from meeple.kernel.family import new_game
from meeple.kernel.rng import derive_seed
from meeple.server.storage import ActionWrite, Storage, StoredSeat


def moves(seed: int, count: int) -> list[str]:
    """The first ``count`` actions of a game of random bots (valid actions to store)."""
    s = new_game("classic", 4, seed)
    bots = [make_bot("random", "monopoly", derive_seed(seed, 1 + p)) for p in range(4)]
    out: list[str] = []
    while len(out) < count and not s.is_terminal():
        a = bots[s.current_player()].choose(s)
        s.apply(a)
        out.append(str(a))
    return out


def fill(db: Path, games: int, actions: int) -> str:
    """Store ``games`` games (the same opening, different ids); returns one id."""
    storage = Storage(f"sqlite:///{db}")
    storage.create_tables()
    opening = moves(1, actions)
    seats = [StoredSeat(0, "human", "Ann", "", "0" * 64)] + [
        StoredSeat(p, "bot", f"Random bot {p + 1}", "random", "") for p in range(1, 4)
    ]
    first = ""
    batch: list[ActionWrite] = []
    for k in range(games):
        gid = storage.create_game("classic", 4, 1, {}, seats)
        first = first or gid
        batch += [ActionWrite(gid, i, t) for i, t in enumerate(opening)]
        if len(batch) >= 1000 * actions or k == games - 1:
            storage.append_actions(batch)
            batch = []
    storage.close()
    return first


def start(db: Path) -> tuple[float, subprocess.Popen[bytes], str]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    cmd = [sys.executable, "-m", "meeple.cli.main", "serve", "--port", str(port)]
    cmd += ["--database-url", f"sqlite:///{db}"]
    began = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    while True:
        try:
            if httpx.get(f"{base}/api/games", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        if proc.poll() is not None or time.monotonic() - began > 120:
            raise SystemExit("meeple serve did not start")
        time.sleep(0.01)
    return time.monotonic() - began, proc, base


def measure(db: Path, gid: str | None) -> dict[str, Any]:
    answered, proc, base = start(db)
    try:
        first = None
        if gid is not None:
            t = time.monotonic()
            r = httpx.get(f"{base}/api/games/{gid}", timeout=30)
            assert r.status_code == 200, r.text
            first = time.monotonic() - t
    finally:
        proc.terminate()
        proc.wait(10)
    return {"answers_after_s": round(answered, 3), "first_game_s": first}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=10_000, help="stored unfinished games")
    ap.add_argument("--actions", type=int, default=40, help="stored actions per game")
    ap.add_argument("--json", default=None, help="write the figures as JSON to PATH (- stdout)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        empty, full = Path(tmp) / "empty.sqlite", Path(tmp) / "full.sqlite"
        Storage(f"sqlite:///{empty}").create_tables()
        t = time.monotonic()
        gid = fill(full, args.games, args.actions)
        filled = time.monotonic() - t
        out = {
            "games": args.games,
            "actions_per_game": args.actions,
            "fill_s": round(filled, 1),
            "empty": measure(empty, None),
            "full": measure(full, gid),
        }
    if args.json == "-":
        print(json.dumps(out, indent=2))
        return
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2), encoding="utf-8")
    full_s, empty_s = out["full"], out["empty"]
    print(
        f"{args.games} stored games: answers after {full_s['answers_after_s']} s "
        f"(empty database: {empty_s['answers_after_s']} s); the first game loads in "
        f"{full_s['first_game_s']:.3f} s on its first request"
    )


if __name__ == "__main__":
    main()
