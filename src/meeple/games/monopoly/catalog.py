"""The shipped editions as a game list shows them (id, name, player range), read from each
edition file's own header with ``tomllib`` alone: listing the games (``meeple editions``, the
lobby's first page) neither validates a whole edition nor loads the engine (issue 18, quick
start-up). ``tests/monopoly/test_edition.py`` checks it says what loading each edition says.
"""

from __future__ import annotations

import tomllib
from importlib import resources
from typing import NamedTuple


class Entry(NamedTuple):
    """One shipped edition as a list of games shows it."""

    id: str
    name: str
    min_players: int
    max_players: int


def builtin_edition_ids() -> list[str]:
    """The ids of the editions shipped with meeple."""
    folder = resources.files("meeple.games.monopoly") / "editions"
    return sorted(f.name[:-5] for f in folder.iterdir() if f.name.endswith(".toml"))


def builtin_catalog() -> list[Entry]:
    """Every shipped edition's id, name and player range, in id order. Every shipped file
    states its ``rules.min_players`` and ``rules.max_players``; the edition model's own
    defaults (2 and 8) stand in for a file that does not."""
    folder = resources.files("meeple.games.monopoly") / "editions"
    out = []
    for eid in builtin_edition_ids():
        data = tomllib.loads((folder / f"{eid}.toml").read_text(encoding="utf-8"))
        rules = data.get("rules", {})
        out.append(
            Entry(eid, data["name"], rules.get("min_players", 2), rules.get("max_players", 8))
        )
    return out
