"""External programs as bots (``cmd:PROGRAM``, docs/ARENA.md): programs in Python, Node and
sh play through the line protocol; one that crashes, answers late or answers something
illegal forfeits its seat to the standard bot, with a note, and the game goes on."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from meeple.bots.base import make_bot
from meeple.bots.external import ExternalBot, is_external, make_arena_bot
from meeple.kernel.family import new_game
from meeple.lab.arena import ArenaConfig, ArenaGame, tournament

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "arena"
PY = sys.executable


def _script(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / name
    path.write_text(body, encoding="utf-8")
    return str(path)


# A Python bot that answers with the first legal index until decision N, then does THEN.
MISBEHAVING = """
import json, sys, time
n = 0
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] != "decision":
        continue
    n += 1
    if n > {after}:
        {then}
    print(0, flush=True)
"""


def _misbehaving(tmp_path: Path, after: int, then: str) -> str:
    return _script(tmp_path, "bad.py", MISBEHAVING.format(after=after, then=then))


def _arena(
    kind: str, tables: int = 1, time_limit: float = 5.0
) -> tuple[dict[str, Any], list[ArenaGame]]:
    cfg = ArenaConfig("classic", 2, tables, 4, ("standard", kind), time_limit=time_limit)
    summary, games, _ = tournament(cfg)
    return summary, games


def test_the_python_example_plays_through_the_protocol() -> None:
    summary, games = _arena(f"cmd:{PY} {EXAMPLES / 'random_bot.py'}")
    assert len(games) == 2 and summary["notes"] == []
    assert all(g.end_reason != "turn_cap" for g in games)
    assert summary["leaderboard"][0]["name"] == "standard"


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_node_example_plays_through_the_protocol() -> None:
    summary, games = _arena(f"cmd:node {EXAMPLES / 'random_bot.js'}")
    assert len(games) == 2 and summary["notes"] == []


def test_the_shell_example_plays_through_the_protocol() -> None:
    summary, games = _arena(f"exec:sh {EXAMPLES / 'first_bot.sh'}")
    assert len(games) == 2 and summary["notes"] == []


def test_the_same_tournament_with_an_external_bot_plays_the_same_games() -> None:
    kind = f"cmd:{PY} {EXAMPLES / 'random_bot.py'}"
    assert _arena(kind)[1] == _arena(kind)[1]  # the program is seeded by the arena


@pytest.mark.parametrize(
    ("then", "why"),
    [
        ("sys.exit(3)", "exited with status 3 (after 3 decisions)"),
        ("raise RuntimeError('boom')", "exited with status 1 (after 3 decisions)"),
        ("print(999, flush=True); continue", "answered 999, not one of the"),
        ("print('buy', flush=True); continue", "answered 'buy', not an index"),
        ("print(' 1x', flush=True); continue", "answered '1x', not an index"),
        ("time.sleep(30)", "no answer within 0.5 s (after 3 decisions)"),
    ],
)
def test_a_program_that_fails_forfeits_its_seat_to_the_standard_bot(
    tmp_path: Path, then: str, why: str
) -> None:
    kind = f"cmd:{PY} {_misbehaving(tmp_path, 3, then)}"
    summary, games = _arena(kind, time_limit=0.5)
    assert len(games) == 2  # both games finished, by the rules
    assert all(g.end_reason == "last_player_standing" for g in games)
    assert [len(g.forfeited) for g in games] == [1, 1]
    for g, note in zip(games, summary["notes"], strict=True):
        seat = g.seats.index(1)
        assert g.forfeited == [seat]
        assert note.startswith(f"table 1, seating {g.seating + 1}, seat {seat + 1} (cmd:")
        assert why in note and note.endswith("the standard bot played on")
    (entry,) = [s for s in summary["leaderboard"] if s["kind"] == kind]
    assert entry["forfeits"] == 2


def test_the_stand_in_takes_over_for_the_rest_of_the_game(tmp_path: Path) -> None:
    script = _misbehaving(tmp_path, 2, "sys.exit(0)")
    s = new_game("classic", 2, 9, {"max_turns": 400})
    bot = make_arena_bot(f"cmd:{PY} {script}", "monopoly", 5, 5.0)
    assert isinstance(bot, ExternalBot)
    other = make_bot("standard", "monopoly", 6)
    while not s.is_terminal() and not bot.forfeit:
        seat = s.current_player()
        s.apply((bot if seat == 0 else other).choose(s))
    assert bot.forfeit == "exited with status 0 (after 2 decisions)"
    assert bot.decisions == 2 and bot._proc is None  # stopped
    assert bot._stand_in is not None and bot._stand_in.name == other.name
    while not s.is_terminal():  # the standard bot plays the seat on, legally
        s.apply((bot if s.current_player() == 0 else other).choose(s))
    bot.close(s)
    assert bot.decisions == 2


def test_a_program_that_cannot_start_forfeits_at_its_first_decision(tmp_path: Path) -> None:
    s = new_game("classic", 2, 1, {})
    bot = ExternalBot(str(tmp_path / "missing"), 3, lambda: make_bot("random", "monopoly", 3))
    while s.legal_actions() and len(s.legal_actions()) == 1:
        s.apply(s.legal_actions()[0])
    bot.choose(s)
    assert bot.forfeit.startswith("could not start")


def test_the_program_sees_only_its_view_and_the_legal_actions(tmp_path: Path) -> None:
    log = tmp_path / "seen.jsonl"
    recorder = _script(
        tmp_path,
        "rec.py",
        f"""
import json, sys
with open({str(log)!r}, "a") as out:
    for line in sys.stdin:
        out.write(line)
        out.flush()
        m = json.loads(line)
        if m["type"] == "decision":
            print(len(m["legal"]) - 1, flush=True)
""",
    )
    s = new_game("classic", 2, 2, {"max_turns": 60})
    bot = make_arena_bot(f"cmd:{PY} {recorder}", "monopoly", 8, 5.0)
    assert isinstance(bot, ExternalBot)
    other = make_bot("standard", "monopoly", 1)
    views = []
    while not s.is_terminal():
        seat = s.current_player()
        if seat == 0 and len(s.legal_actions()) > 1:
            views.append((s.view(0), s.legal_actions()))
        s.apply((bot if seat == 0 else other).choose(s))
    bot.close(s)
    assert not bot.forfeit
    seen = [json.loads(line) for line in log.read_text().splitlines()]
    assert seen[0]["type"] == "start" and seen[0]["seat"] == 0 and seen[0]["seed"] == 8
    assert seen[0]["game"] == "classic" and seen[0]["board"]["family"] == "monopoly"
    assert seen[-1]["type"] == "end" and seen[-1]["result"]["end_reason"]
    decisions = [m for m in seen if m["type"] == "decision"]
    assert len(decisions) == len(views) > 5
    for m, (view, legal) in zip(decisions, views, strict=True):
        assert m["seat"] == 0
        assert m["view"] == json.loads(json.dumps(view))  # the seat's view, nothing more
        assert [a["action"] for a in m["legal"]] == [str(a) for a in legal]
        assert [a["index"] for a in m["legal"]] == list(range(len(legal)))
    text = log.read_text()
    assert '"rng"' not in text and str(s.snapshot()["rng"]) not in text


def test_external_kinds_are_the_arenas_only() -> None:
    assert is_external("cmd:x") and is_external("exec:x") and not is_external("standard")
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("cmd:true", "monopoly", 0)  # a server or a lobby never starts a program
