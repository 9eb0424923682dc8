"""docs/BOTS.md's measured tables are what ``tools/bot_tables.py`` writes: a small run of the
tool makes every table, a row per edition and player count, with 95% Wilson intervals, and the
document holds the tool's markers with a run of the documented size between them."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bot_tables", ROOT / "tools/bot_tables.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_small_run_makes_every_table(tmp_path: Path) -> None:
    tool = _tool()
    never = tmp_path / "never.json"
    never.write_text(json.dumps(tool.NEVER))
    body = tool.tables(6, 4, 0, 1, ["classic", "my-first-monopoly-1"], str(never))
    lines = body.splitlines()
    assert lines[0].startswith("Measured by `python tools/bot_tables.py --games 6 --vs-games 4")
    rows = [line for line in lines if re.match(r"\| (classic|my-first-monopoly-1) \|", line)]
    # Two editions of 2-6 players in the first two tables; only classic (buildings) in the third.
    assert len(rows) == 5 + 5 + 5 + 5 + 5
    first = rows[0].split(" | ")
    assert first[:3] == ["| classic", "2", "6"]
    assert re.fullmatch(r"\d+\.\d\d% \(\d+\.\d\d%-\d+\.\d\d%\)", first[5])  # capped, interval
    kids = [r for r in rows if r.startswith("| my-first-monopoly-1 | 4 | 6 |")]
    assert "all_properties_sold 6" in kids[0]  # how level 1 ends: every property sold
    vs_random = next(r for r in rows if r.startswith("| classic | 3 | 4 |")).split(" | ")
    assert vs_random[4] == "33.33%"  # what an equal player would win


def test_the_document_holds_a_run_of_the_tool() -> None:
    tool = _tool()
    doc = (ROOT / "docs/BOTS.md").read_text(encoding="utf-8")
    assert tool.START in doc and tool.END in doc
    body = doc.split(tool.START)[1].split(tool.END)[0]
    assert body.startswith("Measured by `python tools/bot_tables.py --games ")
    assert tool.updated(doc, body) == doc
    editions = ("classic", "friends", "frozen-ii", "my-first-monopoly-1", "my-first-monopoly-2")
    for edition in editions:
        for n in range(2, 7):
            assert f"| {edition} | {n} |" in body, (edition, n)


def test_a_small_run_makes_the_monopolis_tables() -> None:
    """What each bot builds, and who wins, for 2 to 4 players: standard and standard-v1 against
    random and each other, and the search bot against standard."""
    tool = _tool()
    body = tool.monopolis_tables(3, 2, "mcts:2", 0, 1)
    lines = body.splitlines()
    assert lines[0].startswith("Measured by `python tools/bot_tables.py --family monopolis")
    built = [line for line in lines if re.match(r"\| standard(-v1)? \| [234] \| 3 \|", line)]
    assert len(built) == 6 and all("last_house 3" in line for line in built)
    wins = [line for line in lines if re.match(r"\| `[a-z0-9:-]+` \| `", line)]
    assert len(wins) == 4 * 3
    mcts = [line.split(" | ") for line in wins if line.startswith("| `mcts:2` | `standard` |")]
    assert [row[2] for row in mcts] == ["2", "3", "4"] and mcts[0][3] == "2"
    assert re.fullmatch(r"\d+\.\d\d% \(\d+\.\d\d%-\d+\.\d\d%\)", mcts[0][4])


def test_the_document_holds_a_run_of_the_monopolis_tables() -> None:
    tool = _tool()
    doc = (ROOT / "docs/BOTS.md").read_text(encoding="utf-8")
    body = doc.split(tool.MONOPOLIS_START)[1].split(tool.MONOPOLIS_END)[0]
    assert body.startswith("Measured by `python tools/bot_tables.py --family monopolis ")
    assert tool.updated(doc, body, tool.MONOPOLIS_START, tool.MONOPOLIS_END) == doc
    for bot, other in (
        ("standard", "random"),
        ("standard", "standard-v1"),
        ("mcts:16", "standard"),
    ):
        for n in (2, 3, 4):
            assert f"| `{bot}` | `{other}` | {n} |" in body, (bot, other, n)
