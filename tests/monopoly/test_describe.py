"""Every event the engine emits has plain words (``meeple replay`` prints no raw data)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from meeple.bots.base import RandomBot
from meeple.games.monopoly import new_monopoly
from meeple.games.monopoly.edition import builtin_edition_ids

SRC = Path(__file__).resolve().parents[2] / "src" / "meeple" / "games" / "monopoly"


def test_every_event_kind_has_a_description() -> None:
    emitted = set()
    for path in SRC.rglob("*.py"):
        emitted |= set(re.findall(r'\.event\(\s*"([a-z_]+)"', path.read_text()))
    described = set(re.findall(r'k == "([a-z_]+)"', (SRC / "describe.py").read_text()))
    assert emitted, "no events found"
    assert emitted <= described, f"events without words: {sorted(emitted - described)}"


@pytest.mark.parametrize("edition", builtin_edition_ids())
def test_descriptions_of_played_games_are_words(edition: str) -> None:
    s = new_monopoly(edition, 3, 5, {"max_turns": 60})
    bots = [RandomBot(i) for i in range(3)]
    while not s.is_terminal():
        for a in s.legal_actions():
            assert s.describe_action(a)
        for e in s.apply(bots[s.current_player()].choose(s)):
            text = s.describe(e)
            assert text and "{" not in text, text
