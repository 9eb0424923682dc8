"""Nothing lost: ``meeple serve`` killed with SIGKILL mid-game resumes the same game on restart.

A bot-only game runs at full speed; the server is killed while it plays, restarted on the same
SQLite file, and must finish the game. The stored actions must be numbered 0..n-1 with no gap
or repeat, every state a client was told of must be stored, and, because bots' random streams
are restored on resume, the whole game must equal the one an uninterrupted run plays.
"""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import httpx

from meeple.bots.base import make_bot
from meeple.kernel.family import new_game
from meeple.kernel.rng import derive_seed
from tests.server.process import free_port, start_server

GAME, PLAYERS, SEED, BOT = "classic", 4, 21, "random"


def expected_actions() -> list[str]:
    s = new_game(GAME, PLAYERS, SEED)
    bots = [make_bot(BOT, "monopoly", derive_seed(SEED, 1 + i)) for i in range(PLAYERS)]
    while not s.is_terminal():
        s.apply(bots[s.current_player()].choose(s))
    return [str(a) for a in s.history]


def start(db: Path, port: int, log: Path) -> subprocess.Popen[bytes]:
    return start_server(db, port, log, bot_pace=0)


def stored(db: Path, gid: str) -> list[tuple[int, str]]:
    with sqlite3.connect(db) as c:
        rows = c.execute(
            'select "index", text from actions where game = ? order by "index"', (gid,)
        ).fetchall()
    return [(int(i), str(t)) for i, t in rows]


def test_sigkill_mid_game_loses_and_repeats_nothing(tmp_path: Path) -> None:
    db, log = tmp_path / "games.sqlite", tmp_path / "server.log"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start(db, port, log)
    try:
        body = {"game": GAME, "seed": SEED, "seats": [{"type": "bot", "bot": BOT}] * PLAYERS}
        r = httpx.post(f"{base}/api/games", json=body, timeout=5)
        assert r.status_code == 201, r.text
        gid = r.json()["id"]
        seen = 0
        while seen < 100:  # let the bots play a while, then kill the server mid-game
            seen = httpx.get(f"{base}/api/games/{gid}", timeout=5).json()["state_id"]
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    at_kill = stored(db, gid)
    assert len(at_kill) >= seen  # every state a client was told of was committed first
    want = expected_actions()
    assert len(at_kill) < len(want), "the game ended before the kill: pick a longer game"

    proc = start(db, port, log)
    try:
        end = time.monotonic() + 60
        while httpx.get(f"{base}/api/games/{gid}", timeout=5).json()["status"] != "finished":
            assert time.monotonic() < end, "the resumed game did not finish"
            time.sleep(0.05)
        final = httpx.get(f"{base}/api/games/{gid}", timeout=5).json()
    finally:
        proc.terminate()
        proc.wait(10)
    after = stored(db, gid)
    assert [i for i, _ in after] == list(range(len(after)))  # no gap, no repeat
    assert after[: len(at_kill)] == at_kill  # nothing rewritten
    assert final["state_id"] == len(after)
    assert [t for _, t in after] == want  # the same game an uninterrupted server plays
    text = log.read_text()
    assert f"resumed game {gid} at action {len(at_kill)}" in text
    assert f"storing games in sqlite:///{db}" in text and f"open http://127.0.0.1:{port}/" in text
