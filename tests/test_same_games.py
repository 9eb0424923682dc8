"""Same seeds, same games: seeded bot games of every game id play exactly as recorded in
``tests/golden/fingerprints.json`` (issue 19: a redesign changes no game of any edition).

The record holds, per case, the SHA-256 of the actions played, their number and the result
(``tools/make_fingerprints.py`` says what a case is). A rule, a random stream or the order of
legal actions that changes makes a case differ; after a deliberate change, regenerate with
``python tools/make_fingerprints.py`` and review the diff.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location(
    "make_fingerprints", ROOT / "tools" / "make_fingerprints.py"
)
assert spec and spec.loader
make_fingerprints = importlib.util.module_from_spec(spec)
spec.loader.exec_module(make_fingerprints)

RECORDED = json.loads(make_fingerprints.PATH.read_text())


def test_every_game_id_is_recorded() -> None:
    """A new game id or player count is recorded before anything reshapes it."""
    assert sorted(make_fingerprints.key(*c) for c in make_fingerprints.cases()) == sorted(RECORDED)


@pytest.mark.parametrize("case", make_fingerprints.cases(), ids=lambda c: make_fingerprints.key(*c))
def test_the_same_game_is_played(case: tuple[str, int, int, str]) -> None:
    assert make_fingerprints.fingerprint(*case) == RECORDED[make_fingerprints.key(*case)]
